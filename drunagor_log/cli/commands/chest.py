"""The Chest deck, the Commander Attack deck and Spoils upgrades: `chest show|add|swap`,
`commander show|add|swap|remove`, `spoils upgrade` (SPEC 4, 5.4, 5.7, 5.8; RB L345-435, L816-828).

The rules live in rules/chest.py, rules/commander.py and rules/spoils.py; this module turns
arguments into calls, edits the TOML documents in place and prints.
"""


import contextlib
from typing import Annotated, Optional

import typer

from ...values import replace as replace_record

from ...errors import DrunagorError, RuleError, UsageError
from ...model import ChestCard
from ..common import CommitOpt, JsonOpt, finish, open_campaign, warn_all
from ..terminal import term

chest_app = typer.Typer(help="The Chest deck: the Epic Rare pair and 9 Potions + 9 Scrolls (RB L345-371).",
                        no_args_is_help=True)
commander_app = typer.Typer(help="The 10-card Commander Attack deck, one card per Rune position (RB L816-828).",
                            no_args_is_help=True)
spoils_app = typer.Typer(help="Improve Spoils Equipment one quality step (RB L409-435).", no_args_is_help=True)

TypeOpt = Annotated[Optional[str], typer.Option("--type", metavar="potion|scroll",
                                                help="The card's type, when drunagor does not know it (remembered).")]
RarityOpt = Annotated[Optional[str], typer.Option("--rarity", metavar="common|uncommon|rare",
                                                  help="The card's rarity, when drunagor does not know it (remembered).")]


# ----------------------------------------------------------------------------------- helpers


@contextlib.contextmanager
def _located(f, key_path: tuple = ()):
    """Refusals from the pure rules get the file (and line) they are about."""
    try:
        yield
    except DrunagorError as exc:
        if exc.file is None and f is not None:
            exc.file = f.shown
            exc.line = f.line(key_path) if key_path else None
        raise


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    from ...store.tomltext import basic_string

    return basic_string(value)


def _inline(**kv):
    """An inline table written as the files write them: { name = "...", copies = 2 }."""
    import tomlkit

    body = ", ".join(f"{k} = {_toml(v)}" for k, v in kv.items() if v is not None)
    return tomlkit.parse(f"x = {{ {body} }}")["x"]


def _append(container, key: str, values: list) -> None:
    """Append values to the array container[key], one entry per line (merge-friendly). A one-line
    array is rewritten as a multi-line one; its trailing comment is kept."""
    if key not in container:
        new = _array_lines([_line(v) for v in values])
        new.trivia.trail = "\n"
        _add_key(container, key, new)
        return
    arr = container[key]
    if "\n" in arr.as_string():
        for v in values:
            arr.append(_inline(**v) if isinstance(v, dict) else v)
        return
    lines = [e.as_string().strip() for e in arr] + [_line(v) for v in values]
    container[key] = _array_lines(lines)  # tomlkit keeps the key's place and trailing comment


def _line(value) -> str:
    return _inline(**value).as_string() if isinstance(value, dict) else _toml(value)


def _array_lines(lines: list[str]):
    import tomlkit

    return tomlkit.parse("x = [\n" + "".join(f"  {line},\n" for line in lines) + "]\n")["x"]


def _add_key(container, key: str, value) -> None:
    """A new key; at the top level of a document it goes before the first table."""
    from tomlkit.items import AoT, Table

    if hasattr(container, "body"):  # a document
        from tomlkit.items import Whitespace

        body = container.body
        for i, (k, item) in enumerate(body):
            if k is not None and isinstance(item, (Table, AoT)):
                while i > 0 and body[i - 1][0] is None and isinstance(body[i - 1][1], Whitespace):
                    i -= 1  # before the blank line that sets the table off
                container._insert_at(i, key, value)
                return
    container[key] = value


def _table(doc, key: str):
    import tomlkit

    if key not in doc:
        doc[key] = tomlkit.table()
    return doc[key]


def _record_facts(doc, name: str, **facts) -> None:
    """Store facts about a card under [cards] (SPEC "User-recorded facts"), in the card's own entry."""
    from ...rules.chest import same_card

    facts = {k: v for k, v in facts.items() if v is not None}
    if not facts:
        return
    cards = _table(doc, "cards")
    for key in list(cards.keys()):
        if same_card(key, name) and hasattr(cards[key], "keys"):
            for k, v in facts.items():
                cards[key][k] = v
            return
    _add_to_table(cards, name, _inline(**facts))


def _add_to_table(table, key: str, value) -> None:
    """A new key at the end of a table's entries, before the blank lines that close it (tomlkit
    would put it after them, gluing the next table header to it)."""
    from tomlkit.items import Whitespace

    if "\n" not in value.trivia.trail:
        value.trivia.trail = "\n"
    body = table.value.body
    idx = len(body)
    while idx > 0 and body[idx - 1][0] is None and isinstance(body[idx - 1][1], Whitespace):
        idx -= 1
    if idx == len(body):
        table[key] = value
    else:
        table.value._insert_at(idx, key, value)


def _check_choice(value: str | None, choices: tuple[str, ...], flag: str) -> str | None:
    if value is None:
        return None
    v = value.strip().casefold()
    if v not in choices:
        raise UsageError(f"{flag} must be one of {', '.join(choices)}, not {value!r}")
    return v


def _last_chapter(c) -> str | None:
    """The chapter an upgrade happens in: the adventure under way, else the last one completed."""
    adv = c.adventure_file
    if adv is not None:
        from ...model import chapter_id

        try:
            return chapter_id(adv.data.get("chapter"))
        except ValueError:
            pass
    done = c.story.completed()
    return done[-1] if done else None


# ------------------------------------------------------------------------------- chest show


def _cell(n: int, want: int) -> str:
    if n == want:
        return f"{n}/{want}"
    return f"{n}/{want} " + (f"{want - n} short" if n < want else f"{n - want} too many")


def chest_show(json: JsonOpt = False) -> None:
    """The Chest deck: the Epic Rare pair and the grid of Potions and Scrolls by rarity.

    Counts are shown against the grid (4 Common, 3 Uncommon, 2 Rare of each type, RB L357-359),
    with gaps and excesses marked, then whether the deck is legal, what is wrong, or which facts
    are still to record.

    Example: drunagor chest show
    """
    from ...rules import chest

    with open_campaign() as c:
        story = c.story
        warn_all(c)
    data = chest.summary(story)
    if json:
        term.json(data)
        return
    g = chest.grid(story)
    term.heading(f"Chest deck: {data['text']}")
    term.line(f"Epic Rare (fixed, RB L345): {', '.join(g.epic) or 'not recorded'}")
    rows = []
    for t in chest.TYPES:
        row = [chest.PLURAL[t]] + [_cell(g.counts[t][r], g.target[t][r]) for r in chest.RARITIES]
        row.append(_cell(g.type_totals[t], sum(g.target[t].values())))
        rows.append(row)
    term.line()
    term.table(["", "Common", "Uncommon", "Rare", "Total"], rows)
    if g.cards:
        term.line()
        term.table(["Card", "Copies", "Type", "Rarity"],
                   [[card.name, card.copies, f.type or "?", f.rarity or ("-" if f.type == "treasure" else "?")]
                    for card, f in g.cards])
    for p in g.problems:
        term.line(f"wrong: {p.message}", "red")
    for name, missing in g.missing:
        flags = " ".join(f"--{m} {'|'.join(chest.TYPES if m == 'type' else chest.RARITIES)}" for m in missing)
        term.line(f"fact missing: the {' and '.join(missing)} of {name} is unknown, so its place in the grid "
                  f"cannot be checked; record it once: drunagor chest add \"{name}\" --copies 0 {flags}", "yellow")


# -------------------------------------------------------------------------------- chest add


def chest_add(
    card: Annotated[str, typer.Argument(help="The Potion or Scroll.")],
    copies: Annotated[int, typer.Option("--copies", help="Copies to add (0: only record --type/--rarity).")] = 1,
    type_: TypeOpt = None,
    rarity: RarityOpt = None,
    commit: CommitOpt = False,
) -> None:
    """Put a Potion or Scroll in the Chest deck while recording it; remember its type and rarity.

    Type and rarity come from the catalog where a source gives them; otherwise give them once with
    --type and --rarity: they are stored under [cards] in story.toml, because the grid (4 Common,
    3 Uncommon, 2 Rare of each type, RB L357-359) cannot be checked without them. `--copies 0`
    records the facts of a card without adding a copy. A card that would break the grid is refused.

    Example: drunagor chest add "Potion of Healing" --copies 3 --rarity common
    """
    from ... import catalog
    from ...rules import chest

    type_ = _check_choice(type_, chest.FACT_TYPES, "--type")
    rarity = _check_choice(rarity, chest.RARITIES, "--rarity")
    if not 0 <= copies <= 9:
        raise UsageError(f"--copies must be from 0 to 9, not {copies}")
    if copies == 0 and type_ is None and rarity is None:
        raise UsageError("--copies 0 adds nothing", remedy="give --type or --rarity to record, or at least 1 copy")
    with open_campaign(write=True) as c:
        story = c.story
        sf = c.story_file
        entry = catalog.chest_card(card)
        # An exact name only: a prefix finds a card, but must not add copies or facts to another.
        existing = next((x for x in story.chest_cards if chest.same_card(x.name, card)), None)
        key, _ = chest.recorded(story.cards, card)
        name = entry["name"] if entry else (existing.name if existing else key or card.strip())
        if not name:
            raise UsageError("the card needs a name")
        facts = chest.card_facts(name, story.cards)
        with _located(sf, ("chest", "epic")):
            if facts.epic_rare:
                why = ("was replaced for good by Artisan's Tools and Treasure Trove before the campaign (RB L369-371)"
                       if facts.retired else "is one of the Epic Rare pair, which is fixed (RB L345)")
                raise RuleError(f"{facts.name} {why}; only Potions and Scrolls are added", rule="chest-deck")
        if type_ == "other" and copies:
            raise RuleError(f"{name} is recorded as neither a Potion nor a Scroll; only Potions and Scrolls join "
                            f"the Epic Rare pair (RB L349-355)", rule="chest-deck",
                            remedy="use --copies 0 to record that fact alone")
        wrong = chest.conflicts(name, type_, rarity)
        if wrong:
            raise UsageError("; ".join(wrong), rule="chest-deck", remedy="leave the flag out: drunagor knows this card")
        new_facts = {k: v for k, v in (("type", type_), ("rarity", rarity))
                     if v is not None and getattr(facts, k) != v and not (entry and entry.get(k))}
        facts_after = dict(story.cards)
        if new_facts:
            k0, old = chest.recorded(story.cards, name)
            facts_after[k0 or name] = {**old, **new_facts}
        # Is the deck still within the grid with these copies (and facts)?
        cards_after = list(story.chest_cards)
        if copies:
            i = next((n for n, x in enumerate(cards_after) if chest.same_card(x.name, name)), None)
            if i is None:
                cards_after.append(ChestCard(name, copies))
            else:
                cards_after[i] = replace_record(cards_after[i], copies=cards_after[i].copies + copies)
        before = {p.message for p in chest.grid(story).problems}
        # A Story Record without the Epic Rare pair gets it with the first card (RB L369-371).
        add_pair = copies > 0 and "epic" not in (sf.data.get("chest") or {})
        after_story = replace_record(story, chest_cards=tuple(cards_after), cards=facts_after,
                                          chest_epic=chest.epic_pair() if add_pair else story.chest_epic)
        g = chest.grid(after_story)
        new_problems = [p for p in g.problems if p.message not in before]
        f_new = chest.card_facts(name, facts_after)
        if new_problems:
            with _located(sf, ("chest", "cards")):
                what = _added(name, copies) if copies else f"recording {name} as {_a(_kind_words(f_new).strip(' ()'))}"
                raise RuleError(f"{what} would break the grid: {new_problems[0].message}",
                                rule="chest-deck",
                                remedy="record the deck as it is on the table; to change a card, use "
                                       "drunagor chest swap OUT IN")
        doc = sf.edit()
        if new_facts:
            _record_facts(doc, name, **new_facts)
        if copies:
            chest_t = _table(doc, "chest")
            if add_pair:
                _append(chest_t, "epic", list(chest.epic_pair()))
            _set_copies(chest_t, name, next(x.copies for x in cards_after if chest.same_card(x.name, name)))
        if entry is None and key is None and existing is None:
            hint = catalog.closest(name, [e["name"] for e in catalog.chest_cards()])
            if hint and not chest.same_card(hint, name):
                term.warn(f"{name} is not a card drunagor knows; did you mean {hint!r}?")
        f_after = chest.card_facts(name, facts_after)
        if f_after.missing and copies:
            flags = " ".join(f"--{m} {'|'.join(chest.TYPES if m == 'type' else chest.RARITIES)}" for m in f_after.missing)
            term.warn(f"the {' and '.join(f_after.missing)} of {name} is unknown, so the grid (RB L357-359) cannot "
                      f"be checked; record it once: drunagor chest add \"{name}\" --copies 0 {flags}")
        what = _kind_words(f_after)
        if copies:
            message = f"Chest deck: added {_added(name, copies)}{what}; {g.total} of {chest.DECK_SIZE} Potions and Scrolls recorded"
        else:
            message = f"recorded: {name} is {_a(what.strip(' ()'))}"
        finish(c, message, commit)


def _a(words: str) -> str:
    from ...rules.chest import a

    return words if words.startswith("neither") else a(words)


def _added(name: str, copies: int) -> str:
    return f"{copies} {name}" if copies != 1 else name


def _kind_words(f) -> str:
    if f.type == "other":
        return " (neither a Potion nor a Scroll)"
    from ...rules.chest import SINGULAR

    parts = [f.rarity.capitalize() if f.rarity else None, SINGULAR.get(f.type) if f.type else None]
    parts = [p for p in parts if p]
    return f" ({' '.join(parts)})" if parts else ""


def _set_copies(chest_t, name: str, copies: int) -> None:
    """The deck entry for name gets `copies` (0: the entry goes), edited in place."""
    from ...rules.chest import same_card

    if "cards" not in chest_t:
        _append(chest_t, "cards", [{"name": name, "copies": copies}])
        return
    arr = chest_t["cards"]
    for i, e in enumerate(arr):
        ename = e if isinstance(e, str) else e.get("name", "")
        if same_card(str(ename), name):
            if copies == 0:
                del arr[i]
            elif isinstance(e, str):
                arr[i] = _inline(name=str(e), copies=copies)
            else:
                e["copies"] = copies
            return
    if copies:
        _append(chest_t, "cards", [{"name": name, "copies": copies}])


# ------------------------------------------------------------------------------- chest swap


def chest_swap(
    out: Annotated[str, typer.Argument(metavar="OUT", help="The Potion or Scroll leaving the deck.")],
    into: Annotated[str, typer.Argument(metavar="IN", help="The card of the same type and rarity replacing it.")],
    copies: Annotated[int, typer.Option("--copies", help="How many copies of OUT to replace.")] = 1,
    type_: TypeOpt = None,
    rarity: RarityOpt = None,
    yes: Annotated[bool, typer.Option("--yes", help="Do it: swap, and remove the returned Potions and Scrolls from the logs.")] = False,
    json: JsonOpt = False,
    commit: CommitOpt = False,
) -> None:
    """Replace a Potion or Scroll by one of the same type and rarity (Camp phase only).

    The Epic Rare pair cannot be replaced (RB L345). Changing the composition makes the party first
    return every Potion and Scroll it owns; Epic Rare treasures are kept (RB L361). Without --yes
    nothing is written: the command says what the swap would do and which cards each hero returns
    (also during an adventure, when --yes is refused: the deck changes only in a Camp phase).
    With --yes the deck changes and those cards leave the Campaign Logs (and the party stash), all
    in one write. --type/--rarity give IN's facts when drunagor does not know them (remembered).

    On the example campaign an adventure is under way, so this shows the swap and writes nothing;
    after `drunagor adventure end`, add --yes to do it.

    Example: drunagor chest swap "Scroll of Incinerate" "Scroll of Protection"
    """
    from ...rules import chest

    type_ = _check_choice(type_, chest.TYPES, "--type")
    rarity = _check_choice(rarity, chest.RARITIES, "--rarity")
    with open_campaign(write=yes) as c:
        story = c.story
        sf = c.story_file
        under_way = c.adventure_file is not None
        if under_way and yes:
            raise RuleError("an adventure is under way: the Chest deck can be changed only during a Camp phase "
                            "(RB L361)", rule="chest-swap", file=c.adventure_file.shown,
                            remedy="finish the adventure first (drunagor adventure end --won|--lost)")
        wrong = chest.conflicts(into, type_, rarity)
        if wrong:
            raise UsageError("; ".join(wrong), rule="chest-swap", remedy="leave the flag out: drunagor knows this card")
        known = chest.card_facts(into, story.cards)
        name_in = known.name if known.in_catalog else (chest.recorded(story.cards, into)[0] or into.strip())
        in_facts = replace_record(known, name=name_in, type=known.type or type_, rarity=known.rarity or rarity)
        with _located(sf, ("chest", "cards")):
            plan = chest.plan_swap(story, out, in_facts, copies)
        holders = {h.name: [(i.name, i.kind) for i in h.equipment] for h in c.active_heroes().values()}
        if story.stash:
            holders["party stash"] = [(n, "consumable") for n in story.stash]
        back = chest.returns(holders, story)
        new_facts = {k: v for k, v in (("type", type_), ("rarity", rarity))
                     if v is not None and getattr(known, k) is None}
        cell = f"{plan.out.rarity.capitalize()} {chest.PLURAL[plan.out.type]}"
        summary = f"{_added(plan.out.name, plan.copies)} out, {_added(name_in, plan.copies)} in ({cell}, RB L345, L363)"
        report = {"out": plan.out.name, "in": name_in, "copies": plan.copies, "type": plan.out.type,
                  "rarity": plan.out.rarity, "returns": {k: list(v) for k, v in back.by_holder.items()},
                  "unknown": {k: list(v) for k, v in back.unknown.items()}, "written": False,
                  "camp_phase": not under_way}
        if back.unknown and yes:
            who, items = next(iter(back.unknown.items()))
            raise UsageError(f"drunagor cannot tell whether {items[0]} ({who}) is a Potion or a Scroll, which the "
                             f"party must return when the composition changes (RB L361)", rule="chest-swap",
                             remedy=f"record it once: drunagor chest add \"{items[0]}\" --copies 0 --type potion|scroll|other")
        if not yes:
            if json:
                term.json(report)
            else:
                _print_returns(summary, back)
                if under_way:
                    term.line("Nothing written. An adventure is under way: the Chest deck can be changed only during "
                              "a Camp phase (RB L361); after `drunagor adventure end`, run again with --yes.")
                else:
                    term.line("Nothing written: run again with --yes to swap and remove these cards from the logs.")
            return
        doc = sf.edit()
        if new_facts:
            _record_facts(doc, name_in, **new_facts)
        _swap_entries(doc["chest"], story, plan, name_in)
        returned = []
        for slug_, hero in c.active_heroes().items():
            gone = set(back.by_holder.get(hero.name, ()))
            idx = [i for i, it in enumerate(hero.equipment) if it.kind == "consumable" and it.name in gone]
            if idx:
                eq = c.hero_files[slug_].edit()["equipment"]
                for i in reversed(idx):
                    del eq[i]
                returned.append(f"{hero.name}: {', '.join(hero.equipment[i].name for i in idx)}")
        stash_back = back.by_holder.get("party stash", ())
        if stash_back:
            arr = doc["stash"]
            for i in reversed([i for i, n in enumerate(story.stash) if n in stash_back]):
                del arr[i]
            returned.append(f"party stash: {', '.join(stash_back)}")
        message = f"Chest deck: {summary}"
        message += ("; returned to the Chest deck (RB L361): " + "; ".join(returned)) if returned else \
            "; no Potion or Scroll to return"
        changed = finish(c, message, commit, quiet=json)
        if json:
            term.json({**report, "written": bool(changed)})


def _swap_entries(chest_t, story, plan, name_in: str) -> None:
    """Edit the deck in place. When OUT leaves entirely and IN is new, IN takes OUT's line."""
    from ...rules.chest import same_card

    left = next((x.copies for x in plan.cards if same_card(x.name, plan.out.name)), 0)
    was_in = any(same_card(x.name, name_in) for x in story.chest_cards)
    arr = chest_t["cards"]
    if left == 0 and not was_in:
        for i, e in enumerate(arr):
            ename = e if isinstance(e, str) else e.get("name", "")
            if same_card(str(ename), plan.out.name):
                arr[i] = _inline(name=name_in, copies=plan.copies)
                return
    _set_copies(chest_t, plan.out.name, left)
    _set_copies(chest_t, name_in, next(x.copies for x in plan.cards if same_card(x.name, name_in)))


def _print_returns(summary: str, back) -> None:
    term.line(f"Swap: {summary}.")
    term.line("The composition changes, so the party first returns every Potion and Scroll it owns; "
              "Epic Rare treasures are kept (RB L361):")
    if not back.by_holder:
        term.line("  nothing to return")
    for who, items in back.by_holder.items():
        term.line(f"  {who}: {', '.join(items)}")
    for who, items in back.unknown.items():
        term.line(f"  {who}: cannot tell whether {', '.join(items)} is a Potion or a Scroll; record it with "
                  f"drunagor chest add NAME --copies 0 --type potion|scroll|other", "yellow")


# ----------------------------------------------------------------------------- commander deck


def commander_show(json: JsonOpt = False) -> None:
    """The Commander Attack deck: which card holds each of the 10 Rune positions (RB L820-824).

    Example: drunagor commander show
    """
    from ...rules import commander

    with open_campaign() as c:
        story = c.story
        warn_all(c)
    d = commander.deck(story)
    data = {
        "status": d.status,
        "legal": d.status == "legal",
        "cards": [{"name": p.card, "position": p.position, "source": p.source} for p in d.cards],
        "positions": d.by_position,
        "free": list(d.free),
        "unknown": list(d.unknown),
        "problems": [p.message for p in d.problems],
        "text": d.text(),
    }
    if json:
        term.json(data)
        return
    term.heading(f"Commander Attack deck: {d.text()}")
    term.line()
    term.table(["Position", "Card"], [[pos, " + ".join(held) if held else "-"] for pos, held in d.by_position.items()])
    if d.unknown:
        term.line()
        for name in d.unknown:
            term.line(f"position unknown: {name}; record it once: drunagor commander add \"{name}\" "
                      f"--position COLOUR-top|bottom", "yellow")


def _commander_write(c, add: str | None, remove: str | None, position: str | None) -> str | None:
    """Edit [commander] cards (and [cards] facts) in place: IN takes OUT's place in the list."""
    from ...rules import commander

    story = c.story
    doc = c.story_file.edit()
    table = _table(doc, "commander")
    p = commander.plan_add(story, add, position, replacing=remove) if add is not None else None
    at = next((i for i, x in enumerate(story.commander) if x == remove), None) if remove is not None else None
    if at is not None:
        if p is not None:
            table["cards"][at] = p.card
        else:
            del table["cards"][at]
    elif p is not None:
        _append(table, "cards", [p.card])
    if p is not None and position is not None and commander.position_of(p.card, story.cards).source != "catalog":
        _record_facts(doc, p.card, position=p.position)
    return p.card if p is not None else None


def commander_add(
    card: Annotated[str, typer.Argument(help="The Commander Attack card.")],
    position: Annotated[Optional[str], typer.Option("--position", metavar="COLOUR-top|bottom",
                                                    help="The card's Rune position, when drunagor does not know it (remembered).")] = None,
    commit: CommitOpt = False,
) -> None:
    """Put a card in the Commander Attack deck while recording it; remember its Rune position.

    No Rune position may be held by two cards and the deck holds exactly 10 (RB L820-824). Positions
    come from the catalog where known (Haste, Life Heat: orange-bottom; Flame Swipe, Inferno:
    orange-top); otherwise give --position once and it is stored under [cards]. For a card already
    in the deck, --position records (or corrects) its position.

    On the example campaign Haste holds orange-bottom, so Life Heat joins once Haste is out.

    Example: drunagor commander remove Haste && drunagor commander add "Life Heat"
    """
    from ...rules import commander

    with open_campaign(write=True) as c:
        story = c.story
        sf = c.story_file
        with _located(sf, ("commander", "cards")):
            pos = commander.check_position_fact(card, position)
            present = commander.find_in_deck(story, card)
            if present is not None and commander.same_card(present, card):
                if pos is None:
                    raise RuleError(f"{present} is already in the Commander Attack deck", rule=commander.RULE,
                                    remedy="give --position to record its Rune position")
                others = [p.card for p in commander.deck(story).cards
                          if p.position == pos and not commander.same_card(p.card, present)]
                if others:
                    raise RuleError(f"{others[0]} already holds the {pos} Rune position: no position may be held "
                                    f"by two cards (RB L822-824)", rule=commander.RULE,
                                    remedy="check both cards")
                _record_facts(sf.edit(), present, position=pos)
                finish(c, f"recorded: {present} holds the {pos} Rune position", commit)
                return
            name = _commander_write(c, card, None, pos)
        d = commander.deck(replace_record(story, commander=story.commander + (name,)))
        p = commander.position_of(name, {**story.cards, name: {"position": pos}} if pos else story.cards)
        finish(c, f"Commander Attack deck: added {name} ({p.position}); {len(d.cards)} of "
                  f"{commander.deck_size()} cards recorded", commit)


def commander_swap(
    out: Annotated[str, typer.Argument(metavar="OUT", help="The card leaving the deck.")],
    into: Annotated[str, typer.Argument(metavar="IN", help="The card joining it.")],
    position: Annotated[Optional[str], typer.Option("--position", metavar="COLOUR-top|bottom",
                                                    help="IN's Rune position, when drunagor does not know it (remembered).")] = None,
    commit: CommitOpt = False,
) -> None:
    """Replace a Commander Attack card; IN must not hold a Rune position another card holds.

    "You could choose to combine Haste with Flame Swipe (replacing Inferno)" (RB L826); Haste and
    Life Heat both hold orange-bottom, so they are never in the deck together (RB L824).

    Example: drunagor commander swap "Flame Swipe" Inferno
    """
    from ...rules import commander

    with open_campaign(write=True) as c:
        story = c.story
        sf = c.story_file
        with _located(sf, ("commander", "cards")):
            pos = commander.check_position_fact(into, position)
            old = commander.find_in_deck(story, out)
            if old is None:
                raise UsageError(f"{out!r} is not in the Commander Attack deck", rule=commander.RULE,
                                 remedy="the deck holds: " + (", ".join(story.commander) or "nothing yet"))
            name = _commander_write(c, into, old, pos)
        finish(c, f"Commander Attack deck: {name} replaces {old}", commit)


def commander_remove(
    card: Annotated[str, typer.Argument(help="The card leaving the deck.")],
    commit: CommitOpt = False,
) -> None:
    """Take a card out of the Commander Attack deck (to correct the record).

    Example: drunagor commander remove Haste
    """
    from ...rules import commander

    with open_campaign(write=True) as c:
        story = c.story
        old = commander.find_in_deck(story, card)
        if old is None:
            raise UsageError(f"{card!r} is not in the Commander Attack deck", rule=commander.RULE,
                             file=c.story_file.shown,
                             remedy="the deck holds: " + (", ".join(story.commander) or "nothing yet"))
        _commander_write(c, None, old, None)
        finish(c, f"Commander Attack deck: removed {old}; {len(story.commander) - 1} of "
                  f"{commander.deck_size()} cards recorded", commit)


# ----------------------------------------------------------------------------- spoils upgrade


def spoils_upgrade(
    hero: Annotated[str, typer.Argument(help="The hero improving a Spoils card.")],
    item: Annotated[str, typer.Argument(help="The Spoils card to improve.")],
    discard: Annotated[str, typer.Option("--discard", metavar="OTHER",
                                         help="The other card disposed of, from the hero's bag.")],
    to: Annotated[Optional[str], typer.Option("--to", metavar="improved|ultimate",
                                              help="The quality expected (checked: one step only).")] = None,
    epic: Annotated[Optional[bool], typer.Option("--epic/--not-epic",
                                                 help="Whether OTHER is an Epic Item, when drunagor does not know (remembered).")] = None,
    commit: CommitOpt = False,
) -> None:
    """Improve a Spoils card one quality step, disposing of Artisan's Tools and another card.

    The hero needs Artisan's Tools in the bag and another card in the bag that is not a Consumable,
    an Epic Item or Starting Gear, and not the item itself (RB L413-419). The item goes up exactly
    one step, Standard -> Improved -> Ultimate (RB L421-423). The Artisan's Tools go back to the
    Chest deck when it is reformed; the other card and the old-quality card are stored for the rest
    of the campaign (story.toml `stored`, RB L431). The Campaign Log gains an `upgrades` entry.

    Example: drunagor spoils upgrade Vacrem "Heavy Shield" --discard "Captain's Brooch" --not-epic
    """
    from ...rules import spoils

    with open_campaign(write=True) as c:
        slug_, h = c.find_hero(hero, active_only=True)
        hf = c.hero_files[slug_]
        story = c.story
        with _located(hf, ("equipment",)):
            plan = spoils.plan_upgrade(h, item, discard, story.cards, to=to, epic=epic)
        doc = hf.edit()
        eq = doc["equipment"]
        _set_quality(eq, plan.item_index, plan.to)
        for i in sorted((plan.tools_index, plan.discard_index), reverse=True):
            del eq[i]
        chapter = _last_chapter(c)
        _append(doc, "upgrades", [{"item": plan.item.name, "to": plan.to, "discarded": plan.discard.name,
                                   "discarded_kind": plan.discard.kind, "chapter": chapter}])
        sdoc = c.story_file.edit()
        _append(sdoc, "stored", [plan.discard.name, plan.item.name])
        if plan.record_epic:
            _record_facts(sdoc, plan.discard.name, epic=False)
        old = (plan.item.quality or "standard").capitalize()
        finish(c, f"{h.name} improved {plan.item.name} to {plan.to.capitalize()}, disposing of Artisan's Tools "
                  f"(back to the Chest deck when it is reformed) and {plan.discard.name}; {plan.discard.name} and "
                  f"the {old} {plan.item.name} are stored for the rest of the campaign (RB L431)", commit)


def _set_quality(eq, i: int, quality: str) -> None:
    """Set an equipment entry's quality in place; an entry without one gets it after `kind`,
    written as the files write inline tables."""
    entry = eq[i]
    if "quality" in entry:
        entry["quality"] = quality
        return
    values = {}
    for k, v in entry.unwrap().items():
        values[k] = v
        if k == "kind":
            values["quality"] = quality
    values.setdefault("quality", quality)
    eq[i] = _inline(**values)


# ------------------------------------------------------------------------------------ register


def register(app: typer.Typer) -> None:
    chest_app.command("show")(chest_show)
    chest_app.command("add")(chest_add)
    chest_app.command("swap")(chest_swap)
    commander_app.command("show")(commander_show)
    commander_app.command("add")(commander_add)
    commander_app.command("swap")(commander_swap)
    commander_app.command("remove")(commander_remove)
    spoils_app.command("upgrade")(spoils_upgrade)
    app.add_typer(chest_app, name="chest")
    app.add_typer(commander_app, name="commander")
    app.add_typer(spoils_app, name="spoils")

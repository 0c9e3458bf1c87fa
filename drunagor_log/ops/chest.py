"""Chest deck, Commander Attack deck and Spoils upgrade operations (SPEC 4, 5.4, 5.7, 5.8; RB L345-435,
L816-828). The rules live in rules/chest.py, rules/commander.py and rules/spoils.py; these functions
resolve the names typed, ask the rules, and edit story.toml (and the Campaign Logs) through the
store's editing layer. Nothing is saved here: the caller saves the campaign.

    with Campaign(root) as c:
        change = ops.chest.add(c, "Potion of Healing", copies=3, rarity="common")
        c.save()
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import catalog
from ..errors import RuleError, UsageError
from ..model import chapter_id
from ..names import closest, match
from ..rules import chest, commander, rewards, spoils
from ..rules.chest import same_card
from ..store import edit
from ..text import shell_word
from ..values import record, replace
from . import Change
from .cards import resolve_card
from .typed import choice

if TYPE_CHECKING:
    from ..campaign import Campaign
    from ..model import Story
    from ..rules.chest import Addition, CardFacts, Returns, Swap


def _same(a: str, b: str) -> bool:
    return same_card(a, b)


def set_copies(chest_t: Any, name: str, copies: int) -> None:
    """The deck entry for `name` gets `copies` (0: the entry goes; a new card: a new entry last)."""
    i = edit.entry_index(chest_t, "cards", name, _same)
    if i is None:
        if copies:
            edit.append_entry(chest_t, "cards", {"name": name, "copies": copies})
    elif copies == 0:
        edit.remove_entry(chest_t, "cards", i)
    else:
        edit.set_in_entry(chest_t, "cards", i, "copies", copies)


# ------------------------------------------------------------------------------------ chest show


def show(c: Campaign) -> Change:
    """The Chest deck (`chest show`): `data` is the `--json` object (rules.chest.summary)."""
    return Change(data=chest.summary(c.story))


# ------------------------------------------------------------------------------------- chest add


def _name_to_add(story: Story, card: str, new: bool, facts_given: bool) -> str:
    """The card `chest add` names: a chest card the catalog, [cards] or the deck knows (any case, a
    unique prefix); a card nobody knows only when the user says so: --new, or its facts given for a
    name that looks like no known one (a typo of a known card is refused with "did you mean")."""
    names = [*(e["name"] for e in catalog.chest_cards()), *story.cards, *(x.name for x in story.chest_cards)]
    if not card.strip():
        raise UsageError("the card needs a name")
    return resolve_card(card, names, new=new, facts=facts_given,
                        new_hint="if it is a card drunagor does not know, add --new to record it")


def _check_add_args(copies: int, type_: str | None, rarity: str | None) -> None:
    if not 0 <= copies <= 9:
        raise UsageError(f"--copies must be from 0 to 9, not {copies}")
    if copies == 0 and type_ is None and rarity is None:
        raise UsageError("--copies 0 adds nothing", remedy="give --type or --rarity to record, or at least 1 copy")


def _new_facts(facts: CardFacts, name: str, type_: str | None, rarity: str | None) -> dict:
    """The flags' facts that are news: not what is known already, and not what the catalog says."""
    entry = catalog.chest_card(name) or {}
    return {k: v for k, v in (("type", type_), ("rarity", rarity))
            if v is not None and getattr(facts, k) != v and not entry.get(k)}


def add(c: Campaign, card: str, copies: int = 1, type_: str | None = None, rarity: str | None = None,
        new: bool = False) -> Change:
    """Put `copies` of a Potion or Scroll in the Chest deck while it is recorded; remember its type and
    rarity under [cards] (`copies=0`: only the facts). Refused when it would break the grid. A card
    drunagor does not know is added with its facts, or with `new`."""
    type_ = choice(type_, chest.FACT_TYPES, "--type")
    rarity = choice(rarity, chest.RARITIES, "--rarity")
    _check_add_args(copies, type_, rarity)
    story, sf = c.story, c.story_file
    name = _name_to_add(story, card, new, type_ is not None or rarity is not None)
    facts = chest.card_facts(name, story.cards)
    with sf.about(("chest", "epic")):
        chest.refuse_epic_rare(facts)
    if type_ == "other" and copies:
        raise RuleError(f"{name} is recorded as neither a Potion nor a Scroll; only Potions and Scrolls join "
                        f"the Epic Rare pair (RB L349-355)", rule="chest-deck",
                        remedy="use --copies 0 to record that fact alone")
    wrong = chest.conflicts(name, type_, rarity)
    if wrong:
        raise UsageError("; ".join(wrong), rule="chest-deck", remedy="leave the flag out: drunagor knows this card")
    add_pair = copies > 0 and "epic" not in (sf.data.get("chest") or {})
    with sf.about(("chest", "cards")):
        plan = chest.plan_add(story, name, copies, _new_facts(facts, name, type_, rarity), add_pair)
    _write_addition(c, plan)
    warnings = _add_warnings(plan)
    if copies:
        summary = (f"Chest deck: added {chest.copies_text(name, copies)}{chest.kind_words(plan.facts)}; "
                   f"{plan.grid.total} of {chest.DECK_SIZE} Potions and Scrolls recorded")
    else:
        summary = f"recorded: {name} is {chest.a_kind(plan.facts)}"
    return Change(summary, warnings=warnings, data={"card": name, "copies": plan.total, **plan.new_facts})


def _write_addition(c: Campaign, plan: Addition) -> None:
    doc = c.story_file.edit()
    edit.set_card_facts(doc, plan.name, plan.new_facts, match=chest.same_card)
    if plan.copies:
        chest_t = edit.table(doc, "chest")
        if plan.add_pair:
            edit.append_entries(chest_t, "epic", chest.epic_pair())
        set_copies(chest_t, plan.name, plan.total)


def _add_warnings(plan: Addition) -> tuple[str, ...]:
    if plan.facts.missing and plan.copies:
        return (f"the {' and '.join(plan.facts.missing)} of {plan.name} is unknown, so the grid (RB L357-359) "
                f"cannot be checked; record it once: drunagor chest add {shell_word(plan.name)} --copies 0 "
                f"{chest.flags_for(plan.facts.missing)}",)
    return ()


# ---------------------------------------------------------------------------------- chest remove


def remove(c: Campaign, card: str, copies: int = 1) -> Change:
    """Take `copies` of a card out of the Chest deck while it is recorded (the inverse of `add`): the
    entry goes with its last copy. The Epic Rare pair is fixed (RB L345); facts recorded about the card
    under [cards] stay (`card forget` forgets them)."""
    story, sf = c.story, c.story_file
    entry = chest.find_in_deck(story, card)
    if entry is None:
        _refuse_absent(c, card)
    assert entry is not None
    if copies < 1:
        raise UsageError(f"--copies must be at least 1, not {copies}", rule="chest-deck")
    if copies > entry.copies:
        i = next(n for n, x in enumerate(story.chest_cards) if x is entry)
        raise sf.refuse(("chest", "cards", i),
                        f"the Chest deck holds {chest.copies_text(entry.name, entry.copies)}, not {copies}",
                        rule="chest-deck", remedy=f"remove at most {entry.copies}")
    set_copies(sf.edit()["chest"], entry.name, entry.copies - copies)
    total = sum(x.copies for x in story.chest_cards if chest.card_facts(x.name, story.cards).type
                not in ("treasure", "other")) - copies
    return Change(f"Chest deck: removed {chest.copies_text(entry.name, copies)}; {total} of {chest.DECK_SIZE} "
                  f"Potions and Scrolls recorded", data={"card": entry.name, "removed": copies,
                                                         "copies": entry.copies - copies})


def _refuse_absent(c: Campaign, card: str) -> None:
    story, sf = c.story, c.story_file
    try:  # several cards of the deck begin so: type more (a usage slip)
        match(card, [x.name for x in story.chest_cards])
    except UsageError as exc:
        exc.remedy = "type more of the card's name"
        raise
    pair = [p for p in (*chest.epic_pair(), *story.chest_epic) if chest.same_card(p, card)]
    if pair:
        raise sf.refuse(("chest", "epic"), f"{pair[0]} is one of the Epic Rare pair, which is fixed (RB L345); only "
                        "Potions and Scrolls are taken out", rule="chest-deck",
                        remedy="name a Potion or a Scroll of the deck")
    names = ", ".join(x.name for x in story.chest_cards) or "none recorded yet"
    hint = closest(card, [x.name for x in story.chest_cards])
    raise sf.refuse(("chest", "cards"), f"{card!r} is not in the Chest deck",
                    rule="chest-deck", remedy=(f"did you mean {hint!r}? " if hint else "") + f"the deck holds: {names}")


# ------------------------------------------------------------------------------------ chest swap


@record
class _SwapPlan:
    plan: Swap
    name_in: str
    back: Returns
    new_facts: dict
    summary: str  # "Scroll of Incinerate out, Scroll of Protection in (Common Scrolls, RB L345, L363)"
    report: dict  # `chest swap --json`


def _holders(c: Campaign) -> dict[str, list[tuple[str, str]]]:
    """Who owns which cards: every active hero's equipment, and the party stash."""
    holders = {h.name: [(i.name, i.kind) for i in h.equipment] for h in c.active_heroes().values()}
    if c.story.stash:
        holders["party stash"] = [(n, "consumable") for n in c.story.stash]
    return holders


def _plan_swap(c: Campaign, out: str, into: str, copies: int, type_: str | None, rarity: str | None,
               new: bool = False) -> _SwapPlan:
    type_ = choice(type_, chest.TYPES, "--type")
    rarity = choice(rarity, chest.RARITIES, "--rarity")
    story = c.story
    into = _name_to_add(story, into, new, type_ is not None or rarity is not None)
    wrong = chest.conflicts(into, type_, rarity)
    if wrong:
        raise UsageError("; ".join(wrong), rule="chest-swap", remedy="leave the flag out: drunagor knows this card")
    known = chest.card_facts(into, story.cards)
    name_in = known.name if known.in_catalog else (chest.recorded(story.cards, into)[0] or into.strip())
    in_facts = replace(known, name=name_in, type=known.type or type_, rarity=known.rarity or rarity)
    with c.story_file.about(("chest", "cards")):
        plan = chest.plan_swap(story, out, in_facts, copies)
    back = chest.returns(_holders(c), story)
    new_facts = {k: v for k, v in (("type", type_), ("rarity", rarity)) if v is not None and getattr(known, k) is None}
    cell = f"{(plan.out.rarity or '').capitalize()} {chest.PLURAL[plan.out.type or 'potion']}"  # known: checked
    summary = (f"{chest.copies_text(plan.out.name, plan.copies)} out, {chest.copies_text(name_in, plan.copies)} in "
               f"({cell}, RB L345, L363)")
    report = {"out": plan.out.name, "in": name_in, "copies": plan.copies, "type": plan.out.type,
              "rarity": plan.out.rarity, "returns": {k: list(v) for k, v in back.by_holder.items()},
              "unknown": {k: list(v) for k, v in back.unknown.items()}, "written": False,
              "camp_phase": c.adventure_file is None}
    return _SwapPlan(plan, name_in, back, new_facts, summary, report)


def chest_may_change(c: Campaign) -> str | None:
    """None when the Chest deck may be changed now, in a Camp phase between adventures (RB L361); else
    why not (an adventure is under way), for `camp` and the chest commands to say."""
    f = c.adventure_file
    if f is None:
        return None
    return (f"the adventure of chapter {f.data.get('chapter')} is under way, and the deck changes only during a "
            "Camp phase, between adventures (RB L361); end the adventure first (drunagor adventure end "
            "--won|--lost)")


def preview_swap(c: Campaign, out: str, into: str, copies: int = 1, type_: str | None = None,
                 rarity: str | None = None, new: bool = False) -> Change:
    """What `swap` would do, writing nothing: `summary` names the cards, `data` is the `--json` report
    (which Potions and Scrolls each holder returns, RB L361; whether this is a Camp phase)."""
    s = _plan_swap(c, out, into, copies, type_, rarity, new)
    return Change(s.summary, data=s.report)


def swap(c: Campaign, out: str, into: str, copies: int = 1, type_: str | None = None,
         rarity: str | None = None, new: bool = False) -> Change:
    """Replace `copies` of a Potion or Scroll by one of the same type and rarity (RB L345, L363), in a
    Camp phase only; every Potion and Scroll the party owns goes back to the deck (RB L361)."""
    if c.adventure_file is not None:
        raise RuleError("an adventure is under way: the Chest deck can be changed only during a Camp phase "
                        "(RB L361)", rule="chest-swap", file=c.adventure_file.shown,
                        remedy="finish the adventure first (drunagor adventure end --won|--lost)")
    s = _plan_swap(c, out, into, copies, type_, rarity, new)
    if s.back.unknown:
        who, items = next(iter(s.back.unknown.items()))
        raise UsageError(f"drunagor cannot tell whether {items[0]} ({who}) is a Potion or a Scroll, which the "
                         f"party must return when the composition changes (RB L361)", rule="chest-swap",
                         remedy=f"record it once: drunagor chest add {shell_word(items[0])} --copies 0 "
                                "--type potion|scroll|other")
    doc = c.story_file.edit()
    edit.set_card_facts(doc, s.name_in, s.new_facts, match=_same)
    _swap_entries(doc["chest"], c.story, s.plan, s.name_in)
    returned = _return_cards(c, s.back)
    summary = f"Chest deck: {s.summary}"
    summary += ("; returned to the Chest deck (RB L361): " + "; ".join(returned)) if returned else \
        "; no Potion or Scroll to return"
    return Change(summary, data={**s.report, "written": True})


def _swap_entries(chest_t: Any, story: Story, plan: Swap, name_in: str) -> None:
    """Edit the deck in place. When OUT leaves entirely and IN is new, IN takes OUT's line."""
    left = next((x.copies for x in plan.cards if _same(x.name, plan.out.name)), 0)
    was_in = any(_same(x.name, name_in) for x in story.chest_cards)
    if left == 0 and not was_in:
        i = edit.entry_index(chest_t, "cards", plan.out.name, _same)
        if i is not None:
            edit.replace_entry(chest_t, "cards", i, {"name": name_in, "copies": plan.copies})
            return
    set_copies(chest_t, plan.out.name, left)
    set_copies(chest_t, name_in, next(x.copies for x in plan.cards if _same(x.name, name_in)))


def _return_cards(c: Campaign, back: Returns) -> list[str]:
    """Take the returned Potions and Scrolls out of the Campaign Logs and the stash: "who: cards" lines."""
    returned = []
    for slug, hero in c.active_heroes().items():
        gone = set(back.by_holder.get(hero.name, ()))
        idx = [i for i, it in enumerate(hero.equipment) if it.kind == "consumable" and it.name in gone]
        if idx:
            doc = c.hero_files[slug].edit()
            for i in reversed(idx):
                edit.remove_entry(doc, "equipment", i)
            returned.append(f"{hero.name}: {', '.join(hero.equipment[i].name for i in idx)}")
    stash_back = back.by_holder.get("party stash", ())
    if stash_back:
        doc = c.story_file.edit()
        for i in reversed([i for i, n in enumerate(c.story.stash) if n in stash_back]):
            edit.remove_entry(doc, "stash", i)
        returned.append(f"party stash: {', '.join(stash_back)}")
    return returned


# -------------------------------------------------------------------------------- commander deck


def commander_show(c: Campaign) -> Change:
    """The Commander Attack deck (`commander show`): `data` is the `--json` object (rules.commander.summary)."""
    return Change(data=commander.summary(c.story))


def _commander_write(c: Campaign, card: str | None, out: str | None, position: str | None) -> str | None:
    """Edit [commander] cards (and [cards] facts) in place: IN takes OUT's place in the list."""
    story = c.story
    doc = c.story_file.edit()
    table = edit.table(doc, "commander")
    p = commander.plan_add(story, card, position, replacing=out) if card is not None else None
    at = next((i for i, x in enumerate(story.commander) if x == out), None) if out is not None else None
    if at is not None:
        if p is not None:
            edit.replace_entry(table, "cards", at, p.card)
        else:
            edit.remove_entry(table, "cards", at)
    elif p is not None:
        edit.append_entry(table, "cards", p.card)
    if p is not None and position is not None and commander.position_of(p.card, story.cards).source != "catalog":
        edit.set_card_facts(doc, p.card, {"position": p.position}, match=commander.same_card)
    return p.card if p is not None else None


def _commander_name(story: Story, card: str, new: bool, position: str | None) -> str:
    """The Commander card `card` names: one the catalog, [cards] or the deck knows (the one resolver); a
    card nobody knows only with --new, or its --position given (a fact flag) unless a near miss."""
    names = [*(e["name"] for e in catalog.commander_cards()), *story.commander,
             *(k for k, v in story.cards.items() if isinstance(v, dict) and "position" in v)]
    return resolve_card(card, names, new=new, facts=position is not None, what="Commander card",
                        new_hint="if it is a card drunagor does not know, give its Rune position once with "
                                 "--position COLOUR-top|bottom")


def commander_add(c: Campaign, card: str, position: str | None = None, new: bool = False) -> Change:
    """Put a card in the Commander Attack deck while recording it; remember its Rune position. For a
    card already in the deck, record (or correct) its position (RB L820-824)."""
    story, sf = c.story, c.story_file
    card = _commander_name(story, card, new, position)
    with sf.about(("commander", "cards")):
        pos = commander.check_position_fact(card, position)
        present = commander.find_in_deck(story, card)
        if present is not None and commander.same_card(present, card):
            pos = commander.plan_position(story, present, pos)
            edit.set_card_facts(sf.edit(), present, {"position": pos}, match=commander.same_card)
            return Change(f"recorded: {present} holds the {pos} Rune position", data={"card": present,
                                                                                      "position": pos})
        name = _commander_write(c, card, None, pos)
    assert name is not None
    d = commander.deck(replace(story, commander=story.commander + (name,)))
    p = commander.position_of(name, {**story.cards, name: {"position": pos}} if pos else story.cards)
    return Change(f"Commander Attack deck: added {name} ({p.position}); {len(d.cards)} of "
                  f"{commander.deck_size()} cards recorded", data={"card": name, "position": p.position})


def commander_swap(c: Campaign, out: str, into: str, position: str | None = None, new: bool = False) -> Change:
    """Replace a Commander Attack card; IN must not hold a Rune position another card holds (RB L822-826)."""
    into = _commander_name(c.story, into, new, position)
    with c.story_file.about(("commander", "cards")):
        pos = commander.check_position_fact(into, position)
        old = commander.in_deck(c.story, out)
        name = _commander_write(c, into, old, pos)
    return Change(f"Commander Attack deck: {name} replaces {old}", data={"out": old, "in": name})


def commander_remove(c: Campaign, card: str) -> Change:
    """Take a card out of the Commander Attack deck (the inverse of commander_add)."""
    with c.story_file.about():
        old = commander.in_deck(c.story, card)
    _commander_write(c, None, old, None)
    return Change(f"Commander Attack deck: removed {old}; {len(c.story.commander) - 1} of "
                  f"{commander.deck_size()} cards recorded", data={"card": old})


# -------------------------------------------------------------------------------- spoils upgrade


def _last_chapter(c: Campaign) -> str | None:
    """The chapter an upgrade happens in: the adventure under way, else the last one completed."""
    adv = c.adventure_file
    if adv is not None:
        try:
            return chapter_id(adv.data.get("chapter"))
        except ValueError:
            pass
    done = c.story.completed()
    return done[-1] if done else None


def upgrade_spoils(c: Campaign, hero: str, item: str, discard: str | None = None, to: str | None = None,
                   epic: bool | None = None, *, reward: bool = False) -> Change:
    """Improve a Spoils card one quality step, disposing of Artisan's Tools and another card from the
    bag (RB L409-435): the log gains an `upgrades` entry, story.toml `stored` the two cards put away.
    `reward`: the upgrade owed as a reward instead (RB L1015-1016), which disposes of nothing."""
    if reward:
        if discard is not None or epic is not None:
            flag = "--discard" if discard is not None else "--epic/--not-epic"
            raise UsageError(f"{flag} is for an upgrade found at the table; a reward upgrade (--reward) disposes of "
                             "nothing (RB L1015-1016)", rule=spoils.RULE, remedy=f"leave out {flag}, or --reward")
        return _reward_upgrade(c, hero, item, to)
    if discard is None:
        raise UsageError("an upgrade disposes of Artisan's Tools and another card from the bag: name it with "
                         "--discard OTHER (RB L413-419)", rule=spoils.RULE,
                         remedy="or, for the reward upgrade a hero is owed (RB L1015-1016), give --reward")
    slug, h = c.hero(hero)
    hf = c.hero_files[slug]
    with hf.about(("equipment",)):
        plan = spoils.plan_upgrade(h, item, discard, c.story.cards, to=to, epic=epic)
    doc = hf.edit()
    edit.set_in_entry(doc, "equipment", plan.item_index, "quality", plan.to, after_field="kind")
    for i in sorted((plan.tools_index, plan.discard_index), reverse=True):
        edit.remove_entry(doc, "equipment", i)
    edit.append_entry(doc, "upgrades", {"item": plan.item.name, "to": plan.to, "discarded": plan.discard.name,
                                        "discarded_kind": plan.discard.kind, "chapter": _last_chapter(c)})
    sdoc = c.story_file.edit()
    old = (plan.item.quality or "standard").capitalize()
    # the old-quality card by its quality: two upgrades of one card store two entries a reader tells apart
    edit.append_entries(sdoc, "stored", [plan.discard.name, f"{plan.item.name} ({old})"])
    if plan.record_epic:
        edit.set_card_facts(sdoc, plan.discard.name, {"epic": False}, match=spoils.same_card)
    return Change(f"{h.name} improved {plan.item.name} to {plan.to.capitalize()}, disposing of Artisan's Tools "
                  f"(back to the Chest deck when it is reformed) and {plan.discard.name}; {plan.discard.name} and "
                  f"the {old} {plan.item.name} are stored for the rest of the campaign (RB L431)",
                  data={"hero": h.name, "item": plan.item.name, "to": plan.to, "discarded": plan.discard.name,
                        "reward": False})


def _reward_upgrade(c: Campaign, hero: str, item: str, to: str | None) -> Change:
    """The "Spoil of the Hero Equipment Upgrade" owed as a reward (RB L1015-1016): the item up one
    step, nothing disposed of, the old-quality card stored (RB L431); refused when none is owed."""
    slug, h = c.hero(hero)
    hf = c.hero_files[slug]
    owed = rewards.owed_for(h, c.story, c.active_heroes().values()).spoils_upgrades
    with hf.about(("equipment",)):
        plan = spoils.plan_reward_upgrade(h, item, owed, to=to)
    doc = hf.edit()
    edit.set_in_entry(doc, "equipment", plan.item_index, "quality", plan.to, after_field="kind")
    edit.append_entry(doc, "upgrades", {"item": plan.item.name, "to": plan.to, "reward": True,
                                        "chapter": _last_chapter(c)})
    old = (plan.item.quality or "standard").capitalize()
    edit.append_entries(c.story_file.edit(), "stored", [f"{plan.item.name} ({old})"])
    left = owed - 1
    return Change(f"{h.name} improved {plan.item.name} to {plan.to.capitalize()}, the Spoils upgrade owed as a reward "
                  f"(RB L1015-1016; nothing disposed of); the {old} {plan.item.name} is stored for the rest of the "
                  "campaign (RB L431)",
                  notes=(f"{h.name} is owed {left} more reward upgrade{'s' if left > 1 else ''}",) if left else (),
                  data={"hero": h.name, "item": plan.item.name, "to": plan.to, "discarded": None, "reward": True})

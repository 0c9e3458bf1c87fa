"""The Chest deck (SPEC 5.7; RB L345-371). Pure: reads the Story Record's values, no files.

The deck is 2 Epic Rare treasures (Artisan's Tools and Treasure Trove after the compulsory
replacement, RB L369-371) plus 18 Potions and Scrolls; among the Potions and among the Scrolls,
4 Common, 3 Uncommon and 2 Rare: the "grid" (RB L349-359). A card's type and rarity come from the
catalog where a source gives them, else from the facts the player recorded once under `[cards]`;
nothing is guessed. A card whose facts are missing is counted apart and named.

A deck is one of:
    empty       nothing recorded under `cards` yet (not an error: many parties never record it)
    recording   no rule broken yet, but fewer than 18 cards or facts missing
    legal       18 cards, every fact known, every cell of the grid full, the Epic pair in place
    illegal     a rule is broken (a cell or a type over its count, the Epic pair wrong, ...)
"""

from __future__ import annotations

from .. import catalog
from ..errors import RuleError, UsageError
from ..model import ChestCard, Story
from ..names import closest
from ..text import a, shell_word
from ..values import field, record, replace

TYPES = ("potion", "scroll")
RARITIES = ("common", "uncommon", "rare")
# "other": a consumable that is neither a Potion nor a Scroll (recorded so a swap knows it is kept).
FACT_TYPES = TYPES + ("other",)
PLURAL = {"potion": "Potions", "scroll": "Scrolls"}
SINGULAR = {"potion": "Potion", "scroll": "Scroll"}
DECK_SIZE = 18  # Potions and Scrolls; the Epic Rare pair comes on top (RB L349)
SWAP = "chest-swap"


def card_key(name: str) -> str:
    """A card's name as the catalog compares it: any case, straight or curly apostrophes, spaces folded."""
    return " ".join(name.replace("\u2019", "'").replace("\u2018", "'").split()).casefold()


def same_card(a: str, b: str) -> bool:
    """Names compared as the catalog compares them: any case, straight or curly apostrophes."""
    return card_key(a) == card_key(b)


def grid_target() -> dict[str, dict[str, int]]:
    """{"potion": {"common": 4, "uncommon": 3, "rare": 2}, "scroll": {...}} (RB L357)."""
    g = catalog.CHEST_GRID
    return {t: dict(g[t]) for t in TYPES}


def epic_pair() -> tuple[str, ...]:

    return catalog.EPIC_RARE_AWAKENINGS


# ------------------------------------------------------------------------------------ card facts


def recorded(cards: dict, name: str) -> tuple[str | None, dict]:
    """The `[cards]` entry for name: (the key as written, its facts); (None, {}) when absent."""
    wanted = card_key(name)
    for key, facts in cards.items():
        if card_key(key) == wanted and isinstance(facts, dict):
            return key, facts
    return None, {}


@record
class CardFacts:
    """What is known about a chest card. type: potion, scroll, treasure (the Epic Rare pair) or
    other (a recorded non-chest consumable); None when unknown. Same for rarity."""

    name: str
    type: str | None
    rarity: str | None
    in_catalog: bool
    retired: bool = False  # Cosmic Gemstone, Forgotten Treasure (RB L371)

    @property
    def missing(self) -> tuple[str, ...]:
        if self.type in ("treasure", "other"):
            return ()
        return tuple(f for f in ("type", "rarity") if getattr(self, f) is None)

    @property
    def epic_rare(self) -> bool:
        return self.type == "treasure"


def card_facts(name: str, cards: dict) -> CardFacts:
    """The catalog first (its facts come from the rulebook and the app), then `[cards]`."""
    entry = catalog.chest_card(name)
    _, rec = recorded(cards, name)
    rec_type = rec.get("type") if rec.get("type") in FACT_TYPES else None
    rec_rarity = rec.get("rarity") if rec.get("rarity") in RARITIES else None
    if entry is None:
        return CardFacts(name, rec_type, rec_rarity if rec_type != "other" else None, False)
    return CardFacts(entry["name"], entry.get("type") or rec_type, entry.get("rarity") or rec_rarity, True,
                     bool(entry.get("retired")))


def conflicts(name: str, type_: str | None, rarity: str | None) -> list[str]:
    """What the catalog says against a fact about to be recorded (e.g. Scroll of Incinerate is
    Common, RB L363-365): the fact is refused, not stored."""
    entry = catalog.chest_card(name)
    if entry is None:
        return []
    out = []
    if type_ is not None and entry.get("type") and entry["type"] != type_:
        out.append(f"{entry['name']} is {a(entry['type'])}, not {a(type_)} ({catalog.source_words(entry['source'])})")
    if rarity is not None and entry.get("rarity") and entry["rarity"] != rarity:
        out.append(f"{entry['name']} is {entry['rarity']}, not {rarity} ({catalog.source_words(entry['source'])})")
    return out


def kind_words(f: CardFacts) -> str:
    """" (Uncommon Potion)", " (Scroll)", " (neither a Potion nor a Scroll)", or "" when nothing is known."""
    if f.type == "other":
        return " (neither a Potion nor a Scroll)"
    parts = [f.rarity.capitalize() if f.rarity else None, SINGULAR.get(f.type) if f.type else None]
    words = [p for p in parts if p]
    return f" ({' '.join(words)})" if words else ""


def a_kind(f: CardFacts) -> str:
    """"a Common Potion", "neither a Potion nor a Scroll": what a card is, in a sentence."""
    words = kind_words(f).strip(" ()")
    return words if words.startswith("neither") else a(words)


def copies_text(name: str, copies: int) -> str:
    """"Potion of Healing", "3 Potion of Healing"."""
    return f"{copies} {name}" if copies != 1 else name


def flags_for(missing: tuple[str, ...] | list[str]) -> str:
    """The flags that record missing facts: "--type potion|scroll --rarity common|uncommon|rare"."""
    return " ".join(f"--{m} {'|'.join(TYPES if m == 'type' else RARITIES)}" for m in missing)


def describe_cell(n: int, type_: str, rarity: str) -> str:
    return f"{n} {rarity.capitalize()} {SINGULAR[type_] if n == 1 else PLURAL[type_]}"


# ------------------------------------------------------------------------------------- the grid


@record
class Finding:
    """One thing wrong with the deck: a message (with its RB line), where it is in story.toml (the
    entry of `[chest] cards` that breaks the rule, where one does) and what would fix it."""

    message: str
    key_path: tuple = ("chest", "cards")
    severity: str = "error"
    remedy: str | None = None


@record
class ChestGrid:
    epic: tuple[str, ...]
    cards: tuple[tuple[ChestCard, CardFacts], ...]
    counts: dict[str, dict[str, int]]   # known type and rarity
    type_totals: dict[str, int]         # known type, rarity known or not
    total: int                          # every Potion and Scroll copy recorded
    problems: tuple[Finding, ...]
    missing: tuple[tuple[str, tuple[str, ...]], ...]  # (card, facts missing)
    target: dict[str, dict[str, int]] = field(factory=dict)

    @property
    def status(self) -> str:
        if self.problems:
            return "illegal"
        if not self.cards:
            return "empty"
        if self.total == DECK_SIZE and not self.missing and self.epic_ok:
            return "legal"
        return "recording"

    @property
    def legal(self) -> bool:
        return self.status == "legal"

    @property
    def epic_ok(self) -> bool:
        pair = epic_pair()
        return len(self.epic) == len(pair) and all(any(same_card(e, p) for e in self.epic) for p in pair)

    def gaps(self) -> list[tuple[str, str, int]]:
        """(type, rarity, cards still to record) for every cell below its count."""
        out = []
        for t in TYPES:
            for r in RARITIES:
                n = self.target[t][r] - self.counts[t][r]
                if n > 0:
                    out.append((t, r, n))
        return out

    def gaps_text(self) -> str:
        return ", ".join(describe_cell(n, t, r) for t, r, n in self.gaps())

    def missing_text(self) -> str:
        return "; ".join(f"{' and '.join(m)} of {name}" for name, m in self.missing)

    def text(self) -> str:
        """One line for `show`: legal, what is wrong, or what is still to record."""
        epic = " and ".join(self.epic) if self.epic else "not recorded"
        status = self.status
        if status == "empty":
            return f"not recorded yet (Epic Rare: {epic}); record it with `drunagor chest add CARD --copies N`"
        if status == "legal":
            return f"legal: Epic Rare {epic} + 9 Potions + 9 Scrolls, each 4 Common / 3 Uncommon / 2 Rare"
        if status == "illegal":
            return "illegal: " + "; ".join(p.message for p in self.problems)
        parts = [f"being recorded: {self.total} of {DECK_SIZE} Potions and Scrolls"]
        gaps = self.gaps_text()
        if gaps and self.total < DECK_SIZE:
            parts.append(f"to record: {gaps}")
        if self.missing:
            parts.append(f"facts missing: {self.missing_text()}")
        if not self.epic_ok:
            parts.append("Epic Rare pair not recorded")
        return "; ".join(parts)


def grid(story: Story) -> ChestGrid:
    target = grid_target()
    counts = {t: {r: 0 for r in RARITIES} for t in TYPES}
    type_totals = {t: 0 for t in TYPES}
    problems: list[Finding] = []
    missing: list[tuple[str, tuple[str, ...]]] = []
    cards = []
    seen: set[str] = set()
    total = 0
    for i, card in enumerate(story.chest_cards):
        f = card_facts(card.name, story.cards)
        cards.append((card, f))
        problems.extend(_entry_problems(card, f, i, seen))
        if f.type in ("treasure", "other"):
            continue
        total += card.copies
        if f.missing:
            missing.append((card.name, f.missing))
        if f.type is not None:
            type_totals[f.type] += card.copies
            if f.rarity is not None:
                counts[f.type][f.rarity] += card.copies
    problems.extend(_over_counts(cards, counts, type_totals, target))
    if total > DECK_SIZE and not any("the deck holds" in p.message or "the grid holds" in p.message
                                     for p in problems):
        held = [(i, c) for i, (c, f) in enumerate(cards) if f.type in (*TYPES, None) and c.copies]
        problems.append(Finding(f"{total} Potions and Scrolls: the deck holds {DECK_SIZE} (RB L349)",
                                ("chest", "cards", held[-1][0]),
                                remedy=_cut(total - DECK_SIZE, held, "Potions and Scrolls")))
    problems.extend(_epic_problems(story, cards))
    return ChestGrid(tuple(story.chest_epic), tuple(cards), counts, type_totals, total, tuple(problems),
                     tuple(missing), target)


def _entry_problems(card: ChestCard, f: CardFacts, i: int, seen: set[str]) -> list[Finding]:
    """What is wrong with one entry of [chest] cards: listed twice; an Epic Rare treasure, or a card
    recorded as neither a Potion nor a Scroll."""
    at = ("chest", "cards", i)
    found = []
    if card_key(card.name) in seen:
        found.append(Finding(f"{card.name} is listed twice in the Chest deck; keep one entry "
                             f"with the copies added up", at))
    seen.add(card_key(card.name))
    if f.type == "treasure":
        why = ("was replaced for good before the campaign (RB L369-371)" if f.retired else
               "is an Epic Rare treasure: the pair goes in `epic` and cannot be replaced (RB L345, L349-353)")
        found.append(Finding(f"{f.name} {why}; take it out of the Potions and Scrolls: drunagor chest remove "
                             f"{shell_word(card.name)}{_all_copies(card)}", at))
    elif f.type == "other":
        found.append(Finding(f"{card.name} is recorded as neither a Potion nor a Scroll; only "
                             f"Potions and Scrolls join the Epic Rare pair (RB L349-355)", at,
                             remedy=f"take it out: drunagor chest remove {shell_word(card.name)}{_all_copies(card)}, "
                                    "or, if it is a Potion or a Scroll, correct its type: drunagor card set "
                                    f"{shell_word(card.name)} --type potion|scroll"))
    return found


def _all_copies(card: ChestCard) -> str:
    return f" --copies {card.copies}" if card.copies != 1 else ""


def _over_counts(cards: list, counts: dict, type_totals: dict, target: dict) -> list[Finding]:
    """A cell of the grid over its count (RB L357-359), else a type over its 9 (RB L349-355)."""
    problems = []
    for t in TYPES:
        over_cells = False
        for r in RARITIES:
            n, want = counts[t][r], target[t][r]
            if n > want:
                over_cells = True
                held = [(i, c) for i, (c, f) in enumerate(cards) if (f.type, f.rarity) == (t, r) and c.copies]
                problems.append(Finding(f"{describe_cell(n, t, r)}: the grid holds {want} (RB L357-359)",
                                        ("chest", "cards", held[-1][0]),
                                        remedy=_cut(n - want, held, f"{r.capitalize()} {PLURAL[t]}", r)))
        if type_totals[t] > sum(target[t].values()) and not over_cells:
            held = [(i, c) for i, (c, f) in enumerate(cards) if f.type == t and c.copies]
            problems.append(Finding(f"{type_totals[t]} {PLURAL[t]}: the deck holds {sum(target[t].values())} "
                                    f"(RB L349-355)", ("chest", "cards", held[-1][0]),
                                    remedy=_cut(type_totals[t] - sum(target[t].values()), held, PLURAL[t])))
    return problems


def _cut(extra: int, held: list, what: str, rarity: str | None = None) -> str:
    """The remedy for a cell or a type over its count: which entries to lower, and by how many."""
    listed = ", ".join(f"{c.name} x{c.copies}" for _, c in held)
    last = held[-1][1]
    n = min(extra, last.copies)
    fix = (f"take {extra} cop{'y' if extra == 1 else 'ies'} of the {what} ({listed}) out of the deck, e.g. "
           f"drunagor chest remove {shell_word(last.name)}" + (f" --copies {n}" if n != 1 else ""))
    return fix + (", or correct a rarity recorded wrongly: drunagor card set CARD --rarity common|uncommon|rare"
                  if rarity else "")


def _epic_problems(story: Story, cards) -> list[Finding]:
    pair = epic_pair()
    epic = story.chest_epic
    if not epic:
        if cards:
            return [Finding(f"the Epic Rare pair is not recorded; it is {' and '.join(pair)} (RB L369-371)",
                            ("chest", "epic"), remedy=f"write epic = {_toml_list(pair)} under [chest]")]
        return []  # nothing of the deck recorded: not an error
    out = []
    wrong = [e for e in epic if not any(same_card(e, p) for p in pair)]
    absent = [p for p in pair if not any(same_card(e, p) for e in epic)]
    if wrong or absent or len(epic) != len(pair):
        said = []
        for e in wrong:
            entry = catalog.chest_card(e)
            if entry and entry.get("retired"):
                said.append(f"{entry['name']} was replaced for good before the campaign (RB L369-371)")
            else:
                said.append(f"{e} is not one of the pair")
        if absent:
            said.append(f"{' and '.join(absent)} missing")
        if not said:
            said.append("a card is listed twice")
        out.append(Finding(f"the Epic Rare pair must be exactly {' and '.join(pair)}, which cannot be "
                           f"replaced (RB L345, L369-371): {'; '.join(said)}", ("chest", "epic"),
                           remedy=f"write epic = {_toml_list(pair)} under [chest]"))
    return out


def _toml_list(names) -> str:
    """The catalog's pair as a TOML array (plain names: no quote or backslash to escape)."""
    return "[" + ", ".join(f'"{n}"' for n in names) + "]"


def summary(story: Story) -> dict:
    """The deck as plain values: what `chest show --json` prints and `show` embeds."""
    g = grid(story)
    return {
        "status": g.status,
        "legal": g.legal,
        "epic": list(g.epic),
        "cards": [{"name": c.name, "copies": c.copies, "type": f.type, "rarity": f.rarity}
                  for c, f in g.cards],
        "count": g.total,
        "grid": {t: {r: {"count": g.counts[t][r], "target": g.target[t][r]} for r in RARITIES}
                 for t in TYPES},
        "gaps": [{"type": t, "rarity": r, "missing": n} for t, r, n in g.gaps()],
        "problems": [p.message for p in g.problems],
        "missing_facts": [{"card": name, "facts": list(m)} for name, m in g.missing],
        "text": g.text(),
    }


# ------------------------------------------------------------------------------------- adding


def refuse_epic_rare(facts: CardFacts) -> None:
    """The Epic Rare pair is fixed (RB L345), and the replaced pair is out for good (RB L369-371)."""
    if facts.epic_rare:
        why = ("was replaced for good by Artisan's Tools and Treasure Trove before the campaign (RB L369-371)"
               if facts.retired else "is one of the Epic Rare pair, which is fixed (RB L345)")
        raise RuleError(f"{facts.name} {why}; only Potions and Scrolls are added", rule="chest-deck")


@record
class Addition:
    """A card entering the deck while it is recorded, as the rules accept it."""

    name: str
    copies: int  # copies added (0: only facts recorded)
    total: int  # copies of the card in the deck afterwards
    new_facts: dict  # facts to record under [cards]
    add_pair: bool  # the Story Record gets the Epic Rare pair with its first card (RB L369-371)
    facts: CardFacts  # the card's facts afterwards
    grid: ChestGrid  # the deck afterwards


def plan_add(story: Story, name: str, copies: int, new_facts: dict, add_pair: bool) -> Addition:
    """`copies` of `name` (and `new_facts` about it) added to the deck, or the RuleError of the grid
    cell or type they would overfill (RB L349-359). The deck is recorded as it is on the table."""
    facts_after = dict(story.cards)
    if new_facts:
        key, old = recorded(story.cards, name)
        facts_after[key or name] = {**old, **new_facts}
    cards = list(story.chest_cards)
    i = next((n for n, x in enumerate(cards) if same_card(x.name, name)), None)
    if copies:
        if i is None:
            cards.append(ChestCard(name, copies))
        else:
            cards[i] = replace(cards[i], copies=cards[i].copies + copies)
    before = {p.message for p in grid(story).problems}
    after = replace(story, chest_cards=tuple(cards), cards=facts_after,
                    chest_epic=epic_pair() if add_pair else story.chest_epic)
    g = grid(after)
    f_new = card_facts(name, facts_after)
    new_problems = [p for p in g.problems if p.message not in before]
    if new_problems:
        what = copies_text(name, copies) if copies else f"recording {name} as {a_kind(f_new)}"
        raise RuleError(f"{what} would break the grid: {new_problems[0].message}", rule="chest-deck",
                        remedy="record the deck as it is on the table; to change a card, use "
                               "drunagor chest swap OUT IN")
    total = next((x.copies for x in cards if same_card(x.name, name)), 0)
    return Addition(name, copies, total, new_facts, add_pair, f_new, g)


# ------------------------------------------------------------------------------------- swapping


@record
class Swap:
    out: CardFacts
    into: CardFacts
    copies: int
    cards: tuple[ChestCard, ...]  # the deck after the swap


def find_in_deck(story: Story, name: str) -> ChestCard | None:
    """The deck entry called name (any case), else the only one it is a prefix of."""
    exact = [c for c in story.chest_cards if same_card(c.name, name)]
    if exact:
        return exact[0]
    pre = [c for c in story.chest_cards if card_key(c.name).startswith(card_key(name))] if name.strip() else []
    return pre[0] if len(pre) == 1 else None


def plan_swap(story: Story, out: str, into: CardFacts, copies: int = 1) -> Swap:
    """A swap of `copies` copies of OUT for IN, or a RuleError/UsageError saying why it is refused:
    only the same type and rarity (RB L345, L363), never the Epic Rare pair (RB L345)."""
    entry = _swap_out(story, out, into)
    out_f = card_facts(entry.name, story.cards)
    if same_card(entry.name, into.name):
        raise UsageError(f"{entry.name} would replace itself", rule=SWAP, remedy="name two different cards")
    if copies < 1:
        raise UsageError(f"--copies must be at least 1, not {copies}", rule=SWAP)
    if copies > entry.copies:
        raise RuleError(f"the Chest deck holds {entry.copies} {entry.name}, not {copies}", rule=SWAP,
                        remedy=f"swap at most {entry.copies}")
    if out_f.missing:
        raise UsageError(f"the {' and '.join(out_f.missing)} of {entry.name} is not recorded, so drunagor cannot "
                         f"tell which cards may replace it (RB L345: same type and rarity)", rule=SWAP,
                         remedy=f"record it once: drunagor chest add {shell_word(entry.name)} --copies 0 "
                                + flags_for(out_f.missing))
    _same_cell(entry.name, out_f, into)
    return Swap(out_f, into, copies, apply_swap(story.chest_cards, entry.name, into.name, copies))


def _swap_out(story: Story, out: str, into: CardFacts) -> ChestCard:
    """The deck entry leaving, refused for the Epic Rare pair (either side) or a card not in the deck."""
    pair = epic_pair()
    entry = find_in_deck(story, out)
    epic_named = [p for p in (*pair, *story.chest_epic)
                  if same_card(out, p) or (out.strip() and card_key(p).startswith(card_key(out)))]
    if (entry is None and epic_named) or card_facts(entry.name if entry else out, story.cards).epic_rare:
        named = epic_named[0] if epic_named else entry.name  # type: ignore[union-attr]
        raise RuleError(f"{named} is an Epic Rare treasure: the two Epic Rare cards cannot be replaced (RB L345)",
                        rule=SWAP, remedy="swap a Potion or a Scroll")
    if into.epic_rare:
        raise RuleError(f"{into.name} is an Epic Rare treasure: only a Potion or a Scroll of the same "
                        f"rarity can replace a Potion or a Scroll (RB L345)", rule=SWAP,
                        remedy="choose a Potion or a Scroll")
    if entry is None:
        names = ", ".join(c.name for c in story.chest_cards) or "none recorded yet"
        hint = closest(out, [c.name for c in story.chest_cards])
        raise RuleError(f"{out!r} is not in the Chest deck", rule=SWAP,
                        remedy=(f"did you mean {hint!r}? " if hint else "") + f"the deck holds: {names}")
    return entry


def _same_cell(out_name: str, out_f: CardFacts, into: CardFacts) -> None:
    """IN must be a Potion or Scroll of OUT's type and rarity (RB L345, L363)."""
    if into.type == "other":
        raise RuleError(f"{into.name} is recorded as neither a Potion nor a Scroll", rule=SWAP,
                        remedy="only a Potion or a Scroll can join the Chest deck (RB L349-355)")
    was = f"{(out_f.rarity or '').capitalize()} {SINGULAR[out_f.type or 'potion']}"
    into_words = " ".join(w for w in (into.rarity and into.rarity.capitalize(),
                                      into.type and SINGULAR[into.type]) if w)
    mismatch = RuleError(f"{out_name} is {a(was)} and {into.name} {a(into_words)}: a card can only be replaced "
                         f"by one of the same type and rarity (RB L345, L363)", rule=SWAP, remedy=f"choose {a(was)}")
    if into.type is not None and into.type != out_f.type:
        raise mismatch
    if into.missing:
        raise UsageError(f"the {' and '.join(into.missing)} of {into.name} is not known, and a card can only "
                         f"be replaced by one of the same type and rarity (RB L345, L363)", rule=SWAP,
                         remedy="look at the card and give it once: " + flags_for(into.missing))
    if into.rarity != out_f.rarity:
        raise mismatch


def apply_swap(cards: tuple[ChestCard, ...], out: str, into: str, copies: int) -> tuple[ChestCard, ...]:
    """The deck with `copies` copies of OUT replaced by IN (IN joins its own entry if listed)."""
    result: list[ChestCard] = []
    joined = False
    for c in cards:
        if same_card(c.name, out):
            if c.copies > copies:
                result.append(ChestCard(c.name, c.copies - copies))
        elif same_card(c.name, into) and not joined:
            result.append(ChestCard(c.name, c.copies + copies))
            joined = True
        else:
            result.append(c)
    if not joined:
        result.append(ChestCard(into, copies))
    return tuple(result)


# --------------------------------------------------------------------------- returning cards


@record
class Returns:
    """What the party returns when the composition changes (RB L361): every Potion and Scroll it
    owns, Epic Rare treasures kept. `unknown` holds consumables drunagor cannot classify."""

    by_holder: dict[str, tuple[str, ...]]
    unknown: dict[str, tuple[str, ...]]

    @property
    def count(self) -> int:
        return sum(len(v) for v in self.by_holder.values())


def is_potion_or_scroll(name: str, story: Story) -> bool | None:
    """True for a Potion or a Scroll, False for anything else, None when drunagor cannot tell."""
    f = card_facts(name, story.cards)
    if f.type in TYPES:
        return True
    if f.type in ("treasure", "other"):
        return False
    if catalog.item_kind(name) is not None:  # a known item that is not a chest card
        return False
    if any(same_card(c.name, name) for c in story.chest_cards):
        return True  # a card of the deck: the deck holds only Potions and Scrolls besides the pair
    return None


def returns(holders: dict[str, list[tuple[str, str]]], story: Story) -> Returns:
    """holders: holder name -> [(item name, kind)]. Only consumables can be Potions or Scrolls."""
    back: dict[str, tuple[str, ...]] = {}
    unknown: dict[str, tuple[str, ...]] = {}
    for holder, items in holders.items():
        got, unsure = [], []
        for name, kind in items:
            if kind != "consumable":
                continue
            verdict = is_potion_or_scroll(name, story)
            if verdict:
                got.append(name)
            elif verdict is None:
                unsure.append(name)
        if got:
            back[holder] = tuple(got)
        if unsure:
            unknown[holder] = tuple(unsure)
    return Returns(back, unknown)

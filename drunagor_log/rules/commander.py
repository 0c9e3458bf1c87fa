"""The Commander Attack deck (SPEC 5.8; RB L816-828). Pure: reads the Story Record's values.

Exactly 10 cards, one for each Rune position (5 colours x top/bottom), built from any sets; no Rune
position may be held by two cards (RB L820-822). Positions come from the catalog where a source
gives them (Haste and Life Heat orange-bottom, RB L824; Flame Swipe and Inferno orange-top,
inferred from RB L826), else from the `position` the player recorded under `[cards]`.
"""

from __future__ import annotations

from .. import catalog
from ..errors import RuleError, UsageError
from ..model import Story
from ..names import closest
from ..text import shell_word
from ..values import record
from .chest import recorded, same_card

RULE = "commander-deck"
SIDES = ("top", "bottom")


def colours() -> tuple[str, ...]:

    return catalog.RUNE_COLOURS


def positions() -> tuple[str, ...]:
    """The 10 Rune positions, in Initiative Track colour order: red-top, red-bottom, blue-top, ..."""
    return tuple(f"{c}-{s}" for c in colours() for s in SIDES)


def deck_size() -> int:

    return catalog.COMMANDER_DECK_SIZE


def parse_position(text: str) -> str | None:
    """"Orange-Bottom", "orange bottom", "orange_bottom" -> "orange-bottom"; None if not a position."""
    t = "-".join(text.strip().casefold().replace("_", " ").replace("-", " ").split())
    if t.startswith("grey-"):
        t = "gray-" + t[5:]
    return t if t in positions() else None


@record
class Position:
    card: str
    position: str | None
    source: str  # "catalog", "recorded" or "unknown"


def position_of(name: str, cards: dict) -> Position:

    known = catalog.commander_card(name)
    if known is not None:
        entry = next(c for c in catalog.commander_cards() if same_card(c["name"], name))
        return Position(entry["name"], known, "catalog")
    key, facts = recorded(cards, name)
    pos = facts.get("position")
    if isinstance(pos, str) and parse_position(pos):
        return Position(key or name, parse_position(pos), "recorded")
    return Position(name, None, "unknown")


@record
class Finding:
    """One thing wrong with the deck; `index` is the entry of `[commander] cards` that breaks the
    rule (the second card of a position, the card past the tenth), `remedy` what would fix it."""

    message: str
    severity: str = "error"
    index: int | None = None
    remedy: str | None = None


@record
class CommanderDeck:
    cards: tuple[Position, ...]
    problems: tuple[Finding, ...]

    @property
    def unknown(self) -> tuple[str, ...]:
        return tuple(p.card for p in self.cards if p.position is None)

    @property
    def by_position(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {p: [] for p in positions()}
        for p in self.cards:
            if p.position:
                out[p.position].append(p.card)
        return out

    @property
    def free(self) -> tuple[str, ...]:
        return tuple(p for p, held in self.by_position.items() if not held)

    @property
    def status(self) -> str:
        if self.problems:
            return "illegal"
        if not self.cards:
            return "empty"
        if len(self.cards) == deck_size() and not self.unknown:
            return "legal"
        return "recording"

    def text(self) -> str:
        s = self.status
        if s == "empty":
            return "not recorded yet; record it with `drunagor commander add CARD [--position COLOUR-top|bottom]`"
        if s == "legal":
            return "legal: 10 cards, one for each Rune position"
        if s == "illegal":
            return "illegal: " + "; ".join(p.message for p in self.problems)
        parts = [f"being recorded: {len(self.cards)} of {deck_size()} cards"]
        if self.free and len(self.cards) < deck_size():
            parts.append("free positions: " + ", ".join(self.free))
        if self.unknown:
            parts.append("position unknown: " + ", ".join(self.unknown))
        return "; ".join(parts)


def deck(story: Story) -> CommanderDeck:
    cards = tuple(position_of(n, story.cards) for n in story.commander)
    problems: list[Finding] = []
    seen: list[str] = []
    for i, p in enumerate(cards):
        if any(same_card(p.card, s) for s in seen):
            problems.append(Finding(f"{p.card} is in the deck twice", index=i,
                                    remedy=f"remove one of them: drunagor commander remove {shell_word(p.card)}"))
        seen.append(p.card)
    for pos, held in _by_position(cards).items():
        names = [cards[i].card for i in held]
        if len(held) > 1 and len({h.casefold() for h in names}) > 1:
            second = next(i for i in held if not same_card(cards[i].card, names[0]))
            card = cards[second].card
            problems.append(Finding(f"{' and '.join(names)} both hold the {pos} Rune position: no position may be "
                                    f"held by two cards (RB L822-824)", index=second,
                                    remedy=f"remove one of them with drunagor commander remove {shell_word(card)}, "
                                           f"or swap it for a card of another position: drunagor commander swap "
                                           f"{shell_word(card)} CARD"))
    if len(cards) > deck_size():
        extra = len(cards) - deck_size()
        problems.append(Finding(f"{len(cards)} cards: the deck holds exactly {deck_size()}, one for each Rune "
                                f"position (RB L820-822)", index=deck_size(),
                                remedy=f"take {extra} card{'s' if extra > 1 else ''} out with drunagor commander "
                                       f"remove CARD"))
    return CommanderDeck(cards, tuple(problems))


def _by_position(cards) -> dict[str, list[int]]:
    """Rune position -> the indices of the cards holding it, in deck order."""
    out: dict[str, list[int]] = {}
    for i, p in enumerate(cards):
        if p.position:
            out.setdefault(p.position, []).append(i)
    return out


def check_position_fact(name: str, given: str | None) -> str | None:
    """The parsed --position, refused when it contradicts the catalog."""
    if given is None:
        return None
    pos = parse_position(given)
    if pos is None:
        raise UsageError(f"{given!r} is not a Rune position", rule=RULE,
                         remedy="write COLOUR-top or COLOUR-bottom, colours: " + ", ".join(colours()))
    known = catalog.commander_card(name)
    if known is not None and known != pos:
        entry = next(c for c in catalog.commander_cards() if same_card(c["name"], name))
        raise RuleError(f"{entry['name']} holds the {known} Rune position ({entry['source']}), not {pos}",
                        rule=RULE, remedy="leave out --position: drunagor knows this card")
    return pos


def plan_add(story: Story, name: str, position: str | None, replacing: str | None = None) -> Position:
    """The card entering the deck with its position, or the refusal: unknown position (asked for by
    --position), a position already held (RB L822-824), a full deck (RB L820-822), a card twice."""
    d = deck(story)
    known = position_of(name, story.cards)
    pos = position or known.position
    card = known.card if known.source == "catalog" else name.strip()
    if pos is None:
        raise UsageError(f"drunagor does not know which Rune position {card} holds, and no position may be held "
                         f"twice in the deck (RB L822)", rule=RULE,
                         remedy="look at the card and give it once: --position COLOUR-top|bottom")
    left = [p for p in d.cards if not (replacing and same_card(p.card, replacing))]
    if any(same_card(p.card, card) for p in left):
        raise RuleError(f"{card} is already in the Commander Attack deck", rule=RULE,
                        remedy="each card is in the deck once")
    holders = [p.card for p in left if p.position == pos]
    if holders:
        raise RuleError(f"{holders[0]} already holds the {pos} Rune position, so {card} cannot join: no Rune "
                        f"position may be held by two cards (RB L822-824)", rule=RULE,
                        remedy=f"swap them: drunagor commander swap {shell_word(holders[0])} {shell_word(card)}")
    if len(left) >= deck_size():
        raise RuleError(f"the Commander Attack deck already holds {deck_size()} cards (RB L820-822)", rule=RULE,
                        remedy=f"swap a card out: drunagor commander swap OUT {shell_word(card)}")
    return Position(card, pos, known.source if position is None else "recorded")


def find_in_deck(story: Story, name: str) -> str | None:
    exact = [c for c in story.commander if same_card(c, name)]
    if exact:
        return exact[0]
    q = name.strip().casefold()
    pre = [c for c in story.commander if c.casefold().startswith(q)] if q else []
    return pre[0] if len(pre) == 1 else None


def in_deck(story: Story, name: str) -> str:
    """The deck's card `name` names (any case, or a unique prefix), or the refusal (exit 1, an unknown
    name of the game) that says the closest card and lists the deck."""
    found = find_in_deck(story, name)
    if found is None:
        hint = closest(name, story.commander)
        raise RuleError(f"{name!r} is not in the Commander Attack deck", rule=RULE,
                        remedy=(f"did you mean {hint!r}? " if hint else "")
                        + "the deck holds: " + (", ".join(story.commander) or "nothing yet"))
    return found


def plan_position(story: Story, card: str, position: str | None) -> str:
    """The Rune position to record for `card`, a card of the deck: refused when none is given or when
    another card of the deck holds it (RB L822-824)."""
    if position is None:
        raise RuleError(f"{card} is already in the Commander Attack deck", rule=RULE,
                        remedy="give --position to record its Rune position")
    others = [p.card for p in deck(story).cards if p.position == position and not same_card(p.card, card)]
    if others:
        raise RuleError(f"{others[0]} already holds the {position} Rune position: no position may be held "
                        f"by two cards (RB L822-824)", rule=RULE, remedy="check both cards")
    return position


def summary(story: Story) -> dict:
    """The deck as plain values: what `commander show --json` prints."""
    d = deck(story)
    return {
        "status": d.status,
        "legal": d.status == "legal",
        "cards": [{"name": p.card, "position": p.position, "source": p.source} for p in d.cards],
        "positions": d.by_position,
        "free": list(d.free),
        "unknown": list(d.unknown),
        "problems": [p.message for p in d.problems],
        "text": d.text(),
    }

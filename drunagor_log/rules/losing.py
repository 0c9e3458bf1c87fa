"""Every way an adventure is lost at the table, from each chapter's "Winning and Losing the Adventure"
paragraph (RB L1076, L1112, L1136, L1177, L1203, L1225, L1251, L1275, L1305-1309).

Pure: no files, no terminal. Each move returns the new state and, when it brings about a losing
condition, says so in words with its rule line (the state's `lost`); a move the rules do not allow
raises `Refused` (errors.py).

- Cubes (every chapter): a hero holds `rules.trauma_limit` Trauma Cubes, plus what their Skills add
  (RB L1026-1032); the next one defeats them and the adventure fails. A hero's board holds so many
  Curse Cubes (the party records it once, offered 5: the sixth defeats, RB L927); one more defeats them.
- Recall Action (RB L1066, L1191, ...): the chapter's penalty in Curse Cubes, single or double.
- Chapter 04: the last Pristine Swan's HP card drawn fails the adventure (RB L1177); how many the deck
  holds is the party's to record.
- Chapter 07: 3 Barricade tokens; the last one removed fails the adventure (RB L1243, L1251).
- Chapter 09: after the Endgame Trigger a defeat of the party is the ending "A Hero Undone", not a
  failure; a win is "Baptism of Fire" (RB L1309). Before it, a defeat fails the adventure (RB L1305).
  A hero's defeat is the defeat the chapter's text names (RB L1305), so it is the party's defeat here.
"""

from __future__ import annotations

from typing import Any

from drunagor_log.errors import Refused
from drunagor_log.model.adventure import AdventureState
from drunagor_log.text import a

TRAUMA, CURSE = "trauma", "curse"
KINDS = (TRAUMA, CURSE)
CUBE_NAMES = {TRAUMA: "Trauma Cube", CURSE: "Curse Cube"}
#: Curse Cubes a hero's board holds as the book says it once: "if your Hero receives the sixth of them, they
#: will be defeated" (RB L927); offered for the party to confirm (a Skill may change a board: the record says).
CURSE_CAPACITY = 5
#: RB L1243: "Place 3 Barricade tokens ... to mark the Seabreeze Tavern Barricade's HP".
BARRICADE_TOKENS = 3
#: The chapters that count something of their own, and the count at the start.
COUNTERS: dict[str, dict[str, Any]] = {
    "04": {"swan_hp_drawn": 0},  # Pristine Swan's HP cards drawn (RB L1177)
    "07": {"barricade": BARRICADE_TOKENS},  # Barricade tokens left (RB L1243)
    "09": {"endgame": False},  # whether the Endgame Trigger happened (RB L1309)
}
#: `adventure event NAME`: the chapter it belongs to, and its rule line.
EVENTS = {"barricade": ("07", "RB L1243"), "swan-hp": ("04", "RB L1177"), "endgame": ("09", "RB L1309")}
#: Chapter 09's two endings (RB L1309).
HERO_UNDONE, BAPTISM_OF_FIRE = "A Hero Undone", "Baptism of Fire"
COUNTER_KEYS = ("barricade", "swan_hp_drawn", "endgame")


def counters_at_start(chapter: str) -> dict[str, Any]:
    return dict(COUNTERS.get(chapter, {}))


def counters(state: AdventureState) -> dict[str, Any]:
    """The chapter's counters now (a file written before they were kept starts from the chapter's start)."""
    return {**counters_at_start(state.chapter), **state.counters}


def endgame(state: AdventureState) -> bool:
    return bool(counters(state).get("endgame"))


def trauma_limit(campaign_limit: int, bonus: int = 0) -> int:
    """Trauma Cubes a hero holds before the next defeats them: the campaign's rules.trauma_limit (1 as a
    rule, 2 Taking It Easy, 0 harder: RB L1026-1032) plus what the hero's Skills add (RB L1030)."""
    return campaign_limit + bonus


def trauma_rule(campaign_limit: int, bonus: int = 0) -> str:
    """The line that says when this hero is defeated."""
    if bonus:
        return "RB L1030"
    return {0: "RB L1032", 1: "RB L1026", 2: "RB L1028"}.get(campaign_limit, "RB L1026-1032")


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def held(state: AdventureState, hero: str, kind: str) -> int:
    return state.cubes.get(hero, {}).get(kind, 0)


def near_defeat(held: int, limit: int | None) -> bool:
    """A hero one cube or less from defeat: holding cubes up to their limit (one more defeats them) or
    over it (it did); holding some while the capacity is not recorded counts too (it may be one)."""
    return bool(held) and (limit is None or held >= limit)


def change_cubes(state: AdventureState, hero: str, kind: str, delta: int, *, limit: int | None, rule: str
                 ) -> tuple[AdventureState, str | None]:
    """Add (`delta` > 0) or remove a hero's Trauma or Curse Cubes. `limit` is how many the hero holds
    (None: not known, then cubes may be removed only); `rule` the line that defeats them. Returns the new
    state and, when the hero is defeated now, the losing condition in words (also the state's `lost`
    unless an earlier one stands)."""
    name = CUBE_NAMES[kind]
    before = held(state, hero, kind)
    after = before + delta
    if after < 0:
        if not before:  # not "holds 0 ...; remove at most 0"
            raise Refused(f"{hero} holds no {name}s: there is none to remove", "cubes")
        raise Refused(f"{hero} holds {before} {name}{'' if before == 1 else 's'}: {-delta} cannot be removed",
                      "cubes", f"remove at most {before}")
    cubes = {h: dict(c) for h, c in state.cubes.items()}
    cubes.setdefault(hero, {TRAUMA: 0, CURSE: 0})[kind] = after
    new = state.replace(cubes=cubes)
    if delta <= 0 or limit is None or after <= limit or before > limit:
        return new, None
    what = (f"{hero} receives {a(ordinal(limit + 1))} {name}" + (f", more than the {limit} their board holds,"
                                                                  if kind == CURSE else "") + " and is defeated")
    return _defeat(new, what, rule)


def _defeat(state: AdventureState, what: str, rule: str) -> tuple[AdventureState, str]:
    if endgame(state):
        said = (f"{what}: after the Endgame Trigger the party's defeat ends the adventure with \"{HERO_UNDONE}\", "
                "not a failure (RB L1309)")
    else:
        said = f"{what}: the adventure fails, {rule}"
    return state.replace(lost=state.lost or said), said


def chapter_event(state: AdventureState, name: str, *, deck: int | None = None
                  ) -> tuple[AdventureState, str, str | None]:
    """`adventure event NAME` in the chapter it belongs to: (new state, what happened, losing condition)."""
    chapter, rule = EVENTS[name]
    if state.chapter != chapter:
        raise Refused(f"chapter {state.chapter} has no {event_title(name)}: it is chapter {chapter}'s ({rule})",
                      "adventure-event", f"events of chapter {state.chapter}: "
                      + (", ".join(n for n, (ch, _) in EVENTS.items() if ch == state.chapter) or "none"))
    if name == "barricade":
        return _barricade(state)
    if name == "swan-hp":
        return _swan_hp(state, deck)
    return _endgame(state)


def event_title(name: str) -> str:
    return {"barricade": "Barricade", "swan-hp": "Pristine Swan HP deck", "endgame": "Endgame Trigger"}[name]


def _barricade(state: AdventureState) -> tuple[AdventureState, str, str | None]:
    """RB L1243: a Vicious Mauler's attack removes 1 Barricade token; the last one destroys the barricade."""
    left = counters(state)["barricade"]
    if left <= 0:
        raise Refused("the Seabreeze Tavern barricade is already destroyed: no Barricade token is left",
                      "barricade (RB L1243)", "take back a token removed by mistake with `drunagor adventure undo`")
    new = state.replace(counters={**counters(state), "barricade": left - 1})
    if left - 1:
        return new, f"a Barricade token removed: {left - 1} of {BARRICADE_TOKENS} left (RB L1243)", None
    new, lost = _defeat(new, "the last Barricade token is removed and the Seabreeze Tavern barricade is destroyed",
                        "RB L1243, L1251")
    return new, "the last Barricade token removed (RB L1243)", lost


def _swan_hp(state: AdventureState, deck: int | None) -> tuple[AdventureState, str, str | None]:
    """RB L1177: drawing the last Pristine Swan's HP card fails the adventure. `deck`: the cards it holds."""
    if deck is None:
        raise Refused("how many HP cards the Pristine Swan's deck holds is not known", "swan-hp (RB L1177)",
                      "count them and give --deck N once")
    drawn = counters(state)["swan_hp_drawn"]
    if drawn >= deck:
        raise Refused(f"all {deck} Pristine Swan's HP cards are drawn already", "swan-hp (RB L1177)",
                      "take back a card drawn by mistake with `drunagor adventure undo`")
    new = state.replace(counters={**counters(state), "swan_hp_drawn": drawn + 1})
    said = f"Pristine Swan's HP card {drawn + 1} of {deck} drawn"
    if drawn + 1 < deck:
        return new, f"{said} (RB L1177)", None
    new, lost = _defeat(new, "the last Pristine Swan's HP card is drawn", "RB L1177")
    return new, f"{said}: the last one (RB L1177)", lost


def _endgame(state: AdventureState) -> tuple[AdventureState, str, str | None]:
    """RB L1309: from now on a defeat of the party is "A Hero Undone", not a failure."""
    if endgame(state):
        raise Refused("the Endgame Trigger has happened already", "endgame (RB L1309)",
                      "take it back with `drunagor adventure undo` if it was recorded by mistake")
    new = state.replace(counters={**counters(state), "endgame": True})
    return new, (f"Endgame Trigger: from now on a defeat of the party ends the adventure with \"{HERO_UNDONE}\", "
                 f"not a failure; defeating the Scenario Commander, with \"{BAPTISM_OF_FIRE}\" (RB L1309)"), None


def last_rune(state: AdventureState, rule: str) -> tuple[AdventureState, str]:
    """The last rune in the bag is drawn, in a chapter that fails on it (e.g. RB L1203)."""
    new, lost = _defeat(state, "the last rune in the bag is drawn", rule)
    return new, lost


def ending(chapter: str, outcome: str, state: AdventureState) -> str | None:
    """Chapter 09's ending (RB L1309): a win is "Baptism of Fire"; a defeat after the Endgame Trigger
    "A Hero Undone"; None otherwise (a failure, or another chapter)."""
    if chapter != "09":
        return None
    if outcome == "won":
        return BAPTISM_OF_FIRE
    return HERO_UNDONE if endgame(state) else None


def counters_json(state: AdventureState) -> dict[str, Any]:
    """`adventure show --json` "counters": each of the chapter's counters, null where it has none."""
    now = counters(state)
    return {key: now.get(key) for key in COUNTER_KEYS}

"""Cubes and losing conditions at the table (SPEC section 9): a hero's Trauma and Curse Cubes, the
Recall Action's penalty, and the chapters' own counters (chapter 04's Pristine Swan HP deck, chapter
07's Barricade, chapter 09's Endgame Trigger). The rules are rules/losing.py; each operation stages
adventure.toml as a table event (`adventure undo` takes it back) and says when the adventure is lost.

Facts the rulebook does not give are recorded once by the party under [cards] in story.toml (SPEC
"User-recorded facts"), in the entry of the hero whose board it is, or of the deck:

    [cards]
    "Nyx" = { curse_capacity = 5, trauma_limit_bonus = 1 }   # her board; a Skill adds a Trauma Cube
    "Pristine Swan HP" = { deck_size = 6 }                   # chapter 04
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import catalog
from ..errors import RuleError, UsageError
from ..names import lookup
from ..rules.chapters import counters_json
from ..rules.losing import CUBE_NAMES, CURSE_CAPACITY, EVENTS, KINDS, held, trauma_limit, trauma_rule
from ..rules.losing import change_cubes as change
from ..rules.losing import chapter_event as happen
from ..store.edit import set_card_facts
from ..text import shell_word
from ..values import fits_toml
from ..values import record as value
from . import Change, Line
from .typed import typed_number
from .words import forget_command, plural

if TYPE_CHECKING:
    from ..campaign import Campaign
    from ..model.adventure import AdventureState

#: The [cards] entry of chapter 04's Pristine Swan HP deck.
SWAN_DECK = "Pristine Swan HP"


# --------------------------------------------------------------------------------------- facts


def hero_name(c: Campaign, query: str) -> str:
    """The active hero a name means (a unique prefix is enough)."""
    return c.hero(query)[1].name


def _fact(c: Campaign, card: str, key: str) -> int | None:
    value = (c.story.cards.get(card) or {}).get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def curse_capacity(c: Campaign, hero: str) -> int | None:
    """Curse Cubes the hero's board holds, as the party recorded it (None: not yet)."""
    return _fact(c, hero, "curse_capacity")


def trauma_bonus(c: Campaign, hero: str) -> int:
    """Trauma Cubes the hero's Skills add to the campaign's limit, as recorded (0 when none is)."""
    return _fact(c, hero, "trauma_limit_bonus") or 0


def hero_limits(c: Campaign, hero: str, *, capacity: int | None = None, bonus: int | None = None
                ) -> dict[str, Any]:
    """{"trauma_limit", "curse_capacity"} of a hero (the capacity null until recorded); `capacity` and
    `bonus` are facts this command records (story.toml is written with the rest)."""
    bonus = trauma_bonus(c, hero) if bonus is None else bonus
    return {"trauma_limit": trauma_limit(c.story.rules.trauma_limit, bonus),
            "curse_capacity": curse_capacity(c, hero) if capacity is None else capacity}


@value
class HeroFacts:
    """A hero's facts for this command: recorded before, or given now (and then recorded)."""

    capacity: int | None
    bonus: int
    said: tuple[str, ...]  # what this command records
    recorded: str = ""  # "HERO: fact; HERO: fact" (the log entry's `recorded`, for `adventure undo`)


def _record_facts(c: Campaign, hero: str, capacity: int | None, bonus: int | None) -> HeroFacts:
    """Record --capacity (once: a board does not change) and --trauma-limit-bonus (again when a new
    Skill adds more)."""
    said, facts = [], {}
    known = curse_capacity(c, hero)
    if capacity is not None:
        if capacity < 1:
            raise UsageError(f"--capacity must be at least 1, not {capacity}")
        if known is not None and known != capacity:
            raise UsageError(f"{hero}'s board holds {known} Curse Cubes on record", file=c.story_file.shown,
                             remedy="leave out --capacity; if the record is a slip: "
                                    + forget_command(hero, "curse_capacity"))
        if known is None:
            facts["curse_capacity"] = capacity
            said.append(f"{hero}'s Curse Cube capacity {capacity} recorded under [cards]")
    if bonus is not None:
        if bonus < 0:
            raise UsageError(f"--trauma-limit-bonus must be 0 or more, not {bonus}")
        if bonus != trauma_bonus(c, hero):
            facts["trauma_limit_bonus"] = bonus
            said.append(f"{hero}'s Skills add {plural(bonus, 'Trauma Cube')} to the limit (recorded under [cards])")
    if facts:
        set_card_facts(c.story_file.edit(), hero, facts)
    return HeroFacts(capacity=known if capacity is None else capacity,
                     bonus=trauma_bonus(c, hero) if bonus is None else bonus, said=tuple(said),
                     recorded="; ".join(f"{hero}: {fact}" for fact in facts))


# ---------------------------------------------------------------------------------------- cubes


def parse_delta(delta: str | int) -> int:
    """'+1', '2', '-1' -> 1, 2, -1."""
    if isinstance(delta, int):
        return delta
    n = typed_number(delta, example="+1")
    if n is None:
        raise UsageError(f"{delta!r} is not a number of cubes", remedy="write +1 to add, -1 to remove")
    return n


def parse_kind(kind: str) -> str:
    return lookup(kind, {k: k for k in KINDS}, "kind of cube")


def cube(c: Campaign, hero: str, kind: str, delta: str | int, *, capacity: int | None = None,
         trauma_limit_bonus: int | None = None) -> Change:
    """Add (`delta` > 0) or remove a hero's Trauma or Curse Cubes during the adventure. Over what the
    hero holds: the hero is defeated and the adventure fails (said, and kept in adventure.toml)."""
    amount, kind = parse_delta(delta), parse_kind(kind)
    state = table_state(c)
    name = hero_name(c, hero)
    facts = _record_facts(c, name, capacity, trauma_limit_bonus)
    if amount == 0:
        if not facts.said:
            raise UsageError("0 cubes changes nothing", remedy="write +1 to add, -1 to remove")
        return Change(summary="; ".join(facts.said), data=_cube_data(c, state, name, kind, None, facts))
    ask = f"drunagor cube {shell_word(name)} curse {amount:+d} --capacity {CURSE_CAPACITY}"
    return _apply_cubes(c, state, name, kind, amount, facts, event="cube", said=list(facts.said), ask=ask)


def recall(c: Campaign, hero: str, *, capacity: int | None = None) -> Change:
    """A Recall Action: the hero receives the chapter's penalty in Curse Cubes (single or double, e.g.
    RB L1066, L1191)."""
    state = table_state(c)
    name = hero_name(c, hero)
    facts = _record_facts(c, name, capacity, None)
    info = catalog.chapter(state.chapter)
    head = (f"{name} takes a Recall Action: chapter {state.chapter}'s penalty is "
            f"{plural(info.recall_penalty, 'Curse Cube')} ({info.refs.get('recall_penalty', '')})")
    return _apply_cubes(c, state, name, "curse", info.recall_penalty, facts, event="recall",
                        said=[*facts.said, head],
                        ask=f"drunagor recall {shell_word(name)} --capacity {CURSE_CAPACITY}")


def _apply_cubes(c: Campaign, state: AdventureState, name: str, kind: str, amount: int, facts: HeroFacts, *,
                 event: str, said: list[str], ask: str) -> Change:
    limit = trauma_limit(c.story.rules.trauma_limit, facts.bonus) if kind == "trauma" else facts.capacity
    if kind == "curse" and amount > 0 and limit is None:
        # RB L927: "if your Hero receives the sixth of them, they will be defeated": 5, offered to confirm
        raise UsageError(f"how many Curse Cubes does {name}'s board hold? The book says the sixth defeats a hero "
                         f"(RB L927), so 5, and one more than the board holds fails the adventure "
                         f"({_losing_ref(state.chapter)})",
                         remedy=f"confirm it with --capacity {CURSE_CAPACITY} once (or give the number the board "
                                f"shows); drunagor remembers it under [cards] in story.toml ({ask})")
    rule = trauma_rule(c.story.rules.trauma_limit, facts.bonus) if kind == "trauma" else _losing_ref(state.chapter)
    if not fits_toml(held(state, name, kind) + amount):
        raise UsageError(f"{name} cannot hold {held(state, name, kind) + amount} {CUBE_NAMES[kind]}s: past the "
                         "whole numbers a campaign file holds", remedy="give the cubes received or lost, e.g. +1")
    with c.adventure_refusals():
        new, lost = change(state, name, kind, amount, limit=limit, rule=rule)
    now = held(new, name, kind)
    text = (f"{name} {'receives' if amount > 0 else 'loses'} {plural(abs(amount), CUBE_NAMES[kind])}: {now} held"
            + (f", {limit} can be held" if limit is not None else ""))
    said.append(text)
    entry: dict[str, object] = {"event": event, "hero": name, "kind": kind, "delta": amount, "count": now}
    if lost:
        entry["defeated"] = True
    entry["text"] = "; ".join(said)
    if facts.recorded:
        entry["recorded"] = facts.recorded
    c.record_event(state, new, entry)
    notes = ((_lost_line(lost),) if lost else ()) + _aura_note(c, name, kind, amount)
    return Change(summary="; ".join(said), notes=notes, data=_cube_data(c, new, name, kind, lost, facts))


def _aura_note(c: Campaign, name: str, kind: str, amount: int) -> tuple[Line, ...]:
    """A Trauma Cube received by a hero with an Aura: the Aura stays, said so. No line of the rulebook
    ties an Aura to a Trauma Cube; a cube is the adventure's (`adventure undo` takes it back), an Aura
    the Campaign Log's, so drunagor takes nothing from the Log on a reading no line gives (docs/rules.md)."""
    if kind != "trauma" or amount <= 0:
        return ()
    aura = c.hero(name)[1].aura
    if not aura:
        return ()
    return (Line(f"{name} keeps the Aura {aura}: no line of the rulebook takes an Aura for a Trauma Cube; if your "
                 f"table's rule does, clear it with `drunagor hero aura {shell_word(name)} --clear`."),)


def _cube_data(c: Campaign, state: AdventureState, name: str, kind: str, lost: str | None, facts: HeroFacts
               ) -> dict[str, Any]:
    return {"hero": name, "kind": kind, "trauma": held(state, name, "trauma"), "curse": held(state, name, "curse"),
            **hero_limits(c, name, capacity=facts.capacity, bonus=facts.bonus), "defeated": lost is not None,
            "lost": state.lost}


def _lost_line(lost: str) -> Line:
    return Line(f"{lost}. Record it with `drunagor adventure end --lost`.", "bold red")


def _losing_ref(chapter: str) -> str:
    return catalog.chapter(chapter).refs.get("losing", "RB L1076")


# -------------------------------------------------------------------------------- chapter events


def chapter_event(c: Campaign, name: str, *, deck: int | None = None, count: int = 1) -> Change:
    """`adventure event barricade|swan-hp|endgame`: chapter 07's Barricade token removed (RB L1243),
    chapter 04's Pristine Swan HP card drawn (the deck's size recorded once with `deck`), chapter 09's
    Endgame Trigger (RB L1309). `count` of them at once are one table event."""
    name = lookup(name, {n: n for n in EVENTS}, "chapter event")
    state = new = table_state(c)
    said = _deck_fact(c, deck) if name == "swan-hp" and state.chapter == EVENTS[name][0] else []
    if deck is not None and name != "swan-hp":
        raise UsageError("--deck counts the HP cards of a deck (adventure event swan-hp, vessel-hp)",
                         remedy="leave out --deck")
    if count != 1 and name == "endgame":
        raise UsageError("the Endgame Trigger happens once", remedy="leave out --count")
    lost = None
    with c.adventure_refusals():
        for _ in range(count):
            new, text, now = happen(new, name, deck=_fact(c, SWAN_DECK, "deck_size") if deck is None else deck)
            lost = lost or now
            said.append(text)
    entry: dict[str, object] = {"event": name, "counter": name, "count": count, "text": "; ".join(said)}
    if deck is not None and said and "recorded under [cards]" in said[0]:
        entry["recorded"] = f"{SWAN_DECK}: deck_size"
    c.record_event(state, new, entry)
    return Change(summary="; ".join(said), notes=(_lost_line(lost),) if lost else (),
                  data={"event": name, "counters": counters_json(new), "lost": new.lost, "read": None})


def deck_on_record(c: Campaign, card: str, whose: str, deck: int | None, *, question: str,
                   event: str) -> list[str]:
    """--deck N: the size of an HP deck the book does not give (`card` under [cards], e.g. the Pristine
    Swan's), recorded once (SPEC "User-recorded facts"); `question` asks for it while it is unknown."""
    known = _fact(c, card, "deck_size")
    if deck is None:
        if known is None:
            raise UsageError(question, remedy="count them and give --deck N once; drunagor remembers it under "
                                              "[cards] in story.toml", ask="--deck N",
                             again=f"drunagor adventure event {event}")
        return []
    if deck < 1:
        raise UsageError(f"--deck must be at least 1, not {deck}")
    if known is not None and known != deck:
        raise UsageError(f"{whose} HP deck holds {known} cards on record", file=c.story_file.shown,
                         remedy="leave out --deck; if the record is a slip: " + forget_command(card, "deck_size"))
    if known is None:
        set_card_facts(c.story_file.edit(), card, {"deck_size": deck})
        return [f"{whose} HP deck of {plural(deck, 'card')} recorded under [cards]"]
    return []


def _deck_fact(c: Campaign, deck: int | None) -> list[str]:
    return deck_on_record(c, SWAN_DECK, "the Pristine Swan's", deck, event="swan-hp",
                          question="how many HP cards does the Pristine Swan's deck hold? The rulebook does not "
                                   "say, and drawing the last one fails the adventure (RB L1177)")


def refuse_if_lost(c: Campaign, state: AdventureState) -> None:
    """The one rule for every table event (raid, draw, monster, pile, tiebreak, battalion, cube, recall,
    a chapter's event, the end of the round): once a losing condition is met the adventure is over, and
    nothing more happens at the table (SPEC 10). Its end is recorded, or the event that lost it, when it
    was a slip, taken back. The same once the book's ending is reached (RB L1179, L1205, L1309): an
    adventure announced won stays won."""
    f = c.adventure_file
    if state.won and not state.lost:  # the book's ending reached (RB L1179, L1205, L1309): as after a loss
        raise RuleError("the adventure has ended: drunagor adventure end --won",
                        file=f.shown if f is not None else None, rule="adventure",
                        remedy=f"ended by: {state.won}; if that was a slip, take it back: drunagor adventure undo")
    if not state.lost:
        return
    raise RuleError("the adventure is lost: drunagor adventure end --lost", file=f.shown if f is not None else None,
                    rule="adventure", remedy=f"lost by: {state.lost}; if that was a slip, take it back: drunagor "
                                             "adventure undo")


def table_state(c: Campaign, *, dry_run: bool = False) -> AdventureState:
    """The adventure under way, for a table event: refused once the adventure is lost, and (but for a
    dry run, which only reads) when adventure.toml is of a newer schema."""
    state = c.adventure(changing=not dry_run)
    refuse_if_lost(c, state)
    return state


def lost_refusal(c: Campaign, state: AdventureState) -> RuleError:
    """`adventure end --won` when the adventure was lost at the table."""
    f = c.adventure_file
    return RuleError(f"the adventure was lost: {state.lost}", file=f.shown if f is not None else None,
                     rule="adventure", remedy="end it with `drunagor adventure end --lost`, or take back the event "
                                              "that lost it with `drunagor adventure undo`")


def won_refusal(c: Campaign, state: AdventureState) -> RuleError:
    """`adventure end --lost` once the book's ending was reached at the table (RB L1179, L1205, L1309)."""
    f = c.adventure_file
    return RuleError(f"the adventure has ended: {state.won}", file=f.shown if f is not None else None,
                     rule="adventure", remedy="end it with `drunagor adventure end --won`, or take back the event "
                                              "that ended it with `drunagor adventure undo`")

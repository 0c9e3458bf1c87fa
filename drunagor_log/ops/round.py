"""At the table: the end of the round and every chapter's own counters (SPEC 10, "The round"). The
rules are rules/round.py and rules/chapters.py; each operation stages adventure.toml as a table event
(`adventure undo` takes it back), as ops/adventure.py does.

A Rune card's draw count is printed on the card only (the faces may differ), and so is the size of
chapter 04's Corrupted Vessel HP deck: each is asked once by a flag and remembered under [cards] in
story.toml (SPEC "User-recorded facts"):

    [cards]
    "Growing Influence" = { draws_a = 2, draws_b = 3 }
    "Corrupted Vessel HP" = { deck_size = 6 }
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .. import catalog
from ..errors import UsageError
from ..names import lookup
from ..rules import chapters
from ..rules.adventure import draw_random
from ..rules.round import LEADER_CHOOSES, due_runes, end_round, next_round_text, round_card
from ..store.edit import set_card_facts
from . import Change, Line
from .board import new_seed
from .losing import chapter_event, deck_on_record, table_state
from .typed import colours
from .words import forget_command

if TYPE_CHECKING:
    from ..campaign import Campaign
    from ..model.adventure import AdventureState
    from ..rules.round import RoundCard, RoundEnd

#: The [cards] entry of chapter 04's Corrupted Vessel HP deck.
VESSEL_DECK = "Corrupted Vessel HP"
#: The most `--count` takes (no count of the book comes near it: the Awakened King's 200 Health).
MOST = 999


# ------------------------------------------------------------------------------------- facts


def _fact(c: Campaign, card: str, key: str) -> int | None:
    value = (c.story.cards.get(card) or {}).get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def draws_on_record(c: Campaign, card: str, face: str) -> int | None:
    """How many runes face `face` of the card draws, as the party recorded it."""
    return _fact(c, card, f"draws_{face.casefold()}")


def _draws(c: Campaign, card: RoundCard, face: str | None, given: int | None, *, record_it: bool
           ) -> tuple[int | None, list[str]]:
    """The face's draw count (recorded before, or `given` now and then recorded once) and what was said."""
    if not card.draws_runes or face is None:
        if given is not None:
            raise UsageError(f"the {card.name} deck draws a card, not runes: --draws has nothing to count",
                             remedy="leave out --draws")
        return None, []
    fact = f"draws_{face.casefold()}"
    known = draws_on_record(c, card.name, face)
    if given is None:
        if known is None:
            raise UsageError(f"how many runes does face {face} of the {card.name} card draw? It is printed on the "
                             f"card, not in the book ({card.source})",
                             remedy="read it on the card and give --draws N once; drunagor remembers it for that "
                                    "face under [cards] in story.toml", ask="--draws N", again="drunagor round end")
        return known, []
    most = sum((c.story.rules.rune_bag or catalog.DEFAULT_RUNE_BAG).values())
    if not 1 <= given <= most:
        # A card that draws no rune, or more than the whole bag, is a slip: refused before it is remembered.
        raise UsageError(f"--draws {given}: a Rune card draws at least 1 rune, and at most the {most} the bag holds "
                         "(rules.rune_bag)", remedy=f"read the number on face {face} of the {card.name} card")
    if known is not None and known != given:
        raise UsageError(f"face {face} of the {card.name} card draws {known} runes on record",
                         file=c.story_file.shown,
                         remedy=f"leave out --draws; if the record is a slip: {forget_command(card.name, fact)}")
    if known is not None:
        return known, []
    if record_it:
        set_card_facts(c.story_file.edit(), card.name, {fact: given})
    return given, [f"face {face} of the {card.name} card draws {given} (recorded under [cards])"]


# --------------------------------------------------------------------------------- round end


def end(c: Campaign, *, runes: Sequence[str] | str | None = None, seed: int | None = None, draws: int | None = None,
        dry_run: bool = False) -> Change:
    """The Initiative Marker reaches the card at the end of the Initiative Track: resolve it, then the
    chapter's end-of-round rules; the round number goes up by one. Stages adventure.toml unless `dry_run`."""
    state = table_state(c, dry_run=dry_run)
    card = round_card(state.chapter, state)
    face = chapters.rune_face(state) if card.draws_runes else None
    count, said = _draws(c, card, face, draws, record_it=not dry_run)
    drawn, used_seed = _runes(state, card, count, runes, seed)
    with c.adventure_refusals():
        result = end_round(state, draws=count, drawn=drawn)
    notes = round_lines(result, c.story.leader, used_seed, physical=bool(runes))
    data = {**result.as_json(), "seed": used_seed, "dry_run": dry_run}
    if dry_run:
        return Change(notes=(*notes, Line("dry run: nothing written")), data=data)
    summary = "; ".join([*said, round_summary(result)]) + (f" (seed {used_seed})" if used_seed is not None else "")
    entry: dict[str, object] = {"event": "round", "round": result.round}
    if result.face is not None:
        entry["face"] = result.face
    entry["steps"] = [step.title for step in result.steps]
    if said and face is not None:
        entry["recorded"] = f"{card.name}: draws_{face.casefold()}"
    if drawn:
        entry["runes"] = ", ".join(drawn)
        entry["left"] = result.state.runes_in_bag()
        entry["bag"] = dict(state.bag)
    if used_seed is not None:
        entry["seed"] = used_seed
    elif drawn:
        entry["physical"] = True
    entry["text"] = summary
    c.record_event(state, result.state, entry)
    return Change(summary=summary, notes=tuple(notes), data=data)


def _runes(state: AdventureState, card: RoundCard, count: int | None, runes: Sequence[str] | str | None,
           seed: int | None) -> tuple[list[str], int | None]:
    """The runes drawn (given at the table, or at random with the seed) and the seed (None: at the table,
    or nothing to draw)."""
    physical = colours(runes, state.colours) if runes else []
    if runes and not physical:
        raise UsageError("--rune names no rune", remedy="e.g. --rune red")
    if physical and seed is not None:
        raise UsageError("--seed replays a random draw; --rune records the runes drawn at the table",
                         remedy="give one of them")
    if physical or count is None or not card.draws_runes:
        if seed is not None and not card.draws_runes:
            raise UsageError(f"the {card.name} deck is drawn in order: there is no random draw to seed",
                             remedy="leave out --seed")
        return physical, None
    due = due_runes(state, count)
    if due == 0:
        return [], None
    used = new_seed() if seed is None else seed
    return draw_random(state.bag, due, random.Random(used)), used


def round_summary(result: RoundEnd) -> str:
    """One line: what the end of the round did."""
    if result.card.draws_runes:
        what = f"drew {', '.join(result.drawn) or 'no rune'}"
        if result.next_card is not None:
            what += f"; the {result.next_card} card replaces the {result.card.name} card"
        elif result.card.flips and not result.lost:
            what += f"; the {result.card.name} card now shows face {result.next_face}"
    elif result.siege_card is None:
        what = f"the {result.card.name} deck is spent"
    else:
        what = f"{result.card.name} deck: card {result.siege_card} of {result.card.cards}"
    if result.read:
        what += "; read " + ", ".join(f"\"{scene}\"" for scene in result.read)
    if result.lost:
        return f"round {result.round}: {what}; the adventure fails"
    return f"round {result.round} ended: {what}; round {result.round + 1} begins"


def round_lines(result: RoundEnd, leader: str | None, seed: int | None, *, physical: bool) -> list[Line]:
    """The heading, the numbered steps with their lines, the new round (and the loss, if one)."""
    head = f"End of round {result.round}: chapter {result.chapter}, "
    if result.card.draws_runes:
        head += f"{result.card.name} card face {result.face} (draws {result.draws})"
    else:
        head += f"{result.card.name} deck"
    if seed is not None:
        head += f"; runes drawn with seed {seed} (--seed {seed} replays it)"
    elif physical:
        head += "; runes drawn at the table"
    lines = [Line(head, "bold")]
    for step in result.steps:
        fact = step.fact.replace(LEADER_CHOOSES, f"the Party Leader ({leader}) chooses") if leader else step.fact
        lines += [Line(f"{step.number}. {step.title} ({step.rule})"), Line(f"   {fact}")]
    if result.lost:
        lines.append(Line(f"{result.lost}. Record it with `drunagor adventure end --lost`.", "bold red"))
    else:
        lines.append(Line(f"Round {result.round + 1} begins."))
    return lines


# ----------------------------------------------------------------------------------- reading


def round_json(c: Campaign, state: AdventureState) -> dict[str, Any]:
    """`adventure show --json`'s "round", "rune_card" (draws: of the face up, null until recorded),
    "next_round" (what the next end of round will do, in words) and "counters"."""
    card = round_card(state.chapter, state)
    face = chapters.rune_face(state) if card.draws_runes else None
    draws = draws_on_record(c, card.name, face) if face is not None else None
    # After a loss there is no next end of round (SPEC 10: the table events are refused).
    after = ("No next end of round: the adventure is lost (drunagor adventure end --lost)" if state.lost else
             "No next end of round: the adventure has ended (drunagor adventure end --won)" if state.won else
             next_round_text(state, draws))
    return {"round": chapters.round_number(state), "rune_card": {"name": card.name, "face": face, "draws": draws},
            "next_round": after, "counters": chapters.counters_json(state)}


#: How `adventure show` says each counter (None: the chapter has none), with its line.
_COUNTER_TEXT = {
    "barricade": "Barricade: {} of 3 tokens left (RB L1243)",
    "swan_hp_drawn": "Pristine Swan HP cards drawn: {} (RB L1177)",
    "vessel_hp_drawn": "Corrupted Vessel HP cards drawn: {} (RB L1179)",
    "king_health": "Awakened King's Health: {} (RB L1295-1299)",
    "desperation_time_tokens": "Time tokens on the Desperation Attack card: {} of 2 (RB L1301)",
    "time_tokens": "Time Tokens on the Rune card: {} of 3 (RB L1134)",
    "doom_clock": "Doom Clock: {} Piles of Runes removed (RB L1106-1110)",
    "siege_cards_drawn": "Siege of Everedge cards drawn: {} of 10 (RB L1235)",
    "mending_rope": "Mending Rope collected: {} (RB L1205)",
    "plenty_of_provisions": "Plenty of Provisions collected: {} (RB L1205)",
    "spare_wood": "Spare Wood collected: {} (RB L1205)",
}


def counter_lines(counters: dict[str, Any]) -> list[str]:
    """The chapter's counters as `adventure show` prints them (those the chapter has)."""
    lines = [text.format(counters[key]) for key, text in _COUNTER_TEXT.items() if counters.get(key) is not None]
    if counters.get("special_event") is not None:
        lines.append("Special Event token on the Rune card: " + ("yes" if counters["special_event"] else "no")
                     + " (RB L1074)")
    if counters.get("harvesters_hunt"):
        lines.append("The Harvester's Hunt card replaced the Growing Influence card (drunagor's reading of RB "
                     "L1142-1144)")
    if counters.get("endgame") is not None:
        lines.append("Endgame Trigger: " + ("happened (RB L1309)" if counters["endgame"] else "not yet (RB L1309)"))
    return lines


# ------------------------------------------------------------------------------------ events


def event(c: Campaign, name: str, *, count: int = 1, deck: int | None = None) -> Change:
    """`adventure event NAME [--count N]`: one of the chapters' counters the book names (rules/chapters.py,
    beside rules/losing.py's barricade, swan-hp and endgame)."""
    name = lookup(name, {n: n for n in chapters.ALL_EVENTS}, "chapter event")
    if not 1 <= count <= MOST:
        raise UsageError(f"--count must be from 1 to {MOST}, not {count}")
    state = table_state(c)
    with c.adventure_refusals():
        chapters.refuse_other_chapter(state, name)
    if name not in chapters.EVENTS:
        return chapter_event(c, name, deck=deck, count=count)
    if deck is not None and name != "vessel-hp":
        raise UsageError("--deck counts the HP cards of a deck (adventure event vessel-hp, swan-hp)",
                         remedy="leave out --deck")
    said = _vessel_deck(c, deck) if name == "vessel-hp" else []
    with c.adventure_refusals():
        result = chapters.chapter_event(state, name, count,
                                        deck=_fact(c, VESSEL_DECK, "deck_size") if deck is None else deck)
    entry: dict[str, object] = {"event": name, "counter": name, "count": count, "text": "; ".join([*said, result.text])}
    if said:
        entry["recorded"] = f"{VESSEL_DECK}: deck_size"
    said.append(result.text)
    c.record_event(state, result.state, entry)
    return Change(summary="; ".join(said), data={"event": name, "counters": chapters.counters_json(result.state),
                                                 "lost": result.state.lost, "read": result.read})


def _vessel_deck(c: Campaign, deck: int | None) -> list[str]:
    """--deck N: the Corrupted Vessel's HP deck, recorded once under [cards] (the book gives no size)."""
    return deck_on_record(c, VESSEL_DECK, "the Corrupted Vessel's", deck, event="vessel-hp",
                          question="how many HP cards does the Corrupted Vessel's deck hold? The book does not say, "
                                   "and drawing the last one ends the adventure (RB L1179)")

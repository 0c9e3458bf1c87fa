"""The odds of the next Dreadful Raid (SPEC 5.5, RB L292-297): exact fractions, in its own module so
that no other table command imports the fractions arithmetic (SPEC 7)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import catalog
from ..rules.odds import summon_odds
from ..rules.raid import next_raid
from . import Change, Line
from .words import chance_text, chapter_ref, plural, runes_text

if TYPE_CHECKING:
    from ..campaign import Campaign


def odds(c: Campaign) -> Change:
    """The exact chance that the next Dreadful Raid summons (`data`: the `odds --json` object; `notes`:
    the lines a person reads)."""
    state = c.adventure()
    info = catalog.chapter(state.chapter)
    data: dict[str, Any]
    if state.raid is not None and state.raid.card == "Dreadful Raid":
        result = summon_odds(**next_raid(state))
        data = result.as_json()
        reason, matching, face = result.reason, list(result.matching_colours), state.raid.face
    elif state.raid is not None:  # chapter 04's Naval Raid: its card's text is not in the book
        data = {"summon_chance": None, "summon_probability": None, "runes_in_bag": state.runes_in_bag(),
                "by_colour": dict(state.bag), "try_chance": None, "try_probability": None}
        source = info.raid.source if info.raid is not None else "RB L1161"
        reason, matching, face = (f"the {state.raid.card} card resolves by its own text, which the rulebook does not "
                                  f"transcribe (chapter {state.chapter}, {source})"), [], None
    else:
        data = {"summon_chance": "0/1", "summon_probability": 0.0, "runes_in_bag": state.runes_in_bag(),
                "by_colour": dict(state.bag), "try_chance": "0/1", "try_probability": 0.0}
        reason, matching, face = f"chapter {state.chapter} has no Dreadful Raid card", [], None
    data.update({"reason": reason, "face": face, "matching_colours": matching, "chapter": state.chapter,
                 "fails_on_last_rune": info.fails_on_last_rune})
    notes = []
    if face is not None:
        held = [c for c in state.colours if any(p.holds(c) for p in state.piles)]
        notes.append(Line(f"Next raid: face {face}, {plural(len(state.monsters), 'monster')} on the board; "
                          + (f"the Piles of Runes hold {', '.join(held)}" if held
                             else "no Pile of Runes on the board")))
    chance = ("unknown" if data["summon_chance"] is None
              else chance_text(data["summon_chance"], data["summon_probability"]))
    notes.append(Line(f"Chance it summons: {chance}" + (f": {reason}" if reason else ""), "bold"))
    if data["try_chance"] != data["summon_chance"]:
        notes.append(Line("Chance it tries (a Pile holds the rune manifested): "
                          + chance_text(data["try_chance"], data["try_probability"])))
    notes.append(Line(f"Runes in the bag: {data['runes_in_bag']} ({runes_text(state.bag)})"))
    if info.fails_on_last_rune:
        notes.append(Line(f"The adventure fails when the last rune in the bag is drawn{chapter_ref(info, 'losing')}."))
    return Change(notes=tuple(notes), data=data)


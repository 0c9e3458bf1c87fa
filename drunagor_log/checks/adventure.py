"""Checks of the adventure under way (adventure.toml) and of the archived adventures (adventures/).

adventure.toml is written by the tool only, so what these find is a hand edit gone wrong or a merge:
a shape the tool does not write (negative rune counts, a status-board slot twice or outside 1-12, an
unknown chapter or rank), runes lost or invented (bag + track + Piles of Runes must be the campaign's
rune bag, colour by colour), more models of a minion than the box holds (RB L311), more heroes than
the campaign allows (RB L941-943) or than the party has.
"""

from __future__ import annotations

from .. import catalog
from ..campaign import parsed_adventure
from ..errors import Problem
from ..rules.board import models_on_board
from ..rules.miniatures import kin
from .registry import check


def _problem(f, path: tuple, rule: str, message: str, severity: str = "error") -> Problem:
    return Problem(f.shown, f.line(path), rule, message, severity)


@check("adventure-state")
def adventure_shape(c):
    """adventure.toml is an adventure under way, not a finished one. (The shape of every adventure file,
    archives included, is checked as the files are read: see campaign.shape_problem; archives are not read
    again here, so `check` does not slow down as the history grows, SPEC 7.)"""
    f = c.adventure_file
    if f is not None and not f.read_only:
        state, bad = parsed_adventure(f)
        if bad is None and state.outcome is not None:
            yield _problem(f, ("outcome",), "adventure-state",
                           f"adventure.toml says the adventure was {state.outcome}, but it is still under way; "
                           "end it with `drunagor adventure end`", "warning")


@check("rune-count")
def rune_count(c):
    """Bag + Initiative Track + Piles of Runes hold the campaign's rune bag, colour by colour."""
    f = c.adventure_file
    if f is None or f.read_only:
        return
    state, bad = parsed_adventure(f)
    if bad is not None:
        return
    full = dict(c.story.rules.rune_bag) or dict(catalog.DEFAULT_RUNE_BAG)
    totals = state.totals()
    for colour in list(full) + [k for k in totals if k not in full]:
        have, want = totals.get(colour, 0), full.get(colour, 0)
        if have != want:
            in_piles = sum(p.runes.get(colour, 0) for p in state.piles)
            yield _problem(f, ("bag", colour), "rune-count",
                           f"{colour} runes: {state.bag.get(colour, 0)} in the bag + {state.track.get(colour, 0)} on "
                           f"the Initiative Track + {in_piles} in Piles of Runes = {have}, but the rune bag of the "
                           f"campaign (rules.rune_bag in story.toml) holds {want}; drunagor only moves runes between "
                           "them, so a hand edit went wrong: fix the counts")


@check("adventure")
def adventure_rules(c):
    """The adventure under way is the next chapter, with a legal party and board."""
    f = c.adventure_file
    if f is None or f.read_only:
        return
    state, bad = parsed_adventure(f)
    if bad is not None:
        return
    story = c.story
    nxt = story.next_chapter()
    if state.chapter != nxt:
        yield _problem(f, ("chapter",), "adventure",
                       f"adventure.toml plays chapter {state.chapter}, but the next chapter on the Adventure Track "
                       f"is {nxt or 'none (the campaign is finished)'} (RB L961); end it with "
                       "`drunagor adventure end`", "warning")
    if state.heroes > story.rules.max_heroes:
        yield _problem(f, ("heroes",), "adventure",
                       f"{state.heroes} heroes, but the campaign plays with at most {story.rules.max_heroes} "
                       "(rules.max_heroes, RB L941-943)")
    active = len(c.active_heroes())
    if active and active < state.heroes <= story.rules.max_heroes:
        yield _problem(f, ("heroes",), "adventure",
                       f"{state.heroes} heroes at the table, but the party has {active} active on the Story Record: "
                       "the raid party, the Tie Breaker and the cubes count the heroes at the table (RB L305-308, "
                       "L1100); end the adventure and start it with --heroes at most "
                       f"{active}, or add the missing hero (drunagor hero add)")
    info = catalog.chapter(state.chapter)
    if info.raid is not None and state.raid is None:
        yield _problem(f, ("chapter",), "adventure",
                       f"chapter {state.chapter} has the {info.raid.card} card ({info.raid.source}), but "
                       "adventure.toml has no `raid`", "warning")
    if state.raid is not None and state.raid.model_limit is not None:
        for minion in state.raid.minions:
            shared = [k for k in kin(minion) if any(m.is_named(k) for m in state.monsters)]  # RB L1199
            out = models_on_board(state.monsters, minion, shared)
            if out > state.raid.model_limit:
                yield _problem(f, ("monsters",), "adventure",
                               f"{out} {' and '.join([minion, *shared])} on the board, but the box holds "
                               f"{state.raid.model_limit} models "
                               "(RB L311); remove the extra ones (drunagor monster remove SLOT)")

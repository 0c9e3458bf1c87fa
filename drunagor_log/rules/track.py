"""The Adventure Track (RB L951-962, L1084) and the chapter briefings (RB L1058-1309), as pure
functions over plain values: no files, no terminal.

The track is filled strictly in order: "Every time you complete or skip one, fill in the appropriate
slot. By doing so, you'll always know that the next Adventure you must play is the next unfilled slot
on the Track" (RB L961). A failed attempt fills nothing: the slot stays open and the party plays the
chapter again. Skipped chapters give no rewards (RB L1084).

    move = plan(story.track, "03", "completed")
    if move.problem and not force: refuse(move.problem)   # only the next unfilled slot is legal
    if move.problem: record(correction(today, move))      # --force corrects history, in the file

    briefing(catalog.chapter("07"), heroes=3, trauma_limit=1)["camaraderie_followers"]  # 2
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..model import CHAPTERS
from ..text import plural
from ..values import record

FILLS = ("completed", "skipped")  # what a slot of the Adventure Track may hold (RB L961)
ACTIONS = ("completed", "skipped", "failed")  # what `drunagor chapter` records
HEROES = range(1, 6)  # 4 heroes, 5 with extra-hero content (RB L941-943)


def next_open(track: Mapping[str, str]) -> str | None:
    """The next unfilled slot (RB L961): the chapter the party must play next; None when 09 is filled."""
    return next((ch for ch in CHAPTERS if ch not in track), None)


def is_finished(track: Mapping[str, str]) -> bool:
    """The campaign ends when its last slot (chapter 09) is filled."""
    return CHAPTERS[-1] in track



@record
class Move:
    """One `drunagor chapter complete|skip|fail` as the rules see it, before it is recorded."""

    chapter: str
    action: str  # "completed", "skipped" or "failed"
    before: str | None  # what the slot held: "completed", "skipped", or None (open)
    next_open: str | None  # the next unfilled slot before the move
    problem: str | None  # why the rules refuse it as it stands (legal only with --force); None: legal

    @property
    def changes(self) -> bool:
        """False when the slot already holds what the move would write (nothing to do)."""
        return self.action == "failed" or self.before != self.action

    @property
    def fills(self) -> bool:
        return self.action in FILLS


def plan(track: Mapping[str, str], chapter: str, action: str) -> Move:
    """Judge filling `chapter` with `action` ("failed" records an attempt and leaves the slot open).

    Legal as it stands only for the next unfilled slot (RB L961); anything else is a correction of
    history, which needs --force and is recorded.
    """
    if action not in ACTIONS:
        raise ValueError(f"action must be one of {', '.join(ACTIONS)}, not {action!r}")
    if chapter not in CHAPTERS:
        raise ValueError(f"no chapter {chapter!r}")
    before = track.get(chapter)
    nxt = next_open(track)
    problem = None
    finished = " and the campaign is finished" if nxt is None else ""
    if before is not None:
        if action == "failed":
            problem = (f"chapter {chapter} is already {before} on the Adventure Track{finished}; a failed "
                       "attempt is recorded for the next unfilled slot")
        else:
            problem = f"chapter {chapter} is already {before} on the Adventure Track{finished}"
    elif chapter != nxt:
        problem = (f"chapter {chapter} is not the next unfilled slot of the Adventure Track: chapter {nxt} "
                   "is, and the track is filled in order")
    return Move(chapter, action, before, nxt, problem)


def correction(date: str, move: Move) -> str:
    """The line `--force` writes to story.toml `corrections`, e.g.
    "2026-11-29: chapter 03 set to skipped with --force (was completed)"."""
    if move.before is not None:
        was = f"was {move.before}"
    else:
        was = f"was open; chapter {move.next_open} was the next unfilled slot"
    if move.action == "failed":
        return f"{date}: chapter {move.chapter} failed attempt recorded with --force ({was})"
    return f"{date}: chapter {move.chapter} set to {move.action} with --force ({was})"


_CORRECTED = re.compile(r"\bchapter ([0-9][0-9])\b")


def corrected_chapters(corrections: Iterable[str]) -> set[str]:
    """The chapters a `corrections` line names ("... chapter 05 ...")."""
    found: set[str] = set()
    for line in corrections:
        found.update(_CORRECTED.findall(line))
    return found


def unexplained_gaps(track: Mapping[str, str], corrections: Iterable[str] = ()) -> list[tuple[str, str]]:
    """(chapter, first open slot before it) for each filled slot that comes after an open one and
    whose filling no `corrections` line records: the track is filled in order (RB L961)."""
    first_open = next_open(track)
    if first_open is None:
        return []
    explained = corrected_chapters(corrections)
    return [(ch, first_open) for ch in CHAPTERS
            if ch > first_open and ch in track and ch not in explained]


# ------------------------------------------------------------------------------ chapter briefing


def _check_heroes(heroes: int) -> None:
    if isinstance(heroes, bool) or not isinstance(heroes, int) or heroes not in HEROES:
        raise ValueError(f"a party has 1 to 5 heroes, got {heroes!r}")


def tie_breaker_runes(heroes: int) -> int:
    """Runes a Tie Breaker returns from a Pile to the bag: 6 minus the number of heroes (RB L1100)."""
    _check_heroes(heroes)
    return 6 - heroes


def camaraderie_followers(heroes: int) -> int:
    """Followers recruited in chapter 07: 5 minus the number of heroes (RB L1247)."""
    _check_heroes(heroes)
    return 5 - heroes


def boss_health(health_per_hero: int, heroes: int) -> int:
    """The boss's starting Health: so much per hero (the Awakened King: 40, RB L1299)."""
    _check_heroes(heroes)
    return health_per_hero * heroes


def raid_party(heroes: int) -> int:
    """Minions a Dreadful Raid summons: 1 for 1-2 heroes, 2 for 3-4, 3 for 5 (RB L305-308)."""
    _check_heroes(heroes)
    return (heroes + 1) // 2


def briefing(chapter: Any, heroes: int, trauma_limit: int) -> dict[str, Any]:
    """A chapter's numbers with the party's filled in, as plain values (`chapter show --json`, SPEC 8).

    `chapter` is a catalog Chapter. A value that does not apply to the chapter is None. Keys beyond
    the contract: mechanic, darkness_nodes, raid_party, camaraderie_from, boss, fails_on_last_rune, refs.
    """
    _check_heroes(heroes)
    raid = chapter.raid
    boss = chapter.boss
    return {
        "chapter": chapter.id,
        "title": chapter.title,
        "heroes": heroes,
        "stirring_darkness": chapter.stirring_darkness,
        "recall_penalty": chapter.recall_penalty,
        "raid": None if raid is None else {
            "card": raid.card,
            "summons": [{"minion": s.minion, "models": s.models, "kind": s.kind} for s in raid.summons],
        },
        "tie_breaker_runes": tie_breaker_runes(heroes) if chapter.tie_breaker else None,
        "camaraderie_followers": camaraderie_followers(heroes) if chapter.camaraderie else None,
        "boss_health": boss_health(boss.health_per_hero, heroes) if boss is not None else None,
        "trauma_limit": trauma_limit,
        "mechanic": chapter.mechanic,
        "darkness_nodes": chapter.darkness_nodes,
        # The raid-party sizes of RB L305-308 are those of the Dreadful Raid card; the Naval Raid card
        # (chapter 04) is not transcribed, so no size is given for it.
        "raid_party": raid_party(heroes) if raid is not None and raid.card == "Dreadful Raid" else None,
        "camaraderie_from": list(chapter.camaraderie) or None,
        "boss": boss.name if boss is not None else None,
        "fails_on_last_rune": chapter.fails_on_last_rune,
        "refs": dict(chapter.refs),
    }


# ------------------------------------------------------------------------- the briefing as text
# (the checklist lines: rules/checklist.py)


def track_line(state: str | None, failures: int, is_next: bool, first_open: str | None) -> str:
    """The chapter's slot on the Adventure Track, for `chapter show`."""
    tries = f"; {plural(failures, 'failed attempt')}" if failures else ""
    if state:
        return f"Adventure Track: {state}{tries}"
    if is_next:
        return f"Adventure Track: the next unfilled slot{tries}"
    return f"Adventure Track: open; chapter {first_open} is the next unfilled slot{tries}"

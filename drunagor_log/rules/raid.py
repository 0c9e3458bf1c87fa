"""The Dreadful Raid (RB L267-317; SPEC 5.5), as pure functions over plain values.

The random draw is kept apart from the resolution, so the table can replay or enter a physical draw:

    reason = no_summon_reason(face, monsters_on_board=n, piles=piles)
    rune = manifest(bag, random.Random(seed)) if reason is None else None
    result = resolve_raid(face=face, heroes=4, minion="Gremlin Horde", piles=piles, rune=rune, board=board)

`resolve_raid` works on a tracked board (`board=` a sequence of `Monster`) or, when the party does not
track the board, on counts (`monsters_on_board=`, `minion_models_on_board=`); then `summoned` is empty and
`activations` holds None for each failed summon.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from drunagor_log.model.adventure import (
    MINION_MODELS,
    STATUS_BOARD_TRACKS,
    AdventureState,
    Monster,
    Pile,
    canonical_rank,
    check_board,
    slot_label,
)
from drunagor_log.rules.board import Placed, all_models_on_board, models_on_board, next_free_slot, strongest_non_boss
from drunagor_log.text import a, plural
from drunagor_log.values import record

TYPE_CHECKING = False  # the typing module is not needed at run time
if TYPE_CHECKING:
    import random

FACES = ("A", "B")


def canonical_face(face: str) -> str:
    """'a' -> 'A'; ValueError unless A or B."""
    normal = str(face).strip().upper()
    if normal not in FACES:
        raise ValueError(f"the Dreadful Raid card face is A or B, got {face!r}")
    return normal


def flip(face: str) -> str:
    """RB L286: the card flips every time, "No face ever stays the same for two rounds in a row"."""
    return "B" if canonical_face(face) == "A" else "A"


def raid_party_size(heroes: int) -> int:
    """RB L306-308: 1 minion for 1-2 heroes, 2 for 3-4, 3 for 5."""
    if isinstance(heroes, bool) or not isinstance(heroes, int) or not 1 <= heroes <= 5:
        raise ValueError(f"a party has 1 to 5 heroes, got {heroes!r}")
    return (heroes + 1) // 2


def no_summon_reason(face: str, *, monsters_on_board: int | bool, piles: Sequence[Pile],
                     runes_in_bag: int | None = None) -> str | None:
    """Why the raid summons nothing whatever rune would be drawn, or None when a rune must be manifested.

    Decide this before drawing: no rune is drawn when it cannot matter. `runes_in_bag` 0: no rune can be
    manifested (chapter 08 plays on with an empty bag, RB L1275); None when not known.
    """
    if canonical_face(face) == "A" and monsters_on_board:
        # RB L284: face A "will only attempt to summon Minions if the board is non-threatening".
        return "face A summons only when no monster is on the board"
    if not piles:
        # RB L297: "if all Piles of Runes have already been removed from the board ... no Minions".
        return "no Pile of Runes is on the board"
    if runes_in_bag == 0:
        # RB L292: to MANIFEST a Rune "a player must take a Rune from the bag": there is none.
        return EMPTY_BAG
    return None


EMPTY_BAG = "the rune bag is empty: no rune can be manifested"


def no_room_reason(board: Sequence[Monster], minion: str, models_limit: int) -> str | None:
    """Why no minion of a raid party could be placed on this board (all its models out, or all 12
    Health Tracks taken: RB L311), else None."""
    models = models_on_board(board, minion)
    free = next_free_slot(board) is not None
    if models < models_limit and free:
        return None
    return f"every minion would fail to be summoned: {_failure_cause(models, models_limit, free, minion)}"


def manifest(bag: Mapping[str, int], rng: random.Random) -> str:
    """MANIFEST a rune (RB L292): draw one at random, note its colour, return it. The bag is unchanged.

    Every rune in the bag is equally likely. Colours are taken in sorted order so that the same seed
    gives the same draw whatever order the bag was written in.
    """
    counts = bag_counts(bag)
    total = sum(counts.values())
    if total == 0:
        raise ValueError("the rune bag is empty: there is no rune to manifest")
    pick = rng.randrange(total)
    for colour in sorted(counts):
        if pick < counts[colour]:
            return colour
        pick -= counts[colour]
    raise AssertionError("unreachable: pick is below the bag total")  # pragma: no cover


def bag_counts(bag: Mapping[str, int]) -> dict[str, int]:
    """Rune counts per lower-case colour; ValueError for a negative or non-integer count."""
    counts: dict[str, int] = {}
    for colour, count in bag.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"rune bag: count for {colour!r} must be a whole number >= 0, got {count!r}")
        key = colour.strip().casefold()
        counts[key] = counts.get(key, 0) + count
    return counts


@record
class RaidShare:
    """The runes of the bag that make the next raid try and summon, out of all of them (RB L292-297, L311):
    the counting under `odds` (rules/odds.py makes the exact fractions of it) and under the chance a raid
    keeps in the adventure's log (`chance_text`), so both say the same."""

    summons: int  # runes whose colour makes the raid place a minion (0 when it cannot)
    tries: int  # runes whose colour a Pile holds, when the face lets the raid try
    total: int  # runes in the bag
    counts: dict[str, int]  # runes of each colour in the bag
    matching: tuple[str, ...]  # colours held by some pile and left in the bag, sorted
    reason: str | None  # why it cannot summon whatever is drawn, else None


def raid_share(*, face: str, monsters_on_board: int | bool, piles: Sequence[Pile], bag: Mapping[str, int],
               no_room: str | None = None) -> RaidShare:
    """Every rune in the bag is equally likely (RB L292): the raid tries when its colour is held by a Pile
    and the face allows it (RB L284-297); it summons when, besides, a minion can be placed (`no_room`, RB L311)."""
    counts = bag_counts(bag)
    total = sum(counts.values())
    held = frozenset().union(*(pile.colours() for pile in piles)) if piles else frozenset()
    matching = tuple(sorted(colour for colour in held if counts.get(colour, 0) > 0))
    reason = no_summon_reason(face, monsters_on_board=monsters_on_board, piles=piles)
    if reason is None and total == 0:
        reason = "the rune bag is empty"
    if reason is None and not matching:
        reason = "no Pile of Runes holds a colour that is left in the bag"
    tries = 0 if reason is not None else sum(counts[colour] for colour in matching)
    if reason is None and no_room is not None:
        reason = no_room
    return RaidShare(summons=0 if no_room is not None else tries, tries=tries, total=total, counts=counts,
                     matching=matching, reason=reason)


def next_raid(state: AdventureState) -> dict[str, Any]:
    """What the next Dreadful Raid of the adventure under way resolves against, as `raid_share` and
    `rules.odds.summon_odds` take it (its card is the chapter's Dreadful Raid: state.raid)."""
    assert state.raid is not None
    return {"face": state.raid.face, "monsters_on_board": len(state.monsters), "piles": state.piles,
            "bag": state.bag, "no_room": no_room_reason(state.monsters, state.raid.minions[0],
                                                       state.raid.model_limit or 12)}


def chance_text(part: int, whole: int) -> str:
    """`part` out of `whole` as the reduced fraction `odds --json` writes: "7/12", "0/1", "1/1"."""
    if part == 0 or whole == 0:
        return "0/1"
    from math import gcd

    common = gcd(part, whole)
    return f"{part // common}/{whole // common}"


@record
class RaidStep:
    """One of the four numbered steps, with the fact that decided it."""

    number: int
    title: str
    fact: str
    rule: str  # rulebook lines, e.g. "RB L284-285"


Summoned = Placed  # the board's value type: a name and a status-board slot


@record
class RaidResult:
    """Everything one Dreadful Raid decided. Build it with `resolve_raid`."""

    face: str  # before the flip
    next_face: str
    rune: str | None  # None when no rune was manifested
    matching_piles: tuple[str, ...]  # ids of the piles holding the rune; several: the Party Leader picks
    heroes: int
    party_size: int  # minions in the raid party for this many heroes (RB L306-308)
    placed: int
    failed: int
    activations: tuple[str | None, ...]  # per failed summon; None when untracked or nothing to activate
    activation_slots: tuple[int | None, ...]  # slot of each activated monster, same order
    summoned: tuple[Summoned, ...]  # only when the board is tracked
    reason: str | None  # why nothing was summoned, else None
    steps: tuple[RaidStep, ...]
    minion: str
    board: tuple[Monster, ...] | None  # the board after the raid, None when untracked

    def as_json(self, seed: int | None = None) -> dict[str, object]:
        """The SPEC 8 `raid --json` object (the seed is the caller's)."""
        return {
            "face": self.face,
            "next_face": self.next_face,
            "rune": self.rune,
            "seed": seed,
            "matching_piles": list(self.matching_piles),
            "party_size": self.party_size,
            "placed": self.placed,
            "failed": self.failed,
            "activations": list(self.activations),
            # Beside the names (SPEC 8): two monsters of one name are told apart by their slot only.
            "activation_slots": list(self.activation_slots),
            "summoned": [s.as_dict() for s in self.summoned],
            "reason": self.reason,
            "heroes": self.heroes,
            "minion": self.minion,
        }


@record
class RaidTable:
    """What a raid resolves against: the card's face, the party, the Piles of Runes and the board
    (tracked: `board`; untracked: the counts). Checked by `raid_table`."""

    face: str
    heroes: int
    minion: str
    piles: tuple[Pile, ...]
    board: tuple[Monster, ...] | None  # None when the party does not track the board
    on_board: int  # monsters holding a status-board track (tracked: counted from the board)
    minion_models: int  # untracked: models of the minion on the board
    models_limit: int
    minion_rank: str


@record
class Summons:
    """Step 3's outcome: how many minions were placed, which failed and what each failure activates."""

    placed: int
    failed: int
    activations: tuple[str | None, ...]
    activation_slots: tuple[int | None, ...]
    summoned: tuple[Summoned, ...]
    board: tuple[Monster, ...] | None
    fact: str
    cause: str  # why minions failed to be summoned ("" when none failed)


def _failure_cause(models: int, models_limit: int, tracks_free: bool, minion: str) -> str:
    causes = []
    if models >= models_limit:
        causes.append(all_models_on_board(models_limit, minion))
    if not tracks_free:
        causes.append(f"all {STATUS_BOARD_TRACKS} status-board tracks are taken")
    return " and ".join(causes)


def raid_table(*, face: str, heroes: int, minion: str, piles: Sequence[Pile], board: Sequence[Monster] | None = None,
               monsters_on_board: int = 0, minion_models_on_board: int = 0, models_limit: int = MINION_MODELS,
               minion_rank: str = "Minion") -> RaidTable:
    """The table a raid resolves against, checked (ValueError for an impossible one)."""
    face = canonical_face(face)
    raid_party_size(heroes)
    if not minion or not minion.strip():
        raise ValueError("the raid needs the name of its minion")
    if isinstance(models_limit, bool) or not isinstance(models_limit, int) or models_limit < 1:
        raise ValueError(f"models limit must be at least 1, got {models_limit!r}")
    if board is not None:
        monsters: tuple[Monster, ...] | None = check_board(board)
        on_board = len(board)
    else:
        if monsters_on_board < 0 or minion_models_on_board < 0:
            raise ValueError("monster counts cannot be negative")
        monsters, on_board = None, monsters_on_board
    return RaidTable(face=face, heroes=heroes, minion=minion, piles=tuple(piles), board=monsters,
                     on_board=on_board, minion_models=minion_models_on_board, models_limit=models_limit,
                     minion_rank=canonical_rank(minion_rank))


def resolve_raid(
    *,
    face: str,
    heroes: int,
    minion: str,
    piles: Sequence[Pile],
    rune: str | None,
    board: Sequence[Monster] | None = None,
    monsters_on_board: int = 0,
    minion_models_on_board: int = 0,
    models_limit: int = MINION_MODELS,
    minion_rank: str = "Minion",
    runes_in_bag: int | None = None,
) -> RaidResult:
    """Resolve one Dreadful Raid activation, steps 1-4 of RB L277-286 (SPEC 5.5).

    `rune` is the manifested colour; it is required when `no_summon_reason` is None and ignored (the
    result's `rune` is None) otherwise. With `board` given, `monsters_on_board` and
    `minion_models_on_board` are ignored and counted from the board. `minion_rank` is the rank the
    summoned monsters take: "Minion" for a Minion card, "Scenario" for a Scenario Monster card that a
    raid summons (the Nightmare of chapter 02, RB L1102; the Fell Woodman of chapter 08, RB L1271).
    `runes_in_bag` 0: nothing is summoned, and the card flips all the same (RB L286).
    """
    table = raid_table(face=face, heroes=heroes, minion=minion, piles=piles, board=board,
                       monsters_on_board=monsters_on_board, minion_models_on_board=minion_models_on_board,
                       models_limit=models_limit, minion_rank=minion_rank)
    steps = [check_face(table)]
    reason = no_summon_reason(table.face, monsters_on_board=table.on_board, piles=table.piles,
                              runes_in_bag=runes_in_bag)
    if reason is not None:
        steps.append(skip_manifest(table))
        return _nothing_summoned(table, steps, None, reason)
    if rune is None or not str(rune).strip():
        raise ValueError("a rune must be manifested for this raid (face and Piles of Runes allow a summon)")
    rune = str(rune).strip().casefold()
    matching = tuple(pile.id for pile in table.piles if pile.holds(rune))
    steps.append(manifest_step(rune, matching))
    if not matching:
        return _nothing_summoned(table, steps, rune, f"no Pile of Runes holds {a(rune)} rune: a breathing space")
    summons = summon_tracked(table) if table.board is not None else summon_untracked(table)
    steps += [RaidStep(3, "Summon a Raid Party of Minions", summons.fact, "RB L305-315"), flip_step(table.face)]
    reason = f"every minion failed to be summoned: {summons.cause}" if summons.placed == 0 else None
    return RaidResult(
        face=table.face, next_face=flip(table.face), rune=rune, matching_piles=matching, heroes=table.heroes,
        party_size=raid_party_size(table.heroes), placed=summons.placed, failed=summons.failed,
        activations=summons.activations, activation_slots=summons.activation_slots, summoned=summons.summoned,
        reason=reason, steps=tuple(steps), minion=table.minion, board=summons.board,
    )


def check_face(table: RaidTable) -> RaidStep:
    """Step 1 (RB L284-285): face A tries to summon only on an empty board; face B always tries."""
    title = "Check the face of the Dreadful Raid card"
    n = table.on_board
    if table.face == "A" and n:
        return RaidStep(1, title, f"Face A and {plural(n, 'monster')} on the board: face A summons only when the "
                        "board is empty.", "RB L284")
    if table.face == "A":
        return RaidStep(1, title, "Face A and no monster on the board: face A tries to summon.", "RB L284")
    return RaidStep(1, title, f"Face B: it tries to summon, whatever is on the board ({plural(n, 'monster')} now).",
                    "RB L285")


def skip_manifest(table: RaidTable) -> RaidStep:
    """Step 2 when no rune can matter: face A on a board with monsters (RB L288), no Pile of Runes on the
    board, whatever the face (RB L297), or no rune in the bag (RB L292)."""
    if table.face == "A" and table.on_board:
        return RaidStep(2, "Manifest a Rune", "Skipped: no rune is manifested.", "RB L288")
    if not table.piles:
        return RaidStep(2, "Manifest a Rune", "No Pile of Runes on the board: no minion can be summoned, whatever "
                        "the face; no rune is manifested.", "RB L297")
    return RaidStep(2, "Manifest a Rune", "The rune bag is empty: no rune can be manifested, so no minion is "
                    "summoned.", "RB L292")


def manifest_step(rune: str, matching: Sequence[str]) -> RaidStep:
    """Step 2 (RB L292-296): the manifested rune goes back to the bag; the Piles holding its colour are the
    spawn points (several: the Party Leader picks, RB L295; none: a breathing space, RB L296)."""
    if not matching:
        return RaidStep(2, "Manifest a Rune", f"Manifested {rune} (back in the bag); no Pile of Runes holds {rune}: "
                        "a breathing space, nothing is summoned.", "RB L296")
    if len(matching) == 1:
        return RaidStep(2, "Manifest a Rune", f"Manifested {rune} (back in the bag); Pile {matching[0]} holds "
                        f"{rune}: the minions spawn adjacent to it.", "RB L292-294")
    return RaidStep(2, "Manifest a Rune", f"Manifested {rune} (back in the bag); Piles {', '.join(matching)} hold "
                    f"{rune}: the Party Leader picks the spawn point.", "RB L295")


def flip_step(face: str) -> RaidStep:
    """Step 4 (RB L286): the card flips every time it is activated."""
    return RaidStep(4, "Flip the card", f"Face {face} -> face {flip(face)}, even when nothing is summoned.", "RB L286")


def _nothing_summoned(table: RaidTable, steps: list[RaidStep], rune: str | None, why: str) -> RaidResult:
    """Steps 3 and 4 when no minion can come: skip the summon, flip the card (RB L286)."""
    steps = steps + [RaidStep(3, "Summon a Raid Party of Minions", "Skipped: nothing is summoned.", "RB L301"),
                     flip_step(table.face)]
    return RaidResult(
        face=table.face, next_face=flip(table.face), rune=rune, matching_piles=(), heroes=table.heroes,
        party_size=raid_party_size(table.heroes), placed=0, failed=0, activations=(), activation_slots=(),
        summoned=(), reason=why, steps=tuple(steps), minion=table.minion, board=table.board,
    )


def summon_tracked(table: RaidTable) -> Summons:
    """Step 3 on a tracked board (RB L305-315): each minion of the raid party takes the next free slot;
    one that cannot (all its models out, or all 12 tracks taken, RB L311) fails to be summoned and
    activates the strongest non-boss monster, the minions just placed included (RB L312-313)."""
    party_size = raid_party_size(table.heroes)
    after = list(table.board or ())
    summoned: list[Summoned] = []
    cause, failed = "", 0
    for _ in range(party_size):
        models = models_on_board(after, table.minion)
        slot = next_free_slot(after)
        if models >= table.models_limit or slot is None:
            failed += 1
            cause = _failure_cause(models, table.models_limit, slot is not None, table.minion)
            continue
        after.append(Monster(name=table.minion, rank=table.minion_rank, slot=slot))
        summoned.append(Summoned(table.minion, slot))
    target = strongest_non_boss(after)
    parts = [f"{plural(table.heroes, 'hero', 'heroes')}: a raid party of {plural(party_size, 'minion')} "
             f"({table.minion})."]
    if summoned:
        parts.append("Placed in " + ", ".join(slot_label(s.slot) for s in summoned) + ".")
    if failed:
        who = f"activate {target.label()}" if target else "no non-boss monster on the board to activate"
        parts.append(f"{plural(failed, 'minion')} failed to be summoned ({cause}): "
                     f"{who}{' for each' if failed > 1 and target else ''}.")
    return Summons(placed=len(summoned), failed=failed, activations=(target.name if target else None,) * failed,
                   activation_slots=(target.slot if target else None,) * failed, summoned=tuple(summoned),
                   board=tuple(after), fact=" ".join(parts), cause=cause)


def summon_untracked(table: RaidTable) -> Summons:
    """Step 3 from counts (the board is not tracked): as many minions as tracks and models allow; the
    party activates the strongest non-boss monster for each failure itself."""
    party_size = raid_party_size(table.heroes)
    tracks_free = max(0, STATUS_BOARD_TRACKS - table.on_board)
    models_free = max(0, table.models_limit - table.minion_models)
    placed = min(party_size, tracks_free, models_free)
    failed = party_size - placed
    cause = _failure_cause(table.minion_models + placed, table.models_limit, tracks_free - placed > 0,
                           table.minion) if failed else ""
    parts = [f"{plural(table.heroes, 'hero', 'heroes')}: a raid party of {plural(party_size, 'minion')} "
             f"({table.minion})."]
    if placed:
        parts.append(f"Place {plural(placed, 'minion')} ({'each ' if placed > 1 else ''}on the next free "
                     "status-board base).")
    if failed:
        parts.append(f"{plural(failed, 'minion')} failed to be summoned ({cause}): for each, activate "
                     "the non-boss monster of highest rank, ties to the higher status-board slot.")
    return Summons(placed=placed, failed=failed, activations=(None,) * failed, activation_slots=(None,) * failed,
                   summoned=(), board=None, fact=" ".join(parts), cause=cause)

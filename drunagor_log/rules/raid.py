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

from drunagor_log.rules.board import (
    MINION_MODELS,
    STATUS_BOARD_TRACKS,
    Monster,
    Placed,
    Pile,
    Value,
    canonical_rank,
    check_board,
    models_on_board,
    next_free_slot,
    slot_label,
    strongest_non_boss,
)

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


def no_summon_reason(face: str, *, monsters_on_board: int | bool, piles: Sequence[Pile]) -> str | None:
    """Why the raid summons nothing whatever rune would be drawn, or None when a rune must be manifested.

    Decide this before drawing: no rune is drawn when it cannot matter.
    """
    if canonical_face(face) == "A" and monsters_on_board:
        # RB L284: face A "will only attempt to summon Minions if the board is non-threatening".
        return "face A summons only when no monster is on the board"
    if not piles:
        # RB L297: "if all Piles of Runes have already been removed from the board ... no Minions".
        return "no Pile of Runes is on the board"
    return None


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


class RaidStep(Value):
    """One of the four numbered steps, with the fact that decided it."""

    __slots__ = ("number", "title", "fact", "rule")
    number: int
    title: str
    fact: str
    rule: str  # rulebook lines, e.g. "RB L284-285"

    def __init__(self, number: int, title: str, fact: str, rule: str) -> None:
        self._set(number=number, title=title, fact=fact, rule=rule)


Summoned = Placed  # the board's value type: a name and a status-board slot


class RaidResult(Value):
    """Everything one Dreadful Raid decided. Build it with `resolve_raid`."""

    __slots__ = ("face", "next_face", "rune", "matching_piles", "heroes", "party_size", "placed", "failed",
                 "activations", "activation_slots", "summoned", "reason", "steps", "minion", "board")
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

    def __init__(self, **fields: object) -> None:
        missing = set(self.__slots__) - set(fields)
        unknown = set(fields) - set(self.__slots__)
        if missing or unknown:
            raise TypeError(f"RaidResult: missing {sorted(missing)}, unknown {sorted(unknown)}")
        self._set(**fields)

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


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else (plural or word + 's')}"


def _failure_cause(models: int, models_limit: int, tracks_free: bool, minion: str) -> str:
    causes = []
    if models >= models_limit:
        causes.append(f"all {models_limit} models of {minion} are on the board")
    if not tracks_free:
        causes.append(f"all {STATUS_BOARD_TRACKS} status-board tracks are taken")
    return " and ".join(causes)


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
) -> RaidResult:
    """Resolve one Dreadful Raid activation, steps 1-4 of RB L277-286 (SPEC 5.5).

    `rune` is the manifested colour; it is required when `no_summon_reason` is None and ignored (the
    result's `rune` is None) otherwise. With `board` given, `monsters_on_board` and
    `minion_models_on_board` are ignored and counted from the board. `minion_rank` is the rank the
    summoned monsters take: "Minion" for a Minion card, "Scenario" for a Scenario Monster card that a
    raid summons (the Nightmare of chapter 02, RB L1102; the Fell Woodman of chapter 08, RB L1271).
    """
    face = canonical_face(face)
    next_face = flip(face)
    party_size = raid_party_size(heroes)
    if not minion or not minion.strip():
        raise ValueError("the raid needs the name of its minion")
    if isinstance(models_limit, bool) or not isinstance(models_limit, int) or models_limit < 1:
        raise ValueError(f"models limit must be at least 1, got {models_limit!r}")
    minion_rank = canonical_rank(minion_rank)
    piles = tuple(piles)

    tracked = board is not None
    if tracked:
        monsters = check_board(board)
        on_board = len(monsters)
    else:
        monsters = ()
        if monsters_on_board < 0 or minion_models_on_board < 0:
            raise ValueError("monster counts cannot be negative")
        on_board = monsters_on_board

    steps: list[RaidStep] = []
    flip_step = RaidStep(
        4, "Flip the card", f"Face {face} -> face {next_face}, even when nothing is summoned.", "RB L286"
    )

    def nothing_summoned(rune_shown: str | None, why: str) -> RaidResult:
        """Steps 3 and 4 when no minion can come: skip the summon, flip the card (RB L286)."""
        steps.append(RaidStep(3, "Summon a Raid Party of Minions", "Skipped: nothing is summoned.", "RB L301"))
        steps.append(flip_step)
        return RaidResult(
            face=face, next_face=next_face, rune=rune_shown, matching_piles=(), heroes=heroes,
            party_size=party_size, placed=0, failed=0, activations=(), activation_slots=(), summoned=(),
            reason=why, steps=tuple(steps), minion=minion, board=monsters if tracked else None,
        )

    # Step 1: face check (RB L284-285).
    if face == "A" and on_board:
        steps.append(RaidStep(
            1, "Check the face of the Dreadful Raid card",
            f"Face A and {_plural(on_board, 'monster')} on the board: face A summons only when the board "
            "is empty.",
            "RB L284",
        ))
    elif face == "A":
        steps.append(RaidStep(
            1, "Check the face of the Dreadful Raid card",
            "Face A and no monster on the board: face A tries to summon.", "RB L284",
        ))
    else:
        steps.append(RaidStep(
            1, "Check the face of the Dreadful Raid card",
            f"Face B: it tries to summon, whatever is on the board ({_plural(on_board, 'monster')} now).",
            "RB L285",
        ))

    reason = no_summon_reason(face, monsters_on_board=on_board, piles=piles)
    if reason is not None:
        if face == "A" and on_board:
            steps.append(RaidStep(2, "Manifest a Rune", "Skipped: no rune is manifested.", "RB L288"))
        else:
            steps.append(RaidStep(
                2, "Manifest a Rune",
                "No Pile of Runes on the board: no minion can be summoned, whatever the face; no rune is "
                "manifested.",
                "RB L297",
            ))
        return nothing_summoned(None, reason)

    # Step 2: manifest a rune and look for it in the Piles of Runes (RB L292-297).
    if rune is None or not str(rune).strip():
        raise ValueError("a rune must be manifested for this raid (face and Piles of Runes allow a summon)")
    rune = str(rune).strip().casefold()
    matching = tuple(pile.id for pile in piles if pile.holds(rune))
    if not matching:
        reason = f"no Pile of Runes holds a {rune} rune: a breathing space"
        steps.append(RaidStep(
            2, "Manifest a Rune",
            f"Manifested {rune} (back in the bag); no Pile of Runes holds {rune}: a breathing space, "
            "nothing is summoned.",
            "RB L296",
        ))
        return nothing_summoned(rune, reason)
    if len(matching) == 1:
        fact = (f"Manifested {rune} (back in the bag); Pile {matching[0]} holds {rune}: the minions spawn "
                "adjacent to it.")
        rule = "RB L292-294"
    else:
        fact = (f"Manifested {rune} (back in the bag); Piles {', '.join(matching)} hold {rune}: the Party "
                "Leader picks the spawn point.")
        rule = "RB L295"
    steps.append(RaidStep(2, "Manifest a Rune", fact, rule))

    # Step 3: the raid party (RB L305-315).
    summoned: list[Summoned] = []
    activations: list[str | None] = []
    activation_slots: list[int | None] = []
    if tracked:
        after = list(monsters)
        cause = ""
        failed = 0
        for _ in range(party_size):
            models = models_on_board(after, minion)
            slot = next_free_slot(after)
            if models >= models_limit or slot is None:
                # RB L311: the minion "Failed to be Summoned".
                failed += 1
                cause = _failure_cause(models, models_limit, slot is not None, minion)
                continue
            after.append(Monster(name=minion, rank=minion_rank, slot=slot))
            summoned.append(Summoned(minion, slot))
        # RB L312-313: the minions placed this raid are on the board and count.
        target = strongest_non_boss(after)
        for _ in range(failed):
            activations.append(target.name if target else None)
            activation_slots.append(target.slot if target else None)
        placed = len(summoned)
        board_after: tuple[Monster, ...] | None = tuple(after)
        parts = [f"{_plural(heroes, 'hero', 'heroes')}: a raid party of {_plural(party_size, 'minion')} "
                 f"({minion})."]
        if summoned:
            parts.append("Placed in " + ", ".join(slot_label(s.slot) for s in summoned) + ".")
        if failed:
            who = f"activate {target.label()}" if target else "no non-boss monster on the board to activate"
            parts.append(f"{_plural(failed, 'minion')} failed to be summoned ({cause}): "
                         f"{who}{' for each' if failed > 1 and target else ''}.")
    else:
        tracks_free = max(0, STATUS_BOARD_TRACKS - on_board)
        models_free = max(0, models_limit - minion_models_on_board)
        placed = min(party_size, tracks_free, models_free)
        failed = party_size - placed
        activations = [None] * failed
        activation_slots = [None] * failed
        board_after = None
        cause = _failure_cause(
            minion_models_on_board + placed, models_limit, tracks_free - placed > 0, minion
        ) if failed else ""
        parts = [f"{_plural(heroes, 'hero', 'heroes')}: a raid party of {_plural(party_size, 'minion')} "
                 f"({minion})."]
        if placed:
            parts.append(f"Place {_plural(placed, 'minion')} ({'each ' if placed > 1 else ''}on the next free "
                         "status-board base).")
        if failed:
            parts.append(f"{_plural(failed, 'minion')} failed to be summoned ({cause}): for each, activate "
                         "the non-boss monster of highest rank, ties to the higher status-board slot.")
    steps.append(RaidStep(3, "Summon a Raid Party of Minions", " ".join(parts), "RB L305-315"))
    steps.append(flip_step)

    if placed == 0:
        reason = f"every minion failed to be summoned: {cause}"
    return RaidResult(
        face=face, next_face=next_face, rune=rune, matching_piles=matching, heroes=heroes,
        party_size=party_size, placed=placed, failed=failed, activations=tuple(activations),
        activation_slots=tuple(activation_slots), summoned=tuple(summoned), reason=reason,
        steps=tuple(steps), minion=minion, board=board_after,
    )

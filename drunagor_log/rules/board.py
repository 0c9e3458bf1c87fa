"""The Monster Status board's rules (RB L309-315): free slots, placing, the activation priority.

Pure functions: no files, no terminal. A board is any sequence of `Monster` values (model/adventure.py,
with the slots and ranks); the functions here never mutate it, they return new tuples.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..model.adventure import STATUS_BOARD_TRACKS, Monster, rank_index, status_board_order
from ..values import record


@record
class Placed:
    """A monster a raid or a battalion put on the board, with its status-board slot."""

    name: str
    slot: int

    def as_dict(self) -> dict[str, object]:
        return {"name": self.name, "slot": self.slot}


def taken_slots(board: Iterable[Monster]) -> frozenset[int]:
    return frozenset(monster.slot for monster in board if monster.slot is not None)


def free_slots(board: Iterable[Monster]) -> tuple[int, ...]:
    """Free status-board slots, highest (slot 1) first."""
    taken = taken_slots(board)
    return tuple(slot for slot in range(1, STATUS_BOARD_TRACKS + 1) if slot not in taken)


def next_free_slot(board: Iterable[Monster]) -> int | None:
    """The slot the next placed monster takes, or None when all 12 tracks are taken (RB L311)."""
    free = free_slots(board)
    return free[0] if free else None


def place(board: Sequence[Monster], name: str, rank: str) -> Monster | None:
    """The monster that would be placed in the next free slot, or None when the board is full.

    The board is not changed: append the returned monster yourself.
    """
    slot = next_free_slot(board)
    if slot is None:
        return None
    return Monster(name=name, rank=rank, slot=slot)


def models_on_board(board: Iterable[Monster], name: str, kin: Iterable[str] = ()) -> int:
    """How many models of this monster type are on the board: its own, and those of the `kin` played
    with the same miniatures (rules/miniatures.py: a Nagian Hunter is one of the Tidehunter's, RB L1199)."""
    names = [name, *kin]
    return sum(1 for monster in board if any(monster.is_named(n) for n in names))


def activation_priority(board: Iterable[Monster]) -> tuple[Monster, ...]:
    """Non-boss monsters, the one a failed summon activates first (RB L312-315).

    Highest rank first; within a rank, the higher status-board slot (lower number) first.
    """
    return tuple(
        sorted(
            (monster for monster in board if not monster.boss),
            key=lambda m: (rank_index(m.rank or ""), m.slot if m.slot is not None else STATUS_BOARD_TRACKS + 1),
        )
    )


def strongest_non_boss(board: Iterable[Monster]) -> Monster | None:
    """RB L312: "the Non-Boss Monster occupying the highest hierarchical position on the board", ties
    to the higher status-board slot. None when only bosses (or nothing) are on the board."""
    priority = activation_priority(board)
    return priority[0] if priority else None


def first_of_kind(board: Iterable[Monster], name: str) -> Monster | None:
    """RB L1237 (Siege of Everedge): the first monster of that kind in status-board order."""
    for monster in status_board_order(board):
        if monster.is_named(name):
            return monster
    return None


def all_models_on_board(limit: int | None, name: str) -> str:
    """'all 4 models of Tidehunter are on the board'; 'the one model of Coiled Harridan is on the board'."""
    if limit == 1:
        return f"the one model of {name} is on the board"
    return f"all {'' if limit is None else f'{limit} '}models of {name} are on the board"

"""The Monster Status board and the monsters on it (RB L309-315).

Pure values and functions: no files, no terminal. A board is any sequence of `Monster` values; the
functions here never mutate it, they return new tuples.

- The Monster Status board has 12 health tracks on two boards of six coloured bases. Slot 1 (yellow) is
  the highest, slot 12 (brown) the lowest (RB L315: "Yellow to Black from the first board, Orange to
  Brown from the second board, the first board is higher than the second board").
- A boss is on the board without a track: its `slot` is None and it never counts against the 12.
- Ranks, highest first (RB L314): Overlord, Commander, Black, Gray, White, Scenario, Minion.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from drunagor_log.values import record

#: Base colour of each status-board slot, slot 1 first (RB L315; board 2 partly community data).
SLOT_COLOURS: tuple[str, ...] = (
    "yellow", "dark blue", "pink", "green", "dark red", "black",  # board 1
    "orange", "gray", "light blue", "blue", "red", "brown",  # board 2
)
#: RB L311: "all 12 Health Tracks on the Monster Status board".
STATUS_BOARD_TRACKS = len(SLOT_COLOURS)
#: RB L311: "all 4 models of a Minion".
MINION_MODELS = 4
#: RB L314, highest first.
RANKS: tuple[str, ...] = ("Overlord", "Commander", "Black", "Gray", "White", "Scenario", "Minion")

_RANK_INDEX = {rank.casefold(): index for index, rank in enumerate(RANKS)}


def canonical_rank(rank: str) -> str:
    """The rank as the rulebook spells it ("gray" -> "Gray"); ValueError for an unknown rank."""
    try:
        return RANKS[_RANK_INDEX[rank.strip().casefold()]]
    except (KeyError, AttributeError):
        raise ValueError(f"unknown monster rank {rank!r}: expected one of {', '.join(RANKS)}") from None


def rank_index(rank: str) -> int:
    """0 for Overlord (highest) ... 6 for Minion (lowest)."""
    return RANKS.index(canonical_rank(rank))


def slot_colour(slot: int) -> str:
    """Base colour of a status-board slot (1-12)."""
    _check_slot(slot)
    return SLOT_COLOURS[slot - 1]


def slot_label(slot: int | None) -> str:
    """'slot 3 (pink)', or 'no slot' for a boss."""
    if slot is None:
        return "no slot"
    return f"slot {slot} ({slot_colour(slot)})"


def _check_slot(slot: int) -> None:
    if isinstance(slot, bool) or not isinstance(slot, int) or not 1 <= slot <= STATUS_BOARD_TRACKS:
        raise ValueError(f"status-board slot must be 1-{STATUS_BOARD_TRACKS}, got {slot!r}")


@record
class Placed:
    """A monster a raid or a battalion put on the board, with its status-board slot."""

    name: str
    slot: int

    def as_dict(self) -> dict[str, object]:
        return {"name": self.name, "slot": self.slot}


@record
class Monster:
    """One monster model on the board: a non-boss holds one status-board track (`slot`)."""

    name: str
    rank: str | None  # None only for a boss whose rank no source gives (a boss is never activated
    slot: int | None = None  # by a failed summon, RB L312, so its rank decides nothing)
    boss: bool = False

    def __post_init__(self) -> None:
        name, rank, slot, boss = self.name, self.rank, self.slot, self.boss
        if not isinstance(name, str) or not name.strip():
            raise ValueError("a monster needs a name")
        if slot is not None:
            _check_slot(slot)
        elif not boss:
            raise ValueError(f"{name}: a monster that is not a boss takes a status-board slot")
        if rank is None and not boss:
            raise ValueError(f"{name}: a monster that is not a boss needs a rank")
        object.__setattr__(self, "rank", None if rank is None else canonical_rank(rank))
        object.__setattr__(self, "boss", bool(boss))

    def is_named(self, name: str) -> bool:
        """Same monster type, case-insensitively."""
        return self.name.casefold() == name.strip().casefold()

    def label(self) -> str:
        """'Gremlin Horde in slot 3 (pink)' / 'Soul Harvester (boss)'."""
        if self.slot is None:
            return f"{self.name} (boss)"
        return f"{self.name} in {slot_label(self.slot)}"


@record
class Pile:
    """A Pile of Runes on the board: its id and how many runes of each colour it holds.

    Colours are kept lower case. RB L294: all the runes of a pile are on the board, not just the top one.
    """

    id: str
    runes: Mapping[str, int] = {}  # never shared: __post_init__ makes each Pile its own dict

    def __post_init__(self) -> None:
        counts: dict[str, int] = {}
        for colour, count in (self.runes or {}).items():
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise ValueError(f"Pile {self.id}: rune count for {colour!r} must be a whole number >= 0")
            key = colour.strip().casefold()
            counts[key] = counts.get(key, 0) + count
        object.__setattr__(self, "id", str(self.id))
        object.__setattr__(self, "runes", counts)

    def __hash__(self) -> int:
        return hash((self.id, tuple(sorted(self.runes.items()))))

    def holds(self, colour: str) -> bool:
        return self.runes.get(colour.strip().casefold(), 0) > 0

    def colours(self) -> frozenset[str]:
        return frozenset(colour for colour, count in self.runes.items() if count > 0)


def check_board(board: Iterable[Monster]) -> tuple[Monster, ...]:
    """The board as a tuple; ValueError if two monsters share a slot."""
    monsters = tuple(board)
    seen: dict[int, Monster] = {}
    for monster in monsters:
        if monster.slot is None:
            continue
        if monster.slot in seen:
            raise ValueError(
                f"{monster.name} and {seen[monster.slot].name} both hold {slot_label(monster.slot)}"
            )
        seen[monster.slot] = monster
    return monsters


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


def models_on_board(board: Iterable[Monster], name: str) -> int:
    """How many models of this monster type are on the board."""
    return sum(1 for monster in board if monster.is_named(name))


def status_board_order(board: Iterable[Monster]) -> tuple[Monster, ...]:
    """Monsters in status-board order (slot 1 first); bosses, which hold no slot, come last."""
    return tuple(sorted(board, key=lambda m: (m.slot is None, m.slot or 0)))


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

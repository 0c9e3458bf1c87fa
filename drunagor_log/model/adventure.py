"""The adventure under way as plain, immutable values: the state adventure.toml holds, its raid card,
the monsters on the Monster Status board and the Piles of Runes (RB L277-315). No files, no terminal.

The moves of the table over these values are rules (rules/adventure.py, rules/board.py); the file's
format is the store's (store/adventure.py).

- The Monster Status board has 12 health tracks on two boards of six coloured bases. Slot 1 (yellow) is
  the highest, slot 12 (brown) the lowest (RB L315: "Yellow to Black from the first board, Orange to
  Brown from the second board, the first board is higher than the second board").
- A boss is on the board without a track: its `slot` is None and it never counts against the 12.
- Ranks, highest first (RB L314): Overlord, Commander, Black, Gray, White, Scenario, Minion.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import Refused
from ..values import record, replace

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


def pile_key(typed: str) -> str:
    """The id of the Pile a player typed: "1", "pile-1" (what completion offers), "Pile 1" (what
    `adventure show` prints), "pile_1" and "pile#1" all name Pile 1; every command reads a Pile so."""
    text = str(typed).strip()
    return text[4:].lstrip(" -_#") if text.casefold().startswith("pile") else text


def pile_word(pile_id: str) -> str:
    """A Pile as completion offers it and every command takes it: one shell word, `pile-1`."""
    return f"pile-{pile_id}"


def slot_label(slot: int | None) -> str:
    """'slot 3 (pink)', or 'no slot' for a boss."""
    if slot is None:
        return "no slot"
    return f"slot {slot} ({slot_colour(slot)})"


def _check_slot(slot: int) -> None:
    if isinstance(slot, bool) or not isinstance(slot, int) or not 1 <= slot <= STATUS_BOARD_TRACKS:
        raise ValueError(f"status-board slot must be 1-{STATUS_BOARD_TRACKS}, got {slot!r}")


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


def status_board_order(board: Iterable[Monster]) -> tuple[Monster, ...]:
    """Monsters in status-board order (slot 1 first); bosses, which hold no slot, come last."""
    return tuple(sorted(board, key=lambda m: (m.slot is None, m.slot or 0)))



FACES = ("A", "B")
OUTCOMES = ("won", "lost")
#: Ranks a raid card's summons can take: a Minion card, or a Scenario Monster card (RB L1102, L1271).
RAID_RANKS = ("Minion", "Scenario")


@record
class RaidCard:
    """The chapter's raid card on the Initiative Track: its face, and what it summons.

    `minions` are the cards it summons (chapter 04's Naval Raid has two, RB L1171); `rank` is the
    rank they take on the board ("Minion", or "Scenario" for a Scenario Monster card); `model_limit`
    is how many models of each the box holds (4 for a Minion, RB L311; None when unknown).
    """

    card: str
    face: str
    minions: tuple[str, ...]
    rank: str = "Minion"
    model_limit: int | None = 4

    def __post_init__(self) -> None:
        object.__setattr__(self, "minions", tuple(self.minions))

    def flipped(self) -> RaidCard:
        """RB L286: "No face ever stays the same for two rounds in a row"."""
        return self.with_face("B" if self.face == "A" else "A")

    def with_face(self, face: str) -> RaidCard:
        return replace(self, face=face)


@record
class AdventureState:
    """Everything adventure.toml holds. Build it with `new_adventure` or the store's reader."""

    chapter: str  # "05"
    heroes: int  # heroes in this adventure (decides the raid party and the Tie Breaker)
    bag: Mapping[str, int]  # runes of each colour in the bag
    track: Mapping[str, int]  # runes of each colour on the Initiative Track
    raid: RaidCard | None = None  # None when the chapter has no raid card
    ranks: Mapping[str, str] = {}  # ranks the party gave for monsters the catalog does not know (copied)
    piles: tuple[Pile, ...] = ()  # the Piles of Runes on the board
    monsters: tuple[Monster, ...] = ()  # on the board, in status-board order (a boss holds no slot: last)
    log: tuple[dict[str, Any], ...] = ()  # every start, draw, pile, raid and summon, in order
    outcome: str | None = None  # "won" or "lost" once archived; None while under way
    cubes: Mapping[str, Mapping[str, int]] = {}  # hero -> {"trauma": n, "curse": n}; heroes with none left out
    counters: Mapping[str, Any] = {}  # the chapters' counters (rules/chapters.py), the round, the Rune card's face
    lost: str | None = None  # the losing condition met, in words with its rule line; None while it is not
    won: str | None = None  # the book's ending reached at the table (RB L1179, L1205, L1309), in words; None before
    events: tuple[dict[str, Any], ...] = ()  # the table events `adventure undo` takes back, newest last

    __hash__ = None  # type: ignore[assignment]  # holds dicts

    def __post_init__(self) -> None:
        colours = list(self.bag)
        colours += [c for c in self.track if c not in colours]
        normal = {
            "bag": {c: self.bag.get(c, 0) for c in colours}, "track": {c: self.track.get(c, 0) for c in colours},
            "ranks": dict(self.ranks or {}), "piles": tuple(self.piles),
            "monsters": status_board_order(check_board(self.monsters)), "log": tuple(dict(e) for e in self.log),
            "cubes": {hero: {"trauma": held.get("trauma", 0), "curse": held.get("curse", 0)}
                      for hero, held in self.cubes.items() if any(held.values())},
            "counters": dict(self.counters), "events": tuple(dict(e) for e in self.events),
        }
        for name, value in normal.items():
            object.__setattr__(self, name, value)

    def replace(self, **changes: Any) -> AdventureState:
        return replace(self, **changes)

    # -- reading
    @property
    def colours(self) -> tuple[str, ...]:
        return tuple(self.bag)

    def runes_in_bag(self) -> int:
        return sum(self.bag.values())

    def totals(self) -> dict[str, int]:
        """Runes of each colour in the bag, on the track and in the Piles: the whole rune set."""
        total = {c: self.bag[c] + self.track[c] for c in self.colours}
        for pile in self.piles:
            for colour, count in pile.runes.items():
                total[colour] = total.get(colour, 0) + count
        return total

    def pile(self, pile_id: str) -> Pile:
        wanted = pile_key(pile_id)
        for pile in self.piles:
            if pile.id == wanted:
                return pile
        known = ", ".join(p.id for p in self.piles) or "none"
        raise Refused(f"no Pile of Runes {pile_id!r} on the board (Piles: {known})", "pile",
                      "name a Pile by its id, as `drunagor adventure show` lists them")

    def rank_of(self, name: str) -> str | None:
        """The rank the party recorded for a monster, or the rank of one already on the board."""
        key = name.strip().casefold()
        for known, rank in self.ranks.items():
            if known.casefold() == key:
                return rank
        for monster in self.monsters:
            if monster.is_named(name) and monster.rank is not None:
                return monster.rank
        return None


#: What a table event may change, so `adventure undo` restores it (the log is cut back to its length).
UNDOABLE = ("bag", "track", "raid", "ranks", "piles", "monsters", "cubes", "counters", "lost", "won")

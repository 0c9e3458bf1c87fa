"""Monster Battalion summons (RB L1311-1325; SPEC 5.6), and the Siege of Everedge variant (RB L1237).

Pure functions over plain values. Placement NEAR the reference point is the Party Leader's choice at the
table (RB L1316-1318); the tool only counts what fits on the Monster Status board.

Decisions, written down here because the rulebook leaves them to the party:

- A monster is not placed when all 12 status-board tracks are taken (RB L1319), and also when all its
  models are on the board (a limit given per monster type; minions have 4 models, RB L311; other types
  are unlimited unless the caller knows their count). Either way it gives two "Activate a Monster"
  commands, as RB L1237 treats both limits alike.
- The proposed order alternates the two non-boss monsters of highest priority (rank, then status-board
  slot: the Dreadful Raid's "strongest monster", RB L312-315), so the strongest monster is activated as
  often as RB L1321 allows: "no Monster can be activated twice in a row using the same command trigger".
  The party may choose otherwise (RB L1320); bosses are left out of the proposal.
- All the commands of one battalion share one trigger. With a single non-boss monster on the board it is
  activated once; every further command would activate it twice in a row, so those commands are unused
  (`unused`). With no non-boss monster, every command is unused.
- Siege (chapter 07, RB L1237): each monster not spawned gives one activation, of the first monster of
  its own kind in status-board order; none of its kind on the board: that command is unused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from drunagor_log.model.adventure import MINION_MODELS, STATUS_BOARD_TRACKS, Monster, canonical_rank, check_board
from drunagor_log.rules.board import Placed, activation_priority, first_of_kind, models_on_board, next_free_slot
from drunagor_log.values import record

#: RB L1319: "you must issue two 'Activate a Monster' commands" per monster not summoned.
COMMANDS_PER_MONSTER = 2


Placement = Placed  # the board's value type: a name and a status-board slot


@record
class SiegeActivation:
    """RB L1237: the monster that could not spawn, and the first monster of its kind it activates."""

    not_placed: str
    target: str | None
    slot: int | None


@record
class BattalionResult:
    """Everything one Monster Battalion summon decided. Build it with `resolve_battalion`."""

    placed: tuple[str, ...]  # names, in summoning order
    not_placed: tuple[str, ...]
    activations: int  # "Activate a Monster" commands issued (siege: one per monster not placed)
    order: tuple[str, ...]  # proposed activations, in order; empty when the board is not tracked
    order_slots: tuple[int | None, ...]  # slot of each monster in `order`
    placements: tuple[Placement, ...]  # placed monsters with their slots; empty when untracked
    unused: int  # commands that cannot activate anything (see the module notes); 0 when untracked
    siege: bool
    siege_targets: tuple[SiegeActivation, ...]  # siege only, one per monster not placed (tracked board)
    board: tuple[Monster, ...] | None  # the board after placing, None when untracked
    notes: tuple[str, ...]  # sentences a CLI can print under the result

    def as_json(self) -> dict[str, object]:
        """The SPEC 8 `battalion --json` object."""
        return {
            "placed": list(self.placed),
            "not_placed": list(self.not_placed),
            "activations": self.activations,
            "order": list(self.order),
            "placed_slots": [p.as_dict() for p in self.placements],
            "unused": self.unused,
            "siege": self.siege,
        }


def _lookup(mapping: Mapping[str, object] | None, name: str) -> object | None:
    if not mapping:
        return None
    key = name.strip().casefold()
    for k, v in mapping.items():
        if k.strip().casefold() == key:
            return v
    return None


def _rank_of(name: str, ranks: Mapping[str, str] | None, board: Sequence[Monster]) -> str:
    rank = _lookup(ranks, name)
    if rank is not None:
        return canonical_rank(str(rank))
    for monster in board:
        if monster.is_named(name) and monster.rank is not None:
            return monster.rank
    raise ValueError(f"the rank of {name!r} is unknown: give it (Overlord ... Minion) to track the board")


def _models_limit(name: str, rank: str | None, limits: Mapping[str, int] | None) -> int | None:
    limit = _lookup(limits, name)
    if limit is not None:
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError(f"models limit of {name!r} must be at least 1, got {limit!r}")
        return limit
    if rank == "Minion":
        return MINION_MODELS  # RB L311: 4 models of a Minion
    return None  # unknown: the catalog never guesses


def propose_order(board: Sequence[Monster], commands: int) -> tuple[tuple[Monster, ...], int]:
    """Activation order for `commands` "Activate a Monster" commands of one trigger, and how many are
    unused. Alternates the two highest-priority non-boss monsters; never the same monster twice in a
    row (RB L1321)."""
    if commands < 0:
        raise ValueError("commands cannot be negative")
    priority = activation_priority(board)
    if commands == 0 or not priority:
        return (), commands
    if len(priority) == 1:
        return (priority[0],), commands - 1
    first, second = priority[0], priority[1]
    return tuple(first if i % 2 == 0 else second for i in range(commands)), 0


def resolve_battalion(
    names: Sequence[str],
    *,
    board: Sequence[Monster] | None = None,
    ranks: Mapping[str, str] | None = None,
    models_limits: Mapping[str, int] | None = None,
    monsters_on_board: int = 0,
    models_on_board_count: Mapping[str, int] | None = None,
    siege: bool = False,
    kin: Mapping[str, Sequence[str]] | None = None,
) -> BattalionResult:
    """Summon a Monster Battalion: place what fits, in order, each in the next free status-board slot;
    the rest become "Activate a Monster" commands (two each; siege: one each, of its own kind).

    Tracked board: `board` (and `ranks` for names not already on it). Untracked: `monsters_on_board`
    (tracks taken) and, optionally, `models_on_board_count` per monster type; `order` is then empty.
    `models_limits` maps a monster type to its model count where known; minions default to 4; `kin`
    maps a type to the others played with its miniatures, whose models on the board count (RB L1199).
    """
    names = tuple(name.strip() for name in names)
    if any(not name for name in names):
        raise ValueError("a monster to summon needs a name")
    if board is not None:
        placed, not_placed, placements, board_after = place_tracked(names, board, ranks, models_limits, kin)
    else:
        placed, not_placed = place_untracked(names, monsters_on_board, ranks, models_limits, models_on_board_count)
        placements, board_after = (), None
    if siege:
        activations, order, unused, siege_targets, notes = siege_activations(not_placed, board_after)
    else:
        activations, order, unused, notes = command_activations(not_placed, board_after)
        siege_targets = ()
    return BattalionResult(
        placed=placed,
        not_placed=not_placed,
        activations=activations,
        order=tuple(m.name for m in order),
        order_slots=tuple(m.slot for m in order),
        placements=placements,
        unused=unused,
        siege=siege,
        siege_targets=siege_targets,
        board=board_after,
        notes=notes,
    )


def place_tracked(names: Sequence[str], board: Sequence[Monster], ranks: Mapping[str, str] | None,
                  limits: Mapping[str, int] | None, kin: Mapping[str, Sequence[str]] | None = None
                  ) -> tuple[tuple[str, ...], tuple[str, ...], tuple[Placement, ...], tuple[Monster, ...]]:
    """Place each monster in the next free slot, in order; one is not placed when all 12 tracks are
    taken (RB L1319) or all its models are out (RB L311). (placed, not placed, placements, board after)."""
    after = list(check_board(board))
    placed: list[str] = []
    not_placed: list[str] = []
    placements: list[Placement] = []
    for name in names:
        rank = _rank_of(name, ranks, after)
        limit = _models_limit(name, rank, limits)
        slot = next_free_slot(after)
        if slot is None or (limit is not None and models_on_board(after, name, (kin or {}).get(name, ())) >= limit):
            not_placed.append(name)
            continue
        after.append(Monster(name=name, rank=rank, slot=slot))
        placed.append(name)
        placements.append(Placement(name, slot))
    return tuple(placed), tuple(not_placed), tuple(placements), tuple(after)


def place_untracked(names: Sequence[str], monsters_on_board: int, ranks: Mapping[str, str] | None,
                    limits: Mapping[str, int] | None, models_count: Mapping[str, int] | None
                    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """As place_tracked, from counts: the tracks taken, and the models of each type on the board."""
    if monsters_on_board < 0:
        raise ValueError("monster counts cannot be negative")
    tracks_taken = min(monsters_on_board, STATUS_BOARD_TRACKS)
    models = {k.strip().casefold(): v for k, v in (models_count or {}).items()}
    placed: list[str] = []
    not_placed: list[str] = []
    for name in names:
        rank = _lookup(ranks, name)
        limit = _models_limit(name, canonical_rank(str(rank)) if rank is not None else None, limits)
        key = name.casefold()
        if tracks_taken >= STATUS_BOARD_TRACKS or (limit is not None and models.get(key, 0) >= limit):
            not_placed.append(name)
            continue
        tracks_taken += 1
        models[key] = models.get(key, 0) + 1
        placed.append(name)
    return tuple(placed), tuple(not_placed)


def siege_activations(not_placed: Sequence[str], board: Sequence[Monster] | None
                      ) -> tuple[int, tuple[Monster, ...], int, tuple[SiegeActivation, ...], tuple[str, ...]]:
    """RB L1237: not "the Strongest Monster" but the first monster of the same kind, one activation each;
    none of its kind on the board: that activation is unused. (activations, order, unused, targets, notes)."""
    targets: list[SiegeActivation] = []
    chosen: list[Monster] = []
    notes: list[str] = []
    unused = 0
    if board is not None:
        for name in not_placed:
            target = first_of_kind(board, name)
            targets.append(SiegeActivation(name, target.name if target else None, target.slot if target else None))
            if target is None:
                unused += 1
                notes.append(f"No {name} on the board: its activation is unused.")
            else:
                chosen.append(target)
    if not_placed:
        notes.append("Siege of Everedge: each monster that cannot spawn activates the first monster of its "
                     "own kind in status-board order (RB L1237).")
    return len(not_placed), tuple(chosen), unused, tuple(targets), tuple(notes)


def command_activations(not_placed: Sequence[str], board: Sequence[Monster] | None
                        ) -> tuple[int, tuple[Monster, ...], int, tuple[str, ...]]:
    """RB L1319-1321: two "Activate a Monster" commands per monster not placed, in a proposed order
    (tracked board only). (activations, order, unused, notes)."""
    activations = COMMANDS_PER_MONSTER * len(not_placed)
    order, unused = propose_order(board, activations) if board is not None else ((), 0)
    notes: list[str] = []
    if activations:
        notes.append(f"{len(not_placed)} not placed: {activations} \"Activate a Monster\" commands "
                     "(RB L1319); no monster twice in a row (RB L1321), the party may choose (RB L1320).")
    if board is not None and unused:
        if order:
            notes.append(f"Only {order[0].name} can be activated: once, as a second activation would be "
                         f"twice in a row (RB L1321); {unused} of the commands are unused.")
        else:
            notes.append("No non-boss monster on the board to activate: the commands are unused.")
    return activations, order, unused, tuple(notes)

"""The play state of an adventure under way (`adventure.toml`), as one immutable value.

Pure: no files, no terminal, standard library only. `state_from(data)` reads the plain values that
tomllib gives and raises `StateError` (a key path, what is wrong, how to fix it); `dumps(state)` writes
the file's text. The file belongs to the tool (players do not edit it), so it is written here without
tomlkit's round trip, fast: `schema = 1` first, a fixed key order, and one Pile, monster or log entry
per line, so that a diff shows what happened at the table and merges stay clean.

Runes are counted per colour in three places: the bag, the Initiative Track and the Piles of Runes on
the board. Every operation here moves runes between those three, so their sum per colour stays the
campaign's rune bag (`rules.rune_bag` in story.toml); `drunagor check` verifies it.

Operations return a new state (and what they decided); a move the rules do not allow raises `Refused`
with the rulebook lines and what would make it legal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from drunagor_log.store.tomltext import basic_string
from drunagor_log.rules.board import (
    STATUS_BOARD_TRACKS,
    Monster,
    Pile,
    Value,
    canonical_rank,
    check_board,
    models_on_board,
    next_free_slot,
    slot_label,
    status_board_order,
)

SCHEMA = 1
FACES = ("A", "B")
OUTCOMES = ("won", "lost")
#: RB L1100, L1130, L1197, L1269: Tie Breaker returns "6 minus the number of Heroes" runes.
TIE_BREAKER_BASE = 6
#: Ranks a raid card's summons can take: a Minion card, or a Scenario Monster card (RB L1102, L1271).
RAID_RANKS = ("Minion", "Scenario")


class StateError(ValueError):
    """adventure.toml does not have the shape this module writes: where, what, and the remedy."""

    def __init__(self, path: tuple, message: str, remedy: str | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.message = message
        self.remedy = remedy


class Refused(ValueError):
    """The rules do not allow this move: the message, the rule (with its rulebook lines), a remedy."""

    def __init__(self, message: str, rule: str, remedy: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.remedy = remedy


class RaidCard(Value):
    """The chapter's raid card on the Initiative Track: its face, and what it summons.

    `minions` are the cards it summons (chapter 04's Naval Raid has two, RB L1171); `rank` is the
    rank they take on the board ("Minion", or "Scenario" for a Scenario Monster card); `model_limit`
    is how many models of each the box holds (4 for a Minion, RB L311; None when unknown).
    """

    __slots__ = ("card", "face", "minions", "rank", "model_limit")
    card: str
    face: str
    minions: tuple[str, ...]
    rank: str
    model_limit: int | None

    def __init__(self, card: str, face: str, minions: Sequence[str], rank: str = "Minion",
                 model_limit: int | None = 4) -> None:
        self._set(card=card, face=face, minions=tuple(minions), rank=rank, model_limit=model_limit)

    def flipped(self) -> RaidCard:
        """RB L286: "No face ever stays the same for two rounds in a row"."""
        return self.with_face("B" if self.face == "A" else "A")

    def with_face(self, face: str) -> RaidCard:
        return RaidCard(self.card, face, self.minions, self.rank, self.model_limit)


class AdventureState(Value):
    """Everything adventure.toml holds. Build it with `new_adventure` or `state_from`."""

    __slots__ = ("chapter", "heroes", "bag", "track", "raid", "ranks", "piles", "monsters", "log",
                 "outcome")
    chapter: str  # "05"
    heroes: int  # heroes in this adventure (decides the raid party and the Tie Breaker)
    bag: dict[str, int]  # runes of each colour in the bag
    track: dict[str, int]  # runes of each colour on the Initiative Track
    raid: RaidCard | None  # None when the chapter has no raid card
    ranks: dict[str, str]  # ranks the party gave for monsters the catalog does not know
    piles: tuple[Pile, ...]  # the Piles of Runes on the board
    monsters: tuple[Monster, ...]  # on the board, in status-board order (a boss holds no slot: last)
    log: tuple[dict[str, object], ...]  # every start, draw, pile, raid and summon, in order
    outcome: str | None  # "won" or "lost" once archived; None while under way

    __hash__ = None  # type: ignore[assignment]  # holds dicts

    def __init__(self, *, chapter: str, heroes: int, bag: Mapping[str, int], track: Mapping[str, int],
                 raid: RaidCard | None = None, ranks: Mapping[str, str] | None = None,
                 piles: Iterable[Pile] = (), monsters: Iterable[Monster] = (),
                 log: Iterable[Mapping[str, object]] = (), outcome: str | None = None) -> None:
        colours = list(bag)
        colours += [c for c in track if c not in colours]
        self._set(
            chapter=chapter, heroes=heroes,
            bag={c: bag.get(c, 0) for c in colours}, track={c: track.get(c, 0) for c in colours},
            raid=raid, ranks=dict(ranks or {}), piles=tuple(piles),
            monsters=status_board_order(check_board(monsters)),
            log=tuple(dict(e) for e in log), outcome=outcome,
        )

    def replace(self, **changes: object) -> AdventureState:
        fields = {name: getattr(self, name) for name in self.__slots__}
        fields.update(changes)
        return AdventureState(**fields)  # type: ignore[arg-type]

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
        wanted = str(pile_id).strip()
        if wanted.casefold().startswith("pile"):
            wanted = wanted[4:].strip()
        for pile in self.piles:
            if pile.id == wanted:
                return pile
        known = ", ".join(p.id for p in self.piles) or "none"
        raise Refused(f"no Pile of Runes {pile_id!r} on the board (Piles: {known})", "pile",
                      "name a Pile by its id, as `drunagor adventure show` lists them")

    def board_monsters(self) -> tuple[Monster, ...]:
        """The monsters that hold a status-board track (bosses do not)."""
        return tuple(m for m in self.monsters if m.slot is not None)

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


# ------------------------------------------------------------------------------------ operations


def new_adventure(*, chapter: str, heroes: int, bag: Mapping[str, int], stirring_darkness: int | None,
                  raid: RaidCard | None, log_text: str) -> AdventureState:
    """A chapter's start: the full bag, Stirring Darkness moved to the Initiative Track (that many
    runes of each colour, e.g. RB L1068), the raid card face A up (e.g. RB L1102), an empty board."""
    _check_heroes(heroes)
    full = {c: n for c, n in bag.items()}
    track = {c: 0 for c in full}
    if stirring_darkness:
        short = [c for c, n in full.items() if n < stirring_darkness]
        if short:
            raise Refused(f"Stirring Darkness takes {stirring_darkness} runes of each colour, but the bag "
                          f"holds fewer {', '.join(short)}", "stirring-darkness",
                          "fix rules.rune_bag in story.toml to the runes in your bag")
        for colour in full:
            full[colour] -= stirring_darkness
            track[colour] += stirring_darkness
    return AdventureState(chapter=chapter, heroes=heroes, bag=full, track=track, raid=raid,
                          log=[{"event": "start", "text": log_text}])


def _check_heroes(heroes: int) -> None:
    if isinstance(heroes, bool) or not isinstance(heroes, int) or not 1 <= heroes <= 5:
        raise Refused(f"an adventure is played by 1 to 5 heroes, not {heroes!r}", "heroes (RB L941-943)",
                      "give --heroes from 1 to 5")


def counts_of(colours: Iterable[str]) -> dict[str, int]:
    """["red", "red", "blue"] -> {"red": 2, "blue": 1}, in first-seen order."""
    counts: dict[str, int] = {}
    for colour in colours:
        counts[colour] = counts.get(colour, 0) + 1
    return counts


def add_pile(state: AdventureState, runes: Sequence[str] | None = None
             ) -> tuple[AdventureState, Pile, tuple[str, ...]]:
    """Put a Pile of Runes on the board, its runes taken from the Initiative Track.

    Without `runes`, the Darkness Nodes rule: "taking 1 Rune of each color from the Initiative Track"
    (RB L1098). A colour the track does not hold cannot be taken: the pile is made without it and the
    colour is returned in the third value, so the caller can say so. With `runes`, exactly those runes,
    each of which must be on the track.
    """
    track = dict(state.track)
    taken: dict[str, int] = {}
    missing: list[str] = []
    if runes is None:
        for colour in state.colours:
            if track[colour] > 0:
                track[colour] -= 1
                taken[colour] = 1
            else:
                missing.append(colour)
        if not taken:
            raise Refused("the Initiative Track holds no rune to build a Pile of Runes from",
                          "darkness-nodes (RB L1098)",
                          "draw runes to the track first, or give the Pile's runes with --runes")
    else:
        wanted = counts_of(runes)
        if not wanted:
            raise Refused("a Pile of Runes needs at least one rune", "pile", "give --runes red,blue,...")
        for colour, count in wanted.items():
            if track.get(colour, 0) < count:
                raise Refused(f"the Initiative Track holds {track.get(colour, 0)} {colour} rune"
                              f"{'' if track.get(colour, 0) == 1 else 's'}, not the {count} this Pile needs",
                              "darkness-nodes (RB L1098)", "a Pile of Runes is built from the runes on the track")
            track[colour] -= count
            taken[colour] = count
    pile = Pile(_next_pile_id(state.piles), taken)
    return state.replace(track=track, piles=state.piles + (pile,)), pile, tuple(missing)


def _next_pile_id(piles: Sequence[Pile]) -> str:
    numbers = [int(p.id) for p in piles if p.id.isdigit()]
    return str(max(numbers, default=0) + 1)


def tie_breaker_runes(heroes: int) -> int:
    """RB L1100: "a number of Runes of their choice from that pile equal to 6 minus the number of
    Heroes"."""
    return TIE_BREAKER_BASE - heroes


def tiebreak(state: AdventureState, pile_id: str, chosen: Sequence[str] | None = None
             ) -> tuple[AdventureState, dict[str, int], bool]:
    """Tie Breaker (RB L1100): return (6 - heroes) runes of the party's choice from the Pile to the bag.

    A Pile that holds no more than that is returned whole, and `chosen` may be left out. Returns the new
    state, the runes returned, and whether the Pile left the board (emptied)."""
    pile = state.pile(pile_id)
    due = tie_breaker_runes(state.heroes)
    held = sum(pile.runes.values())
    takes = min(due, held)
    if chosen is None:
        if held > due:
            raise Refused(f"Pile {pile.id} holds {held} runes ({_runes_text(pile.runes)}); the Tie Breaker "
                          f"returns {due} of the party's choice (6 - {state.heroes} heroes)",
                          "tie-breaker (RB L1100)", f"choose {due} with --runes COLOUR,...")
        returned = {c: n for c, n in pile.runes.items() if n}
    else:
        returned = counts_of(chosen)
        if sum(returned.values()) != takes:
            raise Refused(f"the Tie Breaker returns {takes} rune{'s' if takes != 1 else ''} from Pile "
                          f"{pile.id} (6 - {state.heroes} heroes"
                          f"{'' if takes == due else f', and the Pile holds only {held}'}), "
                          f"not {sum(returned.values())}", "tie-breaker (RB L1100)",
                          f"give exactly {takes} with --runes")
        for colour, count in returned.items():
            if pile.runes.get(colour, 0) < count:
                raise Refused(f"Pile {pile.id} holds {pile.runes.get(colour, 0)} {colour} "
                              f"({_runes_text(pile.runes)})", "tie-breaker (RB L1100)",
                              "choose runes that are in that Pile")
    left = {c: n - returned.get(c, 0) for c, n in pile.runes.items() if n - returned.get(c, 0) > 0}
    bag = dict(state.bag)
    for colour, count in returned.items():
        bag[colour] = bag.get(colour, 0) + count
    removed = not left
    piles = tuple(p for p in state.piles if p.id != pile.id) if removed else tuple(
        Pile(p.id, left) if p.id == pile.id else p for p in state.piles)
    return state.replace(bag=bag, piles=piles), returned, removed


def remove_pile(state: AdventureState, pile_id: str) -> tuple[AdventureState, Pile]:
    """A Pile leaves the board with its runes going to the Initiative Track (the Soul Harvester's
    advance, RB L1147, L1149)."""
    pile = state.pile(pile_id)
    track = dict(state.track)
    for colour, count in pile.runes.items():
        track[colour] = track.get(colour, 0) + count
    return state.replace(track=track, piles=tuple(p for p in state.piles if p.id != pile.id)), pile


def draw_random(bag: Mapping[str, int], count: int, rng) -> list[str]:
    """Draw `count` runes one at a time from the bag, without putting them back. Every rune in the bag
    is equally likely; colours are taken in sorted order so the same seed gives the same runes whatever
    order the bag is written in. Stops early when the bag runs out."""
    left = {c: n for c, n in bag.items() if n > 0}
    drawn: list[str] = []
    for _ in range(count):
        total = sum(left.values())
        if total == 0:
            break
        pick = rng.randrange(total)
        for colour in sorted(left):
            if pick < left[colour]:
                drawn.append(colour)
                left[colour] -= 1
                if not left[colour]:
                    del left[colour]
                break
            pick -= left[colour]
    return drawn


def draw(state: AdventureState, colours: Sequence[str]) -> AdventureState:
    """Runes drawn from the bag and placed on the Initiative Track (e.g. Growing Influence, RB L1062)."""
    bag, track = dict(state.bag), dict(state.track)
    for colour in colours:
        if bag.get(colour, 0) <= 0:
            raise Refused(f"the rune bag holds no {colour} rune ({_runes_text(state.bag) or 'it is empty'})",
                          "draw", "record the rune you really drew")
        bag[colour] -= 1
        track[colour] = track.get(colour, 0) + 1
    return state.replace(bag=bag, track=track)


def add_monster(state: AdventureState, name: str, rank: str | None, *, boss: bool = False,
                slot: int | None = None, model_limit: int | None = None) -> tuple[AdventureState, Monster]:
    """Place one monster on the board, in the next free status-board slot (RB L315) or `slot`.

    A boss holds no slot. RB L311: no monster may be placed when all 12 Health Tracks are taken, nor a
    model beyond the `model_limit` of its kind."""
    monsters = state.monsters
    if model_limit is not None and models_on_board(monsters, name) >= model_limit:
        raise Refused(f"all {model_limit} models of {name} are on the board", "models (RB L311)",
                      f"remove one first (drunagor monster remove {name!r} ...)")
    if boss:
        if slot is not None:
            raise Refused(f"{name} is a boss: a boss holds no status-board slot", "status-board",
                          "leave out --slot")
        monster = Monster(name, rank, None, boss=True)
    else:
        if slot is None:
            slot = next_free_slot(monsters)
            if slot is None:
                raise Refused(f"all {STATUS_BOARD_TRACKS} Health Tracks of the Monster Status board are "
                              f"taken: no new monster may be placed", "status-board (RB L311)",
                              "remove a defeated monster first (drunagor monster remove SLOT)")
        else:
            if isinstance(slot, bool) or not isinstance(slot, int) or not 1 <= slot <= STATUS_BOARD_TRACKS:
                raise Refused(f"status-board slots are 1 to {STATUS_BOARD_TRACKS}, not {slot!r}",
                              "status-board (RB L315)", "give --slot from 1 to 12")
            holder = next((m for m in monsters if m.slot == slot), None)
            if holder is not None:
                raise Refused(f"{slot_label(slot)} is taken by {holder.name}", "status-board (RB L315)",
                              "leave out --slot to take the next free one, or free that slot first")
        monster = Monster(name, rank, slot)
    return state.replace(monsters=monsters + (monster,)), monster


def remove_monster(state: AdventureState, which: str | int) -> tuple[AdventureState, Monster]:
    """Take a monster off the board, by status-board slot (a number) or by name. A name that several
    monsters on the board share is refused: their slots differ, and slots decide activations."""
    monsters = state.monsters
    if isinstance(which, int):
        found = [m for m in monsters if m.slot == which]
        if not found:
            raise Refused(f"no monster holds {slot_label(which) if 1 <= which <= 12 else f'slot {which}'}",
                          "status-board", "see the slots with `drunagor adventure show`")
    else:
        found = [m for m in monsters if m.is_named(which)]
        if not found:
            on_board = ", ".join(dict.fromkeys(m.name for m in monsters)) or "none"
            raise Refused(f"no {which} on the board (on the board: {on_board})", "status-board",
                          "name a monster on the board, or give its slot")
        if len(found) > 1:
            slots = ", ".join(str(m.slot) if m.slot is not None else "boss" for m in found)
            raise Refused(f"{len(found)} {found[0].name} are on the board (slots {slots})", "status-board",
                          "give the slot of the one that leaves")
    gone = found[0]
    rest = list(monsters)
    rest.remove(gone)
    return state.replace(monsters=tuple(rest)), gone


def record_rank(state: AdventureState, name: str, rank: str) -> AdventureState:
    """Remember the rank the party gave for a monster the catalog does not know."""
    ranks = {k: v for k, v in state.ranks.items() if k.casefold() != name.casefold()}
    ranks[name] = canonical_rank(rank)
    return state.replace(ranks=ranks)


def with_log(state: AdventureState, entry: Mapping[str, object]) -> AdventureState:
    return state.replace(log=state.log + (dict(entry),))


def _runes_text(counts: Mapping[str, int]) -> str:
    """'red, blue, 2 gray': the colours held, a count where more than one."""
    return ", ".join(c if n == 1 else f"{n} {c}" for c, n in counts.items() if n)


# ---------------------------------------------------------------------------------- reading a file


def state_from(data: Mapping[str, object]) -> AdventureState:
    """The state from the plain values of adventure.toml (or an archived adventure); StateError when a
    value has the wrong shape (negative counts, a slot twice or outside 1-12, an unknown rank...)."""
    chapter = data.get("chapter")
    if not isinstance(chapter, str) or len(chapter) != 2 or not chapter.isdigit() or not 1 <= int(chapter) <= 9:
        raise StateError(("chapter",), f"`chapter` must be a chapter from \"01\" to \"09\", not {chapter!r}",
                         'write chapter = "05"')
    heroes = _int(data, "heroes", (), low=1, high=5, required=True)
    outcome = data.get("outcome")
    if outcome is not None and outcome not in OUTCOMES:
        raise StateError(("outcome",), f"`outcome` must be \"won\" or \"lost\", not {outcome!r}",
                         "fix it, or remove the line while the adventure is under way")
    bag = _counts(data, "bag", (), required=True)
    track = _counts(data, "track", (), required=False)

    raid = None
    raw = data.get("raid")
    if raw is not None:
        if not isinstance(raw, dict):
            raise StateError(("raid",), "`raid` must be a table", 'write raid = { card = "...", face = "A", ... }')
        card = _str(raw, "card", ("raid",))
        face = raw.get("face")
        if face not in FACES:
            raise StateError(("raid", "face"), f"the raid card face must be \"A\" or \"B\", not {face!r}",
                             'write face = "A"')
        minions = raw.get("minions")
        if not isinstance(minions, list) or not minions or not all(isinstance(m, str) and m.strip()
                                                                      for m in minions):
            raise StateError(("raid", "minions"), "`raid.minions` must list the cards the raid summons",
                             'write minions = ["Tidehunter"]')
        rank = raw.get("rank", "Minion")
        try:
            rank = canonical_rank(rank) if isinstance(rank, str) else None
        except ValueError:
            rank = None
        if rank not in RAID_RANKS:
            raise StateError(("raid", "rank"), f"`raid.rank` must be \"Minion\" or \"Scenario\", not "
                             f"{raw.get('rank')!r}", 'write rank = "Minion"')
        limit = _int(raw, "model_limit", ("raid",), low=1, required=False)
        raid = RaidCard(card, face, minions, rank, limit)

    ranks_raw = data.get("ranks", {})
    if not isinstance(ranks_raw, dict):
        raise StateError(("ranks",), "`ranks` must be a table of monster = rank", 'write ranks = { "Name" = "Gray" }')
    ranks = {}
    for name, rank in ranks_raw.items():
        try:
            ranks[name] = canonical_rank(rank) if isinstance(rank, str) else canonical_rank("")
        except ValueError as exc:
            raise StateError(("ranks", name), str(exc), "give a rank: Overlord ... Minion") from None

    piles = []
    for i, entry in enumerate(_list(data, "piles")):
        path = ("piles", i)
        if not isinstance(entry, dict):
            raise StateError(path, f"a Pile of Runes must be a table, not {entry!r}",
                             'write { id = "1", runes = { red = 1 } }')
        pile_id = entry.get("id")
        if isinstance(pile_id, bool) or not isinstance(pile_id, (str, int)) or not str(pile_id).strip():
            raise StateError(path + ("id",), "a Pile of Runes needs an id", 'write id = "1"')
        runes = _counts(entry, "runes", path, required=True)
        piles.append(Pile(str(pile_id), runes))
    ids = [p.id for p in piles]
    for i, pile_id in enumerate(ids):
        if pile_id in ids[:i]:
            raise StateError(("piles", i, "id"), f"two Piles of Runes have the id {pile_id!r}",
                             "give each Pile its own id")

    monsters: list[Monster] = []
    for i, entry in enumerate(_list(data, "monsters")):
        path = ("monsters", i)
        if not isinstance(entry, dict):
            raise StateError(path, f"a monster must be a table, not {entry!r}",
                             'write { name = "Gremlin Horde", rank = "White", slot = 1 }')
        name = _str(entry, "name", path)
        boss = entry.get("boss", False)
        if not isinstance(boss, bool):
            raise StateError(path + ("boss",), "`boss` must be true or false", "write boss = true")
        slot = entry.get("slot")
        rank = entry.get("rank")
        try:
            monster = Monster(name, rank if rank is None or isinstance(rank, str) else str(rank), slot, boss)
        except ValueError as exc:
            key = "slot" if "slot" in str(exc) else "rank"
            raise StateError(path + (key,), str(exc), "fix the monster, or remove it from the board") from None
        for other in monsters:
            if slot is not None and other.slot == slot:
                raise StateError(path + ("slot",), f"{name} and {other.name} both hold {slot_label(slot)}",
                                 "each status-board slot holds one monster")
        monsters.append(monster)

    log = []
    for i, entry in enumerate(_list(data, "log")):
        if not isinstance(entry, dict) or not all(
                isinstance(v, (str, int, bool)) for v in entry.values()):
            raise StateError(("log", i), f"a log entry must be a table of plain values, not {entry!r}",
                             'write { event = "draw", text = "..." }')
        log.append(entry)
    return AdventureState(chapter=chapter, heroes=heroes, bag=bag, track=track, raid=raid, ranks=ranks,
                          piles=piles, monsters=monsters, log=log, outcome=outcome)


def _int(data: Mapping, key: str, path: tuple, *, low: int = 0, high: int | None = None,
         required: bool) -> int | None:
    if key not in data:
        if required:
            raise StateError(path + (key,), f"`{key}` is missing", f"add {key} = N")
        return None
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise StateError(path + (key,), f"`{'.'.join(map(str, path + (key,)))}` must be a whole number "
                         f"{bound}, not {value!r}", f"set it {bound}")
    return value


def _str(data: Mapping, key: str, path: tuple) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise StateError(path + (key,), f"`{key}` must be a name, not {value!r}", f'write {key} = "..."')
    return value


def _list(data: Mapping, key: str) -> list:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise StateError((key,), f"`{key}` must be a list", f"write {key} = [ ... ], one entry a line")
    return value


def _counts(data: Mapping, key: str, path: tuple, *, required: bool) -> dict[str, int]:
    if key not in data:
        if required:
            raise StateError(path + (key,), f"`{key}` is missing", f"add {key} = {{ red = 0, ... }}")
        return {}
    table = data[key]
    if not isinstance(table, dict):
        raise StateError(path + (key,), f"`{key}` must be a table of rune counts",
                         f"write {key} = {{ red = 1, blue = 0, ... }}")
    counts: dict[str, int] = {}
    for colour in table:
        value = table[colour]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            where = ".".join(map(str, path + (key, colour)))
            raise StateError(path + (key, colour), f"`{where}` must be a rune count (0 or more), not {value!r}",
                             "rune counts are never negative; run `drunagor check` after fixing it")
        counts[colour.strip().casefold()] = value
    return counts


# ---------------------------------------------------------------------------------- writing a file


def dumps(state: AdventureState) -> str:
    """The text of adventure.toml: valid TOML (tomllib reads it back to the same state), schema first,
    keys always in this order, one Pile, monster or log entry per line."""
    comment = ("# The adventure under way: written by drunagor, not by hand (drunagor adventure show)."
               if state.outcome is None else
               "# A finished adventure, archived by `drunagor adventure end`: its draws, summons and seeds.")
    out = [f"schema = {SCHEMA}", comment, f"chapter = {_toml_str(state.chapter)}",
           f"heroes = {state.heroes}"]
    if state.outcome is not None:
        out.append(f"outcome = {_toml_str(state.outcome)}")
    out.append(f"bag = {_inline(state.bag)}")
    out.append(f"track = {_inline(state.track)}")
    if state.raid is not None:
        raid: dict[str, object] = {"card": state.raid.card, "face": state.raid.face,
                                   "minions": list(state.raid.minions), "rank": state.raid.rank}
        if state.raid.model_limit is not None:
            raid["model_limit"] = state.raid.model_limit
        out.append(f"raid = {_inline(raid)}")
    out.append(f"ranks = {_inline(state.ranks)}")
    out += _array("piles", [{"id": p.id, "runes": {c: n for c, n in p.runes.items() if n}} for p in state.piles])
    out += _array("monsters", [_monster(m) for m in state.monsters])
    out += _array("log", state.log)
    return "\n".join(out) + "\n"


def _monster(m: Monster) -> dict[str, object]:
    entry: dict[str, object] = {"name": m.name}
    if m.rank is not None:
        entry["rank"] = m.rank
    if m.slot is not None:
        entry["slot"] = m.slot
    if m.boss:
        entry["boss"] = True
    return entry


def _array(key: str, entries: Sequence[Mapping[str, object]]) -> list[str]:
    if not entries:
        return [f"{key} = []"]
    return [f"{key} = [", *(f"  {_inline(e)}," for e in entries), "]"]


_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_toml_str = basic_string  # TOML basic strings (drunagor_log/store/tomltext.py)


def _key(key: str) -> str:
    return key if key and all(ch in _BARE for ch in key) else _toml_str(key)


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _toml_str(value)
    if isinstance(value, Mapping):
        return _inline(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} to adventure.toml")


def _inline(table: Mapping[str, object]) -> str:
    if not table:
        return "{}"
    return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in table.items()) + " }"


def line_of(text: str, path: Sequence[object]) -> int | None:
    """The line of a key path in a file this module wrote: `("monsters", 2, "slot")` is the third
    entry of `monsters = [`, one entry per line; `("bag", "red")` is the `bag = ` line."""
    if not path:
        return None
    key = str(path[0])
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        if line.split("=", 1)[0].strip() != key or line.lstrip().startswith("#"):
            continue
        if len(path) > 1 and isinstance(path[1], int) and line.rstrip().endswith("["):
            seen = -1
            for inner, entry in enumerate(lines[number:], number + 1):
                stripped = entry.strip()
                if stripped.startswith("]"):
                    break
                if stripped and not stripped.startswith("#"):
                    seen += 1
                    if seen == path[1]:
                        return inner
        return number
    return None

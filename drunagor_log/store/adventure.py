"""The adventure.toml codec: the file of the adventure under way (and of each archived one) to an
`AdventureState` (model/adventure.py) and back.

The file belongs to the tool (players do not edit it), so it is written here without tomlkit's
round trip, fast (`drunagor raid` answers at once, SPEC 7): `schema = 1` first, a fixed key order, and
one Pile, monster or log entry per line, so that a diff shows what happened at the table and merges
stay clean. It is read with tomllib's plain values (store.TomlFile); a value of the wrong shape is a
`StateError` (exit 3) that names the file and the line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import StateError, located
from ..model.adventure import (
    FACES,
    OUTCOMES,
    RAID_RANKS,
    UNDOABLE,
    AdventureState,
    Monster,
    Pile,
    RaidCard,
    canonical_rank,
    slot_label,
)
from . import SCHEMA, line_of
from .tomltext import basic_string, integer

if TYPE_CHECKING:
    from . import TomlFile


def read(f: TomlFile) -> AdventureState:
    """The state in an adventure file; a StateError names the file and the line of the bad value."""
    try:
        return state_from(f.data)
    except StateError as exc:
        raise located(exc, f.shown, line_of(f.text, exc.path)) from None


def text(state: AdventureState) -> bytes:
    """The bytes of the file for `state` (see dumps)."""
    return dumps(state).encode("utf-8")


# ------------------------------------------------------------------------------------------ reading


def state_from(data: Mapping[str, Any]) -> AdventureState:
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
    return AdventureState(chapter=chapter, heroes=heroes or 0, bag=bag, track=track, raid=_raid(data.get("raid")),
                          ranks=_ranks(data), piles=_piles(data), monsters=_monsters(data), log=_log(data),
                          outcome=outcome, cubes=_cubes(data), counters=_counters(data), lost=_lost(data),
                          won=_won(data), events=_events(data))


def _cubes(data: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    raw = data.get("cubes", {})
    if not isinstance(raw, dict):
        raise StateError(("cubes",), "`cubes` must be a table of hero = { trauma = N, curse = N }",
                         'write cubes = { Nyx = { trauma = 1, curse = 0 } }')
    cubes = {}
    for hero, held in raw.items():
        if not isinstance(held, dict) or set(held) - {"trauma", "curse"}:
            raise StateError(("cubes", hero), f"the cubes of {hero} must be {{ trauma = N, curse = N }}",
                             "write { trauma = 1, curse = 0 }")
        cubes[hero] = {kind: _int(held, kind, ("cubes", hero), required=False) or 0 for kind in ("trauma", "curse")}
    return cubes


#: The chapters' counters (rules/losing.py, rules/chapters.py), the round and the Rune card's face (written
#: here, not imported: `raid` reads this file and must not load the catalog, SPEC 7).
_COUNTERS: dict[str, type] = {
    "barricade": int, "swan_hp_drawn": int, "endgame": bool, "king_health": int, "vessel_hp_drawn": int,
    "mending_rope": int, "plenty_of_provisions": int, "spare_wood": int, "special_event": bool, "time_tokens": int,
    "desperation_time_tokens": int, "doom_clock": int, "siege_cards_drawn": int, "round": int, "rune_face": str,
    "harvesters_hunt": bool,
}


def _counters(data: Mapping[str, Any]) -> dict[str, Any]:
    raw = data.get("counters", {})
    if not isinstance(raw, dict):
        raise StateError(("counters",), "`counters` must be a table", "write counters = { barricade = 3 }")
    for key, value in raw.items():
        kind = _COUNTERS.get(key)
        if kind is None:
            raise StateError(("counters", key), f"unknown counter {key!r}: drunagor keeps {', '.join(_COUNTERS)}",
                             "remove it")
        if kind is bool and not isinstance(value, bool):
            raise StateError(("counters", key), f"`counters.{key}` must be true or false, not {value!r}",
                             f"write {key} = false")
        if kind is int:
            _int(raw, key, ("counters",), low=1 if key == "round" else 0, required=True)
        if kind is str and value not in FACES:
            raise StateError(("counters", key), f"`counters.{key}` must be \"A\" or \"B\", not {value!r}",
                             f'write {key} = "A"')
    return dict(raw)


def _lost(data: Mapping[str, Any]) -> str | None:
    lost = data.get("lost")
    if lost is not None and not isinstance(lost, str):
        raise StateError(("lost",), f"`lost` must say in words how the adventure was lost, not {lost!r}",
                         "remove the line while it is not lost")
    return lost or None


def _won(data: Mapping[str, Any]) -> str | None:
    won = data.get("won")
    if won is not None and not isinstance(won, str):
        raise StateError(("won",), f"`won` must say in words which ending the adventure reached, not {won!r}",
                         "remove the line while the adventure has not ended")
    return won or None


def _events(data: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
    """The undo stack, checked for its shape only: what an event restores is read when it is taken back
    (undo_fields), so a raid does not parse every snapshot of the evening."""
    events = []
    for i, entry in enumerate(_list(data, "events")):
        if (not isinstance(entry, dict) or not isinstance(entry.get("event"), str)
                or not isinstance(entry.get("before"), dict) or set(entry["before"]) - set(UNDOABLE)):
            raise StateError(("events", i), f"an event must be {{ event = NAME, log = N, before = {{ ... }} }}, "
                             f"not {entry!r}", "remove it: `adventure undo` cannot take it back")
        _int(entry, "log", ("events", i), required=True)
        events.append(entry)
    return tuple(events)


def undo_fields(event: Mapping[str, Any], index: int, f: TomlFile | None = None) -> dict[str, Any]:
    """The state fields a table event changed, as they were before it (for `adventure undo`); a value
    of the wrong shape is a StateError on the event's line of `f`."""
    before = event["before"]
    readers = {"bag": lambda: _counts(before, "bag", (), required=True),
               "track": lambda: _counts(before, "track", (), required=True),
               "raid": lambda: _raid(before["raid"]), "ranks": lambda: _ranks(before),
               "piles": lambda: _piles(before), "monsters": lambda: _monsters(before),
               "cubes": lambda: _cubes(before), "counters": lambda: _counters(before),
               "lost": lambda: _lost(before), "won": lambda: _won(before)}
    try:
        return {name: readers[name]() for name in before}
    except StateError as exc:
        bad = StateError(("events", index), f"event {index + 1} ({event['event']}): {exc.message}",
                         "remove the events from this one on: they cannot be taken back")
        raise (located(bad, f.shown, line_of(f.text, bad.path)) if f is not None else bad) from None


def before_values(state: AdventureState, names: Sequence[str]) -> dict[str, object]:
    """The fields `names` of `state` as plain values, as an event keeps them for `adventure undo`."""
    plain: dict[str, Callable[[], object]] = {
        "bag": lambda: dict(state.bag), "track": lambda: dict(state.track),
        "raid": lambda: _raid_plain(state.raid), "ranks": lambda: dict(state.ranks),
        "piles": lambda: _piles_plain(state), "monsters": lambda: [_monster(m) for m in state.monsters],
        "cubes": lambda: {h: dict(c) for h, c in state.cubes.items()}, "counters": lambda: dict(state.counters),
        "lost": lambda: state.lost or "", "won": lambda: state.won or "",
    }
    return {name: plain[name]() for name in names}


def _raid(raw: object) -> RaidCard | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise StateError(("raid",), "`raid` must be a table", 'write raid = { card = "...", face = "A", ... }')
    card = _str(raw, "card", ("raid",))
    face = raw.get("face")
    if face not in FACES:
        raise StateError(("raid", "face"), f"the raid card face must be \"A\" or \"B\", not {face!r}",
                         'write face = "A"')
    minions = raw.get("minions")
    if not isinstance(minions, list) or not minions or not all(isinstance(m, str) and m.strip() for m in minions):
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
    return RaidCard(card, str(face), tuple(minions), rank, limit)


def _ranks(data: Mapping[str, Any]) -> dict[str, str]:
    raw = data.get("ranks", {})
    if not isinstance(raw, dict):
        raise StateError(("ranks",), "`ranks` must be a table of monster = rank", 'write ranks = { "Name" = "Gray" }')
    ranks = {}
    for name, rank in raw.items():
        try:
            ranks[name] = canonical_rank(rank) if isinstance(rank, str) else canonical_rank("")
        except ValueError as exc:
            raise StateError(("ranks", name), str(exc), "give a rank: Overlord ... Minion") from None
    return ranks


def _piles(data: Mapping[str, Any]) -> tuple[Pile, ...]:
    piles: list[Pile] = []
    for i, entry in enumerate(_list(data, "piles")):
        path = ("piles", i)
        if not isinstance(entry, dict):
            raise StateError(path, f"a Pile of Runes must be a table, not {entry!r}",
                             'write { id = "1", runes = { red = 1 } }')
        pile_id = entry.get("id")
        if isinstance(pile_id, bool) or not isinstance(pile_id, (str, int)) or not str(pile_id).strip():
            raise StateError(path + ("id",), "a Pile of Runes needs an id", 'write id = "1"')
        piles.append(Pile(str(pile_id), _counts(entry, "runes", path, required=True)))
    ids = [p.id for p in piles]
    for i, pile_id in enumerate(ids):
        if pile_id in ids[:i]:
            raise StateError(("piles", i, "id"), f"two Piles of Runes have the id {pile_id!r}",
                             "give each Pile its own id")
    return tuple(piles)


def _monsters(data: Mapping[str, Any]) -> tuple[Monster, ...]:
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
        slot, rank = entry.get("slot"), entry.get("rank")
        try:
            monster = Monster(name, rank if rank is None or isinstance(rank, str) else str(rank), slot, boss)
        except ValueError as exc:
            key = "slot" if "slot" in str(exc) else "rank"
            raise StateError(path + (key,), str(exc), "fix the monster, or remove it from the board") from None
        other = next((m for m in monsters if slot is not None and m.slot == slot), None)
        if other is not None:
            raise StateError(path + ("slot",), f"{name} and {other.name} both hold {slot_label(slot)}",
                             "each status-board slot holds one monster")
        monsters.append(monster)
    return tuple(monsters)


def _log(data: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
    """The table events, each a table of plain values: its `event`, its sentence, and the facts beside it
    (LOG_FACTS: a raid's bag and Piles are tables, its `placed` a list). Facts drunagor does not know (a
    newer drunagor's) are kept as they are; a fact that is missing was not recorded (an older archive).
    One pass, types compared directly: an archive of a long evening holds thousands (`stats`, `recap`)."""
    log = []
    shapes = _FACT_SHAPES
    for i, entry in enumerate(_list(data, "log")):
        if type(entry) is not dict:
            raise StateError(("log", i), f"a log entry must be a table of plain values, not {entry!r}",
                             'write { event = "draw", text = "..." }')
        for key, value in entry.items():
            shape = shapes.get(key)
            if shape is None:  # a sentence, a seed, a fact of a newer drunagor: plain values
                kind = type(value)
                if kind is not str and kind is not int and kind is not bool and not _plain(value):
                    raise StateError(("log", i), f"a log entry must be a table of plain values, not {entry!r}",
                                     'write { event = "draw", text = "..." }')
            elif not shape[0](value):
                raise StateError(("log", i, key), f"the fact `{key}` of table event {i + 1} ({entry.get('event')}) "
                                 f"must be {shape[1]}, not {value!r}",
                                 "fix it, or remove the fact: a fact not kept is not counted")
        log.append(entry)
    return tuple(log)


def _plain(value: object, depth: int = 0) -> bool:
    """A fact of a table event: a string, a whole number, true/false, or (two levels deep at most: a raid's
    Piles are a list of tables of counts) a list or table of them."""
    if isinstance(value, (str, int, bool)):
        return True
    if depth >= 3:
        return False
    if isinstance(value, list):
        return all(_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(_plain(v, depth + 1) for v in value.values())
    return False


def _names(value: object) -> bool:
    if type(value) is not list:
        return False
    for v in value:
        if type(v) is not str:
            return False
    return True


def _count(value: object) -> bool:
    return type(value) is int and value >= 0


def _rune_counts(value: object) -> bool:
    if type(value) is not dict:
        return False
    for v in value.values():
        if type(v) is not int or v < 0:
            return False
    return True


def _pile_facts(value: object) -> bool:
    if type(value) is not list:
        return False
    for pile in value:
        if type(pile) is not dict or not _rune_counts(pile.get("runes")) or not _plain(pile):
            return False
    return True


def _fraction(value: object) -> bool:
    top, slash, bottom = value.partition("/") if isinstance(value, str) else ("", "", "")
    return bool(slash) and top.isascii() and top.isdigit() and bottom.isascii() and bottom.isdigit() \
        and int(bottom) > 0 and int(top) <= int(bottom)


#: The shape of each fact a table event keeps (LOG_FACTS) and how the message words it: `check` and every
#: reader refuse a fact of another shape (a hand edit), as they refuse any other value of the file.
_FACT_SHAPES: dict[str, tuple[Callable[[object], bool], str]] = {
    "by": (lambda v: isinstance(v, str) and bool(v.strip()), 'a hero\'s file name, e.g. "nyx"'),
    "face": (lambda v: v in FACES, '"A" or "B"'),
    "rune": (lambda v: isinstance(v, str), 'a colour, e.g. "red"'),
    "bag": (_rune_counts, "a table of rune counts, e.g. { red = 2, blue = 1 }"),
    "piles": (_pile_facts, 'a list of Piles, e.g. [{ id = "1", runes = { red = 1 } }]'),
    "chance": (_fraction, 'a fraction from 0 to 1, e.g. "7/12"'),
    "placed": (_names, 'a list of names, e.g. ["Tidehunter"]'),
    "failed": (_names, 'a list of names, e.g. ["Tidehunter"]'),
    "not_placed": (_names, 'a list of names, e.g. ["Gremlin Horde"]'),
    "hero": (lambda v: isinstance(v, str) and bool(v.strip()), 'a hero\'s name, e.g. "Nyx"'),
    "kind": (lambda v: v in ("trauma", "curse"), '"trauma" or "curse"'),
    "delta": (lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number, e.g. 1 or -1"),
    "count": (_count, "a whole number, 0 or more"),
    "left": (_count, "the runes left in the bag, 0 or more"),
    "round": (lambda v: _count(v) and v != 0, "a round number, 1 or more"),
    "returned": (_rune_counts, "a table of rune counts, e.g. { red = 2 }"),
    "steps": (_names, 'a list of step titles'),
}


#: The facts a table event keeps beside its sentence (SPEC 12, issue 45), in the order the codec writes them:
#: after `event` and `by` (the hero whose phone acted; absent: the scribe), before `text`; a key not named here
#: (a seed, `physical`, `recorded`, a newer drunagor's fact) follows them in the entry's own order.
LOG_FACTS = ("round", "face", "rune", "runes", "left", "bag", "piles", "chance", "placed", "failed", "hero", "kind",
             "delta", "count", "pile", "returned", "steps", "counter", "not_placed")


def _log_entry(entry: Mapping[str, object]) -> dict[str, object]:
    """A table event's keys in the codec's fixed order: event, by, the facts (LOG_FACTS), the rest, text."""
    first = [k for k in ("event", "by", *LOG_FACTS) if k in entry]
    rest = [k for k in entry if k not in first and k != "text"]
    ordered = {k: entry[k] for k in (*first, *rest)}
    if "text" in entry:
        ordered["text"] = entry["text"]
    return ordered


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


# ------------------------------------------------------------------------------------------ writing


def dumps(state: AdventureState) -> str:
    """The text of adventure.toml: valid TOML (tomllib reads it back to the same state), schema first,
    keys always in this order, one Pile, monster or log entry per line."""
    comment = ("# The adventure under way: written by drunagor, not by hand (drunagor adventure show)."
               if state.outcome is None else
               "# A finished adventure, archived by `drunagor adventure end`: its draws, summons and seeds.")
    out = [f"schema = {SCHEMA}", comment, f"chapter = {basic_string(state.chapter)}",
           f"heroes = {integer(state.heroes)}"]
    if state.outcome is not None:
        out.append(f"outcome = {basic_string(state.outcome)}")
    out.append(f"bag = {_inline(state.bag)}")
    out.append(f"track = {_inline(state.track)}")
    if state.raid is not None:
        out.append(f"raid = {_inline(_raid_plain(state.raid))}")
    out.append(f"ranks = {_inline(state.ranks)}")
    if state.cubes:
        out.append(f"cubes = {_inline(state.cubes)}")
    if state.counters:
        out.append(f"counters = {_inline(state.counters)}")
    if state.lost:
        out.append(f"lost = {basic_string(state.lost)}")
    if state.won:
        out.append(f"won = {basic_string(state.won)}")
    out += _array("piles", _piles_plain(state))
    out += _array("monsters", [_monster(m) for m in state.monsters])
    out += _array("log", [_log_entry(e) for e in state.log])
    if state.events:
        out += _array("events", state.events)
    return "\n".join(out) + "\n"


def _raid_plain(card: RaidCard | None) -> dict[str, object]:
    if card is None:
        return {}
    raid: dict[str, object] = {"card": card.card, "face": card.face, "minions": list(card.minions), "rank": card.rank}
    if card.model_limit is not None:
        raid["model_limit"] = card.model_limit
    return raid


def _piles_plain(state: AdventureState) -> list[dict[str, object]]:
    return [{"id": p.id, "runes": {c: n for c, n in p.runes.items() if n}} for p in state.piles]


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


def _key(key: str) -> str:
    return key if key and all(ch in _BARE for ch in key) else basic_string(key)


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return integer(value)
    if isinstance(value, str):
        return basic_string(value)
    if isinstance(value, Mapping):
        return _inline(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} to adventure.toml")


def _inline(table: Mapping[str, object]) -> str:
    if not table:
        return "{}"
    return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in table.items()) + " }"

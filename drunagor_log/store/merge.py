"""Three-way merge of a campaign's TOML files, value by value: the heart of the campaign-aware git
merge driver (`drunagor git setup`; the driver itself is drunagor_log/interop/mergedriver.py).

Git merges text line by line, so two players who each add a Follower at the end of the same list,
or one who recorded chapters 05 and 06 against one who recorded only 05, get a conflict where the
campaign has none. Here the three versions (base: the last common one; mine: this machine's;
theirs: the one pulled) are compared as TOML values:

- a table (the document, [track], [cards], an inline table) merges key by key: a key one side added,
  changed or removed while the other left it alone takes that side's value, so the Adventure Track
  merges chapter by chapter;
- a list that grows (followers, outcomes, statuses, stash, stored, skills, class_abilities,
  equipment, chest cards, the log) merges as both sides' additions and removals: what both added
  alike is kept once, an entry one side removed goes, an entry of tables named alike on both sides
  (`name`, `item` or `id`) changed on one side takes that change, changed on both merges field by
  field;
- the same value changed two ways (a scalar, two different results for one chapter, one list entry
  changed differently, or changed on one side and removed on the other) is a true conflict.

The result keeps "mine"'s layout and comments (tomlkit, edited in place). A conflict is written as
git's conflict markers around the disputed value's line(s) alone: the merge is rendered twice, once
with every conflict decided for mine and once for theirs, and only the lines where the two differ
go between the markers, so each side of each conflict is a whole, valid choice.

`whole=True` (adventure.toml: the state of the table on one machine) merges nothing value by value:
if both sides changed it, that is one conflict, and a player keeps one table state.

Like store/edit.py this module uses tomlkit's private container API (`_insert_at`, `_insert_after`,
`body`), pinned in pyproject.toml and guarded by the property tests in tests/sync/.
"""

from __future__ import annotations

import difflib
import tomllib
from collections import defaultdict, deque
from dataclasses import dataclass, field
from typing import Any

from .edit import add_key, add_to_table
from .tomltext import basic_string

IDENTITY_KEYS = ("name", "item", "id")  # what names one entry of a list of tables


class _Absent:
    """A key or entry one version does not have."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()


class MergeError(ValueError):
    """A version is not TOML this merge can take apart (the driver falls back to git's line merge)."""


@dataclass(frozen=True)
class Conflict:
    """One value the two sides changed two ways: its key path (a list entry is named by its `name`,
    `item` or `id`), and its value in each version (ABSENT where a version does not have it)."""

    path: tuple
    base: Any
    mine: Any
    theirs: Any


@dataclass(frozen=True)
class Merged:
    text: str
    conflicts: tuple[Conflict, ...] = ()
    markers: bool = False  # the text holds conflict markers (else every conflict was decided by `prefer`)


# ------------------------------------------------------------------------------------ plain values


def canon(value: Any) -> Any:
    """A hashable form of a plain value in which equal TOML values are equal (and 1 != true,
    tables compare without their key order)."""
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, int):
        return ("i", value)
    if isinstance(value, float):
        return ("f", repr(value))
    if isinstance(value, str):
        return ("s", str(value))
    if isinstance(value, dict):
        return ("t", tuple(sorted((str(k), canon(v)) for k, v in value.items())))
    if isinstance(value, (list, tuple)):
        return ("a", tuple(canon(v) for v in value))
    if value is ABSENT:
        return ("-",)
    iso = getattr(value, "isoformat", None)
    return ("d", iso()) if iso else ("o", repr(value))


def plain(item: Any) -> Any:
    """The plain value of a tomlkit item (or of a plain value)."""
    unwrap = getattr(item, "unwrap", None)
    return unwrap() if unwrap is not None else item


def identity(entry: Any) -> Any:
    """What names a list entry across versions: a table's `name`, `item` or `id`; None otherwise."""
    if isinstance(entry, dict):
        for key in IDENTITY_KEYS:
            if key in entry:
                return (key, canon(entry[key]))
    return None


def label(entry: Any) -> Any:
    """A list entry as a conflict's key path names it."""
    if isinstance(entry, dict):
        for key in IDENTITY_KEYS:
            if key in entry:
                return entry[key]
    return entry


def match(base: list, side: list) -> tuple[list[tuple[str, int]], list[int]]:
    """How one side's list relates to the base: for each base entry ("kept", i), ("changed", i)
    (an entry of the same name with other values) or ("removed", -1); and the side's added entries."""
    free: dict[Any, deque[int]] = defaultdict(deque)
    for i, entry in enumerate(side):
        free[canon(entry)].append(i)
    status: list[tuple[str, int] | None] = [None] * len(base)
    for b, entry in enumerate(base):
        queue = free.get(canon(entry))
        if queue:
            status[b] = ("kept", queue.popleft())
    used = {s[1] for s in status if s is not None}
    by_name: dict[Any, deque[int]] = defaultdict(deque)
    for i, entry in enumerate(side):
        if i not in used and identity(entry) is not None:
            by_name[identity(entry)].append(i)
    for b, entry in enumerate(base):
        if status[b] is None:
            queue = by_name.get(identity(entry)) if identity(entry) is not None else None
            status[b] = ("changed", queue.popleft()) if queue else ("removed", -1)
    used = {s[1] for s in status if s is not None}
    return [s for s in status if s is not None], [i for i in range(len(side)) if i not in used]


@dataclass(frozen=True)
class Delta:
    """One difference between two versions of a file's values (for saying what changed): a value
    at `path` from `old` to `new` (ABSENT: added or removed), or entries added to / removed from the
    list at `path`."""

    path: tuple
    old: Any = ABSENT
    new: Any = ABSENT
    added: tuple = ()
    removed: tuple = ()


def changes(old: Any, new: Any, path: tuple = ()) -> list[Delta]:
    """The differences from `old` to `new` (plain values), tables key by key and lists entry by entry."""
    if canon(old) == canon(new):
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        out: list[Delta] = []
        for key in [*old, *(k for k in new if k not in old)]:
            out += changes(old.get(key, ABSENT), new.get(key, ABSENT), path + (key,))
        return out
    if isinstance(old, list) and isinstance(new, list):
        status, added = match(old, new)
        out = [Delta(path + (label(old[b]),), old[b], new[i]) for b, (how, i) in enumerate(status)
               if how == "changed"]
        gone = tuple(old[b] for b, (how, _) in enumerate(status) if how == "removed")
        if added or gone:
            out.append(Delta(path, added=tuple(new[i] for i in added), removed=gone))
        return out
    return [Delta(path, old, new)]


# ------------------------------------------------------------------------------------ the merge


def merge_text(base: str, mine: str, theirs: str, *, whole: bool = False, prefer: str | None = None,
               marker_size: int = 7, labels: tuple[str, str] = ("mine", "theirs")) -> Merged:
    """Merge three versions of one TOML file (base may be "" for a file both sides created).

    `prefer` ("mine" or "theirs") decides every conflict for that side instead of writing markers
    (`drunagor sync --keep`); the conflicts are still returned. Raises MergeError when a version is
    not TOML this merge can take apart."""
    if mine == theirs or base == theirs:
        return Merged(mine)
    if base == mine:
        return Merged(theirs)
    if whole:
        return _merge_whole(base, mine, theirs, prefer, marker_size, labels)
    first = _run(base, mine, theirs, take_theirs=prefer == "theirs")
    if not first.conflicts or prefer:
        return Merged(first.text, tuple(first.conflicts), markers=False)
    other = _run(base, mine, theirs, take_theirs=True)
    text = _with_markers(first.text, other.text, marker_size, labels)
    return Merged(text, tuple(first.conflicts), markers=text != first.text)


def _parse(text: str, which: str):
    import tomlkit

    try:
        tomllib.loads(text)
        return tomlkit.parse(text)
    except Exception as exc:  # noqa: BLE001 (tomllib's and tomlkit's own errors alike)
        raise MergeError(f"{which} is not valid TOML ({exc})") from None


def _run(base: str, mine: str, theirs: str, *, take_theirs: bool) -> _Pass:
    import tomlkit

    b, o, t = _parse(base, "the base"), _parse(mine, "mine"), _parse(theirs, "theirs")
    merge = _Pass(take_theirs)
    try:
        merge.table((), plain(b), o, t)
        merge.text = tomlkit.dumps(o)
    except MergeError:
        raise
    except Exception as exc:  # noqa: BLE001 (a layout tomlkit cannot edit in place: out-of-order tables...)
        raise MergeError(f"cannot merge the values ({type(exc).__name__}: {exc})") from None
    try:
        tomllib.loads(merge.text)
    except tomllib.TOMLDecodeError as exc:
        raise MergeError(f"the merged file would not be valid TOML ({exc})") from None
    return merge


def _merge_whole(base: str, mine: str, theirs: str, prefer: str | None, size: int,
                 labels: tuple[str, str]) -> Merged:
    try:
        same = canon(tomllib.loads(mine)) == canon(tomllib.loads(theirs))
    except tomllib.TOMLDecodeError:
        same = False
    if same:
        return Merged(mine)
    conflict = Conflict((), ABSENT, ABSENT, ABSENT)
    if prefer:
        return Merged(theirs if prefer == "theirs" else mine, (conflict,))
    a, b = mine.splitlines(keepends=True), theirs.splitlines(keepends=True)
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    body = _hunk(a[head:len(a) - tail], b[head:len(b) - tail], size, labels)
    return Merged("".join(a[:head] + body + a[len(a) - tail:]), (conflict,), markers=True)


def _hunk(a: list[str], b: list[str], size: int, labels: tuple[str, str]) -> list[str]:
    def lines(part: list[str]) -> list[str]:
        return [ln if ln.endswith("\n") else ln + "\n" for ln in part]

    return ["<" * size + " " + labels[0] + "\n", *lines(a), "=" * size + "\n", *lines(b),
            ">" * size + " " + labels[1] + "\n"]


def _with_markers(mine: str, theirs: str, size: int, labels: tuple[str, str]) -> str:
    """`mine` with markers around each run of lines where `theirs` differs."""
    a, b = mine.splitlines(keepends=True), theirs.splitlines(keepends=True)
    out: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        out += a[i1:i2] if tag == "equal" else _hunk(a[i1:i2], b[j1:j2], size, labels)
    return "".join(out)


# ---------------------------------------------------------------------------- tomlkit containers


def _is_table(item: Any) -> bool:
    from tomlkit.items import Table

    return isinstance(item, Table)


def _is_inline(item: Any) -> bool:
    from tomlkit.items import InlineTable

    return isinstance(item, InlineTable)


def _is_array(item: Any) -> bool:
    from tomlkit.items import Array

    return isinstance(item, Array)


def _container(parent: Any) -> Any:
    from tomlkit.container import Container

    return parent if isinstance(parent, Container) else parent.value


def _keys(parent: Any) -> list[str]:
    """Keys in file order, read from the container itself (tomlkit's mapping view of a table is not
    updated by an insertion into its container)."""
    seen: list[str] = []
    for key, _ in _container(parent).body:
        if key is not None and key.key not in seen:
            seen.append(key.key)
    return seen


def _key_object(parent: Any, name: str) -> Any:
    """The Key as the file writes it ("05" quoted, a bare word...)."""
    return next(k for k, _ in _container(parent).body if k is not None and k.key == name)


def _text(item: Any) -> str:
    as_string = getattr(item, "as_string", None)
    if as_string is not None:
        return as_string().strip()
    if isinstance(item, bool):
        return "true" if item else "false"
    return basic_string(item) if isinstance(item, str) else str(item)


def _fresh(text: str) -> Any:
    """A new tomlkit value parsed from its TOML text (no trivia of the file it came from)."""
    import tomlkit

    return tomlkit.parse(f"x = {text}\n")["x"]


def _array_of(lines: list[str], multiline: bool) -> Any:
    import tomlkit

    if not lines:
        return tomlkit.array()
    if multiline:
        return _fresh("[\n" + "".join(f"  {line},\n" for line in lines) + "]")
    return _fresh("[" + ", ".join(lines) + "]")


@dataclass
class _Pass:
    """One rendering of the merge, deciding every conflict for mine or for theirs."""

    take_theirs: bool
    conflicts: list[Conflict] = field(default_factory=list)
    text: str = ""

    def conflict(self, path: tuple, base: Any, mine: Any, theirs: Any) -> bool:
        """Record a true conflict; True when this pass takes theirs."""
        self.conflicts.append(Conflict(path, base, mine, theirs))
        return self.take_theirs

    # -- a document or a [table], edited in place
    def table(self, path: tuple, base: Any, ours: Any, theirs: Any) -> None:
        base = base if isinstance(base, dict) else {}
        mine_keys, their_keys = _keys(ours), _keys(theirs)
        for key in mine_keys:
            was = base.get(key, ABSENT)
            if key in their_keys:
                self.key(path + (key,), was, ours, theirs, key)
            elif was is not ABSENT:  # theirs removed it
                now = plain(ours.item(key))
                if canon(was) == canon(now) or self.conflict(path + (key,), was, now, ABSENT):
                    del ours[key]
        only_mine = [k for k in mine_keys if k not in base and k not in their_keys]
        prev = None
        for key in their_keys:
            if key in _keys(ours):
                prev = key
                continue
            was, value = base.get(key, ABSENT), plain(theirs.item(key))
            if was is ABSENT or (canon(was) != canon(value)
                                 and self.conflict(path + (key,), was, ABSENT, value)):
                _insert(ours, prev, only_mine, _key_object(theirs, key), theirs.item(key))
                prev = key

    def key(self, path: tuple, base: Any, ours: Any, theirs: Any, key: str) -> None:
        """One key both sides have, in a table edited in place."""
        mine, their = ours.item(key), theirs.item(key)
        m, t = canon(plain(mine)), canon(plain(their))
        if m == t or canon(base) == t:
            return
        if canon(base) == m:
            ours[key] = their
        elif _is_table(mine) and _is_table(their):
            self.table(path, base, mine, their)
        elif _is_array(mine) and _is_array(their):
            self.array(path, base, ours, key, mine, their)
        elif isinstance(plain(mine), dict) and isinstance(plain(their), dict):
            ours[key] = self.inline(path, base, mine, their)
        elif self.conflict(path, base, plain(mine), plain(their)):
            ours[key] = their

    # -- an inline table: merged key by key, then written anew
    def inline(self, path: tuple, base: Any, mine: Any, their: Any) -> Any:
        base = base if isinstance(base, dict) else {}
        mine_keys, their_keys = _keys(mine), _keys(their)
        entries: list[tuple[str, str]] = []
        for key in mine_keys:
            was, now = base.get(key, ABSENT), mine.item(key)
            if key in their_keys:
                entries.append((_key_object(mine, key).as_string().strip(),
                                _text(self.value(path + (key,), was, now, their.item(key)))))
            elif was is ABSENT or (canon(was) != canon(plain(now))
                                   and not self.conflict(path + (key,), was, plain(now), ABSENT)):
                entries.append((_key_object(mine, key).as_string().strip(), _text(now)))
        for key in their_keys:
            if key in mine_keys:
                continue
            was, value = base.get(key, ABSENT), their.item(key)
            if was is ABSENT or (canon(was) != canon(plain(value))
                                 and self.conflict(path + (key,), was, ABSENT, plain(value))):
                entries.append((_key_object(their, key).as_string().strip(), _text(value)))
        return _fresh("{ " + ", ".join(f"{k} = {v}" for k, v in entries) + " }" if entries else "{}")

    def value(self, path: tuple, base: Any, mine: Any, their: Any) -> Any:
        """The merged value of one key inside an inline table or a list entry (a new item or one side's)."""
        m, t = canon(plain(mine)), canon(plain(their))
        if m == t or canon(base) == t:
            return mine
        if canon(base) == m:
            return their
        if isinstance(plain(mine), dict) and isinstance(plain(their), dict):
            return self.inline(path, base, mine, their)
        if _is_array(mine) and _is_array(their):
            final = self.plan(path, base if isinstance(base, list) else [], mine, their)
            return _array_of([_text(item) for _, _, item in final], multiline=False)
        return their if self.conflict(path, base, plain(mine), plain(their)) else mine

    # -- a list
    def array(self, path: tuple, base: Any, ours: Any, key: str, mine: Any, their: Any) -> None:
        final = self.plan(path, base if isinstance(base, list) else [], mine, their)
        multiline = "\n" in mine.as_string()
        if multiline and any(src == "o" for src, _, _ in final):
            kept = {i for src, i, _ in final if src == "o"}
            for src, i, item in final:
                if src == "o" and item is not mine[i]:
                    mine[i] = _fresh(_text(item))
            for i in sorted(set(range(len(mine))) - kept, reverse=True):
                del mine[i]
            for pos, (src, _, item) in enumerate(final):
                if src == "t":
                    mine.insert(pos, _fresh(_text(item)))
            return
        lines = [_text(item) for _, _, item in final]  # one entry a line from two on, as drunagor writes lists
        ours[key] = _array_of(lines, multiline=multiline or "\n" in their.as_string() or len(lines) > 1)

    def plan(self, path: tuple, base: list, mine: Any, their: Any) -> list[tuple[str, int, Any]]:
        """The merged list as ("o", index in mine, item) and ("t", index in theirs, item) entries, in order."""
        lists = _Lists(mine, their)
        ours_status, ours_added = match(base, lists.o)
        their_status, their_added = match(base, lists.t)
        for b, (ours, theirs) in enumerate(zip(ours_status, their_status)):
            self._base_entry(path + (label(base[b]),), base[b], ours, theirs, lists)
        self._additions(path, ours_added, their_added, lists)
        return lists.ordered(set(ours_added) - set(lists.partner.values()))

    def _base_entry(self, where: tuple, was: Any, ours: tuple[str, int], theirs: tuple[str, int],
                    lists: _Lists) -> None:
        """One entry of the base list, as each side kept, changed or removed it."""
        (how_o, i), (how_t, j) = ours, theirs
        if i >= 0 and j >= 0:
            lists.partner[j] = i
        if how_o == "kept":
            if how_t == "removed":
                del lists.take[i]
            elif how_t == "changed":
                lists.take[i] = lists.their[j]
        elif how_o == "removed":
            if how_t == "changed" and self.conflict(where, was, ABSENT, lists.t[j]):
                lists.insert.append(j)
        elif how_t == "removed":  # mine changed it, theirs removed it
            if self.conflict(where, was, lists.o[i], ABSENT):
                del lists.take[i]
        elif how_t == "changed" and canon(lists.o[i]) != canon(lists.t[j]):
            lists.take[i] = self._both_changed(where, was, i, j, lists)

    def _both_changed(self, where: tuple, was: Any, i: int, j: int, lists: _Lists) -> Any:
        if isinstance(lists.o[i], dict) and isinstance(lists.t[j], dict):
            return self.inline(where, was, lists.mine[i], lists.their[j])
        return lists.their[j] if self.conflict(where, was, lists.o[i], lists.t[j]) else lists.take[i]

    def _additions(self, path: tuple, ours_added: list[int], their_added: list[int], lists: _Lists) -> None:
        """Entries both sides added: alike, kept once; named alike with other values, a conflict."""
        o, t = lists.o, lists.t
        pool: dict[Any, deque[int]] = defaultdict(deque)
        for i in ours_added:
            pool[canon(o[i])].append(i)
        rest = []
        for j in their_added:
            queue = pool.get(canon(t[j]))
            if queue:
                lists.partner[j] = queue.popleft()
            else:
                rest.append(j)
        named = {identity(o[i]): i for q in pool.values() for i in q if identity(o[i]) is not None}
        for j in rest:
            mate = named.pop(identity(t[j]), -1) if identity(t[j]) is not None else -1
            if mate < 0:
                lists.insert.append(j)
                continue
            i = lists.partner[j] = mate
            if self.conflict(path + (label(t[j]),), ABSENT, o[i], t[j]):
                lists.take[i] = lists.their[j]


class _Lists:
    """One list being merged: mine's and theirs' items and plain values, and the decisions so far."""

    def __init__(self, mine: Any, their: Any):
        self.mine, self.their = mine, their
        self.o, self.t = [plain(x) for x in mine], [plain(x) for x in their]
        self.take: dict[int, Any] = {i: mine[i] for i in range(len(self.o))}  # mine's entries that stay, their values
        self.insert: list[int] = []  # theirs' entries to insert
        self.partner: dict[int, int] = {}  # theirs' index -> mine's, for entries both have

    def ordered(self, only_mine: set[int]) -> list[tuple[str, int, Any]]:
        """Mine's entries in mine's order; each of theirs to insert after the entry theirs has before it."""
        final: list[tuple[str, int, Any]] = [("o", i, self.take[i]) for i in range(len(self.o)) if i in self.take]
        for j in sorted(self.insert):
            where = [(s, x) for s, x, _ in final]
            refs = [("o", self.partner[k]) if k in self.partner else ("t", k) for k in range(j - 1, -1, -1)]
            ref = next((r for r in refs if r in where), None)
            pos = 0 if ref is None else 1 + where.index(ref)
            while pos < len(final) and final[pos][0] == "o" and final[pos][1] in only_mine:
                pos += 1  # after mine's own additions there: mine's first, then theirs
            final.insert(pos, ("t", j, self.their[j]))
        return final


def _insert(ours: Any, prev: str | None, only_mine: list[str], key: Any, item: Any) -> None:
    """Put theirs' new key into mine's table: after the key theirs has before it (and after mine's
    own additions there), a plain value never after a [table] header."""
    from tomlkit.items import AoT, Table

    container = _container(ours)
    order = _keys(ours)
    anchor = prev
    while anchor is not None and order.index(anchor) + 1 < len(order) and order[order.index(anchor) + 1] in only_mine:
        anchor = order[order.index(anchor) + 1]
    is_table = isinstance(item, (Table, AoT))
    if not is_table and "\n" not in item.trivia.trail:
        item.trivia.trail = "\n"
    if anchor is not None:
        after_table = isinstance(container.item(anchor), (Table, AoT))
        if is_table == after_table:
            container._insert_after(anchor, key, item)
            return
    if is_table:
        container.append(key, item)
    elif anchor is None and order:
        first = next(i for i, (k, _) in enumerate(container.body) if k is not None)
        container._insert_at(first, key, item)
    elif _is_table(ours):
        add_to_table(ours, key, item)
    else:
        add_key(container, key, item)

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

The cost grows linearly with the files (a merged version may come from a stranger): each version
is parsed once (tomlkit for mine and theirs, copied for a second pass; tomllib for the base), keys
and list entries are found through dicts, theirs' new keys are spliced into a table in one pass
(store/tomlsplice.py), a list's merged order is a linked list, and the markers go around a bounded
diff (store/markers.py).
tomlkit itself parses about ten microseconds a byte, so a version over VALUE_MERGE_BYTES is left to
git's line merge by the driver.

tomlkit is reached through store/tomlkit_adapter.py (its private container API included), and this
merge is guarded by the property tests in tests/sync/.
"""

from __future__ import annotations

import tomllib
from collections import defaultdict, deque
from dataclasses import dataclass, field
from typing import Any

from . import markers
from . import tomlkit_adapter as tk
from .tomlsplice import Body, key_spellings, keys_in_order
from .tomltext import basic_string

IDENTITY_KEYS = ("name", "item", "id")  # what names one entry of a list of tables
# tomlkit, which keeps a file's layout, parses about ten microseconds a byte: a version larger than
# this (no campaign file comes near it; a Story Record is ~2 KB) is merged line by line, as git does.
VALUE_MERGE_BYTES = 64 * 1024
LIMIT_RULES = ("file", "file-size", "limits")  # the store's refusals of a file's size and shape
# A multi-line list keeps its layout and comments when the merge adds or removes at most this many
# entries (tomlkit re-indexes the whole list at each one); beyond, it is written anew, one entry a line.
IN_PLACE_EDITS = 64


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
    docs = _parse(base, mine, theirs)
    first = _run(*docs, take_theirs=prefer == "theirs", keep=not prefer)
    if not first.conflicts or prefer:
        return Merged(first.text, tuple(first.conflicts), markers=False)
    other = _run(*docs, take_theirs=True, keep=False)
    text = markers.around_differences(first.text, other.text, marker_size, labels)
    return Merged(text, tuple(first.conflicts), markers=text != first.text)


def _parse(base: str, mine: str, theirs: str) -> tuple[Any, Any, Any]:
    """The base as plain values (tomllib), mine and theirs as tomlkit documents: tomlkit's parser
    costs about ten microseconds a byte, so each version is parsed once, whatever the passes."""
    docs = []
    for text, which in ((base, "the base"), (mine, "mine"), (theirs, "theirs")):
        try:
            values = tomllib.loads(text)
            docs.append(values if which == "the base" else tk.parse(text))
        except Exception as exc:  # noqa: BLE001 (tomllib's and tomlkit's own errors alike)
            raise MergeError(f"{which} is not valid TOML ({exc})") from None
    return docs[0], docs[1], docs[2]


def _run(base: dict, mine: Any, theirs: Any, *, take_theirs: bool, keep: bool) -> _Pass:
    """One pass over copies of the documents (a pass edits mine in place and moves theirs' items
    into it), unless `keep` says no later pass needs them."""
    import copy

    o, t = (mine, theirs) if not keep else (copy.deepcopy(mine), copy.deepcopy(theirs))
    merge = _Pass(take_theirs)
    try:
        merge.table((), base, o, t)
        merge.text = tk.dumps(o)
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
    except ValueError:  # TOMLDecodeError, and a number past Python's 4,300 digits
        same = False
    if same:
        return Merged(mine)
    conflict = Conflict((), ABSENT, ABSENT, ABSENT)
    if prefer:
        return Merged(theirs if prefer == "theirs" else mine, (conflict,))
    return Merged(markers.one_conflict(mine, theirs, size, labels), (conflict,), markers=True)


# ---------------------------------------------------------------------------- tomlkit containers


_is_table, _is_array = tk.is_table, tk.is_array


def _text(item: Any) -> str:
    as_string = getattr(item, "as_string", None)
    if as_string is not None:
        return as_string().strip()
    if isinstance(item, bool):
        return "true" if item else "false"
    return basic_string(item) if isinstance(item, str) else str(item)


def _fresh(text: str) -> Any:
    """A new tomlkit value parsed from its TOML text (no trivia of the file it came from)."""
    return tk.value(text)


def _array_of(lines: list[str], multiline: bool) -> Any:
    if not lines:
        return tk.array()
    if multiline:
        return _fresh("[\n" + "".join(f"  {line},\n" for line in lines) + "]")
    return _fresh("[" + ", ".join(lines) + "]")


@dataclass
class _Pass:
    """One rendering of the merge, deciding every conflict for mine or for theirs."""

    take_theirs: bool
    conflicts: list[Conflict] = field(default_factory=list)
    text: str = ""
    bodies: dict[int, Body] = field(default_factory=dict)  # the tables being merged, by id

    def conflict(self, path: tuple, base: Any, mine: Any, theirs: Any) -> bool:
        """Record a true conflict; True when this pass takes theirs."""
        self.conflicts.append(Conflict(path, base, mine, theirs))
        return self.take_theirs

    # -- a document or a [table], edited in place
    def table(self, path: tuple, base: Any, ours: Any, theirs: Any) -> None:
        base = base if isinstance(base, dict) else {}
        mine_keys, their_keys = keys_in_order(ours), keys_in_order(theirs)
        theirs_have = set(their_keys)
        body = self.bodies[id(ours)] = Body(ours)
        for key in mine_keys:
            was = base.get(key, ABSENT)
            if key in theirs_have:
                self.key(path + (key,), was, ours, theirs, key)
            elif was is not ABSENT:  # theirs removed it
                now = plain(ours.item(key))
                if canon(was) == canon(now) or self.conflict(path + (key,), was, now, ABSENT):
                    body.remove(key)
        only_mine = {k for k in mine_keys if k not in base and k not in theirs_have}
        present = set(keys_in_order(ours)) | set(body.new_keys())
        spelled = key_spellings(theirs)
        prev = None
        for key in their_keys:
            if key in present:
                prev = key
                continue
            was, value = base.get(key, ABSENT), plain(theirs.item(key))
            if was is ABSENT or (canon(was) != canon(value)
                                 and self.conflict(path + (key,), was, ABSENT, value)):
                body.insert(prev, only_mine, spelled[key], theirs.item(key))
                prev = key
        del self.bodies[id(ours)]
        body.apply()

    def put(self, ours: Any, key: str, value: Any) -> None:
        """`ours[key] = value` for a key mine has, in place: tomlkit's own assignment looks the key
        up in a scan of the table, and moves it when a table replaces a value or back."""
        body = self.bodies.get(id(ours))
        index = tk.index_of(ours, key)
        if body is None or not isinstance(index, int):
            ours[key] = value  # an out-of-order table: tomlkit's own way
            return
        if tk.is_table_or_aot(tk.body(ours)[index][1]) == tk.is_table_or_aot(value):
            tk.replace(ours, key, value)
            return
        body.insert(body.remove(key), set(), tk.bare_key(key), value)

    def key(self, path: tuple, base: Any, ours: Any, theirs: Any, key: str) -> None:
        """One key both sides have, in a table edited in place."""
        mine, their = ours.item(key), theirs.item(key)
        m, t = canon(plain(mine)), canon(plain(their))
        if m == t or canon(base) == t:
            return
        if canon(base) == m:
            self.put(ours, key, their)
        elif _is_table(mine) and _is_table(their):
            self.table(path, base, mine, their)
        elif _is_array(mine) and _is_array(their):
            self.array(path, base, ours, key, mine, their)
        elif isinstance(plain(mine), dict) and isinstance(plain(their), dict):
            self.put(ours, key, self.inline(path, base, mine, their))
        elif self.conflict(path, base, plain(mine), plain(their)):
            self.put(ours, key, their)

    # -- an inline table: merged key by key, then written anew
    def inline(self, path: tuple, base: Any, mine: Any, their: Any) -> Any:
        base = base if isinstance(base, dict) else {}
        mine_keys, their_keys = keys_in_order(mine), keys_in_order(their)
        mine_have, spelled, their_spelled = set(mine_keys), key_spellings(mine), key_spellings(their)
        their_have = set(their_keys)
        entries: list[tuple[str, str]] = []
        for key in mine_keys:
            was, now = base.get(key, ABSENT), mine.item(key)
            if key in their_have:
                entries.append((spelled[key].as_string().strip(),
                                _text(self.value(path + (key,), was, now, their.item(key)))))
            elif was is ABSENT or (canon(was) != canon(plain(now))
                                   and not self.conflict(path + (key,), was, plain(now), ABSENT)):
                entries.append((spelled[key].as_string().strip(), _text(now)))
        for key in their_keys:
            if key in mine_have:
                continue
            was, value = base.get(key, ABSENT), their.item(key)
            if was is ABSENT or (canon(was) != canon(plain(value))
                                 and self.conflict(path + (key,), was, ABSENT, plain(value))):
                entries.append((their_spelled[key].as_string().strip(), _text(value)))
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
        kept = {i for src, i, _ in final if src == "o"}
        edits = len(mine) - len(kept) + len(final) - len(kept)
        if multiline and kept and edits <= IN_PLACE_EDITS:
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
        self.put(ours, key, _array_of(lines, multiline=multiline or "\n" in their.as_string() or len(lines) > 1))

    def plan(self, path: tuple, base: list, mine: Any, their: Any) -> list[tuple[str, int, Any]]:
        """The merged list as ("o", index in mine, item) and ("t", index in theirs, item) entries, in order."""
        lists = _Lists(mine, their)
        ours_status, ours_added = match(base, lists.o)
        their_status, their_added = match(base, lists.t)
        for b, (ours, theirs) in enumerate(zip(ours_status, their_status, strict=False)):
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
        """Mine's entries in mine's order; each of theirs to insert after the entry theirs has before it
        (the nearest one the merged list holds), then after mine's own additions there. A linked
        list, so that the cost stays linear in the list's length."""
        head: tuple[str, int] = ("^", -1)
        nxt: dict[tuple[str, int], tuple[str, int] | None] = {}
        prev = head
        for i in range(len(self.o)):
            if i in self.take:
                nxt[prev] = prev = ("o", i)
        nxt[prev] = None
        inserting = set(self.insert)
        ref = head
        for k in range(len(self.t)):
            if k in inserting:
                at = ref
                while (following := nxt[at]) is not None and following[0] == "o" and following[1] in only_mine:
                    at = following  # after mine's own additions there: mine's first, then theirs
                nxt[("t", k)], nxt[at] = nxt[at], ("t", k)
                ref = ("t", k)
            elif k in self.partner and self.partner[k] in self.take:
                ref = ("o", self.partner[k])
        final: list[tuple[str, int, Any]] = []
        node = nxt[head]
        while node is not None:
            final.append((node[0], node[1], self.take[node[1]] if node[0] == "o" else self.their[node[1]]))
            node = nxt[node]
        return final

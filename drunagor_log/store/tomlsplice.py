"""tomlkit containers edited in bulk, for the three-way merge (store/merge.py): a table's keys in
file order, and `Body`, a table's entries as linked lists into which the other side's new keys are
spliced in one pass.

tomlkit's own insertion (`_insert_at`, `append`) re-indexes the whole container at each key, which
made a merge of tables with thousands of keys quadratic. The container's body is rebuilt once, through
store/tomlkit_adapter.py (`set_body`: the one module that touches tomlkit's private names), and
guarded by the property tests in tests/sync/.
"""

from __future__ import annotations

from typing import Any

from . import tomlkit_adapter as tk
from .tomlkit_adapter import container_of


def keys_in_order(parent: Any) -> list[str]:
    """Keys in file order, read from the container itself (tomlkit's mapping view of a table is not
    updated by an insertion into its container)."""
    return list(dict.fromkeys(key.key for key, _ in container_of(parent).body if key is not None))


def key_spellings(parent: Any) -> dict[str, Any]:
    """Each key's Key as the file writes it ("05" quoted, a bare word...), its first occurrence."""
    found: dict[str, Any] = {}
    for key, _ in container_of(parent).body:
        if key is not None:
            found.setdefault(key.key, key)
    return found


class Body:
    """The entries of one of mine's tables (or the document) in file order, as a linked list, with
    theirs' new keys spliced in once, at the end of the table's merge: tomlkit's own insertion
    re-indexes the whole container at each key, which made a merge quadratic in a table's keys.
    Beside the entries, the keys alone in file order (a second linked list), so that finding the key
    after or before another never walks over the comments and blank lines between them. Where each
    key goes follows tomlkit's own rules (`_insert_after`, `append`, a plain value never after a
    [table] header), trivia included."""

    HEAD = -1

    def __init__(self, ours: Any):
        self.ours, self.container = ours, container_of(ours)
        n = len(self.container.body)
        self.nxt: dict[int, int | None] = {i: i + 1 for i in range(-1, n - 1)}
        self.nxt[n - 1] = None
        self.prv: dict[int, int] = {i: i - 1 for i in range(n)}
        self.tail = n - 1
        self.new: dict[int, tuple[Any, Any]] = {}  # node -> (Key, item) of a spliced entry
        self.node_of = {k.key: i for i, (k, _) in enumerate(self.container.body) if k is not None}
        keys: list[str | None] = list(keys_in_order(ours))
        self.knext: dict[str | None, str | None] = dict(zip([None, *keys], [*keys, None], strict=False))
        self.kprev: dict[str | None, str | None] = dict(zip(keys, [None, *keys], strict=False))
        self.ktail = keys[-1] if keys else None
        self.first_table = self._table_from(self.knext[None])

    def new_keys(self) -> list[str]:
        return [k.key for k, _ in self.new.values()]

    def entry(self, node: int) -> tuple[Any, Any]:
        return self.new[node] if node in self.new else self.container.body[node]

    def _is_table(self, key: str) -> bool:
        return tk.is_table_or_aot(self.entry(self.node_of[key])[1])

    def _table_from(self, key: str | None) -> str | None:
        """The first key from `key` on (in file order) that is a [table]."""
        while key is not None and not self._is_table(key):
            key = self.knext[key]
        return key

    def _walk(self, node: int | None, step: dict) -> Any:
        while node is not None and node != self.HEAD:
            yield node
            node = step.get(node)

    def link(self, after: int, key_after: str | None, key: Any, item: Any) -> None:
        """Splice (key, item) in after the entry `after` and, in key order, after `key_after`."""
        node = len(self.container.body) + len(self.new)
        self.new[node] = (key, item)
        following = self.nxt[after]
        self.nxt[after], self.nxt[node], self.prv[node] = node, following, after
        if following is None:
            self.tail = node
        else:
            self.prv[following] = node
        self.node_of[key.key] = node
        name, then = key.key, self.knext[key_after]
        self.knext[key_after], self.knext[name], self.kprev[name] = name, then, key_after
        if then is None:
            self.ktail = name
        else:
            self.kprev[then] = name

    def remove(self, key: str) -> str | None:
        """Remove mine's entry (theirs of another kind may take its place); the key before it."""
        node = self.node_of.pop(key)
        del self.ours[key]
        before, after = self.prv.pop(node), self.nxt.pop(node)
        self.nxt[before] = after  # out of the list, so that no walk passes it again
        if after is None:
            self.tail = before
        else:
            self.prv[after] = before
        kbefore, kafter = self.kprev.pop(key), self.knext.pop(key)
        self.knext[kbefore] = kafter
        if kafter is None:
            self.ktail = kbefore
        else:
            self.kprev[kafter] = kbefore
        if key == self.first_table:
            self.first_table = self._table_from(kafter)
        return kbefore

    def insert(self, prev: str | None, only_mine: set[str], key: Any, item: Any) -> None:
        """Theirs' new key: after the key theirs has before it (and after mine's own additions
        there), a plain value never after a [table] header."""
        anchor = prev
        while anchor is not None and self.knext[anchor] in only_mine:
            anchor = self.knext[anchor]
        is_table = tk.is_table_or_aot(item)
        if not is_table and "\n" not in item.trivia.trail:
            item.trivia.trail = "\n"
        if anchor is not None and is_table == self._is_table(anchor):
            end_line(self.entry(self.node_of[anchor])[1])
            self.link(self.node_of[anchor], anchor, key, item)
        elif is_table:
            self._append_table(key, item)
        elif anchor is None and self.knext[None] is not None:
            self._before(self.node_of[str(self.knext[None])], key, item)
        else:
            self._before_tables(key, item)

    def _append_table(self, key: Any, item: Any) -> None:
        """As tomlkit appends a table: set off by a blank line unless the entry before ends with one."""
        last = next((self.entry(n)[1] for n in self._walk(self.tail, self.prv)
                     if not tk.is_null(self.entry(n)[1])), None)
        if (last is not None and not (item.trivia.indent or tk.is_whitespace(last) or tk.ends_with_whitespace(last))
                and not key.is_dotted()):
            item.trivia.indent = "\n"
        self.link(self.tail, self.ktail, key, item)
        if self.first_table is None:
            self.first_table = key.key

    def _before(self, node: int, key: Any, item: Any) -> None:
        """Before the first key, as tomlkit's `_insert_at`: the entry before ends its line."""
        before = self.prv[node]
        if before != self.HEAD:
            previous = self.entry(before)[1]
            if not (tk.is_whitespace(previous) or tk.ends_with_whitespace(previous)
                    or tk.is_table_or_aot(item) or "\n" in previous.trivia.trail):
                previous.trivia.trail += "\n"
        self.link(before, None, key, item)

    def _before_tables(self, key: Any, item: Any) -> None:
        """A plain value after the table's (or the document's) last plain value: before its first
        [table], and before the blank lines that set that table off (or that end a table)."""
        table = self.first_table
        at = self.tail if table is None else self.prv[self.node_of[table]]
        while at != self.HEAD and self.entry(at)[0] is None and tk.is_whitespace(self.entry(at)[1]):
            at = self.prv[at]
        if at != self.HEAD:
            end_line(self.entry(at)[1])
        self.link(at, self.ktail if table is None else self.kprev[table], key, item)

    def apply(self) -> None:
        """Write the spliced entries into the container (its body, key index and mapping view)."""
        if not self.new:
            return
        container = self.container
        tk.set_body(container, [self.entry(n) for n in self._walk(self.nxt[self.HEAD], self.nxt)])
        for k, v in self.new.values():
            dict.__setitem__(container, k.key, v.value)
            if self.ours is not container:
                dict.__setitem__(self.ours, k.key, v)


def end_line(item: Any) -> None:
    if "\n" not in item.trivia.trail:
        item.trivia.trail += "\n"

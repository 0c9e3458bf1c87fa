"""The one door to tomlkit: every use of tomlkit in the package goes through this module.

tomlkit keeps a file's comments, key order and blank lines (STYLE.md: parse, mutate in place, write
back), but its public API cannot say where a new key goes (before a table's closing blank line, after
a given key, in chapter order) nor splice many keys into a table in one pass. For that drunagor uses a
few of tomlkit's private names: a container's `_insert_at`, `_map`, `_body`, `_table_keys`,
`_replace`, and the classes of `tomlkit.items` and `tomlkit.container`. They live here and nowhere
else (tests/store/test_tomlkit_adapter.py holds that no other module names them), each with the
behaviour drunagor relies on written down and tested on the tomlkit installed, so a tomlkit release
that moves them is one edit here, not a hunt through the store.

Tested on tomlkit 0.13.3 (the oldest pyproject.toml allows) and 0.15.3. What differs between them and
is absorbed here: 0.14 removed `Container._insert_after` (`insert_after` below does what it did, on
`_insert_at`), and 0.15 keeps two more indexes of a container (`_validation_cache`,
`_out_of_order_keys`) that `set_body` keeps true.

tomlkit is imported inside the functions: reading commands never load it (about 20 ms).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# ------------------------------------------------------------------------------ the public API


def parse(text: str) -> Any:
    """A tomlkit document of `text` (tomlkit's own errors raised as they are)."""
    import tomlkit

    return tomlkit.parse(text)


def dumps(doc: Any) -> str:
    import tomlkit

    return tomlkit.dumps(doc)


def document() -> Any:
    import tomlkit

    return tomlkit.document()


def table() -> Any:
    import tomlkit

    return tomlkit.table()


def array() -> Any:
    """An empty array, written `[]`."""
    import tomlkit

    return tomlkit.array()


def nl() -> Any:
    """A blank line, for the end of a table."""
    import tomlkit

    return tomlkit.nl()


def value(text: str) -> Any:
    """A new item parsed from its TOML text (`"Nyx"`, `[1, 2]`, `{ a = 1 }`), with no trivia of a
    file. The trailing newline matters when the item goes into a [table]: without it tomlkit would eat
    the blank line after it."""
    return parse(f"x = {text}\n")["x"]


# ------------------------------------------------------------------------------ a file to edit

#: A comment longer than this is kept out of tomlkit's sight while a file is edited (`editable`).
LONG_COMMENT = 80

# The tokens of TOML text that may hold a `#` or a quote: strings (multi-line first; the closing quotes
# of a multi-line one may follow two of its own) and long comments. tomllib has read the file: it is valid.
_TOKENS = (r'"""(?:\\[\s\S]|[^\\])*?"""(?:""?)?'
           r"|'''[\s\S]*?'''(?:''?)?"
           r'|"(?:\\.|[^"\\\n])*"'
           r"|'[^'\n]*'"
           rf"|#[^\r\n]{{{LONG_COMMENT},}}")


def editable(text: str) -> tuple[Any, Callable[[str], str]]:
    """The tomlkit document of a campaign file to edit, and the function that turns `dumps` of it back
    into the file's text. tomlkit reads a comment at some microseconds a character (a 1 MB comment
    line: 2 s of CPU, 8 s under load) though drunagor never looks into one: each comment longer than
    LONG_COMMENT is swapped for a short stand-in before tomlkit reads the text, and put back, byte for
    byte, in the text written. Finding them is one pass of a regular expression (linear, in C)."""
    import re
    import secrets

    if "#" not in text:
        return parse(text), _same
    tag = secrets.token_hex(8)
    while tag in text:  # never a stand-in the file itself holds
        tag = secrets.token_hex(8)
    hidden: list[str] = []

    def stand_in(m: re.Match[str]) -> str:
        token = m.group(0)
        if token[0] != "#":
            return token
        hidden.append(token)
        return f"#{tag}:{len(hidden) - 1}"

    short = re.sub(_TOKENS, stand_in, text)
    if not hidden:
        return parse(text), _same
    back = re.compile(rf"#{tag}:([0-9]+)")
    return parse(short), lambda out: back.sub(lambda m: hidden[int(m.group(1))], out)


def _same(out: str) -> str:
    return out


# ------------------------------------------------------------------------------ what an item is


def is_table(item: Any) -> bool:
    """A [table] (or a super-table) of a document; not an inline table."""
    from tomlkit.items import Table

    return isinstance(item, Table)


def is_table_or_aot(item: Any) -> bool:
    """A [table] or an [[array of tables]]: what renders as a header."""
    from tomlkit.items import AoT, Table

    return isinstance(item, (Table, AoT))


def is_array(item: Any) -> bool:
    from tomlkit.items import Array

    return isinstance(item, Array)


def is_whitespace(item: Any) -> bool:
    """Blank lines (and the spaces between entries) of a container's body."""
    from tomlkit.items import Whitespace

    return isinstance(item, Whitespace)


def is_null(item: Any) -> bool:
    """What tomlkit leaves in a body where an entry was removed."""
    from tomlkit.items import Null

    return isinstance(item, Null)


def ends_with_whitespace(item: Any) -> bool:
    """A table whose last entry is blank lines (tomlkit's own test before it adds one)."""
    from tomlkit.container import ends_with_whitespace as ends

    return bool(ends(item))


def quoted_key(name: str) -> Any:
    """The key `"name"`, quoted as the Adventure Track writes its chapters ("05")."""
    from tomlkit.items import KeyType, SingleKey

    return SingleKey(name, t=KeyType.Basic)


def bare_key(name: str) -> Any:
    from tomlkit.items import SingleKey

    return SingleKey(name)


# ------------------------------------------------------------------------------ a container's body


def container_of(parent: Any) -> Any:
    """The container of a document (itself) or of a [table] (its `value`)."""
    from tomlkit.container import Container

    return parent if isinstance(parent, Container) else parent.value


def is_document(container: Any) -> bool:
    """A whole document (or a [table]'s own container), as opposed to a [table] item."""
    from tomlkit.container import Container

    return isinstance(container, Container)


def body(parent: Any) -> list[tuple[Any, Any]]:
    """The entries of a document or table in file order: (Key or None, item), blank lines and
    comments included (the key of those is None). The list itself: do not change it here."""
    return container_of(parent).body


def index_of(parent: Any, key: str) -> int | tuple[int, ...] | None:
    """Where `key` stands in the body (a tuple for a table written in several places)."""
    return container_of(parent)._map.get(key)


def insert_at(parent: Any, index: int, key: Any, item: Any) -> None:
    """Insert `key = item` before the body's entry `index` (index < len(body)); the entry before it
    gets the end of line it lacks, as tomlkit's own insertion does."""
    import tomlkit

    item = tomlkit.item(item)  # a plain value too (an Item is returned as it is)
    container = container_of(parent)
    container._insert_at(index, key, item)
    if parent is not container:
        dict.__setitem__(parent, key if isinstance(key, str) else key.key, item)


def insert_after(parent: Any, prev: str, key: Any, item: Any) -> None:
    """Insert `key = item` right after the entry of `prev` (its last place, for a table written in
    several), whose line is ended first: what tomlkit 0.13's `_insert_after` did."""
    import tomlkit

    item = tomlkit.item(item)  # a plain value too (an Item is returned as it is)
    container = container_of(parent)
    at = container._map[prev]
    at = max(at) if isinstance(at, tuple) else at
    before = container.body[at][1]
    if "\n" not in before.trivia.trail:
        before.trivia.trail += "\n"
    if at + 1 < len(container.body):
        insert_at(parent, at + 1, key, item)
        return
    if not hasattr(key, "key"):
        key = bare_key(key)
    set_body(container, [*container.body, (key, item)])
    dict.__setitem__(container, key.key, item.value)
    if parent is not container:
        dict.__setitem__(parent, key.key, item)


def replace(parent: Any, key: str, item: Any) -> None:
    """Replace the entry of `key` by `item` in its place (its trivia taken from the old one):
    tomlkit's own assignment scans the table for the key and moves it when a table replaces a value."""
    container = container_of(parent)
    container._replace(key, key, item)
    if parent is not container:
        dict.__setitem__(parent, key, item)


def set_body(container: Any, entries: list[tuple[Any, Any]]) -> None:
    """Make `entries` the container's body, its indexes rebuilt in one pass (key -> place, the table
    keys, and 0.15's out-of-order keys and validation cache): tomlkit's own insertion re-indexes the
    whole container at each key, which made a merge of large tables quadratic. The mapping view of the
    new keys is the caller's (it knows which are new)."""
    index: dict[Any, Any] = {}
    tables = []
    for i, (k, v) in enumerate(entries):
        if k is None:
            continue
        had = index.get(k)
        index[k] = i if had is None else (*(had if isinstance(had, tuple) else (had,)), i)
        if v.is_table():
            tables.append(k)
    container._body = entries
    container._map = index
    container._table_keys = tables
    if hasattr(container, "_validation_cache"):  # tomlkit 0.15
        container._validation_cache.clear()
    if hasattr(container, "_out_of_order_keys"):  # tomlkit 0.15
        container._out_of_order_keys = {k for k, v in index.items() if isinstance(v, tuple)}

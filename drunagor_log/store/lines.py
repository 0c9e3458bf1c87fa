"""The key -> line lookup: the line of a key path in a TOML file's text, without a second parser, so
that every message can say FILE:LINE (tomllib gives plain values, no positions).
"""

from __future__ import annotations

import bisect
import functools
import re
from typing import Any

_HEADER = re.compile(r"^\s*\[\[?[^\[\]=]+\]\]?\s*(#.*)?$")
_OPENS_ARRAY = re.compile(r"\[\s*(#.*)?$")


def line_of(text: str, key_path: tuple) -> int | None:
    """Best-effort line of a key path like ("rules", "max_heroes") or ("skills", 2, "level"): table
    headers ([rules], [[skills]]) narrow the search; an index picks the entry of a multi-line array
    (one entry a line, as drunagor writes them). None when the key is not in the file.

    Each text is split, and each pattern matched over it, once (cached by the text: a str keeps its
    hash), so that the lines of every finding of a file cost in proportion to the file, not to the
    file times its findings (`check` on a log of 9,999 statuses)."""
    lines = _lines(text)
    path = list(key_path)
    if not path or not isinstance(path[0], str):
        return None
    start, end = 0, len(lines)
    table = _innermost_table(text, path)
    if table is not None:
        hit, consumed = table
        start = hit + 1
        headers = _headers(text)
        after = bisect.bisect_left(headers, start)
        end = headers[after] if after < len(headers) else len(lines)
        path = path[consumed:]
        if not path:
            return hit + 1
    key = path[0]
    if not isinstance(key, str):
        return start or None
    found = _key_line(text, start, end, key, path[1] if len(path) > 1 else None)
    return found if found is not None else start or None


@functools.lru_cache(maxsize=16)
def _lines(text: str) -> tuple[str, ...]:
    return tuple(text.splitlines())


@functools.lru_cache(maxsize=16)
def _headers(text: str) -> tuple[int, ...]:
    """The indexes of the table header lines, in order."""
    return tuple(i for i, line in enumerate(_lines(text)) if _HEADER.match(line))


@functools.lru_cache(maxsize=256)
def _matching(text: str, pattern: str) -> tuple[int, ...]:
    """The indexes of the lines `pattern` matches (at their start), in order."""
    rx = re.compile(pattern)
    return tuple(i for i, line in enumerate(_lines(text)) if rx.match(line))


def _innermost_table(text: str, path: list) -> tuple[int, int] | None:
    """The index of the line of the deepest table header ([a.b] or [[a.b]]) naming the leading keys
    of `path`, and how many parts of the path it stands for; None when no header names them."""
    names = []
    for k in path:
        if not isinstance(k, str):
            break
        names.append(k)
    for depth in range(len(names), 0, -1):
        header = r"\s*\.\s*".join(_key_pattern(n) for n in names[:depth])
        found = _array_table_header(text, header, path, depth)
        if found is not None:
            return found
        hits = _matching(text, r"^\s*\[\s*" + header + r"\s*\]")
        if hits:
            return hits[0], depth
    return None


def _array_table_header(text: str, header: str, path: list, depth: int) -> tuple[int, int] | None:
    """An array of tables: [[skills]] ... the index after the names picks one (the first without)."""
    hits = _matching(text, r"^\s*\[\[\s*" + header + r"\s*\]\]")
    if not hits:
        return None
    indexed = depth < len(path) and isinstance(path[depth], int)
    index = path[depth] if indexed else 0
    return hits[min(index, len(hits) - 1)], depth + indexed


def _key_line(text: str, start: int, end: int, key: str, index: Any) -> int | None:
    """The line of `key` between `start` and `end`; with an int `index` and a multi-line array, the
    line of that entry (the key's own line when the array has no such entry)."""
    hits = _matching(text, r"^\s*" + _key_pattern(key) + r"\s*[=.]")
    at = bisect.bisect_left(hits, start)
    if at == len(hits) or hits[at] >= end:
        return None
    i = hits[at]
    if isinstance(index, int) and _OPENS_ARRAY.search(_lines(text)[i]):
        entries = _array_entries(text, i, end)
        if 0 <= index < len(entries):
            return entries[index] + 1
    return i + 1


@functools.lru_cache(maxsize=256)
def _array_entries(text: str, opened: int, end: int) -> tuple[int, ...]:
    """The indexes of the entry lines of the multi-line array opened on line index `opened`."""
    lines = _lines(text)
    found = []
    for j in range(opened + 1, end):
        entry = lines[j].strip()
        if entry.startswith("]"):
            break
        if entry and not entry.startswith("#"):
            found.append(j)
    return tuple(found)


def _key_pattern(name: str) -> str:
    esc = re.escape(name)
    return rf"(?:{esc}|\"{esc}\"|'{esc}')"

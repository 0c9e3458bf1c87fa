"""The key -> line lookup: the line of a key path in a TOML file's text, without a second parser, so
that every message can say FILE:LINE (tomllib gives plain values, no positions).
"""

from __future__ import annotations

import re
from typing import Any

_HEADER = re.compile(r"^\s*\[\[?[^\[\]=]+\]\]?\s*(#.*)?$")
_OPENS_ARRAY = re.compile(r"\[\s*(#.*)?$")


def line_of(text: str, key_path: tuple) -> int | None:
    """Best-effort line of a key path like ("rules", "max_heroes") or ("skills", 2, "level"): table
    headers ([rules], [[skills]]) narrow the search; an index picks the entry of a multi-line array
    (one entry a line, as drunagor writes them). None when the key is not in the file."""
    lines = text.splitlines()
    path = list(key_path)
    if not path or not isinstance(path[0], str):
        return None
    start, end = 0, len(lines)
    table = _innermost_table(lines, path)
    if table is not None:
        hit, consumed = table
        start = hit + 1
        end = next((i for i in range(start, len(lines)) if _HEADER.match(lines[i])), len(lines))
        path = path[consumed:]
        if not path:
            return hit + 1
    key = path[0]
    if not isinstance(key, str):
        return start or None
    found = _key_line(lines, start, end, key, path[1] if len(path) > 1 else None)
    return found if found is not None else start or None


def _innermost_table(lines: list[str], path: list) -> tuple[int, int] | None:
    """The index of the line of the deepest table header ([a.b] or [[a.b]]) naming the leading keys
    of `path`, and how many parts of the path it stands for; None when no header names them."""
    names = []
    for k in path:
        if not isinstance(k, str):
            break
        names.append(k)
    for depth in range(len(names), 0, -1):
        header = r"\s*\.\s*".join(_key_pattern(n) for n in names[:depth])
        found = _array_table_header(lines, header, path, depth)
        if found is not None:
            return found
        table = re.compile(r"^\s*\[\s*" + header + r"\s*\]")
        hit = next((i for i, line in enumerate(lines) if table.match(line)), None)
        if hit is not None:
            return hit, depth
    return None


def _array_table_header(lines: list[str], header: str, path: list, depth: int) -> tuple[int, int] | None:
    """An array of tables: [[skills]] ... the index after the names picks one (the first without)."""
    tables = re.compile(r"^\s*\[\[\s*" + header + r"\s*\]\]")
    hits = [i for i, line in enumerate(lines) if tables.match(line)]
    if not hits:
        return None
    indexed = depth < len(path) and isinstance(path[depth], int)
    index = path[depth] if indexed else 0
    return hits[min(index, len(hits) - 1)], depth + indexed


def _key_line(lines: list[str], start: int, end: int, key: str, index: Any) -> int | None:
    """The line of `key` between `start` and `end`; with an int `index` and a multi-line array, the
    line of that entry (the key's own line when the array has no such entry)."""
    rx = re.compile(r"^\s*" + _key_pattern(key) + r"\s*[=.]")
    for i in range(start, end):
        if not rx.match(lines[i]):
            continue
        if isinstance(index, int) and _OPENS_ARRAY.search(lines[i]):
            entry = _array_entry_line(lines, i, end, index)
            if entry is not None:
                return entry
        return i + 1
    return None


def _array_entry_line(lines: list[str], opened: int, end: int, index: int) -> int | None:
    seen = -1
    for j in range(opened + 1, end):
        entry = lines[j].strip()
        if entry.startswith("]"):
            break
        if entry and not entry.startswith("#"):
            seen += 1
            if seen == index:
                return j + 1
    return None


def _key_pattern(name: str) -> str:
    esc = re.escape(name)
    return rf"(?:{esc}|\"{esc}\"|'{esc}')"

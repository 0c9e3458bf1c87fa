"""Where a rulebook line stands: the heading path of `RB L1203` (data/headings.toml, generated from the
rulebook text by tests/tools/rulebook_headings.py: titles and line ranges only, no sentence of the book).

A citation names a line of a text only this repository has; the path names the sections a player finds
in the printed book's table of contents ("Chapter 05 – Tempest Island", then the paragraph's title).
"""

from __future__ import annotations

import re
from typing import Any

from .facts import _load

JOIN = " \u203a "  # between the titles of a path, as the issue writes it: Chapter 05 › Winning ...
FRONT = "Table of Contents"  # the lines before the first heading: the title and the contents
CITED = re.compile(r"\s*(?:RB\s+)?L?(\d{1,7})(?:\s*[-\u2013]\s*L?\d{1,7})?\s*", re.I)


def _headings() -> list[dict[str, Any]]:
    return list(_load("headings")["heading"])


def last_line() -> int:
    return max(h["lines"][1] for h in _headings())


def path(line: int) -> tuple[str, ...]:
    """The titles of the headings that hold `line`, outermost first (`()` past the book's end)."""
    if not 1 <= line <= last_line():
        return ()
    found: list[str] = []
    for h in _headings():
        start, end = h["lines"]
        if start <= line <= end:
            del found[h["level"] - 1:]
            found.append(h["title"])
    return tuple(found) or (FRONT,)


def section(line: int) -> str | None:
    """The innermost heading of `line` ("Dreadful Raid" for 285)."""
    found = path(line)
    return found[-1] if found else None


def cited_line(text: str) -> int | None:
    """The line a citation names: `L1203`, `1203`, `RB L1203`, a range's first (`L1203-1205`)."""
    match = CITED.fullmatch(text)
    return int(match.group(1)) if match else None

"""Where a rulebook line stands: the heading path of `RB L1203` (data/headings.toml, generated from the
rulebook text by tests/tools/rulebook_headings.py: titles and line ranges only, no sentence of the book).

A citation names a line of a text only this repository has; the path names the sections a player finds
in the printed book's table of contents ("Chapter 05 – Tempest Island", then the paragraph's title).

A citation as a player reads it (SPEC 11, "Citations"): `RB L285` becomes `(Rulebook: Dreadful Raid,
L285)`, the section the line stands in and the line kept. drunagor's own words cite the book short
(`RB L1203`, `RB L1142-1144`, `RB L1177, L1179`): the rules, the operations and `--json` keep that form,
and `rendered` rewrites it where a person reads it: the terminal facade (cli/terminal.py), the sheets,
the table's screen and the session's toolbar. The section is the innermost heading; a title the book
repeats in every chapter ("Winning and Losing the Adventure") is named with its chapter: `Chapter 05 ›
Winning and Losing the Adventure`.

Cheap: text without `RB L` is returned at once (one substring scan), and the table of sections is built
once, on the first citation, in one pass over the headings; a line's section is then a bisect. One
module with the heading path: a command that prints a citation imports one module more, not two.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections import Counter
from typing import Any

from .facts import _load

JOIN = " \u203a "  # between the titles of a path, as the issue writes it: Chapter 05 › Winning ...
FRONT = "Table of Contents"  # the lines before the first heading: the title and the contents


def _headings() -> list[dict[str, Any]]:
    return list(_load("headings")["heading"])


def last_line() -> int:
    return _table()[0][-1] - 1


def path(line: int) -> tuple[str, ...]:
    """The titles of the headings that hold `line`, outermost first (`()` past the book's end)."""
    found = _at(line)
    return () if found is None else tuple(h["title"] for h in found) or (FRONT,)


def cited_section(line: int) -> str | None:
    """The section a player finds line `line` under ("Dreadful Raid" for 285); None past the book."""
    found = _at(line)
    return None if found is None else _name(found, _table()[2]) if found else FRONT


def _at(line: int) -> tuple[dict, ...] | None:
    """The headings that hold `line`, outermost first; None outside the book (a bisect in `_table`)."""
    points, paths, _ = _table()
    at = bisect.bisect_right(points, line) - 1
    return paths[at] if at >= 0 and line >= 1 else None


@functools.cache
def _table() -> tuple[list[int], list[tuple[dict, ...] | None], Counter]:
    """The one walk of the headings, on the first citation: the breakpoints (first lines, and the line
    after each heading's last), the headings that hold each breakpoint's lines up to the next (None past
    the book's end) and how often each title occurs."""
    found = _headings()
    twice = Counter(h["title"] for h in found)
    points = sorted({1, *(h["lines"][0] for h in found), *(h["lines"][1] + 1 for h in found)})
    paths: list[tuple[dict, ...] | None] = []
    active: list[dict] = []
    upcoming = iter(found)  # in the order of their first lines (the generator writes them so)
    following = next(upcoming, None)
    for point in points:
        while following is not None and following["lines"][0] <= point:
            active.append(following)
            following = next(upcoming, None)
        active = [h for h in active if h["lines"][1] >= point]
        held: list[dict] = []
        for h in active:  # a heading replaces those of its level and below
            del held[h["level"] - 1:]
            held.append(h)
        paths.append(tuple(held) if held or point == 1 else None)
    return points, paths, twice


def _name(path: tuple[dict, ...], twice: Counter) -> str:
    title = path[-1]["title"]
    if twice[title] > 1 and len(path) > 1:
        outer = path[-2]["title"]
        if outer.startswith("Chapter "):
            outer = outer.split(" \u2013 ")[0]  # "Chapter 05 – Tempest Island": "Chapter 05"
        return f"{outer}{JOIN}{title}"
    return title


# The patterns are compiled on first use (functools.cache): compiling the six at import cost 0.7 ms on
# every command that prints a citation, which needs one of them.
@functools.cache
def _compiled(pattern: str, flags: int = 0) -> re.Pattern[str]:
    return re.compile(pattern, flags)


_LINES = r"(?:RB\s+)?L?(\d{1,9})(?:\s*[-\u2013]\s*L?(\d{1,9}))?"


def cited_lines(text: str) -> list[tuple[int, int]] | None:
    """The lines a citation names, as (first, last) of each part, as drunagor writes it: `L1203`, `1203`,
    `RB L1203`, a range `L1203-1205` (or `L1203-L1205`), a list `RB L1177, L1179`; None if it is not one.
    The order of a range is not checked here (`rules cite` refuses a reversed one)."""
    parts = [_compiled(_LINES, re.I).fullmatch(part) for part in re.split(r"\s*,\s*", text.strip())]
    if not all(parts):
        return None
    return [(int(m.group(1)), int(m.group(2) or m.group(1))) for m in parts if m]


# ------------------------------------------------------------------ citations as a player reads them

SHORT = "RB L"
PREFIX = "Rulebook: "
_PART = r"L\d{1,7}(?:[-\u2013]L?\d{1,7})?"
_CITATION = rf"\bRB ({_PART}(?:, {_PART})*)"


_UNCITED = (  # in order: a citation alone in its parentheses; first in them; after a word
    (rf"\s*\((?:e\.g\.\s+)?{_CITATION}\)", ""),
    (rf"(?<=\()(?:e\.g\.\s+)?{_CITATION}[:;,]\s*", ""),
    (rf"[,;]?\s*(?:e\.g\.\s+)?{_CITATION}", ""),
)


def uncited(text: str) -> str:
    """`text` without its short citations, where a line has no room to name a section (a one-liner of
    `--help`, a completion menu's description): "Set the party's name (RB L959)." -> "Set the party's
    name."; no headings are read."""
    for pattern, by in _UNCITED:
        text = _compiled(pattern).sub(by, text)
    return text


def citation() -> re.Pattern[str]:
    """A short citation as drunagor's own words write it: `RB L1203`, `RB L1142-1144`, `RB L1177, L1179`."""
    return _compiled(_CITATION)


def rendered(text: str) -> str:
    """`text` with each short citation in the reader's form. Inside parentheses (`(RB L285)`,
    `(chapter 04, RB L1161)`) the citation takes the parentheses' place; elsewhere it brings its own,
    in the place of a comma before it (`fails, RB L1026.`: `fails (Rulebook: ..., L1026).`).
    Lines of different sections are grouped: `Rulebook: A, L1147; B, L1191`. A line past the book's
    end keeps the short form (there is no section to name)."""
    if SHORT not in text:
        return text
    return _rendered(text, text, citation())


_CODE = r"`[^`]*`"
_PROSE = rf"\bRB\s+({_PART}(?:,\s+{_PART})*)"  # a citation the source's lines may break


def rendered_prose(text: str) -> str:
    """`rendered` for one paragraph of prose (a help text's, a page's item or table row): a citation
    may run across its lines (`RB\\n  L1287`), parentheses count from the paragraph's start, and a
    `code span` keeps what it shows: what a user types, a --json value (`"lost": "... RB L1026"`)."""
    if "RB" not in text:
        return text
    blanked = _compiled(_CODE).sub(lambda m: "\0" * len(m.group(0)), text)
    return _rendered(text, blanked, _compiled(_PROSE), paragraph=True)


_AFTER_COMMA = r"(?<=\S),\s+$"  # "fails, RB L1026": the parentheses take the comma's place


def _rendered(text: str, seen: str, pattern: re.Pattern[str], paragraph: bool = False) -> str:
    """`text` rendered where `seen` (the same length: text with some spans blanked) shows a citation;
    its parentheses counted from the line's start, or the paragraph's."""
    out: list[str] = []
    pos = 0
    for m in pattern.finditer(seen):
        words = _words(m.group(1))
        if words is None:
            continue
        before = seen[0 if paragraph else seen.rfind("\n", 0, m.start()) + 1:m.start()]
        inside = before.count("(") > before.count(")")
        comma = None if inside else _compiled(_AFTER_COMMA).search(before)
        out.append(text[pos:m.start() - len(comma.group(0)) if comma else m.start()])
        out.append(f"{PREFIX}{words}" if inside else f"{' ' if comma else ''}({PREFIX}{words})")
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def named(citation: str) -> str | None:
    """A whole citation (`RB L941-943, L986-989`) as a column headed "Rulebook" shows it: its sections
    and lines without the prefix (`Choosing Heroes, L941-943; ...`); None if it is not one citation or
    names a line past the book."""
    match = _compiled(_CITATION).fullmatch(citation.strip())
    return _words(match.group(1)) if match else None


def _words(parts: str) -> str | None:
    groups: list[tuple[str, list[str]]] = []
    for part in re.split(r",\s+", parts):
        name = cited_section(int(_compiled(r"L(\d+)").match(part).group(1)))  # type: ignore[union-attr]
        if name is None:
            return None
        if groups and groups[-1][0] == name:
            groups[-1][1].append(part)
        else:
            groups.append((name, [part]))
    return "; ".join(f"{name}, {', '.join(lines)}" for name, lines in groups)

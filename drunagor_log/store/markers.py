"""git's conflict markers, as the merge driver writes them: the marker size clamped, and markers
around the lines where two renderings of a merged file differ (store/merge.py renders the merge
once with every conflict decided for mine, once for theirs)."""

from __future__ import annotations

import difflib

MARKER_SIZE = 7  # git's default
MARKER_SIZE_MAX = 64  # far beyond any use; a pushed .gitattributes asking 50,000,000 made a 150 MB file
# The differing lines are compared line by line (difflib, quadratic at worst) while mine's times
# theirs stay under this: a few thousand lines each, far beyond a campaign file, a second at most.
DIFF_LINES_SQUARED = 1_000_000


def marker_size(text: str) -> int:
    """A conflict marker size as git passes it (%L, from `conflict-marker-size`), clamped to
    MARKER_SIZE..MARKER_SIZE_MAX: a size below git's default would hide the markers from drunagor's
    scan, one of 10**30 cannot be written."""
    try:
        size = int(text)
    except ValueError:  # not a number, or more digits than Python converts
        return MARKER_SIZE
    return min(max(size, MARKER_SIZE), MARKER_SIZE_MAX)


def hunk(a: list[str], b: list[str], size: int, labels: tuple[str, str]) -> list[str]:
    def lines(part: list[str]) -> list[str]:
        return [ln if ln.endswith("\n") else ln + "\n" for ln in part]

    return ["<" * size + " " + labels[0] + "\n", *lines(a), "=" * size + "\n", *lines(b),
            ">" * size + " " + labels[1] + "\n"]


def _trim(a: list[str], b: list[str]) -> tuple[int, int]:
    """How many lines both share at the start, and then at the end."""
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    return head, tail


def one_conflict(mine: str, theirs: str, size: int, labels: tuple[str, str]) -> str:
    """`mine` with one pair of markers around everything between the lines both share at the start
    and at the end."""
    a, b = mine.splitlines(keepends=True), theirs.splitlines(keepends=True)
    head, tail = _trim(a, b)
    return "".join(a[:head] + hunk(a[head:len(a) - tail], b[head:len(b) - tail], size, labels) + a[len(a) - tail:])


def around_differences(mine: str, theirs: str, size: int, labels: tuple[str, str]) -> str:
    """`mine` with markers around each run of lines where `theirs` differs. The lines both share at
    the start and the end are set aside first; difflib compares what is left only while that stays
    small, else it is one conflict (each side still whole)."""
    a, b = mine.splitlines(keepends=True), theirs.splitlines(keepends=True)
    head, tail = _trim(a, b)
    x, y = a[head:len(a) - tail], b[head:len(b) - tail]
    if len(x) * len(y) > DIFF_LINES_SQUARED:
        return one_conflict(mine, theirs, size, labels)
    out: list[str] = a[:head]
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, x, y, autojunk=False).get_opcodes():
        out += x[i1:i2] if tag == "equal" else hunk(x[i1:i2], y[j1:j2], size, labels)
    return "".join(out + a[len(a) - tail:])

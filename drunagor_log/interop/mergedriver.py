"""The campaign-aware git merge driver: what git runs to merge a campaign's TOML file.

`drunagor git setup` (and `new`, and `sync`) register it in the repository's config:

    [merge "drunagor"]
        driver = /abs/path/to/python -m drunagor_log.interop.mergedriver %O %A %B %L %P

and the campaign's .gitattributes names it (`*.toml merge=drunagor`). Git calls it with the common
ancestor (%O), this side's version (%A, where the result goes), the other side's (%B), the conflict
marker size (%L) and the file's path in the repository (%P). The merge is value by value
(store/merge.py); adventure.toml, the table's state on one machine, is never merged silently. The
exit status is 0 for a clean merge, 1 when the result holds conflict markers (git then reports the
file as conflicted, and `drunagor check` points at the markers).

The three versions may come from a stranger (a pushed branch, a pushed .gitattributes), so they are
read as every campaign file is (store.read_bytes and store.parse): a regular file of at most 1 MiB,
texts, lists and nesting within the store's limits. A version past those limits is refused: one
line on stderr, exit 2, %A left as it is, so git keeps the file unmerged (a conflict `git status`
and `drunagor sync` name) and nothing of the refused version reaches the work tree. The marker size
a .gitattributes asks for (`conflict-marker-size`) is taken between git's default, 7, and 64
(store.markers.marker_size).

A version that is not TOML the merge can take apart (a syntax error, markers of an earlier
conflict, not UTF-8), or one larger than 64 KiB (VALUE_MERGE_BYTES), is merged as git would without the
driver: `git merge-file`, line by line (store/merge.py says why: tomlkit's speed).
"""

from __future__ import annotations

import sys
from pathlib import Path

from .. import store
from ..errors import DataError
from ..git.driver_setup import merge_file
from ..store.markers import marker_size
from ..store.merge import LIMIT_RULES, VALUE_MERGE_BYTES, MergeError, merge_text
from ..text import visible

ADVENTURE = "adventure.toml"
REFUSED = 2  # not 1: git takes any non-zero status for "conflicted"; 2 says the driver did not merge


class PastLimits(Exception):
    """A version past the store's limits: nothing merged, git keeps the conflict."""


def _version(path: Path, which: str) -> tuple[bytes, bool]:
    """The bytes of one version, and whether the value merge can take them apart; PastLimits beyond
    the store's limits."""
    try:
        raw = store.read_bytes(path)
    except DataError as exc:
        raise PastLimits(f"{which}: {exc.message}") from None
    if not raw.strip():
        return raw, True  # a file both sides created: git passes an empty base
    try:
        store.parse(raw, path)
    except DataError as exc:
        if exc.rule in LIMIT_RULES:
            raise PastLimits(f"{which}: {exc.message}") from None
        return raw, False  # a syntax error, old markers, not UTF-8: git's line merge
    return raw, True


def merge_files(base: Path, mine: Path, theirs: Path, marker_size: int, path: str) -> int:
    """Merge into `mine`; 0 when clean, 1 when conflict markers were written; PastLimits beyond the limits."""
    versions = [_version(p, which) for p, which in ((base, "the common version"), (mine, "yours"),
                                                      (theirs, "theirs"))]
    if not all(ok for _, ok in versions) or max(len(raw) for raw, _ in versions) > VALUE_MERGE_BYTES:
        return _line_merge(base, mine, theirs, marker_size)
    texts = [raw.decode("utf-8") for raw, _ in versions]
    try:
        merged = merge_text(*texts, whole=Path(path).name == ADVENTURE, marker_size=marker_size)
    except MergeError:
        return _line_merge(base, mine, theirs, marker_size)
    data = merged.text.encode("utf-8")
    if not merged.markers:
        _refuse_past_limits(data, path)
    if data != versions[1][0]:
        mine.write_bytes(data)  # git's own temporary file: git reads it back and writes the work tree
    return 1 if merged.markers else 0


def _refuse_past_limits(data: bytes, path: str) -> None:
    """Both sides within the limits can still add up past them (5,001 Followers added on each side)."""
    try:
        store.parse(data, Path(path))
    except DataError as exc:
        if exc.rule in LIMIT_RULES:
            raise PastLimits(f"the merged file would hold {exc.message.split(':')[0]}") from None


def _line_merge(base: Path, mine: Path, theirs: Path, marker_size: int) -> int:

    return merge_file(mine, base, theirs, marker_size)


def main(argv: list[str]) -> int:
    if len(argv) != 5:
        _say("usage: python -m drunagor_log.interop.mergedriver BASE MINE THEIRS MARKER_SIZE PATH "
             "(git runs this; see `drunagor git setup`)")
        return 2
    base, mine, theirs, size, path = argv

    shown = path[:200]  # %P comes from the repository: never trusted to be short
    try:
        return merge_files(Path(base), Path(mine), Path(theirs), marker_size(size), path)
    except PastLimits as exc:
        why = str(exc)
    except Exception as exc:  # noqa: BLE001 (git shows the player whatever the driver prints: one line, never a traceback)
        why = f"{type(exc).__name__}: {exc}"[:300]
    _say(f"drunagor merge driver: {shown}: not merged ({why}); git keeps it as a conflict, your version unchanged")
    return REFUSED


def _say(line: str) -> None:
    """The driver's one line, to stderr, where git shows it to the player. Not cli/terminal's `term`:
    the driver is a program of its own that git starts, a front end below cli in the layers (it may
    not import it), and its line is plain text for git's output, never styled or wrapped; the path and
    a refusal come from the repository, so its invisible characters are shown (text.visible)."""
    print(visible(line), file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

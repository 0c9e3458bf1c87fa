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

A version that is not TOML the merge can take apart (a syntax error, markers of an earlier
conflict) is merged as git would without the driver: `git merge-file`, line by line.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..store.merge import MergeError, merge_text

ADVENTURE = "adventure.toml"


def merge_files(base: Path, mine: Path, theirs: Path, marker_size: int, path: str) -> int:
    """Merge into `mine`; 0 when clean, 1 when conflict markers were written."""
    try:
        texts = [p.read_bytes().decode("utf-8") for p in (base, mine, theirs)]
        merged = merge_text(*texts, whole=Path(path).name == ADVENTURE, marker_size=marker_size)
    except (UnicodeDecodeError, MergeError):
        return _line_merge(base, mine, theirs, marker_size)
    data = merged.text.encode("utf-8")
    if data != texts[1].encode("utf-8"):
        mine.write_bytes(data)  # git's own temporary file: git reads it back and writes the work tree
    return 1 if merged.markers else 0


def _line_merge(base: Path, mine: Path, theirs: Path, marker_size: int) -> int:
    import subprocess

    proc = subprocess.run(["git", "merge-file", f"--marker-size={marker_size}", "-L", "mine", "-L", "base",
                           "-L", "theirs", str(mine), str(base), str(theirs)], capture_output=True, check=False)
    return 0 if proc.returncode == 0 else 1


def main(argv: list[str]) -> int:
    if len(argv) != 5:
        print("usage: python -m drunagor_log.interop.mergedriver BASE MINE THEIRS MARKER_SIZE PATH "
              "(git runs this; see `drunagor git setup`)", file=sys.stderr)
        return 2
    base, mine, theirs, size, path = argv
    try:
        marker_size = int(size)
    except ValueError:
        marker_size = 7
    return merge_files(Path(base), Path(mine), Path(theirs), marker_size, path)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

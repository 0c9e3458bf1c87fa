"""The session's history, one file per campaign in the user's cache folder (never in the campaign
folder, so never in its git repository).

The folder is drunagor's disk cache (diskcache.folder(): XDG_CACHE_HOME/drunagor, else
~/.cache/drunagor), under history/; the file is named after the campaign folder and a hash of its
absolute path, so two campaigns called `example` keep two histories. The format is prompt_toolkit's
FileHistory's (a `# time` line, then `+line` for each line entered). Only the last MAX_BYTES of the
file are read at start; losing the history costs nothing, so a folder that cannot be written leaves the
session without one, silently.

The history is untrusted as the cache is (docs/errors.md, "The cache and the history"): its folder is
private (0700, the user's, no link), and the file is opened without following a link and without
waiting (a FIFO never hangs the session), and used only when it is a regular file the user owns
that no one else may write. It is never inside the campaign folder nor inside the campaign's git
work tree (a cache folder there leaves the session without a history).

Why not prompt_toolkit's own FileHistory (3.0.53, compared in December 2026, issue 40): it reads the
whole file at start (a 34 MB history: 0.83 s), follows a symbolic link, and its `open` of a FIFO never
returns (still blocked after 2 s); this class keeps its format and its `History` interface, and reads
the last MAX_BYTES of a regular file the user owns, without following a link or waiting.
"""

from __future__ import annotations

import datetime
import os
import re
import stat
from collections.abc import Iterable
from pathlib import Path

from prompt_toolkit.history import History

from ..catalog import diskcache
from .dispatch import LEAVE

MAX_BYTES = 256 * 1024
MAX_ENTRIES = 1000


def history_path(root: Path) -> Path | None:
    """Where the history of the campaign at `root` lives; None if that would be inside the campaign
    or inside the git work tree holding it."""
    full = Path(os.path.abspath(root))
    key = diskcache.bytes_stamp(str(full).encode("utf-8", "surrogateescape"))[1].hex()[:16]
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", full.name)[:40] or "campaign"
    path = Path(os.path.abspath(diskcache.folder())) / "history" / f"{name}-{key}"
    top = diskcache.work_tree(str(full))
    if path.is_relative_to(full) or (top is not None and diskcache.within(str(path), top)):
        return None
    return path


_FLAGS = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def _open_own(path: Path, flags: int) -> int | None:
    """A descriptor of the history file in a private folder, opened with `flags` without following a
    link or waiting, if it is a regular file this user owns that no one else may write; else None."""
    if diskcache.private() is None or not diskcache.private_dir(str(path.parent)):
        return None  # the cache folder is not private, or is inside a work tree
    try:
        fd = os.open(path, flags | _FLAGS, 0o600)
    except (OSError, ValueError):
        return None
    try:
        st = os.fstat(fd)
    except OSError:
        st = None
    if st is None or not stat.S_ISREG(st.st_mode) or not diskcache.mine(st):
        os.close(fd)
        return None
    return fd


class CampaignHistory(History):
    """prompt_toolkit's history, kept in one file; reads the file's tail, ignores every failure."""

    def __init__(self, path: Path):
        super().__init__()
        self.path = path

    def load_history_strings(self) -> Iterable[str]:
        """The lines entered, newest first (prompt_toolkit's order)."""
        fd = _open_own(self.path, os.O_RDONLY)
        if fd is None:
            return []
        try:
            with os.fdopen(fd, "rb") as f:
                f.seek(max(0, os.fstat(f.fileno()).st_size - MAX_BYTES))
                text = f.read(MAX_BYTES).decode("utf-8", "replace")
        except OSError:
            return []
        entries: list[list[str]] = []
        fresh = True
        for line in text.split("\n"):
            if line.startswith("+"):
                if fresh:
                    entries.append([])
                entries[-1].append(line[1:])
                fresh = False
            else:
                fresh = True
        return ["\n".join(e) for e in reversed(entries[-MAX_ENTRIES:])]

    def append_string(self, string: str) -> None:
        """Every line entered but the one that left (Up in the next session recalls the last command)."""
        if string.strip() not in LEAVE:
            super().append_string(string)

    def store_string(self, string: str) -> None:
        fd = _open_own(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        if fd is None:
            return
        try:
            with os.fdopen(fd, "a", encoding="utf-8", newline="\n") as f:
                f.write(f"\n# {datetime.datetime.now()}\n" + "".join(f"+{line}\n" for line in string.split("\n")))
        except (OSError, ValueError):
            pass

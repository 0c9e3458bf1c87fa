"""Whether the campaign's files changed on disk: one stat of each file drunagor reads.

Commands never need it: each opens the campaign afresh. What the session itself keeps between commands
(the toolbar's board, the names completion offers) is read again whenever the stamp differs. A file
replaced by an atomic write (drunagor's, git's, most editors') gets a new inode; one rewritten in
place changes its size or its modification time.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..campaign import Campaign
from ..errors import ChangedOnDisk
from ..store import JOURNAL, CampaignLock, pending_journal


def stamp(root: Path) -> tuple:
    """(path, inode, size, mtime, ctime) of every campaign file, and whether a journal waits."""
    seen = []
    for path in Campaign(root).files():
        try:
            st = os.stat(path, follow_symlinks=False)
        except OSError:
            continue
        seen.append((str(path), st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
    return (tuple(seen), os.path.lexists(root / JOURNAL))


class Busy(Exception):
    """Another command holds the campaign's lock, or left a write for the next command to finish."""


@contextmanager
def without_waiting(root: Path) -> Iterator[None]:
    """The campaign's shared lock, for what the session reads while the prompt is drawn (the toolbar,
    completion): taken at once or not at all (Busy), so that typing never waits for another program's
    write, and held only for that read. A journal left by a killed command is left for the next
    command, which finishes it and says so."""
    if pending_journal(root):
        raise Busy()
    try:
        lock = CampaignLock(root, timeout=0, shared=True).__enter__()
    except ChangedOnDisk:
        raise Busy() from None
    try:
        yield
    finally:
        lock.__exit__(None, None, None)

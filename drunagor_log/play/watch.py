"""Whether the campaign's files changed on disk: one stat of each file drunagor reads.

Commands never need it: each opens the campaign afresh. What the session itself keeps between commands
(the toolbar's board, the names completion offers) is read again whenever the stamp differs. A file
replaced by an atomic write (drunagor's, git's, most editors') gets a new inode; one rewritten in
place changes its size or its modification time.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..campaign import Campaign
from ..store import JOURNAL


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

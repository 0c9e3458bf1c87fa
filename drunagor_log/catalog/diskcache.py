"""A small cache outside the campaign (XDG_CACHE_HOME, else ~/.cache/drunagor) for work that only
depends on files that rarely change: the parsed catalog, the parsed campaign files, the archived
adventures `check` has read.

Entries are stamped with what they were made from (size and modification time of the source file,
drunagor's and Python's versions; for a campaign file, which may come from anyone, a hash of its
bytes: bytes_stamp); a stale or unreadable entry is simply made again. Losing the cache
costs time, never data, so it is written without fsync and every failure is ignored.
"""

from __future__ import annotations

import marshal
import os
import sys
import time
from collections.abc import Callable
from typing import Any

from .. import __version__


def folder() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "drunagor")


def file_stamp(path: str) -> tuple | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns)


def bytes_stamp(raw: bytes) -> tuple:
    """(size, BLAKE2b digest) of some bytes: what a cache entry made from a campaign file is keyed on."""
    try:
        from _blake2 import blake2b  # hashlib's C core alone: hashlib itself loads OpenSSL (~2 ms)
    except ImportError:  # a Python built without it
        from hashlib import blake2b
    return (len(raw), blake2b(raw, digest_size=16).digest())


def load(name: str) -> Any:
    try:
        with open(os.path.join(folder(), name), "rb") as f:
            return marshal.load(f)
    except (OSError, EOFError, ValueError, TypeError):
        return None


def save(name: str, value: Any) -> None:
    path = os.path.join(folder(), name)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(folder(), exist_ok=True)
        with open(tmp, "wb") as f:
            marshal.dump(value, f)
        os.replace(tmp, path)
    except (OSError, ValueError):
        try:
            os.unlink(tmp)
        except OSError:
            pass


def parsed(source: str, parse: Callable[[str], Any]) -> Any:
    """parse(source), remembered across runs while `source` keeps its size and modification time."""
    stamp = (file_stamp(source), __version__, sys.version_info[:2])
    name = "parsed-" + source.strip(os.sep).replace(os.sep, "%") + ".marshal"
    hit = load(name)
    if isinstance(hit, tuple) and len(hit) == 2 and hit[0] == stamp and stamp[0] is not None:
        return hit[1]
    value = parse(source)
    save(name, (stamp, value))
    return value


def remembered(key: str, raw: bytes, make: Callable[[], Any], made_by: tuple = ()) -> Any:
    """make(), remembered across runs while the file `key` (a path) holds the very bytes `raw` and
    `made_by` (what else the value depends on: the limits it was checked against) is the same: one
    entry a path, replaced when its bytes change, so the cache grows with the files read, not with
    their versions. A value marshal cannot write (a TOML date) is simply made each time."""
    stamp = (bytes_stamp(raw), made_by, __version__, sys.version_info[:3])
    name = "file-" + bytes_stamp(key.encode("utf-8", "surrogateescape"))[1].hex() + ".marshal"
    hit = load(name)
    if isinstance(hit, tuple) and len(hit) == 2 and hit[0] == stamp:
        return hit[1]
    value = make()
    save(name, (stamp, value))
    if hit is None:  # a path read for the first time: the folder may hold many that are read no more
        prune()
    return value


#: A remembered file's entry not written for this long is deleted (at most one look a day): campaigns
#: come and go (a clone, a test's temporary folder), and one still read is simply parsed again.
UNUSED = 30 * 86400


def prune(now: float | None = None) -> None:
    """Delete the entries of remembered() not written for UNUSED seconds, once a day at most."""
    now = time.time() if now is None else now
    marker = os.path.join(folder(), "pruned-files")
    try:
        if now - os.stat(marker).st_mtime < 86400:
            return
    except OSError:
        pass
    try:
        with open(marker, "wb"):
            pass
        with os.scandir(folder()) as entries:
            for e in entries:
                if e.name.startswith("file-") and e.name.endswith(".marshal") and \
                        e.stat(follow_symlinks=False).st_mtime < now - UNUSED:
                    os.unlink(e.path)
    except OSError:
        pass

"""A small cache outside the campaign (XDG_CACHE_HOME, else ~/.cache/drunagor) for work that only
depends on files that rarely change: the parsed catalog, the parsed campaign files, the archived
adventures `check` has read, the sheets' compiled templates.

Entries are stamped with what they were made from (size and modification time of the source file,
drunagor's and Python's versions; for a campaign file, which may come from anyone, a hash of its
bytes: bytes_stamp); a stale or unreadable entry is simply made again. Losing the cache
costs time, never data, so it is written without fsync and every failure is ignored.

The cache is untrusted input (docs/errors.md, "The cache and the history"), as a campaign file is:

- its folder is private: made 0700 (an older one is made so), used only when it is a folder (not a
  link) the user owns; a relative XDG_CACHE_HOME is ignored, as the XDG spec says;
- an entry is read only when it is a regular file (no link is followed; a FIFO or a folder is never
  read, never waited on) that the user owns and no one else may write, of at most MAX_ENTRY bytes;
- an entry is authenticated before it is decoded: it carries a keyed BLAKE2b tag (a MAC, RFC 7693)
  of its name, Python's version and its bytes, under a random key of 32 bytes kept 0600 in the
  folder, made once (O_EXCL, O_NOFOLLOW). `marshal` is not safe against crafted bytes (5 of them can
  ask for 16 GiB): only bytes this user's drunagor wrote are ever decoded. (Keyed BLAKE2b rather than
  HMAC-SHA256: as strong, and `hmac` loads OpenSSL, ~4 ms on every command; `_blake2` is loaded anyway.)
- any failure is a cache miss; temporary files and the prune marker are made with O_EXCL|O_NOFOLLOW,
  so a link planted in the folder is never written through.

Why not the `diskcache` library (5.6.3, compared in December 2026, issue 40): it keeps entries in a
SQLite database and reads values with `pickle.load` (diskcache/core.py), so a crafted entry in the
cache folder runs code when read, where this cache decodes only marshal bytes it authenticated; and
its import costs 25 ms (sqlite3 5 ms of it, best of 5) on every command that reads the cache, where
marshal is built in.
"""

from __future__ import annotations

import marshal
import os
import stat
import sys
import time
from collections.abc import Callable
from typing import Any

from .. import __version__

#: The largest entry read or written: a campaign file is at most 1 MiB (store.read.MAX_FILE_BYTES),
#: and so is what is remembered of it; a bigger value is simply made each time.
MAX_ENTRY = 1 << 20
_MAGIC = b"drunagor cache 2\n"
_TAG = 32  # bytes of the tag
_KEY = "key"
_KEY_BYTES = 32

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_READ = os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC
_MAKE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _NONBLOCK | _CLOEXEC

# The key of each cache folder this process has opened (a folder whose key cannot be had: None).
_keys: dict[str, bytes | None] = {}


def folder() -> str:
    """The cache folder's path (made and checked by private(), not here)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # unset, empty or relative: the XDG spec says to ignore it
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "drunagor")


def _blake2b():
    try:
        from _blake2 import blake2b  # hashlib's C core alone: hashlib itself loads OpenSSL (~2 ms)
    except ImportError:  # a Python built without it
        from hashlib import blake2b
    return blake2b


# Owners and modes are POSIX's; on Windows a file's mode says nothing of who may write it (the
# folder's place in the user's profile does).
_POSIX = hasattr(os, "geteuid")


def mine(st: os.stat_result) -> bool:
    """Owned by this user, and no one else may write it."""
    return not _POSIX or (st.st_uid == os.geteuid() and not st.st_mode & 0o022)


def private_dir(path: str) -> bool:
    """Make `path` a private folder (0700; its missing parents too), or check that it is one: a
    folder, not a link, that this user owns; one that others may read or enter is made 0700."""
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        if not _POSIX:  # a folder cannot be opened there
            return stat.S_ISDIR(os.lstat(path).st_mode)
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC)
    except (OSError, ValueError):
        return False
    try:
        st = os.fstat(fd)
        if not stat.S_ISDIR(st.st_mode) or not mine(st):
            return False
        if _POSIX and st.st_mode & 0o077:
            os.fchmod(fd, 0o700)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def read_own(path: str, cap: int, private: bool = False) -> bytes | None:
    """The bytes of `path` if it is a regular file (no link followed, never blocking on a FIFO) this
    user owns that no one else may write (with `private`, nor read), of at most `cap` bytes; else None."""
    try:
        fd = os.open(path, _READ)
    except (OSError, ValueError):
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not mine(st) or (private and _POSIX and st.st_mode & 0o077) \
                or st.st_size > cap:
            return None
        raw = os.read(fd, st.st_size + 1)  # one more: a file that grew since is no entry
        return raw if len(raw) == st.st_size else None
    except OSError:
        return None
    finally:
        os.close(fd)


def _write_new(path: str, data: bytes) -> bool:
    """Write `data` to a new file `path` (0600; never through a link, never over a file); one that
    could not be written whole is removed."""
    try:
        fd = os.open(path, _MAKE, 0o600)
    except (OSError, ValueError):
        return False
    written = False
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        written = True
    except OSError:
        pass
    finally:
        os.close(fd)
    if not written:
        _unlink(path)
    return written


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _temp(path: str) -> str:
    return f"{path}.{os.getpid()}.{os.urandom(4).hex()}.tmp"


def _make_key(path: str) -> None:
    """A new random key at `path`, whole or not at all: written to a temporary file, then linked into
    place (a key another process made meanwhile is kept)."""
    tmp = _temp(path)
    if _write_new(tmp, os.urandom(_KEY_BYTES)):
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        except OSError:  # a file system without hard links
            try:
                os.replace(tmp, path)
            except OSError:
                pass
    _unlink(tmp)


def _open_key(base: str) -> bytes | None:
    path = os.path.join(base, _KEY)
    for attempt in range(2):
        raw = read_own(path, _KEY_BYTES, private=True)
        if raw is not None and len(raw) == _KEY_BYTES:
            return raw
        if attempt == 0:  # none yet, or one not fit to use (a link, a short file): made anew
            _unlink(path)
            _make_key(path)
    return None


def private() -> tuple[str, bytes] | None:
    """(the cache folder, its key), the folder made private and the key made on first use; None when
    the folder cannot be used (not ours, a link, not writable): every entry is then a miss."""
    base = folder()
    if base in _keys:
        key = _keys[base]
        return (base, key) if key is not None else None
    key = _open_key(base) if os.path.isabs(base) and not in_a_campaign(base) and private_dir(base) else None
    _keys[base] = key
    return (base, key) if key is not None else None


def _tag(key: bytes, name: str, payload: bytes) -> bytes:
    mac = _blake2b()(key=key, digest_size=_TAG, person=b"drunagor-cache")
    mac.update(name.encode("utf-8", "surrogateescape") + b"\0" + sys.version.encode("utf-8", "replace") + b"\0")
    mac.update(payload)
    return mac.digest()


def _same(a: bytes, b: bytes) -> bool:
    try:
        import _operator  # hmac.compare_digest's C core, without hmac's OpenSSL

        return _operator._compare_digest(a, b)
    except (ImportError, AttributeError):
        import hmac

        return hmac.compare_digest(a, b)


def load_bytes(name: str) -> bytes | None:
    """The bytes saved under `name` by this user's drunagor, or None (missing, refused, forged)."""
    found = private()
    if found is None:
        return None
    base, key = found
    raw = read_own(os.path.join(base, name), len(_MAGIC) + _TAG + MAX_ENTRY)
    if raw is None or not raw.startswith(_MAGIC):
        return None
    tag, payload = raw[len(_MAGIC):len(_MAGIC) + _TAG], raw[len(_MAGIC) + _TAG:]
    return payload if _same(tag, _tag(key, name, payload)) else None


def save_bytes(name: str, payload: bytes) -> None:
    """Keep `payload` under `name` (replacing what was there; nothing when it is over MAX_ENTRY)."""
    found = private()
    if found is None or len(payload) > MAX_ENTRY:
        return
    base, key = found
    path = os.path.join(base, name)
    tmp = _temp(path)
    if not _write_new(tmp, _MAGIC + _tag(key, name, payload) + payload):
        if not os.path.isdir(base) and _keys.pop(base, None) is not None:  # the folder was removed meanwhile
            save_bytes(name, payload)
        return
    try:
        os.replace(tmp, path)  # a link or a FIFO at `path` is replaced, never written through
    except (OSError, ValueError):
        _unlink(tmp)


def load(name: str) -> Any:
    payload = load_bytes(name)
    if payload is None:
        return None
    try:
        return marshal.loads(payload)  # authenticated: bytes this user's drunagor wrote
    except (EOFError, ValueError, TypeError):
        return None


def save(name: str, value: Any) -> None:
    try:
        payload = marshal.dumps(value)
    except ValueError:  # a value marshal cannot write (a TOML date): simply made each time
        return
    save_bytes(name, payload)


def file_stamp(path: str) -> tuple | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns)


def bytes_stamp(raw: bytes) -> tuple:
    """(size, BLAKE2b digest) of some bytes: what a cache entry made from a campaign file is keyed on."""
    return (len(raw), _blake2b()(raw, digest_size=16).digest())


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


def work_tree(path: str) -> str | None:
    """The top of the git work tree holding the folder `path` (the nearest folder above it with a
    `.git`, stopping at GIT_CEILING_DIRECTORIES as git does), found without running git; None outside one."""
    ceilings = {os.path.abspath(p) for p in os.environ.get("GIT_CEILING_DIRECTORIES", "").split(os.pathsep) if p}
    here = os.path.abspath(path)
    while True:
        if os.path.lexists(os.path.join(here, ".git")):
            return here
        parent = os.path.dirname(here)
        if parent == here or parent in ceilings:
            return None
        here = parent


def in_a_campaign(base: str) -> bool:
    """Whether the cache folder `base` stands where git could carry it to the other players (docs/errors.md
    "The cache and the history"): inside a campaign (a folder above it holds story.toml), inside a `.git`,
    or in the git work tree of the current folder (a HOME or XDG_CACHE_HOME set inside the campaign's
    repository). There no folder, no key and no entry is made: the cache is off for the process."""
    here = os.path.abspath(base)
    while True:
        if os.path.basename(here) == ".git" or os.path.lexists(os.path.join(here, "story.toml")):
            return True
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    top = work_tree(base)
    try:
        return top is not None and within(os.getcwd(), top)
    except OSError:  # the current folder was removed
        return True


def within(path: str, top: str) -> bool:
    """Whether `path` is `top` or inside it (both absolute)."""
    top = top.rstrip(os.sep) or os.sep
    return path == top or path.startswith(top if top.endswith(os.sep) else top + os.sep)


_outside: dict[tuple[str, str], bool] = {}


def outside_work_tree(path: str) -> bool:
    """Whether the cache folder is outside the git work tree holding the file `path` (a cache inside
    it could be committed with the campaign, or pulled from someone else): remembered per folder for
    the process; inside, the cache is not used for the rest of the process."""
    where, base = os.path.dirname(os.path.abspath(path)), os.path.abspath(folder())
    known = _outside.get((where, base))
    if known is None:
        top = work_tree(where)
        known = _outside[(where, base)] = top is None or not within(base, top)
        if not known:  # nor anything else of this process: the catalog's entries, the templates
            _keys[folder()] = None
    return known


def remembered(key: str, raw: bytes, make: Callable[[], Any], made_by: tuple = ()) -> Any:
    """make(), remembered across runs while the file `key` (a path) holds the very bytes `raw` and
    `made_by` (what else the value depends on: the limits it was checked against) is the same: one
    entry a path, replaced when its bytes change, so the cache grows with the files read, not with
    their versions. A value marshal cannot write (a TOML date) is simply made each time, and so is
    every value while the cache folder is inside the file's git work tree."""
    if not outside_work_tree(key):
        return make()
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
_MARKER = "pruned-files"


def prune(now: float | None = None) -> None:
    """Delete the entries of remembered() (and temporary files left behind) not written for UNUSED
    seconds, once a day at most. Whatever else stands among them (a folder, a FIFO, a link) is passed
    over, never opened; the marker is made anew (O_EXCL|O_NOFOLLOW), never written through a link."""
    now = time.time() if now is None else now
    found = private()
    if found is None:
        return
    base = found[0]
    marker = os.path.join(base, _MARKER)
    try:
        st = os.lstat(marker)
        if stat.S_ISREG(st.st_mode) and now - st.st_mtime < 86400:
            return
    except OSError:
        pass
    _unlink(marker)
    _write_new(marker, b"")
    try:
        with os.scandir(base) as entries:
            for e in entries:
                if not (e.name.startswith("file-") and e.name.endswith(".marshal") or e.name.endswith(".tmp")):
                    continue
                try:
                    st = e.stat(follow_symlinks=False)
                    if not stat.S_ISDIR(st.st_mode) and st.st_mtime < now - UNUSED:
                        os.unlink(e.path)
                except OSError:
                    continue
    except OSError:
        pass

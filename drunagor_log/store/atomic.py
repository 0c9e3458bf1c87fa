"""Writing one campaign file atomically (SPEC section 6): a reader sees the old bytes or the new, never a mix.

A temp file in the same directory, fsynced, renamed over the file, the directory fsynced; the mode of the
file replaced is kept. The pieces here (temp files, the patient rename, the deferred signals, the crash
tests' hook) are what transaction.py stages a command's several files with and journal.py rolls a killed
one forward with. Temp files are named so that one `.gitignore` pattern hides them (TMP_SUFFIX).
"""

from __future__ import annotations

import itertools
import os
import stat
import time
from pathlib import Path
from typing import Any

from ..errors import DataError
from .paths import display

TMP_SUFFIX = ".drunagor-tmp"
JOURNAL = ".drunagor-journal"


def _test_hook(point: str) -> None:
    """Fault injection for the crash tests (no-op unless the environment asks for it).

    DRUNAGOR_TEST_DELAY=SECONDS sleeps at every step of a commit, so that a random SIGKILL lands
    inside one; DRUNAGOR_TEST_CRASH=POINT[:N] dies like a SIGKILL at the Nth time POINT is reached
    (points: staged, journal, applied, done)."""
    delay = os.environ.get("DRUNAGOR_TEST_DELAY")
    if delay:
        time.sleep(float(delay))
    crash = os.environ.get("DRUNAGOR_TEST_CRASH")
    if point == "journal" and os.environ.get("DRUNAGOR_CRASH_AFTER_JOURNAL"):
        crash = "journal"
    if crash:
        name, _, nth = crash.partition(":")
        if name == point:
            _HOOK_COUNTS[point] = _HOOK_COUNTS.get(point, 0) + 1
            if _HOOK_COUNTS[point] >= int(nth or 1):
                os._exit(137)


_HOOK_COUNTS: dict[str, int] = {}


# Folders by descriptor: where the system creates, renames and removes files relative to an open folder
_DIR_FD = (os.open in os.supports_dir_fd and os.rename in os.supports_dir_fd and os.unlink in os.supports_dir_fd
           and hasattr(os, "O_DIRECTORY") and hasattr(os, "O_NOFOLLOW"))


class Folders:
    """The folders one write touches, each opened once, from the campaign folder down one name at a
    time and never through a link (O_NOFOLLOW: the check, once): every temp file is then created,
    renamed and removed relative to its folder's descriptor. Another user who can write the campaign
    folder and swaps `heroes/` for a link after that check redirects nothing: the descriptor is of the
    folder that was checked (a swap before it is ELOOP, a write error: nothing written). Where the
    system has no such descriptors (Windows), the files are named by path, after the check the store
    makes before (read.check_inside)."""

    def __init__(self, root: Path):
        self.root = os.path.abspath(root)
        self.fds: dict[str, int] = {}

    def __enter__(self) -> Folders:
        return self

    def __exit__(self, *exc) -> None:
        fds, self.fds = self.fds, {}
        for fd in fds.values():
            os.close(fd)

    def fd(self, folder: Path) -> int | None:
        """The descriptor of `folder` (inside the campaign folder), opened on first use; None where
        the system has none for folders. OSError if a part of its path is a link or not a folder."""
        if not _DIR_FD:
            return None
        where = os.path.abspath(folder)
        if where in self.fds:
            return self.fds[where]
        rel = os.path.relpath(where, self.root)
        if rel == os.pardir or rel.startswith(os.pardir + os.sep):
            raise ValueError(f"{folder} is outside the campaign folder {self.root}")
        fd = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY)
        try:
            for part in [] if rel == os.curdir else rel.split(os.sep):
                inner = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
                os.close(fd)
                fd = inner
        except BaseException:
            os.close(fd)
            raise
        self.fds[where] = fd
        return fd


def _in(path: Path, folders: Folders | None) -> tuple[str | Path, int | None]:
    """How to name `path` to the system: its name and its folder's descriptor, or the path itself."""
    fd = folders.fd(path.parent) if folders is not None else None
    return (path.name, fd) if fd is not None else (path, None)


def _unlink(path: Path, folders: Folders | None = None, missing_ok: bool = False) -> None:
    try:
        name, fd = _in(path, folders)
        _patiently(lambda: os.unlink(name, dir_fd=fd))
    except FileNotFoundError:
        if not missing_ok:
            raise


def fsync_dir(directory: Path, folders: Folders | None = None) -> None:
    """Make a rename in `directory` durable (best effort: some file systems refuse it). Windows
    cannot open a folder as a file, and NTFS journals its renames itself: nothing to do there."""
    if os.name == "nt":
        return
    if folders is not None and _DIR_FD:
        try:
            os.fsync(folders.fd(directory) or -1)
        except OSError:
            pass
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


_TMP_COUNTER = itertools.count()


def _tmp_for(path: Path) -> Path:
    # Unique per process and write; hidden; the suffix is what .gitignore and the sweep match.
    return path.with_name(f".{path.name}.{os.getpid()}-{next(_TMP_COUNTER)}{TMP_SUFFIX}")


# O_BINARY (Windows): without it os.write turns every "\n" into "\r\n"; files stay LF everywhere.
_TMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


def _write_tmp(path: Path, data: bytes, folders: Folders | None = None) -> Path:
    """Write `data` beside `path` in a temp file, fsynced, with the mode of the regular file it
    replaces, else the umask's (where the system has fchmod: not Windows before Python 3.13, whose
    files have no POSIX mode to keep). With `folders`, in the folder's descriptor (Folders)."""
    tmp = _tmp_for(path)
    name, dir_fd = _in(path, folders)
    try:  # the mode of the regular file replaced; never of what a link there points to
        st = os.lstat(name, dir_fd=dir_fd)
        mode = st.st_mode & 0o7777 if stat.S_ISREG(st.st_mode) else None
    except (FileNotFoundError, NotADirectoryError):
        mode = None
    if mode is None:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    tmp_name = tmp.name if dir_fd is not None else tmp
    fd = os.open(tmp_name, _TMP_FLAGS | getattr(os, "O_NOFOLLOW", 0), 0o600, dir_fd=dir_fd)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
        if hasattr(os, "fchmod"):
            os.fchmod(fd, mode)
    except BaseException:
        os.close(fd)
        _unlink(tmp, folders, missing_ok=True)
        raise
    os.close(fd)
    return tmp


def _make_parent(path: Path) -> None:
    """Create the folder of `path` if needed, durably (its own parent fsynced)."""
    parent = path.parent
    if parent.is_dir():
        return
    missing = []
    while not parent.exists():
        missing.append(parent)
        parent = parent.parent
    path.parent.mkdir(parents=True, exist_ok=True)
    for d in reversed(missing):
        fsync_dir(d.parent)


# Windows refuses to replace or delete a file another program holds open without sharing it for
# deletion (ERROR_ACCESS_DENIED, ERROR_SHARING_VIOLATION, ERROR_LOCK_VIOLATION): a virus scanner, an
# indexer or a sync client does so for a moment, a spreadsheet or viewer for as long as it is open.
_BUSY_WINERRORS = (5, 32, 33)
_BUSY_PAUSES = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5)  # about a second and a quarter in all


def _busy(exc: OSError) -> bool:
    return getattr(exc, "winerror", None) in _BUSY_WINERRORS


def _patiently(action, *args) -> None:
    """os.replace or unlink, retried for a moment while Windows says another program has the file
    open (POSIX never refuses a rename for that, so this is one call there)."""
    for pause in _BUSY_PAUSES:
        try:
            return action(*args)
        except PermissionError as exc:
            if not _busy(exc):
                raise
        time.sleep(pause)
    return action(*args)


def _replace(src: Path, dst: Path, folders: Folders | None = None) -> None:
    """Rename `src` over `dst` (with `folders`, relative to their folders' descriptors)."""
    (s, sfd), (d, dfd) = _in(src, folders), _in(dst, folders)
    _patiently(lambda: os.replace(s, d, src_dir_fd=sfd, dst_dir_fd=dfd))


def _write_failed(path: Path, exc: OSError, committed: bool = False) -> DataError:
    why, cause = exc.strerror or exc, "fix the cause (disk space, permissions)"
    if _busy(exc):
        why, cause = "another program has it open", "close it in that program (a spreadsheet, a viewer)"
    if committed:
        return DataError(f"cannot finish writing ({why})", file=display(path), rule="file",
                         remedy=f"the change is committed in {JOURNAL}; {cause} and run any drunagor "
                                "command to complete it")
    return DataError(f"cannot write the file ({why})", file=display(path), rule="file",
                     remedy=f"nothing was written; {cause} and re-run")


def atomic_write(path: Path, data: bytes, folders: Folders | None = None) -> None:
    """Replace `path` by `data` atomically: a reader sees the old bytes or the new, never a mix.
    `folders`: those of the write it is part of (Folders), else named by path."""
    try:
        _make_parent(path)
        tmp = _write_tmp(path, data, folders)
        try:
            _replace(tmp, path, folders)
        except BaseException:
            _unlink(tmp, folders, missing_ok=True)
            raise
    except OSError as exc:
        raise _write_failed(path, exc) from None
    fsync_dir(path.parent, folders)


class _Signals:
    """Defer Ctrl-C and termination signals while files are being put in place, so that a commit
    is never torn by them (SIGKILL cannot be deferred: the journal covers it). POSIX blocks them
    with the signal mask; Windows has none, so there Ctrl-C and Ctrl-Break are caught by a handler
    for the duration and raised again at the end."""

    def __enter__(self):
        import signal
        import threading

        self.old = None
        self.held = {}
        self.caught: list[Any] = []
        if threading.current_thread() is not threading.main_thread():
            return self
        if hasattr(signal, "pthread_sigmask"):
            block = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
            self.old = signal.pthread_sigmask(signal.SIG_BLOCK, block)
        else:
            for name in ("SIGINT", "SIGBREAK"):
                if hasattr(signal, name):
                    sig = getattr(signal, name)
                    self.held[sig] = signal.signal(sig, lambda signum, frame: self.caught.append(signum))
        return self

    def __exit__(self, *exc):
        import signal

        if self.old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.old)
        for sig, handler in self.held.items():
            signal.signal(sig, handler)
        if self.caught:
            signal.raise_signal(self.caught[0])  # delivered now, to the handler it was meant for

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


def fsync_dir(directory: Path) -> None:
    """Make a rename in `directory` durable (best effort: some file systems refuse it). Windows
    cannot open a folder as a file, and NTFS journals its renames itself: nothing to do there."""
    if os.name == "nt":
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


def _write_tmp(path: Path, data: bytes) -> Path:
    """Write `data` beside `path` in a temp file, fsynced, with the mode of the regular file it
    replaces, else the umask's (where the system has fchmod: not Windows before Python 3.13, whose
    files have no POSIX mode to keep)."""
    tmp = _tmp_for(path)
    try:  # the mode of the regular file replaced; never of what a link there points to
        st = os.lstat(path)
        mode = st.st_mode & 0o7777 if stat.S_ISREG(st.st_mode) else None
    except (FileNotFoundError, NotADirectoryError):
        mode = None
    if mode is None:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd = os.open(tmp, _TMP_FLAGS, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
        if hasattr(os, "fchmod"):
            os.fchmod(fd, mode)
    except BaseException:
        os.close(fd)
        tmp.unlink(missing_ok=True)
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


def _replace(src: Path, dst: Path) -> None:
    _patiently(os.replace, src, dst)


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


def atomic_write(path: Path, data: bytes) -> None:
    """Replace `path` by `data` atomically: a reader sees the old bytes or the new, never a mix."""
    try:
        _make_parent(path)
        tmp = _write_tmp(path, data)
        try:
            _replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise _write_failed(path, exc) from None
    fsync_dir(path.parent)


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

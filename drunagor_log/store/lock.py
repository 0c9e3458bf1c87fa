"""The campaign lock (SPEC section 6): shared while a command reads, exclusive while it writes.

What it must do, on Linux, macOS and Windows alike:

- shared for readers (they never wait for each other), exclusive for writers (a writer waits for
  readers and writers, a reader for a writer, so nobody reads half of a multi-file write);
- attempts that never block, retried until LOCK_TIMEOUT (DRUNAGOR_LOCK_TIMEOUT) runs out, then
  exit 4 with "another drunagor command is still using this campaign": a command never hangs;
- released by the operating system when the process dies, so a killed command leaves no stale lock;
- on POSIX, the campaign folder itself is locked: no lock file appears in the campaign. The file
  `.drunagor.lock` (ignored by git, see GITIGNORE_PATTERNS) is used only where a folder cannot be
  locked: on Windows, and on the few POSIX file systems that refuse flock on a directory.

Why the platform primitives and not a library (compared in November 2026):

- `filelock` (4.x): `FileLock`/`SoftFileLock` are exclusive only, so readers would wait for each
  other. Its read-write lock is built on SQLite transactions over a database file: a sqlite3 import
  on every command and a database in every campaign folder, instead of the lock-free folder.
- `portalocker` (4.x): exclusive locks on Windows through msvcrt; shared locks there need pywin32
  (its `win32` extra, a large native package) and raise ImportError without it. It locks open
  files, not folders, so the POSIX folder lock would stay ours anyway.
- The primitives give everything in a few lines, with no dependency: `fcntl.flock` on POSIX
  (LOCK_SH / LOCK_EX, LOCK_NB), and on Windows `LockFileEx` / `UnlockFileEx` from kernel32 through
  ctypes (shared or LOCKFILE_EXCLUSIVE_LOCK, LOCKFILE_FAIL_IMMEDIATELY; released by the system when
  the handle is closed or the process ends). `msvcrt.locking` alone will not do: it has no shared
  mode (_LK_RLCK is documented as the same as _LK_LOCK).

Every command takes the shared lock first; a command that then writes turns it exclusive
(`CampaignLock.upgrade`). Neither system converts a lock safely in place: flock(2) converts by
removing the old lock and then placing the new one (not atomic: a LOCK_NB conversion that fails has
already let go of the old one), and LockFileEx refuses an exclusive lock over the handle's own
shared one. Holding the shared lock while waiting for the exclusive one would deadlock two commands
that upgrade at once (each waits for the other's shared lock to go). So the upgrade is explicit and
the same on both: let go of the shared lock, then wait for the exclusive one as any writer does.
Nobody waits while holding anything, so two upgrades never deadlock; the price is that another
writer may get in between, and the caller must check that what it read is unchanged (Campaign does).

The backend is chosen by what imports: `fcntl` (POSIX) or else `msvcrt` (Windows). Both sit behind
the four methods of `_Backend`, so `CampaignLock` (nesting, upgrade, timeout, messages) is one code path.
"""

from __future__ import annotations

import errno
import os
import stat
import threading
import time
from pathlib import Path
from typing import Any

from ..errors import ChangedOnDisk, DataError
from ..values import setting
from .paths import display

LOCK = ".drunagor.lock"  # only where a directory cannot be locked (Windows, some network file systems)
LOCK_TIMEOUT = 10.0  # seconds a command waits for another one before it gives up (exit 4)
SAY_WAITING = 0.5  # seconds of waiting before the command says so (through on_wait)
# What a command says once it has waited SAY_WAITING seconds for the lock (the command line sets it:
# the store prints nothing); it is given the campaign folder as displayed and what the other does.
on_wait: Any = None


# -------------------------------------------------------------------------------------- backends


def open_lock_file(root: Path, extra: int = 0) -> int:
    """Open (create) `.drunagor.lock`, where a folder cannot be locked: never through a link (whoever can
    write a shared folder could plant one, and drunagor would create a file wherever it points), never
    a FIFO or a device; either is a DataError naming it. O_NOFOLLOW where the system has it; Windows
    has none, so there what stands at the name is looked at first."""
    path = root / LOCK
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    if not nofollow and os.path.islink(path):
        raise _not_lock_file(path, "a symbolic link")
    flags = os.O_RDWR | os.O_CREAT | nofollow | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0) | extra
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP or os.path.islink(path):
            raise _not_lock_file(path, "a symbolic link") from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise _not_lock_file(path, "not a regular file")
    return fd


def _not_lock_file(path: Path, what: str) -> DataError:
    return DataError(f"{LOCK} is {what}; drunagor never follows or opens one as its lock file",
                     file=display(path), rule="file",
                     remedy=f"nothing was written; delete it (rm -- {display(path)}) and re-run")


class _Backend:
    """One operating system's lock calls. `lock` is one attempt that never waits: True when the
    lock is had, False when another process holds a conflicting one, OSError when the file system
    cannot lock this descriptor at all."""

    def open(self, root: Path) -> int:
        raise NotImplementedError

    def lock(self, fd: int, shared: bool) -> bool:
        """On a descriptor that holds no lock (`upgrade` lets go of the shared one first)."""
        raise NotImplementedError

    def downgrade(self, fd: int) -> None:
        """Exclusive to shared, never waiting, never letting a writer in between."""
        raise NotImplementedError

    def release(self, fd: int) -> None:
        """Unlock; nothing happens when nothing is held (closing the descriptor releases anything left)."""
        raise NotImplementedError


class _Flock(_Backend):
    """POSIX: flock(2) on a descriptor of the campaign folder itself."""

    # errors that mean "this file system cannot flock a directory": use the lock file instead
    UNSUPPORTED = (errno.EBADF, errno.EINVAL, errno.ENOLCK, errno.EOPNOTSUPP)

    def __init__(self, fcntl) -> None:
        self.fcntl = fcntl

    def open(self, root: Path) -> int:
        return os.open(root, os.O_RDONLY)

    def lock(self, fd: int, shared: bool) -> bool:
        f = self.fcntl
        try:
            f.flock(fd, (f.LOCK_SH if shared else f.LOCK_EX) | f.LOCK_NB)
            return True
        except BlockingIOError:
            return False

    def release(self, fd: int) -> None:
        try:
            self.fcntl.flock(fd, self.fcntl.LOCK_UN)
        except OSError:
            pass

    def downgrade(self, fd: int) -> None:
        try:
            self.fcntl.flock(fd, self.fcntl.LOCK_SH | self.fcntl.LOCK_NB)
        except OSError:
            pass


class _LockFileEx(_Backend):
    """Windows: LockFileEx on the first byte of `.drunagor.lock` (a folder cannot be opened as a
    file there). The byte lies past the end of the empty file: locking it blocks no reads."""

    EXCLUSIVE, FAIL_IMMEDIATELY = 0x2, 0x1  # LOCKFILE_EXCLUSIVE_LOCK, LOCKFILE_FAIL_IMMEDIATELY
    BUSY = (33, 997)  # ERROR_LOCK_VIOLATION; ERROR_IO_PENDING (a handle opened for overlapped I/O)

    def __init__(self, msvcrt) -> None:
        import ctypes
        from ctypes import wintypes

        class Overlapped(ctypes.Structure):  # OVERLAPPED: Offset/OffsetHigh = 0, the first byte
            _fields_ = [("Internal", ctypes.c_size_t), ("InternalHigh", ctypes.c_size_t),
                        ("Offset", wintypes.DWORD), ("OffsetHigh", wintypes.DWORD),
                        ("hEvent", wintypes.HANDLE)]

        windows: Any = ctypes  # WinDLL and get_last_error exist only on Windows (and in the tests' stand-in)
        k32 = windows.WinDLL("kernel32", use_last_error=True)
        k32.LockFileEx.argtypes = [wintypes.HANDLE, wintypes.DWORD, wintypes.DWORD, wintypes.DWORD,
                                   wintypes.DWORD, ctypes.POINTER(Overlapped)]
        k32.LockFileEx.restype = wintypes.BOOL
        k32.UnlockFileEx.argtypes = [wintypes.HANDLE, wintypes.DWORD, wintypes.DWORD, wintypes.DWORD,
                                     ctypes.POINTER(Overlapped)]
        k32.UnlockFileEx.restype = wintypes.BOOL
        self.ctypes, self.k32, self.msvcrt, self.Overlapped = windows, k32, msvcrt, Overlapped

    def open(self, root: Path) -> int:
        if not os.path.isdir(root):  # as on POSIX: a missing folder is not "cannot lock"
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", str(root))
        return open_lock_file(root, getattr(os, "O_NOINHERIT", 0))

    def lock(self, fd: int, shared: bool) -> bool:
        flags = self.FAIL_IMMEDIATELY | (0 if shared else self.EXCLUSIVE)
        handle = self.msvcrt.get_osfhandle(fd)
        if self.k32.LockFileEx(handle, flags, 0, 1, 0, self.ctypes.byref(self.Overlapped())):
            return True
        code = self.ctypes.get_last_error()
        if code in self.BUSY:
            return False
        raise OSError(errno.ENOLCK, f"LockFileEx failed (Windows error {code})")

    def downgrade(self, fd: int) -> None:
        # Documented for LockFileEx: a range locked exclusive and shared by one handle needs two
        # unlocks, and the first releases the exclusive lock. So: add a shared lock, drop the other.
        if self.lock(fd, True):
            self.release(fd)

    def release(self, fd: int) -> None:
        handle = self.msvcrt.get_osfhandle(fd)
        self.k32.UnlockFileEx(handle, 0, 1, 0, self.ctypes.byref(self.Overlapped()))  # none held: ignored


_BACKEND: _Backend | None = None


def backend() -> _Backend:
    """The lock calls of this system (chosen once, at the first lock)."""
    global _BACKEND
    if _BACKEND is None:
        try:
            import fcntl
        except ImportError:
            try:
                import msvcrt
            except ImportError:
                raise DataError("this system offers neither flock (POSIX) nor LockFileEx (Windows), so "
                                "drunagor cannot lock a campaign", rule="lock",
                                remedy="run drunagor on Linux, macOS or Windows") from None
            _BACKEND = _LockFileEx(msvcrt)
        else:
            _BACKEND = _Flock(fcntl)
    return _BACKEND


# ---------------------------------------------------------------------------------- the lock


class _Held:
    """A lock this process holds on one campaign: one descriptor, counted by mode, so that a
    command may open the same campaign twice (nested) without waiting for itself."""

    def __init__(self, fd: int):
        self.fd = fd
        self.shared = 0
        self.exclusive = 0


_HELD: dict[str, _Held] = {}


def _lock_timeout() -> float:
    """DRUNAGOR_LOCK_TIMEOUT in seconds (`0.2`, `120`), by the one number rule; else LOCK_TIMEOUT (`nan`
    waited forever)."""
    return setting(os.environ.get("DRUNAGOR_LOCK_TIMEOUT"), LOCK_TIMEOUT, low=0, high=86_400, fraction=True)


def _key(root: Path) -> str:
    """A lock held is nested per thread: another thread of this process (a phone's action in
    `drunagor serve`, beside `play`'s command) opens its own descriptor and waits for it as another
    process would (flock and LockFileEx exclude each other's descriptors)."""
    return f"{threading.get_ident()}:{os.path.normcase(os.path.realpath(root))}"


class CampaignLock:
    """A lock on one campaign for a read-modify-write: exclusive for writers, shared for readers;
    `upgrade` turns a shared one exclusive when a command that read comes to write.

    On POSIX it is a `flock` on the campaign directory itself, so it leaves no file behind (a lock
    file, .drunagor.lock, only where a directory cannot be locked); on Windows a LockFileEx on
    .drunagor.lock. The system releases it when the process dies, so a killed command never leaves
    a stale lock."""

    def __init__(self, root: Path, timeout: float | None = None, *, shared: bool = False):
        self.root = root
        self.timeout = _lock_timeout() if timeout is None else timeout
        self.shared = shared
        self.fd: int | None = None
        self._key: str | None = None

    def __enter__(self) -> CampaignLock:
        key = _key(self.root)
        held = _HELD.get(key)
        if held is None:
            fd = self._acquire(self._open(), self.shared)
            held = _HELD[key] = _Held(fd)
        elif not self.shared and held.exclusive == 0:
            self._convert(held)  # a write nested in a read of this same process
        if self.shared:
            held.shared += 1
        else:
            held.exclusive += 1
        self._key = key
        self.fd = held.fd
        return self

    def upgrade(self) -> None:
        """Turn this shared lock (entered) exclusive: a command that read and now writes. It waits as
        any writer does, and may be let in after another writer: the caller checks that what it read
        is unchanged (see the module's doc for why it is not converted in place)."""
        if not self.shared or self._key is None:
            return
        held = _HELD[self._key]
        if held.exclusive == 0:
            self._convert(held)
        held.shared -= 1
        held.exclusive += 1
        self.shared = False

    def _convert(self, held: _Held) -> None:
        """Shared to exclusive on the descriptor of this process: let go, then wait for it."""
        lib = backend()
        lib.release(held.fd)
        try:
            self._acquire(held.fd, False, nested=True)
        except BaseException:
            # Not had: take back the shared lock the process's readers count on, if it is free at once
            # (else the command stops anyway, and its lock goes with it).
            try:
                lib.lock(held.fd, True)
            except OSError:
                pass
            raise

    def _open(self) -> int:
        try:
            return backend().open(self.root)
        except OSError as exc:
            raise DataError(f"cannot open the campaign folder ({exc.strerror or exc})",
                            file=display(self.root), rule="file",
                            remedy="check that it exists and its permissions") from None

    def _acquire(self, fd: int, shared: bool, *, nested: bool = False) -> int:
        """Wait for the lock; return the descriptor that holds it (the lock file on a file system
        that cannot lock directories). A descriptor of our own is closed if the lock is not had."""
        lib = backend()
        start = time.monotonic()
        deadline = start + self.timeout
        said = False
        pause = 0.001
        fallback = not nested and isinstance(lib, _Flock)
        try:
            while True:
                try:
                    if lib.lock(fd, shared):
                        return fd
                except OSError as exc:
                    if not fallback or exc.errno not in _Flock.UNSUPPORTED:
                        raise DataError(f"cannot lock the campaign ({exc.strerror or exc})",
                                        file=display(self.root), rule="lock",
                                        remedy="nothing was written; keep the campaign on a local disk, "
                                        "or on a network share that supports file locks") from None
                    fallback = False
                    os.close(fd)
                    fd = -1
                    fd = self._lock_file()
                    continue
                # only a writer keeps a reader out; a writer waits for readers and writers
                what = "writing" if shared else "using"
                if said is False and time.monotonic() > start + SAY_WAITING and self.timeout > SAY_WAITING:
                    said = True
                    if on_wait is not None:
                        on_wait(display(self.root), what, self.timeout)
                if time.monotonic() > deadline:
                    raise ChangedOnDisk(f"another drunagor command is still {what} this campaign "
                                        f"(waited {self.timeout:g} s)", file=display(self.root), rule="lock",
                                        remedy="nothing was written; wait for it to finish, then re-run")
                time.sleep(pause)
                pause = min(pause * 2, 0.02)
        except BaseException:
            if not nested and fd >= 0:
                os.close(fd)
            raise

    def _lock_file(self) -> int:
        try:
            return open_lock_file(self.root)
        except OSError as exc:
            raise DataError(f"cannot lock the campaign ({exc.strerror or exc})",
                            file=display(self.root), rule="file") from None

    def __exit__(self, *exc) -> None:
        if self._key is None:
            return
        held = _HELD.get(self._key)
        key, self._key, self.fd = self._key, None, None
        if held is None:
            return
        if self.shared:
            held.shared -= 1
        else:
            held.exclusive -= 1
        if held.shared <= 0 and held.exclusive <= 0:
            del _HELD[key]
            try:
                backend().release(held.fd)
            finally:
                os.close(held.fd)  # closing the descriptor releases the lock in any case
        elif held.exclusive == 0 and not self.shared:
            backend().downgrade(held.fd)  # back to the shared lock an outer reader holds

    @staticmethod
    def held(root: Path) -> str | None:
        """"exclusive", "shared" or None: what this thread of the process holds on the campaign."""
        h = _HELD.get(_key(root))
        if h is None:
            return None
        return "exclusive" if h.exclusive else "shared"

"""Run Python as drunagor finds it on Windows, on a POSIX machine (used by test_portable.py).

Taken away before anything of drunagor is imported: the POSIX-only modules (`import fcntl` raises
ImportError, as on Windows; also termios, pwd, grp, resource), `os.fchmod` (absent on Windows before
Python 3.13), `os.lockf` and `signal.pthread_sigmask`.

Put in their place, since they do not exist here: a `msvcrt` whose get_osfhandle returns the
descriptor, and a kernel32 whose LockFileEx/UnlockFileEx follow Windows' documented rules for one
handle (an exclusive lock may not overlap any other lock, the handle's own included; a shared lock
may; of an exclusive and a shared lock on the same range, an unlock releases the exclusive one
first), built on the real flock this module keeps to itself. So the store runs its Windows code
path, and two such processes really contend; what the real kernel32 does is for the Windows CI.

    python windowsish.py -m MODULE ARGS...     python windowsish.py -c CODE ARGS...
"""

import ctypes
import fcntl as _fcntl  # kept here only; the program cannot import it
import getpass  # noqa: F401  (these two pick their Windows code when `msvcrt` imports: imported
import os
import runpy
import signal
import subprocess  # noqa: F401  before the stand-in, they stay POSIX as the machine under them)
import sys
import types
from pathlib import Path

for _name in ("fcntl", "termios", "pwd", "grp", "resource"):
    sys.modules[_name] = None  # type: ignore[assignment]  # `import fcntl` -> ImportError
for _owner, _attr in ((os, "fchmod"), (os, "lockf"), (signal, "pthread_sigmask")):
    if hasattr(_owner, _attr):
        delattr(_owner, _attr)

ERROR_LOCK_VIOLATION, ERROR_NOT_LOCKED = 33, 158
_last_error = [0]
_locks: dict[int, list[str]] = {}  # handle -> the locks it holds on the byte: "S" shared, "X" exclusive


def _fail(code: int) -> int:
    _last_error[0] = code
    return 0


def LockFileEx(handle, flags, reserved, low, high, overlapped):  # noqa: N802  (the Windows name)
    assert flags & 0x1 and (reserved, low, high) == (0, 1, 0), "one byte, never waiting in the call"
    held = _locks.setdefault(handle, [])
    exclusive = bool(flags & 0x2)
    if held:
        if exclusive:  # overlaps a lock of this very handle: refused, as by Windows
            return _fail(ERROR_LOCK_VIOLATION)
        held.append("S")  # shared over the handle's own lock: granted, the flock stays as it is
        return 1
    try:
        _fcntl.flock(handle, (_fcntl.LOCK_EX if exclusive else _fcntl.LOCK_SH) | _fcntl.LOCK_NB)
    except BlockingIOError:
        return _fail(ERROR_LOCK_VIOLATION)
    held.append("X" if exclusive else "S")
    return 1


def UnlockFileEx(handle, reserved, low, high, overlapped):  # noqa: N802
    held = _locks.get(handle)
    if not held:
        return _fail(ERROR_NOT_LOCKED)
    held.remove("X" if "X" in held else "S")  # the exclusive lock goes first
    _fcntl.flock(handle, (_fcntl.LOCK_SH | _fcntl.LOCK_NB) if held else _fcntl.LOCK_UN)
    return 1


_kernel32 = types.SimpleNamespace(LockFileEx=LockFileEx, UnlockFileEx=UnlockFileEx)
ctypes.WinDLL = lambda name, use_last_error=False: _kernel32  # type: ignore[attr-defined]
ctypes.get_last_error = lambda: _last_error[0]  # type: ignore[attr-defined]
msvcrt = types.ModuleType("msvcrt")
msvcrt.get_osfhandle = lambda fd: fd  # type: ignore[attr-defined]
sys.modules["msvcrt"] = msvcrt

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository's drunagor_log

if __name__ == "__main__":
    how, what, *rest = sys.argv[1:]
    if how == "-m":
        sys.argv = [what, *rest]
        runpy.run_module(what, run_name="__main__", alter_sys=True)
    else:
        sys.argv = ["-c", *rest]
        exec(compile(what, "<windowsish -c>", "exec"), {"__name__": "__main__"})

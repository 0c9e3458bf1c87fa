"""Writing campaign files (SPEC section 6): atomic writes, and the journal that makes a command's
several files one all-or-nothing commit.

- Atomic: temp file in the same directory, fsync, rename, fsync the directory, mode kept.
- All or nothing: a command that writes several files stages them all as temp files, then writes a
  journal naming them; the journal is the commit point. A crash before it leaves the old files (the
  temp files are swept by the next writing command), a crash after it is rolled forward by the next
  command, reading or writing, before it reads anything.
- Never overwrite someone else's change: just before the rename, every file the command read or
  writes is compared with the bytes it read; if an editor or a `git pull` changed it meanwhile, the
  command stops with exit 4 and writes nothing.

Temp files, the journal and the fallback lock file are named so that one set of `.gitignore`
patterns (GITIGNORE_PATTERNS) hides them from git.

Why no library (compared in December 2026, issue 40): `atomicwrites` 1.4.1 (archived upstream since
2022) writes one file atomically, as `atomic_write` here does, but a command's several files as one
all-or-nothing commit, the roll-forward after a crash and the compare-before-rename are what this
module is for, and none of them is there; it would add its import (16 ms, best of 5) for the part
that is ten lines here.
"""

from __future__ import annotations

import itertools
import os
import re
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import ChangedOnDisk, DataError
from .lock import LOCK, CampaignLock
from .paths import display
from .read import check_inside, current_bytes, read_bytes

TMP_SUFFIX = ".drunagor-tmp"
JOURNAL = ".drunagor-journal"
GITIGNORE_PATTERNS = ("*" + TMP_SUFFIX, JOURNAL + "*", LOCK)


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


# --------------------------------------------------------------------------------------- writing


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


_Step = tuple[Path, Path | None, bytes | None, bytes | None]  # target, temp file (None: a delete), read, written


def _relative(root: Path, path: Path) -> str:
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    if rel.startswith(".."):
        raise ValueError(f"{path} is outside the campaign folder {root}")
    return rel.replace(os.sep, "/")  # the journal reads the same on every system


class Transaction:
    """The files one command will write or delete, committed all together or not at all.

    `write`/`delete` take the bytes the command read (None: the file must not exist); `expect`
    names a file the command only read. All of them are compared with the disk before anything is
    replaced: a difference means someone else changed the campaign meanwhile (exit 4)."""

    def __init__(self, root: Path):
        self.root = root
        self.writes: dict[Path, tuple[bytes, bytes | None]] = {}  # path -> (new bytes, bytes read)
        self.deletes: dict[Path, bytes | None] = {}
        self.reads: dict[Path, bytes | None] = {}

    def write(self, path: Path, data: bytes, expected: bytes | None) -> None:
        """Stage `data` for `path`; `expected` is what we read (None: the file must not exist)."""
        self.writes[path] = (data, expected)

    def delete(self, path: Path, expected: bytes | None) -> None:
        self.deletes[path] = expected

    def expect(self, path: Path, expected: bytes | None) -> None:
        """A file the command read and based its change on, without writing it."""
        self.reads[path] = expected

    def __bool__(self) -> bool:
        return bool(self.writes or self.deletes)

    def _verify(self) -> None:
        items = [(p, exp) for p, (_, exp) in self.writes.items()] + list(self.deletes.items())
        items += [(p, exp) for p, exp in self.reads.items() if p not in self.writes and p not in self.deletes]
        for path, expected in items:
            self._still(path, expected)

    def _still(self, path: Path, expected: bytes | None) -> None:
        """Refuse (exit 4) if `path` no longer holds the bytes the command read."""
        try:  # never through a link, never a FIFO or a device, never more than MAX_FILE_BYTES
            now = current_bytes(path, self.root)
        except DataError as exc:
            exc.remedy = "nothing was written; " + (exc.remedy or "")
            raise
        if now != expected:
            what = ("was created" if expected is None else "was deleted" if now is None else "changed")
            raise ChangedOnDisk(
                f"{what} on disk while the command ran (an editor, a git pull, another drunagor)",
                file=display(path), rule="changed-on-disk",
                remedy="nothing was written; re-run the command")

    def commit(self) -> list[Path]:
        """Write everything; return the paths changed (written or deleted)."""
        if not self:
            return []
        changed = list(self.writes) + list(self.deletes)
        try:  # before anything is staged: no temp file through a linked folder
            for path in changed:
                check_inside(path, self.root)
        except DataError as exc:
            exc.remedy = "nothing was written; " + (exc.remedy or "")
            raise
        with _Signals():
            if len(changed) == 1:
                self._commit_one()
            else:
                self._commit_many()
        return changed

    def _commit_one(self) -> None:
        """One file: a single rename is atomic, no journal needed."""
        if self.writes:
            path, (data, _) = next(iter(self.writes.items()))
            try:
                _make_parent(path)
                tmp = _write_tmp(path, data)
            except OSError as exc:
                raise _write_failed(path, exc) from None
            _test_hook("staged")
            try:
                self._verify()
                self._still(path, self.writes[path][1])  # the target once more, right before its rename
                _replace(tmp, path)
            except OSError as exc:
                tmp.unlink(missing_ok=True)
                raise _write_failed(path, exc) from None
            except BaseException:
                tmp.unlink(missing_ok=True)
                raise
        else:
            path = next(iter(self.deletes))
            self._verify()
            try:
                _patiently(path.unlink, True)  # missing_ok
            except OSError as exc:
                raise _write_failed(path, exc) from None
        _test_hook("applied")
        fsync_dir(path.parent)
        _test_hook("done")

    def _commit_many(self) -> None:
        ops: list[dict] = []
        staged: list[Path] = []
        dirs: set[Path] = set()
        try:
            for path, (data, _) in self.writes.items():
                _make_parent(path)
                tmp = _write_tmp(path, data)
                staged.append(tmp)
                ops.append({"tmp": _relative(self.root, tmp), "target": _relative(self.root, path)})
                dirs.add(path.parent)
                _test_hook("staged")
            for path in self.deletes:
                ops.append({"delete": _relative(self.root, path)})
                dirs.add(path.parent)
            for d in dirs:
                fsync_dir(d)
            # The journal is the commit point: written atomically, so it is either whole or absent.
            journal = self.root / JOURNAL
            import json

            atomic_write(journal, json.dumps({"ops": ops}, indent=1).encode())
        except BaseException as exc:
            for tmp in staged:
                tmp.unlink(missing_ok=True)
            if isinstance(exc, OSError):
                raise _write_failed(self.root, exc) from None
            raise
        _test_hook("journal")
        # Compared after the journal is written, so that only the renames remain between the check
        # and the replacement; and each target once more right before its own rename (_rename_all).
        try:
            self._verify()
        except BaseException:
            journal.unlink(missing_ok=True)
            fsync_dir(self.root)  # the abandoned journal must not come back after a power cut
            for tmp in staged:
                tmp.unlink(missing_ok=True)
            raise
        try:
            self._rename_all(staged)
        except OSError as exc:
            raise _write_failed(self.root / JOURNAL, exc, committed=True) from None

    def _rename_all(self, staged: list[Path]) -> None:
        """The journal's renames and deletes, each target compared once more right before its own (an
        editor saved since _verify: exit 4, the targets replaced so far put back; a kill leaves the journal)."""
        steps: list[_Step] = [(path, tmp, expected, data)
                              for (path, (data, expected)), tmp in zip(self.writes.items(), staged, strict=True)]
        steps += [(path, None, expected, None) for path, expected in self.deletes.items()]
        with _Signals():
            for k, (target, tmp, expected, _) in enumerate(steps):
                try:
                    self._still(target, expected)
                except (ChangedOnDisk, DataError):
                    self._take_back(steps[:k], staged)
                    raise
                if tmp is not None:
                    _replace(tmp, target)
                elif os.path.lexists(target):
                    _patiently(target.unlink)
                _test_hook("applied")
            for d in {target.parent for target, *_ in steps}:
                fsync_dir(d)
            (self.root / JOURNAL).unlink()
            fsync_dir(self.root)
        _test_hook("done")
        _sweep(self.root)

    def _take_back(self, done: list[_Step], staged: list[Path]) -> None:
        for target, _, before, ours in done:
            if current_bytes(target, self.root) != ours:
                continue  # changed again since our rename: not ours to put back
            if before is None:
                _patiently(target.unlink)
            else:
                atomic_write(target, before)
        (self.root / JOURNAL).unlink(missing_ok=True)
        for tmp in staged:
            tmp.unlink(missing_ok=True)
        fsync_dir(self.root)


def pending_journal(root: Path) -> bool:
    """True if a killed command left a committed multi-file write that is not complete yet (or
    something else stands at the journal's name, which roll_forward then refuses)."""
    return os.path.lexists(root / JOURNAL)


MAX_JOURNAL_OPS = 10_000


def _journal_name(name: Any, *, tmp_of: str | None = None) -> bool:
    """A name a journal of drunagor's may hold: a campaign file relative to the folder (no `..`, no
    absolute path, no hidden folder), or, with `tmp_of`, the temp file Transaction staged for it
    (`.NAME.PID-N.drunagor-tmp` in the same folder)."""
    if not isinstance(name, str) or not name or len(name) > 1024 or "\0" in name:
        return False
    parts = name.split(os.sep)
    if os.path.isabs(name) or os.path.splitdrive(name)[0] or any(p in ("", ".", "..") for p in parts):
        return False
    if any(p.startswith(".") for p in parts[:-1]):
        return False
    if tmp_of is None:
        return not parts[-1].endswith(TMP_SUFFIX) and parts[-1] not in (JOURNAL, LOCK)
    head, _, target = tmp_of.rpartition(os.sep)
    own = re.fullmatch(re.escape(f".{target}.") + r"[0-9]+-[0-9]+" + re.escape(TMP_SUFFIX), parts[-1])
    return own is not None and name.rpartition(os.sep)[0] == head


def journal_ops(root: Path) -> list[dict]:
    """The operations of the pending journal, checked as roll_forward checks them (DataError if they
    are not drunagor's own)."""
    return _journal_ops(root)


def _journal_ops(root: Path) -> list[dict]:
    """The operations of a pending journal, once they are known to be drunagor's own and safe to
    carry out: well-formed, naming files inside the campaign folder, through no symbolic link, each
    target a regular file (or absent) and each temp file a regular file. Else one DataError, and the
    journal is left for the user."""
    journal = root / JOURNAL
    shown = display(journal)
    ops = _journal_list(read_bytes(journal, root), shown)
    for op in ops:
        if not _journal_op_ok(op):
            import json

            raise _journal_refused(f"{json.dumps(op)[:200]} does not name drunagor's own files", shown)
    for op in ops:  # every file checked before any is touched: all or nothing
        for key in ("delete", "tmp", "target"):
            if key in op:
                _check_journal_file(root, op[key], shown)
    return ops


def _journal_refused(why: str, shown: str) -> DataError:
    return DataError(f"the journal of an interrupted command is not one drunagor can carry out ({why}); "
                     "it was left as it is", file=shown, rule="journal",
                     remedy=f"compare the files with git (git status, git diff), then delete {JOURNAL} "
                            f"and the .*{TMP_SUFFIX} files")


def _journal_list(raw: bytes, shown: str) -> list:
    """The `ops` list of a journal's JSON, refused if the JSON is not exactly {"ops": [...]}."""
    try:
        import json

        doc = json.loads(raw)
    except (ValueError, RecursionError):
        raise _journal_refused("it is not valid JSON", shown) from None
    ops = doc.get("ops") if isinstance(doc, dict) and set(doc) == {"ops"} else None
    if not isinstance(ops, list) or len(ops) > MAX_JOURNAL_OPS:
        raise _journal_refused("it is not a list of operations", shown)
    return ops


def _journal_op_ok(op: Any) -> bool:
    """A delete of a campaign file, or the rename of its own temp file onto a campaign file."""
    if not isinstance(op, dict):
        return False
    if set(op) == {"delete"}:
        return _journal_name(op["delete"])
    return (set(op) == {"tmp", "target"} and _journal_name(op["target"])
            and _journal_name(op["tmp"], tmp_of=op["target"]))


def _check_journal_file(root: Path, name: str, shown: str) -> None:
    """Refuse a journal's file that lies outside the folder, behind a link, or is not a regular file
    (an absent one is fine: a rename or delete done before the crash)."""
    path = root / name
    try:
        check_inside(path, root)
        mode = os.lstat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return
    except OSError as exc:
        raise _journal_refused(f"{name} cannot be read ({exc.strerror or exc})", shown) from None
    except DataError as exc:
        raise _journal_refused(f"{name}: {exc.message}", shown) from None
    if not stat.S_ISREG(mode):
        what = "a symbolic link" if stat.S_ISLNK(mode) else "not a regular file"
        raise _journal_refused(f"{name} is {what}", shown)


def journal_files(root: Path) -> list[str]:
    """The files a pending journal writes or deletes, relative to the campaign folder."""
    try:
        ops = _journal_ops(root)
    except (DataError, OSError):
        return []
    return [str(op.get("target") or op.get("delete")) for op in ops]


def roll_forward(root: Path) -> bool:
    """Finish a committed multi-file write (the journal exists), or sweep the temp files of one that
    never reached its commit point. Idempotent; returns True if a journal was completed.
    A journal that is not drunagor's own, or would reach outside the campaign folder, is refused
    (DataError) and left alone. Call it only under the campaign's exclusive lock."""
    journal = root / JOURNAL
    if pending_journal(root):
        ops = _journal_ops(root)
        dirs = set()
        with _Signals():
            for op in ops:
                if "delete" in op:
                    target = root / op["delete"]
                    if os.path.lexists(target):
                        _patiently(target.unlink)
                else:
                    tmp, target = root / op["tmp"], root / op["target"]
                    if os.path.lexists(tmp):  # else: already renamed before the crash
                        _replace(tmp, target)
                dirs.add(target.parent)
                _test_hook("applied")
            for d in dirs:
                fsync_dir(d)
            journal.unlink()
            fsync_dir(root)
        _test_hook("done")
        _sweep(root)
        return True
    _sweep(root)
    return False


def _sweep(root: Path) -> None:
    for tmp in _temp_files(root):
        try:
            tmp.unlink()
        except FileNotFoundError:
            pass


def _temp_files(root: Path) -> Iterator[Path]:
    """Temp files of writes that never reached their commit point: in the campaign folder and its
    immediate subfolders (heroes/, adventures/), where the store writes."""
    try:
        entries = list(os.scandir(root))
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith(".") and entry.name.endswith(TMP_SUFFIX):
            yield Path(entry.path)
        elif entry.is_dir(follow_symlinks=False) and not entry.name.startswith("."):
            try:
                with os.scandir(entry.path) as sub:
                    for e in sub:
                        if e.name.startswith(".") and e.name.endswith(TMP_SUFFIX):
                            yield Path(e.path)
            except OSError:
                continue


def complete_pending(root: Path) -> bool:
    """Roll forward a journal left by a killed command, under the exclusive lock; returns True if
    there was one. Raises DataError if the folder is read-only and a journal is pending."""
    if not pending_journal(root):
        return False
    with CampaignLock(root):
        try:
            return roll_forward(root)
        except OSError as exc:
            raise DataError(f"an interrupted command left changes to complete, and they cannot be "
                            f"written ({exc.strerror or exc})", file=display(root / JOURNAL),
                            rule="journal", remedy="make the campaign folder writable and re-run") from None

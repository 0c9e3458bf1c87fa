"""A command's several files committed all together or not at all (SPEC section 6).

A command that writes several files stages them all as temp files (atomic.py), then writes a journal
naming them; the journal is the commit point. A crash before it leaves the old files (the temp files are
swept by the next writing command), a crash after it is rolled forward by the next command, reading or
writing, before it reads anything (journal.py). Never overwrite someone else's change: just before the
rename, every file the command read or writes is compared with the bytes it read; if an editor or a
`git pull` changed it meanwhile, the command stops with exit 4 and writes nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import ChangedOnDisk, DataError
from .atomic import (
    JOURNAL,
    Folders,
    _make_parent,
    _replace,
    _Signals,
    _test_hook,
    _unlink,
    _write_failed,
    _write_tmp,
    atomic_write,
    fsync_dir,
)
from .journal import _sweep
from .paths import display
from .read import check_inside, current_bytes

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
        self._folders: Folders | None = None  # while commit() runs
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
        # every file created, renamed or removed in a folder opened once, through no link (Folders)
        with _Signals(), Folders(self.root) as folders:
            self._folders = folders
            try:
                if len(changed) == 1:
                    self._commit_one()
                else:
                    self._commit_many()
            finally:
                self._folders = None
        return changed

    def _commit_one(self) -> None:
        """One file: a single rename is atomic, no journal needed."""
        if self.writes:
            path, (data, _) = next(iter(self.writes.items()))
            try:
                _make_parent(path)
                tmp = _write_tmp(path, data, self._folders)
            except OSError as exc:
                raise _write_failed(path, exc) from None
            _test_hook("staged")
            try:
                self._verify()
                self._still(path, self.writes[path][1])  # the target once more, right before its rename
                _replace(tmp, path, self._folders)
            except OSError as exc:
                self._discard([tmp])
                raise _write_failed(path, exc) from None
            except BaseException:
                self._discard([tmp])
                raise
        else:
            path = next(iter(self.deletes))
            self._verify()
            try:
                _unlink(path, self._folders, missing_ok=True)
            except OSError as exc:
                raise _write_failed(path, exc) from None
        _test_hook("applied")
        fsync_dir(path.parent, self._folders)
        _test_hook("done")

    def _commit_many(self) -> None:
        ops: list[dict] = []
        staged: list[Path] = []
        dirs: set[Path] = set()
        try:
            for path, (data, _) in self.writes.items():
                _make_parent(path)
                tmp = _write_tmp(path, data, self._folders)
                staged.append(tmp)
                ops.append({"tmp": _relative(self.root, tmp), "target": _relative(self.root, path)})
                dirs.add(path.parent)
                _test_hook("staged")
            for path in self.deletes:
                ops.append({"delete": _relative(self.root, path)})
                dirs.add(path.parent)
            for d in dirs:
                fsync_dir(d, self._folders)
            # The journal is the commit point: written atomically, so it is either whole or absent.
            journal = self.root / JOURNAL
            import json

            atomic_write(journal, json.dumps({"ops": ops}, indent=1).encode(), self._folders)
        except BaseException as exc:
            self._discard(staged)
            if isinstance(exc, OSError):
                raise _write_failed(self.root, exc) from None
            raise
        _test_hook("journal")
        # Compared after the journal is written, so that only the renames remain between the check
        # and the replacement; and each target once more right before its own rename (_rename_all).
        try:
            self._verify()
        except BaseException:
            _unlink(journal, self._folders, missing_ok=True)
            fsync_dir(self.root, self._folders)  # the abandoned journal must not come back after a power cut
            self._discard(staged)
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
                    _replace(tmp, target, self._folders)
                else:
                    _unlink(target, self._folders, missing_ok=True)
                _test_hook("applied")
            for d in {target.parent for target, *_ in steps}:
                fsync_dir(d, self._folders)
            _unlink(self.root / JOURNAL, self._folders)
            fsync_dir(self.root, self._folders)
        _test_hook("done")
        _sweep(self.root)

    def _take_back(self, done: list[_Step], staged: list[Path]) -> None:
        for target, _, before, ours in done:
            if current_bytes(target, self.root) != ours:
                continue  # changed again since our rename: not ours to put back
            if before is None:
                _unlink(target, self._folders)
            else:
                atomic_write(target, before, self._folders)
        _unlink(self.root / JOURNAL, self._folders, missing_ok=True)
        self._discard(staged)
        fsync_dir(self.root, self._folders)

    def _discard(self, staged: list[Path]) -> None:
        """Remove the temp files staged (in their folders' descriptors), whatever else failed."""
        for tmp in staged:
            try:
                _unlink(tmp, self._folders, missing_ok=True)
            except (OSError, ValueError):
                pass

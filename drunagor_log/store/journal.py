"""The journal a killed command left: what it may hold, and carrying it out (SPEC section 6).

A multi-file write (transaction.py) is committed by its journal, `.drunagor-journal` in the campaign
folder; a command killed after writing it leaves it, and the next command, reading or writing, completes
it under the exclusive lock before it reads anything (complete_pending). A journal is carried out only
when it is drunagor's own: well-formed, naming files inside the campaign through no link, each temp file
the one staged for its target; else it is left for the user (exit 3). The temp files of a write that
never reached its journal are swept.

The journal, the temp files and the fallback lock file are named so that one set of `.gitignore`
patterns (GITIGNORE_PATTERNS) hides them from git.

Why no library (compared in December 2026, issue 40): `atomicwrites` 1.4.1 (archived upstream since
2022) writes one file atomically, as `atomic_write` here does, but a command's several files as one
all-or-nothing commit, the roll-forward after a crash and the compare-before-rename are what this
module is for, and none of them is there; it would add its import (16 ms, best of 5) for the part
that is ten lines here.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import DataError
from ..text import shell_word
from .atomic import (
    JOURNAL,
    TMP_SUFFIX,
    Folders,
    _replace,
    _Signals,
    _test_hook,
    _unlink,
    fsync_dir,
)
from .lock import LOCK, CampaignLock
from .paths import display
from .read import check_inside, read_bytes

GITIGNORE_PATTERNS = ("*" + TMP_SUFFIX, JOURNAL + "*", LOCK)


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
    carry out: well-formed, writing at least one file (a multi-file write of drunagor's always writes one:
    its one delete, of adventure.toml at `adventure end`, comes with the archive and the Story Record; a
    journal that only deletes came from elsewhere, whatever git says), naming files inside the campaign
    folder, through no symbolic link, each target a regular file (or absent) and each temp file a regular
    file. Else one DataError, and the journal is left for the user."""
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
    if not any("tmp" in op for op in ops):
        raise DataError("this journal writes no file, so it is not from an interrupted command here (drunagor's "
                        "journals always write one); nothing was changed", file=shown, rule="journal",
                        remedy=f"delete it: rm -- {shell_word(shown)}")
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
        with _Signals(), Folders(root) as folders:  # each folder opened once, through no link
            for op in ops:
                if "delete" in op:
                    target = root / op["delete"]
                    _unlink(target, folders, missing_ok=True)
                else:
                    tmp, target = root / op["tmp"], root / op["target"]
                    try:
                        _replace(tmp, target, folders)
                    except FileNotFoundError:  # renamed before the crash
                        pass
                dirs.add(target.parent)
                _test_hook("applied")
            for d in dirs:
                fsync_dir(d, folders)
            _unlink(journal, folders)
            fsync_dir(root, folders)
        _test_hook("done")
        _sweep(root)
        return True
    _sweep(root)
    return False


def _sweep(root: Path) -> None:
    with Folders(root) as folders:  # a folder swapped for a link since the listing: left alone
        for tmp in _temp_files(root):
            try:
                _unlink(tmp, folders, missing_ok=True)
            except OSError as exc:
                if exc.errno not in (errno.ELOOP, errno.ENOTDIR):  # not a folder swapped meanwhile
                    raise


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

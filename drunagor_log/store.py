"""The TOML store: the one module that reads and writes campaign files.

Reading uses the standard library's `tomllib` (fast, plain values); a file is parsed a second time
with tomlkit only when a command edits it, so comments, key order, blank lines and unknown keys
survive (STYLE.md: parse, mutate in place, write back; never rebuild a table from a dict).

Writing is atomic: temp file in the same directory, fsync, rename, fsync the directory, mode kept.
A command that writes several files stages them all, then writes a journal naming them; the journal
is the commit point. A crash before it leaves the old files (temp files are swept), a crash after it
is rolled forward by the next command. A lock around read-modify-write keeps two commands from losing
an update, and every file is compared with what was read before it is replaced (exit 4 if it changed).
"""

from __future__ import annotations

import json
import os
import re
import time
import tomllib
from pathlib import Path
from typing import Any, Iterator

from .errors import ChangedOnDisk, DataError

SCHEMA = 1
TMP_SUFFIX = ".drunagor-tmp"
JOURNAL = ".drunagor-journal"
LOCK = ".drunagor.lock"
LOCK_TIMEOUT = 10.0  # seconds a writing command waits for another one before it gives up (exit 4)

_CONFLICT = re.compile(rb"^(<{7}|={7}|>{7}|\|{7})(?: |$)", re.M)
_TOML_LINE = re.compile(r"at line (\d+)")


def display(path: Path) -> str:
    """A path as the user should see it: relative to the current directory when below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


# --------------------------------------------------------------------------------------- reading


def read_bytes(path: Path) -> bytes:
    shown = display(path)
    if path.is_dir():
        raise DataError("a directory stands where a file should be", rule="file",
                        file=shown, remedy="move it away and restore the file (git checkout)")
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise DataError("file not found", file=shown, rule="file") from None
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc.strerror})", file=shown, rule="file") from None


def conflict_lines(raw: bytes) -> list[int]:
    """Line numbers of unresolved git conflict markers (checked before parsing: tomlkit and
    tomllib would report them as a confusing syntax error)."""
    return [raw.count(b"\n", 0, m.start()) + 1 for m in _CONFLICT.finditer(raw)]


def parse(raw: bytes, path: Path) -> dict[str, Any]:
    """Plain values of a TOML file, or one DataError that says where and what."""
    shown = display(path)
    if not raw.strip():
        raise DataError("the file is empty", file=shown, rule="empty-file",
                        remedy="restore it from git (git checkout -- FILE) or delete it")
    lines = conflict_lines(raw)
    if lines:
        raise DataError(
            "unresolved git conflict markers at line" + ("s " if len(lines) > 1 else " ")
            + ", ".join(map(str, lines)),
            file=shown, line=lines[0], rule="conflict-markers",
            remedy="keep the right side of each conflict, delete the marker lines, then commit")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise DataError(f"the file is not UTF-8 text (byte {exc.start})", file=shown, line=line, rule="encoding",
                        remedy="save it as UTF-8") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = _TOML_LINE.search(str(exc))
        msg = str(exc).split(" (at line")[0]
        raise DataError(f"not valid TOML: {msg}", file=shown, line=int(m.group(1)) if m else None, rule="toml-syntax",
                        remedy="fix the syntax at that line (quotes, brackets, one key = value)") from None


def line_of(text: str, key_path: tuple) -> int | None:
    """Best-effort line of a key path like ("rules", "max_heroes") or ("skills", 2, "level")."""
    lines = text.splitlines()
    start = 0
    names = [k for k in key_path if isinstance(k, str)]
    if not names:
        return None
    # A table header for the leading keys ([rules], [chest], [[...]]) narrows the search.
    for depth in range(len(names) - 1, 0, -1):
        header = ".".join(_key_pattern(n) for n in names[:depth])
        rx = re.compile(r"^\s*\[\[?\s*" + header + r"\s*\]\]?\s*(#.*)?$")
        for i, line in enumerate(lines):
            if rx.match(line):
                start, names = i + 1, names[depth:]
                break
        else:
            continue
        break
    rx = re.compile(r"^\s*" + _key_pattern(names[0]) + r"\s*[=.]")
    for i in range(start, len(lines)):
        if rx.match(lines[i]):
            return i + 1
    if start == 0:  # a whole table: its header line
        rx = re.compile(r"^\s*\[\[?\s*" + _key_pattern(names[0]) + r"\s*[\].]")
        for i, line in enumerate(lines):
            if rx.match(line):
                return i + 1
    return start or None


def _key_pattern(name: str) -> str:
    esc = re.escape(name)
    return rf"(?:{esc}|\"{esc}\"|'{esc}')"


class TomlFile:
    """One campaign file as read: its bytes, its plain values, and (on demand) an editable tomlkit
    document. `new_bytes()` is None while nothing changed, so an unchanged file is never written."""

    def __init__(self, path: Path, raw: bytes | None = None, *, data: dict | None = None):
        self.path = path
        self.shown = display(path)
        if raw is None:  # a new file, created by this command
            self.raw = None
            self.data = data if data is not None else {}
            self._doc = None
            self._text = None
            return
        self.raw = raw
        self.data = parse(raw, path)
        self._doc = None
        self._text = None
        check_schema(self.data, self)

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = (self.raw or b"").decode("utf-8")
        return self._text

    @property
    def read_only(self) -> bool:
        schema = self.data.get("schema")
        return isinstance(schema, int) and not isinstance(schema, bool) and schema > SCHEMA

    def edit(self):
        """The tomlkit document to mutate in place (parsed once, lazily: tomlkit is slow to import)."""
        if self.read_only:
            raise DataError(f"schema {self.data['schema']} is newer than this drunagor knows "
                            f"({SCHEMA}); the file is read-only", file=self.shown, line=1, rule="schema",
                            remedy="upgrade drunagor (pip install -U drunagor)")
        if self._doc is None:
            import tomlkit

            self._doc = tomlkit.parse(self.text) if self.raw is not None else tomlkit.document()
        return self._doc

    def new_bytes(self) -> bytes | None:
        if self._doc is None:
            return None
        import tomlkit

        out = tomlkit.dumps(self._doc).encode("utf-8")
        return None if out == self.raw else out

    def line(self, key_path: tuple) -> int | None:
        return line_of(self.text, key_path) if self.raw is not None else None

    def error(self, message: str, key_path: tuple = (), remedy: str | None = None) -> DataError:
        return DataError(message, file=self.shown, line=self.line(key_path) if key_path else None,
                         remedy=remedy)


def check_schema(data: dict, f: TomlFile) -> None:
    schema = data.get("schema")
    if schema is None:
        raise DataError("no `schema` key", file=f.shown, line=1, rule="schema",
                        remedy=f"add `schema = {SCHEMA}` as the first line")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 0:
        raise DataError(f"`schema` must be a whole number, not {schema!r}", file=f.shown, rule="schema",
                        line=f.line(("schema",)), remedy=f"write `schema = {SCHEMA}`")
    if schema < SCHEMA:
        raise DataError(f"schema {schema} is older than this drunagor's ({SCHEMA})", file=f.shown, rule="schema",
                        line=f.line(("schema",)), remedy="run `drunagor migrate`")


def load(path: Path) -> TomlFile:
    return TomlFile(path, read_bytes(path))


# --------------------------------------------------------------------------------------- writing


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _tmp_for(path: Path) -> Path:
    return path.with_name("." + path.name + TMP_SUFFIX)


def _write_tmp(path: Path, data: bytes) -> Path:
    """Write `data` beside `path` in a temp file, fsynced, with the target's mode."""
    tmp = _tmp_for(path)
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)
    os.chmod(tmp, mode)
    return tmp


def atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _write_tmp(path, data)
    os.replace(tmp, path)
    _fsync_dir(path.parent)


class Transaction:
    """The files one command will write or delete, committed all together or not at all."""

    def __init__(self, root: Path):
        self.root = root
        self.writes: dict[Path, tuple[bytes, bytes | None]] = {}  # path -> (new bytes, bytes read)
        self.deletes: dict[Path, bytes | None] = {}

    def write(self, path: Path, data: bytes, expected: bytes | None) -> None:
        """Stage `data` for `path`; `expected` is what we read (None: the file must not exist)."""
        self.writes[path] = (data, expected)

    def delete(self, path: Path, expected: bytes | None) -> None:
        self.deletes[path] = expected

    def __bool__(self) -> bool:
        return bool(self.writes or self.deletes)

    def _verify(self) -> None:
        items = [(p, exp) for p, (_, exp) in self.writes.items()] + list(self.deletes.items())
        for path, expected in items:
            try:
                now = path.read_bytes()
            except FileNotFoundError:
                now = None
            except IsADirectoryError:
                now = b"<directory>"
            if now != expected:
                raise ChangedOnDisk(
                    "changed on disk while the command ran (an editor, a git pull, another drunagor)",
                    file=display(path), remedy="nothing was written; re-run the command")

    def commit(self) -> list[Path]:
        """Write everything; return the paths changed (written or deleted)."""
        if not self:
            return []
        self._verify()
        changed = list(self.writes) + list(self.deletes)
        if len(changed) == 1 and not self.deletes:
            path, (data, _) = next(iter(self.writes.items()))
            atomic_write(path, data)
            return changed
        ops = []
        dirs = set()
        for path, (data, _) in self.writes.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = _write_tmp(path, data)
            ops.append({"tmp": str(tmp.relative_to(self.root)), "target": str(path.relative_to(self.root))})
            dirs.add(path.parent)
        for path in self.deletes:
            ops.append({"delete": str(path.relative_to(self.root))})
            dirs.add(path.parent)
        for d in dirs:
            _fsync_dir(d)
        # The journal is the commit point: written atomically, so it is either whole or absent.
        atomic_write(self.root / JOURNAL, json.dumps({"ops": ops}, indent=1).encode())
        if os.environ.get("DRUNAGOR_CRASH_AFTER_JOURNAL"):  # test hook: die at the commit point
            os._exit(137)
        roll_forward(self.root)
        return changed


def roll_forward(root: Path) -> bool:
    """Finish a committed multi-file write (the journal exists), or sweep the temp files of one that
    never reached its commit point. Idempotent; returns True if a journal was completed."""
    journal = root / JOURNAL
    if journal.exists():
        ops = json.loads(journal.read_bytes())["ops"]
        dirs = set()
        for op in ops:
            if "delete" in op:
                target = root / op["delete"]
                target.unlink(missing_ok=True)
            else:
                tmp, target = root / op["tmp"], root / op["target"]
                if tmp.exists():
                    os.replace(tmp, target)
            dirs.add(target.parent)
        for d in dirs:
            _fsync_dir(d)
        journal.unlink()
        _fsync_dir(root)
        return True
    for tmp in _temp_files(root):
        tmp.unlink(missing_ok=True)
    return False


def _temp_files(root: Path) -> Iterator[Path]:
    yield from root.glob("." + "*" + TMP_SUFFIX)
    for sub in ("heroes", "adventures"):
        if (root / sub).is_dir():
            yield from (root / sub).glob("." + "*" + TMP_SUFFIX)


class CampaignLock:
    """An exclusive lock on one campaign for a read-modify-write (flock on a lock file)."""

    def __init__(self, root: Path, timeout: float = LOCK_TIMEOUT):
        self.root = root
        self.timeout = timeout
        self.fd: int | None = None

    def __enter__(self) -> "CampaignLock":
        import fcntl

        self.fd = os.open(self.root / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return self
            except BlockingIOError:
                if time.monotonic() > deadline:
                    os.close(self.fd)
                    self.fd = None
                    raise ChangedOnDisk("another drunagor command is still writing this campaign",
                                        file=display(self.root), remedy="wait for it, then re-run") from None
                time.sleep(0.02)

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing the descriptor releases the flock
            self.fd = None

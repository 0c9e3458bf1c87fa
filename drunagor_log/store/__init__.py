"""The TOML store: the one module that reads and writes campaign files.

Reading uses the standard library's `tomllib` (fast, plain values); a file is parsed a second time
with tomlkit only when a command edits it, so comments, key order, blank lines and unknown keys
survive (STYLE.md: parse, mutate in place, write back; never rebuild a table from a dict).

Writing (SPEC section 6):

- Atomic: temp file in the same directory, fsync, rename, fsync the directory, mode kept.
- All or nothing: a command that writes several files stages them all as temp files, then writes a
  journal naming them; the journal is the commit point. A crash before it leaves the old files (the
  temp files are swept by the next writing command), a crash after it is rolled forward by the next
  command, reading or writing, before it reads anything.
- No lost update: writers hold an exclusive lock on the campaign from their first read to their last
  write, readers a shared one (so they never see half of a multi-file write); a second writer waits
  for the first, or stops with exit 4 after LOCK_TIMEOUT seconds.
- Never overwrite someone else's change: just before the rename, every file the command read or
  writes is compared with the bytes it read; if an editor or a `git pull` changed it meanwhile, the
  command stops with exit 4 and writes nothing.

Temp files, the journal and the fallback lock file are named so that one set of `.gitignore`
patterns (GITIGNORE_PATTERNS) hides them from git.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import re
import stat
import time
import tomllib
from pathlib import Path
from typing import Any, Iterator

from ..errors import ChangedOnDisk, DataError, DrunagorError, located
from .lock import LOCK, LOCK_TIMEOUT, CampaignLock  # noqa: F401  (store.CampaignLock, store.LOCK)

SCHEMA = 1
TMP_SUFFIX = ".drunagor-tmp"
JOURNAL = ".drunagor-journal"
GITIGNORE_PATTERNS = ("*" + TMP_SUFFIX, JOURNAL + "*", LOCK)

# Conflict markers: 7 characters at column 0, then a space or the end of the line. `<<<<<<<` and
# `>>>>>>>` are unambiguous, even alone (a conflict half resolved by hand); `=======` and `|||||||` may
# be text inside a multi-line string, so they count only in a file that is not valid TOML.
_CONFLICT_SURE = re.compile(rb"^(?:<{7}|>{7})(?: |\r?$)", re.M)
_CONFLICT_MAYBE = re.compile(rb"^(?:={7}|\|{7})(?: |\r?$)", re.M)
_CONFLICT = re.compile(rb"^(<{7}|={7}|>{7}|\|{7})(?: |\r?$)", re.M)
_TOML_LINE = re.compile(r"at line (\d+)")
_SCHEMA_LINE = re.compile(rb"^\s*schema\s*=\s*(\d+)\s*(?:#.*)?$", re.M)


def display(path: Path) -> str:
    """A path as the user should see it: relative to the current directory when below it.
    (String work on absolute paths: resolving symlinks cost a syscall per path component, for every
    file a command reads.)"""
    try:
        cwd = os.getcwd()
    except OSError:
        return str(path)
    full = os.path.abspath(path)
    if full == cwd:
        return "."
    if full.startswith(cwd.rstrip(os.sep) + os.sep):
        return full[len(cwd.rstrip(os.sep)) + 1:].replace(os.sep, "/")  # one message on every system
    return str(path)


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


# --------------------------------------------------------------------------------------- reading

# Limits on what a campaign file may hold (README "When something is wrong"). A real campaign is far
# below them (a Story Record is ~2 KB, an archived adventure ~3 KB, a list a few dozen entries); they
# keep a hostile file from costing minutes or gigabytes (tomllib is quadratic in a dotted key's parts,
# tomlkit in a string's length). Checked once, when a file is read.
MAX_FILE_BYTES = 1 << 20  # 1 MiB: a bigger file is refused, never read to its end
MAX_TEXT = 10_000  # characters of one string or key
MAX_ENTRIES = 10_000  # entries of one list or table
MAX_DEPTH = 20  # tables, lists and dotted-key parts nested in one another

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_OPEN_FLAGS = os.O_RDONLY | _NOFOLLOW | _NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_RESTORE = "restore it from git (git checkout -- FILE)"
_LINK_REMEDY = ("replace the link by the file itself: drunagor reads and writes only regular files "
                "inside the campaign folder")


def not_regular(st_mode: int, shown: str) -> DataError:
    if stat.S_ISDIR(st_mode):
        return DataError("a directory stands where a file should be", rule="file", file=shown,
                         remedy="move the directory away and restore the file (git checkout -- FILE)")
    if stat.S_ISLNK(st_mode):
        return DataError("a symbolic link stands where a campaign file should be", rule="file",
                         file=shown, remedy=_LINK_REMEDY)
    return DataError("not a regular file (a FIFO, a device or a socket stands where a campaign file should be)",
                     rule="file", file=shown, remedy="delete it and " + _RESTORE)


def _too_big(shown: str) -> DataError:
    return DataError(f"the file is larger than {MAX_FILE_BYTES // 1024} KiB, far more than a campaign "
                     "holds; it was not read", rule="file-size", file=shown,
                     remedy=_RESTORE + " or delete what does not belong in it")


def check_inside(path: Path, root: Path | None) -> None:
    """Refuse `path` if a folder between `root` and it is a symbolic link (or not a folder): the
    campaign's files are read and written only inside the campaign folder. A missing folder is
    fine (a file to create). Without `root`, nothing is checked."""
    if root is None:
        return
    full, top = os.fspath(path), os.fspath(root).rstrip(os.sep)
    if full.startswith(top + os.sep) and os.sep + ".." not in full[len(top):]:
        rel = full[len(top) + 1:]  # the usual case, without the cost of relpath
    else:
        rel = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    parts = rel.split(os.sep)
    if parts[0] == os.pardir or os.path.isabs(rel):
        raise DataError("outside the campaign folder", file=display(path), rule="file",
                        remedy="drunagor reads and writes only files inside the campaign folder")
    where = root
    for part in parts[:-1]:
        where = where / part
        try:
            mode = os.lstat(where).st_mode
        except (FileNotFoundError, NotADirectoryError):
            return
        except OSError as exc:
            raise DataError(f"cannot read the folder ({exc.strerror or exc})", file=display(where),
                            rule="file", remedy="check its permissions") from None
        if stat.S_ISLNK(mode):
            raise DataError("a symbolic link stands where a campaign folder should be", file=display(where),
                            rule="file", remedy="replace the link by the folder itself: drunagor reads and "
                                                "writes only inside the campaign folder")
        if not stat.S_ISDIR(mode):
            raise DataError("a file stands where a folder should be", file=display(where), rule="file",
                            remedy="move the file away; " + _RESTORE)


def current_bytes(path: Path, root: Path | None = None) -> bytes | None:
    """What `path` holds now, None if it does not exist: `read_bytes` that takes a missing file
    (or a missing folder above it) for an answer."""
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        check_inside(path, root)
        return None
    except OSError:
        pass  # read_bytes says why
    return read_bytes(path, root)


def read_bytes(path: Path, root: Path | None = None) -> bytes:
    """The bytes of one campaign file, safely: a regular file only (not a symbolic link, a FIFO, a
    device), at most MAX_FILE_BYTES (a bigger one is refused, never read to its end), and with
    `root`, no symbolic link in the folders between the campaign folder and the file."""
    shown = display(path)
    check_inside(path, root)
    fd = _open_regular(path, shown)
    try:
        return _read_capped(fd, shown)
    finally:
        os.close(fd)


def _unreadable(exc: OSError, shown: str) -> DataError:
    return DataError(f"cannot read the file ({exc.strerror or exc})", file=shown, rule="file",
                     remedy="check its permissions")


def _open_regular(path: Path, shown: str) -> int:
    """A descriptor of `path` opened for reading, if it is a regular file: a device or a FIFO is
    never opened (that may block or act), and a link put in its place since the lstat is refused."""
    try:
        mode = os.lstat(path).st_mode
        if not stat.S_ISREG(mode):
            raise not_regular(mode, shown)
        return os.open(path, _OPEN_FLAGS)
    except (FileNotFoundError, NotADirectoryError):
        raise DataError("file not found", file=shown, rule="file", remedy=_RESTORE) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # swapped for a link since the lstat
            raise not_regular(stat.S_IFLNK, shown) from None
        raise _unreadable(exc, shown) from None


def _read_capped(fd: int, shown: str) -> bytes:
    """Everything an open regular file holds, refused (never read to its end) beyond MAX_FILE_BYTES."""
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise not_regular(st.st_mode, shown)
        if st.st_size > MAX_FILE_BYTES:
            raise _too_big(shown)
        chunks, size, want = [], 0, st.st_size + 1
        while size <= MAX_FILE_BYTES:  # at most MAX_FILE_BYTES + 1 bytes, whatever fstat said
            chunk = os.read(fd, min(want, MAX_FILE_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            want = 1 << 16
    except OSError as exc:
        raise _unreadable(exc, shown) from None
    if size > MAX_FILE_BYTES:
        raise _too_big(shown)
    return b"".join(chunks)  # one chunk: no copy


def peek(path: Path | str) -> bytes | None:
    """The bytes of `path` if it is a regular file (not a link) within MAX_FILE_BYTES, else None:
    never an error (the scan for conflict markers; the command that needs a file refuses it by name)."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_FILE_BYTES:
            return None
        return os.read(fd, st.st_size + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def conflict_lines(raw: bytes) -> list[int]:
    """Line numbers of unresolved git conflict markers (checked before parsing: tomlkit and
    tomllib would report them as a confusing syntax error). A `<<<<<<<` or `>>>>>>>` line is a marker
    even alone; `=======` and `|||||||` lines are markers only when the file does not parse as TOML (in
    a valid file they are text inside a multi-line string)."""
    if not _CONFLICT_SURE.search(raw):
        if not _CONFLICT_MAYBE.search(raw):
            return []
        try:
            tomllib.loads(raw.decode("utf-8-sig"))
            return []  # valid TOML: the lines are text
        except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
            pass
    return [raw.count(b"\n", 0, m.start()) + 1 for m in _CONFLICT.finditer(raw)]


def conflict_error(raw: bytes, shown: str) -> DataError | None:
    """The refusal of a file holding unresolved git conflict markers, or None."""
    lines = conflict_lines(raw)
    if not lines:
        return None
    return DataError(
        "unresolved git conflict markers at line" + ("s " if len(lines) > 1 else " ") + ", ".join(map(str, lines)),
        file=shown, line=lines[0], rule="conflict-markers",
        remedy="keep the right side of each conflict, delete the marker lines, then commit")


def has_conflict(raw: bytes) -> bool:
    """True if `raw` holds a `<<<<<<<` or `>>>>>>>` marker line (the scan of every campaign file at
    load: a substring test first, the line test only then)."""
    return (b"<<<<<<<" in raw or b">>>>>>>" in raw) and _CONFLICT_SURE.search(raw) is not None


# A key of more than MAX_DEPTH dotted parts: looked for only in a file with many dots, before
# parsing (tomllib takes seconds and gigabytes on a key of 20,000 parts). Compiled on first use.
_LONG_KEY = rb"(?:(?:[A-Za-z0-9_-]+|\"[^\"\n]*\"|'[^'\n]*')[ \t]*\.[ \t]*){%d,}" % MAX_DEPTH


def _limit_error(message: str, shown: str, line: int | None, remedy: str) -> DataError:
    return DataError(message, file=shown, line=line, rule="limits", remedy=remedy)


def check_limits(data: dict, raw: bytes, shown: str) -> None:
    """Refuse a file beyond what a campaign holds (MAX_TEXT, MAX_ENTRIES, MAX_DEPTH): one walk over
    its values, once, when it is read."""
    stack: list[tuple[Any, tuple]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        fault = None
        if len(path) >= MAX_DEPTH:
            fault = f"values nested more than {MAX_DEPTH} levels deep"
        elif len(value) > MAX_ENTRIES:
            fault = f"more than {MAX_ENTRIES} entries in one list or table"
        else:
            for k, v in (value.items() if type(value) is dict else enumerate(value)):
                t = type(v)
                if t is str:
                    if len(v) > MAX_TEXT:
                        path, fault = path + (k,), f"a text longer than {MAX_TEXT} characters"
                        break
                elif t is dict or t is list:
                    stack.append((v, path + (k,)))
                if type(k) is str and len(k) > MAX_TEXT:
                    fault = f"a key longer than {MAX_TEXT} characters"
                    break
        if fault:
            where = ".".join(str(k) for k in path[:3]) + (".…" if len(path) > 3 else "")
            text = raw.decode("utf-8", "replace")
            raise _limit_error(f"{fault}{f' (at `{where}`)' if where else ''}: more than a campaign holds",
                               shown, line_of(text, path[:MAX_DEPTH]),
                               "restore the file from git (git checkout -- FILE), or shorten what is there")


def parse(raw: bytes, path: Path) -> dict[str, Any]:
    """Plain values of a TOML file, or one DataError that says where and what."""
    shown = display(path)
    if not raw.strip():
        raise _empty_error(path, shown)
    conflict = conflict_error(raw, shown)
    if conflict is not None:
        raise conflict
    if raw.startswith(b"\xef\xbb\xbf"):
        raise DataError("the file starts with a byte-order mark", file=shown, line=1, rule="encoding",
                        remedy="save it as UTF-8 without BOM")
    if len(raw) > MAX_FILE_BYTES:
        raise _too_big(shown)
    _refuse_long_key(raw, shown)
    data = _load_toml(_decode_utf8(raw, shown), shown)
    check_limits(data, raw, shown)
    return data


def _empty_error(path: Path, shown: str) -> DataError:
    # Deleting an empty story.toml would leave no campaign at all: never advise it there.
    remedy = ("restore it from git (git checkout -- FILE); without git, write `schema = 1` in it to start "
              "the Story Record again" if path.name == "story.toml" else
              "restore it from git (git checkout -- FILE) or delete it")
    return DataError("the file is empty", file=shown, rule="empty-file", remedy=remedy)


def _refuse_long_key(raw: bytes, shown: str) -> None:
    """Refuse a key of more than MAX_DEPTH dotted parts (looked for only in a file with many dots)."""
    if raw.count(b".") > 1000:
        long_key = re.search(_LONG_KEY, raw)
        if long_key:
            raise _limit_error(f"a key of more than {MAX_DEPTH} dotted parts: more than a campaign holds",
                               shown, raw.count(b"\n", 0, long_key.start()) + 1,
                               "restore the file from git (git checkout -- FILE), or shorten the key")


def _decode_utf8(raw: bytes, shown: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - raw.rfind(b"\n", 0, exc.start)
        raise DataError(f"the file is not UTF-8 text (a byte that is not, at column {column})", file=shown, line=line,
                        rule="encoding", remedy="save it as UTF-8") from None


def _load_toml(text: str, shown: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _syntax_error(exc, text, shown) from None
    except RecursionError:
        raise DataError("not valid TOML for drunagor: values nested too deeply", file=shown,
                        rule="toml-syntax", remedy="flatten the nested arrays or tables") from None


# tomllib's words for a string left open, in the words of the one who typed it.
_OPEN_STRING = {
    "Illegal character '\\n'": "a string is not closed: its quote has no closing quote before the end of the line",
    "Unterminated string": "a string is not closed: the file ends inside it",
    "Expected \"'\"": "a string is not closed: the file ends inside it",
}


def _syntax_error(exc: tomllib.TOMLDecodeError, text: str, shown: str) -> DataError:
    """tomllib's message, with its line as the error's line (the end of the file for an unclosed value)."""
    m = _TOML_LINE.search(str(exc))
    msg = str(exc).split(" (at line")[0]
    at: int | None = int(m.group(1)) if m else None
    at_end = at is None and "(at end of document)" in msg
    if at_end:  # an unclosed [ or { or string runs to the end
        msg = msg.replace(" (at end of document)", "")
        at = text.count("\n") + (0 if text.endswith("\n") else 1)
    if msg in _OPEN_STRING:
        return DataError(f"not valid TOML: {_OPEN_STRING[msg]}", file=shown, line=at, rule="toml-syntax",
                         remedy='close it with the quote that opened it (" or \')'
                                + ("" if at_end else ", on the same line"))
    if at_end:
        msg += ": the file ends inside a value"
    return DataError(f"not valid TOML: {msg}", file=shown, line=at,
                     rule="toml-syntax",
                     remedy="fix the syntax at that line (quotes, brackets, one key = value)")


_HEADER = re.compile(r"^\s*\[\[?[^\[\]=]+\]\]?\s*(#.*)?$")
_OPENS_ARRAY = re.compile(r"\[\s*(#.*)?$")


def line_of(text: str, key_path: tuple) -> int | None:
    """Best-effort line of a key path like ("rules", "max_heroes") or ("skills", 2, "level"): table
    headers ([rules], [[skills]]) narrow the search; an index picks the entry of a multi-line array
    (one entry a line, as drunagor writes them). None when the key is not in the file."""
    lines = text.splitlines()
    path = list(key_path)
    if not path or not isinstance(path[0], str):
        return None
    start, end = 0, len(lines)
    table = _innermost_table(lines, path)
    if table is not None:
        hit, consumed = table
        start = hit + 1
        end = next((i for i in range(start, len(lines)) if _HEADER.match(lines[i])), len(lines))
        path = path[consumed:]
        if not path:
            return hit + 1
    key = path[0]
    if not isinstance(key, str):
        return start or None
    found = _key_line(lines, start, end, key, path[1] if len(path) > 1 else None)
    return found if found is not None else start or None


def _innermost_table(lines: list[str], path: list) -> tuple[int, int] | None:
    """The index of the line of the deepest table header ([a.b] or [[a.b]]) naming the leading keys
    of `path`, and how many parts of the path it stands for; None when no header names them."""
    names = []
    for k in path:
        if not isinstance(k, str):
            break
        names.append(k)
    for depth in range(len(names), 0, -1):
        header = r"\s*\.\s*".join(_key_pattern(n) for n in names[:depth])
        found = _array_table_header(lines, header, path, depth)
        if found is not None:
            return found
        table = re.compile(r"^\s*\[\s*" + header + r"\s*\]")
        hit = next((i for i, line in enumerate(lines) if table.match(line)), None)
        if hit is not None:
            return hit, depth
    return None


def _array_table_header(lines: list[str], header: str, path: list, depth: int) -> tuple[int, int] | None:
    """An array of tables: [[skills]] ... the index after the names picks one (the first without)."""
    tables = re.compile(r"^\s*\[\[\s*" + header + r"\s*\]\]")
    hits = [i for i, line in enumerate(lines) if tables.match(line)]
    if not hits:
        return None
    indexed = depth < len(path) and isinstance(path[depth], int)
    index = path[depth] if indexed else 0
    return hits[min(index, len(hits) - 1)], depth + indexed


def _key_line(lines: list[str], start: int, end: int, key: str, index: Any) -> int | None:
    """The line of `key` between `start` and `end`; with an int `index` and a multi-line array, the
    line of that entry (the key's own line when the array has no such entry)."""
    rx = re.compile(r"^\s*" + _key_pattern(key) + r"\s*[=.]")
    for i in range(start, end):
        if not rx.match(lines[i]):
            continue
        if isinstance(index, int) and _OPENS_ARRAY.search(lines[i]):
            entry = _array_entry_line(lines, i, end, index)
            if entry is not None:
                return entry
        return i + 1
    return None


def _array_entry_line(lines: list[str], opened: int, end: int, index: int) -> int | None:
    seen = -1
    for j in range(opened + 1, end):
        entry = lines[j].strip()
        if entry.startswith("]"):
            break
        if entry and not entry.startswith("#"):
            seen += 1
            if seen == index:
                return j + 1
    return None


def _key_pattern(name: str) -> str:
    esc = re.escape(name)
    return rf"(?:{esc}|\"{esc}\"|'{esc}')"


class TomlFile:
    """One campaign file as read: its bytes, its plain values, and (on demand) an editable tomlkit
    document. `new_bytes()` is None while nothing changed, so an unchanged file is never written.

    `migrating=True` (for `drunagor migrate` only) accepts a file of an older schema."""

    def __init__(self, path: Path, raw: bytes | None = None, *, data: dict | None = None,
                 migrating: bool = False):
        self.path = path
        self.shown = display(path)
        self.migrating = migrating
        self._doc: Any = None
        self._text: str | None = None
        if raw is None:  # a new file, created by this command
            self.raw = None
            self.data = data if data is not None else {}
            return
        self.raw = raw
        self.data = parse(raw, path)
        check_schema(self.data, self, migrating=migrating)

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = (self.raw or b"").decode("utf-8")
        return self._text

    @property
    def schema(self) -> int | None:
        schema = self.data.get("schema")
        return schema if isinstance(schema, int) and not isinstance(schema, bool) else None

    @property
    def read_only(self) -> bool:
        """A newer schema than this drunagor knows: read with a warning, never written (SPEC 2)."""
        return self.schema is not None and self.schema > SCHEMA

    def edit(self):
        """The tomlkit document to mutate in place (parsed once, lazily: tomlkit is slow to import)."""
        if self.read_only:
            raise DataError(f"schema {self.data['schema']} is newer than this drunagor knows "
                            f"({SCHEMA}); the file is read-only", file=self.shown, line=1, rule="schema",
                            remedy="upgrade drunagor (pip install -U drunagor)")
        if self._doc is None:
            import tomlkit

            if self.raw is None:
                self._doc = tomlkit.document()
            else:
                try:
                    self._doc = tomlkit.parse(self.text)
                except Exception as exc:  # tomlkit's own errors on a file tomllib accepted
                    raise DataError(f"the file cannot be edited ({exc})", file=self.shown,
                                    rule="toml-syntax", remedy="simplify the TOML around that place") from None
        return self._doc

    def new_bytes(self) -> bytes | None:
        if self._doc is None:
            return None
        import tomlkit

        out = tomlkit.dumps(self._doc).encode("utf-8")
        return None if out == self.raw else out

    def line(self, key_path: tuple) -> int | None:
        return line_of(self.text, key_path) if self.raw is not None else None

    @contextlib.contextmanager
    def about(self, key_path: tuple = ()) -> Iterator[None]:
        """Errors raised inside are about this file: a DrunagorError without a file gets this one,
        and the line of its own key path (a FieldError's) or of `key_path`. The pure layers (model,
        rules) know no files; this is where their refusals learn where they point."""
        try:
            yield
        except DrunagorError as exc:
            if exc.file is None:
                path = getattr(exc, "key_path", None) or key_path
                located(exc, self.shown, self.line(path) if path else None)
            raise

    def error(self, message: str, key_path: tuple = (), remedy: str | None = None) -> DataError:
        return DataError(message, file=self.shown, line=self.line(key_path) if key_path else None,
                         remedy=remedy)

    def _written(self, data: bytes) -> None:
        """The file now holds `data` (after a save): a second save compares with these bytes."""
        self.raw = data
        self._text = None
        try:
            self.data = tomllib.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
            pass


def check_schema(data: dict, f: TomlFile, *, migrating: bool = False) -> None:
    schema = data.get("schema")
    if schema is None:
        raise DataError("no `schema` key", file=f.shown, line=1, rule="schema",
                        remedy=f"add `schema = {SCHEMA}` as the first line")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 0:
        raise DataError(f"`schema` must be a whole number, not {schema!r}", file=f.shown, rule="schema",
                        line=f.line(("schema",)), remedy=f"write `schema = {SCHEMA}`")
    if schema < SCHEMA and not migrating:
        from ..migrations import refusal  # the migration table says whether `migrate` can help

        message, remedy = refusal(schema)
        raise DataError(message, file=f.shown, rule="schema", line=f.line(("schema",)), remedy=remedy)


def load(path: Path, *, migrating: bool = False, root: Path | None = None) -> TomlFile:
    """Read and parse one campaign file. `migrating=True` accepts older schemas (migrate only);
    `root`, the campaign folder, refuses a file reached through a symbolic link (read_bytes)."""
    return TomlFile(path, read_bytes(path, root), migrating=migrating)


def schema_of(raw: bytes) -> int | None:
    """The `schema = N` of a file's bytes, without parsing it (None if there is none)."""
    m = _SCHEMA_LINE.search(raw)
    return int(m.group(1)) if m else None


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
                self._verify()  # as late as possible: the window for an editor is one rename
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
        # and the replacement (an editor that saves in that moment is the one case we cannot see).
        try:
            self._verify()
        except BaseException:
            journal.unlink(missing_ok=True)
            fsync_dir(self.root)  # the abandoned journal must not come back after a power cut
            for tmp in staged:
                tmp.unlink(missing_ok=True)
            raise
        try:
            roll_forward(self.root)
        except OSError as exc:
            raise _write_failed(self.root / JOURNAL, exc, committed=True) from None


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

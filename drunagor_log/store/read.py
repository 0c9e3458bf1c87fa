"""Reading a campaign file safely (README "When something is wrong"): only regular files inside the
campaign folder, never through a symbolic link, a FIFO or a device; at most MAX_FILE_BYTES; limits on
text, entries and depth checked once at read; git conflict markers found before parsing (tomlkit
reports them as a confusing "Empty key"); one message for a syntax error, with its line.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..catalog.diskcache import remembered
from ..errors import DataError
from ..text import is_os_name_utf8, os_name
from ..values import INT64_MAX, INT64_MIN
from .lines import line_of
from .paths import display

# Conflict markers: 7 characters at column 0, then a space or the end of the line. `<<<<<<<` and
# `>>>>>>>` are unambiguous, even alone (a conflict half resolved by hand); `=======` and `|||||||` may
# be text inside a multi-line string, so they count only in a file that is not valid TOML.
_CONFLICT_SURE = re.compile(rb"^(?:<{7}|>{7})(?: |\r?$)", re.M)
_CONFLICT_MAYBE = re.compile(rb"^(?:={7}|\|{7})(?: |\r?$)", re.M)
_CONFLICT = re.compile(rb"^(<{7}|={7}|>{7}|\|{7})(?: |\r?$)", re.M)
_TOML_LINE = re.compile(r"at line (\d+)")
_LONG_NUMBER = re.compile(r"[0-9][0-9_]{4300,}", re.ASCII)  # where an integer past Python's limit stands


# Limits on what a campaign file may hold (README "When something is wrong"). A real campaign is far
# below them (a Story Record is ~2 KB, an archived adventure ~3 KB, a list a few dozen entries); they
# keep a hostile file from costing minutes or gigabytes (tomllib is quadratic in a dotted key's parts,
# tomlkit in a string's length). Checked once, when a file is read.
MAX_FILE_BYTES = 1 << 20  # 1 MiB: a bigger file is refused, never read to its end
MAX_TEXT = 10_000  # characters of one string or key
MAX_ENTRIES = 10_000  # entries of one list or table
MAX_DEPTH = 20  # tables, lists and dotted-key parts nested in one another

if TYPE_CHECKING:
    import tomllib


def _parsed_by() -> tuple:
    """What a remembered parse depends on besides the bytes (diskcache.remembered): the limits it
    passed, as they are now, and the form of the values (raise the 1 when parse() returns another)."""
    return (MAX_FILE_BYTES, MAX_TEXT, MAX_ENTRIES, MAX_DEPTH, INT64_MAX, 1)


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
    if not is_os_name_utf8(path.name):
        raise name_not_utf8(path.name, shown)
    check_inside(path, root)
    fd = _open_regular(path, shown)
    try:
        return _read_capped(fd, shown)
    finally:
        os.close(fd)


def name_not_utf8(name: str, shown: str) -> DataError:
    """The refusal of a campaign file whose name is not UTF-8 (git carries any bytes in a name): drunagor
    could not name it in a message, a commit or a token as it is."""
    return DataError(f"the file name {os_name(name)} is not UTF-8 text", file=shown, rule="file",
                     remedy="rename the file with a name in UTF-8 (a Campaign Log is named after its hero: "
                            "heroes/andreas.toml)")


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
        import tomllib

        try:
            tomllib.loads(raw.decode("utf-8-sig"))
            return []  # valid TOML: the lines are text
        except (UnicodeDecodeError, ValueError, RecursionError):  # ValueError: TOMLDecodeError, 4,300 digits
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


def _beyond(value: str | int, kind: type) -> str | None:
    """What a text or a whole number holds past the limits, or None."""
    if kind is str:
        return f"a text longer than {MAX_TEXT} characters" if len(value) > MAX_TEXT else None  # type: ignore[arg-type]
    if not INT64_MIN <= value <= INT64_MAX:  # type: ignore[operator]  # docs/errors.md "Numbers"
        return "a whole number past TOML's 64-bit integers"
    return None


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
                if t is dict or t is list:
                    stack.append((v, path + (k,)))
                elif (t is str or t is int) and _beyond(v, t):
                    path, fault = path + (k,), _beyond(v, t)
                    break
                if type(k) is str and len(k) > MAX_TEXT:
                    fault = f"a key longer than {MAX_TEXT} characters"
                    break
        if fault:
            where = ".".join(str(k) for k in path[:3]) + (".…" if len(path) > 3 else "")
            text = raw.decode("utf-8", "replace")
            raise _limit_error(f"{fault}{f' (at `{where}`)' if where else ''}: more than a campaign holds",
                               shown, line_of(text, path[:MAX_DEPTH]),
                               "restore the file from git (git checkout -- FILE), or shorten what is there")


def parse(raw: bytes, path: Path, *, cache: bool = False) -> dict[str, Any]:
    """Plain values of a TOML file, or one DataError that says where and what. `cache`: a campaign
    file as a command reads it, whose values are remembered across runs while the file holds these
    very bytes (diskcache.remembered; a refusal is never remembered, and the cheap refusals below
    are made first whatever the cache holds): parsing is about a quarter of a reading command."""
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
    text = _decode_utf8(raw, shown)
    if cache:
        return remembered(os.path.abspath(path), raw, lambda: _checked(text, raw, shown), _parsed_by())
    return _checked(text, raw, shown)


def _checked(text: str, raw: bytes, shown: str) -> dict[str, Any]:
    data = _load_toml(text, shown)
    check_limits(data, raw, shown)
    return data


def written(raw: bytes, path: Path) -> dict[str, Any] | None:
    """The values of the bytes drunagor has just written to `path` (a save: valid TOML by making),
    remembered as parse(cache=True) remembers them, so that the next command finds them parsed; None
    if they do not parse or pass the limits."""
    try:
        return parse(raw, path, cache=True)
    except DataError:
        return None


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
    import tomllib  # here: a command whose files are all in the cache never imports it (~2 ms)

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _syntax_error(exc, text, shown) from None
    except RecursionError:
        raise DataError("not valid TOML for drunagor: values nested too deeply", file=shown,
                        rule="toml-syntax", remedy="flatten the nested arrays or tables") from None
    except ValueError:  # Python's own limit: an integer of more than 4,300 digits is never converted
        run = _LONG_NUMBER.search(text)
        raise _limit_error("a whole number of more than 4,300 digits, far past TOML's 64-bit integers: more than "
                           "a campaign holds", shown, text.count("\n", 0, run.start()) + 1 if run else None,
                           "restore the file from git (git checkout -- FILE), or write the number as it was") from None


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

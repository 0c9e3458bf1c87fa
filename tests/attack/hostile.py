"""The hostile campaign (issue 32): the shipped example with a stranger's text in every field a command
prints, in its file and folder names, and in its git history.

The text (HOSTILE) holds what a terminal acts on: OSC 0 (the window title) and OSC 52 (the clipboard),
CSI 2J (clear the screen), a bare ESC, the C1 CSI 0x9b, a carriage return that would overwrite the line,
DEL, the bidi override U+202E and the isolate U+2066..U+2069, a zero-width space, and Rich markup (a
colour terminal that read `[/]` as markup would stop with a MarkupError). It goes in the Story
Record (party, Followers, Outcomes, statuses, the stash), a Campaign Log (player, a Class Ability,
statuses), the adventure under way (a monster on the board, the log), an archived adventure (its log, a
monster), the campaign's folder name (with a byte that is not UTF-8), a file beside the campaign files
whose name is not UTF-8, and git: the commit messages and the author of the campaign's repository.

Variants (LAYOUTS): "fields" (all of the above: every command still runs), "log-name" (a Campaign Log
whose file name is not UTF-8: every reading command refuses, exit 3, naming it escaped), and the number
cases ("big-number": a 5,000-digit integer in adventure.toml; "digit-name": an archive named
`0³-1.toml`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

from tests.conftest import EXAMPLE

HOSTILE = ("\x1b]0;PWNED\x07\x1b]52;c;cHduZWQ=\x07\x1b[2J\x1bc\x9b2J\x9d0;T\x9c ok\roverwritten\x7f"
           "\u202edecoy\u2066x\u2069\u200b! [/] [bold]markup[/bold]")
# The campaign's folder: its name holds a title-setting OSC, a bidi override and a byte that is not UTF-8.
FOLDER = os.fsdecode(b"camp\x1b]0;FOLDER\x07\xe2\x80\xaeX\xff")
NOT_UTF8_FILE = os.fsdecode(b"notes-\xff.txt")
NOT_UTF8_LOG = os.fsdecode(b"heroes/h\xffro.toml")

GIT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_AUTHOR_EMAIL": "eve@example.org",
           "GIT_COMMITTER_EMAIL": "eve@example.org", "GIT_AUTHOR_NAME": f"Eve {HOSTILE}",
           "GIT_COMMITTER_NAME": f"Eve {HOSTILE}"}


def toml(text: str) -> str:
    """`text` as a TOML basic string, every character outside printable ASCII as its escape."""
    return '"' + "".join(ch if " " <= ch <= "~" and ch not in '"\\' else f"\\u{ord(ch):04X}" for ch in text) + '"'


H = toml(HOSTILE)


def _edit(path: Path, *subs: tuple[str, str]) -> None:
    text = path.read_text(encoding="utf-8")
    for pattern, replacement in subs:
        text, n = re.subn(pattern, lambda m, r=replacement: r, text, count=1, flags=re.M)
        assert n, f"{path.name}: {pattern!r} not found"
    path.write_text(text, encoding="utf-8")


def _fields(root: Path) -> None:
    _edit(root / "story.toml",
          (r'^party = ".*"$', f"party = {H}"),
          (r'^followers = \["Vorn the Warrior"\]', f'followers = ["Vorn the Warrior", {H}]'),
          (r'^outcomes = \["Drinking Pal"\]', f'outcomes = ["Drinking Pal", {H}]'),
          (r'^statuses = \["Imminent Danger"\]', f'statuses = ["Imminent Danger", {H}]'),
          (r"^stash = \[\]", f"stash = [{H}]"))
    _edit(root / "heroes" / "nyx.toml",
          (r'^player = ".*"$', f"player = {H}"),
          (r"^class_abilities = \[", f"class_abilities = [{H}, "),
          (r"^statuses = \[\]", f"statuses = [{H}]"))
    _edit(root / "adventure.toml",
          (r'\{ name = "Tidehunter", rank = "Minion", slot = 4 \}', f'{{ name = {H}, rank = "Minion", slot = 4 }}'),
          (r'text = "chapter 05, ', f"text = {H[:-1]} chapter 05, "))
    _edit(root / "adventures" / "04-1.toml",
          (r'\{ name = "Tidehunter", rank = "Minion", slot = 5 \}', f'{{ name = {H}, rank = "Minion", slot = 5 }}'),
          (r'text = "the adventure ends successfully"', f"text = {H}"))
    (root / NOT_UTF8_FILE).write_text("a file beside the campaign whose name is not UTF-8\n")


def _log_name(root: Path) -> None:
    _fields(root)
    shutil.copy(root / "heroes" / "vacrem.toml", root / NOT_UTF8_LOG)


def _big_number(root: Path) -> None:
    _fields(root)
    _edit(root / "adventure.toml", (r"^heroes = 4$", "heroes = " + "9" * 5000))


def _digit_name(root: Path) -> None:
    _fields(root)
    shutil.copy(root / "adventures" / "03-1.toml", root / "adventures" / "0\u00b3-1.toml")


LAYOUTS = {"fields": _fields, "log-name": _log_name, "big-number": _big_number, "digit-name": _digit_name}


def git(cwd: Path, *args: str, message: bytes | None = None) -> None:
    env = {**os.environ, **GIT_ENV}
    p = subprocess.run(["git", *args], cwd=cwd, capture_output=True, env=env, input=message)
    assert p.returncode == 0, f"git {' '.join(args)}: {p.stderr!r}"


def build(base: Path, layout: str) -> Path:
    """The hostile campaign of `layout` under `base`, in a git repository whose history holds hostile
    commit messages (one not UTF-8) and a hostile author; its folder is FOLDER."""
    root = base / FOLDER
    shutil.copytree(EXAMPLE, root)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-F", "-", message=f"drunagor: start {HOSTILE}\n\nbody {HOSTILE}\n".encode())
    LAYOUTS[layout](root)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-F", "-", message=b"drunagor: hostile \xff\xfe bytes \x1b]0;GIT\x07 " + HOSTILE.encode())
    return root


# ------------------------------------------------------------------------------ what output may hold

# The hostile sequences as a terminal would receive them, for output that holds a line editor's own
# escape sequences (play's prompt), where "no control character at all" cannot be asked.
PIECES = (b"\x1b]0;PWNED", b"\x1b]52;", b"\x1b[2J", b"\x1bc", "\x9b".encode(), "\x9d".encode(),
          b" ok\roverwritten", b"\x7f", "\u202e".encode(), "\u2066".encode(), "\u200b".encode(),
          b"\x1b]0;FOLDER", b"\x1b]0;GIT", b"\xff")


def raw_pieces(output: bytes) -> list[bytes]:
    """The hostile sequences found raw in `output`."""
    return [piece for piece in PIECES if piece in output]


_SGR = re.compile(r"\x1b\[[0-9;]*m")  # Rich's colours on a terminal: drunagor's own styling


def raw_controls(text: str, terminal: bool = False) -> list[str]:
    """The characters of `text` a terminal would act on or that reorder what it shows (control characters
    but newline and tab, format and bidi characters, separators, lone surrogates), as U+XXXX. On a
    terminal, Rich's own colour sequences are drunagor's and are left out first (the campaign's ESC is
    shown as <U+001B>, so every ESC left in the output is Rich's)."""
    if terminal:
        text = _SGR.sub("", text.replace("\r\n", "\n"))
    bad = {f"U+{ord(ch):04X}" for ch in text if ch not in "\n\t" and unicodedata.category(ch) in
           ("Cc", "Cf", "Zl", "Zp", "Cs")}
    return sorted(bad)

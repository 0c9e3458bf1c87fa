"""The one terminal facade (after hatch's cli/terminal.py): data to stdout, messages to stderr,
colour decided once. Rich is imported only when output goes to a colour terminal; piped output and
`--json` never touch it (Rich wraps long lines and eats `[...]` in user text).

On a colour terminal every line is wrapped at word boundaries to the terminal's width, with a
hanging indent that keeps a numbered step or an indented explanation aligned; a rune's colour name
gets a mark in that colour beside it, and the words that decide a raid (summoned, a breathing space,
failed summons, the card's face) stand out. Colour adds nothing the words do not say: piped output,
`NO_COLOR` and `--no-color` print the same words, unwrapped and byte for byte as before.

The output rule (docs/errors.md): every method that writes passes its text through text.visible
first, so that no command can forget it: a control, bidi or format character from a campaign file, a
file name, git or a token is shown as <U+202E> (a byte of a name that is not UTF-8 as \xff), on a pipe
and on a terminal alike, and `--json` escapes the same characters (text.json_escaped). drunagor's own
words hold none of them but the newline and the tab, which are kept; Rich's styling is added after.

Citations (SPEC 11): every line and message a person reads goes through `cited` too, which writes each
short rulebook citation (`RB L285`) as the reader's form, `(Rulebook: Dreadful Raid, L285)`
(catalog/headings.py, `rendered`). `--json` keeps the short form: it is a program's input, its values
are what the operations returned, and a script that looks for `RB L1203` in a `check --json` message
keeps finding it (docs/rules.md, "Citations as drunagor prints them"). raw() is data as it is (a diff,
a token, a script): never rewritten.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from typing import Any

from ..text import json_escaped, visible

RUNE_STYLES = {"red": "bold red", "blue": "bold blue", "green": "bold green", "orange": "bold dark_orange",
               "gray": "bold grey62", "grey": "bold grey62"}
RUNE_MARK = "\u25cf"  # ●, drawn just before the colour's name
# Patterns as text, compiled on first use (re caches them): only a colour terminal needs them, and
# every command imports this module (SPEC 7: a command starts in about the framework's own time).
_RUNE_WORD = r"(?<!dark )(?<!light )\b(red|blue|green|orange|gray|grey)\b"
# A status-board slot's base colour ("slot 5 (dark red)") is not a rune: no mark there.
_SLOT_COLOUR = r"\bslot \d+ \([^)]*\)"
# The outcome of each raid and battalion step (SPEC 5.5): what the table looks for in the output.
EMPHASIS = (  # later patterns win where two overlap
    (r"(?<!nothing is )(?<!nothing )\b(?:[Ss]ummoned|[Pp]laced|activates?)\b", "bold magenta"),
    (r"\b(?:a breathing space|Skipped)\b", "bold cyan"),
    (r"\b(?:fails? to be summoned|failed summons?|adventure fails|is defeated)\b", "bold red"),
    (r"\b[Ff]ace [AB]\b", "bold"),
)
# The status-board bases (model/adventure.SLOT_COLOURS) as terminal colours.
SLOT_STYLES = {"yellow": "yellow", "dark blue": "blue", "pink": "magenta", "green": "green",
               "dark red": "red", "black": "grey11", "orange": "dark_orange", "gray": "grey62",
               "light blue": "cyan", "blue": "bright_blue", "red": "bright_red", "brown": "orange4"}
_HANG = r"^(\s*(?:\d+\.\s+|[-*\u2022]\s+)?)"


def cited(text: str) -> str:
    """`text` with its rulebook citations in the reader's form; catalog/headings.py is imported only
    when there is one (most lines have none: one substring scan)."""
    if "RB L" not in text:
        return text
    from ..catalog.headings import rendered

    return rendered(text)


def _on_terminal(stream: Any) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _wrap_plain(text: str) -> str:
    """Plain text on a terminal (NO_COLOR, --no-color) wrapped as the colour output is: at the terminal's
    width, between words, each continuation hanging under the text after the line's indent and step
    number; a terminal left to itself breaks lines mid-word."""
    import shutil
    import textwrap

    width = shutil.get_terminal_size().columns
    out = []
    for part in text.split("\n"):
        hang = len(re.match(_HANG, part).group(1))  # type: ignore[union-attr]
        if len(part) <= width or width < 20:
            out.append(part)
            continue
        out.append(textwrap.fill(part, width, subsequent_indent=" " * (hang if hang < width // 2 else 0),
                                 replace_whitespace=False, break_on_hyphens=False))
    return "\n".join(out)


class Terminal:
    def __init__(self) -> None:
        self.no_color = False
        self._console: Any = None
        self._stderr_console: Any = None
        if os.name == "nt":
            utf8_when_piped(sys.stdout)

    @property
    def rich(self) -> bool:
        """Rich output only for a colour terminal (not piped, not NO_COLOR, not --no-color)."""
        if self.no_color or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
            return False
        try:
            return sys.stdout.isatty()
        except (AttributeError, ValueError):
            return False

    def console(self):
        if self._console is None:
            from rich.console import Console

            self._console = Console(highlight=False)
        return self._console

    # -- data, to stdout
    def line(self, text: str = "", style: str | None = None) -> None:
        text = visible(cited(text))
        if not self.rich:
            print(_wrap_plain(text) if _on_terminal(sys.stdout) else text)  # piped: never wrapped
            return
        for part in text.split("\n"):
            self._print_wrapped(self.console(), styled(part, style))

    def _print_wrapped(self, console, text) -> None:
        """Print a Rich Text wrapped to the console's width, continuation lines hanging under the text
        after the line's indent and step number ("1. ", "   ")."""
        from rich.text import Text

        width = console.width
        hang = len(re.match(_HANG, text.plain).group(1))  # type: ignore[union-attr]
        if hang >= width // 2:
            hang = 0
        if text.cell_len <= width:
            console.print(text, soft_wrap=True)
            return
        head, body = text[:hang], text[hang:]
        lines = body.wrap(console, width - hang, overflow="fold")
        for i, piece in enumerate(lines):
            piece.rstrip()
            console.print((head if i == 0 else Text(" " * hang)) + piece, soft_wrap=True)

    # -- fitting a screen (adventure show at 80x24)
    def screen(self) -> tuple[int, int] | None:
        """(columns, rows) of the terminal stdout is, or None when it is piped (never cut)."""
        if not _on_terminal(sys.stdout):
            return None
        import shutil

        size = shutil.get_terminal_size()
        return size.columns, size.lines

    def rows_of(self, text: str) -> int:
        """How many rows `line(text)` takes on this terminal (1 a part when piped): word-wrapped as line()
        wraps, a rune's mark counted."""
        screen = self.screen()
        text = visible(cited(text))
        if screen is None:
            return text.count("\n") + 1
        import textwrap

        width = max(screen[0], 20)
        marks = self.rich
        return sum(max(1, len(textwrap.wrap(part + "x" * (len(re.findall(_RUNE_WORD, part)) if marks else 0),
                                            width, break_on_hyphens=False)))
                   for part in text.split("\n"))

    def line_cut(self, text: str) -> None:
        """line(text) on one row of the terminal: a longer line gives up its tail with … (piped: whole)."""
        screen = self.screen()
        text = visible(cited(text))
        if screen is None:
            self.line(text)
            return
        width = max(screen[0], 20) - 1

        def cells(part: str) -> int:
            return len(part) + (len(re.findall(_RUNE_WORD, part)) if self.rich else 0)

        if cells(text) > width:
            n = width - 1
            while n > 0 and cells(text[:n]) > width - 1:
                n -= 1
            text = text[:n].rstrip() + "…"
        self.line(text)

    def raw(self, text: str) -> None:
        """Data as it is, to stdout: a diff, a token, a shell script (never wrapped, never styled; its
        invisible characters shown, as everywhere)."""
        sys.stdout.write(visible(text))

    def heading(self, text: str) -> None:
        self.line(text, "bold")

    def json(self, obj: Any) -> None:
        import json

        text = json_escaped(json.dumps(obj, indent=2, ensure_ascii=False))
        sys.stdout.write((text if _writes_unicode(sys.stdout) else _ascii_json(text)) + "\n")

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[Any]], title: str | None = None) -> None:
        cells = [[("" if v is None else visible(cited(str(v)))) for v in row] for row in rows]
        headers = [visible(h) for h in headers]
        title = None if title is None else visible(cited(title))
        if self.rich:
            from rich.table import Table

            t = Table(title=None if title is None else _esc(title), title_justify="left", show_edge=False,
                      pad_edge=False)
            for h in headers:
                t.add_column(_esc(h))
            for row in cells:
                t.add_row(*(_esc(c) for c in row))
            self.console().print(t)
            return
        if title:
            print(title)
        widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
        print("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=False)).rstrip())
        for row in cells:
            print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=False)).rstrip())

    def board(self, title: str, slots: Sequence[tuple[int, str, str | None]], plain_rows: Sequence[Sequence[Any]],
              headers: Sequence[str]) -> None:
        """The Monster Status board. On a colour terminal: all 12 slots in two boards of six, each
        slot's base colour as a swatch beside its name, empty slots shown; elsewhere the plain table
        of `headers` and `plain_rows` (the monsters on the board), as scripts and tests read it."""
        if not self.rich:
            self.table(headers, plain_rows, title=title)
            return
        title = visible(title)
        from rich.table import Table
        from rich.text import Text

        grid = Table(title=_esc(title), title_justify="left", show_edge=False, pad_edge=False, show_header=False,
                     box=None, padding=(0, 2, 0, 0))
        grid.add_column()
        grid.add_column()
        cells = []
        for slot, colour, monster in slots:
            cell = Text(f"{slot:>2} ")
            cell.append("\u25a0", style=SLOT_STYLES.get(colour, ""))  # ■ the base's colour
            cell.append(f" {colour:<10} ", style="dim")
            cell.append(visible(monster) if monster else "-", style="bold" if monster else "dim")
            cells.append(cell)
        half = (len(cells) + 1) // 2
        for left, right in zip(cells[:half], cells[half:] + [Text("")] * (2 * half - len(cells)), strict=False):
            grid.add_row(left, right)
        self.console().print(grid)

    # -- messages, to stderr
    def _err_console(self):
        if self._stderr_console is None:
            from rich.console import Console

            self._stderr_console = Console(stderr=True, highlight=False)
        return self._stderr_console

    def _err_rich(self) -> bool:
        if self.no_color or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
            return False
        try:
            return sys.stderr.isatty()
        except (AttributeError, ValueError):
            return False

    def _message(self, label: str, style: str, text: str) -> None:
        text = visible(cited(text))
        if not self._err_rich():
            print(f"{label}: {text}", file=sys.stderr)
            return
        from rich.text import Text

        line = Text(f"{label}: ", style=style) + Text(text)
        self._print_wrapped(self._err_console(), line)

    def error(self, text: str) -> None:
        self._message("error", "bold red", text)

    def message(self, text: str) -> None:
        """A message as it is, to stderr (no label, never styled): a program's exit message, which
        Python prints so."""
        print(visible(cited(text)), file=sys.stderr)

    def warn(self, text: str) -> None:
        self._message("warning", "bold yellow", text)

    def done(self, text: str) -> None:
        """The one line a write prints to say what changed."""
        self.line(text, "green")


def styled(text: str, style: str | None = None):
    """A Rich Text of a line of output: each rune colour with its mark, the raid's outcomes stressed."""
    from rich.text import Text

    out = Text(style=style or "")
    pos = 0
    slots = [m.span() for m in re.finditer(_SLOT_COLOUR, text)]
    for m in re.finditer(_RUNE_WORD, text):
        if any(a <= m.start() < b for a, b in slots):
            continue
        out.append(text[pos:m.start()])
        out.append(RUNE_MARK, style=RUNE_STYLES[m.group(1)])  # joined to the word: never wrapped apart
        out.append(m.group(1))
        pos = m.end()
    out.append(text[pos:])
    plain = out.plain
    for pattern, emphasis in EMPHASIS:
        for m in re.finditer(pattern, plain):
            out.stylize(emphasis, m.start(), m.end())
    return out


def utf8_when_piped(stream: Any) -> None:
    """Piped output in UTF-8, as on Linux and macOS. Windows gives a pipe or a file the ANSI code page
    (cp1252 and the like), which cannot encode every name a player types: a hero called "Łucja" would
    end a command in UnicodeEncodeError. A console already gets Unicode (and Rich's colour), and
    PYTHONIOENCODING or PYTHONUTF8 are the user's own choice."""
    if os.environ.get("PYTHONIOENCODING") or os.environ.get("PYTHONUTF8"):
        return
    try:
        if stream.isatty() or (stream.encoding or "").lower().replace("-", "") == "utf8":
            return
        stream.reconfigure(encoding="utf-8")
    except (AttributeError, ValueError, OSError):
        pass  # not a real stream (a test runner's), or already written to


def settle_environment(environ: Any = os.environ) -> None:
    """What drunagor takes from the environment, made safe once at the start of a command line
    (docs/errors.md "Limits"): COLUMNS and LINES through the one number rule (values.setting), a value
    that is no size (`0`, 100,000 digits, `٣`) taken out so that Rich, Click and shutil ask the terminal
    itself (Rich ended in `range() arg 3 must not be zero`, int()'s digit limit); stdout and stderr of an
    encoding that cannot write every character (a LANG or LC_ALL of Latin-1 or ASCII, PYTHONIOENCODING)
    write what they cannot as a backslash escape, `\\u0141`, instead of ending in UnicodeEncodeError."""
    from ..values import setting

    for name in ("COLUMNS", "LINES"):
        value = environ.get(name)
        if value is not None and setting(value, 0, low=1, high=100_000) == 0:
            del environ[name]
    for stream in (sys.stdout, sys.stderr):
        if not _writes_unicode(stream):
            try:
                stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
            except (AttributeError, ValueError, OSError):
                pass  # not a real stream (a test runner's)


def _writes_unicode(stream: Any) -> bool:
    encoding = (getattr(stream, "encoding", None) or "utf-8").lower().replace("-", "").replace("_", "")
    return encoding.startswith("utf")


def _ascii_json(text: str) -> str:
    """A JSON text with every character outside ASCII as its \\u escape (UTF-16 pairs past the BMP): the
    same JSON value, for a stream that cannot write the characters themselves."""
    def escaped(m: re.Match[str]) -> str:
        data = m.group().encode("utf-16-be", "surrogatepass")
        return "".join(f"\\u{int.from_bytes(data[i:i + 2], 'big'):04x}" for i in range(0, len(data), 2))

    return re.sub(r"[^\x00-\x7f]", escaped, text)


def _esc(text: str) -> str:
    from rich.markup import escape

    return escape(text)


term = Terminal()

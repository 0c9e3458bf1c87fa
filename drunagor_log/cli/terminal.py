"""The one terminal facade (after hatch's cli/terminal.py): data to stdout, messages to stderr,
colour decided once. Rich is imported only when output goes to a colour terminal; piped output and
`--json` never touch it (Rich wraps long lines and eats `[...]` in user text)."""

from __future__ import annotations

import os
import sys
from typing import Any, Sequence


class Terminal:
    def __init__(self) -> None:
        self.no_color = False
        self._console = None

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
        if self.rich and style:
            from rich.markup import escape

            self.console().print(f"[{style}]{escape(text)}[/]")
        else:
            print(text)

    def heading(self, text: str) -> None:
        self.line(text, "bold")

    def json(self, obj: Any) -> None:
        import json

        sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[Any]], title: str | None = None) -> None:
        cells = [[("" if v is None else str(v)) for v in row] for row in rows]
        if self.rich:
            from rich.table import Table

            t = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
            for h in headers:
                t.add_column(h)
            for row in cells:
                t.add_row(*(_esc(c) for c in row))
            self.console().print(t)
            return
        if title:
            print(title)
        widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
        print("  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip())
        for row in cells:
            print("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())

    # -- messages, to stderr
    def error(self, text: str) -> None:
        print(f"error: {text}", file=sys.stderr)

    def warn(self, text: str) -> None:
        print(f"warning: {text}", file=sys.stderr)

    def done(self, text: str) -> None:
        """The one line a write prints to say what changed."""
        self.line(text, "green")


def _esc(text: str) -> str:
    from rich.markup import escape

    return escape(text)


term = Terminal()

"""A hero's phone acting: the words of one command (`cube`, `recall`, `adventure undo`, `hero learn`...)
run through the command line's own tree, in this process, as `drunagor play` runs a line
(play/dispatch.py): the same parsing, resolver, rules, lock, atomic write, table event, undo and
`[git] autocommit`, the command's own words and exit code. `drunagor serve` and `play --serve` hand
`Phones.act` to the server (serve/ stands below the command line and never imports it).

What the command prints is taken from the thread that runs it (Routed: sys.stdout and sys.stderr
write to the thread's own buffer while it captures, to the terminal otherwise), so the table session
printing at the same time keeps its screen. Each action runs as the hero's phone (campaign.acting):
its table event says `by`, and `adventure undo` takes back only that hero's own last event. One
action at a time (a phone waits for another phone); the campaign's lock orders it with every other
drunagor, the session's command included (store/lock.py: each thread holds its own).
"""

from __future__ import annotations

import io
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..campaign import acting
from .terminal import term

MAX_DETAIL = 200  # characters of an unexpected exception's text in its one line
_LOCAL = threading.local()


class Routed:
    """sys.stdout or sys.stderr: the thread's capture while it has one, else the real stream."""

    def __init__(self, real: Any) -> None:
        self._real = real

    def _captured(self) -> io.StringIO | None:
        return getattr(_LOCAL, "out", None)

    def write(self, text: str) -> int:
        out = self._captured()
        return (out if out is not None else self._real).write(text)

    def flush(self) -> None:
        if self._captured() is None:
            self._real.flush()

    def isatty(self) -> bool:
        return False if self._captured() is not None else self._real.isatty()

    def __getattr__(self, name: str) -> Any:
        if self._captured() is not None and name in ("buffer", "fileno"):
            raise AttributeError(name)  # nothing captured reaches the terminal's bytes
        return getattr(self._real, name)


def route() -> None:
    """Put Routed in front of sys.stdout and sys.stderr (once per process)."""
    if not isinstance(sys.stdout, Routed):
        sys.stdout = Routed(sys.stdout)
    if not isinstance(sys.stderr, Routed):
        sys.stderr = Routed(sys.stderr)


@contextmanager
def captured() -> Iterator[io.StringIO]:
    """What this thread prints (both streams, in order) goes to the buffer yielded."""
    out = io.StringIO()
    _LOCAL.out = out
    try:
        yield out
    finally:
        _LOCAL.out = None


class Phones:
    """Runs the phones' actions on the campaign at `root`; `said(name, label, answer)` hears each one
    (the scribe's screen prints its line: phone_line)."""

    def __init__(self, root: Path, said: Callable[[str, str, dict[str, Any]], None] | None = None) -> None:
        self.root = root
        self.said = said
        self._one = threading.Lock()
        self._trees: dict[str | None, Any] = {}
        route()

    def act(self, stem: str, name: str, label: str, words: list[str]) -> dict[str, Any]:
        """Run `drunagor -C ROOT WORDS` as the phone of hero `stem` (called `name`): {"ok", "exit",
        "message", "lines"}."""
        front = ["-C", str(self.root)] + (["--no-color"] if term.no_color else [])
        with self._one:
            with captured() as out, acting(stem):
                code = self._run([*front, *words])
            lines = [line for line in out.getvalue().splitlines() if line.strip()]
        answer = {"ok": code == 0, "exit": code, "message": _message(code, lines), "lines": lines}
        if self.said is not None:
            try:
                self.said(name, label, answer)
            except Exception:  # noqa: S110 (what the scribe's screen does never stops the phone's answer)
                pass
        return answer

    def _tree(self, argv: list[str]) -> Any:
        from .app import COMMANDS, build_app, command_typed

        name = command_typed(argv)
        key = name if name in COMMANDS else None
        found = self._trees.get(key)
        if found is None:
            import typer.main

            found = self._trees[key] = typer.main.get_command(build_app(key))
        return found

    def _run(self, argv: list[str]) -> int:
        from .click import Abort, ClickException

        try:
            code = self._tree(argv).main(args=argv, prog_name="drunagor", standalone_mode=False)
        except ClickException as exc:  # a usage slip (exit 2), said in one line
            term.error(exc.format_message())
            return exc.exit_code
        except Abort:
            term.error("aborted")
            return 1
        except SystemExit as exc:
            return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
        except Exception as exc:  # a defect in a command: one line, and the server goes on
            detail = " ".join(f"{type(exc).__name__}: {exc}".split())[:MAX_DETAIL]
            term.error(f"internal error: {detail}")
            return 1
        return code if isinstance(code, int) and not isinstance(code, bool) else 0


def phone_line(name: str, label: str, answer: dict[str, Any]) -> str:
    """`Nyx (phone): Curse Cube +1: <the command's own line>` (or its refusal), for the scribe."""
    said = answer["message"] if answer["ok"] else f"refused: {answer['message']}"
    return f"{name} (phone): {label}: {said}"


def _message(code: int, lines: list[str]) -> str:
    """The answer in one line: the command's line saying what it did, or its refusal (without the
    `error: ` label)."""
    if code == 0:
        done = [line for line in lines if not line.startswith("warning: ")]
        return (done or lines or ["done"])[0]
    errors = [line[len("error: "):] for line in lines if line.startswith("error: ")]
    return errors[-1] if errors else (lines[-1] if lines else f"exit {code}")

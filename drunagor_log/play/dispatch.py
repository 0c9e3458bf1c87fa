"""One line of the session, run as the one-shot command runs it.

A line is split as a POSIX shell splits words (shlex: quotes, backslashes; no variables, no globs, no
pipes: nothing of the line reaches a shell), the session's global options (`-C`, `--no-color`) go in
front, and the words run through the same Typer command tree `drunagor` builds (cli/app.build_app), in
standalone mode: the same parsing, the same messages, the same exit codes, the same lock taken per
command and the same atomic writes. Nothing is parsed twice and no command is copied here.

Each top-level command's tree is built on its first line and kept: building is the costly part of a
start, and a tree holds no campaign data (every command opens the campaign afresh, so a file changed
by another program is read by the next command).

The session adds a few words of its own: `exit` and `quit` leave, `undo` is `adventure undo`, `help`
is `--help`, and a leading `drunagor` typed from habit is dropped (`drunagor undo` is then the git undo
of the last commit, as in a shell).
"""

from __future__ import annotations

import io
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..cli.app import COMMANDS, build_app, command_typed
from ..cli.terminal import term
from .watch import stamp

LEAVE = ("exit", "quit")
INTERRUPTED = 130  # the exit code of a command stopped by Ctrl-C (Typer's, a shell's)
KEYBOARD = "import -: reading the token from the keyboard; paste it, then Ctrl-D"
MAX_DETAIL = 200  # characters of an unexpected exception's text in its one line


@dataclass
class Outcome:
    """What a line did: its exit code (as the one-shot command's), and whether the session ends."""

    code: int = 0
    leave: bool = False


class LineRefused(Exception):
    """A line the session cannot run (an unclosed quote): its message; exit code 2, a usage slip."""


def split(line: str) -> list[str]:
    """The words of a line, as a shell would pass them to `drunagor`."""
    try:
        return shlex.split(line)
    except ValueError as exc:  # "No closing quotation", "No escaped character"
        what = "a quote is not closed" if "quotation" in str(exc) else "it ends in a backslash"
        raise LineRefused(f"{what}: {line.strip()}; quote a name with spaces whole, "
                          'e.g. monster add "Gremlin Horde"') from None


def session_words(words: list[str]) -> list[str] | None:
    """The words as the command tree takes them (None: leave the session). `undo` is the session's
    word for `adventure undo`; `drunagor undo` keeps the meaning it has in a shell (the git undo of the
    last commit), so the session has a spelling for each."""
    if words[:1] == ["undo"]:
        return ["adventure", "undo", *words[1:]]
    if words[:1] == ["drunagor"]:
        words = words[1:]
    if len(words) == 1 and words[0] in LEAVE:
        return None
    if words[:1] == ["help"]:
        return [*words[1:], "--help"]
    return words


class Dispatcher:
    """Runs lines in the command tree, with the session's global options in front of each."""

    def __init__(self, root: Path, front: list[str], *, script: bool = False):
        self.root = root
        self.front = front
        self.script = script  # lines come from standard input: a command must not read the rest
        self._trees: dict[str | None, Any] = {}

    def tree(self, name: str | None) -> Any:
        """The Click command that runs a line whose top-level command is `name` (None: the whole
        app, for a name drunagor does not have, `--help` or `--version`)."""
        key = name if name in COMMANDS else None
        found = self._trees.get(key) or self._trees.get(None)
        if found is None:
            import typer.main

            found = self._trees[key] = typer.main.get_command(build_app(key))
        return found

    def handle(self, line: str, where: str = "") -> Outcome:
        """Run one line; print what it prints; never raise (the session goes on)."""
        try:
            words = split(line)
        except LineRefused as exc:
            return self.refuse(str(exc), where)
        if not words or words[0].startswith("#"):
            return Outcome()
        argv = session_words(words)
        if argv is None:
            return Outcome(leave=True)
        if command_typed(argv) == "play":
            return self.refuse("already in a table session: type the command without `play`", where)
        if words[:1] == ["undo"]:
            nothing = self._nothing_to_undo()
            if nothing:
                term.error(nothing)
                _flush()
                return Outcome(1)
        if not self.script and command_typed(argv) == "import" and "-" in argv[argv.index("import") + 1:]:
            term.message(KEYBOARD)  # else the session looks stuck while `import -` reads standard input
            _flush()
        return Outcome(self.guarded(argv))

    def _nothing_to_undo(self) -> str | None:
        """Why the session's `undo` has no table event to take back (no adventure under way), with
        the way to the git undo of the last commit, which `undo` is not in the session; None when an
        adventure is under way (`adventure undo` says the rest)."""
        import os

        from ..campaign import ADVENTURE, Campaign

        if os.path.lexists(self.root / ADVENTURE):
            return None
        try:
            with Campaign(self.root) as c:
                finished = c.finished()
        except Exception:  # the command itself says what is wrong
            return None
        return ((finished or "no adventure under way") + ", so no table event to undo; `drunagor undo` "
                "undoes the last commit (git)"
                + ("" if finished else ", `adventure start` begins the next chapter"))

    def refuse(self, message: str, where: str) -> Outcome:
        term.error(f"{where}: {message}" if where else message)
        _flush()
        return Outcome(2)

    def guarded(self, words: list[str]) -> int:
        """run() that reports anything unexpected in one line instead of a traceback."""
        before = stamp(self.root)
        try:
            code = self.run(words)
            if code != INTERRUPTED:
                return code
            message = f"interrupted: {self.name(words)}"  # Ctrl-C, which Typer turns into exit 130
        except KeyboardInterrupt:
            message, code = f"interrupted: {self.name(words)}", INTERRUPTED
        except Exception as exc:  # a defect in a command: one line, and the session goes on
            detail = " ".join(f"{type(exc).__name__}: {exc}".split())[:MAX_DETAIL]
            message, code = f"internal error in '{self.name(words)}': {detail}", 1
        finally:
            _flush()
        term.error(message + self._aftermath(before))
        _flush()
        return code

    def name(self, words: list[str]) -> str:
        """The command of a line as the user knows it: 'monster add', 'raid'."""
        typed = command_typed(words)
        if typed is None:
            return "drunagor"
        group = getattr(self.tree(typed), "commands", {}).get(typed)
        after = words[words.index(typed) + 1:words.index(typed) + 2]
        return " ".join([typed, *after]) if after and after[0] in getattr(group, "commands", {}) else typed

    def _aftermath(self, before: tuple) -> str:
        """What became of the campaign's files when a command stopped half-way (the store writes
        all of a command's changes at once, or none)."""
        from .. import store

        if store.pending_journal(self.root):
            return "; its changes are committed and the next command completes their write"
        if stamp(self.root) != before:
            return "; its changes were written whole before it stopped"
        return "; files untouched"

    def run(self, words: list[str]) -> int:
        """The exit code of `drunagor FRONT WORDS`, run in this process."""
        argv = [*self.front, *words]
        command = self.tree(command_typed(argv))
        stdin = sys.stdin
        if self.script:
            sys.stdin = io.StringIO("")  # `import -` reads no further than its own line
        try:
            return self._main(command, argv)
        except SystemExit as exc:
            return exit_code(exc)
        finally:
            sys.stdin = stdin

    @staticmethod
    def _main(command: Any, argv: list[str]) -> int:
        """Click's standalone run, but for its usage message: in the session help is `help raid`, not
        `drunagor raid --help` (the one-shot command line's words are its own, unchanged)."""
        from ..cli.click import Abort, ClickException, NoArgsIsHelpError, UsageError

        try:
            code = command.main(args=argv, prog_name="drunagor", standalone_mode=False)
        except NoArgsIsHelpError as exc:  # a group typed alone: its help
            exc.show()
            return exc.exit_code
        except UsageError as exc:
            usage(exc)
            return exc.exit_code
        except ClickException as exc:  # what standalone mode does with the others
            exc.show()
            return exc.exit_code
        except Abort:
            term.message("Aborted!")
            return 1
        return code if isinstance(code, int) and not isinstance(code, bool) else 0


def usage(exc: Any) -> None:
    """A usage slip in the session: the usage line, the session's way to its help, the error."""
    ctx = exc.ctx
    if ctx is not None:
        path = ctx.command_path.split()[1:]  # "drunagor adventure event": "help adventure event"
        hint = f"Try '{' '.join(['help', *path])}' for help.\n" if ctx.command.get_help_option(ctx) else ""
        term.message(f"{ctx.get_usage()}\n{hint}")
    term.message(f"Error: {exc.format_message()}")


def exit_code(exc: SystemExit) -> int:
    """The code a process ending with `exc` would have (Python's own rules)."""
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    term.message(str(exc.code))
    return 1


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass


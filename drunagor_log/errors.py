"""Errors as values: every failure a user can cause carries its exit code, the file, the line
where known, what is wrong and how to fix it. The CLI prints them as one message; never a traceback.

Exit codes (SPEC section 6), like httpie's ExitStatus: each failure mode has its documented code.
"""

from __future__ import annotations

import enum
from pathlib import Path

from .text import shell_word
from .values import record


class ExitCode(enum.IntEnum):
    OK = 0
    RULE = 1  # a rule or a check failed
    USAGE = 2  # the command line is wrong
    DATA = 3  # the data files are unreadable: syntax, conflict markers, newer schema
    CHANGED = 4  # the files changed on disk while the command ran: re-run it


class DrunagorError(Exception):
    """A user-facing failure: one message, one exit code."""

    code = ExitCode.RULE

    def __init__(self, message: str, *, file: str | Path | None = None, line: int | None = None,
                 remedy: str | None = None, rule: str | None = None, ask: str | None = None,
                 again: str | None = None):
        super().__init__(message)
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        self.remedy = remedy
        self.rule = rule
        # A question asked once (`--draws N`): the remedy ends with the command to copy, the words the
        # player typed with `ask` after them (`typed`, set by the command line that ran them), else
        # `again` (the command without the player's other words).
        self.ask = ask
        self.again = again
        self.typed: list[str] | None = None

    def command_to_copy(self) -> str | None:
        """"drunagor round end --rune blue,gray --draws N": what the player typed, and the answer asked."""
        if self.ask is None:
            return None
        if self.typed is not None:
            return " ".join(["drunagor", *(shell_word(w) for w in self.typed), self.ask])
        return f"{self.again} {self.ask}" if self.again else None

    def render(self) -> str:
        where = ""
        if self.file:
            where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        rule = f"{self.rule}: " if self.rule else ""
        text = f"{where}{rule}{self.message}"
        if self.remedy:
            text += f"; {self.remedy}"
        again = self.command_to_copy()
        if again:
            text += f" ({again})"
        return text


class RuleError(DrunagorError):
    """A game rule refuses the command (exit 1)."""

    code = ExitCode.RULE


class UsageError(DrunagorError):
    """The command line names something that does not exist or is ambiguous (exit 2)."""

    code = ExitCode.USAGE


class DataError(DrunagorError):
    """A campaign file cannot be read or understood (exit 3)."""

    code = ExitCode.DATA


class ChangedOnDisk(DrunagorError):
    """Someone else changed a file between our read and our write (exit 4)."""

    code = ExitCode.CHANGED


class Refused(RuleError):
    """A rule of the game does not allow a move at the table (exit 1): what is wrong, the rule with its
    rulebook lines, and what would make the move legal. Raised by the pure rules (rules/adventure.py),
    which know no file: the operation that read the file names it (`located`)."""

    def __init__(self, message: str, rule: str, remedy: str | None = None, *,
                 file: str | Path | None = None, line: int | None = None):
        super().__init__(message, file=file, line=line, remedy=remedy, rule=rule)


class StateError(DataError):
    """adventure.toml (or an archived adventure) does not have the shape drunagor writes (exit 3):
    `path` is the key path of the bad value (("monsters", 2, "slot")), which the file layer turns
    into a line (store/adventure.py)."""

    def __init__(self, path: tuple, message: str, remedy: str | None = None, *,
                 file: str | Path | None = None, line: int | None = None):
        super().__init__(message, file=file, line=line, remedy=remedy, rule="adventure-state")
        self.path = tuple(path)


def located(error: DrunagorError, file: str | Path | None, line: int | None = None) -> DrunagorError:
    """`error` with the file (and line) it is about, unless it names one already."""
    if error.file is None and file is not None:
        error.file = str(file)
        error.line = line
    return error


class FieldError(DataError):
    """A value of a campaign file has the wrong shape (raised by model.py, which knows no files).

    It carries the key path of the value; the file that was read adds its name and the line of that
    key path on the way out (`store.TomlFile.about`), so the one error path prints `FILE:LINE: ...`."""

    def __init__(self, path: tuple, message: str, remedy: str | None = None):
        super().__init__(message, remedy=remedy, rule="shape")
        self.key_path = tuple(path)

    @property
    def path(self) -> tuple:
        return self.key_path


class UnknownChapter(RuleError, KeyError, ValueError):
    """Not a chapter of the campaign (a name of the game: exit 1, as every unknown name, docs/errors.md).
    Also a KeyError (lookups) and a ValueError (parsing), as the catalog raised it before it was a
    DrunagorError."""

    def __init__(self, message: str, *, remedy: str | None = "give a chapter from 1 to 9"):
        super().__init__(message, remedy=remedy)

    def __str__(self) -> str:
        return self.message


@record
class Problem:
    """One finding of `drunagor check`: printed as `FILE:LINE: rule: message`."""

    file: str
    line: int | None
    rule: str
    message: str
    severity: str = "error"  # "error" or "warning"

    def render(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.rule}: {self.message}"

    def as_json(self) -> dict:
        return {"file": self.file, "line": self.line, "rule": self.rule, "message": self.message}

"""What every command shares: the global options, the options many commands take, opening the
chosen campaign, the one body of a writing command (`perform`: run one operation, print what it
says, save, `--commit`) and of a reading one (`look`: run one operation, print what it says)."""


import errno
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from ..campaign import Campaign, find_campaign, writing
from ..errors import UsageError
from ..text import is_os_name_utf8
from ..values import NotANumber, whole
from . import click
from .terminal import term

if TYPE_CHECKING:
    from ..ops import Change
    from ..ops.commit import Saved


class Options:
    """The global options of one command line (-C/--campaign), kept as the root context's object
    (`ctx.obj`, set by the app's callback): read by the commands, the table session and completion
    alike, never a module's state."""

    def __init__(self, campaign: str | None = None):
        self.campaign = campaign


def options(ctx: click.Context | None = None) -> Options:
    """The global options of the command line being run (`ctx`, else the current one). During
    completion the app's callback does not run: the options are read from what was parsed."""
    ctx = ctx if ctx is not None else click.get_current_context(silent=True)
    if ctx is None:
        return Options()
    root = ctx.find_root()
    if isinstance(root.obj, Options):
        return root.obj
    return Options(campaign=root.params.get("campaign"))


class Text(click.types.StringParamType):
    """Every text typed on the command line (docs/errors.md "Limits"): UTF-8 text (a byte that is not
    comes as a lone surrogate, Python's surrogateescape, and could not be written to a campaign file),
    and no longer than the longest text a campaign file holds (store.MAX_TEXT). Refused otherwise,
    exit 2, before the command runs. Every text parameter gets this type (typed_texts), but those that
    name a file (a PATH or FILE metavar), whose name is the file system's."""

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        value = super().convert(value, param, ctx)
        if isinstance(value, str) and not is_os_name_utf8(value):  # bytes Python's locale did not decode
            try:  # under LC_ALL=C (no UTF-8 mode) the UTF-8 a terminal sends comes as surrogate escapes
                value = os.fsencode(value).decode("utf-8")
            except UnicodeError:
                pass
        fault = text_fault(value) if isinstance(value, str) else None
        if fault is not None:
            self.fail(fault, param, ctx)
        return value


def text_fault(value: str) -> str | None:
    """Why `value`, typed, is not a text drunagor can keep, or None."""
    from ..store import MAX_TEXT
    from ..text import os_name, visible

    long = len(value) > MAX_TEXT
    shown = visible(os_name(value[:40])) + ("…" if len(value) > 40 else "")
    if not is_os_name_utf8(value):
        return (f"'{shown}' is not UTF-8 text; type it again in UTF-8 (is the terminal's encoding, "
                "`locale`, UTF-8?)")
    if long:
        return (f"'{shown}' is {len(value)} characters long, longer than the {MAX_TEXT} characters one text "
                "of a campaign file holds; shorten it")
    return None


def typed_texts(command: Any) -> None:
    """Give every text parameter of `command` and its subcommands the Text rule, a parameter added
    later included (GameName is Text already)."""
    for param in getattr(command, "params", ()):
        if type(param.type) is click.types.StringParamType and not any(
                word in (param.metavar or "") for word in ("PATH", "FILE")):
            param.type = Text()
    for sub in getattr(command, "commands", {}).values():
        typed_texts(sub)


def path_refused(exc: OSError) -> UsageError | None:
    """A path typed (-C, DRUNAGOR_CAMPAIGN, --dir, --out, a name that becomes a file's) that the system
    refuses as too long: exit 2 with the system's message (docs/errors.md "Limits"), or None for any
    other failure of the system."""
    if exc.errno != errno.ENAMETOOLONG:
        return None
    from ..text import os_name, visible

    name = os.fsdecode(exc.filename) if exc.filename is not None else ""
    shown = visible(os_name(name[:60])) + ("…" if len(name) > 60 else "")
    return UsageError(f"'{shown}' ({len(name)} characters): {exc.strerror or 'File name too long'}",
                      remedy="give a shorter path (a folder name of at most 255 bytes)")


class GameName(Text):
    """The type of a parameter that takes a name of the game (a hero, card, Follower, monster, rune
    colour...): text as any other, marked with what it names so that the command tree says which
    parameters go through the one resolver (names.resolve; a test walks them all). `records`: the
    command writes the name down, so it has --new for a name drunagor does not know."""

    def __init__(self, kind: str, records: bool = False):
        self.kind = kind
        self.records = records


def game(kind: str, records: bool = False) -> GameName:
    return GameName(kind, records)


class WholeNumber(click.types.IntParamType):
    """An `int` option or argument read by the one number rule (numbers.whole: ASCII digits, within
    TOML's 64-bit integers and the option's own min and max), not by `int()`, which takes `٣` and
    `1_000`. Every int parameter of the command tree gets this type (whole_numbers); its name, and so
    its help, stays Typer's."""

    def __init__(self, name: str, low: int | None = None, high: int | None = None):
        self.name, self.low, self.high = name, low, high

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):  # a default
            return value
        try:
            return whole(str(value), low=self.low, high=self.high)
        except NotANumber as exc:
            self.fail(f"{exc.message}; {exc.remedy}", param, ctx)


class WholeNumberRange(click.types.IntRange, WholeNumber):
    """WholeNumber of an option Typer gave a min or max (its help still says the range: `[x>=0]`)."""

    def __init__(self, base: Any):
        click.types.IntRange.__init__(self, min=base.min, max=base.max, min_open=base.min_open,
                                      max_open=base.max_open, clamp=base.clamp)
        WholeNumber.__init__(self, base.name, None if base.clamp else base.min, None if base.clamp else base.max)

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        n = WholeNumber.convert(self, value, param, ctx)
        return click.types.IntRange.convert(self, n, param, ctx)


def whole_numbers(command: Any) -> None:
    """Give every int parameter of `command` and its subcommands the one number rule (WholeNumber), a
    parameter added later included."""
    for param in getattr(command, "params", ()):
        kind = param.type
        if isinstance(kind, WholeNumber) or not isinstance(kind, click.types.IntParamType):
            continue
        param.type = WholeNumberRange(kind) if isinstance(kind, click.types.IntRange) else WholeNumber(kind.name)
    for sub in getattr(command, "commands", {}).values():
        whole_numbers(sub)


JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object (stable keys, see docs/).")]
CommitOpt = Annotated[bool, typer.Option("--commit", help="Commit the changed campaign files to git.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Correct history: allow it, and record that you did.")]


def campaign_root() -> Path:
    return find_campaign(options().campaign)


def open_campaign(*, migrating: bool = False) -> Campaign:
    """The chosen campaign; a command says at once when it finished an interrupted write (a warning)."""
    return Campaign(campaign_root(), migrating=migrating, announce=term.warn)


T = TypeVar("T")


def write_campaign(body: Callable[[Campaign], T], *, migrating: bool = False) -> T:
    """A writing command's `body` on the chosen campaign, re-run once from the start if another
    drunagor wrote what it read before it could write (campaign.writing). It prints nothing before
    `c.lock_for_save()` or the save."""
    return writing(campaign_root(), body, migrating=migrating, announce=term.warn)


def warn_all(c: Campaign, change: "Change | None" = None) -> None:
    """The campaign's warnings (a file of a newer schema...), then the operation's."""
    for w in (*c.warnings, *(change.warnings if change is not None else ())):
        term.warn(w)


def finish(c: Campaign, message: str, commit: bool = False, *, quiet: bool = False,
           autocommit: bool | None = None) -> list[str]:
    """Save every change of the command at once; print what changed; commit it if asked (`--commit`,
    or the campaign's `[git] autocommit`, read from story.toml unless given)."""
    from ..ops.commit import commit_tail

    def written(files: list[str]) -> None:
        if quiet:
            return
        if files:
            term.done(message)
        else:
            term.line(f"no change: {message}")

    auto = c.story.autocommit if autocommit is None else autocommit
    saved = commit_tail(c.root, c.save, message, commit=commit, autocommit=auto, written=written)
    if not quiet:
        said(saved, message)
    return saved.files


def said(saved: "Saved", message: str) -> None:
    """The line after a commit (committed ID, or nothing to commit), when one was asked."""
    from ..ops.commit import committed_line

    line = committed_line(saved, message)
    if line is not None:
        term.line(line)


def print_change(change: "Change") -> None:
    """What a command that wrote outside the campaign's save (new, import) prints: its warnings, its
    summary line, its notes."""
    for warning in change.warnings:
        term.warn(warning)
    term.done(change.summary)
    for note in change.notes:
        term.line(note)


def output(change: "Change", json: bool = False) -> None:
    """An operation's notes as lines (in their style on a colour terminal), or with `json` its data."""
    if json:
        if change.data:
            term.json(change.data)
        return
    for line in change.notes:
        term.line(line, getattr(line, "style", None))


def perform(operation: Callable[..., "Change"], *args: Any, commit: bool = False, quiet: bool = False,
            json: bool = False, notes_first: bool = False, **kwargs: Any) -> tuple["Change", list[str]]:
    """A writing command's whole body: open the campaign, run one operation (ops/), print the warnings
    (the campaign's and the operation's), save and print its summary line when it has one (and commit
    if asked), then print its notes, or with `json` its data. Notes are not printed when the write
    changed nothing ("no change: ..."). `notes_first` prints them before the summary line (the raid's
    steps, then the one line of its write); `quiet` prints neither: the caller prints. A dry run (an
    operation that returns no summary) never saves, so never takes the write lock."""

    def body(c: Campaign) -> tuple["Change", list[str]]:
        change = operation(c, *args, **kwargs)
        if change.summary:
            c.lock_for_save()  # before anything is printed: a re-run prints nothing twice
        warn_all(c, change)
        if notes_first and not quiet:
            output(change, json)
        return change, finish(c, change.summary, commit, quiet=quiet or json) if change.summary else []

    change, changed = write_campaign(body)
    if not notes_first and not quiet and (json or changed or not change.summary):
        output(change, json)
    return change, changed


def look(operation: Callable[..., "Change"], *args: Any, json: bool = False,
         show: Callable[[dict], None] | None = None, **kwargs: Any) -> tuple["Change", Path]:
    """A reading command's whole body: open the campaign (to read), run one operation (ops/), print
    the warnings (the campaign's and the operation's), close it, then print: with `json` the
    operation's data, else `show(data)` where the command draws it itself (tables), else its notes.
    What it shows is printed once the campaign's lock is released: a slow reader of the output holds
    no writer up. Returns the change and the campaign's folder (a heading may name it)."""
    with open_campaign() as c:
        change = operation(c, *args, **kwargs)
        warn_all(c, change)
    if show is not None and not json:
        show(change.data)
    else:
        output(change, json)
    return change, c.root

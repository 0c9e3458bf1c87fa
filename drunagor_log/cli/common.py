"""What every command shares: the global options, the options many commands take, opening the
chosen campaign, and finishing a write (one line saying what changed; `--commit`)."""


from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Callable, Optional

import typer
from typer import _click as click

from .. import campaign as _campaign
from ..campaign import Campaign, find_campaign
from .terminal import term

_campaign.announce = term.warn  # every command says at once that it finished an interrupted write

if TYPE_CHECKING:
    from ..ops import Change


class State:
    campaign_option: Optional[str] = None


state = State()

class GameName(click.types.StringParamType):
    """The type of a parameter that takes a name of the game (a hero, card, Follower, monster, rune
    colour...): text as any other, marked with what it names so that the command tree says which
    parameters go through the one resolver (names.resolve; a test walks them all). `records`: the
    command writes the name down, so it has --new for a name drunagor does not know."""

    def __init__(self, kind: str, records: bool = False):
        self.kind = kind
        self.records = records


def game(kind: str, records: bool = False) -> GameName:
    return GameName(kind, records)


JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object (stable keys, see docs/).")]
CommitOpt = Annotated[bool, typer.Option("--commit", help="Commit the changed campaign files to git.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Correct history: allow it, and record that you did.")]


def campaign_root() -> Path:
    return find_campaign(state.campaign_option)


def open_campaign(write: bool = False) -> Campaign:
    c = Campaign(campaign_root(), write=write)
    return c


def warn_all(c: Campaign) -> None:
    for w in c.warnings:
        term.warn(w)


def finish(c: Campaign, message: str, commit: bool = False, *, quiet: bool = False) -> list[str]:
    """Save every change of the command at once; print what changed; commit it if asked."""
    wants_commit = commit or c.story.autocommit
    if wants_commit:
        from ..git.runner import check_can_commit

        check_can_commit(c.root, explicit=commit)  # before writing: no repository, nothing written
    changed = c.save()
    if not changed:
        if not quiet:
            term.line(f"no change: {message}")
        return changed
    if not quiet:
        term.done(message)
    if wants_commit:
        from ..git.commits import commit_changes

        sha = commit_changes(c.root, changed, message)
        if not quiet:
            term.line(f"committed {sha}: drunagor: {message}" if sha
                      else "nothing to commit: the files match the last commit")
    return changed


def print_change(change: "Change") -> None:
    """What a command that wrote outside the campaign's save (new, import) prints: its warnings, its
    summary line, its notes."""
    for warning in change.warnings:
        term.warn(warning)
    term.done(change.summary)
    for note in change.notes:
        term.line(note)


def perform(operation: Callable[..., "Change"], *args: Any, commit: bool = False, quiet: bool = False,
            **kwargs: Any) -> tuple["Change", list[str]]:
    """A writing command's whole body: open the campaign for writing, run one operation (ops/), print
    its warnings, save, print its summary (and its notes when something changed), commit if asked."""
    with open_campaign(write=True) as c:
        change = operation(c, *args, **kwargs)
        for warning in change.warnings:
            term.warn(warning)
        changed = finish(c, change.summary, commit, quiet=quiet)
    if changed and not quiet:
        for line in change.notes:
            term.line(line)
    return change, changed

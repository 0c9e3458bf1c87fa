"""Git commands: `drunagor history` and `drunagor undo` (SPEC section 4 "Git"), `drunagor sync` and
`drunagor git setup` (SPEC section 9). Each parses its options, calls one operation (ops/git.py, or
interop/sync.py for sync) and prints what it returns."""


from pathlib import Path
from typing import Annotated

import typer

from ..common import CommitOpt, JsonOpt, campaign_root
from ..terminal import term

git_app = typer.Typer(help="The campaign's git repository: the campaign-aware merge driver.\n\n"
                      "Example: drunagor git setup", no_args_is_help=True)


def history(
    n: Annotated[int, typer.Option("-n", metavar="N", min=0,
                                   help="At most N commits, newest first (0: all).")] = 20,
    json: JsonOpt = False,
) -> None:
    """This campaign's drunagor commits, newest first, with date, author and what happened.

    The commits whose message starts with "drunagor: " and that changed the campaign folder.

    They are made by --commit, or by autocommit = true in story.toml.

    Exit 2 outside a git repository.

    Example: drunagor history -n 5
    """
    from ...ops import git

    found = git.history(campaign_root(), n)
    if json:
        term.json(found.as_json())
        return
    if not found.total:
        term.line(f"no drunagor commits for {found.campaign} yet (write with --commit, "
                  "or set `autocommit = true` under [git] in story.toml)")
        return
    table = [[e.date[:16].replace("T", " "), e.short, e.author, e.what + (" (undone)" if undone else "")]
             for e, undone in found.rows]
    term.table(["Date", "Commit", "Author", "What happened"], table,
               title=f"History of {found.campaign}, newest first")
    if len(found.rows) < found.total:
        term.line(f"({found.total - len(found.rows)} older: drunagor history -n 0)")


def undo(
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Say what would be undone; change nothing.")] = False,
) -> None:
    """Undo the last drunagor commit of this campaign: restore its files and commit that.

    Its files get back the bytes they had before it, committed as "drunagor: undo ...".

    Run it again to undo the commit before.

    Refused (exit 1) while the campaign has uncommitted changes,
    or when the last commit that changed the campaign is not drunagor's.

    Exit 2 outside a git repository.

    Example: drunagor undo
    """
    from ...ops import git

    change = git.undo(campaign_root(), dry_run=dry_run)
    if dry_run:
        term.line(change.summary)
        return
    term.done(change.summary)
    for note in change.notes:
        term.line(note)


def sync(
    keep: Annotated[str | None, typer.Option(
        "--keep", metavar="mine|theirs",
        help="Where both sides changed the same value: keep yours (mine) or the other players' (theirs).")] = None,
) -> None:
    """Share the campaign with the other players: commit, pull and merge, check, push.

    Run it before and after the evening. One line per step: what it committed (the campaign's
    changes not committed yet, in the game's words), what it pulled and from whom, what check
    found, what it pushed. The merge goes value by value (the campaign-aware merge driver, set up
    on the way): two players' records of different things, or of the same things alike, merge.

    Where both sides changed the same value (chapter 05 completed here, skipped there), nothing is
    merged: sync says where and stops (exit 1); --keep mine or --keep theirs then decides.

    Stops before committing anything when the campaign folder holds files drunagor does not write.
    Check errors after the merge stop the push (exit 1); a failed push keeps everything committed here.

    Exit 2 outside a git repository or without a remote.

    Example: drunagor sync
    """
    from ...interop.sync import sync as run_sync

    run_sync(campaign_root(), keep, term.line, remake_sheets)


def remake_sheets(root: Path, names: list[str]) -> list[str]:
    """The sheets `sync` found beside story.toml made again as `drunagor sheet` makes them: those rewritten."""
    from ... import sheet as sheets
    from ...campaign import SHEETS, Campaign

    with Campaign(root, markers=False) as c:
        data = sheets.view(c)
    return [name for name in names if sheets.write(root / name, sheets.render(data, SHEETS[name]))]


def git_setup(commit: CommitOpt = False) -> None:
    """Register the campaign-aware merge driver in this repository.

    Sets `git config merge.drunagor.driver` (this Python by its absolute path, so it runs from any
    shell) and names the driver for the campaign's TOML files in its .gitattributes. Once per clone:
    `drunagor new` and `drunagor sync` do it too. Without it git merges the campaign line by line.

    Exit 2 outside a git repository.

    Example: drunagor git setup
    """
    from ...ops import git

    change = git.git_setup(campaign_root(), commit=commit)
    if not change.data["changed"]:
        term.line(change.summary)
        return
    term.done(change.summary)
    for note in change.notes:
        term.line(note)


def register(app: typer.Typer) -> None:
    app.command()(history)
    app.command()(undo)
    app.command()(sync)
    git_app.command("setup")(git_setup)
    app.add_typer(git_app, name="git")

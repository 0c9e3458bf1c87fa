"""Git commands: `drunagor history` and `drunagor undo` (SPEC section 4 "Git"; the work is in gitops),
`drunagor sync` and `drunagor git setup` (SPEC section 9; the work is in interop/sync.py and gitops)."""


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
    from ... import gitops, store

    root = campaign_root()
    rows = gitops.history(root)
    shown = rows[:n] if n else rows
    if json:
        term.json({"campaign": store.display(root), "total": len(rows),
                   "commits": [e.as_json(undone) for e, undone in shown]})
        return
    if not rows:
        term.line(f"no drunagor commits for {store.display(root)} yet (write with --commit, "
                  "or set `autocommit = true` under [git] in story.toml)")
        return
    table = [[e.date[:16].replace("T", " "), e.short, e.author, e.what + (" (undone)" if undone else "")]
             for e, undone in shown]
    term.table(["Date", "Commit", "Author", "What happened"], table,
               title=f"History of {store.display(root)}, newest first")
    if len(shown) < len(rows):
        term.line(f"({len(rows) - len(shown)} older: drunagor history -n 0)")


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
    from ... import gitops, store
    from ...campaign import Campaign

    root = campaign_root()
    with Campaign(root, write=not dry_run):  # the campaign lock, from the plan to the commit
        plan = gitops.plan_undo(root)
        files = ", ".join(plan.restore) or "no files"
        what = f'"{plan.target.what}" ({plan.target.short}, {plan.target.date[:10]}, {plan.target.author})'
        if dry_run:
            term.line(f"would undo {what}: would restore {files}")
            return
        sha = gitops.apply_undo(root, plan)
    term.done(f"undid {what}: restored {files}")
    if sha:
        term.line(f"committed {sha}: drunagor: undo {plan.target.what}")
    else:
        term.line(f"nothing to commit: {store.display(root)} already matched")


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

    run_sync(campaign_root(), keep, term.line)


def git_setup(commit: CommitOpt = False) -> None:
    """Register the campaign-aware merge driver in this repository.

    Sets `git config merge.drunagor.driver` (this Python by its absolute path, so it runs from any
    shell) and names the driver for the campaign's TOML files in its .gitattributes. Once per clone:
    `drunagor new` and `drunagor sync` do it too. Without it git merges the campaign line by line.

    Exit 2 outside a git repository.

    Example: drunagor git setup
    """
    from ... import gitops, store
    from ...campaign import Campaign

    root = campaign_root()
    with Campaign(root, write=True):  # the campaign lock while .gitattributes is written
        changed = gitops.setup_driver(root)
        if not changed:
            term.line("the campaign-aware merge driver is already set up")
            return
        said = {"config": "git config merge.drunagor.driver", ".gitattributes": store.display(root / ".gitattributes")}
        term.done("set up the campaign-aware merge driver: " + " and ".join(said[c] for c in changed))
        if commit and ".gitattributes" in changed:
            sha = gitops.commit_changes(root, [".gitattributes"], "merge driver named in .gitattributes")
            term.line(f"committed {sha}: drunagor: merge driver named in .gitattributes" if sha
                      else "nothing to commit")


def register(app: typer.Typer) -> None:
    app.command()(history)
    app.command()(undo)
    app.command()(sync)
    git_app.command("setup")(git_setup)
    app.add_typer(git_app, name="git")

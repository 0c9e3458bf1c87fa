"""Git commands: `drunagor history` and `drunagor undo` (SPEC section 4 "Git"; the work is in gitops)."""


from typing import Annotated

import typer

from ..common import JsonOpt, campaign_root
from ..terminal import term


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


def register(app: typer.Typer) -> None:
    app.command()(history)
    app.command()(undo)

"""The campaign's git operations (SPEC section 4 "Git", section 9): `history`, `undo`, `git setup`.

Each takes the campaign folder, does the work through drunagor_log/git/ (the only caller of git)
under the campaign lock where it writes, and returns what a front end prints: a `Change` for undo
and git setup, a `History` for history. Refusals are DrunagorErrors (exit 2 outside a repository,
1 for an undo refused)."""

from __future__ import annotations

from pathlib import Path

from .. import store
from ..campaign import Campaign
from ..git import driver_setup as driver
from ..git import history as log
from ..git.commits import PREFIX
from ..git.runner import repository
from ..values import record
from . import Change
from .commit import commit_tail, refuse_during_merge


@record
class History:
    """This campaign's drunagor commits, newest first: the ones shown (each with whether a later
    undo undid it) out of `total`."""

    campaign: str
    total: int
    rows: tuple[tuple[log.Entry, bool], ...]

    def as_json(self) -> dict:
        return {"campaign": self.campaign, "total": self.total,
                "commits": [e.as_json(undone) for e, undone in self.rows]}


def history(root: Path, n: int = 0) -> History:
    """The campaign's drunagor commits, at most `n` of them (0: all)."""
    rows = log.history(root)
    return History(store.display(root), len(rows), tuple(rows[:n] if n else rows))


def undo(root: Path, *, dry_run: bool = False) -> Change:
    """Undo the last drunagor commit: restore its files and commit that (`dry_run`: only say what)."""
    # git reads and writes the files itself, past the campaign's check of what it read: the exclusive
    # lock from the plan to the commit (a dry run only reads)
    with Campaign(root, exclusive=not dry_run):
        if not dry_run:
            refuse_during_merge(root, purpose="undo")  # before anything: the undo's commit could not be made
        plan = log.plan_undo(root)
        files = ", ".join(plan.restore) or "no files"
        t = plan.target
        what = f'"{t.what}" ({t.short}, {t.date[:10]}, {t.author})'
        data = {"commit": t.commit, "files": list(plan.restore), "undo": None}
        if dry_run:
            return Change(summary=f"would undo {what}: would restore {files}", data=data)
        sha = log.apply_undo(root, plan)
    data["undo"] = sha
    note = (f"committed {sha}: {PREFIX}undo {t.what}" if sha
            else f"nothing to commit: {store.display(root)} already matched")
    return Change(summary=f"undid {what}: restored {files}", notes=(note,), data=data)


def git_setup(root: Path, *, commit: bool = False) -> Change:
    """Register the campaign-aware merge driver in the repository (config and .gitattributes);
    commit the .gitattributes if asked (the one check-then-commit tail of every write: the config is
    not a campaign file, so only the .gitattributes is committed). `data["changed"]` is empty when all
    was set up already."""
    changed: list[str] = []

    def setup() -> list[str]:
        changed.extend(driver.setup_driver(root))
        return [f for f in changed if f == ".gitattributes"]

    message = "merge driver named in .gitattributes"
    with Campaign(root, exclusive=True):  # written outside the campaign's save: the lock from the start
        if commit:
            repository(root, "setup")  # outside a repository: the refusal of setup, not of --commit
        saved = commit_tail(root, setup, message, commit=commit)
    if not changed:
        return Change(summary="the campaign-aware merge driver is already set up", data={"changed": []})
    said = {"config": "git config merge.drunagor.driver", ".gitattributes": store.display(root / ".gitattributes")}
    summary = "set up the campaign-aware merge driver: " + " and ".join(said[c] for c in changed)
    notes: tuple[str, ...] = ()
    if saved.asked and saved.files:  # --commit, and the .gitattributes written
        notes = (f"committed {saved.sha}: {PREFIX}{message}" if saved.sha else "nothing to commit",)
    return Change(summary=summary, notes=notes, data={"changed": changed})

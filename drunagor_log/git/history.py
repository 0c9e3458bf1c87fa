"""This campaign's drunagor commits, and undo (SPEC section 4 "Git").

- `history` lists this campaign's drunagor commits: subject starting `drunagor: ` and touching the
  campaign folder, newest first.
- `plan_undo` / `apply_undo` undo the last drunagor commit by restoring the bytes its parent had for
  the files it changed, and commit that as `drunagor: undo ...` with a `Drunagor-Undo: SHA` trailer.
  Undo never uses `git revert`: revert refuses while the user has unrelated staged work. The trailer
  makes undo walk back: a second `undo` undoes the commit before, not the undo.

A refused undo, or git failing, is a RuleError (exit 1) with rule `git`.
"""

from __future__ import annotations

from pathlib import Path

from .. import store
from ..errors import RuleError
from ..values import field, record
from .commits import PREFIX, commit_changes, uncommitted
from .runner import GitFailed, repository, run, split_z

UNDO_TRAILER = "Drunagor-Undo"


@record
class Entry:
    """One commit that touched the campaign folder."""

    commit: str
    short: str
    date: str  # ISO 8601, the author's time zone
    author: str
    message: str  # the subject line, `drunagor: ...` for ours
    undoes: str | None = None  # for an undo commit: the commit it undid

    @property
    def ours(self) -> bool:
        return self.message.startswith(PREFIX)

    @property
    def what(self) -> str:
        """The message in the game's words, without the `drunagor: ` prefix."""
        return self.message[len(PREFIX):] if self.ours else self.message

    def as_json(self, undone: bool = False) -> dict:
        return {"commit": self.commit, "short": self.short, "date": self.date, "author": self.author,
                "message": self.message, "undoes": self.undoes, "undone": undone}


def _log(root: Path, limit: int | None = None, ours_only: bool = False) -> list[Entry]:
    """Commits touching the campaign folder, newest first (empty in a repository with no commit)."""
    args = ["log", "-z", "--format=%H%x1f%h%x1f%aI%x1f%an%x1f%s%x1f%b"]
    if ours_only:
        args.append("--grep=^" + PREFIX)  # any line of the message; the subject is checked below
    if limit:
        args.append(f"-n{limit}")
    if run(root, "rev-parse", "--verify", "-q", "HEAD", ok=(0, 1)).returncode != 0:
        return []
    out = run(root, *args, "--", ".").stdout.decode("utf-8", "replace")
    entries = []
    for commit_text in out.split("\0"):
        if not commit_text.strip():
            continue
        sha, short, date, author, subject, body = (commit_text.split("\x1f") + [""] * 6)[:6]
        undoes = None
        for line in body.splitlines():
            if line.startswith(UNDO_TRAILER + ":"):
                undoes = line.split(":", 1)[1].strip()
        entries.append(Entry(sha.strip(), short, date, author, subject, undoes))
    return entries


def history(root: Path, limit: int | None = None) -> list[tuple[Entry, bool]]:
    """This campaign's drunagor commits, newest first, each with whether a later undo undid it."""
    repository(root, "history")
    try:
        entries = [e for e in _log(root, ours_only=True) if e.ours]
    except GitFailed as exc:
        raise RuleError(f"git log failed: {exc.reason}", file=store.display(root), rule="git") from None
    undone = {e.undoes for e in entries if e.undoes}
    rows = [(e, e.commit in undone) for e in entries]
    return rows[:limit] if limit else rows


@record  # its dicts are filled in place by plan_undo
class UndoPlan:
    target: Entry
    parent: str
    restore: dict[str, bytes | None] = field(factory=dict)  # path -> old bytes (None: delete)
    current: dict[str, bytes | None] = field(factory=dict)  # path -> bytes now (as committed)


def plan_undo(root: Path) -> UndoPlan:
    """What `drunagor undo` would restore, or a RuleError (exit 1) saying why it will not."""
    shown = store.display(root)
    repository(root, "undo")
    try:
        _refuse_uncommitted(root, shown)
        target = _undo_target(root, shown)
        parents = run(root, "rev-list", "--parents", "-n1", target.commit).stdout.decode().split()
        parent = parents[1] if len(parents) > 1 else run(
            root, "hash-object", "-t", "tree", "--stdin", input=b"").stdout.decode().strip()
        diff = split_z(run(root, "diff", "--name-status", "--no-renames", "--relative", "-z",
                       parent, target.commit, "--", ".").stdout)
        changes = list(zip(diff[0::2], diff[1::2], strict=False))
        _refuse_changed_since(root, target, [p for _, p in changes], shown)
        return _restore_plan(root, target, parent, changes)
    except GitFailed as exc:
        raise RuleError(f"git {exc.args_[0]} failed: {exc.reason}", file=shown, rule="git") from None


def _refuse_uncommitted(root: Path, shown: str) -> None:
    dirty = uncommitted(root)
    if dirty:
        listed = ", ".join(dirty[:5]) + (f" and {len(dirty) - 5} more" if len(dirty) > 5 else "")
        raise RuleError(f"the campaign has uncommitted changes ({listed}); undo would mix them into "
                        "the undo", file=shown, rule="git",
                        remedy="commit them (git commit) or discard them (git restore FILE), then undo")


def _undo_target(root: Path, shown: str) -> Entry:
    """The newest drunagor commit not undone yet, passing over undo commits and what they undid;
    refused when a commit that is not drunagor's comes first."""
    undone: set[str] = set()
    for n, e in enumerate(_log(root)):
        if not e.ours:
            raise _not_ours(e, n == 0, shown)
        if e.undoes:
            undone.add(e.undoes)
        elif e.commit not in undone:
            return e
    raise RuleError("nothing to undo: no drunagor commit changed this campaign yet", file=shown,
                    rule="git", remedy="commits are made by writing commands with --commit, "
                    "or with `autocommit = true` under [git] in story.toml")


def _not_ours(e: Entry, last: bool, shown: str) -> RuleError:
    if last:
        return RuleError(f"the last commit that changed the campaign, {e.short} \"{e.message}\" "
                         f"by {e.author}, is not one of drunagor's", file=shown, rule="git",
                         remedy=f"undo it with git itself (git revert {e.short})")
    return RuleError(f"nothing left to undo: before the undone drunagor commits comes {e.short} "
                     f"\"{e.message}\" by {e.author}, which is not one of drunagor's", file=shown,
                     rule="git", remedy=f"undo it with git itself (git revert {e.short})")


def _refuse_changed_since(root: Path, target: Entry, paths: list[str], shown: str) -> None:
    """Refuse when the target's files changed after it, in commits drunagor did not make."""
    if paths and run(root, "diff", "--quiet", target.commit, "HEAD", "--", *paths, ok=(0, 1)).returncode:
        raise RuleError(f"the files of {target.short} \"{target.message}\" changed since, in commits "
                        "drunagor did not make", file=shown, rule="git",
                        remedy=f"undo it with git itself (git revert {target.short})")


def _restore_plan(root: Path, target: Entry, parent: str, changes: list[tuple[str, str]]) -> UndoPlan:
    plan = UndoPlan(target, parent)
    for status, path in changes:
        file = root / path
        plan.current[path] = store.current_bytes(file, root)  # no link, FIFO or device followed
        if status.startswith("A"):
            plan.restore[path] = None  # the commit created it: undoing deletes it
        else:
            plan.restore[path] = run(root, "cat-file", "blob", f"{parent}:./{path}").stdout
    return plan


def apply_undo(root: Path, plan: UndoPlan) -> str | None:
    """Write the old bytes back (all files or none, store.Transaction) and commit the undo.
    The caller holds the campaign lock."""
    tx = store.Transaction(root)
    for path, data in plan.restore.items():
        target, current = root / path, plan.current.get(path)  # changed on disk since the plan: exit 4
        if data is None:
            if current is not None:
                tx.delete(target, current)
        elif data != current:
            tx.write(target, data, current)
    tx.commit()
    return commit_changes(root, list(plan.restore), "undo " + plan.target.what,
                          body=f"{UNDO_TRAILER}: {plan.target.commit}")

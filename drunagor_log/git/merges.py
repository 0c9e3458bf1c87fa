"""The branch, its remote and a merge with it, as `drunagor sync` (interop/sync.py) drives them: the
upstream's configuration, fetch, merge, the merge under way, its commit, push, and who made the
commits on the other side.

Each function is one git command line; a status git gives that is not the caller's to read raises
GitFailed (runner.run).
"""

from __future__ import annotations

from pathlib import Path

from .runner import exists, run, split_z, text


def current_branch(root: Path) -> str:
    """The branch checked out, "" on a detached HEAD."""
    return text(root, "symbolic-ref", "--quiet", "--short", "HEAD", ok=(0, 1, 128))


def config_value(root: Path, key: str) -> str:
    """A value of git's configuration ("" when unset)."""
    return text(root, "config", "--get", key, ok=(0, 1))


def remotes(root: Path) -> list[str]:
    return text(root, "remote").split()


def fetch(root: Path, remote: str) -> None:
    run(root, "fetch", "--quiet", remote)


def count(root: Path, *span: str, merges: bool = True) -> int:
    """How many commits `git rev-list` finds in `span` ("HEAD..REF"), merges left out with `merges=False`."""
    return int(text(root, "rev-list", "--count", *([] if merges else ["--no-merges"]), *span) or 0)


def merging(root: Path) -> bool:
    """A merge is under way (MERGE_HEAD is there)."""
    return exists(root, "MERGE_HEAD")


def merge(root: Path, ref: str) -> bytes | None:
    """Merge `ref` into the branch: None when merged and committed, else git's words (it stopped at
    conflicts, or refused). Until `merge_done`, the repository remembers that a sync started this
    merge (SYNC_MERGE, holding the commit merged), so that a sync stopped in it (killed, a machine
    that went off) is recognised by the next one (`stopped_sync_merge`)."""
    _sync_mark(root).write_text(text(root, "rev-parse", "--verify", f"{ref}^{{commit}}") + "\n", encoding="ascii")
    proc = run(root, "merge", "--no-edit", "--quiet", ref, ok=(0, 1, 128))
    if proc.returncode == 0:
        merge_done(root)
    return None if proc.returncode == 0 else proc.stderr + proc.stdout


#: In the repository's git folder: the commit a sync is merging, there from the merge's start to its end.
SYNC_MERGE = "drunagor-sync-merge"


def _sync_mark(root: Path) -> Path:
    return root / text(root, "rev-parse", "--git-path", SYNC_MERGE)


def merge_done(root: Path) -> None:
    """The merge a sync started is committed or given up: forget it."""
    _sync_mark(root).unlink(missing_ok=True)


def stopped_sync_merge(root: Path) -> bool:
    """The merge under way is one a sync started and never finished (it was stopped in it)."""
    try:
        merged = _sync_mark(root).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return False
    return bool(merged) and text(root, "rev-parse", "--verify", "--quiet", "MERGE_HEAD", ok=(0, 1)) == merged


def abort_merge(root: Path) -> None:
    run(root, "merge", "--abort", ok=(0, 1, 128))
    merge_done(root)


def commit_merge(root: Path) -> None:
    """Commit the merge under way with git's own message."""
    run(root, "commit", "--no-edit", "--quiet")
    merge_done(root)


def stage(root: Path, path: str) -> None:
    run(root, "add", "--", path)


def unstage_deleted(root: Path, path: str) -> None:
    """A file deleted from the work tree, deleted from the index too."""
    run(root, "rm", "--quiet", "--cached", "--", path)


def short_head(root: Path) -> str:
    return text(root, "rev-parse", "--short", "HEAD")


def push(root: Path, remote: str, branch: str, *, set_upstream: bool) -> bytes | None:
    """Push HEAD to `branch` of `remote`: None when pushed, else git's error output (the remote's words)."""
    args = ["push", "--quiet", *(["--set-upstream"] if set_upstream else []), remote, f"HEAD:refs/heads/{branch}"]
    proc = run(root, *args, ok=(0, 1, 128))
    return None if proc.returncode == 0 else proc.stderr


def commits_to_merge(root: Path, ref: str) -> list[tuple[str, str]]:
    """(author, subject) of each commit of HEAD..`ref` that changed the campaign folder, oldest first,
    merges left out."""
    out = run(root, "log", "--reverse", "--no-merges", "-z", "--format=%an%x1f%s", f"HEAD..{ref}", "--", ".").stdout
    return [(r.split("\x1f", 1)[0], r.split("\x1f", 1)[1]) for r in split_z(out) if "\x1f" in r]


def authors(root: Path, span: str, path: str) -> list[str]:
    """The authors of the commits of `span` ("HEAD..MERGE_HEAD") that changed `path`, newest first."""
    return text(root, "log", "--format=%an", span, "--", path, ok=(0, 128)).splitlines()


def last_author(root: Path, ref: str, path: str | None = None) -> str:
    """Who made the newest commit of HEAD..`ref` (that changed `path`); "" when none."""
    return text(root, "log", "-1", "--format=%an", f"HEAD..{ref}", *(["--", path] if path else []), ok=(0, 128))

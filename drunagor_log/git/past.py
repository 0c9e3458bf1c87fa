"""The campaign's past as git holds it, for `drunagor recap` (ops/recap.py): where the last evening began
(the last commit that started or ended an adventure, the last sync), a chapter's first commit, a day's,
a commit named by the user, and the campaign's files as a commit has them.

Read only, on the user's word (`recap`), each one git command line; nothing of the repository runs
(`own`: no hook, filter or fsmonitor).
"""

from __future__ import annotations

from pathlib import Path

from ..errors import UsageError
from .driver_setup import git_dir
from .runner import run, split_z

#: One commit: its full sha, short sha, committer time (seconds) and ISO date.
Commit = tuple[str, str, int, str]
_FORMAT = "--format=%H%x1f%h%x1f%ct%x1f%cI"


def _commits(out: bytes) -> list[Commit]:
    found = []
    for line in out.decode("utf-8", "replace").splitlines():
        parts = line.split("\x1f")
        if len(parts) == 4 and parts[2].isdigit():
            found.append((parts[0], parts[1], int(parts[2]), parts[3]))
    return found


def head(root: Path) -> Commit | None:
    """The commit checked out, None outside a repository or before its first commit."""
    if git_dir(root) is None:  # found without running git
        return None
    try:
        proc = run(root, "log", "-1", _FORMAT, "HEAD", "--", ".", ok=(0, 128), own=True)
    except UsageError:  # no git at all: the campaign has no past in git
        return None
    found = _commits(proc.stdout) if proc.returncode == 0 else []
    if not found:  # HEAD may not touch the campaign: any commit then
        proc = run(root, "log", "-1", _FORMAT, "HEAD", ok=(0, 128), own=True)
        found = _commits(proc.stdout) if proc.returncode == 0 else []
    return found[0] if found else None


def last_touching(root: Path, path: str) -> tuple[str, Commit, str | None] | None:
    """The newest commit that added or deleted `path` (relative to the campaign): ("A" or "D", the commit,
    its first parent's sha, None for a root commit)."""
    proc = run(root, "log", "-1", "--diff-filter=AD", "--name-status", "--format=%x1e%H%x1f%h%x1f%ct%x1f%cI%x1f%P",
               "HEAD", "--", path, ok=(0, 128), own=True)
    text = proc.stdout.decode("utf-8", "replace") if proc.returncode == 0 else ""
    lines = [line for line in text.split("\x1e", 1)[-1].splitlines() if line.strip()]
    if len(lines) < 2:
        return None
    fields = lines[0].split("\x1f")
    commit = _commits("\x1f".join(fields[:4]).encode())
    if not commit:
        return None
    parents = fields[4].split() if len(fields) > 4 else []
    return lines[1][:1], commit[0], parents[0] if parents else None


def is_ancestor(root: Path, older: str, newer: str) -> bool:
    """Whether `older` is an ancestor of `newer` (or the same commit)."""
    return run(root, "merge-base", "--is-ancestor", older, newer, ok=(0, 1, 128), own=True).returncode == 0


def has(root: Path, commit: str, path: str) -> bool:
    """Whether `commit` holds `path` (relative to the campaign)."""
    return run(root, "cat-file", "-e", f"{commit}:./{path}", ok=(0, 128), own=True).returncode == 0


def parent(root: Path, commit: str) -> Commit | None:
    """The first parent of `commit`, None for a root commit."""
    proc = run(root, "log", "-1", _FORMAT, f"{commit}^", ok=(0, 128), own=True)
    found = _commits(proc.stdout) if proc.returncode == 0 else []
    return found[0] if found else None


def upstream(root: Path) -> Commit | None:
    """Where the branch's upstream stands (what the last `drunagor sync` pushed or pulled), if any."""
    proc = run(root, "log", "-1", _FORMAT, "@{upstream}", ok=(0, 128), own=True)
    found = _commits(proc.stdout) if proc.returncode == 0 else []
    return found[0] if found else None


def named(root: Path, spec: str) -> Commit | None:
    """The commit `spec` names (a sha, a branch, `HEAD~3`), None when it names none."""
    if spec.startswith("-"):
        return None
    proc = run(root, "log", "-1", _FORMAT, f"{spec}^{{commit}}", "--", ok=(0, 128), own=True)
    found = _commits(proc.stdout) if proc.returncode == 0 else []
    return found[0] if found else None


def before(root: Path, day: str) -> Commit | None:
    """The newest commit made before the day `day` (YYYY-MM-DD) began."""
    proc = run(root, "log", "-1", f"--before={day} 00:00:00", _FORMAT, "HEAD", "--", ".", ok=(0, 128), own=True)
    found = _commits(proc.stdout) if proc.returncode == 0 else []
    return found[0] if found else None


def added(root: Path, paths: list[str]) -> list[tuple[Commit, list[str]]]:
    """Every commit that added one of `paths` (pathspecs under the campaign), oldest first, with the
    files it added (relative to the campaign)."""
    proc = run(root, "-c", "core.quotePath=false", "log", "--reverse", "--diff-filter=A", "--relative",
               "--name-only", "--format=%x1e%H%x1f%h%x1f%ct%x1f%cI", "HEAD", "--", *paths, ok=(0, 128), own=True)
    if proc.returncode != 0:
        return []
    found: list[tuple[Commit, list[str]]] = []
    for chunk in proc.stdout.decode("utf-8", "replace").split("\x1e"):
        lines = [line for line in chunk.splitlines() if line.strip()]
        commit = _commits(lines[0].encode()) if lines else []
        if commit:
            found.append((commit[0], lines[1:]))
    return found


def files_at(root: Path, commit: str) -> dict[str, bytes]:
    """The campaign's files as `commit` has them (paths relative to the campaign folder)."""
    listing = run(root, "ls-tree", "-r", "-z", commit, "--", ".", own=True).stdout
    entries = []
    for record in split_z(listing):
        info, path = record.split("\t", 1)
        mode, kind, sha = info.split()
        if kind == "blob" and path.endswith(".toml"):
            entries.append((path, sha))
    if not entries:
        return {}
    out = run(root, "cat-file", "--batch", input="".join(sha + "\n" for _, sha in entries).encode(), own=True).stdout
    files: dict[str, bytes] = {}
    at = 0
    for path, _ in entries:
        end = out.index(b"\n", at)
        size = int(out[at:end].split()[2])
        files[path] = out[end + 1:end + 1 + size]
        at = end + 1 + size + 1
    return files

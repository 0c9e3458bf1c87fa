"""What git holds, read without touching the work tree: another branch's trees and blobs, the index's
entries and a merge's unmerged stages (for `drunagor sync`, interop/sync.py and interop/incoming.py).

A `spec` is anything `git cat-file` takes: a blob's sha, or `REF:PATH` (`HEAD:./story.toml`).
"""

from __future__ import annotations

from pathlib import Path

from .runner import run, split_z, text


def show_prefix(root: Path) -> str:
    """The campaign folder's path inside its repository, as git writes it ("" at the top, else "a/b/")."""
    return text(root, "rev-parse", "--show-prefix")


def object_type(root: Path, spec: str) -> str:
    """"blob", "tree", ... or "" when `spec` names nothing."""
    return run(root, "cat-file", "-t", spec, ok=(0, 128)).stdout.decode().strip()


def blob_size(root: Path, spec: str) -> int:
    return int(text(root, "cat-file", "-s", spec) or 0)


def blob(root: Path, spec: str) -> bytes:
    return run(root, "cat-file", "blob", spec).stdout


def blob_if_any(root: Path, spec: str) -> bytes | None:
    """The blob's bytes, or None when `spec` names none (a file the commit does not have)."""
    proc = run(root, "cat-file", "blob", spec, ok=(0, 128))
    return proc.stdout if proc.returncode == 0 else None


def blobs(root: Path, shas: list[str]) -> bytes:
    """`git cat-file --batch` of `shas`, by one git process: each "<sha> blob <size>\\n", the bytes, "\\n"."""
    return run(root, "cat-file", "--batch", input="".join(sha + "\n" for sha in shas).encode()).stdout


def tree(root: Path, spec: str) -> list[tuple[str, str, str, str]]:
    """Every entry under the tree `spec`, folders too: (path relative to it, mode, sha, size as git
    writes it: "-" for a folder)."""
    entries = []
    for record in split_z(run(root, "ls-tree", "--full-tree", "-r", "-t", "-l", "-z", spec).stdout):
        info, path = record.split("\t", 1)
        mode, _, sha, size = info.split()
        entries.append((path, mode, sha, size))
    return entries


def tree_names(root: Path, ref: str) -> list[str]:
    """The files `ref` holds under the campaign folder (relative to it)."""
    return split_z(run(root, "ls-tree", "-r", "--name-only", "-z", ref, "--", ".").stdout)


def staged(root: Path) -> dict[str, str]:
    """The index's entries under the campaign folder: path (relative to it) -> mode."""
    found: dict[str, str] = {}
    for record in split_z(run(root, "ls-files", "-s", "-z", "--", ".").stdout):
        info, path = record.split("\t", 1)
        found[path] = info.split()[0]
    return found


def unmerged(top: Path) -> dict[str, dict[int, str]]:
    """The files a merge under way could not merge (paths relative to `top`): stage (1 base, 2 ours,
    3 theirs) -> blob sha."""
    by_path: dict[str, dict[int, str]] = {}
    for record in split_z(run(top, "ls-files", "-u", "-z").stdout):
        info, path = record.split("\t", 1)
        _, sha, stage = info.split()
        by_path.setdefault(path, {})[int(stage)] = sha
    return by_path

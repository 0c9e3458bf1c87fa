"""Commits of what a command changed (SPEC section 4 "Git").

`commit_changes` commits exactly the campaign files a command changed: `git add` of those paths, then
`git commit --only -- PATHS`, so whatever else the user has staged stays staged, uncommitted.
`uncommitted` lists the campaign's files git has not committed (`sync` commits them).
"""

from __future__ import annotations

import os
from pathlib import Path

from .. import store
from ..errors import RuleError, UsageError
from ..text import shell_word
from .driver_setup import git_dir
from .runner import GitFailed, GitSilent, repository, run, split_z

PREFIX = "drunagor: "


SUBJECT_MAX = 72  # git's convention: a subject that fits `git log --oneline` and a mail's subject line


def commit_subject(message: str) -> tuple[str, str | None]:
    """(subject, body): a message longer than SUBJECT_MAX keeps its first clause (up to `;`) or its
    first words in the subject, ending with `...`, and goes whole into the body."""
    if len(message) <= SUBJECT_MAX:
        return message, None
    first = message.split("; ", 1)[0]
    if len(first) <= SUBJECT_MAX:
        return first, message
    cut = message[:SUBJECT_MAX - 3].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "...", message


def commit_changes(root: Path, changed: list[str], message: str, *, body: str | None = None,
                   own: bool = False) -> str | None:
    """Commit exactly `changed` (paths relative to the campaign folder, deleted files included) with
    the message `drunagor: MESSAGE`; the user's other staged work stays staged and uncommitted.
    Returns the short commit id, or None when the files already match the last commit. `own`: a
    commit the user did not ask for this time (`autocommit`): git runs none of the repository's hooks,
    filters or fsmonitor (runner.run).

    Called after the files were written: any failure says so (the files stay written, not committed)."""
    subject, details = commit_subject(message if message.startswith(PREFIX) else PREFIX + message)
    body = "\n\n".join(b for b in (details, body) if b) or None
    paths = sorted(set(changed))
    try:
        repository(root, "--commit", own=own)
        present = [p for p in paths if (root / p).exists()]
        gone = [p for p in paths if not (root / p).exists()]
        if gone:  # a deleted file is committed only if git knew it (a never-committed file just vanishes)
            known = set(split_z(run(root, "ls-files", "-z", "--", *gone, own=own).stdout))
            known |= set(split_z(run(root, "ls-tree", "-z", "--name-only", "HEAD", "--", *gone, ok=(0, 128),
                                     own=own).stdout))
            gone = [p for p in gone if p in known]
        specs = present + gone
        if not specs:
            return None
        run(root, "add", "-A", "--", *specs, own=own)
        same = run(root, "diff", "--no-ext-diff", "--no-textconv", "--cached", "--quiet", "HEAD", "--", *specs,
                   ok=(0, 1, 128), own=own).returncode
        if same == 0:  # the files are as last committed (128: no commit yet, so not the same)
            return None
        # the message on standard input, never as an argument: a sync of thousands of changes has a body
        # over the 128 KiB one argument may hold ("Argument list too long")
        text = subject + (f"\n\n{body}" if body else "") + "\n"
        run(root, "commit", "--quiet", "--only", "-F", "-", "--", *specs, input=text.encode(), own=own)
        return run(root, "rev-parse", "--short", "HEAD", own=own).stdout.decode().strip()
    except (GitFailed, UsageError) as exc:
        reason = exc.reason if isinstance(exc, GitFailed) else exc.message
        shown = " ".join(shell_word(p) for p in paths)
        raise RuleError(f"the files were written but not committed: {reason}", file=store.display(root),
                        rule="git", remedy=f"fix that, then commit them: git -C {shell_word(store.display(root))} "
                        f"commit -m {shell_word(subject)} -- {shown}") from None





def is_tool_file(path: str) -> bool:
    """drunagor's own temporary files (atomic writes, the journal, the lock): never committed."""
    name = path.rsplit("/", 1)[-1]
    return name == store.LOCK or name.startswith(store.JOURNAL) or name.endswith(store.TMP_SUFFIX)


def uncommitted(root: Path) -> list[str]:
    """Campaign files with changes git has not committed: staged, unstaged, untracked, conflicted
    (the tool's own temporary files aside). Paths relative to the campaign folder."""
    out = run(root, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", ".").stdout
    top = repository(root)
    here = Path(os.path.realpath(root))
    files, records, i = [], split_z(out), 0
    while i < len(records):
        rec = records[i]
        status, path = rec[:2], rec[3:]
        if status[0] in "RC":  # a rename's source path follows; not with --no-renames, kept for safety
            i += 1
        i += 1
        rel = Path(os.path.relpath(top / path, here)).as_posix()  # porcelain paths are relative to the top
        if not is_tool_file(rel):
            files.append(rel)
    return files


def tracked_unchanged(root: Path, names: list[str]) -> tuple[set[str], set[str]]:
    """(tracked, unchanged): of `names` (relative to the campaign folder), those git tracks, and of
    those the ones as last committed. Nothing is known (two empty sets) outside a repository, without
    git, or when git fails, but for a repository git refuses as another user's or where git did not
    answer (GitFailed, GitSilent: whether a journal came with it cannot be known); git is started only
    inside a repository, as drunagor's own probe (`own`: nothing of the repository's runs, bounded)."""
    if not names or git_dir(root) is None:
        return set(), set()
    try:
        tracked = set(split_z(run(root, "ls-files", "-z", "--", *names, own=True).stdout))
        if not tracked:
            return tracked, set()
        diff = run(root, "diff", "--no-ext-diff", "--no-textconv", "--name-only", "--relative", "-z", "HEAD", "--",
                   *sorted(tracked), ok=(0, 128), own=True)
    except GitFailed as exc:
        if "dubious ownership" in exc.reason or isinstance(exc, GitSilent):  # git refuses or fails to say:
            raise  # the caller cannot trust the journal
        return set(), set()
    except (UsageError, OSError):
        return set(), set()
    if diff.returncode:  # no commit yet: nothing is as last committed
        return tracked, set()
    return tracked, tracked - set(split_z(diff.stdout))

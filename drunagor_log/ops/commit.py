"""The one check-then-commit tail of every write (SPEC section 9, "--commit"): a commit that cannot be
made is refused before anything is written, so that a command never does half of what it was asked;
then the files are written, and exactly the files written are committed.

    saved = commit_tail(c.root, c.save, "Nyx gains Buckler", commit=True)
    saved.files, saved.sha   # ['heroes/nyx.toml'], 'a1b2c3d' (None: nothing differed from the last commit)

The campaign's save (cli/common.finish), `migrate` and `new` (which writes outside a campaign's save)
all end with it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .. import store
from ..errors import UsageError
from ..git.commits import PREFIX, commit_changes
from ..git.runner import check_can_commit, exists, repository
from ..values import record


@record
class Saved:
    """What a write and its commit did: the files written (relative to the campaign folder), whether a
    commit was asked (`--commit`, or `[git] autocommit`), and the commit's short id (None when none was
    made: not asked, nothing written, or the files already match the last commit)."""

    files: list[str]
    asked: bool = False
    sha: str | None = None


def commit_tail(root: Path, write: Callable[[], list[str]], message: str, *, commit: bool = False,
                autocommit: bool = False, written: Callable[[list[str]], None] | None = None) -> Saved:
    """Check that a commit can be made when one is asked (`commit`: the --commit flag, `autocommit`:
    the campaign's setting; a refusal names the one that asked), run `write` (it returns the files it
    changed), tell `written` (a command prints what it wrote, so that a commit that then fails never
    hides that the files were written), then commit those files with `message`."""
    asked = commit or autocommit
    if asked:
        check_can_commit(root, explicit=commit)  # before writing: no repository, nothing written
        refuse_during_merge(root, ", or run it without --commit" if commit
                            else ", or set `autocommit = false` under [git] in story.toml",
                            "--commit" if commit else "autocommit")
    files = write()
    if written is not None:
        written(files)
    # autocommit alone is not the user's word for this command: nothing of the repository's runs
    sha = commit_changes(root, files, message, own=not commit) if asked and files else None
    return Saved(files=files, asked=asked, sha=sha)


def refuse_during_merge(root: Path, other_way: str = "", purpose: str = "--commit") -> None:
    """Before writing: no commit of a command while a git merge is under way. git would refuse it ("cannot
    do a partial commit during a merge") after the files were written, and a commit of the whole
    index would make the command's change a part of the merge. The way out is the merge's own end."""
    # git runs in the repository's top folder: the campaign's own may not exist yet (`new --commit`)
    # autocommit is drunagor's own run (bounded, no terminal): so are its probes
    if exists(repository(root, purpose), "MERGE_HEAD", own=purpose == "autocommit"):
        raise UsageError("a git merge is under way in this repository: a commit now would be part of it",
                         file=store.display(root), rule="git",
                         remedy="finish the merge with `drunagor sync` (or `git commit`), or give it up with "
                         "`git merge --abort`; then run the command again" + other_way)


def committed_line(saved: Saved, message: str) -> str | None:
    """The line a command prints after its commit: 'committed a1b2c3d: drunagor: MESSAGE', or that the
    files match the last commit; None when no commit was asked or nothing was written."""
    if not saved.asked or not saved.files:
        return None
    if saved.sha is None:
        return "nothing to commit: the files match the last commit"
    return f"committed {saved.sha}: {message if message.startswith(PREFIX) else PREFIX + message}"

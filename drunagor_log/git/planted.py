"""A journal that came with the repository: the campaign's open asks here before it completes one.

A journal is the record of a write interrupted on this machine, and git never brings one: drunagor's
.gitignore hides it, and drunagor never commits it. So a journal git tracks came with the repository
(someone committed it): it is left as it is (exit 3), never carried out. (One that only deletes files
is refused by the store itself, whatever git says: drunagor's journals always write a file.) git runs
here as drunagor's own probe, bounded in time: a repository whose git does not answer, or refuses to
say (another user's), leaves the journal alone too.
"""

from __future__ import annotations

from pathlib import Path

from .. import store
from ..errors import DataError
from ..text import shell_word
from .commits import tracked_unchanged
from .runner import GitFailed, GitSilent, dubious_remedy


def refuse_planted_journal(root: Path) -> None:
    """Refuse the pending journal of `root` if it came with the repository (see the module's doc), or
    if it is not one drunagor can carry out (store.journal_ops). Git runs only here, when a journal is
    pending in a repository."""
    shown = store.display(root / store.JOURNAL)
    store.journal_ops(root)  # malformed, reaching outside, or writing nothing: refused, left alone, no git
    try:
        tracked, _ = tracked_unchanged(root, [store.JOURNAL])
    except GitSilent as exc:  # a FIFO or a device in .git: git cannot say what it tracks
        raise DataError(f"a journal is pending in a repository where {exc.reason}, so whether it came with "
                        "the repository cannot be known; nothing was changed", file=shown, rule="journal",
                        remedy="repair the repository (what stands in its .git that is not a file), or, if the "
                               f"journal did not come from a command interrupted here, delete it: rm -- "
                               f"{shell_word(shown)}") from None
    except GitFailed as exc:  # another user's repository: git will not say what it tracks
        raise DataError("a journal is pending in a repository git refuses as another user's (dubious ownership), "
                        "so whether it came with the repository cannot be known; nothing was changed", file=shown,
                        rule="journal", remedy=dubious_remedy(root, exc.reason)) from None
    if store.JOURNAL in tracked:
        raise DataError("this journal came with the repository, not from an interrupted command here "
                        "(git tracks it); nothing was changed", file=shown,
                        rule="journal", remedy=f"remove it with git rm: git -C {shell_word(store.display(root))} "
                                               f"rm -- {store.JOURNAL}, then commit")

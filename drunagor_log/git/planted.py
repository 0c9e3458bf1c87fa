"""A journal that came with the repository: the campaign's open asks here before it completes one.

A journal is the record of a write interrupted on this machine, and git never brings one: drunagor's
.gitignore hides it, and drunagor never commits it. So a journal git tracks came with the repository
(someone committed it), and so did one that only deletes files git has as last committed (a
multi-file write of drunagor's always writes a file: its one delete, of adventure.toml at adventure
end, comes with the archive and the Story Record). Either is left as it is (exit 3), never carried out.
"""

from __future__ import annotations

from pathlib import Path

from .. import store
from ..errors import DataError
from ..text import shell_word
from .commits import tracked_unchanged
from .runner import GitFailed, dubious_remedy

# A journal naming more deletes than this is not looked up in git one by one (it is refused anyway
# if git tracks it).
_PLANTED_DELETES = 100


def refuse_planted_journal(root: Path) -> None:
    """Refuse the pending journal of `root` if it came with the repository (see the module's doc). A
    malformed journal is refused by store.journal_ops. Git runs only here, when a journal is pending in
    a repository."""
    shown = store.display(root / store.JOURNAL)
    ops = store.journal_ops(root)
    deletes = [op["delete"] for op in ops if "delete" in op]
    only_deletes = len(deletes) == len(ops)
    names = [store.JOURNAL, *(deletes[:_PLANTED_DELETES] if only_deletes else [])]
    try:
        tracked, unchanged = tracked_unchanged(root, names)
    except GitFailed as exc:  # another user's repository: git will not say what it tracks
        raise DataError("a journal is pending in a repository git refuses as another user's (dubious ownership), "
                        "so whether it came with the repository cannot be known; nothing was changed", file=shown,
                        rule="journal", remedy=dubious_remedy(root, exc.reason)) from None
    if store.JOURNAL in tracked:
        raise DataError("this journal came with the repository, not from an interrupted command here "
                        "(git tracks it); nothing was changed", file=shown,
                        rule="journal", remedy=f"remove it with git rm: git -C {shell_word(store.display(root))} "
                                               f"rm -- {store.JOURNAL}, then commit")
    kept = sorted(unchanged - {store.JOURNAL})
    if kept:
        raise DataError("this journal came with the files, not from an interrupted command here (it only "
                        f"deletes {', '.join(kept[:5])}, which git has as last committed, and drunagor's journals "
                        "always write a file); nothing was changed", file=shown,
                        rule="journal", remedy=f"delete it: rm -- {shell_word(shown)}")

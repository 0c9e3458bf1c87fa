"""Git for campaigns: commits of what a command changed, history, undo."""

from __future__ import annotations

from pathlib import Path


def prepare_new_campaign(folder: Path) -> None:
    """Called by `drunagor new` after the folder is created."""


def commit_changes(root: Path, changed: list[str], message: str) -> None:
    from .errors import UsageError

    raise UsageError("--commit is not available yet")

"""Fixtures of the store tests that need git: an isolated git configuration and a shared campaign."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import EXAMPLE
from tests.helpers import git

__all__ = ["git"]  # the store tests take the one git runner from here too


@pytest.fixture
def git_env(tmp_path, monkeypatch):
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "Mallory")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "mallory@example.org")


def shared(tmp_path: Path, plant=None) -> Path:
    """The example campaign committed in a repository `origin` (with `plant`'s changes, force-added),
    cloned to `clone`: the clone's campaign, as a player gets someone else's."""
    origin = tmp_path / "origin"
    shutil.copytree(EXAMPLE, origin)
    if plant is not None:
        plant(origin)
    git(origin, "init", "-q")
    git(origin, "add", "-A", "-f")
    git(origin, "commit", "-q", "-m", "a campaign to share")
    git(tmp_path, "clone", "-q", str(origin), "clone")
    return tmp_path / "clone"

"""Real repositories for `drunagor sync` (issue 17): a bare repository as the group's shared remote
(a folder on a shared drive), and one clone per player, each with its own git identity. Each
player runs the real drunagor commands in process on their own clone (`-C` their campaign folder);
git runs for real, and so does the merge driver (this test's Python, by its absolute path)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import EXAMPLE, snapshot
from tests.helpers import git

__all__ = ["git"]  # the sync tests take the one git runner from here too


class Player:
    """One player's clone of the campaign's repository."""

    def __init__(self, name: str, top: Path, run):
        self.name = name
        self.top = top
        self.root = top / "campaigns" / "example"
        self._run = run

    def __call__(self, *args: str):
        return self._run("-C", str(self.root), *args)

    def ok(self, *args: str):
        r = self(*args)
        assert r.exit_code == 0, (self.name, args, r)
        return r

    def git(self, *args: str, ok: int | None = 0) -> str:
        return git(self.top, *args, ok=ok)

    def text(self, rel: str) -> str:
        return (self.root / rel).read_text()

    def files(self) -> dict[str, bytes]:
        from drunagor_log.git.commits import is_tool_file

        return {k: v for k, v in snapshot(self.root).items() if not is_tool_file(k)}

    def subjects(self, rev: str = "HEAD") -> list[str]:
        return self.git("log", "--format=%s", rev).splitlines()


def isolate_git(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))  # never find a repo above
    for var in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
                "GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.delenv(var, raising=False)


def clone(remote: Path, top: Path, name: str, run) -> Player:
    git(top.parent, "clone", "--quiet", str(remote), top.name)
    git(top, "config", "user.name", name)
    git(top, "config", "user.email", f"{name.lower()}@example.org")
    git(top, "config", "protocol.file.allow", "always")
    return Player(name, top, run)


def bare_remote(tmp_path: Path, monkeypatch) -> Path:
    """The group's shared repository: a bare one, as on a shared drive (empty); git isolated."""
    isolate_git(monkeypatch, tmp_path)
    path = tmp_path / "shared" / "campaign.git"
    path.parent.mkdir()
    git(path.parent, "init", "--quiet", "--bare", "--initial-branch=main", path.name)
    return path


def shared_by_ana(remote: Path, tmp_path: Path, run, other: str) -> tuple[Player, Player]:
    """Ana put the example campaign (after chapter 04, between adventures) in the shared repository
    with one `drunagor sync`; the `other` player then cloned it (a fresh clone: the merge driver is
    not set up there)."""
    ana = clone(remote, tmp_path / "ana", "Ana", run)
    shutil.copytree(EXAMPLE, ana.root)
    (ana.root / "adventure.toml").unlink()
    ana.git("add", "-A")
    ana.git("commit", "--quiet", "-m", "the campaign so far")
    ana.ok("sync")
    return ana, clone(remote, tmp_path / other.lower(), other, run)


@pytest.fixture
def remote(tmp_path, monkeypatch) -> Path:
    """The group's shared repository (bare_remote)."""
    return bare_remote(tmp_path, monkeypatch)


@pytest.fixture
def group(remote, tmp_path, run) -> tuple[Player, Player]:
    """Ana and Ben (shared_by_ana): Ben's clone is fresh, his merge driver not set up."""
    return shared_by_ana(remote, tmp_path, run, "Ben")

"""Git run by drunagor itself, attacked (issue 32.6, docs/git.md "When drunagor runs git"): a campaign
handed over with its own `.git` (a zip, a shared folder) whose config sets core.fsmonitor, a hooks
folder with every hook, a clean and smudge filter, an external diff and a textconv, and commit
signing, each to a command that leaves a marker file. drunagor's own probes (the planted-journal check
on `show`, `odds`, `check`) and an autocommit write run none of them; `--commit` is the user's word and
runs the hooks as git does. A `.gitattributes` linked to /dev/zero is never read; a repository git
refuses as another user's says how to trust it. Through the installed script, each run bounded."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from drunagor_log import store
from tests.attack import bounded
from tests.conftest import EXAMPLE

pytestmark = [pytest.mark.slow, pytest.mark.posix]

SURFACE = "git probes"
HOOKS = ("pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-index-change",
         "reference-transaction", "pre-auto-gc", "post-checkout")


class Handed:
    """A campaign in a repository of its own, committed, then given a hostile .git/config."""

    def __init__(self, top: Path):
        self.top = top
        self.root = top / "campaign"
        self.markers = top / "markers"
        self.markers.mkdir()
        shutil.copytree(EXAMPLE, self.root)
        (top / "home").mkdir()
        self.env = dict(os.environ, HOME=str(top / "home"), XDG_CACHE_HOME=str(top / "xdg"), NO_COLOR="1",
                        GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, GIT_CEILING_DIRECTORIES=str(top))
        for role in ("AUTHOR", "COMMITTER"):
            self.env[f"GIT_{role}_NAME"], self.env[f"GIT_{role}_EMAIL"] = "Mallory", "mallory@example.org"
        self.git("init", "-q")
        self.git("add", "-A")
        self.git("commit", "-qm", "the campaign, handed over")

    def git(self, *args: str, ok: bool = True) -> subprocess.CompletedProcess:
        proc = subprocess.run(["git", *args], cwd=self.root, env=self.env, capture_output=True)
        assert proc.returncode == 0 or not ok, proc
        return proc

    def marker_command(self, name: str, status: int = 0) -> str:
        return f"touch {self.markers / name}; exit {status}"

    def arm(self) -> None:
        """The hostile config: every program a repository can make git run, each leaving a marker."""
        hooks = self.top / "hooks"
        hooks.mkdir()
        for hook in HOOKS:
            (hooks / hook).write_text(f"#!/bin/sh\n{self.marker_command('hook-' + hook)}\n")
            (hooks / hook).chmod(0o755)
        signer = self.top / "gpg"
        signer.write_text(f"#!/bin/sh\n{self.marker_command('gpg', 1)}\n")
        signer.chmod(0o755)
        for key, value in (
                ("core.hooksPath", str(hooks)),
                ("core.fsmonitor", self.marker_command("fsmonitor", 1)),
                ("filter.evil.clean", f"{self.marker_command('clean')}; cat"),
                ("filter.evil.smudge", f"{self.marker_command('smudge')}; cat"),
                ("filter.evil.required", "true"),
                ("filter.a=b.clean", f"{self.marker_command('clean-a=b')}; cat"),
                ("diff.external", self.marker_command("external-diff")),
                ("diff.evil.textconv", f"{self.marker_command('textconv')}; cat"),
                ("diff.evil.command", self.marker_command("diff-command")),
                ("commit.gpgSign", "true"), ("gpg.program", str(signer)),
                ("gc.auto", "1")):
            self.git("config", key, value)
        info = self.root / ".git" / "info"
        info.mkdir(exist_ok=True)
        (info / "attributes").write_text("*.toml filter=evil diff=evil\n.gitignore filter=a=b\n")
        for path in self.root.rglob("*.toml"):  # stat information git has to look past: filters run
            os.utime(path, (1, 1))

    def ran(self) -> list[str]:
        return sorted(os.listdir(self.markers))

    def drunagor(self, *args: str) -> bounded.Outcome:
        out = bounded.drunagor("-C", str(self.root), *args, surface=SURFACE, cwd=self.top, env=self.env)
        assert not out.timed_out, out
        assert "Traceback" not in out.stderr, out.stderr
        return out


@pytest.fixture
def handed(tmp_path: Path) -> Handed:
    return Handed(tmp_path)


def _the_repository_s_programs_do_run(handed: Handed) -> None:
    """The control: git itself, on the user's word, runs what the config names; then the markers are
    cleared and the files' stat information made stale again, for drunagor's runs to look past."""
    handed.git("status", "--porcelain", ok=False)
    ran = handed.ran()
    assert {"fsmonitor", "clean", "hook-post-index-change"} <= set(ran), ran
    for name in ran:
        (handed.markers / name).unlink()
    for path in handed.root.rglob("*.toml"):
        os.utime(path, (2, 2))


@pytest.mark.parametrize("journal", ["tracked", "deletes only"])
def test_the_planted_journal_probe_runs_nothing_of_the_repository_s(handed, journal):
    """A journal that writes and git tracks is refused on git's word; one that only deletes, by the store
    before git runs (drunagor's journals always write a file)."""
    if journal == "tracked":
        (handed.root / store.JOURNAL).write_text('{"ops":[{"tmp":".story.toml.1-0.drunagor-tmp",'
                                                 '"target":"story.toml"},{"delete":"story.toml"}]}')
        handed.git("add", "-f", store.JOURNAL)
        handed.git("commit", "-qm", "a journal someone committed")
    else:
        (handed.root / store.JOURNAL).write_text('{"ops":[{"delete":"story.toml"}]}')
    handed.arm()
    _the_repository_s_programs_do_run(handed)
    said = "this journal came with" if journal == "tracked" else "this journal writes no file"
    for args in (["show"], ["odds"], ["check"]):
        out = handed.drunagor(*args)
        assert out.returncode == 3 and said in out.stderr, out
    assert handed.ran() == []


def test_an_autocommit_write_runs_nothing_of_the_repository_s(handed):
    story = handed.root / "story.toml"
    story.write_text(story.read_text().replace("autocommit = false", "autocommit = true"))
    handed.git("commit", "-qam", "autocommit on")
    handed.arm()
    _the_repository_s_programs_do_run(handed)
    out = handed.drunagor("party", "Dusk Watch")
    assert out.returncode == 0 and "committed " in out.stdout, out
    assert handed.ran() == []
    log = handed.git("log", "-1", "--format=%s%n%G?").stdout.decode()
    assert log.startswith("drunagor: ") and log.splitlines()[1] == "N", log  # made, and not signed
    assert handed.git("show", "HEAD:story.toml").stdout == story.read_bytes()  # no filter between
    # --commit is the user's word: git runs as it would for them, hooks, signing and all
    out = handed.drunagor("party", "Dawn Watch", "--commit")
    assert "hook-pre-commit" in handed.ran(), (handed.ran(), out)


def test_a_gitattributes_linked_to_dev_zero_is_never_read(handed):
    python = os.path.abspath(sys.executable)
    handed.git("config", "merge.drunagor.driver", f"{python} -m drunagor_log.interop.mergedriver %O %A %B %L %P")
    handed.git("remote", "add", "origin", str(handed.top / "nowhere.git"))
    attributes = handed.root / ".gitattributes"
    if attributes.exists():
        attributes.unlink()
    attributes.symlink_to("/dev/zero")
    (handed.root / ".git" / "info").mkdir(exist_ok=True)
    (handed.root / ".git" / "info" / "attributes").symlink_to("/dev/zero")
    handed.git("add", ".gitattributes")
    handed.git("commit", "-qm", "a .gitattributes that never ends")
    out = handed.drunagor("check")
    assert out.returncode in (0, 1), out
    assert "no .gitattributes names the merge driver" in out.stdout + out.stderr, out
    out = handed.drunagor("git", "setup")
    assert out.returncode == 3 and "symbolic link" in out.stderr, out


def test_a_repository_git_refuses_as_another_user_s_says_how_to_trust_it(handed):
    for path in [handed.root, *handed.root.rglob("*")]:
        os.lchown(path, 65534, 65534)
    out = handed.drunagor("history")
    assert out.returncode == 2, out
    assert "another user" in out.stderr and "safe.directory" in out.stderr, out.stderr
    assert "git init" not in out.stderr, out.stderr


def test_a_journal_in_a_repository_git_refuses_is_not_carried_out(handed):
    (handed.root / store.JOURNAL).write_text('{"ops":[{"tmp":".story.toml.1-0.drunagor-tmp","target":"story.toml"},'
                                             '{"delete":"story.toml"}]}')
    for path in [handed.root, *handed.root.rglob("*")]:
        os.lchown(path, 65534, 65534)
    out = handed.drunagor("show")
    assert out.returncode == 3 and "dubious ownership" in out.stderr and "safe.directory" in out.stderr, out
    assert (handed.root / "story.toml").exists() and (handed.root / store.JOURNAL).exists()

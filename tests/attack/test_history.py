"""The table session's history attacked (issue 32.5, docs/errors.md "The cache and the history"): a
link where the history file goes, a FIFO, a file another user owns or others may write, a cache folder
inside the campaign's git work tree. `drunagor play` in a real pseudo-terminal (tests/play/terminal.py),
the installed script under bounded.py's address-space and CPU limits: the session starts, answers and
leaves, and no typed line reaches anything but the user's own history file."""

from __future__ import annotations

import os
import resource
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.attack import bounded
from tests.conftest import EXAMPLE

if sys.platform == "win32":  # pragma: no cover
    pytest.skip("pseudo-terminals are POSIX only", allow_module_level=True)

from tests.play import terminal  # noqa: E402  (imports pty)

pytestmark = [pytest.mark.slow, pytest.mark.posix]

SURFACE = "history"
OTHER_USER = 65534


@pytest.fixture
def bounded_script(tmp_path: Path, monkeypatch) -> None:
    """The play sessions start the installed script under bounded.py's limits (a wrapper that sets
    them, then runs it)."""
    wrapper = tmp_path / "bounded-drunagor"
    wrapper.write_text(f"#!/bin/sh\nulimit -v {bounded.ADDRESS_SPACE // 1024}\nulimit -t {bounded.CPU_SECONDS}\n"
                       f"exec {bounded.drunagor_script()} \"$@\"\n")
    wrapper.chmod(0o755)
    monkeypatch.setattr(terminal, "drunagor_script", lambda: str(wrapper))


class Table:
    def __init__(self, top: Path, campaign: Path, cache: Path):
        self.top, self.campaign, self.cache = top, campaign, cache
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
        self.env = dict(env, TERM="xterm-256color", HOME=str(top / "home"), XDG_CACHE_HOME=str(cache.parent))

    def history(self) -> Path:
        from unittest import mock

        from drunagor_log.play.history import history_path

        with mock.patch.dict(os.environ, {"XDG_CACHE_HOME": str(self.cache.parent)}):
            path = history_path(self.campaign)
        assert path is not None
        return path

    def play(self, *lines: str) -> str:
        """A session: each line typed and answered, then `exit`; what the screen showed."""
        start = time.perf_counter()
        s = terminal.Session(self.campaign, env=self.env)
        try:
            s.expect("drunagor>")
            s.expect("board:")
            for line in lines:
                s.line(line)
                s.expect("drunagor>")
            s.line("exit")
            assert s.wait() == 0, s.text
        finally:
            s.close()
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        bounded.record(SURFACE, time.perf_counter() - start, peak)
        assert "Traceback" not in s.text, s.text
        return s.text


@pytest.fixture
def table(tmp_path: Path, bounded_script) -> Table:
    campaign = tmp_path / "example"
    shutil.copytree(EXAMPLE, campaign)
    (tmp_path / "home").mkdir()
    return Table(tmp_path, campaign, tmp_path / "xdg" / "drunagor")


def test_the_history_is_kept_where_the_user_owns_it(table):
    table.play("odds")
    path = table.history()
    assert "+odds\n" in path.read_text()  # the control: the file the attacks below stand in for
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_a_link_where_the_history_goes_receives_nothing(table):
    victim = table.top / "victim.txt"
    victim.write_text("+a line the user never typed\n")
    path = table.history()
    path.parent.mkdir(parents=True, mode=0o700)
    path.symlink_to(victim)
    shown = table.play("odds", "chapter show")
    assert victim.read_text() == "+a line the user never typed\n"
    assert path.is_symlink()
    assert "chapter" in shown


def test_a_fifo_where_the_history_goes_never_hangs_the_session(table):
    path = table.history()
    path.parent.mkdir(parents=True, mode=0o700)
    os.mkfifo(path)
    table.play("odds")
    assert stat.S_ISFIFO(path.lstat().st_mode)


@pytest.mark.parametrize("change", ["another user's", "others may write"])
def test_a_history_file_not_the_user_s_own_is_neither_read_nor_written(table, change):
    path = table.history()
    path.parent.mkdir(parents=True, mode=0o700)
    path.write_text("\n# then\n+a line the user never typed\n")
    if change == "another user's":
        os.chown(path, OTHER_USER, -1)
    else:
        os.chmod(path, 0o666)
    table.play("odds")
    assert path.read_text() == "\n# then\n+a line the user never typed\n"


def test_a_history_folder_others_may_write_is_made_private_or_not_used(table):
    path = table.history()
    path.parent.mkdir(parents=True)
    os.chown(path.parent, OTHER_USER, -1)
    table.play("odds")
    assert not path.exists()


def test_no_history_inside_the_campaign_s_git_work_tree(tmp_path: Path, bounded_script):
    repo = tmp_path / "repo"
    campaign = repo / "campaigns" / "example"
    shutil.copytree(EXAMPLE, campaign)
    (tmp_path / "home").mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    table = Table(tmp_path, campaign, repo / ".cache" / "drunagor")  # beside the campaign, in its repository
    table.play("odds")
    assert not (table.cache / "history").exists()
    made = os.listdir(table.cache) if table.cache.exists() else []
    assert not [p for p in made if p.startswith("file-")]

"""The pages run no git (SPEC 11: git runs only on the user's word): `sheet` and `serve`'s /chronicle tell the
recap from the campaign's files only, since the last adventure, and say so; `recap` typed by the user reads
git's history. A `git` first on PATH records every run (it then runs the real one)."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.attack.bounded import drunagor_script
from tests.helpers import git
from tests.serve.live import Server

pytestmark = pytest.mark.slow  # subprocesses: drunagor and git

SAID = ("Previously on Safeguard Corporation, since the adventure under way began (chapter 05, attempt 1), told "
        "from the campaign's files only: its table events and the notes since")


@pytest.fixture
def watched(example: Path, tmp_path: Path) -> tuple[Path, dict[str, str], Path]:
    """The example committed in a git repository, and an environment whose `git` records being run."""
    git(example, "init", "--quiet", "--initial-branch=main")
    git(example, "add", "-A")
    git(example, "commit", "--quiet", "-m", "the example", identity=True)
    real = shutil.which("git")
    assert real is not None
    spy = tmp_path / "spy"
    spy.mkdir()
    record = tmp_path / "git-runs.txt"
    (spy / "git").write_text(f'#!/bin/sh\necho "$@" >> "{record}"\nexec "{real}" "$@"\n')
    (spy / "git").chmod(0o755)
    return example, {**os.environ, "PATH": f"{spy}{os.pathsep}{os.environ['PATH']}", "NO_COLOR": "1"}, record


def drunagor(root: Path, env: dict[str, str], *args: str) -> str:
    p = subprocess.run([drunagor_script(), "-C", str(root), *args], capture_output=True, text=True, env=env,
                       timeout=60, check=False)
    assert (p.returncode, p.stderr) == (0, ""), p.stderr
    return p.stdout


def test_sheet_and_serve_run_no_git_and_still_tell_the_recap(watched):
    root, env, record = watched
    md = drunagor(root, env, "sheet", "--format", "md", "--out", "-")
    assert f"**{SAID}**\n\n*Chapters played*\n\n- Chapter 05, Tempest Island: attempt 1 under way\n" in md
    assert "Chapter 03, Run!" not in md.split("Previously on", 1)[1]  # older adventures: not since the last one
    html = drunagor(root, env, "sheet", "--out", "-")
    assert "Chapter 05, Tempest Island: attempt 1 under way" in html
    server = Server(root, "--no-qr", env=env)
    try:
        for path in ("/chronicle", "/", "/campaign"):
            status, _, body = server.request(path)
            assert status == 200, path
        assert "Chapter 05, Tempest Island: attempt 1 under way" in server.request("/chronicle")[2].decode()
        drunagor(root, env, "note", "add", "the north gate", "--by", "Ana")  # a change on disk, read again
        page = ""
        for _ in range(100):  # the server sees the change within 0.5 s (SPEC 11); a loaded machine is slower
            page = server.request("/chronicle")[2].decode()
            if "the north gate" in page:
                break
            time.sleep(0.1)
        assert "the north gate" in page and "told from the campaign&#39;s files only" in page
    finally:
        server.stop()
    assert not record.exists(), record.read_text()
    assert drunagor(root, env, "recap").startswith("Previously on Safeguard Corporation, since the last adventure")
    assert record.exists()  # the spy sees git when the user asks for the history

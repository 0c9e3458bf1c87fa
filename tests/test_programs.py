"""The programs drunagor starts are found on PATH's folders only, never in the current folder (issue 40):
a `git.exe` or `git.bat` at the top of a stranger's campaign repository never runs (git/programs.py)."""

from __future__ import annotations

import ast
import os
import stat
import subprocess
from pathlib import Path

import pytest

from drunagor_log.git import programs, runner

PACKAGE = Path(__file__).resolve().parent.parent / "drunagor_log"


def program(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\necho planted > planted.txt\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_windows_lookup_never_takes_the_current_folder(tmp_path, monkeypatch):
    """Windows's rules simulated: `;` between folders, PATHEXT, no execute bit. The stranger's
    repository holds git.exe and git.bat; PATH names an empty entry, `.` and a relative folder (each the
    current folder or under it) before the real git's folder. (PATHEXT in lower case: this file system,
    unlike Windows's, tells the cases apart.)"""
    stranger = tmp_path / "stranger"
    for name in ("git.exe", "git.bat", "git"):
        program(stranger, name)
    program(stranger / "bin", "git.exe")
    real = program(tmp_path / "Git" / "cmd", "git.exe")
    monkeypatch.chdir(stranger)
    path = ";".join(["", ".", "bin", f'"{real.parent}"'])
    assert runner.find("git", path=path, windows=True, pathext=".com;.exe;.bat;.cmd") == str(real)
    assert runner.find("git", path=";.;bin", windows=True, pathext=".com;.exe;.bat;.cmd") is None
    assert runner.find("git.exe", path=path, windows=True, pathext=".exe") == str(real)
    assert runner.folders(path, windows=True) == [str(real.parent)]


def test_posix_lookup_skips_empty_and_relative_entries_and_what_cannot_run(tmp_path, monkeypatch):
    here = tmp_path / "here"
    program(here, "git")
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "git").write_text("not a program\n")  # no execute bit: not a program
    real = program(tmp_path / "usr" / "bin", "git")
    monkeypatch.chdir(here)
    path = ":".join(["", ".", "here", str(plain), str(real.parent), str(real.parent)])
    assert runner.find("git", path=path, windows=False) == str(real)
    assert runner.folders(path, windows=False) == [str(plain), str(real.parent)]
    assert runner.find("git", path=":.", windows=False) is None


def test_absolute_path_hides_the_relative_entries_while_a_library_looks(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", os.pathsep.join(["", ".", str(tmp_path)]))
    with programs.absolute_path():
        assert os.environ["PATH"] == str(tmp_path)
    assert os.environ["PATH"] == os.pathsep.join(["", ".", str(tmp_path)])


def test_the_browser_is_started_under_absolute_folders_only(tmp_path, monkeypatch):
    import webbrowser

    seen = []
    monkeypatch.setattr(webbrowser, "open", lambda url: seen.append((url, os.environ["PATH"])) or True)
    monkeypatch.setenv("PATH", os.pathsep.join(["", str(tmp_path)]))
    if hasattr(os, "startfile"):
        pytest.skip("Windows opens the registered browser (os.startfile), no PATH at all")
    assert programs.open_url("http://127.0.0.1:1/") is True
    assert seen == [("http://127.0.0.1:1/", str(tmp_path))]


def test_no_module_looks_a_program_up_but_git_programs():
    """shutil.which (the current folder first on Windows) and webbrowser are named in one module."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "git" / "programs.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "which":
                found.append(f"{path.name}:{node.lineno}: .which")
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                if "webbrowser" in names:
                    found.append(f"{path.name}:{node.lineno}: webbrowser")
    assert found == []


@pytest.mark.slow  # runs git
@pytest.mark.posix
def test_a_git_planted_in_the_campaign_folder_never_runs(tmp_path, monkeypatch):
    """For real on this system: PATH with an empty entry (the current folder, for shutil.which too), the
    campaign folder holding a `git` of a stranger's; drunagor's git is the one on PATH's folders."""
    real = runner.find("git")
    assert real is not None
    campaign = tmp_path / "campaign"
    program(campaign, "git")
    monkeypatch.chdir(campaign)
    monkeypatch.setenv("PATH", os.pathsep.join(["", str(Path(real).parent)]))
    subprocess.run([real, "init", "--quiet"], check=True)
    assert runner.repository(campaign) == campaign.resolve()
    assert not (campaign / "planted.txt").exists()

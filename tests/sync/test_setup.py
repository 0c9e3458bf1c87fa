"""`drunagor git setup`, the driver's entry point as git runs it, and the `merge-driver` check that
warns where the driver is not set up (issue 17)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

import pytest

from drunagor_log.git.driver_setup import GITATTRIBUTES, GITATTRIBUTES_DRIVER
from tests.sync.conftest import git, isolate_git

NOT_SET_UP = ("the campaign-aware merge driver is not set up in this repository (a fresh clone?), so git merges "
              "the campaign line by line; set it up once: drunagor git setup")
MISSING = f"campaigns/example: merge-driver: {NOT_SET_UP} (warning)\n"


def test_a_fresh_clone_warns_until_git_setup(group):
    _, ben = group
    os.chdir(ben.top)  # paths as Ben sees them
    r = ben("check")
    assert (r.exit_code, r.stdout) == (0, MISSING)
    assert ben("check", "--strict").exit_code == 1
    assert json.loads(ben("check", "--json").stdout)["warnings"] == [
        {"file": "campaigns/example", "line": None, "rule": "merge-driver", "message": NOT_SET_UP}]
    attributes = (ben.root / ".gitattributes").read_bytes()
    r = ben.ok("git", "setup")
    assert r.stdout == "set up the campaign-aware merge driver: git config merge.drunagor.driver\n"
    assert (ben.root / ".gitattributes").read_bytes() == attributes  # Ana's sync had committed it
    assert ben.ok("check").stdout == ""
    assert ben.ok("git", "setup").stdout == "the campaign-aware merge driver is already set up\n"
    assert ben.git("config", "merge.drunagor.driver").strip() == (
        f"{shlex.quote(os.path.abspath(sys.executable))} -m drunagor_log.interop.mergedriver %O %A %B %L %P")
    assert ben.git("config", "merge.drunagor.name").strip() == "drunagor: a campaign's TOML files merged value by value"
    assert ben.git("status", "--porcelain") == ""


def test_setup_completes_an_older_gitattributes_and_commits_it(group):
    _, ben = group
    old = "# Campaign files are text with LF line endings on every computer, so they diff and merge line by line.\n" \
          "*.toml text eol=lf\n"
    (ben.root / ".gitattributes").write_text(old)
    ben.git("commit", "--quiet", "-am", "as an older drunagor new wrote it")
    r = ben.ok("git", "setup", "--commit")
    assert r.stdout.splitlines() == [
        "set up the campaign-aware merge driver: git config merge.drunagor.driver and ben/campaigns/example/.gitattributes",
        f"committed {ben.git('rev-parse', '--short', 'HEAD').strip()}: drunagor: merge driver named in .gitattributes"]
    assert (ben.root / ".gitattributes").read_text() == old + GITATTRIBUTES_DRIVER
    assert ben.git("check-attr", "merge", "--", "campaigns/example/heroes/nyx.toml") == \
        "campaigns/example/heroes/nyx.toml: merge: drunagor\n"


def test_setup_writes_a_missing_gitattributes(group):
    ana, _ = group
    (ana.root / ".gitattributes").unlink()
    r = ana.ok("check")
    assert r.stdout.endswith("merge-driver: no .gitattributes names the merge driver for the campaign's files, so git "
                             "merges them line by line; add it: drunagor git setup (warning)\n")
    ana.ok("git", "setup")
    assert (ana.root / ".gitattributes").read_text() == GITATTRIBUTES


def test_a_driver_whose_python_is_gone(group):
    _, ben = group
    ben.git("config", "merge.drunagor.driver", "/gone/venv/bin/python -m drunagor_log.interop.mergedriver %O %A %B %L %P")
    assert ben.ok("check").stdout.endswith(
        "merge-driver: the merge driver is set up with /gone/venv/bin/python, which is not there any more (drunagor "
        "was installed elsewhere); set it up again: drunagor git setup (warning)\n")
    ben.ok("git", "setup")
    assert ben.ok("check").stdout == ""


def test_no_warning_outside_a_repository_or_without_a_remote(example, tmp_path, monkeypatch, run):
    isolate_git(monkeypatch, tmp_path)
    assert run("check").stdout == ""  # not in a repository
    git(tmp_path, "init", "--quiet")
    assert run("check").stdout == ""  # a repository nothing is pulled into
    git(tmp_path, "remote", "add", "origin", str(tmp_path / "elsewhere.git"))
    assert run("check").stdout == MISSING


def test_the_check_never_runs_git(group, monkeypatch):
    """`check` has a speed budget: the merge-driver check reads files, it does not start git."""
    _, ben = group

    def refuse(*args, **kwargs):
        raise AssertionError(f"check started a process: {args}")

    monkeypatch.setattr(subprocess, "Popen", refuse)
    assert ben("check").stdout.endswith(MISSING[len("campaigns/example"):])


def test_a_linked_worktree_reads_the_main_repositorys_config(group, tmp_path):
    ana, _ = group
    ana.git("worktree", "add", "--quiet", str(tmp_path / "ana-branch"), "-b", "branch")
    assert ana._run("-C", str(tmp_path / "ana-branch" / "campaigns" / "example"), "check").stdout == ""
    ana.git("config", "--unset", "merge.drunagor.driver")
    out = ana._run("-C", str(tmp_path / "ana-branch" / "campaigns" / "example"), "check").stdout
    assert "merge-driver: the campaign-aware merge driver is not set up" in out


@pytest.mark.posix  # /bin/sh, as git runs drivers on POSIX systems
def test_the_driver_runs_from_a_shell_without_path(group, tmp_path):
    """git runs the configured command through a shell whose PATH may not know drunagor (a GUI client):
    the absolute path of this Python is enough."""
    ana, _ = group
    command = ana.git("config", "merge.drunagor.driver").strip()
    base = 'schema = 1\nfollowers = ["Vorn the Warrior"]\n'
    files = {"O": base, "A": base.replace('"]', '", "Minerva"]'), "B": base.replace('"]', '", "Maya the Ranger"]')}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    line = command.replace("%O", "O").replace("%A", "A").replace("%B", "B").replace("%L", "7").replace("%P", "story.toml")
    p = subprocess.run(["/bin/sh", "-c", line], cwd=tmp_path, env={}, capture_output=True, text=True, check=False)
    assert (p.returncode, p.stderr) == (0, "")
    assert (tmp_path / "A").read_text() == ('schema = 1\nfollowers = [\n  "Vorn the Warrior",\n  "Minerva",\n'
                                            '  "Maya the Ranger",\n]\n')
    (tmp_path / "A").write_text(base.replace("schema = 1", 'schema = 1\nparty = "Crew"'))
    (tmp_path / "B").write_text(base.replace("schema = 1", 'schema = 1\nparty = "Band"'))
    p = subprocess.run(["/bin/sh", "-c", line], cwd=tmp_path, env={}, capture_output=True, text=True, check=False)
    assert p.returncode == 1
    assert (tmp_path / "A").read_text() == ('schema = 1\n<<<<<<< mine\nparty = "Crew"\n=======\nparty = "Band"\n'
                                            '>>>>>>> theirs\nfollowers = ["Vorn the Warrior"]\n')


def test_the_driver_falls_back_to_a_line_merge_for_a_file_that_is_not_toml(tmp_path, monkeypatch, capsys):
    from drunagor_log.interop.mergedriver import main

    isolate_git(monkeypatch, tmp_path)
    (tmp_path / "O").write_text("a = 1\nb = 2\n")
    (tmp_path / "A").write_text("a = 1\nb = 2\n<<<<<<< left over\n")
    (tmp_path / "B").write_text("a = 5\nb = 2\n")
    assert main([str(tmp_path / n) for n in "OAB"] + ["7", "story.toml"]) == 0  # git merge-file: no overlap
    assert (tmp_path / "A").read_text() == "a = 5\nb = 2\n<<<<<<< left over\n"
    assert main(["too", "few"]) == 2
    assert capsys.readouterr() == ("", "usage: python -m drunagor_log.interop.mergedriver BASE MINE THEIRS MARKER_SIZE "
                                       "PATH (git runs this; see `drunagor git setup`)\n")


def test_new_in_a_repository_sets_the_driver_up(tmp_path, monkeypatch, run):
    isolate_git(monkeypatch, tmp_path)
    git(tmp_path, "init", "--quiet")
    run("new", "autumn")
    assert git(tmp_path, "config", "merge.drunagor.driver").endswith(" %O %A %B %L %P\n")
    assert (tmp_path / "campaigns" / "autumn" / ".gitattributes").read_text() == GITATTRIBUTES


def test_new_outside_a_repository_runs_no_git(tmp_path, monkeypatch, run):
    isolate_git(monkeypatch, tmp_path)

    def refuse(*args, **kwargs):
        raise AssertionError("new started git outside a repository")

    monkeypatch.setattr(subprocess, "Popen", refuse)
    assert run("new", "autumn").exit_code == 0


def test_without_the_driver_git_merges_line_by_line_as_before(group):
    """A fresh clone, no driver in its config: the campaign's `merge=drunagor` attribute names a driver
    git does not know, so git merges line by line as it always did (here: a conflict on "06")."""
    ana, ben = group
    ana.ok("chapter", "complete", "5", "--commit")
    ana.ok("chapter", "complete", "6", "--commit")
    ana.git("push", "--quiet")
    ben.ok("chapter", "complete", "5", "--commit")
    ben.git("fetch", "--quiet")
    ben.git("merge", "--no-edit", "origin/main", ok=1)
    lines = ben.text("story.toml").splitlines()
    start = lines.index("<<<<<<< HEAD")
    assert lines[start:start + 4] == ["<<<<<<< HEAD", "=======", '"06" = "completed"', ">>>>>>> origin/main"]

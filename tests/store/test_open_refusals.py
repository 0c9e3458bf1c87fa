"""The refusals an outside harness found missing, each as it found it: `recruit` over conflict
markers, `migrate` over a file (or a linked folder) as adventures/, the raid commands over a
dangling link as adventure.toml, and a journal that came with a repository (docs/errors.md, "A
campaign from someone else's repository"). tests/store/test_every_command.py runs the whole
command tree on the same layouts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from drunagor_log import store
from tests.conftest import EXAMPLE, snapshot
from tests.store.conftest import git, shared

CONFLICT = (":43: conflict-markers: unresolved git conflict markers at line 43; keep the right side of each conflict, "
            "delete the marker lines, then commit\n")


@pytest.mark.parametrize("json_", [False, True], ids=["table", "json"])
def test_recruit_stops_at_conflict_markers_as_show_does(example, run, json_):
    with open(example / "story.toml", "ab") as f:
        f.write(b"<<<<<<< HEAD\n")
    before = snapshot(example)
    for args in (["recruit"], ["show"]):
        r = run("-C", str(example), *args, *(["--json"] if json_ else []))
        assert (r.exit_code, r.stdout, r.stderr) == (3, "", f"error: {store.display(example / 'story.toml')}"
                                                             + CONFLICT), args
    assert snapshot(example) == before


def test_recruit_without_a_campaign_prints_the_table_alone(run, tmp_path):
    r = run("recruit", "--json")
    assert r.exit_code == 0, r
    assert json.loads(r.stdout)["chapter"] is None
    r = run("recruit", "--chapter", "6")
    assert r.exit_code == 0 and r.stderr == "", r


@pytest.mark.posix  # the linked folder
@pytest.mark.parametrize("what", ["file", "link"])
@pytest.mark.parametrize("dry", [True, False], ids=["dry-run", "write"])
def test_migrate_refuses_what_stands_as_adventures_when_it_is_not_the_folder(example, run, tmp_path, what, dry):
    archive = example / "adventures"
    for p in archive.iterdir():
        p.unlink()
    archive.rmdir()
    if what == "file":
        archive.write_text("schema = 1\n")
        message = ("adventures is a file; it should be the folder of the finished adventures; move the file away "
                   "and create the folder adventures/")
    else:
        (tmp_path / "empty").mkdir()
        archive.symlink_to(tmp_path / "empty")
        message = ("adventures is a symbolic link; it should be the folder of the finished adventures; replace the "
                   "link by the folder itself: drunagor reads and writes only inside the campaign folder")
    before = snapshot(example)
    r = run("-C", str(example), "migrate", *(["--dry-run"] if dry else []))
    assert (r.exit_code, r.stdout, r.stderr) == (3, "", f"error: {store.display(archive)}: file: {message}\n")
    assert snapshot(example) == before


LINK = ("file: a symbolic link stands where a campaign file should be; replace the link by the file itself: drunagor "
        "reads and writes only regular files inside the campaign folder\n")


@pytest.mark.posix
@pytest.mark.parametrize("args", [["raid"], ["raid", "--dry-run"], ["battalion", "Gremlin Horde", "--dry-run"],
                                  ["adventure", "show"], ["odds"]])
def test_a_dangling_link_as_adventure_toml_is_refused_not_taken_for_no_adventure(example, run, args):
    """Not "no adventure under way" (exit 2), which would send the player to `adventure start`."""
    adventure = example / "adventure.toml"
    adventure.unlink()
    adventure.symlink_to("/nonexistent/x.toml")
    r = run("-C", str(example), *args)
    assert (r.exit_code, r.stdout, r.stderr) == (3, "", f"error: {store.display(adventure)}: {LINK}"), args
    assert os.readlink(adventure) == "/nonexistent/x.toml"


# ---------------------------------------------------------------------- a journal from elsewhere

DELETE_STORY = '{"ops":[{"delete":"story.toml"}]}'
# drunagor's shape (a temp file renamed onto story.toml, gone: renamed before the crash) and a delete
WRITE_AND_DELETE = '{"ops":[{"tmp":".story.toml.1-0.drunagor-tmp","target":"story.toml"},{"delete":"story.toml"}]}'


def plant_journal(origin: Path) -> None:
    (origin / store.JOURNAL).write_text(WRITE_AND_DELETE)


def plant_delete(origin: Path) -> None:
    (origin / store.JOURNAL).write_text(DELETE_STORY)


@pytest.mark.slow  # runs git
def test_a_journal_that_came_with_a_clone_is_left_alone(tmp_path, git_env, run):
    """Committed by someone else (force-added) and cloned: git tracks it, so it is no record of a
    write interrupted here. The first command refuses it and deletes nothing."""
    root = shared(tmp_path, plant_journal)
    before = snapshot(root)
    for args in (["show"], ["recruit"], ["party", "Mallory"], ["check"]):
        r = run("-C", str(root), *args)
        assert (r.exit_code, r.stdout, r.stderr) == (3, "", (
            f"error: {store.display(root / store.JOURNAL)}: journal: this journal came with the repository, not "
            "from an interrupted command here (git tracks it); nothing was changed; remove it with git rm: "
            f"git -C {store.display(root)} rm -- {store.JOURNAL}, then commit\n")), args
        assert snapshot(root) == before
    git(root, "rm", "-q", "--", store.JOURNAL)  # the way out it gives
    assert run("-C", str(root), "show").exit_code == 0
    assert (root / "story.toml").read_bytes() == (EXAMPLE / "story.toml").read_bytes()


@pytest.mark.slow  # runs git
def test_an_untracked_journal_that_only_deletes_committed_files_is_left_alone(tmp_path, git_env, run):
    """Untracked again (git rm --cached), it still only deletes a file: drunagor's journals always
    write a file, so this one is not drunagor's either (tracked or not: the store refuses it first)."""
    root = shared(tmp_path, plant_delete)
    for step in ("tracked", "untracked"):
        if step == "untracked":
            git(root, "rm", "-q", "--cached", "--", store.JOURNAL)
        before = snapshot(root)
        r = run("-C", str(root), "show")
        assert (r.exit_code, r.stdout, r.stderr) == (3, "", (
            f"error: {store.display(root / store.JOURNAL)}: journal: this journal writes no file, so it is not "
            "from an interrupted command here (drunagor's journals always write one); nothing was changed; "
            f"delete it: rm -- {store.display(root / store.JOURNAL)}\n")), step
        assert snapshot(root) == before


@pytest.mark.slow  # runs git
def test_a_write_interrupted_here_in_a_repository_is_still_finished(tmp_path, git_env, run):
    """The boundary of the rule: `adventure end` killed after its journal, in a repository where the
    adventure.toml it deletes is committed unchanged. The journal is untracked and also writes files:
    it is this machine's, and the next command carries it out."""
    root = shared(tmp_path)  # adventure.toml committed
    exe = Path(sys.executable).with_name("drunagor")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "drunagor_log"]
    r = subprocess.run([*cmd, "-C", str(root), "adventure", "end", "--lost"], capture_output=True, text=True,
                       env={**os.environ, "DRUNAGOR_TEST_CRASH": "journal"})
    assert r.returncode == 137, r.stderr
    ops = json.loads((root / store.JOURNAL).read_text())["ops"]
    assert {"delete": "adventure.toml"} in ops and any("tmp" in op for op in ops)
    r = run("-C", str(root), "show")
    assert r.exit_code == 0, r
    assert r.stderr.startswith(f"warning: {store.display(root)}: finished the write of an interrupted drunagor "
                               "command ("), r.stderr
    assert not (root / "adventure.toml").exists() and not store.pending_journal(root)

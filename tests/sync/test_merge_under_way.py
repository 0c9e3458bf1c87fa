"""A merge left under way never wedges the campaign (issue 40): a command that would commit refuses
before writing anything, naming the way out; `sync` finishes a merge under way, and recognises one it
started itself and was stopped in (killed): it undoes it and merges again. Real repositories, real git."""

from __future__ import annotations

import pytest

from drunagor_log.git import merges
from tests.sync.conftest import Player

pytestmark = pytest.mark.slow  # runs git

REFUSAL = ("error: {where}: git: a git merge is under way in this repository: a commit now would be part of it; "
           "finish the merge with `drunagor sync` (or `git commit`), or give it up with `git merge --abort`; then "
           "run the command again{tail}\n")


def merge_under_way(ben: Player) -> None:
    """Ben merged a branch of his own with `git merge --no-commit --no-ff` and left it there."""
    ben.git("checkout", "--quiet", "-b", "other")
    ben.ok("hero", "status", "Vacrem", "add", "Haunted", "--commit")
    ben.git("checkout", "--quiet", "main")
    ben.git("merge", "--quiet", "--no-commit", "--no-ff", "other")
    assert ben.git("rev-parse", "-q", "--verify", "MERGE_HEAD") != ""


def test_a_commit_during_a_merge_is_refused_before_anything_is_written(group):
    ana, ben = group
    merge_under_way(ben)
    before = ben.files()
    r = ben("follower", "add", "Maya the Ranger", "--commit")
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == REFUSAL.format(where="ben/campaigns/example", tail=", or run it without --commit")
    assert ben.files() == before
    # autocommit says its own way out
    story = ben.root / "story.toml"
    story.write_text(story.read_text().replace("autocommit = false", "autocommit = true", 1))
    r = ben("follower", "add", "Maya the Ranger")
    assert r.exit_code == 2 and r.stderr == REFUSAL.format(
        where="ben/campaigns/example", tail=", or set `autocommit = false` under [git] in story.toml")
    story.write_text(before["story.toml"].decode())
    # sync finishes the merge; then the command commits as it always does
    out = ben.ok("sync").stdout.splitlines()
    assert out[0].startswith("finished the merge under way (")
    assert ben.git("rev-parse", "-q", "--verify", "MERGE_HEAD", ok=1) == ""
    r = ben.ok("follower", "add", "Maya the Ranger", "--commit")
    assert r.stdout.splitlines()[-1].startswith("committed " + ben.git("rev-parse", "--short", "HEAD").strip() + ": ")
    assert ben.git("status", "--porcelain") == ""


def test_undo_during_a_merge_is_refused_before_a_file_is_restored(group):
    _, ben = group
    ben.ok("leader", "Nyx", "--commit")
    merge_under_way(ben)
    before = ben.files()
    r = ben("undo")
    assert r.exit_code == 2 and r.stderr == REFUSAL.format(where="ben/campaigns/example", tail="")
    assert ben.files() == before


def test_a_sync_stopped_in_its_own_merge_is_undone_and_merged_again(group, monkeypatch):
    ana, ben = group
    ana.ok("follower", "add", "Maya the Ranger")
    ana.ok("sync")
    ben.ok("party", "Ben's Band")
    real_run = merges.run

    def killed_after_merging(root, *args, **kwargs):
        """git merged the files, then the sync was killed before the merge's commit."""
        if args[:1] == ("merge",) and "--abort" not in args:
            real_run(root, "merge", "--no-commit", "--no-ff", "--quiet", args[-1], ok=(0, 1))
            raise KeyboardInterrupt
        return real_run(root, *args, **kwargs)

    monkeypatch.setattr(merges, "run", killed_after_merging)
    r = ben("sync")
    assert r.exit_code == 130, r  # as a Ctrl-C: stopped in the middle
    monkeypatch.setattr(merges, "run", real_run)
    assert ben.git("rev-parse", "-q", "--verify", "MERGE_HEAD") != ""
    assert ben("follower", "add", "Lorelai the Mage", "--commit").exit_code == 2  # wedged no more: it says so
    out = ben.ok("sync").stdout.splitlines()
    assert out[0] == "undid the merge an earlier sync was stopped in"
    assert "pulled 1 change from Ana: follower: Maya the Ranger" in out
    assert ben.git("rev-parse", "-q", "--verify", "MERGE_HEAD", ok=1) == ""
    assert not (ben.top / ".git" / merges.SYNC_MERGE).exists()
    ana.ok("sync")
    assert ana.files() == ben.files()
    assert "Maya the Ranger" in ben.text("story.toml") and "Ben's Band" in ana.text("story.toml")


def test_a_merge_someone_else_started_is_not_undone(group):
    """Without the sync's own mark the merge under way is the player's: finished, never given up."""
    _, ben = group
    merge_under_way(ben)
    (ben.top / ".git" / merges.SYNC_MERGE).write_text("0" * 40 + "\n")  # a stale mark names another commit
    out = ben.ok("sync").stdout.splitlines()
    assert out[0].startswith("finished the merge under way (")
    assert "Haunted" in ben.text("heroes/vacrem.toml")

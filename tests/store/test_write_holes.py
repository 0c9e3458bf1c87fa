"""Two holes of the write path the crash and concurrency harnesses found (issue 33); both tests fail
on the code before the fix.

- A killed writer's temp files stayed until the next command that changed a byte: a command that
  ended up writing nothing never swept them. Now any command that sees them sweeps them, under the
  exclusive lock taken at once if it is free (never waiting for it).
- An editor saving a file between drunagor's check of what it read and its rename lost the editor's
  line: each target's bytes are compared once more immediately before its rename.
"""

from __future__ import annotations

import pytest

from drunagor_log import store
from drunagor_log.campaign import Campaign
from drunagor_log.errors import ChangedOnDisk
from drunagor_log.store import transaction
from tests.conftest import snapshot
from tests.store.test_concurrency import holder  # noqa: F401 (a fixture)


def _strays(root):
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*" + store.TMP_SUFFIX))


def _kill_leftovers(night):
    """What a writer killed before its commit point leaves: a temp file beside each file it wrote."""
    (night / f".story.toml.999999-0{store.TMP_SUFFIX}").write_text("half")
    (night / "heroes" / f".andreas.toml.999999-1{store.TMP_SUFFIX}").write_text("half")
    return snapshot(night)


def test_a_reading_command_sweeps_a_killed_writers_temp_files(night, run):
    files = {k: v for k, v in _kill_leftovers(night).items() if store.TMP_SUFFIX not in k}
    r = run("-C", str(night), "show")
    assert (r.exit_code, r.stderr) == (0, "")
    assert _strays(night) == []
    assert snapshot(night) == files  # nothing else touched


def test_a_command_that_changes_no_byte_sweeps_them_too(night, run):
    _kill_leftovers(night)
    r = run("-C", str(night), "party", "Night Watch")  # the party it already has
    assert r.exit_code == 0, r.stderr
    assert _strays(night) == []


@pytest.mark.slow  # starts a Python that holds the lock
def test_the_sweep_never_waits_for_another_command(night, run, holder, monkeypatch):  # noqa: F811
    monkeypatch.setenv("DRUNAGOR_LOCK_TIMEOUT", "5")
    before = _kill_leftovers(night)
    holder("read")  # another reader: the exclusive lock is not free, so no sweep, and no wait
    r = run("-C", str(night), "show")
    assert (r.exit_code, r.stderr) == (0, "")
    assert snapshot(night) == before


def test_an_editor_saving_between_the_check_and_the_rename_keeps_its_line(night, monkeypatch):
    story, andreas = night / "story.toml", night / "heroes" / "andreas.toml"
    theirs = story.read_text().replace('party = "Night Watch"', 'party = "Editor"')
    real = transaction.current_bytes

    def editor_saves_meanwhile(path, root=None):  # while the commit compares the files it only read
        if path == andreas and story.read_text() != theirs:
            store.atomic_write(story, theirs.encode())
        return real(path, root)

    with pytest.raises(ChangedOnDisk, match="changed on disk while the command ran"):
        with Campaign(night) as c:
            c.heroes  # noqa: B018 (read: the write rests on it)
            c.story_file.edit()["party"] = "Ours"
            monkeypatch.setattr(transaction, "current_bytes", editor_saves_meanwhile)
            c.save()
    assert story.read_text() == theirs
    assert _strays(night) == []


def test_an_editor_saving_a_later_target_during_the_renames_keeps_its_line(night, monkeypatch):
    story, andreas = night / "story.toml", night / "heroes" / "andreas.toml"
    before = snapshot(night)
    theirs = andreas.read_text() + "# the editor's line\n"
    real = transaction._test_hook

    def editor_saves_after_the_first_rename(point):
        if point == "applied" and "the editor" not in andreas.read_text():
            store.atomic_write(andreas, theirs.encode())
        real(point)

    monkeypatch.setattr(transaction, "_test_hook", editor_saves_after_the_first_rename)
    with pytest.raises(ChangedOnDisk, match="changed on disk while the command ran"):
        with Campaign(night) as c:
            c.story_file.edit()["party"] = "Ours"
            c.hero_files["andreas"].edit()["player"] = "Zed"
            c.save()
    assert andreas.read_text() == theirs  # the editor's save is kept
    assert story.read_bytes() == before["story.toml"]  # and the write is all or nothing: none of it
    assert not (night / store.JOURNAL).exists()
    assert _strays(night) == []

"""Concurrency (SPEC section 6): two commands at once on the same campaign never lose an update
(one waits for the other, or stops with exit 4 and writes nothing), and a file changed by someone
else between a command's read and its write is never overwritten (exit 4, "re-run")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
import tomllib
from pathlib import Path

import pytest

from drunagor_log import store
from drunagor_log.campaign import Campaign
from drunagor_log.errors import ChangedOnDisk
from drunagor_log.store import transaction
from tests.conftest import EXAMPLE, REPO, snapshot

# A worker: real drunagor commands, run in-process one after the other (the CLI built once), all
# workers released at the same moment. Prints one JSON line: [[argv, exit code], ...].
WORKER = textwrap.dedent(r'''
    import contextlib, io, json, os, sys, time
    sys.path.insert(0, sys.argv[1])
    import typer
    from drunagor_log.cli.app import app
    cli = typer.main.get_command(app)
    root, me, n, go = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]

    def invoke(argv):
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
            try:
                rc = cli.main(["-C", root, *argv], standalone_mode=False, prog_name="drunagor")
                rc = rc if isinstance(rc, int) else 0
            except SystemExit as exc:
                rc = exc.code if isinstance(exc.code, int) else 1
        return rc, err.getvalue()

    import tomlkit  # what the commands import lazily, before the start
    invoke(["show"])
    open(go + f".ready{me}", "w").close()
    while not os.path.exists(go):
        time.sleep(0.001)
    results = []
    for i in range(n):
        if i % 2:
            hero = ("Andreas", "Catharina")[(i // 2 + me) % 2]
            # --new: "Trinket 0-1" is a near miss of "Trinket 2-1", which another process may have recorded
            argv = ["hero", "gain", hero, f"Trinket {me}-{i}", "--kind", "adventure", "--bag", "--new"]
        else:
            argv = ["follower", "add", f"Watcher {me}-{i}", "--new"]
        rc, err = invoke(argv)
        results.append([argv, rc, err])
    print(json.dumps(results))
''')


def test_many_processes_at_once_lose_no_update(night, tmp_path, run):
    """4 processes, 8 edits each, on the same two logs and the same story.toml: every command
    succeeds (one whose reads another wrote meanwhile runs again, under the exclusive lock from its
    first read), and every edit is there, whole."""
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    go = str(tmp_path / "go")
    workers = [subprocess.Popen([sys.executable, str(script), str(REPO), str(night), str(me), "8", go],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for me in range(4)]
    deadline = time.monotonic() + 60
    while not all(os.path.exists(go + f".ready{me}") for me in range(4)):
        assert time.monotonic() < deadline and all(w.poll() is None for w in workers), \
            [w.communicate() for w in workers if w.poll() is not None]
        time.sleep(0.01)
    Path(go).touch()  # all at once
    results = []
    for w in workers:
        out, err = w.communicate(timeout=120)
        assert w.returncode == 0, err
        results += json.loads(out)

    story = tomllib.loads((night / "story.toml").read_text())
    logs = {name: tomllib.loads((night / "heroes" / f"{name.lower()}.toml").read_text())
            for name in ("Andreas", "Catharina")}
    assert len(results) == 32
    for argv, rc, err in results:
        assert rc == 0, (argv, rc, err)
        if argv[0] == "follower":
            present = argv[2] in story["followers"]
        else:
            item = argv[3]
            held = [e["name"] for e in logs[argv[2]]["equipment"]]
            assert held.count(item) <= 1
            in_log, in_cards = item in held, item in story.get("cards", {})
            assert in_log == in_cards, f"{item}: half of a two-file write"
            present = in_log
        assert present, (argv, err)
    assert "# the scribe keeps this comment" in (night / "story.toml").read_text()
    assert run("-C", str(night), "check").exit_code == 0
    assert not [p for p in night.rglob("*") if store.TMP_SUFFIX in p.name or store.JOURNAL in p.name]


# ------------------------------------------------------------------ someone else writes meanwhile


def test_an_editor_saving_while_a_command_runs_is_never_overwritten(night, run, monkeypatch):
    story = night / "story.toml"
    theirs = story.read_text().replace("Night Watch", "Day Watch")

    def editor_saves(point):
        if point == "staged":
            store.atomic_write(story, theirs.encode())  # the editor saves just before our rename

    monkeypatch.setattr(transaction, "_test_hook", editor_saves)
    r = run("-C", str(night), "party", "Dusk Watch")
    assert (r.exit_code, r.stdout) == (4, "")
    assert r.stderr == (f"error: {store.display(story)}: changed-on-disk: changed on disk while the command ran "
                        "(an editor, a git pull, another drunagor); nothing was written; re-run the command\n")
    assert story.read_text() == theirs
    assert not [p for p in night.rglob("*") if store.TMP_SUFFIX in p.name]


def test_a_file_changed_meanwhile_stops_a_multi_file_write_whole(night, run, monkeypatch):
    """`hero gain` of an unknown card writes story.toml ([cards]) and the log; a `git pull` that
    changes the log after our read stops both writes, journal and temp files removed."""
    log = night / "heroes" / "andreas.toml"
    pulled = log.read_text() + 'player = "Ana"\n'
    before = snapshot(night)

    def git_pull(point):
        if point == "journal":
            log.write_text(pulled)

    monkeypatch.setattr(transaction, "_test_hook", git_pull)
    r = run("-C", str(night), "hero", "gain", "Andreas", "Lucky Coin", "--kind", "adventure", "--bag")
    assert r.exit_code == 4
    assert r.stderr.endswith("changed on disk while the command ran (an editor, a git pull, another "
                             "drunagor); nothing was written; re-run the command\n")
    assert snapshot(night) == {**before, "heroes/andreas.toml": pulled.encode()}


def test_a_file_only_read_and_changed_meanwhile_also_stops_the_write(night, monkeypatch):
    """The command decided from story.toml; if story.toml changes before the write, the write
    would rest on what is no longer there."""
    story = night / "story.toml"
    with pytest.raises(ChangedOnDisk):
        with Campaign(night) as c:
            max_heroes = c.story.rules.max_heroes  # read, not written
            c.hero_files["andreas"].edit()["note"] = f"one of {max_heroes}"
            story.write_text(story.read_text().replace("max_heroes = 4", "max_heroes = 5"))
            c.save()
    assert "note" not in (night / "heroes" / "andreas.toml").read_text()


def test_a_file_created_meanwhile_is_not_overwritten(night):
    new = night / "heroes" / "nyx.toml"
    with pytest.raises(ChangedOnDisk) as exc:
        with Campaign(night) as c:
            c.create(new, 'schema = 1\nname = "Nyx"\nclass = "Rogue"\nrole = "Striker"\n')
            new.write_text("schema = 1\n# someone else's Nyx\n")
            c.save()
    assert exc.value.message.startswith("was created on disk while the command ran")
    assert new.read_text() == "schema = 1\n# someone else's Nyx\n"


#: Whole files: the store refuses to write what its own reader would refuse (issue 41.1).
NYX = (EXAMPLE / "heroes" / "nyx.toml").read_text()


def adventure_of(chapter: str) -> str:
    return f'schema = 1\nchapter = "{chapter}"\nheroes = 2\nbag = {{ red = 1, blue = 1, green = 1, orange = 1, gray = 1 }}\n'


def test_saving_twice_in_one_command_is_not_a_conflict_with_itself(night):
    with Campaign(night) as c:
        c.story_file.edit()["party"] = "One"
        assert c.save() == ["story.toml"]
        c.story_file.edit()["party"] = "Two"
        created = c.create(night / "heroes" / "nyx.toml", NYX)  # a whole log: the store writes what it reads back
        assert c.save() == ["story.toml", "heroes/nyx.toml"]
        created.edit()["player"] = "Dana"
        assert c.save() == ["heroes/nyx.toml"]
    assert 'party = "Two"' in (night / "story.toml").read_text()
    assert (night / "heroes" / "nyx.toml").read_text() == NYX.replace('player = "Carla"', 'player = "Dana"')


# ------------------------------------------------------------------------------ the lock itself

# The store's own lock, so that the tests run on Windows too (test_portable.py checks, on POSIX, that
# it is a flock on the folder itself).
HOLDER = textwrap.dedent(r'''
    import os, sys
    sys.path.insert(0, sys.argv[3])
    from pathlib import Path
    from drunagor_log.store import CampaignLock
    CampaignLock(Path(sys.argv[1]), shared=sys.argv[2] == "read").__enter__()
    print("held", flush=True)
    sys.stdin.read()  # until the test closes stdin
    os._exit(0)  # without unlocking: the system releases the lock with the process
''')


@pytest.fixture
def holder(night):
    """Another process holding the campaign lock ("write": exclusive, "read": shared)."""
    procs = []

    def hold(mode: str):
        p = subprocess.Popen([sys.executable, "-c", HOLDER, str(night), mode, str(REPO)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
        assert p.stdout.readline() == "held\n"
        procs.append(p)
        return p

    yield hold
    for p in procs:
        p.stdin.close()
        p.wait(timeout=10)


def test_a_writer_that_cannot_get_the_lock_stops_with_exit_4(night, run, holder, monkeypatch):
    monkeypatch.setenv("DRUNAGOR_LOCK_TIMEOUT", "0.2")
    holder("read")  # a reading command is under way: a writer waits for it
    before = snapshot(night)
    r = run("-C", str(night), "party", "Dusk Watch")
    assert (r.exit_code, r.stdout) == (4, "")
    assert r.stderr == (f"error: {store.display(night)}: lock: another drunagor command is still using this "
                        "campaign (waited 0.2 s); nothing was written; wait for it to finish, then re-run\n")
    assert snapshot(night) == before


def test_a_reader_waits_for_a_writer_never_reading_half_a_write(night, run, holder, monkeypatch):
    monkeypatch.setenv("DRUNAGOR_LOCK_TIMEOUT", "0.2")
    holder("write")
    r = run("-C", str(night), "show")
    assert (r.exit_code, r.stdout) == (4, "")
    assert r.stderr == (f"error: {store.display(night)}: lock: another drunagor command is still writing this "
                        "campaign (waited 0.2 s); nothing was written; wait for it to finish, then re-run\n")


def test_readers_do_not_wait_for_each_other(night, run, holder, monkeypatch):
    monkeypatch.setenv("DRUNAGOR_LOCK_TIMEOUT", "0.2")
    holder("read")
    assert run("-C", str(night), "show").exit_code == 0


@pytest.mark.posix
def test_the_lock_is_a_flock_on_the_folder_and_leaves_no_file(night, run, monkeypatch):
    import fcntl

    monkeypatch.setenv("DRUNAGOR_LOCK_TIMEOUT", "0.2")
    before = {p.name for p in night.iterdir()}
    assert run("-C", str(night), "party", "Night Watch").exit_code == 0  # no change, no file
    assert {p.name for p in night.iterdir()} == before
    fd = os.open(night, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)  # as a reading command of another drunagor
        r = run("-C", str(night), "party", "Day Watch")
        assert r.exit_code == 4 and "still using this campaign" in r.stderr
    finally:
        os.close(fd)
    assert not (night / store.LOCK).exists()


def test_the_lock_dies_with_its_process(night, run):
    p = subprocess.run([sys.executable, "-c", HOLDER, str(night), "write", str(REPO)], input="",
                       capture_output=True, text=True)
    assert p.stdout == "held\n"  # the holder exited without unlocking: the system released it
    assert run("-C", str(night), "party", "Day Watch").exit_code == 0


def test_a_command_that_opens_the_campaign_twice_does_not_wait_for_itself(night):
    with Campaign(night) as outer:
        assert outer.story.party == "Night Watch"
        assert store.CampaignLock.held(night) == "shared"
        with Campaign(night) as inner:
            inner.story_file.edit()["party"] = "Inner"
            assert store.CampaignLock.held(night) == "shared"  # until the write
            inner.save()
            assert store.CampaignLock.held(night) == "exclusive"
        assert store.CampaignLock.held(night) == "shared"
    assert store.CampaignLock.held(night) is None
    assert 'party = "Inner"' in (night / "story.toml").read_text()


def test_reads_for_a_write_happen_under_the_lock(night):
    c = Campaign(night)  # used without `with`: the first read takes the lock
    assert store.CampaignLock.held(night) is None
    c.story_file.edit()["party"] = "Lazy Watch"  # the first read, which takes the shared lock
    assert store.CampaignLock.held(night) == "shared"
    assert c.save() == ["story.toml"]  # the first write, which takes the exclusive lock
    assert store.CampaignLock.held(night) == "exclusive"
    del c  # released when the campaign goes away
    assert store.CampaignLock.held(night) is None


def test_no_adventure_is_what_was_read_an_editors_new_one_is_kept(night):
    adventure = night / "adventure.toml"
    with pytest.raises(ChangedOnDisk):
        with Campaign(night) as c:
            assert c.adventure_file is None  # "no adventure under way"
            adventure.write_text("schema = 1\n# someone else's\n")
            c.put_bytes(adventure, adventure_of("01").encode())
            c.save()
    assert adventure.read_text() == "schema = 1\n# someone else's\n"


def test_a_file_deleted_then_created_again_in_one_command(night):
    adventure = night / "adventure.toml"
    adventure.write_text(adventure_of("01"))
    with Campaign(night) as c:
        assert c.adventure_file is not None
        c.delete(adventure)
        assert c.save() == ["adventure.toml"]
        assert c.adventure_file is None
        c.put_bytes(adventure, adventure_of("02").encode())
        assert c.save() == ["adventure.toml"]
    assert adventure.read_text() == adventure_of("02")

"""The write lock taken at the first write (campaign.py, store/lock.py): every command opens under the
shared lock, and one that writes turns it exclusive itself when it comes to write, so no command says
beforehand whether it will. Real processes hold the locks; nothing here is timed: a process that must
wait is shown to wait by what another one sees while it holds its lock."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from drunagor_log import store
from drunagor_log.campaign import Campaign, Stale, writing
from tests.conftest import REPO, snapshot

# Another process holding the shared lock, as a reading command does. At a line on its stdin it says,
# still under the lock, whether story.toml holds `sys.argv[2]`, then lets go.
READER = textwrap.dedent(r'''
    import sys
    sys.path.insert(0, sys.argv[3])
    from pathlib import Path
    from drunagor_log.store import CampaignLock
    root = Path(sys.argv[1])
    with CampaignLock(root, shared=True):
        print("held", flush=True)
        sys.stdin.readline()
        print(sys.argv[2] in (root / "story.toml").read_text(), flush=True)
''')

# One real drunagor command (the command line, in process), stopped where it comes to write: it has
# read what it needed under the shared lock, and CampaignLock.upgrade is called. There it prints
# "upgrading" and waits for the file `go`; with `let_go`, it first lets go of its shared lock, as the
# upgrade begins, so that another command may write in that moment. Then it prints one JSON line: exit
# code, stdout, stderr, and how each Campaign of the command was opened.
WRITER = textwrap.dedent(r'''
    import contextlib, io, json, os, sys, time
    sys.path.insert(0, sys.argv[1])
    root, go, let_go, argv = sys.argv[2], sys.argv[3], sys.argv[4] == "let-go", json.loads(sys.argv[5])
    import tomlkit, typer  # what the command imports lazily, before it starts
    from drunagor_log import campaign
    from drunagor_log.cli.app import app
    from drunagor_log.store import lock

    real_upgrade, real_enter, opens = lock.CampaignLock.upgrade, campaign.Campaign.__enter__, []

    def upgrade(self):
        if let_go:
            lock.backend().release(self.fd)
        sys.__stdout__.write("upgrading\n")
        sys.__stdout__.flush()
        while not os.path.exists(go):
            time.sleep(0.001)
        real_upgrade(self)

    def enter(self):
        opens.append("exclusive" if self.exclusive else "shared")
        return real_enter(self)

    lock.CampaignLock.upgrade, campaign.Campaign.__enter__ = upgrade, enter
    cli = typer.main.get_command(app)
    with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()) as err:
        try:
            rc = cli.main(["-C", root, *argv], standalone_mode=False, prog_name="drunagor")
            rc = rc if isinstance(rc, int) else 0
        except SystemExit as exc:
            rc = exc.code if isinstance(exc.code, int) else 1
    print(json.dumps({"rc": rc, "out": out.getvalue(), "err": err.getvalue(), "opens": opens}), flush=True)
''')

SLOW = {"DRUNAGOR_LOCK_TIMEOUT": "120"}  # the waits here end when the test says so, never by the clock

ANDREAS_GAINS = ["hero", "gain", "Andreas", "Cloth Armor", "--kind", "starting"]
CATHARINA_GAINS = ["hero", "gain", "Catharina", "Plate Armor", "--kind", "starting"]


def _said(hero: str, item: str) -> tuple[str, str]:
    """What `hero gain HERO ITEM --kind starting` prints on stdout and stderr (a third piece of gear)."""
    return (f"{hero} gains {item} (starting, equipped)\n",
            f"warning: {hero} now has 3 pieces of Starting Gear, but a hero starts with 2 and finds no more "
            "(Rulebook: Recruiting a New Hero to Your Party, L989); drunagor check reports it\n")


@pytest.fixture
def reader(night):
    """reader(): another process holding the shared lock on the Night Watch until told to let go."""
    procs: list[subprocess.Popen] = []

    def hold(look_for: str = "") -> subprocess.Popen:
        p = subprocess.Popen([sys.executable, "-c", READER, str(night), look_for, str(REPO)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
        assert p.stdout.readline() == "held\n"
        procs.append(p)
        return p

    yield hold
    for p in procs:
        if p.poll() is None:
            p.stdin.close()
            p.wait(timeout=60)


WINDOWSISH = Path(__file__).with_name("windowsish.py")  # Python as drunagor finds it on Windows (LockFileEx)


def _writer(root: Path, go: Path, argv: list[str], *, let_go: bool = False, windows: bool = False
            ) -> subprocess.Popen:
    python = [sys.executable, str(WINDOWSISH)] if windows else [sys.executable]
    return subprocess.Popen([*python, "-c", WRITER, str(REPO), str(root), str(go),
                             "let-go" if let_go else "hold", json.dumps(argv)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **SLOW})


def _result(p: subprocess.Popen) -> dict:
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err
    return json.loads(out)


def _gear(root: Path, hero: str) -> list[str]:
    import tomllib

    return [e["name"] for e in tomllib.loads((root / "heroes" / f"{hero}.toml").read_text())["equipment"]]


# --------------------------------------------------------------- reading never takes the write lock


def test_reading_commands_and_dry_runs_never_take_the_write_lock(example, run, monkeypatch):
    """While another process holds the shared lock, a command that asked for the exclusive lock would
    stop with exit 4 after 0.2 s: these all run, and change no byte."""
    assert run("-C", str(example), "draw", "--seed", "3").exit_code == 0  # an event for undo to show
    holder = subprocess.Popen([sys.executable, "-c", READER, str(example), "", str(REPO)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        monkeypatch.setenv("DRUNAGOR_LOCK_TIMEOUT", "0.2")
        before = snapshot(example)
        for argv in (["show"], ["hero", "show", "Nyx"], ["odds"], ["check"],
                     ["raid", "--dry-run", "--seed", "1"], ["round", "end", "--dry-run", "--draws", "2", "--seed", "1"],
                     ["battalion", "Gremlin Horde", "--near", "2", "--dry-run"], ["adventure", "undo", "--dry-run"],
                     ["migrate", "--dry-run"],
                     ["leader", "Andreas"]):  # a write that changes nothing
            r = run("-C", str(example), *argv)
            assert (r.exit_code, r.stderr) == (0, ""), (argv, r)
        assert snapshot(example) == before
        r = run("-C", str(example), "party", "Dusk Watch")  # a write does take it: the reader keeps it out
        assert (r.exit_code, r.stdout) == (4, "")
        assert r.stderr == ("error: campaigns/example: lock: another drunagor command is still using this campaign "
                            "(waited 0.2 s); nothing was written; wait for it to finish, then re-run\n")
        assert snapshot(example) == before
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)


def test_the_camp_dry_run_runs_beside_a_reader(night, run, reader, monkeypatch):
    """`camp --dry-run` only reads, as every dry run: it runs while another command reads."""
    reader()
    monkeypatch.setenv("DRUNAGOR_LOCK_TIMEOUT", "0.2")
    before = snapshot(night)
    r = run("-C", str(night), "camp", "--dry-run")
    assert (r.exit_code, r.stderr) == (0, ""), r
    assert r.stdout.startswith("Camp phase: no Campaign Log statuses to remove\n")
    assert snapshot(night) == before


def test_a_change_never_saved_or_changing_no_byte_never_takes_the_write_lock(night):
    story = (night / "story.toml").read_bytes()
    with Campaign(night) as c:
        c.story_file.edit()["party"] = "Dusk Watch"  # staged, then left: never written
        assert store.CampaignLock.held(night) == "shared"
    assert store.CampaignLock.held(night) is None
    with Campaign(night) as c:
        c.story_file.edit()["party"] = "Night Watch"  # the bytes it has
        assert c.lock_for_save() is False
        assert c.save() == []
        assert store.CampaignLock.held(night) == "shared"
        c.story_file.edit()["party"] = "Dusk Watch"
        assert c.lock_for_save() is True  # the write lock, and nothing written yet
        assert store.CampaignLock.held(night) == "exclusive"
    assert (night / "story.toml").read_bytes() == story


# ------------------------------------------------------------------------------ the upgrade


def test_a_writer_waits_for_a_reader_at_its_first_write_then_writes(night, tmp_path, reader):
    go = tmp_path / "go"
    go.touch()  # the writer does not stop at its upgrade: it only says it reached it
    holding = reader("Dusk Watch")
    writer = _writer(night, go, ["party", "Dusk Watch"])
    assert writer.stdout.readline() == "upgrading\n"
    holding.stdin.write("\n")
    holding.stdin.flush()
    assert holding.stdout.readline() == "False\n"  # not written while the reader held its lock
    assert holding.wait(timeout=60) == 0
    assert _result(writer) == {"rc": 0, "out": "party name: Dusk Watch\n", "err": "", "opens": ["shared"]}
    assert 'party = "Dusk Watch"' in (night / "story.toml").read_text()


@pytest.mark.parametrize("windows", [False, pytest.param(True, marks=pytest.mark.posix)], ids=["flock", "LockFileEx"])
def test_two_writers_that_upgrade_at_once_both_write_one_after_the_other(night, tmp_path, windows):
    """Both read under the shared lock, then both come to write at the same moment: neither waits
    holding its shared lock (no deadlock); the first writes, the second finds the log it read changed,
    and runs again from its first read, under the exclusive lock. Each says what it did once. The
    same with Windows' lock calls (the stand-in of test_portable.py, on a POSIX machine)."""
    go = tmp_path / "go"
    writers = [_writer(night, go, ANDREAS_GAINS, windows=windows), _writer(night, go, CATHARINA_GAINS, windows=windows)]
    for w in writers:
        assert w.stdout.readline() == "upgrading\n"  # both hold the shared lock, both have read both logs
    go.touch()
    andreas, catharina = (_result(w) for w in writers)
    assert (andreas["rc"], andreas["out"], andreas["err"]) == (0, *_said("Andreas", "Cloth Armor"))
    assert (catharina["rc"], catharina["out"], catharina["err"]) == (0, *_said("Catharina", "Plate Armor"))
    assert sorted([andreas["opens"], catharina["opens"]]) == [["shared"], ["shared", "exclusive"]]
    assert _gear(night, "andreas")[-1] == "Cloth Armor"
    assert _gear(night, "catharina")[-1] == "Plate Armor"
    assert (night / store.LOCK).exists() == (windows or os.name == "nt")  # LockFileEx: its file; flock: none


def test_a_file_written_by_another_command_as_the_writer_upgrades_makes_it_run_again(night, tmp_path, run):
    """The other command writes Catharina's log in the moment the writer has let go of its shared lock
    and not yet got the exclusive one: the writer finds the log it read changed, writes nothing of its
    first run, and runs again; both changes are kept, and its output is printed once."""
    go = tmp_path / "go"
    writer = _writer(night, go, ANDREAS_GAINS, let_go=True)
    assert writer.stdout.readline() == "upgrading\n"
    other = subprocess.run([sys.executable, "-m", "drunagor_log", "-C", str(night), *CATHARINA_GAINS],
                           capture_output=True, text=True, timeout=120, env={**os.environ, **SLOW})
    assert (other.returncode, other.stdout, other.stderr) == (0, *_said("Catharina", "Plate Armor"))
    go.touch()
    assert _result(writer) == {"rc": 0, "out": _said("Andreas", "Cloth Armor")[0],
                               "err": _said("Andreas", "Cloth Armor")[1], "opens": ["shared", "exclusive"]}
    assert _gear(night, "andreas")[-1] == "Cloth Armor"
    assert _gear(night, "catharina")[-1] == "Plate Armor"
    assert run("-C", str(night), "check").exit_code == 0


def test_a_write_killed_as_the_writer_upgrades_is_completed_under_its_exclusive_lock(night, tmp_path):
    """In the same moment another command is killed at its commit point (its journal written, nothing
    renamed yet): the writer, once it has the exclusive lock, completes that write and says so, then
    finds the log it read changed and runs again. Both writes are whole, each notice printed once."""
    go = tmp_path / "go"
    writer = _writer(night, go, ANDREAS_GAINS, let_go=True)
    assert writer.stdout.readline() == "upgrading\n"
    killed = subprocess.run([sys.executable, "-m", "drunagor_log", "-C", str(night), "hero", "gain", "Catharina",
                             "Lucky Coin", "--kind", "adventure", "--bag"], capture_output=True, text=True,
                            timeout=120, env={**os.environ, **SLOW, "DRUNAGOR_TEST_CRASH": "journal"})
    assert killed.returncode == 137 and (night / store.JOURNAL).exists()
    go.touch()
    said, warned = _said("Andreas", "Cloth Armor")
    assert _result(writer) == {"rc": 0, "out": said, "opens": ["shared", "exclusive"],
                               "err": f"warning: {store.display(night)}: finished the write of an interrupted "
                                      "drunagor command (story.toml, heroes/catharina.toml)\n" + warned}
    assert not (night / store.JOURNAL).exists()
    assert _gear(night, "andreas")[-1] == "Cloth Armor"
    assert _gear(night, "catharina")[-1] == "Lucky Coin"
    assert "Lucky Coin" in (night / "story.toml").read_text()  # its [cards] entry: the other half


def test_two_real_commands_started_at_once_both_succeed(night, tmp_path):
    """No stand-ins: two drunagor processes released at the same moment, each adding a Follower to the
    same story.toml; both exit 0 and both Followers are there."""
    go = tmp_path / "go"
    script = textwrap.dedent(r'''
        import os, sys, time
        sys.path.insert(0, sys.argv[1])
        from drunagor_log.cli.app import main
        while not os.path.exists(sys.argv[2]):
            time.sleep(0.001)
        sys.argv = ["drunagor", "-C", sys.argv[3], "follower", "add", sys.argv[4], "--new"]
        main()
    ''')
    procs = [subprocess.Popen([sys.executable, "-c", script, str(REPO), str(go), str(night), name],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **SLOW})
             for name in ("Watcher Alpha", "Watcher Beta")]
    go.touch()
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert [o for o, _ in outs] == [f"Watcher {x} follows the party: Follower written on the Story Record (Rulebook: Recruiting Followers and Cohorts, L455)\n"
                                    for x in ("Alpha", "Beta")]
    text = (night / "story.toml").read_text()
    assert "Watcher Alpha" in text and "Watcher Beta" in text and "# the scribe keeps this comment" in text


# ------------------------------------------------------------------------------ in process


def test_a_change_found_at_the_upgrade_is_stale_and_nothing_is_written(night):
    """Without `writing`, the change found at the first write is exit 4, as any change on disk."""
    story = night / "story.toml"
    theirs = story.read_text().replace("max_heroes = 4", "max_heroes = 5")
    with pytest.raises(Stale) as exc, Campaign(night) as c:
        c.hero_files["andreas"].edit()["note"] = f"one of {c.story.rules.max_heroes}"
        story.write_text(theirs)
        c.save()
    assert exc.value.code == 4
    assert exc.value.render() == (f"{store.display(story)}: changed-on-disk: changed on disk while the command ran "
                                  "(an editor, a git pull, another drunagor); nothing was written; re-run the command")
    assert story.read_text() == theirs
    assert "note" not in (night / "heroes" / "andreas.toml").read_text()


def test_a_hero_added_meanwhile_is_a_change_of_what_was_read(night):
    """The list of heroes/ is read too (a party's size rests on it)."""
    with pytest.raises(Stale), Campaign(night) as c:
        assert len(c.heroes) == 2
        (night / "heroes" / "nyx.toml").write_text('schema = 1\nname = "Nyx"\nclass = "Rogue"\nrole = "Striker"\n')
        c.story_file.edit()["party"] = "Two of Them"
        c.save()
    assert 'party = "Night Watch"' in (night / "story.toml").read_text()


def test_writing_runs_the_body_again_with_the_exclusive_lock_from_the_start(night):
    story = night / "story.toml"
    runs: list[str | None] = []

    def body(c: Campaign) -> list[str]:
        runs.append(store.CampaignLock.held(night))
        followers = c.story_file.edit()["followers"]
        if len(runs) == 1:  # another writer, in the moment between the read and the write
            story.write_text(story.read_text().replace('"Vorn the Warrior"', '"Vorn the Warrior", "Maya"'))
        followers.append(f"Follower {len(runs)}")
        return c.save()

    assert writing(night, body) == ["story.toml"]
    assert runs == ["shared", "exclusive"]
    assert 'followers = ["Vorn the Warrior", "Maya", "Follower 2"]' in story.read_text()


def test_a_journal_gone_between_the_look_and_the_read_is_nothing_to_complete(night, monkeypatch):
    # a live writer finishes (and removes) its journal between the open's look and its read, before
    # any lock: the reader reads on, it does not refuse a "journal: file not found"
    from drunagor_log import campaign, store

    looks = iter([True])  # there at the first look, gone at every look after
    monkeypatch.setattr(store, "pending_journal", lambda root: next(looks, False))
    with campaign.Campaign(night) as c:
        assert c.story.party == "Night Watch"
    assert not (night / store.JOURNAL).exists()

"""drunagor on the players' own laptops (issue 19): Windows and macOS as well as Linux.

On a POSIX machine, `windowsish.py` runs drunagor as Windows would: no `fcntl` (ImportError), no
`os.fchmod`, no `signal.pthread_sigmask`, and a stand-in for kernel32's LockFileEx with Windows'
rules. Through it the store takes its Windows code path (the lock on `.drunagor.lock`), and the whole
write path must give the same files as the POSIX path, with two such processes contending for the
lock. On Windows itself those tests are skipped: there the whole suite runs the real thing (CI).

The other tests run everywhere: a rename that Windows refuses while another program holds the file,
piped output in UTF-8, files written with \\n only.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from drunagor_log import store
from drunagor_log.catalog import diskcache
from drunagor_log.cli import terminal
from drunagor_log.store import atomic
from tests.conftest import EXAMPLE, snapshot

WINDOWSISH = Path(__file__).with_name("windowsish.py")
CAMP = "campaigns/autumn"

# new, a hero, one-file writes, and a two-file write (story.toml [cards] + the log: the journal)
SEQUENCE = [
    ["new", "autumn", "--party", "Autumn Watch"],
    ["-C", CAMP, "hero", "add", "Nyx", "--role", "Striker", "--player", "Eva",
     "--gear", "Blooded Sword", "--gear", "Cloth Armor"],
    ["-C", CAMP, "party", "Dusk Watch"],
    ["-C", CAMP, "follower", "add", "Maya"],
    ["-C", CAMP, "hero", "gain", "Nyx", "Lucky Coin", "--kind", "adventure", "--bag"],
]
CRASHED = ["-C", CAMP, "hero", "gain", "Nyx", "Old Map", "--kind", "adventure", "--bag"]


def windowsish(*argv: str, cwd: Path, env: dict | None = None, code: str | None = None,
               **popen) -> subprocess.CompletedProcess | subprocess.Popen:
    """drunagor (or `code`) in a process without the POSIX-only modules; Popen if popen args given."""
    cmd = [sys.executable, str(WINDOWSISH), *(("-c", code) if code else ("-m", "drunagor_log")), *argv]
    env = {**os.environ, **(env or {})}
    if popen:
        return subprocess.Popen(cmd, cwd=cwd, env=env, text=True, **popen)
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


posix_host = pytest.mark.posix  # the stand-in is built on flock; on Windows the real code path runs


@posix_host
def test_the_store_without_posix_modules_writes_what_the_posix_store_writes(tmp_path, run, monkeypatch):
    win, ref = tmp_path / "win", tmp_path / "posix"
    win.mkdir()
    ref.mkdir()
    monkeypatch.chdir(ref)
    for argv in SEQUENCE:
        theirs = run(*argv)
        assert theirs.exit_code == 0, theirs
        ours = windowsish(*argv, cwd=win)
        assert (ours.returncode, ours.stdout, ours.stderr) == (0, theirs.stdout, theirs.stderr), argv

    # killed at the commit point of a two-file write: the next command, reading, completes it
    crashed = windowsish(*CRASHED, cwd=win, env={"DRUNAGOR_TEST_CRASH": "journal"})
    assert crashed.returncode == 137, crashed.stderr
    assert (win / CAMP / store.JOURNAL).exists()
    assert b"Old Map" not in (win / CAMP / "story.toml").read_bytes()
    assert windowsish("-C", CAMP, "show", cwd=win).returncode == 0
    assert run(*CRASHED).exit_code == 0

    assert snapshot(win / CAMP) == snapshot(ref / CAMP)  # byte for byte, the lock file aside
    assert (win / CAMP / store.LOCK).exists()  # the lock was LockFileEx's, on the lock file
    assert not (ref / CAMP / store.LOCK).exists()  # flock locks the folder itself
    for name, data in snapshot(win / CAMP).items():
        assert b"\r" not in data, name
    assert store.LOCK in (win / CAMP / ".gitignore").read_text()


HOLDER = textwrap.dedent('''
    import sys
    from pathlib import Path
    from drunagor_log import store
    from drunagor_log.store import lock
    with store.CampaignLock(Path(sys.argv[1]), shared=sys.argv[2] == "read"):
        print("held", type(lock.backend()).__name__, flush=True)
        sys.stdin.read()  # until the test closes stdin
    print("released", flush=True)
''')

WAITER = textwrap.dedent('''
    import sys
    from pathlib import Path
    from drunagor_log import store
    from drunagor_log.errors import ChangedOnDisk
    root = Path(sys.argv[1])
    try:
        with store.CampaignLock(root, timeout=0):
            print("not contended", flush=True)
    except ChangedOnDisk as exc:
        print("contended", exc.code, flush=True)
    with store.CampaignLock(root, timeout=60):
        print("got it", flush=True)
''')


@pytest.fixture
def hold(night, tmp_path):
    """hold("write"|"read"): another process without fcntl, holding the campaign lock."""
    procs: list[subprocess.Popen] = []

    def _hold(mode: str) -> subprocess.Popen:
        p = windowsish(str(night), mode, cwd=tmp_path, code=HOLDER, stdin=subprocess.PIPE,
                       stdout=subprocess.PIPE)
        assert p.stdout.readline() == "held _LockFileEx\n"
        procs.append(p)
        return p

    yield _hold
    for p in procs:
        if p.poll() is None:
            p.stdin.close()
            p.wait(timeout=30)


@posix_host
def test_two_processes_without_fcntl_contend_for_the_lock(night, tmp_path, hold):
    quick = {"DRUNAGOR_LOCK_TIMEOUT": "0.2"}
    shown = store.display(night)
    before = snapshot(night)
    writer = hold("write")

    # every command opens under the shared lock: a writing one waits for the writer as a reader does
    r = windowsish("-C", str(night), "party", "Dusk Watch", cwd=tmp_path, env=quick)
    assert (r.returncode, r.stdout) == (4, "")
    assert r.stderr == (f"error: {shown}: lock: another drunagor command is still writing this campaign "
                        "(waited 0.2 s); nothing was written; wait for it to finish, then re-run\n")
    r = windowsish("-C", str(night), "show", cwd=tmp_path, env=quick)
    assert (r.returncode, r.stdout) == (4, "")
    assert "another drunagor command is still writing this campaign (waited 0.2 s)" in r.stderr
    assert snapshot(night) == before

    # a waiter that finds the lock taken gets it once the holder lets go
    waiter = windowsish(str(night), cwd=tmp_path, code=WAITER, stdout=subprocess.PIPE)
    assert waiter.stdout.readline() == "contended 4\n"
    writer.stdin.close()
    assert writer.stdout.readline() == "released\n"
    assert waiter.stdout.readline() == "got it\n"
    assert waiter.wait(timeout=60) == 0 and writer.wait(timeout=60) == 0

    hold("read")  # readers share the lock; a writer still waits for them
    r = windowsish("-C", str(night), "show", cwd=tmp_path, env=quick)
    assert r.returncode == 0 and "Night Watch" in r.stdout, r.stderr
    r = windowsish("-C", str(night), "party", "Dusk Watch", cwd=tmp_path, env=quick)
    assert r.returncode == 4 and "still using this campaign" in r.stderr


@posix_host
def test_a_killed_holder_without_fcntl_leaves_no_stale_lock(night, tmp_path, hold):
    holder = hold("write")
    holder.kill()
    holder.wait(timeout=30)
    r = windowsish("-C", str(night), "party", "Dusk Watch", cwd=tmp_path, env={"DRUNAGOR_LOCK_TIMEOUT": "5"})
    assert r.returncode == 0, r.stderr
    assert 'party = "Dusk Watch"' in (night / "story.toml").read_text()


NESTED = textwrap.dedent('''
    import sys
    from pathlib import Path
    from drunagor_log.campaign import Campaign
    from drunagor_log import store
    root = Path(sys.argv[1])
    with Campaign(root) as outer:
        outer.story
        with Campaign(root) as inner:  # the shared lock upgraded, then given back
            inner.story_file.edit()["party"] = "Inner Watch"
            inner.save()
        print(store.CampaignLock.held(root), flush=True)
        sys.stdin.read()
''')


@posix_host
def test_a_write_nested_in_a_read_gives_back_a_shared_lock_without_fcntl(night, tmp_path):
    """LockFileEx cannot turn a shared lock exclusive in place, nor back: the upgrade lets go and
    waits, the downgrade adds a shared lock and then releases the exclusive one (which Windows
    releases first). Afterwards other readers get in and writers still wait."""
    quick = {"DRUNAGOR_LOCK_TIMEOUT": "0.2"}
    p = windowsish(str(night), cwd=tmp_path, code=NESTED, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert p.stdout.readline() == "shared\n"
        r = windowsish("-C", str(night), "party", "Outer Watch", cwd=tmp_path, env=quick)
        assert r.returncode == 4 and "still using this campaign" in r.stderr
        r = windowsish("-C", str(night), "show", cwd=tmp_path, env=quick)
        assert r.returncode == 0 and "Inner Watch" in r.stdout, r.stderr
    finally:
        p.stdin.close()
        p.wait(timeout=30)
    assert 'party = "Inner Watch"' in (night / "story.toml").read_text()


# --------------------------------------------------------------------- everywhere, in process


def _busy_replace(monkeypatch, times: int | None, winerror: int | None = 32) -> list:
    """os.replace refused `times` times (None: always) as Windows refuses it while another program
    holds the target open (ERROR_SHARING_VIOLATION); the attempts are counted."""
    real, attempts = os.replace, []

    def replace(src, dst, **dir_fds):  # a campaign's files by name in their folder's descriptor (Folders)
        if str(dst).startswith(diskcache.folder()):  # drunagor's cache outside the campaign: not counted
            return real(src, dst, **dir_fds)
        attempts.append(dst)
        if times is None or len(attempts) <= times:
            exc = PermissionError(13, "The process cannot access the file because it is being used")
            exc.winerror = winerror  # what Windows sets on its OSErrors
            raise exc
        real(src, dst, **dir_fds)

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(atomic, "_BUSY_PAUSES", (0, 0, 0, 0))
    return attempts


def test_a_file_another_program_holds_for_a_moment_is_replaced_when_it_lets_go(camp, run, monkeypatch):
    attempts = _busy_replace(monkeypatch, times=3)
    r = run("party", "Dusk Watch")
    assert r.exit_code == 0, r
    assert len(attempts) == 4
    assert 'party = "Dusk Watch"' in (camp / "story.toml").read_text()


def test_a_file_another_program_keeps_open_stops_the_write_with_a_remedy(camp, run, monkeypatch):
    attempts = _busy_replace(monkeypatch, times=None)
    before = snapshot(camp)
    r = run("party", "Dusk Watch")
    assert (r.exit_code, r.stdout) == (3, "")
    assert r.stderr == ("error: campaigns/test/story.toml: file: cannot write the file (another program has it "
                        "open); nothing was written; close it in that program (a spreadsheet, a viewer) and "
                        "re-run\n")
    assert len(attempts) == 5  # the pauses, then one last try
    assert snapshot(camp) == before  # the temp file removed


def test_a_rename_refused_for_another_reason_is_not_retried(camp, run, monkeypatch):
    attempts = _busy_replace(monkeypatch, times=None, winerror=None)  # POSIX EACCES: retrying cannot help
    r = run("party", "Dusk Watch")
    assert r.exit_code == 3
    assert "cannot write the file (The process cannot access the file" in r.stderr
    assert "fix the cause (disk space, permissions)" in r.stderr
    assert len(attempts) == 1


def test_files_are_written_with_lf_only(tmp_path):
    """On Windows, a descriptor opened without O_BINARY would write \\r\\n for every \\n."""
    target = tmp_path / "f.toml"
    store.atomic_write(target, b'schema = 1\nparty = "x"\n')
    assert target.read_bytes() == b'schema = 1\nparty = "x"\n'


def test_piped_output_is_utf8_where_the_system_would_pick_a_code_page(monkeypatch):
    monkeypatch.delenv("PYTHONIOENCODING", raising=False)
    monkeypatch.delenv("PYTHONUTF8", raising=False)
    raw = io.BytesIO()
    piped = io.TextIOWrapper(raw, encoding="cp1252")  # what Windows gives a pipe
    terminal.utf8_when_piped(piped)
    piped.write("Łucja joins the party\n")
    piped.flush()
    assert raw.getvalue() == "Łucja joins the party\n".encode()


def test_an_encoding_the_user_chose_is_kept(monkeypatch):
    monkeypatch.setenv("PYTHONIOENCODING", "cp1252")
    piped = io.TextIOWrapper(io.BytesIO(), encoding="cp1252")
    terminal.utf8_when_piped(piped)
    assert piped.encoding == "cp1252"


NYX = (EXAMPLE / "heroes" / "nyx.toml").read_text()
CTRL_C = textwrap.dedent('''
    import os, signal, sys
    from pathlib import Path
    from drunagor_log.campaign import Campaign
    from drunagor_log.store import transaction
    root = Path(sys.argv[1])

    def ctrl_c(point):
        if point == "staged":  # the first file staged, the second not yet, no journal
            signal.raise_signal(signal.SIGINT)  # Ctrl-C, in this thread, before the write goes on

    transaction._test_hook = ctrl_c
    # Ctrl-C as on a console; a shell's background job (CI) would start Python with SIGINT ignored
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with Campaign(root) as c:
            c.story_file.edit()["party"] = "Interrupted Watch"
            c.create(root / "heroes" / "nyx.toml", NYX)
            c.save()
        print("not interrupted")
    except KeyboardInterrupt:
        print("interrupted after the write")
''').replace("NYX", repr(NYX))  # a whole log: the store writes only what it reads back (issue 41.1)


@posix_host
def test_ctrl_c_without_a_signal_mask_waits_for_the_write_to_finish(night, tmp_path):
    """Windows has no pthread_sigmask: Ctrl-C is held by a handler while files are put in place,
    then raised, so the command still stops, after a whole write rather than in the middle."""
    r = windowsish(str(night), cwd=tmp_path, code=CTRL_C)
    assert (r.returncode, r.stdout) == (0, "interrupted after the write\n"), r.stderr
    assert 'party = "Interrupted Watch"' in (night / "story.toml").read_text()
    assert (night / "heroes" / "nyx.toml").read_text() == NYX
    assert not [p for p in night.rglob("*") if store.TMP_SUFFIX in p.name or store.JOURNAL in p.name]

"""Crash safety (SPEC section 6): a command that writes several files writes all of them or none,
also when the process is killed half-way; no temp or journal file is ever left where git sees it.

The random test runs real writing commands (`adventure start`, `hero give` between two heroes,
`party`, `adventure end --lost`: one, two, one, two and three files) in a loop in a child process and
kills it with SIGKILL at random moments. The child is forked from a helper process that has already
imported drunagor, so that a kill costs milliseconds and lands inside a command, not in Python's
start-up; DRUNAGOR_TEST_DELAY stretches every step of a commit so that kills land inside commits
often. After each kill: every file parses, git sees no temp or journal file, `drunagor check` passes
(completing a pending journal, as every command does first), and the campaign equals the state
before or after the interrupted command. The deterministic test then dies at every commit point in
turn (also in `spoils upgrade` and `hero remove`), and one runs the installed `drunagor` script."""

from __future__ import annotations

import inspect
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
import time
import tomllib
from functools import partial
from pathlib import Path

import pytest

from drunagor_log import store
from tests import helpers
from tests.conftest import NIGHT_STORY, REPO, make_night, write

pytestmark = [pytest.mark.posix, pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")]

# The Night Watch (tests/conftest.py) before its first chapter and without a Follower: the loop starts
# chapter 01 and loses it again and again.
STORY = NIGHT_STORY.replace('followers = ["Vorn the Warrior"]', "followers = []").replace(
    '"01" = "skipped"\n"02" = "skipped"\n"03" = "skipped"\n"04" = "skipped"\n', "")

# Andreas with Spoils to upgrade (Astral Symbol with Chaos Staff and Artisan's Tools, RB L411-419).
ANDREAS = """\
schema = 1
name = "Andreas"
class = "Cleric"
role = "Support"
joined = "01"
equipment = [
  { name = "Blooded Sword", kind = "starting", place = "equipped" },
  { name = "Plate Armor", kind = "starting", place = "equipped" },
  { name = "Scroll of Incinerate", kind = "consumable", place = "bag" },
  { name = "Astral Symbol", kind = "spoils", quality = "standard", place = "equipped" },
  { name = "Artisan's Tools", kind = "epic", place = "bag" },
  { name = "Chaos Staff", kind = "spoils", quality = "standard", place = "bag" },
]
"""


def command(i: int) -> list[str]:
    """The i-th command of the loop (deterministic: the same state and i give the same bytes)."""
    return [
        ["adventure", "start", "01"],  # creates adventure.toml
        ["hero", "give", "Andreas", "Catharina", "Scroll of Incinerate"],  # two logs
        ["party", f"Night Watch {i}"],  # story.toml
        ["hero", "give", "Catharina", "Andreas", "Scroll of Incinerate"],  # two logs
        ["adventure", "end", "--lost"],  # story.toml, adventures/01-N.toml new, adventure.toml deleted
    ][i % 5]


# The helper process: imports drunagor once, then forks a child per request.
ZYGOTE = textwrap.dedent(r'''
    import json, os, sys
    sys.path.insert(0, sys.argv[1])
    import typer
    from typer._click.exceptions import ClickException
    from drunagor_log.cli.app import app
    cli = typer.main.get_command(app)  # built once: Typer builds it anew on every app() call
    exec(open(sys.argv[2]).read())  # command(i), the test's own


    def invoke(root, argv):
        try:
            rc = cli.main(["-C", root, *argv], standalone_mode=False, prog_name="drunagor")
            return rc if isinstance(rc, int) else 0
        except SystemExit as exc:
            return exc.code if isinstance(exc.code, int) else 1
        except ClickException as exc:
            return exc.exit_code


    def snapshot(root):
        out = {}
        for dirpath, _, names in os.walk(root):
            for n in names:
                if n.endswith(".toml") and not n.startswith("."):
                    p = os.path.join(dirpath, n)
                    out[os.path.relpath(p, root)] = open(p, encoding="utf-8").read()
        return out


    def quiet():
        sys.stdout.flush()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)


    def loop(root, start, side, env):
        os.environ.update(env)
        quiet()
        i = start
        while True:
            argv = command(i)
            with open(side + ".tmp", "w") as f:
                json.dump({"i": i, "argv": argv, "before": snapshot(root)}, f)
            os.replace(side + ".tmp", side)
            rc = invoke(root, argv)
            if rc != 0:
                with open(side + ".error", "w") as f:
                    json.dump({"i": i, "argv": argv, "rc": rc}, f)
                os._exit(1)
            i += 1


    def once(root, argv, env):
        os.environ.update(env)
        quiet()
        os._exit(invoke(root, argv))


    # Warm up on a copy of the campaign: import what the commands import lazily, load the catalog.
    import contextlib, io
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        for i in range(5):
            assert invoke(sys.argv[3], command(i)) == 0
    print("ready", flush=True)

    for line in sys.stdin:
        req = json.loads(line)
        if req[0] == "wait":
            _, status = os.waitpid(req[1], 0)
            print(status, flush=True)
            continue
        pid = os.fork()
        if pid == 0:
            try:
                (loop if req[0] == "loop" else once)(*req[1:])
            finally:
                os._exit(99)
        print(pid, flush=True)
''')


class Zygote:
    def __init__(self, tmp: Path):
        script, commands, warm = tmp / "zygote.py", tmp / "commands.py", tmp / "warm-up"
        make_night(warm, STORY, ANDREAS)
        script.write_text(ZYGOTE)
        commands.write_text(inspect.getsource(command))
        self.proc = subprocess.Popen([sys.executable, str(script), str(REPO), str(commands), str(warm)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout.readline() == "ready\n", "the helper process could not start"

    def ask(self, *request) -> int:
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, "the helper process died"
        return int(line)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def zygote(tmp_path_factory):
    z = Zygote(tmp_path_factory.mktemp("zygote"))
    yield z
    z.close()


@pytest.fixture
def repo(tmp_path) -> Path:
    """A git repository with this project's .gitignore and a fresh campaign in it."""
    top = tmp_path / "repo"
    root = make_night(top / "campaigns" / "night", STORY, ANDREAS)
    shutil.copy(REPO / ".gitignore", top / ".gitignore")
    git(top, "init", "-q")
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "start")
    return root


git = partial(helpers.git, identity=True)


def state(root: Path) -> dict[str, str]:
    """The campaign's content: every TOML file (not the tool's temp files)."""
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*.toml"))
            if not p.name.startswith(".")}


def after(zygote: Zygote, tmp: Path, before: dict[str, str], argv: list[str]) -> dict[str, str]:
    """The state `argv` leaves when it runs to completion from `before` (run by the same code as
    the killed command: a child of the same helper process)."""
    scratch = tmp / f"scratch-{time.monotonic_ns()}"
    for rel, text in before.items():
        write(scratch / rel, text)
    status = zygote.ask("wait", zygote.ask("once", str(scratch), argv, {}))
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, (argv, status)
    return state(scratch)


def assert_clean_after_kill(root: Path, run) -> bool:
    """Every file parses, git sees no temp or journal file, and `drunagor check` passes (completing
    a pending journal). Returns whether a journal was pending."""
    for p in root.rglob("*.toml"):
        if not p.name.startswith("."):
            tomllib.loads(p.read_text())  # as the kill left it: never a half-written file
    status = git(root.parent.parent, "status", "--porcelain", "--untracked-files=all")
    for line in status.splitlines():
        assert line[3:].endswith(".toml"), f"git sees a file that is not campaign data: {line}"
    pending = store.pending_journal(root)
    r = run("-C", str(root), "check")
    assert r.exit_code == 0, r
    assert not store.pending_journal(root), "check completes a pending journal"
    return pending


def test_sigkill_at_random_moments_leaves_the_state_before_or_after(repo, zygote, run, tmp_path):
    rng = random.Random(7)
    side = str(tmp_path / "progress.json")
    env = {"DRUNAGOR_TEST_DELAY": "0.002"}
    start, seen = 0, {"before": 0, "after": 0, "journal": 0}
    for _ in range(30):
        if os.path.exists(side):
            os.unlink(side)
        pid = zygote.ask("loop", str(repo), start, side, env)
        while not os.path.exists(side):  # the child is in its loop
            time.sleep(0.001)
        time.sleep(rng.uniform(0, 0.15))
        os.kill(pid, signal.SIGKILL)
        status = zygote.ask("wait", pid)
        if os.path.exists(side + ".error"):
            pytest.fail(f"a command failed in the loop: {Path(side + '.error').read_text()}")
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, status

        progress = json.loads(Path(side).read_text())
        seen["journal"] += assert_clean_after_kill(repo, run)
        now = state(repo)
        if now == progress["before"]:
            seen["before"] += 1
            start = progress["i"]
        else:
            assert now == after(zygote, tmp_path, progress["before"], progress["argv"]), (
                f"after a kill in {progress['argv']} the campaign is neither as before nor as after it")
            seen["after"] += 1
            start = progress["i"] + 1
    # the next writing command sweeps whatever temp files a kill before the commit point left
    assert run("-C", str(repo), "party", "Night Watch").exit_code == 0
    assert not [p for p in repo.rglob("*") if store.TMP_SUFFIX in p.name or store.JOURNAL in p.name]
    assert (repo / "story.toml").read_text().count("# the scribe keeps this comment") == 1
    print("kills:", seen)


# Every point of a commit where a process can die, in order (store/atomic.py: _test_hook).
POINTS = ["staged:1", "staged:2", "staged:3", "journal", "applied:1", "applied:2", "applied:3", "done"]


@pytest.mark.parametrize("argv,writes,files", [  # files written (staged), and written or deleted
    (["hero", "give", "Andreas", "Catharina", "Scroll of Incinerate"], 2, 2),
    (["adventure", "end", "--lost"], 2, 3),  # story.toml and the archive written, adventure.toml deleted
    (["party", "Day Watch"], 1, 1),
    # the log and story.toml (`stored`): RB L431
    (["spoils", "upgrade", "Andreas", "Astral Symbol", "--discard", "Chaos Staff"], 2, 2),
    (["hero", "remove", "Andreas"], 2, 2),  # the log (retired) and story.toml (the stash): RB L968-974
], ids=["hero-give", "adventure-end", "party", "spoils-upgrade", "hero-remove"])
def test_death_at_every_commit_point_is_all_or_nothing(repo, zygote, run, tmp_path, argv, writes, files):
    if argv[0] == "adventure":
        assert run("-C", str(repo), "adventure", "start", "01").exit_code == 0
    before = state(repo)
    expected = after(zygote, tmp_path, before, argv)
    assert expected != before
    for point in POINTS:
        for rel in list(state(repo)):  # back to the state before
            if rel not in before:
                (repo / rel).unlink()
        for rel, text in before.items():
            write(repo / rel, text)
        pid = zygote.ask("once", str(repo), argv, {"DRUNAGOR_TEST_CRASH": point})
        status = zygote.ask("wait", pid)
        name, _, nth = point.partition(":")
        # one file is a single rename (no journal); several: one op per file, then the journal
        reached = {"staged": int(nth or 1) <= writes, "journal": files > 1,
                   "applied": int(nth or 1) <= files, "done": True}[name]
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == (137 if reached else 0), (point, status)
        committed = not (reached and name == "staged")  # before the commit point: nothing happened
        assert store.pending_journal(repo) == (files > 1 and reached and name in ("journal", "applied")), point
        pending = assert_clean_after_kill(repo, run)
        assert state(repo) == (expected if committed else before), (point, pending)


def test_the_installed_script_completes_a_journal_left_by_a_kill(repo, zygote, run, tmp_path):
    """The same through the real `drunagor` entry point: killed at the commit point of `hero
    give`, the next command (here a reading one) finishes the write first."""
    exe = Path(sys.executable).with_name("drunagor")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "drunagor_log"]
    argv = ["hero", "give", "Andreas", "Catharina", "Scroll of Incinerate"]
    expected = after(zygote, tmp_path, state(repo), argv)
    r = subprocess.run([*cmd, "-C", str(repo), *argv], env={**os.environ, "DRUNAGOR_TEST_CRASH": "journal"},
                       capture_output=True, text=True)
    assert r.returncode == 137, r.stderr
    assert store.pending_journal(repo)
    shown = subprocess.run([*cmd, "-C", str(repo), "show", "--json"], capture_output=True, text=True)
    assert shown.returncode == 0, shown.stderr
    assert shown.stderr == (f"warning: {store.display(repo)}: finished the write of an interrupted drunagor command "
                            "(heroes/andreas.toml, heroes/catharina.toml)\n")
    assert not store.pending_journal(repo)
    assert state(repo) == expected

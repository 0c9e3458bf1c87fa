"""Shared test fixtures: every test runs in its own temporary folder with NO_COLOR and a fixed
width, and invokes the CLI in process (typer.testing.CliRunner)."""

from __future__ import annotations

import os
import shutil
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "campaigns" / "example"


@pytest.fixture(autouse=True)
def _isolate(tmp_path, tmp_path_factory, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.delenv("DRUNAGOR_CAMPAIGN", raising=False)
    # drunagor's disk cache (parsed catalog, checked archives): per test, and outside the test's
    # folder, which is often a git repository of its own.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
    for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        monkeypatch.delenv(var, raising=False)
    if os.name == "nt":  # campaign files are LF on every system (.gitattributes eol=lf): so are the tests'
        write_text = Path.write_text
        monkeypatch.setattr(Path, "write_text", lambda self, data, encoding=None, errors=None, newline="\n":
                            write_text(self, data, encoding, errors, newline))
    yield


_built: dict[int, tuple[object, object]] = {}  # id(app) -> (the app, kept alive; its click command)


def command(app):
    """The click command of a Typer app, built once for the session: Typer rebuilds the whole command
    tree (every option of every command, from the functions' signatures) each time it runs an app, and
    that was four fifths of an in-process command's time. The built command holds no state of a run
    (Click makes a new context for each), as `drunagor` itself builds it once per process."""
    import typer.main

    if id(app) not in _built:
        _built[id(app)] = (app, typer.main.get_command(app))
    return _built[id(app)][1]


@pytest.fixture(autouse=True, scope="session")
def _command_built_once():
    """CliRunner.invoke(app, ...) runs command(app)."""
    import typer.testing

    get_command = typer.testing._get_command
    typer.testing._get_command = command
    yield
    typer.testing._get_command = get_command


@pytest.fixture(autouse=True)
def _no_process_unless_slow(request, monkeypatch):
    """A test not marked slow starts no process (the marker's promise: `pytest -m "not slow"` in a
    minute): its subprocess, fork or pty fails the test, saying so."""
    if request.node.get_closest_marker("slow") is not None:
        return

    def refused(*args, **kwargs):
        raise AssertionError("this test starts a process: mark it @pytest.mark.slow (tests/conftest.py)")

    import subprocess

    monkeypatch.setattr(subprocess.Popen, "_execute_child", refused)
    for name in ("fork", "forkpty", "system", "posix_spawn", "posix_spawnp"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, refused)


def pytest_runtest_setup(item):
    if item.get_closest_marker("posix") and os.name != "posix":
        pytest.skip("POSIX-only behaviour (SIGKILL, fork, file modes, FIFOs, symlinks, flock)")


# The `slow` marker (pyproject.toml): tests that start processes (the installed script, git, a pty, a
# browser, a killed writer) or run long searches (Hypothesis), so that a developer
# runs the rest in a minute (`pytest -m "not slow"`) and the whole suite before a commit. Modules where
# most tests start a process are marked whole, elsewhere each such test (`@pytest.mark.slow  # runs git`);
# a Hypothesis test wherever it is. One that is not marked and starts a process fails (_no_process_unless_slow).
SLOW_PLACES = (
    "tests/attack/", "tests/packaging/", "tests/sync/test_setup.py", "tests/sync/test_sync.py",
    "tests/sync/test_git_runner.py", "tests/cli/test_app.py", "tests/cli/test_git.py",
    "tests/cli/test_import_budget.py", "tests/cli/test_shell.py", "tests/cli/test_terminal.py",
    "tests/docs/test_console_blocks.py", "tests/play/test_script.py",
    "tests/play/test_terminal.py", "tests/sheet/test_browser.py", "tests/sheet/test_corners.py",
    "tests/store/test_concurrency.py", "tests/store/test_crash.py",
    "tests/store/test_every_command.py", "tests/store/test_portable.py", "tests/store/test_write_lock.py",
    "tests/serve/", "tests/play/test_screen.py", "tests/play/test_waiting.py", "tests/cli/test_plain_wrap.py",
    "tests/test_precommit.py",
)


def pytest_collection_modifyitems(items):
    for item in items:
        where = Path(str(item.fspath)).resolve().relative_to(REPO).as_posix()
        searches = getattr(getattr(item, "obj", None), "is_hypothesis_test", False)
        if where.startswith(SLOW_PLACES) or searches:
            item.add_marker(pytest.mark.slow)


class Result:
    def __init__(self, r):
        self.exit_code = r.exit_code
        self.stdout = r.stdout
        self.stderr = r.stderr
        self.exception = r.exception

    def __repr__(self):
        return f"<exit {self.exit_code}\nstdout:\n{self.stdout}\nstderr:\n{self.stderr}>"


@pytest.fixture
def run():
    """run("show", "--json") -> Result with exit_code, stdout, stderr (separate streams)."""
    from drunagor_log.cli.app import app

    def _run(*args: str, input: str | None = None) -> Result:
        runner = CliRunner()
        r = runner.invoke(app, list(args), input=input, catch_exceptions=False)
        return Result(r)

    return _run


@pytest.fixture
def example(tmp_path) -> Path:
    """A private copy of the shipped example campaign, as campaigns/example under the test folder."""
    dest = tmp_path / "campaigns" / "example"
    shutil.copytree(EXAMPLE, dest)
    return dest


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(textwrap.dedent(text).lstrip("\n").encode())  # \n on every system
    return path


MINIMAL_STORY = """
schema = 1
campaign = "awakenings"
party = "Test Party"
# a comment the user wrote
followers = []

[track]

[rules]
trauma_limit = 1
max_heroes = 4
rune_bag = { red = 7, blue = 8, green = 7, orange = 7, gray = 7 }
"""


@pytest.fixture
def camp(tmp_path) -> Path:
    """A minimal campaign in ./campaigns/test (the only campaign, so commands find it)."""
    root = tmp_path / "campaigns" / "test"
    write(root / "story.toml", MINIMAL_STORY)
    (root / "heroes").mkdir()
    return root


# ------------------------------------------------------- transcripts (the docs' console blocks, golden tests)


def transcript(lines: list[str], where: str = "") -> list[tuple[str, list[str]]]:
    """A session as a terminal shows it, `$ COMMAND` then what the command prints: [(COMMAND, its
    lines)]. `where` starts the message of a line printed before any command."""
    steps: list[tuple[str, list[str]]] = []
    for text in lines:
        if text.startswith("$ "):
            steps.append((text[2:], []))
        elif steps:
            steps[-1][1].append(text)
        else:
            raise AssertionError(f"{where}output before any `$` command: {text!r}")
    return steps


def matches(expected: list[str], got: list[str]) -> bool:
    """Whether `got` are the `expected` lines, where a line `...` stands for any run of lines (none too)."""
    if not expected:
        return not got
    if expected[0] == "...":
        return any(matches(expected[1:], got[k:]) for k in range(len(got) + 1))
    return bool(got) and got[0] == expected[0] and matches(expected[1:], got[1:])


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file below root with its bytes (to assert nothing changed), but the campaign lock's
    file (on Windows every command may create it: it is not campaign data)."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != ".drunagor.lock"}


# ------------------------------------------------------------------ the Night Watch (the store's tests)

# A small campaign of two heroes, the one the store's tests (bad input, concurrency, portability) damage,
# lock and rewrite: chapters 01-04 skipped, a comment the tool must keep, a bag item, a follower.
NIGHT_STORY = """\
schema = 1
campaign = "awakenings"
party = "Night Watch"
leader = "Andreas"
# the scribe keeps this comment
followers = ["Vorn the Warrior"]
stash = []

[track]
"01" = "skipped"
"02" = "skipped"
"03" = "skipped"
"04" = "skipped"

[rules]
trauma_limit = 1
max_heroes = 4
rune_bag = { red = 7, blue = 8, green = 7, orange = 7, gray = 7 }
"""

NIGHT_ANDREAS = """\
schema = 1
name = "Andreas"
class = "Cleric"
role = "Support"
joined = "01"
statuses = []
skills = [
  { name = "Wisdom 1", tree = "wisdom", level = 1, chapter = "01" },
]
equipment = [
  { name = "Blooded Sword", kind = "starting", place = "equipped" },
  { name = "Plate Armor", kind = "starting", place = "equipped" },
  { name = "Scroll of Incinerate", kind = "consumable", place = "bag" },
]
"""

NIGHT_CATHARINA = """\
schema = 1
name = "Catharina"
class = "Mage"
role = "Controller"
joined = "01"
equipment = [
  { name = "Wooden Staff", kind = "starting", place = "equipped" },
  { name = "Cloth Armor", kind = "starting", place = "equipped" },
]
"""


def make_night(root: Path, story: str = NIGHT_STORY, andreas: str = NIGHT_ANDREAS) -> Path:
    """The Night Watch in `root` (story.toml, heroes/andreas.toml, heroes/catharina.toml); a module
    that needs the party at another point gives its own `story` or `andreas`."""
    write(root / "story.toml", story)
    write(root / "heroes" / "andreas.toml", andreas)
    write(root / "heroes" / "catharina.toml", NIGHT_CATHARINA)
    return root


@pytest.fixture
def night(tmp_path) -> Path:
    """The Night Watch as campaigns/night under the test folder."""
    return make_night(tmp_path / "campaigns" / "night")

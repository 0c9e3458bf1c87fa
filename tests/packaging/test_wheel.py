"""drunagor as a user installs it: the sdist built from the repository holds the tests and the example
campaign; the wheel built from that sdist, installed in a fresh virtual environment (no `-e`, no
repository beside it: the commands run in a temporary folder, PYTHONPATH unset), runs the commands a
new player starts with and prints what the source prints, `new --example` included.

One build and one environment for the module (a build and an install from the package index cost
some seconds; the CI machine reaches the index).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from drunagor_log import __version__
from tests.conftest import EXAMPLE, REPO


class Installed:
    def __init__(self, venv: Path, dist: Path, work: Path):
        bindir = venv / ("Scripts" if os.name == "nt" else "bin")
        self.python = bindir / "python"
        self.drunagor = bindir / "drunagor"
        self.dist = dist
        self.work = work

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DRUNAGOR_CAMPAIGN", "VIRTUAL_ENV")}
        return {**env, "NO_COLOR": "1", "COLUMNS": "120", "XDG_CACHE_HOME": str(self.work / "cache")}

    def run(self, *args: str, cwd: Path) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.drunagor), *args], cwd=cwd, env=self.env(), capture_output=True,
                              text=True, timeout=120)


def _ok(proc: subprocess.CompletedProcess, what: str) -> None:
    assert proc.returncode == 0, f"{what} failed:\n{proc.stdout}\n{proc.stderr}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    work = tmp_path_factory.mktemp("wheel")
    dist = work / "dist"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # `python -m build` builds the sdist, then the wheel from the unpacked sdist: what the sdist lacks,
    # the wheel lacks too
    _ok(subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(REPO)], cwd=work, env=env,
                       capture_output=True, text=True, timeout=600), "python -m build")
    venv = work / "venv"
    _ok(subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True, timeout=300),
        "python -m venv")
    found = Installed(venv, dist, work)
    wheel = next(dist.glob("drunagor-*.whl"))
    _ok(subprocess.run([str(found.python), "-m", "pip", "install", "-q", str(wheel)], cwd=work, env=found.env(),
                       capture_output=True, text=True, timeout=600), "pip install the wheel")
    return found


def test_the_sdist_holds_the_tests_the_example_and_the_license(installed):
    sdist = next(installed.dist.glob("drunagor-*.tar.gz"))
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    example = {p.relative_to(REPO).as_posix() for p in EXAMPLE.rglob("*.toml")}
    tests = {p.relative_to(REPO).as_posix() for p in (REPO / "tests").rglob("*.py")}
    assert example and example <= names
    assert tests <= names
    assert {"LICENSE", "CHANGELOG.md", "README.md", "pyproject.toml", "setup.py", "docs/install.md"} <= names


def test_the_installed_drunagor_is_the_wheel_not_the_repository(installed, tmp_path):
    where = subprocess.run([str(installed.python), "-c", "import drunagor_log; print(drunagor_log.__file__)"],
                           cwd=tmp_path, env=installed.env(), capture_output=True, text=True, timeout=60)
    _ok(where, "import drunagor_log")
    assert Path(where.stdout.strip()).is_relative_to(installed.work / "venv"), where.stdout
    assert not Path(where.stdout.strip()).is_relative_to(REPO)
    version = installed.run("--version", cwd=tmp_path)
    assert (version.returncode, version.stdout) == (0, f"drunagor {__version__}\n")


STEPS = [
    ["new", "autumn", "--party", "Night Watch"],
    ["-C", "campaigns/autumn", "hero", "add", "Kellan", "--role", "Leader", "--class", "Paladin", "--player", "Eva"],
    ["-C", "campaigns/autumn", "show"],
    ["-C", "campaigns/autumn", "sheet", "--format", "md"],
    ["completion", "bash"],
    ["new", "--example", "example"],
    ["-C", "campaigns/example", "show"],
    ["-C", "campaigns/example", "raid", "--dry-run", "--seed", "12"],
    ["-C", "campaigns/example", "check"],
]


def test_a_new_players_first_commands_print_what_the_source_prints(installed, run, tmp_path):
    """Each step in two mirrored folders: by the installed script, and in process by the source."""
    play = tmp_path / "installed"
    source = tmp_path / "source"
    play.mkdir()
    source.mkdir()
    for args in STEPS:
        got = installed.run(*args, cwd=play)
        os.chdir(source)
        want = run(*args)
        assert (got.returncode, got.stdout, got.stderr) == (want.exit_code, want.stdout, want.stderr), args
        assert got.returncode == 0, (args, got.stderr)
    assert (play / "campaigns" / "autumn" / "sheet.md").read_bytes() == (
        source / "campaigns" / "autumn" / "sheet.md").read_bytes()
    copied = play / "campaigns" / "example"
    for path in EXAMPLE.rglob("*.toml"):  # the example that came with the wheel is the repository's, byte for byte
        assert (copied / path.relative_to(EXAMPLE)).read_bytes() == path.read_bytes(), path


def test_the_wheel_holds_the_table_screens_templates_and_static_files(installed):
    # package-data lists them by pattern (pyproject.toml): a file kind the patterns miss would be a page
    # that `drunagor serve` cannot draw once installed
    import zipfile

    wheel = next(installed.dist.glob("drunagor-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    serve = REPO / "drunagor_log" / "serve"
    files = {f"drunagor_log/serve/{p.relative_to(serve).as_posix()}" for p in serve.rglob("*")
             if p.is_file() and "__pycache__" not in p.parts}
    assert files - names == set()


def test_the_help_example_works_for_a_new_player(installed, tmp_path):
    """`drunagor --help`'s example line, as a player who installed the wheel types it (issue 35.6: it
    pointed to campaigns/example, which only the repository has)."""
    import re
    import shlex

    helped = installed.run("--help", cwd=tmp_path)
    _ok(helped, "drunagor --help")
    (example,) = re.findall(r"Example: (.+)", helped.stdout)
    for step in example.split(" && "):
        program, *args = shlex.split(step)
        assert program == "drunagor"
        _ok(installed.run(*args, cwd=tmp_path), step)

"""The assembly of the command line: the one-command fast path must reach every command."""

from __future__ import annotations

import subprocess
import sys

from drunagor_log.cli import app as app_module
from tests.conftest import REPO


def test_commands_map_names_every_registered_command_and_only_those():
    full = app_module.build_app()
    names = {app_module._name(c) for c in full.registered_commands}
    names |= {app_module._name(g) for g in full.registered_groups}
    assert names == set(app_module.COMMANDS)


def test_each_command_builds_alone():
    for name in app_module.COMMANDS:
        one = app_module.build_app(name)
        got = [app_module._name(c) for c in one.registered_commands] + [
            app_module._name(g) for g in one.registered_groups]
        assert got == [name]


def test_command_typed_skips_global_options():
    assert app_module.command_typed(["-C", "raid", "show"]) == "show"
    assert app_module.command_typed(["--campaign", "x", "--no-color", "raid", "--dry-run"]) == "raid"
    assert app_module.command_typed(["--version"]) is None
    assert app_module.command_typed([]) is None


def test_installed_script_runs_one_command_and_the_whole_help(example):
    exe = [sys.executable, "-m", "drunagor_log"]
    r = subprocess.run(exe + ["-C", str(example), "show"], capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 0, r.stderr
    assert "Safeguard Corporation" in r.stdout
    r = subprocess.run(exe + ["--help"], capture_output=True, text=True)
    assert r.returncode == 0
    for name in ("show", "raid", "battalion", "hero", "chapter", "spoils", "undo", "migrate"):
        assert f"  {name} " in r.stdout
    r = subprocess.run(exe + ["nosuch"], capture_output=True, text=True)
    assert r.returncode == 2 and "No such command 'nosuch'" in r.stderr

"""Import budget (SPEC section 7; like Typer's own test of Rich imports): the cheap commands do not
import what they do not use. Each runs in a fresh interpreter; the modules it loaded are listed."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO

PROBE = """
import json, sys
sys.argv = ["drunagor"] + json.loads(sys.argv[1])
from drunagor_log.cli.app import main
try:
    main()
except SystemExit:
    pass
catalog = sys.modules.get("drunagor_log.catalog")
data = ["catalog data"] if catalog is not None and catalog._load.cache_info().currsize else []
sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules) + data) + "\\n")
"""

def loaded(args: list[str]) -> set[str]:
    import os

    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "HOME": os.getcwd(), "XDG_CACHE_HOME": os.environ["XDG_CACHE_HOME"]}
    env.update({k: os.environ[k] for k in ("SYSTEMROOT",) if k in os.environ})  # Windows' Python needs it
    r = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args)], capture_output=True, text=True,
                       cwd=REPO, env=env)
    line = [x for x in r.stderr.splitlines() if x.startswith("MODULES ")]
    assert line, r.stderr
    return set(json.loads(line[0][len("MODULES "):]))


def top(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


@pytest.mark.parametrize("args", [
    ["show"], ["hero", "show", "Andreas"], ["check"], ["raid", "--dry-run", "--seed", "3"],
    ["chapter", "show"], ["adventure", "show"], ["--help"], ["raid", "--help"],
])
def test_reading_commands_import_neither_tomlkit_nor_rich(args, example):
    mods = loaded(["-C", str(example), *args])
    assert not (top(mods) & {"tomlkit", "rich"}), sorted(top(mods) & {"tomlkit", "rich"})


def test_raid_loads_only_what_the_table_needs(example):
    mods = loaded(["-C", str(example), "raid", "--dry-run", "--seed", "3"])
    # no odds arithmetic, no catalog data read (the catalog module alone is cheap), no other command module
    assert "fractions" not in mods
    assert "catalog data" not in mods
    assert {m for m in mods if m.startswith("drunagor_log.cli.commands.")} == {"drunagor_log.cli.commands.adventure"}
    assert "drunagor_log.checks" not in mods


def test_show_builds_only_its_own_command_module(example):
    mods = loaded(["-C", str(example), "show"])
    assert {m for m in mods if m.startswith("drunagor_log.cli.commands.")} == {"drunagor_log.cli.commands.campaign"}
    assert "drunagor_log.checks" not in mods


# Jinja2 (and MarkupSafe under it) is for `drunagor sheet` alone (issue 15).
@pytest.mark.parametrize("args", [
    ["--help"], ["show"], ["hero", "show", "Andreas"], ["check"], ["raid", "--dry-run", "--seed", "3"],
    ["adventure", "show"], ["chest", "show"], ["commander", "show"], ["odds"], ["list"], ["sheet", "--help"],
])
def test_no_other_command_imports_jinja2(args, example):
    mods = loaded(["-C", str(example), *args])
    assert not (top(mods) & {"jinja2", "markupsafe"}), args


def test_the_sheet_imports_jinja2_but_neither_tomlkit_nor_rich(example):
    mods = loaded(["-C", str(example), "sheet", "--out", "-"])
    assert "jinja2" in top(mods)  # the probe sees the import where it happens
    assert not (top(mods) & {"tomlkit", "rich"})
    assert {m for m in mods if m.startswith("drunagor_log.cli.commands.")} == {"drunagor_log.cli.commands.sheet"}

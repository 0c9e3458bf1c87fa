"""Import budget (SPEC section 7; like Typer's own test of Rich imports): the cheap commands do not
import what they do not use. Each runs in a fresh interpreter, started as the `drunagor` script
starts (drunagor_log.cli:main); the modules it loaded are listed."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO

PROBE = """
import json, sys
sys.argv = ["drunagor"] + json.loads(sys.argv[1])
from drunagor_log.cli import main
try:
    main()
except SystemExit:
    pass
import gc
frozen = ["frozen"] if gc.get_freeze_count() and gc.isenabled() else []
catalog = sys.modules.get("drunagor_log.catalog.facts")
heads = sys.modules.get("drunagor_log.catalog.headings")  # the sections of the printed citations (SPEC 11)
index = 1 if heads is not None and heads._table.cache_info().currsize else 0
data = ["catalog data"] if catalog is not None and catalog._load.cache_info().currsize > index else []
sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules) + data + frozen) + "\\n")
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


# The web server's libraries are for `drunagor serve` (and `play --serve`) alone (issue 36).
SERVER_LIBRARIES = {"uvicorn", "starlette", "sse_starlette", "watchfiles", "segno", "anyio", "h11"}


@pytest.mark.parametrize("args", [
    ["--help"], ["show"], ["check"], ["raid", "--dry-run", "--seed", "3"], ["adventure", "show"], ["odds"],
    ["sheet", "--out", "-"], ["serve", "--help"], ["play", "--help"],
])
def test_no_other_command_imports_the_web_server(args, example):
    mods = loaded(["-C", str(example), *args])
    assert not (top(mods) & SERVER_LIBRARIES), sorted(top(mods) & SERVER_LIBRARIES)
    assert not [m for m in mods if m.startswith("drunagor_log.serve")], args


def test_serve_imports_them(example):
    # the port is taken by the probe's own socket: serve stops with its message once it has loaded them
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        mods = loaded(["-C", str(example), "serve", "--port", str(taken.getsockname()[1])])
    assert {"uvicorn", "starlette", "sse_starlette"} <= top(mods)
    assert "drunagor_log.serve" in mods


# Modules of the package each hot command may import (issue 27: at most 1.2 x the Typer floor, where
# each module costs about 0.2 ms and the whole budget of a command is about 20 ms). Measured on
# campaigns/example; a new module on a hot path belongs where it is used, or raise its budget here with
# the figures of tests/benchmarks/latency.py beside it. Issue 33 split campaign.py in two (store/session.py,
# the files; campaign.py, the typed campaign), gave Click one door (cli/click.py) and the words one module
# (text.py, the plurals and quoting five modules copied, and the output rule's sanitizer of issue 32): three modules more on every path, the same code.
# It also moved the bodies of catalog/, model/ and checks/ out of their __init__.py (facts.py, campaign.py,
# registry.py): two modules more on every path (three for check), each package's __init__ now a list of
# re-exports costing 0.12-0.17 ms (python -X importtime, self time).
# Issue 35.7: a command that prints a rulebook citation imports catalog/headings.py (its section, SPEC 11):
# one module more for odds and the raid (latency.py --before 489cc21, 11 runs, long campaign: odds 60.0 ->
# 57.7 ms, raid --dry-run 61.2 -> 65.4 ms, raid 68.4 -> 67.6 ms: within this shared machine's noise).
# Issue 34.3 and 34.7: the raid and the battalion count the miniatures cards share (rules/miniatures.py) and ask
# the Siege Monsters' models (ops/models.py); check counts every card's copies (checks/copies.py): two modules
# more for the raid and for check, 0.08 ms each (python -X importtime, self time: 76-79 and 85-87 us).
# Issue 40.1: tomlkit behind one adapter (store/tomlkit_adapter.py), which store/tomlfile.py and store/edit.py
# import: one module more on every path, 0.17-0.19 ms (python -X importtime, self time, best of 5); tomlkit
# itself is still imported only by a command that edits a file.
# Issue 40.10 split ops/words.py where a reader looks (ops/typed.py reads what a player typed, ops/words.py
# writes the table's words): one module more for the raid, the same code (self time 143-164 us for typed,
# 139-183 us for words, python -X importtime, 3 runs).
# Issue 40.10 split store/journal.py into three (store/atomic.py writes one file, store/transaction.py a
# command's files, store/journal.py what a killed command left): two modules more on every path, the same
# code (self time 340-375 us for atomic, 200-220 us for transaction, 230 us for what stays in journal,
# python -X importtime, 3 runs).
HOT = [
    (["show"], 48), (["hero", "show", "Andreas"], 54), (["hero", "list"], 54), (["odds"], 49),
    (["raid", "--dry-run", "--seed", "3"], 56), (["check"], 63),
]


@pytest.mark.parametrize(("args", "budget"), HOT, ids=[" ".join(a) for a, _ in HOT])
def test_hot_commands_keep_to_their_module_budget(args, budget, example):
    mods = loaded(["-C", str(example), *args])
    ours = sorted(m for m in mods if m.startswith("drunagor_log"))
    assert len(ours) <= budget, f"{len(ours)} modules of the package, budget {budget}: {ours}"
    assert not [m for m in ours if m.startswith(("drunagor_log.interop", "drunagor_log.sheet", "drunagor_log.play",
                                                   "drunagor_log.git.history", "drunagor_log.store.merge"))]
    if args != ["check"]:
        assert not [m for m in ours if m.startswith("drunagor_log.checks")]


def test_hero_commands_do_not_load_the_table(example):
    # hero show printed nothing of the adventure, yet imported the whole table (ops.adventure, its
    # round, story, random) for one refusal's words
    for args in (["hero", "show", "Andreas"], ["hero", "list"]):
        mods = loaded(["-C", str(example), *args])
        assert not {"drunagor_log.ops.adventure", "drunagor_log.ops.round", "random"} & mods, args


def test_the_script_freezes_what_its_imports_made(example):
    # the collector is paused while the command line is imported and what the imports made is frozen
    # (drunagor_log/cli/__init__.py); the collector is on again when the process ends
    assert "frozen" in loaded(["-C", str(example), "show"])


def test_a_campaign_read_before_is_not_parsed_again(tmp_path, example):
    # the values of campaign files are remembered across runs (store.read.parse(cache=True)): the
    # second show finds every file parsed and never imports the TOML parser; a write leaves the values
    # of what it wrote, so the show after it does not parse either
    import shutil

    camp = tmp_path / "example"
    shutil.copytree(example, camp)
    assert "tomllib" in loaded(["-C", str(camp), "show"])
    assert "tomllib" not in loaded(["-C", str(camp), "show"])
    assert "tomllib" in loaded(["-C", str(camp), "party", "Dusk Watch"])
    assert "tomllib" not in loaded(["-C", str(camp), "show"])

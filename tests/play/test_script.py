"""`drunagor play` through a pipe: a script of table events prints, and writes, exactly what the same
one-shot commands print and write (the installed script, each run bounded in time and memory)."""

from __future__ import annotations

import os
import shlex
import shutil

import pytest

from tests.conftest import EXAMPLE, snapshot
from tests.play import runner

# Twenty table events on the example (chapter 05 under way, raid card face B, 4 monsters): writes (the
# end of a round among them), reads, --json, a refusal (an unknown monster) and a usage slip. Every draw
# is seeded.
EVENTS = [
    "odds",
    "raid --seed 1",
    "monster add Horde",
    "draw --seed 3",
    'monster add "Gremlin Horde" --count 2',
    "round end --draws 2 --seed 4",
    "raid --seed 5",
    "monster remove 2",
    "pile add --runes gray=2",
    "tiebreak 3",
    "cube Nyx trauma +1",
    "recall Andreas --capacity 5",
    "adventure undo",
    "draw --rune blue",
    'battalion "Gremlin Horde" "Fell Asteris" --near 1',
    "monster add Nobody",
    "raid --seed 9 --json",
    "odds --json",
    "raid --sed 2",
    "adventure show --json",
]


def _env() -> dict[str, str]:
    return {**os.environ, "NO_COLOR": "1"}


def _copy(tmp_path, name: str):
    root = tmp_path / name / "example"
    shutil.copytree(EXAMPLE, root)
    return root


def test_twenty_table_events_print_and_write_what_the_one_shot_commands_do(tmp_path):
    one_shot, session = _copy(tmp_path, "one-shot"), _copy(tmp_path, "session")
    out, err, codes = "", "", []
    for line in EVENTS:
        r = runner.drunagor("-C", str(one_shot), *shlex.split(line), env=_env(), cwd=tmp_path)
        out, err = out + r.stdout, err + r.stderr
        codes.append(r.returncode)
    assert codes.count(0) == 18 and codes[15] != 0 and codes[18] == 2  # the refusal and the slip
    r = runner.drunagor("-C", str(session), "play", env=_env(), cwd=tmp_path,
                         input="\n".join(EVENTS) + "\n")
    assert r.stdout == out
    assert "Try 'drunagor raid --help' for help." in err  # the slip's way to help: the session's own word
    assert r.stderr == err.replace("Try 'drunagor raid --help' for help.", "Try 'help raid' for help.")
    assert r.returncode == codes[15]  # the first line that failed
    assert (session / "adventure.toml").read_bytes() == (one_shot / "adventure.toml").read_bytes()
    assert snapshot(session) == snapshot(one_shot)


def test_a_line_the_session_refuses_names_its_line_and_the_script_goes_on(example):
    script = "\n".join(["# the table, round 3", "", 'monster add "Grem', "play", "monster add Horde", "exit",
                        "monster add Horde"]) + "\n"
    r = runner.drunagor("-C", str(example), "play", env=_env(), input=script)
    assert r.stdout == "Horde placed in slot 5 (dark red)\n"  # once: `exit` ends the script
    assert r.stderr == (
        'error: line 3: a quote is not closed: monster add "Grem; quote a name with spaces whole, '
        'e.g. monster add "Gremlin Horde"\n'
        "error: line 4: already in a table session: type the command without `play`\n")
    assert r.returncode == 2


def test_a_line_too_long_or_not_utf8_is_refused_whole(example):
    before = snapshot(example)
    script = b"monster add " + b"x" * 70_000 + b"\nmonster add \xff\nodds --json\n"
    r = runner.drunagor("-C", str(example), "play", env=_env(), input=script)
    assert r.stderr == ("error: line 1: longer than 65536 bytes; nothing of it was run\n"
                        "error: line 2: not UTF-8 text; nothing of it was run\n")
    assert r.stdout.startswith("{\n") and r.returncode == 2
    assert snapshot(example) == before


def test_a_command_in_a_script_never_reads_the_rest_of_the_script(example):
    r = runner.drunagor("-C", str(example), "play", env=_env(), input="import -\nodds\n")
    assert "Chance it summons: 2/7 (28.6%)" in r.stdout  # the line after `import -` still ran
    assert r.stderr.startswith("error: ")


def test_no_campaign_is_a_usage_slip_at_once(tmp_path):
    r = runner.drunagor("play", env=_env(), cwd=tmp_path, input="odds\n")
    assert r.returncode == 2
    assert r.stderr.startswith("error: no campaign here") and r.stdout == ""


@pytest.mark.parametrize("args", [["show"], ["odds"], ["raid", "--dry-run", "--seed", "3"], ["adventure", "show"],
                                  ["--help"], ["completion", "bash"], ["play", "--help"]])
def test_no_other_command_imports_prompt_toolkit(args, example):
    from tests.cli.test_import_budget import loaded, top

    assert "prompt_toolkit" not in top(loaded(["-C", str(example), *args])), args


def test_a_script_through_a_pipe_does_not_import_prompt_toolkit_either(example):
    import json
    import sys

    from tests.cli.test_import_budget import PROBE, top

    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "HOME": str(example),
           "XDG_CACHE_HOME": os.environ["XDG_CACHE_HOME"]}
    env.update({k: os.environ[k] for k in ("SYSTEMROOT",) if k in os.environ})  # Windows' Python needs it
    r = runner.run([sys.executable, "-c", PROBE, json.dumps(["-C", str(example), "play"])],
                    env=env, input="odds\n")
    assert "Chance it summons: 2/7 (28.6%)" in r.stdout
    [line] = [x for x in r.stderr.splitlines() if x.startswith("MODULES ")]
    mods = set(json.loads(line[len("MODULES "):]))
    assert "drunagor_log.play.dispatch" in mods
    assert "prompt_toolkit" not in top(mods)


def test_a_campaign_with_conflict_markers_stops_the_session_at_once(example):
    path = example / "heroes" / "nyx.toml"
    path.write_text(path.read_text() + "<<<<<<< HEAD\nplayer = \"Ana\"\n=======\nplayer = \"Bo\"\n>>>>>>> theirs\n")
    r = runner.drunagor("-C", str(example), "play", env=_env(), input="odds\n")
    assert (r.returncode, r.stdout) == (3, "")
    assert r.stderr.startswith("error: ") and "conflict-markers: unresolved git conflict markers" in r.stderr

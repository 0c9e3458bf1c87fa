"""`drunagor play` at a real terminal: the installed script in a pseudo-terminal, keys typed one line
at a time, the screen read back (tests/play/terminal.py; every read has a timeout)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.conftest import snapshot
from tests.play import runner

if sys.platform == "win32":  # pragma: no cover
    pytest.skip("pseudo-terminals are POSIX only", allow_module_level=True)

from tests.play.terminal import Session  # noqa: E402  (imports pty)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
    env.update({"TERM": "xterm-256color", **extra})
    return env


@pytest.fixture
def session(example):
    opened: list[Session] = []

    def start(**kw) -> Session:
        s = Session(example, env=_env(**kw.pop("env", {})), **kw)
        opened.append(s)
        s.expect("drunagor>")
        s.expect("board:")  # the toolbar of the first prompt
        return s

    yield start
    for s in opened:
        s.close()


def test_a_multi_word_name_completes_as_one_quoted_word(session, example):
    s = session()
    s.send("monster add Gre")
    s.settle()
    assert s.text.count("Gremlin Horde") == 2  # in the toolbar, and offered as you type
    s.send("\t")
    s.settle()
    s.line("")
    # one argument: two words would be "Got unexpected extra argument (Horde)"
    s.expect("Gremlin Horde placed in slot 5 (dark red)")
    assert '{ name = "Gremlin Horde", rank = "White", slot = 5 }' in (example / "adventure.toml").read_text()
    [history] = (Path(os.environ["XDG_CACHE_HOME"]) / "drunagor" / "history").iterdir()
    assert '+monster add "Gremlin Horde"\n' in history.read_text()  # the line as completion left it


def test_history_is_kept_per_campaign_outside_it_and_up_recalls_it(session, example):
    before = snapshot(example)
    s = session()
    s.line("odds")
    s.expect("Chance it summons: 2/7 (28.6%)")
    s.line("exit")
    assert s.wait() == 0
    again = session()
    again.send("\x1b[A")  # Up
    again.expect("odds")
    again.line("")
    again.expect("Chance it summons: 2/7 (28.6%)")
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "drunagor" / "history"
    [kept] = cache.iterdir()
    assert kept.name.startswith("example-") and "+odds\n" in kept.read_text()
    assert snapshot(example) == before  # nothing in the campaign folder


def test_the_toolbar_shows_the_table_and_follows_a_raid(session):
    s = session()
    shown = s.text
    assert "example: 05 Tempest Island" in shown
    assert "bag 7: \u25cfred 2 \u25cfblue 1 \u25cfgreen 1 \u25cforange 0 \u25cfgray 3" in shown
    assert "raid face B" in shown and "1: Fell Asteris  2: Tidehunter  3: Gremlin Horde  4: Tidehunter" in shown
    s.line("raid --seed 1")
    s.expect("the card now shows")
    s.expect("face A (seed 1)")
    s.expect("raid face A")  # the toolbar drawn under the next prompt
    s.line("cube Nyx trauma +1")
    s.expect("Nyx receives 1 Trauma Cube: 1 held, 1 can be held")
    s.expect("cubes:  Nyx trauma 1/1")  # one more defeats Nyx
    s.line("cube Nyx trauma +1")
    s.expect("the adventure fails")
    s.expect("LOST: ")
    s.expect("(Rulebook: Increasing")  # on the toolbar: the citation rendered whole, wrapped by words
    s.expect("Trauma Cube Limits, L1026)")
    assert "RB L1026" not in s.text  # short citation


def test_the_toolbar_is_plain_text_under_no_color(session):
    s = session(env={"NO_COLOR": "1"})
    assert "bag 7: red 2 blue 1 green 1 orange 0 gray 3" in s.text
    assert "\u25cf" not in s.text
    assert "\x1b[38;" not in s.raw.decode()  # no colour at all


def test_a_mistyped_line_prints_its_message_and_the_session_goes_on(session, example):
    before = snapshot(example)
    s = session()
    s.line('monster add "Grem')
    s.expect('error: a quote is not closed: monster add "Grem; quote a name with spaces whole')
    s.line("raid --sed 1")
    s.expect("Error: No such option: --sed")
    s.line("play")
    s.expect("error: already in a table session")
    s.line("odds")
    s.expect("Chance it summons: 2/7 (28.6%)")
    assert snapshot(example) == before
    assert "Traceback" not in s.text


def test_ctrl_c_drops_the_line_being_typed(session, example):
    before = (example / "adventure.toml").read_bytes()
    s = session()
    s.send("raid --seed 1")
    s.expect("raid --seed 1")
    s.send("\x03")
    s.settle()
    s.line("odds")
    s.expect("Chance it summons: 2/7 (28.6%)")
    assert (example / "adventure.toml").read_bytes() == before
    assert s.proc.poll() is None


def test_another_drunagor_writes_while_the_session_waits_and_the_next_command_sees_it(session, example):
    s = session()
    s.line("adventure show")
    s.expect("Last at the table:")
    s.settle()
    other = runner.drunagor("-C", str(example), "monster", "add", "Horde",
                             env=_env(NO_COLOR="1"))
    assert (other.returncode, other.stdout, other.stderr) == (0, "Horde placed in slot 5 (dark red)\n", "")
    s.expect("5: Horde")  # the toolbar follows while it waits
    s.line("monster remove 5")
    s.expect("Horde off the board; slot 5 (dark red) is free")
    s.line("adventure show")
    s.expect("monster: Horde off the board; slot 5 (dark red) is free")


def test_a_file_changed_by_another_program_is_read_by_the_next_command(session, example):
    s = session()
    s.line("odds")
    s.expect("Runes in the bag: 7 (")
    path = example / "adventure.toml"
    path.write_text(path.read_text().replace("bag = { red = 2,", "bag = { red = 5,"))
    s.line("odds")
    s.expect("Runes in the bag: 10 (")
    s.expect("bag 10:")


def test_ctrl_d_leaves(session):
    s = session()
    s.send("\x04")
    assert s.wait() == 0

"""The terminal at the table (issue 20): on a terminal, lines wrap at word boundaries to its width
with a hanging indent; NO_COLOR and piped output stay the plain text, byte for byte.

Each command runs in a real pseudo-terminal of 60, 80 and 120 columns (pty), as a player's laptop
runs it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from tests.conftest import EXAMPLE
from tests.helpers import on_a_pty

pty = pytest.importorskip("pty", reason="pseudo-terminals are POSIX only")
if sys.platform == "win32":  # pragma: no cover
    pytest.skip("pseudo-terminals are POSIX only", allow_module_level=True)

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
COMMANDS = [
    ("show",),
    ("raid", "--seed", "12", "--dry-run"),
    ("raid", "--seed", "7", "--dry-run"),
    ("adventure", "show"),
    ("odds",),
    ("hero", "show", "Vacrem"),
    ("chapter", "show"),
    ("camp", "--help"),
]


def _run_piped(args: list[str]) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS")}
    return subprocess.run([sys.executable, "-m", "drunagor_log", *args], capture_output=True, text=True,
                          env=env, check=False).stdout


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    dest = tmp_path_factory.mktemp("term") / "example"
    shutil.copytree(EXAMPLE, dest)
    return dest


@pytest.mark.parametrize("cols", [60, 80, 120])
@pytest.mark.parametrize("cmd", COMMANDS, ids=" ".join)
def test_every_line_fits_and_no_word_is_split(campaign, cmd, cols):
    args = ["-C", str(campaign), *cmd]
    plain = _run_piped(args)
    shown = ANSI.sub("", on_a_pty(args, cols))
    assert shown.strip(), "the command printed nothing on a terminal"
    for line in shown.splitlines():
        assert len(line) <= cols, f"{len(line)} > {cols} columns: {line!r}"
    if cmd == ("adventure", "show"):  # on a terminal the log comes last, in the rows left, a row each (issue 42.20)
        plain, shown = plain.split("Last at the table:")[0], shown.split("Last at the table:")[0]
    tokens = set(shown.replace("\u25cf", "").split())
    box = set("│┃━─╇┼┡┩┏┓┗┛")
    # On a terminal `adventure show` draws the 12-slot status board instead of the plain table's headings.
    plain_only = {"Slot", "Base", "Monster", "Rank"} if cmd == ("adventure", "show") else set()
    for word in plain.split():
        if set(word) & box or word in plain_only:
            continue
        assert word in tokens or word.strip("()[],;:.") in {t.strip("()[],;:.") for t in tokens}, (
            f"{word!r} is split or missing at {cols} columns:\n{shown}")


@pytest.mark.parametrize("cmd", COMMANDS[:5], ids=" ".join)
def test_no_color_on_a_terminal_is_the_plain_text_wrapped_between_words(campaign, cmd):
    # issue 35.3: wrapped at the terminal's width as the colour output is (the terminal broke words)
    args = ["-C", str(campaign), *cmd]
    plain = _run_piped(args)
    if cmd == ("adventure", "show"):  # on a terminal the log comes last, in the rows left, a row each (issue 42.20)
        plain = plain.split("Last at the table:")[0]
    for shown in (on_a_pty(args, 80, {"NO_COLOR": "1"}), on_a_pty(["--no-color", *args], 80)):
        if cmd == ("adventure", "show"):
            shown = shown.split("Last at the table:")[0]
        assert shown.split() == plain.split() and "\x1b" not in shown
        assert max(len(line) for line in shown.splitlines()) <= 80


def test_adventure_show_draws_all_twelve_slots_on_a_terminal(campaign):
    text = ANSI.sub("", on_a_pty(["-C", str(campaign), "adventure", "show"], 80))
    board = text[text.index("Monsters on the board"):text.index("At the end of round")]  # the round's line next
    assert " 1 \u25a0 yellow     Fell Asteris (Gray)" in board
    assert "12 \u25a0 brown      -" in board
    assert len([line for line in board.splitlines()[1:] if line.strip()]) == 6  # two boards of six


def test_colour_terminal_marks_each_rune_and_wraps_steps_under_their_text(campaign):
    out = on_a_pty(["-C", str(campaign), "raid", "--seed", "12", "--dry-run"], 60)
    assert "\x1b[" in out  # colour on a terminal
    text = ANSI.sub("", out)
    assert "\u25cfgray" in text  # the mark beside the word: a colour-blind player reads the word
    lines = text.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("   Manifested"))
    assert lines[i + 1].startswith("   ") and not lines[i + 1].startswith("    ")  # hangs under the step's text


def test_check_wraps_at_word_boundaries_like_every_other_command(tmp_path):
    root = tmp_path / "example"
    shutil.copytree(EXAMPLE, root)
    nyx = root / "heroes" / "nyx.toml"
    nyx.write_text(nyx.read_text().replace('joined = "01"', 'joined = "06"'))
    args = ["-C", str(root), "check"]
    plain = _run_piped(args)
    assert "drunagor hero gain Nyx ITEM (warning)" in plain
    shown = ANSI.sub("", on_a_pty(args, 80))
    for line in shown.splitlines():
        assert len(line) <= 80, f"{len(line)} > 80 columns: {line!r}"
    tokens = set(shown.split())
    for word in plain.split():
        assert word in tokens, f"{word!r} is split at 80 columns:\n{shown}"
    assert on_a_pty(args, 80, {"NO_COLOR": "1"}).split() == plain.split()  # wrapped too, between words

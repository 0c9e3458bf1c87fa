"""Plain output wraps too (issue 35.3): under NO_COLOR on a terminal, lines wrap at the terminal's width
between words with their hanging indent, as the colour output does (the terminal broke them mid-word);
piped, they stay whole."""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.helpers import on_a_pty
from tests.play.runner import script

pytestmark = pytest.mark.posix


def on_terminal(args: list[str], cols: int) -> list[str]:
    return on_a_pty(args, cols, {"NO_COLOR": "1"}).replace("\r", "").splitlines()


def test_plain_lines_wrap_between_words_with_their_hanging_indent(example):
    lines = on_terminal(["-C", str(example), "adventure", "show"], 50)
    assert max(len(line) for line in lines) <= 50
    assert lines[1:3] == ["Rune bag: 7 runes (red 2, blue 1, green 1, orange", "0, gray 3)"]
    # the table events come last, one row each, cut with … (issue 42.20): the board stays on the screen
    assert "  raid: 2 Tidehunter placed (slots 2, 4) by rune…" in lines


def test_piped_output_stays_unwrapped(example):
    piped = subprocess.run([script(), "-C", str(example), "adventure", "show"], capture_output=True, text=True,
                           env={**os.environ, "NO_COLOR": "1", "COLUMNS": "50"}, timeout=60)
    assert "Rune bag: 7 runes (red 2, blue 1, green 1, orange 0, gray 3)\n" in piped.stdout

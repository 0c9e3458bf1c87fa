"""The table session as a 24x80 terminal shows it (issue 35.2), the screen kept by pyte: the toolbar's
rows at the bottom (at most 3 at 80 columns), a line's output above the next prompt, and `import -`
saying how the token it reads from the keyboard ends."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("pyte")

from tests.benchmarks.session_screen import PROMPT, Screen  # noqa: E402
from tests.play.runner import script  # noqa: E402

pytestmark = pytest.mark.posix
TOOLBAR = ["example: 05 Tempest Island  round 1",
           "bag 7: red 2 blue 1 green 1 orange 0 gray 3  raid face B",
           "board:  1: Fell Asteris  2: Tidehunter  3: Gremlin Horde  4: Tidehunter"]


@pytest.fixture
def screen(example):
    s = Screen(script(), example, env={"NO_COLOR": "1", "XDG_CACHE_HOME": os.environ["XDG_CACHE_HOME"]})
    yield s
    s.close()


def rows(s: Screen) -> list[str]:
    return [line.rstrip() for line in s.screen.display]


def test_the_toolbar_fits_80_columns_in_at_most_3_rows_under_the_prompt(screen):
    shown = rows(screen)
    assert shown[0] == PROMPT.rstrip()
    assert shown[-3:] == TOOLBAR
    assert shown[1:-3] == [""] * 20


def test_a_line_prints_above_the_next_prompt_and_the_toolbar_stays(screen, run, example):
    expected = run("-C", str(example), "odds").stdout.splitlines()
    screen.enter("odds")
    shown = rows(screen)
    at = screen.screen.cursor.y
    assert shown[at] == PROMPT.rstrip()
    # (a line longer than the screen is wrapped by the terminal: compared without the breaks)
    assert "".join(shown[:at]).replace(" ", "").endswith("".join(expected).replace(" ", ""))
    assert shown[-3:] == TOOLBAR and shown[at + 1:-3] == [""] * (20 - at)  # the screen's rows not yet used


def test_a_long_output_leaves_no_blank_row_between_the_prompt_and_the_toolbar(screen, run, example):
    screen.enter("adventure show")  # longer than the screen: it scrolls up to the prompt
    shown = rows(screen)
    at = screen.screen.cursor.y
    assert shown[at] == PROMPT.rstrip() and at == 20  # prompt_toolkit kept 8 rows (7 blank) unless told
    assert shown[-3:] == TOOLBAR
    expected = run("-C", str(example), "adventure", "show").stdout.splitlines()
    # on the screen the table events come last, one row each, cut with … (issue 42.20); piped, whole
    last = shown[at - 1]
    assert last == expected[-1] or (last.endswith("\u2026") and expected[-1].startswith(last[:-1].rstrip())), last


def test_import_from_the_keyboard_says_how_to_end_it(screen):
    os.write(screen.master, b"import -\r")
    screen.pump(1.0)
    for _ in range(40):
        if any("reading the token from the keyboard" in line for line in rows(screen)):
            break
        screen.pump(0.1)
    assert "import -: reading the token from the keyboard; paste it, then Ctrl-D" in rows(screen)
    os.write(screen.master, b"\x04")
    screen.wait_ready(20.0)

"""Every text the table session draws goes through the output rule, as every printed line does (issue
40, item 4): a monster named with a bidi override (U+202E) in adventure.toml shows as <U+202E> in the
toolbar and in the completion menu, never as the override itself. The session runs in a 24x80
pseudo-terminal, its screen kept by pyte."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("pyte")

from tests.benchmarks.session_screen import Screen  # noqa: E402
from tests.play.runner import script  # noqa: E402

pytestmark = [pytest.mark.posix, pytest.mark.slow]  # a pty and the installed script


@pytest.fixture
def screen(example):
    adventure = example / "adventure.toml"
    adventure.write_text(adventure.read_text().replace("Fell Asteris", "Fell\u202eAsteris"))
    s = Screen(script(), example, env={"NO_COLOR": "1", "XDG_CACHE_HOME": os.environ["XDG_CACHE_HOME"]})
    yield s
    s.close()


def rows(s: Screen) -> list[str]:
    return [line.rstrip() for line in s.screen.display]


def test_the_toolbar_shows_a_bidi_override_as_the_output_rule_writes_it(screen, run, example):
    shown = rows(screen)
    assert shown[-1] == "board:  1: Fell<U+202E>Asteris  2: Tidehunter  3: Gremlin Horde  4: Tidehunter"
    assert "Fell<U+202E>Asteris  Gray" in run("-C", str(example), "adventure", "show").stdout  # the same rule
    assert not any("\u202e" in line for line in screen.screen.display)


def test_the_completion_menu_never_draws_it(screen):
    """A name holding a bidi override is not offered as a candidate (issue 41.6: a unique prefix still
    reaches it), and nothing of it reaches the screen raw."""
    os.write(screen.master, b"monster remove \t")
    for _ in range(30):
        screen.pump(0.1)
        if any("Tidehunter" in line for line in rows(screen)[1:-3]):
            break
    menu = rows(screen)[1:-3]
    assert any("Tidehunter" in line for line in menu), rows(screen)  # the menu is up
    assert not any("Fell" in line for line in menu), rows(screen)
    assert not any("\u202e" in line for line in screen.screen.display)


def test_the_line_typed_shows_it_so_and_keeps_the_character_itself(screen, example):
    """A name with the override typed (or inserted by the completion) shows as <U+202E> on the prompt's
    line; the line run is the name itself: the monster is removed."""
    os.write(screen.master, "monster remove Fell\u202eAst".encode())
    for _ in range(50):
        screen.pump(0.1)
        if "Fell<U+202E>Ast" in rows(screen)[0]:
            break
    assert rows(screen)[0] == "drunagor> monster remove Fell<U+202E>Ast"
    assert screen.screen.cursor.x == len("drunagor> monster remove Fell<U+202E>Ast")
    assert not any("\u202e" in line for line in screen.screen.display)
    os.write(screen.master, b"\r")
    screen.wait_ready(20.0)
    assert "Fell" not in (example / "adventure.toml").read_text().split("log = [")[0]

"""Completion candidates with invisible characters (issue 41.6; docs/errors.md "The output rule"): a name
holding a control, bidi or format character, a separator or a byte that was not UTF-8 is not handed to
the shell as a candidate (the shell would draw it raw); the other names still are, and a unique prefix
typed still reaches the hidden one. In process: the one asker the shell's request and `play` share."""

from __future__ import annotations

import re
import shutil

import pytest
import typer.main

from drunagor_log.cli import completion
from drunagor_log.cli.app import build_app
from tests.attack import hostile
from tests.conftest import EXAMPLE

# One name per character class the shell would draw raw.
BIDI, SEPARATOR, ZERO_WIDTH, ESC = "Vorn\u202eX", "Maya\u2028Y", "Ash\u200bZ", "Ode\x1b]0;T\x07"


@pytest.fixture
def campaign(tmp_path, monkeypatch):
    root = tmp_path / "campaigns" / "ex"
    shutil.copytree(EXAMPLE, root)
    story = root / "story.toml"
    text = story.read_text(encoding="utf-8")
    text = re.sub(r"^followers = \[.*\]", lambda m: f'followers = ["Vorn the Warrior", {hostile.toml(BIDI)}, '
                  f'{hostile.toml(SEPARATOR)}]', text, count=1, flags=re.M)
    text = re.sub(r"^statuses = \[.*\]", lambda m: f'statuses = ["Imminent Danger", {hostile.toml(ZERO_WIDTH)}]',
                  text, count=1, flags=re.M)
    text = re.sub(r"^stash = \[\]", lambda m: f"stash = [{hostile.toml(ESC)}, \"Potion of Healing\"]", text,
                  count=1, flags=re.M)
    story.write_text(text, encoding="utf-8")
    nyx = root / "heroes" / "nyx.toml"
    nyx.write_text(nyx.read_text(encoding="utf-8").replace('name = "Nyx"', f"name = {hostile.toml('Nyx' + chr(0x202E))}"),
                   encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return root


def asked(root, *words: str, incomplete: str = "") -> list[str]:
    cmd = typer.main.get_command(build_app())
    return [value for value, _ in completion.ask(cmd, ["-C", str(root), *words], incomplete)]


@pytest.mark.parametrize("words, offered, hidden", [
    (("follower", "remove"), ["Vorn the Warrior"], [BIDI, SEPARATOR]),
    (("status", "remove"), ["Imminent Danger"], [ZERO_WIDTH]),
    (("stash", "remove"), ["Potion of Healing"], [ESC]),
    (("hero", "show"), ["Andreas", "Catharina", "Vacrem"], ["Nyx\u202e"]),
])
def test_a_name_a_shell_would_draw_raw_is_not_offered(campaign, words, offered, hidden):
    values = asked(campaign, *words)
    assert set(offered) <= set(values), values
    assert not set(hidden) & set(values)
    assert all(completion.shown_as_is(v) for v in values)


def test_the_hidden_name_is_still_reached_by_its_prefix(campaign):
    from typer.testing import CliRunner

    from drunagor_log.cli.app import app

    r = CliRunner().invoke(app, ["-C", str(campaign), "hero", "show", "Ny"])
    assert r.exit_code == 0, r.stderr
    assert "Nyx<U+202E>" in r.stdout


@pytest.mark.parametrize("name, shown", [("Nyx", True), ("Łucja ☃", True), ("a\u202eb", False), ("x\u2028", False),
                                         ("z\u200b", False), ("\udcff", False), ("a\tb", False), ("a\nb", False),
                                         ("\x9b2J", False), ("e\u0301", True)])
def test_shown_as_is(name, shown):
    assert completion.shown_as_is(name) is shown

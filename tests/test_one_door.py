"""One door for a hero a player names and one for a word's article (issue 40 item 8, issue 42 item 14):
`Campaign.hero` and `text.a`, used everywhere ("Nyx is an Assassin", never "a Assassin")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from drunagor_log.text import a, article

PACKAGE = Path(__file__).resolve().parent.parent / "drunagor_log"


@pytest.mark.parametrize(("word", "said"), [
    ("Assassin", "an Assassin"), ("Mage", "a Mage"), ("Elementalist", "an Elementalist"),
    ("orange", "an orange"), ("Uncommon Potion", "an Uncommon Potion"), ("Outcome", "an Outcome"),
    ("unique card", "a unique card"), ("one-handed", "a one-handed"), ("hour", "an hour"),
    ("1st", "a 1st"), ("2nd", "a 2nd"), ("8th", "an 8th"), ("11th", "an 11th"), ("18th", "an 18th"),
    ("21st", "a 21st"), ("80th", "an 80th"), ("111th", "a 111th"), ("hero", "a hero"), ("", "a "),
])
def test_the_article_as_it_is_said(word, said):
    assert a(word) == said and article(word) == said.split(" ")[0]


def _calls(name: str) -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                f = node.func
                called = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
                if called == name:
                    found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    return found


def test_every_hero_a_player_names_comes_through_campaign_hero():
    """find_hero and active_hero are kept for callers written before the door, and called by none."""
    assert _calls("find_hero") == [] and _calls("active_hero") == []
    assert len(_calls("hero")) >= 20


def _lead(side: ast.expr) -> str | None:
    """The text an expression starts with: a constant's, or an f-string's first piece."""
    if isinstance(side, ast.Constant) and isinstance(side.value, str):
        return side.value
    if isinstance(side, ast.JoinedStr) and side.values and isinstance(side.values[0], ast.Constant):
        return str(side.values[0].value)
    return None


def test_no_module_but_text_picks_an_article_itself():
    """No `"an" if ... else "a"` (nor `f"an {w}" if ... else f"a {w}"`) anywhere but text.article."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "text.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.IfExp):
                words = {(_lead(side) or "").split(" ")[0] for side in (node.body, node.orelse)}
                if words == {"a", "an"}:
                    found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert found == []


def test_a_class_slip_says_an_assassin(example, run):
    r = run("-C", str(example), "hero", "add", "Nyx", "--role", "Striker", "--class", "Mage")
    assert r.exit_code == 1
    assert r.stderr == ("error: hero-class: Nyx is an Assassin (or a Swordmage with Hero Pack #1), not a Mage "
                        "(Rulebook: Hero Limitations, L947-949); leave out --class, or use --class Swordmage\n")


@pytest.mark.parametrize("args", [("cube", "Vacrem", "trauma", "+1"), ("hero", "gain", "Vacrem", "Buckler"),
                                  ("spoils", "upgrade", "Vacrem", "Buckler", "--reward")])
def test_a_hero_who_left_is_refused_alike_by_every_command_that_acts_for_one(example, run, args):
    from tests.conftest import snapshot

    assert run("-C", str(example), "hero", "remove", "Vacrem").exit_code == 0
    before = snapshot(example)
    r = run("-C", str(example), *args)
    assert (r.exit_code, r.stdout) == (1, "")
    assert r.stderr == ("error: campaigns/example/heroes/vacrem.toml:14: retired: Vacrem has left the party (before "
                        "chapter 05); choose an active hero, or bring Vacrem back: drunagor hero return Vacrem\n")
    assert snapshot(example) == before

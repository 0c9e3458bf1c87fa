"""The rulebook's worked examples through the command line, where no other CLI test runs them
(the rest: tests/cli/test_raid.py for RB L283-315 and L1319, test_chest.py for RB L363, L417-423,
test_heroes.py for RB L1005-1016 and L1034-1040, test_losing.py for RB L1026-1032)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import snapshot
from tests.helpers import ok


@pytest.fixture
def fresh(run, tmp_path):
    ok(run("new", "sgc"))
    return tmp_path / "campaigns" / "sgc"


def test_rb_l359_eight_common_potions_is_no_grid(run, fresh):
    """RB L359: "It cannot be changed to 8 Common Potions and 0 Common Scrolls"."""
    ok(run("chest", "add", "Potion of Healing", "--copies", "4", "--rarity", "common"))
    before = snapshot(fresh)
    r = run("chest", "add", "Potion of Fortitude", "--copies", "4", "--rarity", "common")
    assert r.exit_code == 1
    assert "8 Common Potions: the grid holds 4 (Rulebook: Preparing the Chest Deck, L357-359)" in r.stderr
    assert snapshot(fresh) == before


def test_rb_l365_two_incinerate_and_two_beguile_are_the_four_common_scrolls(run, fresh):
    """RB L365: "you can keep 2 Scroll of Incinerate and 2 Scroll of Beguile cards in the Chest deck, as
    that would still respect the limitation of 4 Common Scrolls"."""
    ok(run("chest", "add", "Scroll of Incinerate", "--copies", "2"))
    ok(run("chest", "add", "Scroll of Beguile", "--copies", "2"))
    deck = json.loads(ok(run("chest", "show", "--json")).stdout)
    assert deck["grid"]["scroll"]["common"] == {"count": 4, "target": 4} and deck["problems"] == []
    assert ok(run("check", "--json")).stdout == '{\n  "errors": [],\n  "warnings": []\n}\n'
    r = run("chest", "add", "Scroll of Protection")  # a fifth Common Scroll is one too many
    assert r.exit_code == 1 and "5 Common Scrolls: the grid holds 4" in r.stderr


@pytest.mark.parametrize("n, key, value, rule", [
    ("5", "tie_breaker_runes", 1, "(Rulebook: Chapter 05 › Special Mechanics – Tie Breaker, L1197): 6 minus the number of Heroes"),
    ("7", "camaraderie_followers", 0, "(Rulebook: Special Preparation – Camaraderie, L1247): 5 minus the number of Heroes"),
    ("9", "boss_health", 200, "(Rulebook: Boss Fight Preparation – Awakened King, L1299): 40 Health per Hero"),
    ("5", "raid_party", 3, "(Rulebook: Dreadful Raid, L308): 5 Heroes, 3 Minions"),
])
def test_a_party_of_five_heroes(run, fresh, n, key, value, rule):
    """RB L943: five heroes with extra-hero content; each briefing's numbers for five."""
    assert json.loads(ok(run("chapter", "show", n, "--heroes", "5", "--json")).stdout)[key] == value, rule


def test_rb_l1319_two_monsters_not_summoned_make_four_activations(run, fresh):
    """RB L1319: "if two Monsters could not be summoned, your party must Activate a Monster four times"."""
    r = ok(run("battalion", "Gremlin Horde", "Gremlin Horde", "Fell Asteris", "--monsters", "11", "--json"))
    data = json.loads(r.stdout)
    assert (data["placed"], data["not_placed"], data["activations"]) == (
        ["Gremlin Horde"], ["Gremlin Horde", "Fell Asteris"], 4)
    assert not (fresh / "adventure.toml").exists()  # from flags: nothing written (SPEC 4)

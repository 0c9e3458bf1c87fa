"""The last table corners (SPEC 10): `stash show`, a hero already in a full party, a string left open in
a campaign file. Each case with its exact output, exit code, and the files unchanged where nothing should
change."""

from __future__ import annotations

import json

from tests.conftest import snapshot


def test_stash_show_lists_the_party_stash(run, example):
    r = run("stash", "show")
    assert (r.exit_code, r.stderr) == (0, "")
    assert r.stdout == "Party stash: empty (a hero who leaves puts their Consumable Items here, Rulebook: Removing a Hero, L972-974)\n"
    assert json.loads(run("stash", "show", "--json").stdout) == {"stash": []}
    for card in ("Potion of Healing", "Potion of Healing", "Scroll of Beguile"):
        assert run("stash", "add", card).exit_code == 0
    before = snapshot(example)
    r = run("stash", "show")
    assert r.stdout == ("Party stash (3): Potion of Healing x2, Scroll of Beguile\n"
                        "hand one out with: drunagor hero give stash HERO ITEM\n")
    assert json.loads(run("stash", "show", "--json").stdout) == {
        "stash": ["Potion of Healing", "Potion of Healing", "Scroll of Beguile"]}
    assert snapshot(example) == before


def test_a_hero_already_in_a_full_party_is_said_to_be_in_it(run, example):
    before = snapshot(example)
    r = run("hero", "add", "Nyx", "--role", "Leader")
    assert (r.exit_code, r.stdout) == (1, "")
    assert r.stderr == ("error: hero-file: Nyx is already in the party (Campaign Log "
                        "campaigns/example/heroes/nyx.toml); choose another name\n")
    assert snapshot(example) == before


def test_a_string_left_open_says_so(run, example):
    story = example / "story.toml"
    story.write_text(story.read_text().replace('party = "Safeguard Corporation"', 'party = "Safeguard Corporation'))
    before = snapshot(example)
    r = run("show")
    assert (r.exit_code, r.stdout) == (3, "")
    assert r.stderr == ("error: campaigns/example/story.toml:3: toml-syntax: not valid TOML: a string is not closed: "
                        "its quote has no closing quote before the end of the line; close it with the quote that "
                        "opened it (\" or '), on the same line\n")
    assert snapshot(example) == before


def test_too_many_monsters_name_only_the_slots_the_board_holds(run, example):
    before = snapshot(example)
    r = run("monster", "add", "Tidehunter", "--count", "3")
    assert (r.exit_code, r.stdout) == (1, "")
    assert r.stderr == ("error: campaigns/example/adventure.toml: models (Rulebook: Dreadful Raid, L311): room for only 2 of the 3 "
                        "Tidehunter: then all 4 models of Tidehunter are on the board; place 2 (--count 2), or remove "
                        "a defeated one first: drunagor monster remove SLOT (Tidehunter holds slots 2, 4)\n")
    assert snapshot(example) == before


def test_a_pile_named_near_is_echoed_as_the_pile(run, example):
    for typed in ("pile-1", "Pile 1", "1", "PILE_1"):
        r = run("battalion", "Gremlin Horde", "--near", typed, "--dry-run")
        assert r.stdout.splitlines()[0] == "Monster Battalion: 1 monster NEAR Pile 1", typed
        data = json.loads(run("battalion", "Gremlin Horde", "--near", typed, "--dry-run", "--json").stdout)
        assert data["near"] == "Pile 1"

"""House rules (SPEC 10: `rules show|set`; RB L941-943, L1018-1032): the [rules] table of story.toml by
command, each refusal where the campaign contradicts the change with its exit code and nothing written."""

from __future__ import annotations

import json

import pytest

from tests.conftest import snapshot


def test_show_names_the_difficulty_of_the_rulebook(run, camp):
    r = run("rules", "show")
    assert (r.exit_code, r.stderr) == (0, "")
    assert r.stdout == (
        "Difficulty: normal: each hero holds 1 Trauma Cube, the second defeats them (Rulebook: Increasing Trauma Cube Limits, L1026)\n"
        "Trauma Cube limit: 1\n"
        "Heroes: at most 4 (four as a rule; five only with extra-hero content such as Spoils of War or Hero Pack "
        "#1, Rulebook: Hero Limitations, L941-943)\n"
        "Rune bag: red 7, blue 8, green 7, orange 7, gray 7 (36 runes)\n")
    assert json.loads(run("rules", "show", "--json").stdout) == {
        "difficulty": "normal", "trauma_limit": 1, "max_heroes": 4,
        "rune_bag": {"red": 7, "blue": 8, "green": 7, "orange": 7, "gray": 7}}


def test_a_limit_of_the_partys_own_has_no_difficulty_name(run, camp):
    story = camp / "story.toml"
    story.write_text(story.read_text().replace("trauma_limit = 1", "trauma_limit = 3").replace(
        "rune_bag = { red = 7, blue = 8, green = 7, orange = 7, gray = 7 }\n", ""))
    data = json.loads(run("rules", "show", "--json").stdout)
    assert (data["difficulty"], data["trauma_limit"]) == (None, 3)
    text = run("rules", "show").stdout
    assert "Difficulty: a house rule of the party's own: each hero holds 3 Trauma Cubes" in text
    assert "Rune bag: red 7, blue 8, green 7, orange 7, gray 7 (36 runes; drunagor's default, community data)" in text


def test_set_writes_the_rules_in_place(run, camp):
    r = run("rules", "set", "--difficulty", "easy", "--max-heroes", "5", "--rune-bag", "gray=8, red=6")
    assert (r.exit_code, r.stderr) == (0, "")
    assert r.stdout == "house rules: Trauma Cube limit 2 (easy); at most 5 heroes; rune bag red 6, blue 8, green 7, " \
                       "orange 7, gray 8\n"
    text = (camp / "story.toml").read_text()
    assert text.endswith("[rules]\ntrauma_limit = 2\nmax_heroes = 5\n"
                         "rune_bag = { red = 6, blue = 8, green = 7, orange = 7, gray = 8 }\n")
    assert "# a comment the user wrote" in text
    assert json.loads(run("rules", "show", "--json").stdout)["difficulty"] == "easy"
    assert run("rules", "set", "--difficulty", "hard").exit_code == 0
    assert "trauma_limit = 0\n" in (camp / "story.toml").read_text()


def test_set_keeps_the_comment_of_the_line(run, example):
    assert run("rules", "set", "--trauma-limit", "2").exit_code == 0
    assert run("adventure", "end", "--lost").exit_code == 0
    assert run("rules", "set", "--rune-bag", "gray=8").exit_code == 0
    text = (example / "story.toml").read_text()
    assert "trauma_limit = 2\n" in text
    assert "rune_bag = { red = 7, blue = 8, green = 7, orange = 7, gray = 8 }   # community data\n" in text


@pytest.mark.parametrize("args, message", [
    (("--difficulty", "medium"), "no difficulty called 'medium'; known: easy, hard, normal"),
    (("--difficulty", "easy", "--trauma-limit", "1"),
     "rules: --difficulty easy is a Trauma Cube limit of 2, and --trauma-limit says 1; give one of them"),
    (("--trauma-limit", "10"), "rules: --trauma-limit must be from 0 to 9, not 10; 1 as a rule; 2 Taking It Easy; "
                               "0 harder (Rulebook: Increasing Trauma Cube Limits, L1026-1032)"),
    (("--max-heroes", "3"), "rules: --max-heroes must be 4 or 5, not 3; 4 heroes; 5 only with extra-hero content "
                            "(Rulebook: Hero Limitations, L941-943)"),
    (("--rune-bag", "red"), "rules: --rune-bag 'red' is not COLOUR=N; write the runes of each colour, e.g. "
                            "--rune-bag red=7,blue=8"),
    (("--rune-bag", "red=99"), "rules: --rune-bag red=99: a bag holds at most 20 runes of a colour; count the runes "
                               "of that colour in your bag"),
    (("--rune-bag", "purple=3"), "no rune colour called 'purple'; known: blue, gray, green, orange, red"),
    ((), "rules: nothing to change; give --difficulty, --trauma-limit, --max-heroes or --rune-bag (drunagor rules "
         "show prints the rules now)"),
])
def test_usage_slips_exit_2_and_write_nothing(run, camp, args, message):
    before = snapshot(camp)
    r = run("rules", "set", *args)
    assert (r.exit_code, r.stderr, r.stdout) == (2, f"error: {message}\n", "")
    assert snapshot(camp) == before


def test_four_heroes_at_most_is_refused_with_five_in_the_party(run, example):
    assert run("adventure", "end", "--won").exit_code == 0
    assert run("rules", "set", "--max-heroes", "5").exit_code == 0
    assert run("hero", "add", "Kellan", "--role", "Leader", "--class", "Paladin").exit_code == 0
    before = snapshot(example)
    r = run("rules", "set", "--max-heroes", "4")
    assert r.exit_code == 1
    assert r.stderr == ("error: campaigns/example/story.toml:22: rules: the party has 5 heroes (Andreas, Catharina, "
                        "Kellan, Nyx, Vacrem), more than 4 (Rulebook: Hero Limitations, L943); a hero must leave first (drunagor hero remove "
                        "NAME)\n")
    assert snapshot(example) == before
    assert run("hero", "remove", "Kellan").exit_code == 0
    assert run("rules", "set", "--max-heroes", "4").exit_code == 0


def test_the_adventure_under_way_keeps_its_bag_and_its_cubes(run, example):
    before = snapshot(example)
    r = run("rules", "set", "--rune-bag", "gray=8")
    assert r.exit_code == 1
    assert r.stderr == ("error: campaigns/example/adventure.toml: rules: the adventure of chapter 05 is played with "
                        "red 7, blue 8, green 7, orange 7, gray 7 (bag, Initiative Track and Piles of Runes); change "
                        "the bag between adventures (end the adventure first)\n")
    assert snapshot(example) == before
    # a bag written wrong in story.toml is corrected to the one the adventure holds
    assert run("rules", "set", "--rune-bag", "red=7").exit_code == 0
    assert run("cube", "Nyx", "trauma", "+1").exit_code == 0
    before = snapshot(example)
    r = run("rules", "set", "--difficulty", "hard")
    assert r.exit_code == 1
    assert r.stderr == ("error: campaigns/example/adventure.toml: rules: Nyx holds 1 Trauma Cube in the adventure of "
                        "chapter 05: a limit of 0 would have defeated them; change it between adventures (end the "
                        "adventure first)\n")
    assert snapshot(example) == before
    assert run("rules", "set", "--difficulty", "easy").exit_code == 0


def test_a_full_party_names_the_command_that_allows_five(run, example):
    r = run("hero", "add", "Kellan", "--role", "Leader", "--class", "Paladin")
    assert r.exit_code == 1
    assert r.stderr.endswith("or, with extra-hero content such as Spoils of War or Hero Pack #1, allow five: "
                             "drunagor rules set --max-heroes 5\n")


def test_a_failed_attempt_names_the_command_of_taking_it_easy(run, camp):
    r = run("chapter", "fail", "01")
    assert r.exit_code == 0
    assert ("Replaying? The rulebook suggests Taking It Easy, one more Trauma Cube per hero (Rulebook: Taking It Easy, L1022-1028): "
            "drunagor rules set --difficulty easy.") in r.stdout

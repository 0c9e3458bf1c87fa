"""The names cases of issue 24 (item 7), on the example campaign: one resolver, one exit code for an
unknown name of the game (1; a usage slip is 2), the did-you-mean by a name's beginning, and the
near-miss rule of SPEC 10 (a fact flag says a name is new, except for a near miss: "did you mean"
unless --new)."""

from __future__ import annotations

import tomllib

import pytest

from tests.conftest import snapshot


def test_a_follower_by_its_first_letters_gets_did_you_mean(example, run):
    before = snapshot(example)
    r = run("follower", "add", "Mya")
    assert r.exit_code == 1
    assert r.stderr == ("error: no Follower called 'Mya'; did you mean 'Maya the Ranger'? (if it is a Follower "
                        "drunagor does not know, add --new to record it)\n")
    assert snapshot(example) == before
    r = run("outcome", "add", "watchr")
    assert r.stderr.startswith("error: no Outcome called 'watchr'; did you mean 'Watcher'?")


@pytest.mark.parametrize(("args", "message"), [
    (("hero", "show", "Nyxx"), "error: no hero called 'Nyxx'; did you mean 'Nyx'?\n"),
    (("cube", "Nix", "trauma", "+1"), "error: no hero called 'Nix'; did you mean 'Nyx'?\n"),
    (("hero", "learn", "Nyx", "Melee 2", "--tree", "meele", "--level", "2"),
     "error: no skill tree called 'meele'; did you mean 'melee'?\n"),
    (("draw", "--rune", "rde"), "error: no rune colour called 'rde'; did you mean 'red'?\n"),
    (("monster", "add", "Tidehuntr"),
     "error: no monster called 'Tidehuntr'; did you mean 'Tidehunter'? (if it is a monster drunagor does not know, "
     "give its rank once with --rank (Overlord, Commander, Black, Gray, White, Scenario, Minion))\n"),
    (("hero", "aura", "Nyx", "Bastoin"),
     "error: no Aura called 'Bastoin'; did you mean 'Bastion'? (if it is an Aura drunagor does not know, add --new "
     "to record it)\n"),
    (("hero", "set", "Nyx", "--role", "Strikr"), "error: no Dungeon Role called 'Strikr'; did you mean 'Striker'?\n"),
    (("chapter", "show", "12"),
     "error: no chapter '12': the Awakenings campaign has chapters 01 to 09; give a chapter number from 1 to 9\n"),
])
def test_an_unknown_name_of_the_game_is_exit_1_everywhere(example, run, args, message):
    before = snapshot(example)
    r = run(*args)
    assert (r.exit_code, r.stderr) == (1, message)
    assert snapshot(example) == before


@pytest.mark.parametrize(("args", "message"), [
    (("hero", "status", "Nyx", "adx", "Haunted"), "error: no action called 'adx'; did you mean 'add'?\n"),
    (("hero", "gain", "Nyx", "Elixir of Doom", "--kind", "magic"),
     "error: no equipment kind called 'magic'; known: adventure, consumable, epic, spoils, starting\n"),
    (("cube", "Nyx", "truma", "+1"), "error: no kind of cube called 'truma'; did you mean 'trauma'?\n"),
    (("card", "show", "Scroll of"),  # several names begin so: type more (whatever the name names)
     "error: 'Scroll of' could be any of: Scroll of Beguile, Scroll of Charm, Scroll of Displacement, Scroll of Icy "
     "Bolts, Scroll of Incinerate, Scroll of Polymorph, Scroll of Protection, Scroll of Translocation, Scroll of the "
     "Copy Cat; type more of the card's name\n"),
])
def test_a_usage_slip_is_exit_2(example, run, args, message):
    r = run(*args)
    assert (r.exit_code, r.stderr) == (2, message)


def test_a_fact_flag_says_a_name_far_from_every_known_one_is_new(example, run):
    r = run("chest", "add", "Scroll of Nowhere", "--type", "scroll", "--rarity", "rare")
    assert r.exit_code == 0, r
    story = tomllib.loads((example / "story.toml").read_text())
    assert {"name": "Scroll of Nowhere", "copies": 1} in story["chest"]["cards"]
    assert story["cards"]["Scroll of Nowhere"] == {"type": "scroll", "rarity": "rare"}


def test_a_near_miss_with_a_fact_flag_is_refused_unless_new(example, run):
    before = snapshot(example)
    r = run("hero", "gain", "Nyx", "Leathr Armor", "--kind", "starting")
    assert r.exit_code == 1
    assert r.stderr == ("error: 'Leathr Armor' is not a card drunagor knows, and it is very like 'Leather Armor'; "
                        "did you mean 'Leather Armor'? If 'Leathr Armor' is new, add --new to record it as typed\n")
    assert snapshot(example) == before  # nothing written, nothing put in [cards]

    r = run("hero", "gain", "Nyx", "leather-armor", "--kind", "starting")  # the same letters
    assert r.exit_code == 1 and "did you mean 'Leather Armor'?" in r.stderr
    r = run("chest", "add", "Scrol of Beguile", "--type", "scroll", "--rarity", "rare")
    assert r.exit_code == 1 and "did you mean 'Scroll of Beguile'?" in r.stderr

    r = run("hero", "gain", "Nyx", "Leathr Armor", "--kind", "starting", "--new")
    assert r.exit_code == 0, r
    assert "Nyx gains Leathr Armor (starting, equipped)" in r.stdout
    assert tomllib.loads((example / "story.toml").read_text())["cards"]["Leathr Armor"] == {"kind": "starting"}


def test_a_monster_rank_is_a_fact_flag_too(example, run):
    before = snapshot(example)
    r = run("monster", "add", "Tidehuntr", "--rank", "Minion")
    assert r.exit_code == 1 and "did you mean 'Tidehunter'?" in r.stderr
    assert snapshot(example) == before
    r = run("monster", "add", "Bone Colossus", "--rank", "Black")
    assert r.exit_code == 0, r
    assert "Bone Colossus is not in the catalog: recorded with the rank Black for this adventure" in r.stderr


def test_a_hero_of_another_product_is_new_by_its_class_but_not_a_near_miss(example, run):
    run("hero", "remove", "Vacrem")
    r = run("hero", "add", "Nyxx", "--role", "Leader", "--class", "Assassin")
    assert r.exit_code == 1 and "did you mean 'Nyx'?" in r.stderr
    r = run("hero", "add", "Max", "--role", "Leader", "--class", "Paladin")  # one letter of three is no near miss
    assert r.exit_code == 0, r


def test_a_device_name_of_windows_names_no_campaign_and_no_hero(example, run, tmp_path):
    # one rule for names (names.check_name): `new` and `hero add` refuse what `import` refuses
    r = run("new", "CON", "--dir", str(tmp_path / "elsewhere"))
    assert r.exit_code == 2
    assert r.stderr == ("error: 'CON' cannot name a campaign: it would make the folder con, a name Windows keeps "
                        "for a device (a campaign travels through git to every player's system); choose another "
                        "name for the campaign\n")
    assert not (tmp_path / "elsewhere").exists()
    before = snapshot(example)
    r = run("hero", "add", "Nul", "--new", "--class", "Warrior", "--role", "Defender")
    assert r.exit_code == 2
    assert r.stderr == ("error: 'Nul' cannot name a hero: it would make the file nul.toml, a name Windows keeps "
                        "for a device (a campaign travels through git to every player's system); choose another "
                        "name for the hero\n")
    assert snapshot(example) == before


def test_a_hero_whose_log_came_before_the_device_rule_is_that_hero(example, run):
    # heroes/lpt1.toml made by an older drunagor: adding Lpt1 again says the log is there (exit 1),
    # not that the name cannot be used
    (example / "heroes" / "lpt1.toml").write_text('schema = 1\nname = "Lpt1"\nclass = "Warrior"\nrole = "Leader"\n'
                                                 'joined = "01"\n', encoding="utf-8")
    r = run("hero", "add", "Lpt1", "--new", "--class", "Warrior", "--role", "Leader")
    assert r.exit_code == 1
    assert r.stderr.startswith("error: hero-file: Lpt1 is already in the party (Campaign Log ")

"""`chest show|add|swap`, `commander show|add|swap|remove`, `spoils upgrade`, and their checks
(SPEC 4, 5.4, 5.7, 5.8; RB L345-435, L816-828): exact files after each command, exact refusals."""

from __future__ import annotations

import json

import pytest

from tests.conftest import snapshot, write

STORY = """
schema = 1
campaign = "awakenings"
party = "Test Party"
# a comment the user wrote
stash = ["Potion of Healing"]   # left by a hero who went home
stored = ["Cosmic Gemstone", "Forgotten Treasure"]

[track]
"01" = "completed"

[chest]                         # our deck
epic = ["Artisan's Tools", "Treasure Trove"]
cards = [
  { name = "Scroll of Incinerate", copies = 2 },   # from the core box
  { name = "Scroll of Beguile", copies = 2 },
  { name = "Potion of Healing", copies = 4 },
]

[cards]                         # facts we recorded
"Potion of Healing" = { rarity = "common" }

[commander]
cards = []
"""

ANDREAS = """
schema = 1
name = "Andreas"
class = "Cleric"
role = "Support"
equipment = [
  { name = "Blooded Sword", kind = "starting", place = "equipped" },
  { name = "Scroll of Incinerate", kind = "consumable", place = "bag" },
  { name = "Artisan's Tools", kind = "consumable", place = "bag" },   # keep it
  { name = "Potion of Healing", kind = "consumable", place = "bag" },
]
"""

NYX = """
schema = 1
name = "Nyx"
class = "Assassin"
role = "Striker"
equipment = [
  { name = "Dragon's Breath", kind = "consumable", place = "bag" },
  { name = "Treasure Trove", kind = "consumable", place = "bag" },
]
"""


@pytest.fixture
def deck(tmp_path):
    root = tmp_path / "campaigns" / "test"
    write(root / "story.toml", STORY)
    write(root / "heroes" / "andreas.toml", ANDREAS)
    write(root / "heroes" / "nyx.toml", NYX)
    return root


def text(path) -> str:
    return path.read_text()


def check_json(run) -> dict:
    r = run("check", "--json")
    data = json.loads(r.stdout)
    mine = ("chest-deck", "commander-deck", "card-facts", "spoils-upgrade")
    return {k: [(p["line"], p["rule"], p["message"]) for p in v if p["rule"] in mine] for k, v in data.items()}


# ----------------------------------------------------------------------------------- chest show


def test_chest_show_on_the_example(run, example):
    r = run("chest", "show")
    assert r.exit_code == 0, r
    assert r.stdout == """\
Chest deck: being recorded: 4 of 18 Potions and Scrolls; to record: 4 Common Potions, 3 Uncommon Potions, 2 Rare Potions, 3 Uncommon Scrolls, 2 Rare Scrolls
Epic Rare (fixed, Rulebook: New Chest Items, L345): Artisan's Tools, Treasure Trove

         Common       Uncommon     Rare         Total
Potions  0/4 4 short  0/3 3 short  0/2 2 short  0/9 9 short
Scrolls  4/4          0/3 3 short  0/2 2 short  4/9 5 short

Card                  Copies  Type    Rarity
Scroll of Incinerate  2       scroll  common
Scroll of Beguile     2       scroll  common
"""
    shown = json.loads(run("show", "--json").stdout)
    assert shown["chest"]["epic"] == ["Artisan's Tools", "Treasure Trove"]
    assert shown["chest"]["status"] == "recording"
    assert "Chest deck: being recorded: 4 of 18 Potions and Scrolls;" in run("show").stdout


def test_chest_show_marks_excesses_and_missing_facts(run, camp):
    write(camp / "story.toml", STORY.replace('copies = 4 }', 'copies = 5 }').replace(
        '{ name = "Scroll of Beguile", copies = 2 },', '{ name = "Scroll of Beguile", copies = 2 },\n'
                                                      '  { name = "Potion of Strength", copies = 1 },'))
    r = run("chest", "show")
    assert r.exit_code == 0, r
    assert r.stdout == """\
Chest deck: illegal: 5 Common Potions: the grid holds 4 (Rulebook: Preparing the Chest Deck, L357-359)
Epic Rare (fixed, Rulebook: New Chest Items, L345): Artisan's Tools, Treasure Trove

         Common          Uncommon     Rare         Total
Potions  5/4 1 too many  0/3 3 short  0/2 2 short  6/9 3 short
Scrolls  4/4             0/3 3 short  0/2 2 short  4/9 5 short

Card                  Copies  Type    Rarity
Scroll of Incinerate  2       scroll  common
Scroll of Beguile     2       scroll  common
Potion of Strength    1       potion  ?
Potion of Healing     5       potion  common
wrong: 5 Common Potions: the grid holds 4 (Rulebook: Preparing the Chest Deck, L357-359)
fact missing: the rarity of Potion of Strength is unknown, so its place in the grid cannot be checked; record it once: drunagor chest add "Potion of Strength" --copies 0 --rarity common|uncommon|rare
"""
    data = json.loads(run("chest", "show", "--json").stdout)
    assert data["status"] == "illegal" and data["legal"] is False
    assert data["problems"] == ["5 Common Potions: the grid holds 4 (RB L357-359)"]
    assert data["missing_facts"] == [{"card": "Potion of Strength", "facts": ["rarity"]}]
    assert data["grid"]["potion"]["common"] == {"count": 5, "target": 4}
    # the line of the entry that tips the cell over, and what to do about it (SPEC 4)
    assert check_json(run) == {
        "errors": [(17, "chest-deck", "5 Common Potions: the grid holds 4 (RB L357-359); take 1 copy of the Common "
                                      "Potions (Potion of Healing x5) out of the deck, e.g. drunagor chest remove "
                                      "\"Potion of Healing\", or correct a rarity recorded wrongly: drunagor card "
                                      "set CARD --rarity common|uncommon|rare")],
        "warnings": [(16, "chest-deck", 'the rarity of Potion of Strength is not known, so the grid (RB L357-359) '
                      'cannot be checked; record it once: drunagor chest add "Potion of Strength" --copies 0 '
                      '--rarity common|uncommon|rare')],
    }


def test_an_empty_or_partial_deck_keeps_check_quiet(run, camp, example):
    # camp: no [chest] at all; example: the rulebook's Common Scroll row only (RB L365)
    for root in (camp, example):
        r = run("-C", str(root), "check", "--json")
        data = json.loads(r.stdout)
        assert [p for p in data["errors"] + data["warnings"]
                if p["rule"] in ("chest-deck", "commander-deck", "card-facts", "spoils-upgrade")] == []
    r = run("-C", str(camp), "chest", "show", "--json")
    assert json.loads(r.stdout)["status"] == "empty"


# ------------------------------------------------------------------------------------ chest add


def test_chest_add_records_copies_and_facts_once(run, deck):
    r = run("chest", "add", "Potion of Fortitude", "--copies", "3", "--rarity", "uncommon")
    assert (r.exit_code, r.stdout, r.stderr) == (
        0, "Chest deck: added 3 Potion of Fortitude (Uncommon Potion); 11 of 18 Potions and Scrolls recorded\n", "")
    r = run("chest", "add", "potion of healing", "--copies", "0", "--rarity", "common")
    assert r.exit_code == 0 and r.stdout == "no change: recorded: Potion of Healing is a Common Potion\n"
    r = run("chest", "add", "Scroll of Icy Bolts", "--copies", "2")
    assert r.exit_code == 0, r
    assert r.stdout == "Chest deck: added 2 Scroll of Icy Bolts (Scroll); 13 of 18 Potions and Scrolls recorded\n"
    assert r.stderr == ('warning: the rarity of Scroll of Icy Bolts is unknown, so the grid (Rulebook: Preparing the Chest Deck, L357-359) cannot be '
                        'checked; record it once: drunagor chest add "Scroll of Icy Bolts" --copies 0 '
                        '--rarity common|uncommon|rare\n')
    r = run("chest", "add", "Scroll of Icy Bolts", "--copies", "0", "--rarity", "uncommon")
    assert r.stdout == "recorded: Scroll of Icy Bolts is an Uncommon Scroll\n"
    r = run("chest", "add", "Elixir of Doom", "--type", "potion", "--rarity", "rare")
    assert r.exit_code == 0, r
    assert text(deck / "story.toml") == STORY.lstrip("\n").replace(
        '  { name = "Potion of Healing", copies = 4 },\n]',
        '  { name = "Potion of Healing", copies = 4 },\n'
        '  { name = "Potion of Fortitude", copies = 3 },\n'
        '  { name = "Scroll of Icy Bolts", copies = 2 },\n'
        '  { name = "Elixir of Doom", copies = 1 },\n]').replace(
        '"Potion of Healing" = { rarity = "common" }\n',
        '"Potion of Healing" = { rarity = "common" }\n'
        '"Potion of Fortitude" = { rarity = "uncommon" }\n'
        '"Scroll of Icy Bolts" = { rarity = "uncommon" }\n'
        '"Elixir of Doom" = { type = "potion", rarity = "rare" }\n')
    # the recorded rarity is reused: another copy needs no flag
    r = run("chest", "add", "Potion of Fortitude")
    assert r.exit_code == 1
    assert r.stderr == ("error: campaigns/test/story.toml:13: chest-deck: Potion of Fortitude would break the grid: "
                        "4 Uncommon Potions: the grid holds 3 (Rulebook: Preparing the Chest Deck, L357-359); record the deck as it is on the table; "
                        "to change a card, use drunagor chest swap OUT IN\n")


def test_chest_add_into_a_story_without_a_chest_table(run, camp):
    r = run("chest", "add", "Scroll of Beguile", "--copies", "2")
    assert r.exit_code == 0, r
    assert text(camp / "story.toml").endswith("""\
rune_bag = { red = 7, blue = 8, green = 7, orange = 7, gray = 7 }

[chest]
epic = [
  "Artisan's Tools",
  "Treasure Trove",
]
cards = [
  { name = "Scroll of Beguile", copies = 2 },
]
""")
    r = run("chest", "add", "Mystery Draught", "--copies", "0", "--type", "other")
    assert r.exit_code == 0, r
    assert text(camp / "story.toml").endswith("""\
]

[cards]
"Mystery Draught" = { type = "other" }
""")


@pytest.mark.parametrize("args, code, message", [
    (("Artisan's Tools",), 1, "campaigns/test/story.toml:12: chest-deck: Artisan's Tools is one of the Epic Rare "
                              "pair, which is fixed (Rulebook: New Chest Items, L345); only Potions and Scrolls are added"),
    (("Cosmic Gemstone",), 1, "campaigns/test/story.toml:12: chest-deck: Cosmic Gemstone was replaced for good by "
                              "Artisan's Tools and Treasure Trove before the campaign (Rulebook: Compulsory Replacement, L369-371); only Potions "
                              "and Scrolls are added"),
    (("Scroll of Protection",), 1, "campaigns/test/story.toml:13: chest-deck: Scroll of Protection would break the "
                                   "grid: 5 Common Scrolls: the grid holds 4 (Rulebook: Preparing the Chest Deck, L357-359); record the deck as it is "
                                   "on the table; to change a card, use drunagor chest swap OUT IN"),
    (("Scroll of Beguile", "--copies", "0", "--rarity", "rare"), 2,
     "chest-deck: Scroll of Beguile is common, not rare (the publisher's companion app; rarity Rulebook: Preparing the Chest Deck, L365); leave the flag out: drunagor knows "
     "this card"),
    (("Potion of Healing", "--copies", "0", "--rarity", "rare"), 1,
     "campaigns/test/story.toml:13: chest-deck: recording Potion of Healing as a Rare Potion would break the grid: "
     "4 Rare Potions: the grid holds 2 (Rulebook: Preparing the Chest Deck, L357-359); record the deck as it is on the table; to change a card, use "
     "drunagor chest swap OUT IN"),
    (("Odd Thing", "--type", "other"), 1,
     "chest-deck: Odd Thing is recorded as neither a Potion nor a Scroll; only Potions and Scrolls join the Epic "
     "Rare pair (Rulebook: Preparing the Chest Deck, L349-355); use --copies 0 to record that fact alone"),
    (("Potion of Haste", "--rarity", "legendary"), 2,
     "--rarity must be one of common, uncommon, rare, not 'legendary'"),
    (("Potion of Haste", "--copies", "0"), 2, "--copies 0 adds nothing; give --type or --rarity to record, or at "
                                              "least 1 copy"),
    (("Potion of Haste", "--copies", "10"), 2, "--copies must be from 0 to 9, not 10"),
])
def test_chest_add_refusals_write_nothing(run, deck, args, code, message):
    before = snapshot(deck)
    r = run("chest", "add", *args)
    assert (r.exit_code, r.stderr) == (code, f"error: {message}\n"), r
    assert snapshot(deck) == before


def test_chest_add_refuses_a_likely_typo_unless_new(run, deck):
    # SPEC 9 name resolution: a typo is never recorded as a new card, even with its facts given
    before = snapshot(deck)
    r = run("chest", "add", "Potion of Strenght", "--type", "potion", "--rarity", "rare")
    assert (r.exit_code, r.stderr) == (1, "error: 'Potion of Strenght' is not a card drunagor knows, and it is very "
                                          "like 'Potion of Strength'; did you mean 'Potion of Strength'? If 'Potion "
                                          "of Strenght' is new, add --new to record it as typed\n")
    r = run("chest", "add", "Potion of Heling")
    assert r.exit_code == 1 and "did you mean 'Potion of Healing'?" in r.stderr
    assert snapshot(deck) == before
    r = run("chest", "add", "Potion of Strenght", "--type", "potion", "--rarity", "rare", "--new")
    assert (r.exit_code, r.stderr) == (0, ""), r
    assert '"Potion of Strenght" = { type = "potion", rarity = "rare" }\n' in text(deck / "story.toml")
    # a name like no known one is recorded with its facts; without them it is refused
    r = run("chest", "add", "Brand New Thing")
    assert r.exit_code == 1 and "(if it is a card drunagor does not know, add --new to record it)" in r.stderr
    assert run("chest", "add", "Brand New Thing", "--type", "scroll", "--rarity", "uncommon").exit_code == 0


# ----------------------------------------------------------------------------------- chest swap


def test_chest_swap_without_yes_only_says_what_it_would_do(run, deck):
    before = snapshot(deck)
    r = run("chest", "swap", "scroll of inc", "Scroll of Protection")
    assert r.exit_code == 0, r
    assert r.stdout == """\
Swap: Scroll of Incinerate out, Scroll of Protection in (Common Scrolls, Rulebook: New Chest Items, L345; Preparing the Chest Deck, L363).
The composition changes, so the party first returns every Potion and Scroll it owns; Epic Rare treasures are kept (Rulebook: Preparing the Chest Deck, L361):
  Andreas: Scroll of Incinerate, Potion of Healing
  party stash: Potion of Healing
Nothing written: run again with --yes to swap and remove these cards from the logs.
"""
    assert snapshot(deck) == before
    data = json.loads(run("chest", "swap", "Scroll of Incinerate", "Scroll of Protection", "--json").stdout)
    assert data == {"out": "Scroll of Incinerate", "in": "Scroll of Protection", "copies": 1, "type": "scroll",
                    "rarity": "common", "returns": {"Andreas": ["Scroll of Incinerate", "Potion of Healing"],
                                                    "party stash": ["Potion of Healing"]},
                    "unknown": {}, "written": False, "camp_phase": True}
    assert snapshot(deck) == before


def test_chest_swap_yes_returns_exactly_the_non_epic_potions_and_scrolls(run, deck):
    nyx_before = text(deck / "heroes" / "nyx.toml")
    r = run("chest", "swap", "Scroll of Incinerate", "Scroll of Protection", "--copies", "2", "--yes")
    assert r.exit_code == 0, r
    assert r.stdout == ("Chest deck: 2 Scroll of Incinerate out, 2 Scroll of Protection in (Common Scrolls, "
                        "Rulebook: New Chest Items, L345; Preparing the Chest Deck, L363); returned to the Chest deck (Rulebook: Preparing the Chest Deck, L361): Andreas: Scroll of Incinerate, Potion of "
                        "Healing; party stash: Potion of Healing\n")
    # the deck: Protection takes Incinerate's line; the stash gives back its Potion
    assert text(deck / "story.toml") == STORY.lstrip("\n").replace(
        '{ name = "Scroll of Incinerate", copies = 2 },', '{ name = "Scroll of Protection", copies = 2 },').replace(
        'stash = ["Potion of Healing"]', 'stash = []')
    # Andreas keeps his Starting Gear and the Epic Rare Artisan's Tools (RB L361)
    assert text(deck / "heroes" / "andreas.toml") == """\
schema = 1
name = "Andreas"
class = "Cleric"
role = "Support"
equipment = [
  { name = "Blooded Sword", kind = "starting", place = "equipped" },
  { name = "Artisan's Tools", kind = "consumable", place = "bag" },   # keep it
]
"""
    # Nyx holds an Adventure consumable and Treasure Trove: nothing to return, file untouched
    assert text(deck / "heroes" / "nyx.toml") == nyx_before


def test_chest_swap_of_one_copy_keeps_the_rest(run, deck):
    r = run("chest", "swap", "Scroll of Incinerate", "Scroll of Protection", "--yes")
    assert r.exit_code == 0, r
    story = text(deck / "story.toml")
    assert '  { name = "Scroll of Incinerate", copies = 1 },   # from the core box\n' in story
    assert '  { name = "Potion of Healing", copies = 4 },\n  { name = "Scroll of Protection", copies = 1 },\n]' in story


def test_chest_swap_records_the_facts_of_an_unknown_card(run, deck):
    r = run("chest", "swap", "Potion of Healing", "Elixir of Doom", "--rarity", "common", "--yes")
    assert r.exit_code == 2
    assert r.stderr == ("error: campaigns/test/story.toml:13: chest-swap: the type of Elixir of Doom is not known, "
                        "and a card can only be replaced by one of the same type and rarity (Rulebook: New Chest Items, L345; Preparing the Chest Deck, L363); look at "
                        "the card and give it once: --type potion|scroll\n")
    r = run("chest", "swap", "Potion of Healing", "Elixir of Doom", "--type", "potion", "--rarity", "common", "--yes")
    assert r.exit_code == 0, r
    story = text(deck / "story.toml")
    assert '"Elixir of Doom" = { type = "potion", rarity = "common" }\n' in story
    assert '  { name = "Potion of Healing", copies = 3 },\n' in story


@pytest.mark.parametrize("args, code, message", [
    (("Artisan's Tools", "Scroll of Protection"), 1,
     "campaigns/test/story.toml:13: chest-swap: Artisan's Tools is an Epic Rare treasure: the two Epic Rare cards "
     "cannot be replaced (Rulebook: New Chest Items, L345); swap a Potion or a Scroll"),
    (("Scroll of Incinerate", "Potion of Strength", "--rarity", "common"), 1,
     "campaigns/test/story.toml:13: chest-swap: Scroll of Incinerate is a Common Scroll and Potion of Strength a "
     "Common Potion: a card can only be replaced by one of the same type and rarity (Rulebook: New Chest Items, L345; Preparing the Chest Deck, L363); choose a Common "
     "Scroll"),
    (("Scroll of Incinerate", "Scroll of Charm", "--rarity", "rare"), 1,
     "campaigns/test/story.toml:13: chest-swap: Scroll of Incinerate is a Common Scroll and Scroll of Charm a Rare "
     "Scroll: a card can only be replaced by one of the same type and rarity (Rulebook: New Chest Items, L345; Preparing the Chest Deck, L363); choose a Common "
     "Scroll"),
    (("Scroll of Protection", "Scroll of Beguile"), 1,
     "campaigns/test/story.toml:13: chest-swap: 'Scroll of Protection' is not in the Chest deck; the deck holds: "
     "Scroll of Incinerate, Scroll of Beguile, Potion of Healing"),
    (("Scroll of Incinerate", "Scroll of Protection", "--copies", "3"), 1,
     "campaigns/test/story.toml:13: chest-swap: the Chest deck holds 2 Scroll of Incinerate, not 3; swap at most 2"),
])
def test_chest_swap_refusals_write_nothing(run, deck, args, code, message):
    before = snapshot(deck)
    for extra in ((), ("--yes",)):
        r = run("chest", "swap", *args, *extra)
        assert (r.exit_code, r.stderr) == (code, f"error: {message}\n"), r
    assert snapshot(deck) == before


def test_chest_swap_is_refused_during_an_adventure(run, deck):
    write(deck / "adventure.toml", 'schema = 1\nchapter = "02"\n')
    before = snapshot(deck)
    r = run("chest", "swap", "Scroll of Incinerate", "Scroll of Protection")
    assert r.exit_code == 0
    assert r.stdout.endswith("Nothing written. An adventure is under way: the Chest deck can be changed only during a "
                             "Camp phase (Rulebook: Preparing the Chest Deck, L361); after `drunagor adventure end`, run again with --yes.\n")
    assert json.loads(run("chest", "swap", "Scroll of Incinerate", "Scroll of Protection", "--json").stdout
                      )["camp_phase"] is False
    r = run("chest", "swap", "Scroll of Incinerate", "Scroll of Protection", "--yes")
    assert r.exit_code == 1
    assert r.stderr == ("error: campaigns/test/adventure.toml: chest-swap: an adventure is under way: the Chest deck "
                        "can be changed only during a Camp phase (Rulebook: Preparing the Chest Deck, L361); finish the adventure first (drunagor "
                        "adventure end --won|--lost)\n")
    assert snapshot(deck) == before


def test_chest_swap_asks_about_a_consumable_it_cannot_classify(run, deck):
    write(deck / "heroes" / "nyx.toml", NYX.replace(
        '  { name = "Treasure Trove"', '  { name = "Strange Tonic", kind = "consumable", place = "bag" },\n'
                                       '  { name = "Treasure Trove"'))
    before = snapshot(deck)
    r = run("chest", "swap", "Scroll of Incinerate", "Scroll of Protection")
    assert r.exit_code == 0
    assert ("  Nyx: cannot tell whether Strange Tonic is a Potion or a Scroll; record it with drunagor chest add NAME "
            "--copies 0 --type potion|scroll|other\n") in r.stdout
    r = run("chest", "swap", "Scroll of Incinerate", "Scroll of Protection", "--yes")
    assert r.exit_code == 2
    assert r.stderr == ("error: chest-swap: drunagor cannot tell whether Strange Tonic (Nyx) is a Potion or a Scroll, "
                        "which the party must return when the composition changes (Rulebook: Preparing the Chest Deck, L361); record it once: "
                        "drunagor chest add \"Strange Tonic\" --copies 0 --type potion|scroll|other\n")
    assert snapshot(deck) == before
    assert run("chest", "add", "Strange Tonic", "--copies", "0", "--type", "other").exit_code == 0
    r = run("chest", "swap", "Scroll of Incinerate", "Scroll of Protection", "--yes")
    assert r.exit_code == 0, r
    assert "Strange Tonic" in text(deck / "heroes" / "nyx.toml")


# ---------------------------------------------------------------------------- commander deck


def test_commander_deck_recording_and_rb_l824_haste_with_life_heat_refused(run, deck):
    assert run("commander", "add", "Haste").stdout == (
        "Commander Attack deck: added Haste (orange-bottom); 1 of 10 cards recorded\n")
    before = snapshot(deck)
    r = run("commander", "add", "Life Heat")
    assert r.exit_code == 1
    assert r.stderr == ("error: campaigns/test/story.toml:23: commander-deck: Haste already holds the orange-bottom "
                        "Rune position, so Life Heat cannot join: no Rune position may be held by two cards "
                        "(Rulebook: New Commander Attack Cards, L822-824); swap them: drunagor commander swap Haste \"Life Heat\"\n")
    assert snapshot(deck) == before
    r = run("commander", "add", "Claw")
    assert (r.exit_code, r.stderr) == (1, "error: no Commander card called 'Claw'; known: Flame Swipe, Haste, "
                                          "Inferno, Life Heat (if it is a card drunagor does not know, give its Rune "
                                          "position once with --position COLOUR-top|bottom)\n")
    r = run("commander", "add", "Claw", "--new")  # said new: its position is still needed
    assert (r.exit_code, r.stderr) == (2, "error: campaigns/test/story.toml:23: commander-deck: drunagor does not know "
                                          "which Rune position Claw holds, and no position may be held twice in the "
                                          "deck (Rulebook: New Commander Attack Cards, L822); look at the card and give it once: --position "
                                          "COLOUR-top|bottom\n")
    assert run("commander", "add", "Claw", "--position", "Red Top").exit_code == 0
    assert run("commander", "add", "Inferno").exit_code == 0
    # RB L826: Haste with Flame Swipe, replacing Inferno
    r = run("commander", "swap", "inf", "Flame Swipe")
    assert (r.exit_code, r.stdout) == (0, "Commander Attack deck: Flame Swipe replaces Inferno\n")
    assert text(deck / "story.toml").endswith("""\
[cards]                         # facts we recorded
"Potion of Healing" = { rarity = "common" }
Claw = { position = "red-top" }

[commander]
cards = [
  "Haste",
  "Claw",
  "Flame Swipe",
]
""")
    r = run("commander", "show")
    assert r.stdout == """\
Commander Attack deck: being recorded: 3 of 10 cards; free positions: red-bottom, blue-top, blue-bottom, green-top, green-bottom, gray-top, gray-bottom

Position       Card
red-top        Claw
red-bottom     -
blue-top       -
blue-bottom    -
green-top      -
green-bottom   -
orange-top     Flame Swipe
orange-bottom  Haste
gray-top       -
gray-bottom    -
"""
    data = json.loads(run("commander", "show", "--json").stdout)
    assert data["cards"] == [{"name": "Haste", "position": "orange-bottom", "source": "catalog"},
                             {"name": "Claw", "position": "red-top", "source": "recorded"},
                             {"name": "Flame Swipe", "position": "orange-top", "source": "catalog"}]
    assert data["positions"]["orange-top"] == ["Flame Swipe"] and data["status"] == "recording"
    r = run("commander", "swap", "Haste", "Life Heat")
    assert r.exit_code == 0 and "Life Heat replaces Haste" in r.stdout
    r = run("commander", "remove", "claw")
    assert r.stdout == "Commander Attack deck: removed Claw; 2 of 10 cards recorded\n"
    r = run("commander", "add", "Haste", "--position", "red-top")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/story.toml:24: commander-deck: Haste holds the "
                                          "orange-bottom Rune position (Rulebook: New Commander Attack Cards, L824), not red-top; leave out --position: "
                                          "drunagor knows this card\n")


def test_commander_full_deck_and_check(run, deck):
    # cards drunagor does not know, none a near miss of another (then only --new would record it)
    names = ["Arcane Bolt", "Bone Spear", "Cinder Rain", "Dark Pulse", "Ember Lash", "Frost Nova", "Grim Reaping",
             "Hex Storm", "Ice Shard"]
    pos = ["red-top", "red-bottom", "blue-top", "blue-bottom", "green-top", "green-bottom", "orange-top",
           "gray-top", "gray-bottom"]
    for n, p in zip(names, pos, strict=False):
        assert run("commander", "add", n, "--position", p).exit_code == 0
    assert run("commander", "add", "Haste").exit_code == 0
    assert json.loads(run("commander", "show", "--json").stdout)["status"] == "legal"
    r = run("commander", "add", "Life Heat")
    assert r.exit_code == 1 and "Haste already holds the orange-bottom Rune position" in r.stderr
    r = run("commander", "add", "Jolt Strike", "--position", "red-top")
    assert r.exit_code == 1 and "Arcane Bolt already holds the red-top Rune position" in r.stderr
    r = run("commander", "add", "Arcane Blot", "--position", "red-bottom")  # a near miss of a card in the deck
    assert r.exit_code == 1 and "did you mean 'Arcane Bolt'?" in r.stderr
    assert check_json(run) == {"errors": [], "warnings": []}
    # a hand edit puts two cards on one position: check says so
    story = text(deck / "story.toml").replace('  "Haste",\n', '  "Haste",\n  "Life Heat",\n')
    (deck / "story.toml").write_text(story)
    lines = story.splitlines()
    start = lines.index("cards = [", lines.index("[commander]")) + 1
    # each names the entry that breaks the rule (the second card of the position, the 11th card) and the fix
    assert lines[start + 9:start + 11] == ['  "Haste",', '  "Life Heat",']  # lines start+10, start+11
    assert check_json(run) == {"errors": [
        (start + 11, "commander-deck", "Haste and Life Heat both hold the orange-bottom Rune position: no position "
                                       "may be held by two cards (RB L822-824); remove one of them with drunagor "
                                       "commander remove \"Life Heat\", or swap it for a card of another position: "
                                       "drunagor commander swap \"Life Heat\" CARD"),
        (start + 11, "commander-deck", "11 cards: the deck holds exactly 10, one for each Rune position "
                                       "(RB L820-822); take 1 card out with drunagor commander remove CARD"),
    ], "warnings": []}
    assert run("check").exit_code == 1


# ----------------------------------------------------------------------------- spoils upgrade


VACREM = """
schema = 1
name = "Vacrem"
class = "Warrior"
role = "Defender"
equipment = [
  { name = "Jagged Blade Axe", kind = "starting", place = "equipped" },
  { name = "Heavy Shield", kind = "spoils", quality = "standard", place = "equipped" },
  { name = "Ragged Doll", kind = "adventure", place = "bag" },
  { name = "Artisan's Tools", kind = "consumable", place = "bag" },
  { name = "Frozen Tears of Alagast", kind = "adventure", place = "bag" },
  { name = "Captain's Brooch", kind = "adventure", place = "bag" },
  { name = "Potion of Healing", kind = "consumable", place = "bag" },
  { name = "War Bow", kind = "spoils", quality = "standard", place = "equipped" },
]
"""


@pytest.fixture
def smith(deck):
    write(deck / "heroes" / "vacrem.toml", VACREM)
    return deck


def test_spoils_upgrade_with_the_ragged_doll(run, smith):
    r = run("spoils", "upgrade", "vac", "heavy", "--discard", "Ragged Doll")
    assert r.exit_code == 0, r
    assert r.stdout == ("Vacrem improved Heavy Shield to Improved, disposing of Artisan's Tools (back to the Chest deck "
                        "when it is reformed) and Ragged Doll; Ragged Doll and the Standard Heavy Shield are stored for "
                        "the rest of the campaign (Rulebook: Disposed Equipment, L431)\n")
    assert text(smith / "heroes" / "vacrem.toml") == """\
schema = 1
name = "Vacrem"
class = "Warrior"
role = "Defender"
equipment = [
  { name = "Jagged Blade Axe", kind = "starting", place = "equipped" },
  { name = "Heavy Shield", kind = "spoils", quality = "improved", place = "equipped" },
  { name = "Frozen Tears of Alagast", kind = "adventure", place = "bag" },
  { name = "Captain's Brooch", kind = "adventure", place = "bag" },
  { name = "Potion of Healing", kind = "consumable", place = "bag" },
  { name = "War Bow", kind = "spoils", quality = "standard", place = "equipped" },
]
upgrades = [
  { item = "Heavy Shield", to = "improved", discarded = "Ragged Doll", discarded_kind = "adventure", chapter = "01" },
]
"""
    assert text(smith / "story.toml") == STORY.lstrip("\n").replace(
        'stored = ["Cosmic Gemstone", "Forgotten Treasure"]',
        'stored = [\n  "Cosmic Gemstone",\n  "Forgotten Treasure",\n  "Ragged Doll",\n  "Heavy Shield (Standard)",\n]')
    # no second Artisan's Tools: the next upgrade is refused until the hero finds one
    r = run("spoils", "upgrade", "Vacrem", "Heavy Shield", "--discard", "Captain's Brooch", "--not-epic")
    assert r.exit_code == 1 and "Vacrem has no Artisan's Tools in the bag" in r.stderr


def test_spoils_upgrade_during_an_adventure_is_recorded_against_its_chapter(run, smith):
    # RB L411: as a Minor Action during an Adventure too
    write(smith / "adventure.toml", 'schema = 1\nchapter = "02"\n')
    r = run("spoils", "upgrade", "Vacrem", "Heavy Shield", "--discard", "Ragged Doll")
    assert r.exit_code == 0, r
    assert ('{ item = "Heavy Shield", to = "improved", discarded = "Ragged Doll", discarded_kind = "adventure", '
            'chapter = "02" }') in text(smith / "heroes" / "vacrem.toml")


def test_spoils_upgrade_asks_once_whether_an_adventure_item_is_epic(run, smith):
    before = snapshot(smith)
    r = run("spoils", "upgrade", "Vacrem", "Heavy Shield", "--discard", "Captain's Brooch")
    assert (r.exit_code, r.stderr) == (2, "error: campaigns/test/heroes/vacrem.toml:5: spoils-upgrade: drunagor does "
                                          "not know whether Captain's Brooch is an Epic Item, and an Epic Item cannot "
                                          "be disposed of (Rulebook: Improving Spoils Equipment, L413-417: Frozen Tears of Alagast cannot, the Ragged "
                                          "Doll can); look at the card and say it once: --not-epic (remembered) or "
                                          "--epic\n")
    assert snapshot(smith) == before
    r = run("spoils", "upgrade", "Vacrem", "Heavy Shield", "--discard", "Captain's Brooch", "--not-epic")
    assert r.exit_code == 0, r
    assert '"Captain\'s Brooch" = { epic = false }\n' in text(smith / "story.toml")
    h = text(smith / "heroes" / "vacrem.toml")
    assert ('{ item = "Heavy Shield", to = "improved", discarded = "Captain\'s Brooch", discarded_kind = "adventure", '
            'chapter = "01" }') in h


@pytest.mark.parametrize("args, code, message", [
    (("Jagged Blade Axe", "--discard", "Ragged Doll"), 1,
     "Jagged Blade Axe is Starting Gear, not a Spoils card: only Spoils Equipment can be improved (Rulebook: Improving Spoils Equipment, L409-413); "
     "name a Spoils of the Hero card"),
    (("Twin-Blades", "--discard", "Ragged Doll"), 1,
     "Vacrem holds no Twin-Blades; name one of Vacrem's Spoils cards (Vacrem holds: Jagged Blade Axe, Heavy Shield, "
     "Ragged Doll, Artisan's Tools, Frozen Tears of Alagast, Captain's Brooch, Potion of Healing, War Bow)"),
    (("Heavy Shield", "--discard", "Frozen Tears of Alagast"), 1,
     "Frozen Tears of Alagast is an Epic Item and cannot be disposed of to improve Spoils Equipment "
     "(Rulebook: Improving Spoils Equipment, L413-417); discard a Spoils card or an Adventure Item that is not Epic"),
    (("Heavy Shield", "--discard", "Potion of Healing"), 1,
     "Potion of Healing is a Consumable Item and cannot be the other disposed card; it must not be a Consumable, an "
     "Epic Item or Starting Gear (Rulebook: Improving Spoils Equipment, L413); discard a Spoils card or an Adventure Item that is not Epic"),
    (("Heavy Shield", "--discard", "Jagged Blade Axe"), 1,
     "Jagged Blade Axe is Starting Gear and cannot be the other disposed card; it must not be a Consumable, an Epic "
     "Item or Starting Gear (Rulebook: Improving Spoils Equipment, L413); discard a Spoils card or an Adventure Item that is not Epic"),
    (("Heavy Shield", "--discard", "Heavy Shield"), 1,
     "Heavy Shield cannot be both improved and disposed of: the other card must be a different Equipment card "
     "(Rulebook: Improving Spoils Equipment, L419); discard another card from the bag"),
    (("Heavy Shield", "--discard", "War Bow"), 1,
     "War Bow is equipped: both disposed cards must be in Vacrem's bag (Rulebook: Improving Spoils Equipment, L419); unequip it first: drunagor hero "
     "unequip Vacrem \"War Bow\""),
    (("Heavy Shield", "--discard", "Hippocampus Banner"), 1,
     "Vacrem holds no Hippocampus Banner: the other disposed card must be in Vacrem's bag (Rulebook: Improving Spoils Equipment, L419); discard a card "
     "from Vacrem's bag: Ragged Doll, Artisan's Tools, Frozen Tears of Alagast, Captain's Brooch, Potion of Healing"),
    (("Heavy Shield", "--discard", "Ragged Doll", "--to", "ultimate"), 1,
     "Heavy Shield is Standard: it cannot go straight to Ultimate; each upgrade goes one step, Standard, Improved, "
     "then Ultimate (Rulebook: Improving Spoils Equipment, L421-423); upgrade it to Improved first (--to improved)"),
])
def test_spoils_upgrade_refusals_write_nothing(run, smith, args, code, message):
    before = snapshot(smith)
    r = run("spoils", "upgrade", "Vacrem", *args)
    assert (r.exit_code, r.stderr) == (code, f"error: campaigns/test/heroes/vacrem.toml:5: spoils-upgrade: {message}\n")
    assert snapshot(smith) == before


def test_spoils_upgrade_ultimate_and_no_tools(run, smith):
    write(smith / "heroes" / "vacrem.toml", VACREM.replace('quality = "standard", place = "equipped" },\n  { name = "Ragged',
                                                           'quality = "ultimate", place = "equipped" },\n  { name = "Ragged'))
    r = run("spoils", "upgrade", "Vacrem", "Heavy Shield", "--discard", "Ragged Doll")
    assert r.stderr == ("error: campaigns/test/heroes/vacrem.toml:5: spoils-upgrade: Heavy Shield is already Ultimate, "
                        "the highest quality (Rulebook: Improving Spoils Equipment, L421); improve another Spoils card\n")
    r = run("spoils", "upgrade", "Andreas", "Blooded Sword", "--discard", "Ragged Doll")
    assert r.exit_code == 1 and "Blooded Sword is Starting Gear, not a Spoils card" in r.stderr
    write(smith / "heroes" / "nyx.toml", NYX.replace("equipment = [\n", 'equipment = [\n  { name = "Twin-Blades", '
                                                     'kind = "spoils", place = "equipped" },\n'))
    r = run("spoils", "upgrade", "Nyx", "Twin-Blades", "--discard", "Dragon's Breath")
    assert r.stderr == ("error: campaigns/test/heroes/nyx.toml:5: spoils-upgrade: Nyx has no Artisan's Tools in the "
                        "bag: an upgrade disposes of one Artisan's Tools from the hero's bag (Rulebook: Improving Spoils Equipment, L413, L419); Nyx must "
                        "first find Artisan's Tools in a Chest (or be given one): drunagor hero gain Nyx \"Artisan's "
                        "Tools\" --bag\n")


def test_spoils_upgrade_is_recorded_and_check_stays_clean(run, example):
    # Vacrem of the example holds Artisan's Tools and Captain's Brooch in the bag. At Camp after
    # chapter 04 (no adventure under way) the upgrade is recorded against chapter 04.
    (example / "adventure.toml").unlink(missing_ok=True)
    r = run("spoils", "upgrade", "Vacrem", "Heavy Shield", "--discard", "Captain's Brooch", "--not-epic")
    assert r.exit_code == 0, r
    assert check_json(run) == {"errors": [], "warnings": []}
    shown = json.loads(run("hero", "show", "Vacrem", "--json").stdout)
    assert shown["upgrades"] == [{"item": "Heavy Shield", "to": "improved", "discarded": "Captain's Brooch",
                                  "chapter": "04", "reward": False}]
    # the stored card can never be gained again (RB L431)
    r = run("hero", "gain", "Nyx", "Captain's Brooch", "--kind", "adventure")
    assert r.exit_code == 1 and "stored" in r.stderr


def test_check_reports_broken_upgrades_and_facts(run, deck):
    write(deck / "heroes" / "nyx.toml", NYX.rstrip("\n").replace("equipment = [\n", 'equipment = [\n  { name = '
          '"Twin-Blades", kind = "spoils", quality = "standard", place = "equipped" },\n') + """
upgrades = [
  { item = "Twin-Blades", to = "improved", discarded = "Ragged Doll", discarded_kind = "adventure" },
  { item = "War Bow", to = "legendary", discarded = "Ragged Doll", discarded_kind = "adventure" },
]
""")
    write(deck / "story.toml", STORY.replace('"Potion of Healing" = { rarity = "common" }',
                                             '"Potion of Healing" = { rarity = "common" }\n'
                                             '"Scroll of Beguile" = { rarity = "rare" }\n'
                                             'Claw = { position = "purple-top" }\n'
                                             '"Ragged Doll" = { epic = true }\n'
                                             'Haste = { position = "red-top" }'))
    assert check_json(run) == {"errors": [
        (21, "card-facts", "Scroll of Beguile is common, not rare (the publisher's companion app; rarity RB L365); forget the recorded fact: "
                           "drunagor card forget \"Scroll of Beguile\" --fact rarity"),
        (22, "card-facts", "Claw: position 'purple-top' is not a Rune position (COLOUR-top or COLOUR-bottom, "
                           "e.g. \"orange-bottom\"); correct it (drunagor card set Claw --position "
                           "COLOUR-top|bottom) or forget it (drunagor card forget Claw --fact position)"),
        (23, "card-facts", "Ragged Doll is not an Epic Item (RB L417); forget the recorded fact: drunagor card "
                           "forget \"Ragged Doll\" --fact epic"),
        (24, "card-facts", "Haste holds the orange-bottom Rune position (RB L824-826), not red-top; forget the "
                           "recorded fact: drunagor card forget Haste --fact position"),
        (12, "spoils-upgrade", "upgrade 2 of Nyx (War Bow) reaches 'legendary'; an upgrade reaches \"improved\" or "
                               "\"ultimate\" (RB L421-423); write one of them, or remove the entry"),
        (6, "spoils-upgrade", "Nyx's Twin-Blades is standard, but an upgrade took it to improved; write quality = "
                              "\"improved\" in its entry, or remove the upgrade"),
    ], "warnings": []}


def test_spoils_upgrade_in_a_minimal_campaign_writes_tidy_files(run, camp):
    # no `stored` yet, no quality on the Spoils card, nothing completed: no chapter in the entry
    write(camp / "heroes" / "nyx.toml", """
schema = 1
name = "Nyx"
class = "Assassin"
role = "Striker"
equipment = [
  { name = "Twin-Blades", kind = "spoils", place = "equipped" },   # found in 03
  { name = "Ragged Doll", kind = "adventure", place = "bag" },
  { name = "Artisan's Tools", kind = "consumable", place = "bag" },
]
""")
    r = run("spoils", "upgrade", "nyx", "twin", "--discard", "ragged")
    assert r.exit_code == 0, r
    assert text(camp / "heroes" / "nyx.toml") == """\
schema = 1
name = "Nyx"
class = "Assassin"
role = "Striker"
equipment = [
  { name = "Twin-Blades", kind = "spoils", quality = "improved", place = "equipped" },   # found in 03
]
upgrades = [
  { item = "Twin-Blades", to = "improved", discarded = "Ragged Doll", discarded_kind = "adventure" },
]
"""
    assert text(camp / "story.toml").startswith("""\
schema = 1
campaign = "awakenings"
party = "Test Party"
# a comment the user wrote
followers = []
stored = [
  "Ragged Doll",
  "Twin-Blades (Standard)",
]

[track]
""")


def test_commander_add_into_a_story_without_a_commander_table(run, camp):
    assert run("commander", "add", "Haste").exit_code == 0
    assert run("commander", "add", "Claw", "--position", "gray-bottom").exit_code == 0
    assert text(camp / "story.toml").endswith("""\
rune_bag = { red = 7, blue = 8, green = 7, orange = 7, gray = 7 }

[commander]
cards = [
  "Haste",
  "Claw",
]

[cards]
Claw = { position = "gray-bottom" }
""")


def test_check_names_the_entry_and_the_fix_for_every_deck_and_fact_problem(run, deck):
    # SPEC 4: FILE:LINE: rule: explanation; remedy, at the entry inside the list
    write(deck / "story.toml", STORY.replace('"Potion of Healing" = { rarity = "common" }',
                                             '"Potion of Healing" = { rarity = "common" }\n'
                                             '"Wand of Sparks" = { type = "wand" }\n'
                                             '"Scroll of Dread" = { rarity = "epic" }\n'
                                             '"Silver Locket" = { epic = "yes" }')
          .replace("cards = []", 'cards = [\n  "Haste",\n  "Claw",\n  "Haste",\n]'))
    write(deck / "heroes" / "nyx.toml", NYX.rstrip("\n").replace("equipment = [\n", 'equipment = [\n  { name = '
          '"Twin-Blades", kind = "spoils", quality = "ultimate", place = "equipped" },\n') + """
upgrades = [
  { item = "Twin-Blades", to = "improved", discarded = "Ragged Doll", discarded_kind = "adventure" },
  { item = "Twin-Blades", to = "improved", discarded = "Captain's Brooch", discarded_kind = "adventure" },
]
""")
    lines = text(deck / "story.toml").splitlines()
    at = {line.strip(): n for n, line in enumerate(lines, 1)}
    first = lines.index('  "Haste",') + 1
    assert lines[first + 1] == '  "Haste",'  # the second Haste: line first + 2
    assert check_json(run) == {"errors": [
        (first + 2, "commander-deck", 'Haste is in the deck twice; remove one of them: drunagor commander '
                                               'remove Haste'),
        (at['"Wand of Sparks" = { type = "wand" }'], "card-facts",
         "Wand of Sparks: type 'wand' is not one of potion, scroll, other; correct it (drunagor card set \"Wand "
         "of Sparks\" --type potion|scroll|other) or forget it (drunagor card forget \"Wand of Sparks\" --fact "
         "type)"),
        (at['"Scroll of Dread" = { rarity = "epic" }'], "card-facts",
         "Scroll of Dread: rarity 'epic' is not one of common, uncommon, rare; correct it (drunagor card set "
         "\"Scroll of Dread\" --rarity common|uncommon|rare) or forget it (drunagor card forget \"Scroll of "
         "Dread\" --fact rarity)"),
        (at['"Silver Locket" = { epic = "yes" }'], "card-facts",
         "Silver Locket: epic must be true or false, not 'yes'; correct it (drunagor card set \"Silver Locket\" "
         "--epic|--not-epic) or forget it (drunagor card forget \"Silver Locket\" --fact epic)"),
        (12, "spoils-upgrade", "Nyx's Twin-Blades is upgraded to the same quality twice; each upgrade goes one step "
                               "(RB L421-423); remove the entry recorded twice"),
    ], "warnings": [
        (at['"Claw",'], "commander-deck", 'the Rune position of Claw is not known, so "no position twice" (RB L822) '
                                          'cannot be checked; record it once: drunagor commander add Claw '
                                          '--position COLOUR-top|bottom'),
    ]}
    r = run("check")
    assert f"campaigns/test/story.toml:{first + 2}: commander-deck: Haste is in the deck twice; " in r.stdout

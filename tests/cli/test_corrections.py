"""Corrections in the Story Record, the decks and the card facts (SPEC 9, issue 13): each recorded
list has its inverse, checked by the same rules and saying what it changed, and after a mistaken
entry and its inverse the files are byte for byte as before. Also `card show|set|forget`."""

from __future__ import annotations

import json

import pytest

from tests.conftest import snapshot, write
from tests.helpers import ok


@pytest.fixture
def fresh(run, tmp_path):
    """A campaign as `drunagor new` writes it, with two heroes (lists empty, [cards] present)."""
    r = run("new", "fresh", "--party", "Fresh Start")
    assert r.exit_code == 0, r
    root = tmp_path / "campaigns" / "fresh"
    for name, role in (("Andreas", "Support"), ("Nyx", "Striker")):
        assert run("-C", str(root), "hero", "add", name, "--role", role).exit_code == 0
    return root


def story(root) -> str:
    return (root / "story.toml").read_text()


def round_trip(run, root, do: list[tuple[str, ...]], undo: list[tuple[str, ...]]) -> list[str]:
    """Run `do` then `undo` on the campaign: the files must be as before; the outputs of `undo`."""
    before = snapshot(root)
    for args in do:
        ok(run("-C", str(root), *args))
    assert snapshot(root) != before, do
    outs = [ok(run("-C", str(root), *args)).stdout for args in undo]
    assert snapshot(root) == before, (do, undo)
    return outs


# ------------------------------------------------------------------------------- the Story Record

@pytest.mark.parametrize("do, undo, said", [
    (("follower", "add", "maya"), ("follower", "remove", "Maya"),
     "Maya the Ranger erased from the Story Record's Followers (Rulebook: Recruiting Followers and Cohorts, L459)\n"),
    (("outcome", "add", "watcher"), ("outcome", "remove", "wat"), "Outcome Watcher erased from the Story Record\n"),
    (("status", "add", "imminent"), ("status", "remove", "Imminent Danger"),
     "Story Record status Imminent Danger erased\n"),
    (("follower", "add", "Grog the Bold", "--new"), ("follower", "remove", "grog"),
     "Grog the Bold erased from the Story Record's Followers (Rulebook: Recruiting Followers and Cohorts, L459)\n"),
    (("stash", "add", "Potion of Healing"), ("stash", "remove", "potion of healing"),
     "party stash: Potion of Healing taken out (0 left)\n"),
])
def test_a_story_list_entry_and_its_inverse_leave_the_file_as_it_was(run, fresh, do, undo, said):
    assert round_trip(run, fresh, [do], [undo]) == [said]


def test_a_list_already_one_entry_per_line_returns_byte_identical_after_several_entries(run, fresh):
    ok(run("-C", str(fresh), "follower", "add", "Vorn"))
    ok(run("-C", str(fresh), "follower", "add", "Maya"))
    round_trip(run, fresh, [("follower", "add", "Minerva"), ("follower", "add", "Lorelai")],
               [("follower", "remove", "lorelai"), ("follower", "remove", "Minerva")])
    assert 'followers = [\n  "Vorn the Warrior",\n  "Maya the Ranger",\n]\n' in story(fresh)


def test_party_and_leader_change_and_change_back(run, fresh):
    ok(run("-C", str(fresh), "leader", "Andreas"))
    out = round_trip(run, fresh, [("party", "Wrong Name"), ("leader", "nyx")],
                     [("party", "Fresh Start"), ("leader", "Andreas")])
    assert out == ["party name: Fresh Start\n", "Party Leader: Andreas\n"]


def test_a_typo_is_refused_and_new_names_are_recorded_only_when_asked(run, fresh):
    before = snapshot(fresh)
    r = run("-C", str(fresh), "outcome", "add", "Drinkin Pal")
    assert (r.exit_code, r.stderr) == (1, "error: no Outcome called 'Drinkin Pal'; did you mean 'Drinking Pal'? (if "
                                          "it is an Outcome drunagor does not know, add --new to record it)\n")
    r = run("-C", str(fresh), "stash", "add", "Potion of Heling")
    assert r.exit_code == 1 and "did you mean 'Potion of Healing'?" in r.stderr
    assert snapshot(fresh) == before


def test_the_stash_holds_consumables_and_takes_out_the_last_copy(run, fresh):
    r = run("-C", str(fresh), "stash", "add", "Twin-Blades")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/fresh/story.toml:9: stash: Twin-Blades is a spoils card, "
                                          "not a Consumable Item: only Consumable Items go to the party stash "
                                          "(Rulebook: Removing a Hero, L972-974); a leaving hero's other cards return to the box\n")
    ok(run("-C", str(fresh), "stash", "add", "Potion of Healing"))
    ok(run("-C", str(fresh), "stash", "add", "Scroll of Beguile"))
    ok(run("-C", str(fresh), "stash", "add", "Potion of Healing"))
    r = ok(run("-C", str(fresh), "stash", "remove", "potion of healing"))
    assert r.stdout == "party stash: Potion of Healing taken out (2 left)\n"
    assert 'stash = [\n  "Potion of Healing",\n  "Scroll of Beguile",\n]' in story(fresh)
    r = run("-C", str(fresh), "stash", "remove", "Dragon's Breath")
    assert r.exit_code == 1 and "no card called \"Dragon's Breath\"" in r.stderr
    ok(run("-C", str(fresh), "stash", "remove", "Potion"))
    ok(run("-C", str(fresh), "stash", "remove", "Scroll"))
    r = run("-C", str(fresh), "stash", "remove", "Scroll")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/fresh/story.toml:9: stash: the party stash is empty; "
                                          "nothing to take out\n")


# ------------------------------------------------------------------------------------ the decks

def test_chest_add_and_chest_remove_with_card_forget_leave_the_file_as_it_was(run, fresh):
    out = round_trip(run, fresh,
                     [("chest", "add", "Potion of Healing", "--copies", "3", "--rarity", "common"),
                      ("chest", "add", "Elixir of Doom", "--type", "potion", "--rarity", "rare")],
                     [("chest", "remove", "elixir"), ("chest", "remove", "Potion of Healing", "--copies", "2"),
                      ("chest", "remove", "Potion of Healing"), ("card", "forget", "Potion of Healing"),
                      ("card", "forget", "Elixir of Doom")])
    assert out == [
        "Chest deck: removed Elixir of Doom; 3 of 18 Potions and Scrolls recorded\n",
        "Chest deck: removed 2 Potion of Healing; 1 of 18 Potions and Scrolls recorded\n",
        "Chest deck: removed Potion of Healing; 0 of 18 Potions and Scrolls recorded\n",
        "forgot what was recorded about Potion of Healing under [cards]: rarity common\n",
        "forgot what was recorded about Elixir of Doom under [cards]: type potion, rarity rare\n",
    ]


def test_chest_remove_lowers_the_copies_in_place_and_refuses_what_is_not_there(run, example):
    text = (example / "story.toml").read_text()
    ok(run("chest", "remove", "Scroll of Incinerate"))
    assert (example / "story.toml").read_text() == text.replace(
        '{ name = "Scroll of Incinerate", copies = 2 }', '{ name = "Scroll of Incinerate", copies = 1 }')
    before = snapshot(example)
    for args, code, message in [
        (("Treasure Trove",), 1, "campaigns/example/story.toml:25: chest-deck: Treasure Trove is one of the Epic Rare pair, which is fixed (Rulebook: New Chest Items, L345); "
                                 "only Potions and Scrolls are taken out; name a Potion or a Scroll of the deck"),
        (("Scroll of Protection",), 1, "campaigns/example/story.toml:28: chest-deck: 'Scroll of Protection' is not in the Chest deck; the deck holds: "
                                       "Scroll of Incinerate, Scroll of Beguile"),
        (("Scroll of Beguile", "--copies", "3"), 1, "campaigns/example/story.toml:30: chest-deck: the Chest deck holds "
                                                    "2 Scroll of Beguile, not 3; remove at most 2"),
        (("Scroll of Beguile", "--copies", "0"), 2, "chest-deck: --copies must be at least 1, not 0"),
        (("Scroll",), 2, "'Scroll' could be any of: Scroll of Beguile, Scroll of Incinerate; type more of the card's "
                         "name"),
        (("Scroll of Beguiel",), 1, "campaigns/example/story.toml:28: chest-deck: 'Scroll of Beguiel' is not in the "
                                    "Chest deck; did you mean 'Scroll of Beguile'? the deck holds: Scroll of "
                                    "Incinerate, Scroll of Beguile"),
    ]:
        r = run("chest", "remove", *args)
        assert (r.exit_code, r.stderr) == (code, f"error: {message}\n"), r
    assert snapshot(example) == before


def test_commander_add_and_remove_with_a_recorded_position_leave_the_file_as_it_was(run, fresh):
    out = round_trip(run, fresh, [("commander", "add", "Haste"), ("commander", "add", "Claw", "--position", "red-top")],
                     [("commander", "remove", "claw"), ("commander", "remove", "Haste"), ("card", "forget", "Claw")])
    assert out[-1] == "forgot what was recorded about Claw under [cards]: position red-top\n"


# ------------------------------------------------------------------------------------ card facts

def test_card_set_records_corrects_and_forget_takes_back(run, example):
    before = snapshot(example)
    r = ok(run("card", "set", "Elixir of Doom", "--type", "potion", "--rarity", "rare"))
    assert r.stdout == "recorded under [cards]: Elixir of Doom: type potion, rarity rare\n"
    assert ('[cards]                         # facts we recorded once: type, rarity, rune position, epic\n'
            '"Elixir of Doom" = { type = "potion", rarity = "rare" }\n\n[commander]') in story(example)
    r = ok(run("card", "set", "elixir of doom", "--rarity", "uncommon", "--kind", "consumable"))
    assert r.stdout == "recorded under [cards]: Elixir of Doom: rarity uncommon (was rare), kind consumable\n"
    assert '"Elixir of Doom" = { type = "potion", rarity = "uncommon", kind = "consumable" }\n' in story(example)
    r = ok(run("card", "forget", "Elixir", "--fact", "kind"))
    assert r.stdout == "forgot what was recorded about Elixir of Doom under [cards]: kind consumable\n"
    assert '"Elixir of Doom" = { type = "potion", rarity = "uncommon" }\n' in story(example)
    ok(run("card", "forget", "Elixir of Doom"))
    assert snapshot(example) == before


def test_card_set_is_checked_as_the_commands_that_use_the_fact(run, example):
    ok(run("chest", "add", "Scroll of Icy Bolts", "--copies", "0", "--rarity", "common"))
    before = snapshot(example)
    for args, code, message in [
        (("Potion of Heling", "--rarity", "common"), 1,  # a near miss: a fact flag does not make it new
         "'Potion of Heling' is not a card drunagor knows, and it is very like 'Potion of Healing'; did you mean "
         "'Potion of Healing'? If 'Potion of Heling' is new, add --new to record it as typed"),
        (("Haste", "--position", "red-top"), 2,
         "card-facts: Haste holds the orange-bottom Rune position (Rulebook: New Commander Attack Cards, L824-826), not red-top; leave the flag out: "
         "drunagor knows this card"),
        (("Scroll of Beguile", "--rarity", "rare"), 2,
         "card-facts: Scroll of Beguile is common, not rare (the publisher's companion app; rarity Rulebook: Preparing the Chest Deck, L365); leave the flag out: drunagor "
         "knows this card"),
        (("Frozen Tears of Alagast", "--not-epic"), 2,
         "card-facts: Frozen Tears of Alagast is an Epic Item (Rulebook: Improving Spoils Equipment, L417); leave the flag out: drunagor knows this card"),
        (("Scroll of Icy Bolts",), 2,
         "no fact to record; give one: --type, --rarity, --epic|--not-epic, --position or --kind"),
        (("Scroll of Icy Bolts", "--kind", "weapon"), 2,
         "--kind must be one of starting, spoils, adventure, epic, consumable, not 'weapon'"),
        (("Claw", "--position", "purple-top"), 2,
         "card-facts: 'purple-top' is not a Rune position; write COLOUR-top or COLOUR-bottom, colours: red, blue, "
         "green, orange, gray"),
    ]:
        r = run("card", "set", *args)
        assert (r.exit_code, r.stderr) == (code, f"error: {message}\n"), (args, r)
    assert snapshot(example) == before


def test_card_set_keeps_the_decks_legal(run, example):
    # the example's deck holds 4 Common Scrolls: a fifth Common Scroll would break the grid (RB L357-359)
    ok(run("chest", "add", "Scroll of Icy Bolts", "--copies", "1", "--rarity", "uncommon"))
    before = snapshot(example)
    r = run("card", "set", "Scroll of Icy Bolts", "--rarity", "common")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/example/story.toml:28: chest-deck: recording Scroll of "
                                          "Icy Bolts as a Common Scroll would break the grid: 5 Common Scrolls: the "
                                          "grid holds 4 (Rulebook: Preparing the Chest Deck, L357-359); record the deck as it is on the table; to "
                                          "change a card, use drunagor chest swap OUT IN\n")
    ok(run("commander", "add", "Claw", "--position", "red-top"))
    ok(run("commander", "add", "Bite", "--position", "red-bottom"))
    r = run("card", "set", "Bite", "--position", "red-top")
    assert r.exit_code == 1 and ("Claw already holds the red-top Rune position in the Commander Attack deck: no "
                                 "position may be held by two cards (Rulebook: New Commander Attack Cards, L822-824)") in r.stderr
    assert "Bite" in story(example) and snapshot(example) != before
    r = ok(run("card", "set", "Bite", "--position", "blue-top"))
    assert r.stdout == "recorded under [cards]: Bite: position blue-top (was red-bottom)\n"


def test_card_set_of_a_value_the_catalog_gives_drops_a_wrong_recorded_one(run, example):
    text = story(example).replace("[cards]                         # facts we recorded once: type, rarity, rune "
                                  "position, epic\n", '[cards]\nHaste = { position = "red-top" }\n')
    (example / "story.toml").write_text(text)
    assert "card forget Haste --fact position" in run("check").stdout
    r = ok(run("card", "set", "haste", "--position", "orange-bottom"))
    assert r.stdout == ("recorded under [cards]: Haste: position orange-bottom (drunagor knows it; the recorded "
                        "red-top forgotten)\n")
    assert "Haste" not in story(example).split("[cards]")[1].split("[commander]")[0]
    assert "card-facts" not in run("check").stdout


def test_card_forget_says_what_a_deck_no_longer_knows_and_refuses_what_is_not_recorded(run, example):
    ok(run("chest", "add", "Scroll of Icy Bolts", "--copies", "1", "--rarity", "uncommon"))
    r = run("card", "forget", "Scroll of Icy Bolts", "--fact", "type")
    assert (r.exit_code, r.stderr) == (2, "error: card-facts: no type is recorded about Scroll of Icy Bolts; "
                                          "recorded: rarity uncommon\n")
    r = run("card", "forget", "Potion of Healing")
    assert r.exit_code == 1 and "no card called 'Potion of Healing'" in r.stderr
    r = ok(run("card", "forget", "Scroll of Icy Bolts"))
    assert r.stderr == ("warning: the rarity of Scroll of Icy Bolts in the Chest deck is now unknown; record it again: "
                        "drunagor card set \"Scroll of Icy Bolts\" --rarity common|uncommon|rare\n")


def test_card_show_lists_what_is_recorded_and_what_drunagor_knows(run, example):
    r = ok(run("card", "show"))
    assert r.stdout == ("no card facts recorded under [cards]; record one with drunagor card set NAME --rarity R (or "
                        "--type, --epic|--not-epic, --position, --kind)\n")
    ok(run("card", "set", "Potion of Healing", "--rarity", "common"))
    ok(run("card", "set", "Claw", "--position", "red-top"))
    r = ok(run("card", "show"))
    assert r.stdout == """\
Card               Type    Rarity  Epic  Position  Kind        Recorded
Potion of Healing  potion  common  no    -         consumable  rarity common
Claw               -       -       -     red-top   -           position red-top
"""
    data = json.loads(ok(run("card", "show", "haste", "--json")).stdout)
    assert data == {"cards": [{"name": "Haste", "type": None, "rarity": None, "epic": None,
                               "position": "orange-bottom", "kind": None, "recorded": {}, "in_catalog": True}]}
    data = json.loads(ok(run("card", "show", "--json")).stdout)
    assert [c["name"] for c in data["cards"]] == ["Potion of Healing", "Claw"]
    assert data["cards"][1] == {"name": "Claw", "type": None, "rarity": None, "epic": None, "position": "red-top",
                                "kind": None, "recorded": {"position": "red-top"}, "in_catalog": False}


# --------------------------------------------------------------------------------------- messages

def test_an_empty_story_toml_is_never_advised_to_be_deleted(run, example):
    (example / "story.toml").write_text("")
    r = run("show")
    assert (r.exit_code, r.stderr) == (3, "error: campaigns/example/story.toml: empty-file: the file is empty; "
                                          "restore it from git (git checkout -- FILE); without git, write `schema = "
                                          "1` in it to start the Story Record again\n")
    (example / "story.toml").write_text("schema = 1\n")  # the advice works
    assert run("show").exit_code == 0


def test_check_advice_names_commands_that_exist(run, example):
    write(example / "story.toml", story(example).replace(
        '{ name = "Scroll of Incinerate", copies = 2 }', '{ name = "Scroll of Incinerate", copies = 3 }'))
    r = run("check")
    advice = r.stdout.split("e.g. ", 1)[1].split(",", 1)[0]
    assert advice == 'drunagor chest remove "Scroll of Beguile"'
    ok(run("chest", "remove", "Scroll of Incinerate"))
    assert "chest-deck" not in run("check").stdout


def test_card_show_leaves_out_a_heros_board_facts(run, example):
    assert run("cube", "Nyx", "curse", "+1", "--capacity", "5").exit_code == 0  # stored under [cards] "Nyx"
    assert run("card", "set", "Potion of Haste", "--rarity", "uncommon").exit_code == 0
    import json

    names = [card["name"] for card in json.loads(run("card", "show", "--json").stdout)["cards"]]
    assert names == ["Potion of Haste"]

"""`drunagor raid`, `battalion` and `odds` through the command line: every branch of the Dreadful Raid
from the rulebook text (RB L277-315), the Monster Battalion (RB L1311-1321) and Siege (RB L1237), the
exact state written, and the SPEC 8 JSON contracts."""

import json
import random
import tempfile
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drunagor_log.rules.raid import manifest
from tests.conftest import snapshot, write

STORY = """
schema = 1
campaign = "awakenings"
party = "Test Party"
leader = "Andreas"

[track]
"01" = "completed"
"02" = "completed"
"03" = "completed"
"04" = "completed"

[rules]
trauma_limit = 1
max_heroes = 5
rune_bag = { red = 7, blue = 8, green = 7, orange = 7, gray = 7 }
"""

# Chapter 05 in its third round: Piles 1 and 2 hold blue, the bag holds 6 runes (RB L1183-1207).
GOLDEN = """
schema = 1
# The adventure under way: written by drunagor, not by hand (drunagor adventure show).
chapter = "05"
heroes = 4
bag = { red = 2, blue = 1, green = 1, orange = 0, gray = 2 }
track = { red = 4, blue = 5, green = 4, orange = 5, gray = 4 }
raid = { card = "Dreadful Raid", face = "B", minions = ["Tidehunter"], rank = "Minion", model_limit = 4 }
ranks = {}
piles = [
  { id = "1", runes = { blue = 1, green = 1, orange = 1 } },
  { id = "2", runes = { red = 1, blue = 1, green = 1, orange = 1, gray = 1 } },
]
monsters = [
  { name = "Fell Asteris", rank = "Gray", slot = 1 },
  { name = "Gremlin Horde", rank = "White", slot = 3 },
]
log = [
  { event = "start", text = "chapter 05 under way" },
]
"""


@pytest.fixture
def table(tmp_path) -> Path:
    """A campaign after chapter 04, with the adventure of chapter 05 under way (GOLDEN)."""
    root = tmp_path / "campaigns" / "test"
    write(root / "story.toml", STORY)
    write(root / "adventure.toml", GOLDEN)
    (root / "heroes").mkdir()
    return root


def adventure(root: Path, *, face="B", heroes=4, piles=(), monsters=(), chapter="05", bag=None,
              raid='card = "Dreadful Raid", face = "{face}", minions = ["Tidehunter"], rank = "Minion", model_limit = 4'):
    """Write adventure.toml: the piles as {colour: n} dicts, the monsters as (name, rank, slot) tuples (slot
    None: a boss). The bag is the whole rune bag minus the runes in the piles, the track empty."""
    bag = dict(bag or {"red": 7, "blue": 8, "green": 7, "orange": 7, "gray": 7})
    for pile in piles:
        for colour, n in pile.items():
            bag[colour] -= n
    lines = ["schema = 1", f'chapter = "{chapter}"', f"heroes = {heroes}",
             "bag = { " + ", ".join(f"{c} = {n}" for c, n in bag.items()) + " }",
             "track = { " + ", ".join(f"{c} = 0" for c in bag) + " }"]
    if raid:
        lines.append("raid = { " + raid.format(face=face) + " }")
    lines.append("piles = [")
    for i, pile in enumerate(piles, 1):
        lines.append(f'  {{ id = "{i}", runes = {{ ' + ", ".join(f"{c} = {n}" for c, n in pile.items()) + " } },")
    lines.append("]")
    lines.append("monsters = [")
    for name, rank, slot in monsters:
        where = f"slot = {slot}" if slot else "boss = true"
        lines.append(f'  {{ name = "{name}", rank = "{rank}", {where} }},')
    lines += ["]", "log = []", ""]
    (root / "adventure.toml").write_text("\n".join(lines))


def raid_json(run, *args):
    r = run("raid", "--json", *args)
    assert r.exit_code == 0, r
    return json.loads(r.stdout)


def state(root: Path) -> dict:
    import tomllib

    return tomllib.loads((root / "adventure.toml").read_text())


# ------------------------------------------------------------------------------ the golden case


def test_golden_raid_prints_the_four_steps_and_writes_the_state(run, table):
    r = run("raid", "--seed", "2")
    assert r.exit_code == 0, r
    assert r.stdout == """\
Dreadful Raid: chapter 05, 4 heroes, face B; rune drawn with seed 2 (--seed 2 replays it)
1. Check the face of the Dreadful Raid card (Rulebook: Dreadful Raid, L285)
   Face B: it tries to summon, whatever is on the board (2 monsters now).
2. Manifest a Rune (Rulebook: Dreadful Raid, L295)
   Manifested blue (back in the bag); Piles 1, 2 hold blue: the Party Leader (Andreas) picks the spawn point.
3. Summon a Raid Party of Minions (Rulebook: Dreadful Raid, L305-315)
   4 heroes: a raid party of 2 minions (Tidehunter). Placed in slot 2 (dark blue), slot 4 (green).
4. Flip the card (Rulebook: Dreadful Raid, L286)
   Face B -> face A, even when nothing is summoned.
raid: 2 Tidehunter placed (slots 2, 4) by rune blue; the card now shows face A (seed 2)
"""
    assert r.stderr == ""
    assert (table / "adventure.toml").read_text() == """\
schema = 1
# The adventure under way: written by drunagor, not by hand (drunagor adventure show).
chapter = "05"
heroes = 4
bag = { red = 2, blue = 1, green = 1, orange = 0, gray = 2 }
track = { red = 4, blue = 5, green = 4, orange = 5, gray = 4 }
raid = { card = "Dreadful Raid", face = "A", minions = ["Tidehunter"], rank = "Minion", model_limit = 4 }
ranks = {}
piles = [
  { id = "1", runes = { blue = 1, green = 1, orange = 1 } },
  { id = "2", runes = { red = 1, blue = 1, green = 1, orange = 1, gray = 1 } },
]
monsters = [
  { name = "Fell Asteris", rank = "Gray", slot = 1 },
  { name = "Tidehunter", rank = "Minion", slot = 2 },
  { name = "Gremlin Horde", rank = "White", slot = 3 },
  { name = "Tidehunter", rank = "Minion", slot = 4 },
]
log = [
  { event = "start", text = "chapter 05 under way" },
  { event = "raid", face = "B", rune = "blue", bag = { red = 2, blue = 1, green = 1, orange = 0, gray = 2 }, piles = [{ id = "1", runes = { blue = 1, green = 1, orange = 1 } }, { id = "2", runes = { red = 1, blue = 1, green = 1, orange = 1, gray = 1 } }], chance = "1/1", placed = ["Tidehunter", "Tidehunter"], failed = [], seed = 2, text = "2 Tidehunter placed (slots 2, 4) by rune blue; the card now shows face A" },
]
events = [
  { event = "raid", log = 1, before = { raid = { card = "Dreadful Raid", face = "B", minions = ["Tidehunter"], rank = "Minion", model_limit = 4 }, monsters = [{ name = "Fell Asteris", rank = "Gray", slot = 1 }, { name = "Gremlin Horde", rank = "White", slot = 3 }] } },
]
"""
    problems = json.loads(run("check", "--strict", "--json").stdout)["errors"]
    assert [p for p in problems if p["file"].endswith("adventure.toml")] == []


def test_dry_run_prints_the_same_and_writes_nothing(run, table):
    before = snapshot(table)
    r = run("raid", "--seed", "2", "--dry-run")
    assert r.exit_code == 0, r
    assert r.stdout.splitlines()[:9] == run("raid", "--seed", "2", "--dry-run").stdout.splitlines()[:9]
    assert "3. Summon a Raid Party of Minions (Rulebook: Dreadful Raid, L305-315)" in r.stdout
    assert r.stdout.endswith("dry run: nothing written\n")
    assert snapshot(table) == before
    data = raid_json(run, "--seed", "2", "--dry-run")
    assert data["dry_run"] is True and data["placed"] == 2
    assert snapshot(table) == before


def test_the_same_seed_gives_the_same_rune(run, table):
    bag = state(table)["bag"]
    runes = set()
    for seed in range(1, 15):
        first = raid_json(run, "--seed", str(seed), "--dry-run")
        again = raid_json(run, "--seed", str(seed), "--dry-run")
        assert first["rune"] == again["rune"] == manifest(bag, random.Random(seed))
        assert first["seed"] == seed
        runes.add(first["rune"])
    assert len(runes) > 1  # the seed decides


def test_without_a_seed_one_is_picked_printed_and_logged(run, table):
    r = run("raid")
    assert r.exit_code == 0, r
    head = r.stdout.splitlines()[0]
    seed = int(head.split("seed ")[1].split(" ")[0])
    entry = state(table)["log"][-1]
    assert entry["seed"] == seed
    assert entry["rune"] == manifest(state(table)["bag"], random.Random(seed))


def test_a_physical_draw_is_recorded_without_a_seed(run, table):
    r = run("raid", "--rune", "RED")
    assert r.exit_code == 0, r
    assert "rune drawn at the table" in r.stdout.splitlines()[0]
    entry = state(table)["log"][-1]
    assert entry == {"event": "raid", "face": "B", "rune": "red", "physical": True,
                     "bag": {"red": 2, "blue": 1, "green": 1, "orange": 0, "gray": 2},
                     "piles": [{"id": "1", "runes": {"blue": 1, "green": 1, "orange": 1}},
                               {"id": "2", "runes": {"red": 1, "blue": 1, "green": 1, "orange": 1, "gray": 1}}],
                     "chance": "1/1", "placed": ["Tidehunter", "Tidehunter"], "failed": [],
                     "text": "2 Tidehunter placed (slots 2, 4) by rune red; the card now shows face A"}
    assert "Manifested red (back in the bag); Pile 2 holds red: the minions spawn adjacent to it." in r.stdout


# --------------------------------------------------------------------- each branch of the raid


def test_face_a_with_monsters_on_the_board_summons_nothing_and_flips(run, camp):
    # RB L284: face A "will only attempt to summon Minions if the board is non-threatening"; RB L286.
    write(camp / "story.toml", STORY)
    adventure(camp, face="A", piles=[{"red": 1}], monsters=[("Fell Asteris", "Gray", 1)])
    data = raid_json(run, "--seed", "3")
    assert {k: data[k] for k in ("face", "next_face", "rune", "seed", "placed", "failed", "summoned", "reason")} == {
        "face": "A", "next_face": "B", "rune": None, "seed": None, "placed": 0, "failed": 0, "summoned": [],
        "reason": "face A summons only when no monster is on the board"}
    after = state(camp)
    assert after["raid"]["face"] == "B"
    assert after["monsters"] == [{"name": "Fell Asteris", "rank": "Gray", "slot": 1}]
    assert after["log"][-1] == {"event": "raid", "face": "A", "bag": {"red": 6, "blue": 8, "green": 7, "orange": 7,
                                                                      "gray": 7},
                                "piles": [{"id": "1", "runes": {"red": 1}}], "chance": "0/1", "placed": [],
                                "failed": [], "text": "nothing summoned (face A summons only when no "
                                "monster is on the board); the card now shows face B"}


def test_face_a_on_an_empty_board_summons(run, camp):
    write(camp / "story.toml", STORY)
    adventure(camp, face="A", piles=[{"red": 1}])
    data = raid_json(run, "--rune", "red")
    assert (data["placed"], data["next_face"], data["summoned"]) == (2, "B", [{"name": "Tidehunter", "slot": 1},
                                                                            {"name": "Tidehunter", "slot": 2}])


@pytest.mark.parametrize("face, monsters", [("A", []), ("B", []), ("B", [("Fell Asteris", "Gray", 1)])])
def test_no_pile_of_runes_means_no_summon_whatever_the_face(run, camp, face, monsters):
    # RB L297: "if all Piles of Runes have already been removed ... regardless of which face".
    write(camp / "story.toml", STORY)
    adventure(camp, face=face, monsters=monsters)
    data = raid_json(run, "--seed", "1")
    assert data["rune"] is None and data["placed"] == 0 and data["failed"] == 0
    assert data["next_face"] == {"A": "B", "B": "A"}[face]
    if face == "B" or not monsters:
        assert data["reason"] == "no Pile of Runes is on the board"
    assert state(camp)["raid"]["face"] == data["next_face"]


def test_a_colour_absent_from_the_piles_is_a_breathing_space(run, camp):
    # RB L296: no matching rune on the board: "a 'breathing space' for the Heroes", and the card flips.
    write(camp / "story.toml", STORY)
    adventure(camp, face="B", piles=[{"red": 2}, {"gray": 1}])
    r = run("raid", "--rune", "green")
    assert r.exit_code == 0, r
    assert ("2. Manifest a Rune (Rulebook: Dreadful Raid, L296)\n   Manifested green (back in the bag); no Pile of Runes holds green: a "
            "breathing space, nothing is summoned.\n") in r.stdout
    assert r.stdout.endswith("raid: nothing summoned (no Pile of Runes holds a green rune: a breathing space); "
                             "the card now shows face A\n")
    after = state(camp)
    assert after["monsters"] == [] and after["raid"]["face"] == "A"
    assert after["log"][-1]["rune"] == "green" and after["log"][-1]["physical"] is True


@pytest.mark.parametrize("heroes, minions", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3)])
def test_the_raid_party_is_one_two_or_three_minions_by_heroes(run, camp, heroes, minions):
    # RB L306-308
    write(camp / "story.toml", STORY)
    adventure(camp, heroes=heroes, piles=[{"red": 1}], monsters=[("Fell Asteris", "Gray", 1)])
    data = raid_json(run, "--rune", "red")
    assert data["party_size"] == minions and data["heroes"] == heroes
    assert data["placed"] == minions and data["failed"] == 0
    assert data["summoned"] == [{"name": "Tidehunter", "slot": s} for s in range(2, 2 + minions)]
    assert [m["slot"] for m in state(camp)["monsters"]] == list(range(1, 2 + minions))


ELEVEN = [("Gremlin Horde", "White", 1), ("Grim Doctor", "White", 2), ("Gremlin Horde", "White", 3),
          ("Night Stalker", "Gray", 4), ("Tidehunter", "Minion", 5), ("Fell Asteris", "Gray", 6),
          ("Nagian Hunter", "White", 7), ("Skeleton Archer", "White", 8), ("Shadow Cultist", "White", 9),
          ("Rotten Flesh", "Gray", 10), ("Gorgoness Witch", "White", 11), ("Awakened King", "Overlord", None)]


def test_three_to_summon_with_room_for_one(run, camp):
    # RB L313: summon the one that fits, the other two "Failed to Be Summoned"; each activates the non-boss
    # monster of highest rank (the boss is left out, RB L312); Grays in slots 4, 6 and 10 tie: slot 4 wins.
    write(camp / "story.toml", STORY)
    adventure(camp, heroes=5, piles=[{"red": 1}], monsters=ELEVEN)
    r = run("raid", "--rune", "red")
    assert r.exit_code == 0, r
    assert ("3. Summon a Raid Party of Minions (Rulebook: Dreadful Raid, L305-315)\n   5 heroes: a raid party of 3 minions (Tidehunter). "
            "Placed in slot 12 (brown). 2 minions failed to be summoned (all 12 status-board tracks are taken): "
            "activate Night Stalker in slot 4 (green) for each.\n") in r.stdout
    assert r.stdout.endswith("raid: 1 Tidehunter placed (slot 12 (brown)) by rune red; 2 failed to be summoned: "
                             "activate Night Stalker in slot 4 (green), 2 times; the card now shows face A\n")
    adventure(camp, heroes=5, piles=[{"red": 1}], monsters=ELEVEN)
    data = raid_json(run, "--rune", "red")
    assert (data["placed"], data["failed"], data["activations"]) == (1, 2, ["Night Stalker", "Night Stalker"])
    assert data["summoned"] == [{"name": "Tidehunter", "slot": 12}]
    assert data["reason"] is None


def test_all_twelve_tracks_taken_fails_every_minion(run, camp):
    # RB L311: "all 12 Health Tracks on the Monster Status board have been filled"
    write(camp / "story.toml", STORY)
    twelve = ELEVEN[:-1] + [("Abomination", "Black", 12)]
    adventure(camp, heroes=3, piles=[{"red": 1}], monsters=twelve)
    data = raid_json(run, "--rune", "red")
    assert (data["placed"], data["failed"], data["activations"]) == (0, 2, ["Abomination", "Abomination"])
    assert data["reason"] == "every minion failed to be summoned: all 12 status-board tracks are taken"
    assert len(state(camp)["monsters"]) == 12


def test_all_four_models_of_the_minion_out_fails_it(run, camp):
    # RB L311: "If all 4 models of a Minion are already on the board"
    write(camp / "story.toml", STORY)
    four = [("Tidehunter", "Minion", s) for s in (1, 2, 3, 4)] + [("Grim Doctor", "White", 5)]
    adventure(camp, heroes=2, piles=[{"red": 1}], monsters=four)
    data = raid_json(run, "--rune", "red")
    assert (data["placed"], data["failed"], data["activations"]) == (0, 1, ["Grim Doctor"])
    assert data["reason"] == "every minion failed to be summoned: all 4 models of Tidehunter are on the board"


def test_a_scenario_monster_raid_places_scenario_monsters(run, camp):
    # Chapter 02's Nightmare Raid summons the Nightmare Scenario Monster card (RB L1102).
    write(camp / "story.toml", STORY.replace('"02" = "completed"\n"03" = "completed"\n"04" = "completed"\n', ""))
    adventure(camp, chapter="02", heroes=2, piles=[{"red": 1}],
              raid='card = "Dreadful Raid", face = "{face}", minions = ["Nightmare"], rank = "Scenario", model_limit = 3')
    assert raid_json(run, "--rune", "red")["summoned"] == [{"name": "Nightmare", "slot": 1}]
    assert state(camp)["monsters"] == [{"name": "Nightmare", "rank": "Scenario", "slot": 1}]


def test_raid_json_says_which_of_two_same_named_monsters_each_failure_activates(run, camp):
    # `activations` holds names (SPEC 8); with two Fell Asteris on the board only the slot tells them apart:
    # ties of rank go to the higher status-board slot (RB L315), slot 3 before slot 7.
    write(camp / "story.toml", STORY)
    board = [("Gremlin Horde", "White", s) for s in (1, 2, 4, 5, 6, 8, 9, 10, 11, 12)]
    board += [("Fell Asteris", "Gray", 3), ("Fell Asteris", "Gray", 7)]
    adventure(camp, heroes=3, piles=[{"red": 1}], monsters=board)
    data = raid_json(run, "--rune", "red", "--dry-run")
    assert (data["activations"], data["activation_slots"]) == (["Fell Asteris", "Fell Asteris"], [3, 3])
    data = raid_json(run, "--rune", "gray", "--dry-run")  # a breathing space: nothing fails
    assert (data["activations"], data["activation_slots"]) == ([], [])
    (camp / "adventure.toml").unlink()
    data = raid_json(run, "--face", "B", "--heroes", "3", "--piles", "red", "--monsters", "12", "--rune", "red")
    assert (data["activations"], data["activation_slots"]) == ([None, None], [None, None])


def test_raid_json_has_the_spec_keys(run, table):
    data = raid_json(run, "--seed", "2", "--dry-run")
    assert set(data) >= {"face", "next_face", "rune", "seed", "matching_piles", "party_size", "placed", "failed",
                         "activations", "summoned", "reason"}
    assert data["matching_piles"] == ["1", "2"] and data["party_size"] == 2


def test_raid_json_writes_and_prints_only_json(run, table):
    r = run("raid", "--json", "--seed", "2")
    assert r.exit_code == 0
    assert json.loads(r.stdout)["dry_run"] is False
    assert state(table)["raid"]["face"] == "A"


# ------------------------------------------------------------------------ without an adventure


def test_the_raid_from_flags_alone_writes_nothing(run, camp):
    before = snapshot(camp)
    data = raid_json(run, "--face", "b", "--heroes", "5", "--piles", "red+blue,gray", "--monsters", "11",
                     "--rune", "red")
    assert (data["placed"], data["failed"], data["activations"], data["summoned"]) == (1, 2, [None, None], [])
    assert data["matching_piles"] == ["1"] and data["dry_run"] is True
    r = run("raid", "--face", "A", "--heroes", "2", "--piles", "none", "--monsters", "0")
    assert r.exit_code == 0
    assert "No Pile of Runes on the board" in r.stdout
    assert r.stdout.endswith("no adventure under way: nothing written\n")
    assert snapshot(camp) == before


def test_the_raid_from_flags_draws_from_the_campaign_s_bag(run, camp):
    data = raid_json(run, "--face", "B", "--heroes", "4", "--piles", "red", "--monsters", "2", "--seed", "5")
    assert data["rune"] == manifest({"red": 7, "blue": 8, "green": 7, "orange": 7, "gray": 7}, random.Random(5))


def test_the_raid_from_flags_needs_face_heroes_and_piles(run, camp):
    r = run("raid", "--face", "B")
    assert (r.exit_code, r.stderr) == (2, "error: no adventure under way: the raid needs --heroes, --piles, --monsters; "
                                          "e.g. drunagor raid --face B --heroes 4 --piles red,blue --monsters 3; or "
                                          "start the adventure (drunagor adventure start)\n")
    assert run("raid", "--face", "C", "--heroes", "4", "--piles", "red", "--monsters", "0").exit_code == 2
    assert run("raid", "--face", "A", "--heroes", "6", "--piles", "red", "--monsters", "0").exit_code == 2


def test_the_raid_from_flags_needs_the_monsters_on_the_board(run, camp):
    # Face A summons only on an empty board (RB L284): leaving --monsters out must not mean "none".
    r = run("raid", "--face", "A", "--heroes", "4", "--piles", "red", "--rune", "red")
    assert (r.exit_code, r.stderr) == (2, "error: no adventure under way: the raid needs --monsters; e.g. drunagor "
                                          "raid --face B --heroes 4 --piles red,blue --monsters 3; or start the "
                                          "adventure (drunagor adventure start)\n")


@pytest.mark.parametrize("args, message", [
    (("--monsters", "13"), "--monsters 13: the Monster Status board has 12 Health Tracks (Rulebook: Dreadful Raid, L311), so 0 to 12 "
                           "monsters take one; give --monsters from 0 to 12"),
    (("--monsters", "-1"), "--monsters -1: the Monster Status board has 12 Health Tracks (Rulebook: Dreadful Raid, L311), so 0 to 12 "
                           "monsters take one; give --monsters from 0 to 12"),
    (("--monsters", "2", "--minions", "3"), "--minions 3: a minion on the board is one of the 2 monsters on the "
                                            "board, and Tidehunter has 4 models (Rulebook: Dreadful Raid, L311); give --minions from 0 to 2"),
    (("--monsters", "12", "--minions", "5"), "--minions 5: a minion on the board is one of the 12 monsters on the "
                                             "board, and Tidehunter has 4 models (Rulebook: Dreadful Raid, L311); give --minions from 0 "
                                             "to 4"),
    (("--monsters", "3", "--minions", "-1"), "--minions -1: a minion on the board is one of the 3 monsters on the "
                                             "board, and Tidehunter has 4 models (Rulebook: Dreadful Raid, L311); give --minions from 0 "
                                             "to 3"),
    (("--monsters", "0", "--seed", "4", "--rune", "red"), "--seed replays a random draw; --rune records the rune "
                                                          "drawn at the table; give one of them"),
])
def test_the_raid_from_flags_refuses_a_board_that_cannot_be(run, camp, args, message):
    r = run("raid", "--face", "B", "--heroes", "4", "--piles", "red", "--minion", "Tidehunter", *args)
    assert (r.exit_code, r.stderr) == (2, f"error: {message}\n")


def test_the_raid_from_flags_takes_the_whole_range(run, camp):
    data = raid_json(run, "--face", "B", "--heroes", "5", "--piles", "red", "--monsters", "12", "--minions", "4",
                     "--minion", "Tidehunter", "--rune", "red")
    assert (data["placed"], data["failed"]) == (0, 3)
    data = raid_json(run, "--face", "A", "--heroes", "1", "--piles", "red", "--monsters", "0", "--minions", "0",
                     "--rune", "red")
    assert (data["placed"], data["failed"]) == (1, 0)


def test_seed_and_rune_together_are_refused_with_an_adventure_too(run, table):
    before = snapshot(table)
    r = run("raid", "--seed", "4", "--rune", "red")
    assert (r.exit_code, r.stderr) == (2, "error: --seed replays a random draw; --rune records the rune drawn at the "
                                          "table; give one of them\n")
    assert snapshot(table) == before


def test_flags_contradicting_the_adventure_are_refused(run, table):
    before = snapshot(table)
    r = run("raid", "--face", "A")
    assert (r.exit_code, r.stderr) == (2, "error: campaigns/test/adventure.toml: an adventure is under way: --face "
                                          "would contradict adventure.toml; leave them out: adventure.toml decides the "
                                          "face, heroes, Piles and board\n")
    assert snapshot(table) == before


def test_a_chapter_without_a_dreadful_raid_card_has_no_raid(run, camp):
    write(camp / "story.toml", STORY)
    adventure(camp, chapter="06", raid="")
    before = snapshot(camp)
    r = run("raid")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: raid: chapter 06 has no Dreadful Raid "
                                          "card; only chapters 02, 05 and 08 have one\n")
    assert snapshot(camp) == before
    adventure(camp, chapter="04", raid='card = "Naval Raid", face = "A", minions = ["Tidehunter", "Boatswain"], '
                                       'rank = "Minion", model_limit = 4')
    r = run("raid")
    assert r.exit_code == 1
    assert "the Naval Raid card resolves by its own text, which the rulebook does not give" in r.stderr
    assert snapshot(camp)["adventure.toml"] == (camp / "adventure.toml").read_bytes()


# ------------------------------------------------------------------------------------ battalion


def test_three_monsters_with_eleven_on_the_board_place_one_and_ask_for_four_activations(run, camp):
    # RB L1319: "if two Monsters could not be summoned, your party must Activate a Monster four times".
    write(camp / "story.toml", STORY)
    adventure(camp, piles=[{"red": 1}, {"blue": 1}], monsters=ELEVEN)
    r = run("battalion", "Gremlin Horde", "gremlin", "Gremlin Horde", "--near", "2")
    assert r.exit_code == 0, r
    assert r.stdout == """\
Monster Battalion: 3 monsters NEAR Pile 2
Place each within Range 1 of the reference, in an empty area where possible (Rulebook: Clarifications – Battalions, L1316-1318):
  Gremlin Horde in slot 12 (brown)
Not placed (all 12 status-board tracks are taken, Rulebook: Clarifications – Battalions, L1319): Gremlin Horde, Gremlin Horde
4 Activate a Monster commands (2 per monster not placed, Rulebook: Clarifications – Battalions, L1319); never the same monster twice in a row (Rulebook: Clarifications – Battalions, L1321); the party may choose (Rulebook: Clarifications – Battalions, L1320).
Proposed order:
  1. Night Stalker in slot 4 (green)
  2. Fell Asteris in slot 6 (black)
  3. Night Stalker in slot 4 (green)
  4. Fell Asteris in slot 6 (black)
battalion: Gremlin Horde in slot 12 (brown) placed near Pile 2; 2 not placed: 4 "Activate a Monster" commands
"""
    after = state(camp)
    assert after["monsters"][-2] == {"name": "Gremlin Horde", "rank": "White", "slot": 12}
    assert after["log"][-1] == {"event": "battalion", "placed": ["Gremlin Horde"],
                                "not_placed": ["Gremlin Horde", "Gremlin Horde"],
                                "text": "Gremlin Horde in slot 12 (brown) placed near Pile 2; "
                                                              "2 not placed: 4 \"Activate a Monster\" commands"}


def test_battalion_json_and_an_order_that_never_repeats(run, camp):
    write(camp / "story.toml", STORY)
    adventure(camp, monsters=ELEVEN[:10])
    before = snapshot(camp)
    r = run("battalion", *["Fell Asteris"] * 5, "--dry-run", "--json")
    assert r.exit_code == 0, r
    data = json.loads(r.stdout)
    assert set(data) >= {"placed", "not_placed", "activations", "order"}
    assert data["placed"] == ["Fell Asteris", "Fell Asteris"] and data["not_placed"] == ["Fell Asteris"] * 3
    assert data["activations"] == 6 and len(data["order"]) == 6
    assert all(a != b for a, b in zip(data["order"], data["order"][1:], strict=False))
    assert snapshot(camp) == before


def test_siege_activates_the_first_monster_of_the_same_kind(run, camp):
    # RB L1237: not the strongest monster: "the First Monster of that same kind, following the order on the
    # Monster Status board". Chapter 07 applies it by itself; --siege anywhere else. Chapter 07 uses only its
    # Scenario Monsters (RB L1245): the battalion summons two of them.
    write(camp / "story.toml", STORY)
    board = ELEVEN[:-1] + [("Vile Spawn", "Scenario", 12)]
    board[7] = ("Vile Spawn", "Scenario", 8)
    board[2] = ("Coiled Harridan", "Scenario", 3)
    adventure(camp, chapter="07", raid="", monsters=board)
    r = run("battalion", "Vile Spawn", "Coiled Harridan", "--models", "Vile Spawn=3", "--models", "Coiled Harridan=2")
    assert r.exit_code == 0, r
    assert ("Siege of Everedge: each activates the first monster of its own kind instead (Rulebook: Special Scenario Rule – Tower Defense, L1237):\n"
            "  Vile Spawn: activate Vile Spawn in slot 8 (gray)\n"
            "  Coiled Harridan: activate Coiled Harridan in slot 3 (pink)\n") in r.stdout
    adventure(camp, chapter="05", monsters=board)
    data = json.loads(run("battalion", "Vile Spawn", "--siege", "--json", "--dry-run").stdout)
    assert (data["activations"], data["order"], data["siege"]) == (1, ["Vile Spawn"], True)
    data = json.loads(run("battalion", "Vile Spawn", "--json", "--dry-run").stdout)
    assert (data["activations"], data["siege"]) == (2, False)


def test_battalion_of_an_unknown_monster_asks_its_rank_once(run, camp):
    write(camp / "story.toml", STORY)
    adventure(camp)
    r = run("battalion", "Mud Golem")
    assert (r.exit_code, r.stderr) == (1, "error: no monster called 'Mud Golem'; check the spelling (if it is a "
                                          "monster drunagor does not know, give its rank once with --rank "
                                          "\"Mud Golem=RANK\" (Overlord ... Minion))\n")
    assert run("battalion", "Mud Golem", "--rank", "mud golem=black").exit_code == 0
    after = state(camp)
    assert after["ranks"] == {"Mud Golem": "Black"}
    assert after["monsters"] == [{"name": "Mud Golem", "rank": "Black", "slot": 1}]
    assert run("battalion", "mud golem").exit_code == 0  # remembered


@pytest.mark.parametrize("args, message", [
    ((), "no adventure under way: the battalion needs --monsters, the monsters on the board (status-board tracks "
         "taken); e.g. drunagor battalion \"Gremlin Horde\" --monsters 11; or start the adventure (drunagor "
         "adventure start)"),
    (("--monsters", "13"), "--monsters 13: the Monster Status board has 12 Health Tracks (Rulebook: Dreadful Raid, L311), so 0 to 12 "
                           "monsters take one; give --monsters from 0 to 12"),
    (("--monsters", "-2"), "--monsters -2: the Monster Status board has 12 Health Tracks (Rulebook: Dreadful Raid, L311), so 0 to 12 "
                           "monsters take one; give --monsters from 0 to 12"),
])
def test_battalion_from_flags_needs_a_board_that_can_be(run, camp, args, message):
    r = run("battalion", "Gremlin Horde", *args)
    assert (r.exit_code, r.stderr) == (2, f"error: {message}\n")


def test_battalion_from_flags_alone(run, camp):
    before = snapshot(camp)
    data = json.loads(run("battalion", "Gremlin Horde", "Grim Doctor", "Fell Asteris", "--monsters", "11",
                          "--json").stdout)
    assert (data["placed"], data["not_placed"], data["activations"], data["order"]) == (
        ["Gremlin Horde"], ["Grim Doctor", "Fell Asteris"], 4, [])
    assert snapshot(camp) == before


# ----------------------------------------------------------------------------------------- odds


def test_odds_json_keys_and_exact_chance(run, camp):
    write(camp / "story.toml", STORY)
    adventure(camp, face="B", piles=[{"red": 1}, {"blue": 1, "red": 1}])
    r = run("odds", "--json")
    assert r.exit_code == 0, r
    data = json.loads(r.stdout)
    assert set(data) >= {"summon_chance", "summon_probability", "runes_in_bag", "by_colour"}
    # bag: red 5, blue 7, green 7, orange 7, gray 7 = 33; red or blue summons: 12/33
    assert (data["summon_chance"], data["runes_in_bag"]) == ("4/11", 33)
    assert data["summon_probability"] == pytest.approx(4 / 11)
    assert data["by_colour"] == {"red": 5, "blue": 7, "green": 7, "orange": 7, "gray": 7}
    r = run("odds")
    assert r.stdout == """\
Next raid: face B, 0 monsters on the board; the Piles of Runes hold red, blue
Chance it summons: 4/11 (36.4%)
Runes in the bag: 33 (red 5, blue 7, green 7, orange 7, gray 7)
The adventure fails when the last rune in the bag is drawn (Rulebook: Chapter 05 › Winning and Losing the Adventure, L1203).
"""


def test_odds_without_a_raid_card_are_nil(run, camp):
    write(camp / "story.toml", STORY)
    adventure(camp, chapter="06", raid="")
    data = json.loads(run("odds", "--json").stdout)
    assert (data["summon_chance"], data["reason"]) == ("0/1", "chapter 06 has no Dreadful Raid card")


def test_odds_of_a_raid_card_the_book_does_not_transcribe_are_unknown_never_none(run, camp):
    """Chapter 04's Naval Raid summons (RB L1171), by its own text, which the book leaves out (RB L1161)."""
    write(camp / "story.toml", STORY)
    adventure(camp, chapter="04", piles=[{"red": 1}], raid='card = "Naval Raid", face = "A", minions = ["Tidehunter", '
                                                           '"Boatswain"], rank = "Minion", model_limit = 4')
    data = json.loads(run("odds", "--json").stdout)
    assert (data["summon_chance"], data["summon_probability"], data["try_chance"], data["try_probability"]) == (
        None, None, None, None)
    assert data["reason"] == ("the Naval Raid card resolves by its own text, which the rulebook does not transcribe "
                              "(chapter 04, RB L1171)")
    assert run("odds").stdout.splitlines()[0] == (
        "Chance it summons: unknown: the Naval Raid card resolves by its own text, which the rulebook does not "
        "transcribe (chapter 04, Rulebook: Special Mechanic – Naval Raid, L1171)")


bags = st.fixed_dictionaries({c: st.integers(0, 4) for c in ("red", "blue", "green", "orange", "gray")})
piles_st = st.lists(st.dictionaries(st.sampled_from(["red", "blue", "green", "orange", "gray"]), st.integers(1, 2),
                                    min_size=1), max_size=3)


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(bag=bags, piles=piles_st, face=st.sampled_from("AB"), monsters=st.integers(0, 3))
def test_odds_equal_an_exhaustive_enumeration_over_the_bag(run, bag, piles, face, monsters):
    """Every rune in the bag, drawn in turn, through the raid itself: the share that summons."""
    from drunagor_log.model.adventure import Monster, Pile
    from drunagor_log.rules.raid import no_summon_reason, resolve_raid

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write(root / "story.toml", STORY)
        board = [("Fell Asteris", "Gray", s) for s in range(1, monsters + 1)]
        full = {c: bag[c] + sum(p.get(c, 0) for p in piles) for c in bag}
        adventure(root, face=face, piles=piles, monsters=board, bag=full)
        data = json.loads(run("-C", str(root), "odds", "--json").stdout)
    the_piles = [Pile(str(i), p) for i, p in enumerate(piles, 1)]
    the_board = [Monster(*m) for m in board]
    runes = [c for c, n in bag.items() for _ in range(n)]
    summons = 0
    if runes and no_summon_reason(face, monsters_on_board=monsters, piles=the_piles) is None:
        for rune in runes:
            result = resolve_raid(face=face, heroes=4, minion="Tidehunter", piles=the_piles, rune=rune,
                                  board=the_board)
            summons += result.placed + result.failed > 0
    expected = Fraction(summons, len(runes)) if runes else Fraction(0)
    assert Fraction(data["summon_chance"]) == expected
    assert data["runes_in_bag"] == len(runes) and data["by_colour"] == bag


# -------------------------------------------------------------------------------------- speed

BUDGET = r"""
import json, pathlib, sys
read = []
original = pathlib.Path.read_bytes
def spy(self):
    read.append(self.name if self.parent.name != "heroes" else "heroes/" + self.name)
    return original(self)
pathlib.Path.read_bytes = spy
sys.argv = ["drunagor", "-C", sys.argv[1], *sys.argv[2:]]
from drunagor_log.cli.app import main  # the installed script's path: only the typed command is built
try:
    main()
except SystemExit as exit:
    code = exit.code
heavy = [m for m in ("tomlkit", "fractions", "rich", "drunagor_log.rules.odds") if m in sys.modules]
catalog = sys.modules.get("drunagor_log.catalog.facts")
heads = sys.modules.get("drunagor_log.catalog.headings")  # the sections of the printed citations (SPEC 11)
index = 1 if heads is not None and heads._table.cache_info().currsize else 0
if catalog is not None and catalog._load.cache_info().currsize > index:  # the module is cheap; its data is not
    heavy.append("the catalog's data")
print(json.dumps({"code": code, "heavy": heavy, "heroes_read": [p for p in read if p.startswith("heroes/")]}))
"""


@pytest.mark.parametrize("args", [("raid", "--dry-run", "--seed", "7"), ("raid", "--seed", "7")])
@pytest.mark.slow  # starts a Python
def test_raid_imports_and_reads_only_what_it_needs(example, args):
    # SPEC 7: the raid reads story.toml and adventure.toml only; no tomlkit, no fractions, no rich when piped.
    import os
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", BUDGET, str(example), *args], capture_output=True, text=True,
                         env={**os.environ, "NO_COLOR": "1"}, check=True).stdout
    report = json.loads(out.splitlines()[-1])
    assert report == {"code": 0, "heavy": [], "heroes_read": []}

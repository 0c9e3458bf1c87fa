"""The adventure under way through the command line: adventure start/show/end, Piles of Runes, the Tie
Breaker, draws, monsters on the board, and the checks of adventure.toml (SPEC 4 "During an adventure")."""

import json
import random
import tomllib
from pathlib import Path

import pytest

from drunagor_log.rules.adventure import draw_random
from tests.conftest import snapshot, write
from tests.helpers import ok

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
max_heroes = 4
rune_bag = { red = 7, blue = 8, green = 7, orange = 7, gray = 7 }

[cards]                         # facts we recorded once
"""

HEROES = {"andreas": ("Andreas", "Cleric", "Support"), "catharina": ("Catharina", "Mage", "Controller"),
          "nyx": ("Nyx", "Assassin", "Striker"), "vacrem": ("Vacrem", "Warrior", "Defender")}


@pytest.fixture
def party(tmp_path) -> Path:
    """Four active heroes after chapter 04 (`adventure start --heroes 4` needs them): chapter 05 is next."""
    root = tmp_path / "campaigns" / "test"
    write(root / "story.toml", STORY)
    for slug, (name, cls, role) in HEROES.items():
        write(root / "heroes" / f"{slug}.toml", f'schema = 1\nname = "{name}"\nclass = "{cls}"\nrole = "{role}"\n')
    return root


@pytest.fixture
def under_way(party, run) -> Path:
    """Chapter 05 just started with 4 heroes."""
    assert run("adventure", "start", "--heroes", "4").exit_code == 0
    return party


def state(root: Path) -> dict:
    return tomllib.loads((root / "adventure.toml").read_text())


def story(root: Path) -> dict:
    return tomllib.loads((root / "story.toml").read_text())


# ------------------------------------------------------------------------------------ start


def test_start_the_next_chapter(run, party):
    r = ok(run("adventure", "start", "--heroes", "3"))  # fewer than the party's four: a hero absent tonight
    assert r.stdout == ("chapter 05, Tempest Island, under way with 3 heroes; Stirring Darkness put 6 runes of each "
                        "colour on the Initiative Track (Rulebook: Chapter 05 › Special Preparation – Stirring Darkness, L1193); Dreadful Raid card face A up, summoning Tidehunter "
                        "(Rulebook: Special Mechanics – Monster Raid, L1199); add each Pile of Runes of the setup with `drunagor pile add` (Rulebook: Chapter 05 › Special Preparation – Darkness Nodes, L1195)\n")
    assert (party / "adventure.toml").read_text() == """\
schema = 1
# The adventure under way: written by drunagor, not by hand (drunagor adventure show).
chapter = "05"
heroes = 3
bag = { red = 1, blue = 2, green = 1, orange = 1, gray = 1 }
track = { red = 6, blue = 6, green = 6, orange = 6, gray = 6 }
raid = { card = "Dreadful Raid", face = "A", minions = ["Tidehunter"], rank = "Minion", model_limit = 4 }
ranks = {}
piles = []
monsters = []
log = [
  { event = "start", text = "chapter 05, Tempest Island, under way with 3 heroes; Stirring Darkness put 6 runes of each colour on the Initiative Track (RB L1193); Dreadful Raid card face A up, summoning Tidehunter (RB L1199)" },
]
"""
    assert (party / "story.toml").read_text() == "\n".join(STORY.splitlines()[1:]) + "\n"  # untouched


def test_start_a_chapter_without_raid_or_stirring_darkness(run, party):
    write(party / "story.toml", STORY.replace('"04" = "completed"\n', '"04" = "completed"\n"05" = "completed"\n'
                                              '"06" = "completed"\n'))
    ok(run("adventure", "start", "7", "--heroes", "2"))
    data = state(party)
    assert (data["chapter"], data["heroes"], "raid" in data) == ("07", 2, False)
    assert data["bag"] == {"red": 7, "blue": 8, "green": 7, "orange": 7, "gray": 7}
    assert data["track"] == {"red": 0, "blue": 0, "green": 0, "orange": 0, "gray": 0}


@pytest.mark.parametrize("args, code, message", [
    (("6",), 1, "campaigns/test/story.toml: adventure-track (Rulebook: Story Record, L961): chapter 06 is not the next chapter on the "
                "Adventure Track (that is 05); start chapter 05, or fill the track first (drunagor chapter "
                "complete|skip)"),
    (("10",), 1, "no chapter '10': chapters are 01 to 09; give a chapter from 1 to 9"),
    (("--heroes", "5"), 1, "campaigns/test/story.toml: heroes (Rulebook: Hero Limitations, L941-943): 5 heroes: this campaign plays with 1 to "
                           "4 heroes; give --heroes from 1 to 4; with extra-hero content, allow five: "
                           "drunagor rules set --max-heroes 5"),
    (("--heroes", "6"), 2, "--heroes must be from 1 to 5, not 6; 4 heroes; 5 with extra-hero content (Rulebook: Hero Limitations, L941-943)"),
    (("--heroes", "0"), 2, "--heroes must be from 1 to 5, not 0; 4 heroes; 5 with extra-hero content (Rulebook: Hero Limitations, L941-943)"),
    (("--models", "4"), 2, "--models is asked only when the catalog does not know a model count: each Minion has 4 "
                           "models (Rulebook: Dreadful Raid, L311); leave out --models"),
])
def test_start_refusals_write_nothing(run, party, args, code, message):
    before = snapshot(party)
    r = run("adventure", "start", *args)
    assert (r.exit_code, r.stderr) == (code, f"error: {message}\n")
    assert snapshot(party) == before


def test_start_refuses_while_an_adventure_is_under_way(run, under_way):
    before = snapshot(under_way)
    r = run("adventure", "start")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: adventure: an adventure is under way "
                                          "(chapter 05); finish it first with `drunagor adventure end --won` or "
                                          "`--lost`\n")
    assert snapshot(under_way) == before


def test_start_without_heroes_needs_the_count(run, camp):
    r = run("adventure", "start")
    assert (r.exit_code, r.stderr) == (2, "error: the party has no active hero to count; add heroes (drunagor hero "
                                          "add) or give --heroes K\n")
    ok(run("adventure", "start", "--heroes", "1"))
    assert state(camp)["chapter"] == "01"


def test_a_scenario_monster_raid_asks_for_its_model_count_once(run, party):
    # Chapter 02 summons the Nightmare with Night Stalker models (RB L1102), whose count the catalog does not know.
    write(party / "story.toml", STORY.replace('"02" = "completed"\n"03" = "completed"\n"04" = "completed"\n', ""))
    before = snapshot(party)
    r = run("adventure", "start")
    assert (r.exit_code, r.stderr) == (2, "error: how many Night Stalker models does the Nightmare raid use? The "
                                          "catalog does not know, and a raid stops when all of them are on the board "
                                          "(Rulebook: Dreadful Raid, L311; Special Mechanic – Nightmare Raid, L1102); count them and give --models N once; drunagor "
                                          "remembers it under [cards] in story.toml (drunagor adventure start --models N)\n")
    assert snapshot(party) == before
    ok(run("adventure", "start", "--models", "3"))
    assert 'raid = { card = "Dreadful Raid", face = "A", minions = ["Nightmare"], rank = "Scenario", model_limit = 3 }' \
        in (party / "adventure.toml").read_text()
    assert (party / "story.toml").read_text().endswith(
        '[cards]                         # facts we recorded once\n"Night Stalker" = { model_count = 3 }\n')
    ok(run("adventure", "end", "--lost"))
    ok(run("adventure", "start"))  # remembered
    assert state(party)["raid"]["model_limit"] == 3
    ok(run("adventure", "end", "--lost"))
    r = run("adventure", "start", "--models", "5")
    assert (r.exit_code, r.stderr) == (2, "error: campaigns/test/story.toml: Night Stalker has 3 models on record; "
                                          "leave out --models; if the record is a slip: drunagor card "
                                          "forget \"Night Stalker\" --fact model_count\n")


# ------------------------------------------------------------------------------------- show

GOLDEN = """
schema = 1
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
  { name = "Awakened King", boss = true },
]
log = [
  { event = "start", text = "chapter 05 under way" },
  { event = "draw", runes = "green", seed = 414649, text = "drew green (seed 414649) to the Initiative Track" },
]
"""


def test_adventure_show(run, party):
    write(party / "adventure.toml", GOLDEN)
    r = ok(run("adventure", "show"))
    assert r.stdout == """\
Chapter 05, Tempest Island: 4 heroes, round 1
Rune bag: 6 runes (red 2, blue 1, green 1, orange 0, gray 2)
Initiative Track: 22 runes (red 4, blue 5, green 4, orange 5, gray 4)
Piles of Runes: Pile 1 (blue, green, orange); Pile 2 (red, blue, green, orange, gray)
Dreadful Raid card: face B; summons Tidehunter (Minion, 4 models)
Monsters on the board (2 of 12 tracks taken)
Slot  Base    Monster        Rank
1     yellow  Fell Asteris   Gray
3     pink    Gremlin Horde  White
-     boss    Awakened King
At the end of round 1: the Growing Influence card, face A, draws its runes (how many: not recorded), then flips (Rulebook: Chapter 05 › Darkness Spawning Rule – Growing Influence, L1187)
Mending Rope collected: 0 (Rulebook: Chapter 05 › Endgame Trigger, L1205)
Plenty of Provisions collected: 0 (Rulebook: Chapter 05 › Endgame Trigger, L1205)
Spare Wood collected: 0 (Rulebook: Chapter 05 › Endgame Trigger, L1205)
Last at the table:
  start: chapter 05 under way
  draw: drew green (seed 414649) to the Initiative Track
"""
    data = json.loads(ok(run("adventure", "show", "--json")).stdout)
    assert set(data) == {"chapter", "title", "heroes", "bag", "runes_in_bag", "track", "piles", "raid", "monsters",
                         "ranks", "log", "cubes", "counters", "lost", "events",  # SPEC 9 added these four
                         "won",  # issue 42: the book's ending reached
                         "round", "rune_card", "next_round"}  # SPEC 10
    assert (data["round"], data["rune_card"]) == (1, {"name": "Growing Influence", "face": "A", "draws": None})
    assert data["cubes"]["Nyx"] == {"trauma": 0, "curse": 0, "trauma_limit": 1, "curse_capacity": None}
    assert (data["counters"]["barricade"], data["counters"]["spare_wood"], data["lost"], data["events"]) == (
        None, 0, None, [])
    assert data["monsters"][2] == {"name": "Awakened King", "rank": None, "slot": None, "colour": None, "boss": True}
    assert data["piles"][0] == {"id": "1", "runes": {"blue": 1, "green": 1, "orange": 1}}
    assert data["raid"]["face"] == "B" and data["runes_in_bag"] == 6


def test_show_says_what_is_on_the_table(run, party):
    write(party / "adventure.toml", GOLDEN)
    r = ok(run("show"))
    assert r.stdout.endswith("Adventure under way: chapter 05, 4 heroes, raid card face B\n"
                             "  rune bag 6; Piles of Runes: Pile 1 (blue, green, orange); Pile 2 (red, blue, green, "
                             "orange, gray); monsters (slot): Fell Asteris (1), Gremlin Horde (3), Awakened King (boss)\n")
    adv = json.loads(ok(run("show", "--json")).stdout)["adventure"]
    assert (adv["chapter"], adv["heroes"], adv["raid_face"], adv["runes_in_bag"]) == ("05", 4, "B", 6)
    assert adv["monsters"][0] == {"name": "Fell Asteris", "rank": "Gray", "slot": 1, "boss": False}


def test_reading_commands_without_an_adventure(run, party):
    for args in (("adventure", "show"), ("odds",), ("pile", "add"), ("draw",), ("monster", "add", "Ox")):
        r = run(*args)
        assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: adventure: no adventure under way "
                                              "(there is no adventure.toml); start one with `drunagor adventure "
                                              "start`\n"), args


def test_a_broken_adventure_file_is_reported_with_its_line(run, party):
    write(party / "adventure.toml", GOLDEN.replace("slot = 3", "slot = 1"))
    before = snapshot(party)
    for args in (("adventure", "show"), ("show",), ("raid",), ("odds",), ("check",), ("monster", "remove", "1")):
        r = run(*args)
        assert r.exit_code == 3, args
        text = r.stderr if args != ("check",) else "error: " + r.stdout
        assert text == ("error: campaigns/test/adventure.toml:14: adventure-state: Gremlin Horde and Fell Asteris "
                        "both hold slot 1 (yellow); each status-board slot holds one monster\n"), args
    assert snapshot(party) == before


def test_a_newer_adventure_file_is_read_but_never_written(run, party):
    write(party / "adventure.toml", GOLDEN.replace("schema = 1", "schema = 2"))
    before = snapshot(party)
    r = ok(run("adventure", "show"))
    assert "warning: campaigns/test/adventure.toml: schema 2 is newer" in r.stderr
    assert ok(run("raid", "--dry-run", "--seed", "1")).stdout.startswith("Dreadful Raid: chapter 05")
    # refused before the operation judges a state it cannot read whole (undo counted no events, round end
    # asked for a face's draws)
    for args in (("raid", "--seed", "1"), ("draw",), ("adventure", "end", "--won"), ("monster", "remove", "1"),
                 ("adventure", "undo"), ("round", "end", "--seed", "1")):
        r = run(*args)
        assert (r.exit_code, r.stdout) == (3, ""), args
        assert r.stderr.endswith("error: campaigns/test/adventure.toml:1: schema: schema 2 is newer than this "
                                 "drunagor knows (1); the file is read-only; upgrade drunagor (pip install -U drunagor)\n"), args
    assert snapshot(party) == before


# -------------------------------------------------------------------------------------- end


def test_end_won_archives_and_completes_the_chapter(run, under_way):
    started = (under_way / "adventure.toml").read_text()
    r = ok(run("adventure", "end", "--won"))
    assert r.stdout.splitlines()[0] == "chapter 05 completed; adventure archived as adventures/05-1.toml"
    assert "Chapter 05 rewards each hero: 1 Class Ability, 1 Spoils of the Hero (Standard)" in r.stdout
    assert not (under_way / "adventure.toml").exists()
    archived = (under_way / "adventures" / "05-1.toml").read_text()
    assert archived == started.replace(
        "# The adventure under way: written by drunagor, not by hand (drunagor adventure show).\n",
        "# A finished adventure, archived by `drunagor adventure end`: its draws, summons and seeds.\n").replace(
        "heroes = 4\n", 'heroes = 4\noutcome = "won"\n').removesuffix("]\n") + (
        '  { event = "end", text = "the adventure ends successfully" },\n]\n')
    assert story(under_way)["track"]["05"] == "completed"


def test_end_lost_records_a_failed_attempt_and_numbers_the_archives(run, under_way):
    r = ok(run("adventure", "end", "--lost"))
    assert r.stdout.splitlines()[0] == ("chapter 05 failed (attempt 1); the slot stays open; adventure archived as "
                                        "adventures/05-1.toml")
    assert story(under_way)["failures"] == {"05": 1} and "05" not in story(under_way)["track"]
    assert tomllib.loads((under_way / "adventures" / "05-1.toml").read_text())["outcome"] == "lost"
    ok(run("adventure", "start", "--heroes", "4"))
    ok(run("adventure", "end", "--lost"))
    ok(run("adventure", "start", "--heroes", "4"))
    r = ok(run("adventure", "end", "--won"))
    assert r.stdout.splitlines()[0] == "chapter 05 completed; adventure archived as adventures/05-3.toml"
    assert sorted(p.name for p in (under_way / "adventures").iterdir()) == ["05-1.toml", "05-2.toml", "05-3.toml"]
    assert story(under_way)["failures"] == {"05": 2} and story(under_way)["track"]["05"] == "completed"
    assert json.loads(run("check", "--json").stdout)["errors"] == []


@pytest.mark.parametrize("args", [(), ("--won", "--lost")])
def test_end_needs_won_or_lost(run, under_way, args):
    before = snapshot(under_way)
    r = run("adventure", "end", *args)
    assert (r.exit_code, r.stderr) == (2, "error: say how the adventure ended: --won or --lost (one of them)\n")
    assert snapshot(under_way) == before


def test_end_after_the_chapter_was_filled_meanwhile_archives_and_says_so(run, under_way, monkeypatch):
    # Chapter 05 was recorded with --force while its adventure was under way: `adventure end` must still
    # end it (no dead end): it archives, leaves the track as it is, and says how to change it.
    monkeypatch.setattr("drunagor_log.ops.story._today", lambda: "2026-11-29")
    ok(run("chapter", "complete", "5", "--force"))
    track = story(under_way)["track"]
    r = ok(run("adventure", "end", "--won"))
    assert r.stdout == ("chapter 05 was already completed on the Adventure Track, which is left as it is; adventure "
                        "archived as adventures/05-1.toml\n")
    assert not (under_way / "adventure.toml").exists()
    assert tomllib.loads((under_way / "adventures" / "05-1.toml").read_text())["outcome"] == "won"
    assert story(under_way)["track"] == track and "failures" not in story(under_way)


@pytest.mark.parametrize("filled, args, line", [
    ("skipped", "--won", "To record the win instead: drunagor chapter complete 5 --force (recorded in story.toml)."),
    ("completed", "--lost", "To count the failed attempt anyway: drunagor chapter fail 5 --force (recorded in "
                            "story.toml)."),
])
def test_end_of_a_chapter_filled_by_hand_leaves_the_track_and_gives_the_remedy(run, under_way, filled, args, line):
    text = (under_way / "story.toml").read_text().replace('"04" = "completed"\n',
                                                          f'"04" = "completed"\n"05" = "{filled}"\n')
    (under_way / "story.toml").write_text(text)
    r = ok(run("adventure", "end", args))
    first = (f"chapter 05 was already {filled} on the Adventure Track, which is left as it is" if args == "--won" else
             f"chapter 05 failed, but it is already {filled} on the Adventure Track: no failed attempt counted")
    assert r.stdout == f"{first}; adventure archived as adventures/05-1.toml\n{line}\n"
    assert (under_way / "story.toml").read_text() == text
    assert not (under_way / "adventure.toml").exists()


# ---------------------------------------------------------------------------- Piles of Runes


def test_pile_add_takes_one_of_each_colour_from_the_track(run, under_way):
    r = ok(run("pile", "add"))
    assert r.stdout == "Pile 1 on the board (red, blue, green, orange, gray, from the Initiative Track)\n"
    data = state(under_way)
    assert data["piles"] == [{"id": "1", "runes": {"red": 1, "blue": 1, "green": 1, "orange": 1, "gray": 1}}]
    assert data["track"] == {"red": 5, "blue": 5, "green": 5, "orange": 5, "gray": 5}
    assert data["log"][-1] == {"event": "pile", "text": r.stdout.strip()}
    ok(run("pile", "add", "--runes", "red=2,blue"))
    assert state(under_way)["piles"][1] == {"id": "2", "runes": {"red": 2, "blue": 1}}


def test_pile_add_without_a_colour_on_the_track(run, under_way):
    ok(run("pile", "add", "--runes", "gray=6"))
    r = ok(run("pile", "add"))
    assert r.stderr == "warning: the Initiative Track held no gray rune: Pile 2 is made without it (Rulebook: Chapter 02 › Special Preparation – Darkness Nodes, L1098)\n"
    assert state(under_way)["piles"][1]["runes"] == {"red": 1, "blue": 1, "green": 1, "orange": 1}
    before = snapshot(under_way)
    r = run("pile", "add", "--runes", "gray")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: darkness-nodes (Rulebook: Chapter 02 › Special Preparation – Darkness Nodes, L1098): the "
                                          "Initiative Track holds 0 gray runes, not the 1 this Pile needs; a Pile of "
                                          "Runes is built from the runes on the track\n")
    r = run("pile", "add", "--runes", "purple")
    assert (r.exit_code, r.stderr) == (1, "error: no rune colour called 'purple'; known: blue, gray, green, orange, "
                                          "red\n")
    r = run("pile", "add", "--runes", "g")
    assert (r.exit_code, r.stderr) == (2, "error: 'g' could be any of: gray, green; type more of the rune colour's "
                                          "name\n")
    assert snapshot(under_way) == before


def test_pile_remove_puts_the_runes_on_the_track(run, under_way):
    ok(run("pile", "add"))
    r = ok(run("pile", "remove", "Pile 1"))
    assert r.stdout == ("Pile 1 off the board; its runes (red, blue, green, orange, gray) go to the Initiative "
                        "Track\n")
    assert state(under_way)["piles"] == [] and state(under_way)["track"]["red"] == 6


def test_tiebreak_returns_six_minus_heroes_runes_to_the_bag(run, under_way):
    ok(run("pile", "add"))
    before = snapshot(under_way)
    r = run("tiebreak", "1")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: tie-breaker (Rulebook: Chapter 05 › Special Mechanics – Tie Breaker, L1197): Pile 1 holds "
                                          "5 runes (red, blue, green, orange, gray); the Tie Breaker returns 2 of the "
                                          "party's choice (6 - 4 heroes); choose 2 with --runes COLOUR,...\n")
    r = run("tiebreak", "1", "--runes", "red")
    assert r.exit_code == 1 and "the Tie Breaker returns 2 runes from Pile 1 (6 - 4 heroes), not 1" in r.stderr
    assert snapshot(under_way) == before
    r = ok(run("tiebreak", "1", "--runes", "r,grey"))
    assert r.stdout == ("Tie Breaker: 2 runes (red, gray) from Pile 1 back to the bag (6 - 4 heroes = 2); the hero "
                        "gains FOCUS 1 or CLEANSE 1\n")
    data = state(under_way)
    assert data["bag"] == {"red": 2, "blue": 2, "green": 1, "orange": 1, "gray": 2}
    assert data["piles"] == [{"id": "1", "runes": {"blue": 1, "green": 1, "orange": 1}}]
    ok(run("tiebreak", "1", "--runes", "blue,green"))
    r = ok(run("tiebreak", "1"))  # one rune left: no choice to make
    assert r.stdout.startswith("Tie Breaker: 1 rune (orange) from Pile 1 back to the bag")
    assert "Pile 1 is empty and leaves the board" in r.stdout
    assert state(under_way)["piles"] == []


def test_no_tie_breaker_in_a_chapter_without_it(run, party):
    write(party / "story.toml", STORY.replace('"04" = "completed"\n', '"04" = "completed"\n"05" = "completed"\n'))
    ok(run("adventure", "start", "--heroes", "4"))
    ok(run("pile", "add"))
    r = run("tiebreak", "1", "--runes", "red,blue")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: tie-breaker (Rulebook: Special Mechanic – Tie Breaker, L1100): chapter 06, "
                                          "The Sunken Temple, has no Tie Breaker; only chapters 02, 03, 05 and 08 "
                                          "have it\n")


# ------------------------------------------------------------------------------------ draws


def test_a_seeded_draw_replays(run, under_way):
    bag = state(under_way)["bag"]
    r = ok(run("draw", "3", "--seed", "11"))
    drawn = draw_random(bag, 3, random.Random(11))
    left = sum(bag.values()) - 3
    assert r.stdout == f"drew {', '.join(drawn)} (seed 11) to the Initiative Track; {left} runes left in the bag\n"
    data = state(under_way)
    assert data["log"][-1] == {"event": "draw", "runes": ", ".join(drawn), "left": left, "bag": bag, "seed": 11,
                               "text": r.stdout.strip()}
    assert sum(data["track"].values()) == 33


def test_a_physical_draw(run, under_way):
    r = ok(run("draw", "--rune", "blue", "--rune", "red"))
    assert r.stdout == "drew blue, red (drawn at the table) to the Initiative Track; 4 runes left in the bag\n"
    assert state(under_way)["bag"] == {"red": 0, "blue": 1, "green": 1, "orange": 1, "gray": 1}
    before = snapshot(under_way)
    r = run("draw", "--rune", "red")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: draw: the rune bag holds no red rune "
                                          "(blue, green, orange, gray); record the rune you really drew\n")
    r = run("draw", "2", "--rune", "blue")
    assert (r.exit_code, r.stderr) == (2, "error: 2 runes to draw, but --rune names 1; leave out the count, or name "
                                          "as many runes\n")
    assert run("draw", "--rune", "blue", "--seed", "3").exit_code == 2
    assert snapshot(under_way) == before


def test_draw_json_reports_the_draw_and_writes_it(run, under_way):
    bag = state(under_way)["bag"]
    drawn = draw_random(bag, 2, random.Random(11))
    r = ok(run("draw", "2", "--seed", "11", "--json"))
    left = dict(bag)
    for colour in drawn:
        left[colour] -= 1
    assert json.loads(r.stdout) == {"drawn": drawn, "seed": 11, "runes_in_bag": sum(bag.values()) - 2,
                                    "by_colour": left, "adventure_fails": False}
    assert state(under_way)["bag"] == left and state(under_way)["log"][-1]["seed"] == 11
    colour = next(c for c, n in left.items() if n)
    r = ok(run("draw", "--rune", colour, "--json"))  # a physical draw has no seed
    assert json.loads(r.stdout)["drawn"] == [colour] and json.loads(r.stdout)["seed"] is None
    r = ok(run("draw", "9", "--seed", "1", "--json"))  # the last rune: chapter 05 fails (RB L1203)
    data = json.loads(r.stdout)
    assert (data["runes_in_bag"], data["adventure_fails"], len(data["drawn"])) == (0, True, sum(left.values()) - 1)
    assert data["by_colour"] == {"red": 0, "blue": 0, "green": 0, "orange": 0, "gray": 0}


def test_drawing_the_last_rune_fails_the_adventure(run, under_way):
    r = ok(run("draw", "9", "--seed", "1"))  # 6 in the bag: all drawn, and said so (issue 13)
    assert "(seed 1; 9 asked, but the bag held only 6) to the Initiative Track" in r.stdout
    assert r.stdout.endswith("0 runes left in the bag\nThe last rune in the bag was drawn: the adventure fails "
                             "(Rulebook: Chapter 05 › Winning and Losing the Adventure, L1203). Record it with `drunagor adventure end --lost`.\n")
    r = run("draw")  # the adventure is lost: nothing more is drawn
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: adventure: the adventure is lost: "
                                          "drunagor adventure end --lost; lost by: the last rune in the bag is drawn: "
                                          "the adventure fails (Rulebook: Chapter 05 › Winning and Losing the Adventure, L1203); if that was a slip, take it back: drunagor "
                                          "adventure undo\n")


# --------------------------------------------------------------------------------- monsters


def test_monsters_take_slots_in_status_board_order(run, under_way):
    assert ok(run("monster", "add", "fell asteris")).stdout == "Fell Asteris placed in slot 1 (yellow)\n"
    assert ok(run("monster", "add", "Grem", "--count", "2")).stdout == "2 Gremlin Horde placed in slots 2, 3\n"
    assert ok(run("monster", "add", "Awakened King")).stdout == ("Awakened King (boss) on the board, with no "
                                                                 "status-board slot\n")
    assert ok(run("monster", "add", "Ox", "--slot", "light blue")).stdout == "Ox placed in slot 9 (light blue)\n"
    assert ok(run("monster", "remove", "2")).stdout == "Gremlin Horde off the board; slot 2 (dark blue) is free\n"
    assert ok(run("monster", "add", "Tidehunter")).stdout == "Tidehunter placed in slot 2 (dark blue)\n"
    assert state(under_way)["monsters"] == [
        {"name": "Fell Asteris", "rank": "Gray", "slot": 1},
        {"name": "Tidehunter", "rank": "Minion", "slot": 2},
        {"name": "Gremlin Horde", "rank": "White", "slot": 3},
        {"name": "Ox", "rank": "Commander", "slot": 9},
        {"name": "Awakened King", "boss": True},
    ]
    assert ok(run("monster", "remove", "awak")).stdout == "Awakened King off the board\n"


def test_several_monsters_leave_at_once_as_one_table_event(run, under_way):
    ok(run("monster", "add", "Tidehunter", "--count", "3"))
    ok(run("monster", "add", "Fell Asteris"))
    before = snapshot(under_way)
    r = ok(run("monster", "remove", "3", "fell", "yellow"))
    assert r.stdout == "Tidehunter, Fell Asteris, Tidehunter off the board; slots 1, 3, 4 are free\n"
    assert state(under_way)["monsters"] == [{"name": "Tidehunter", "rank": "Minion", "slot": 2}]
    assert ok(run("adventure", "undo")).stdout.startswith("took back 1 table event: monster: Tidehunter, ")
    assert snapshot(under_way) == before
    r = run("monster", "remove", "4", "4")  # the second is no longer there: nothing written
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: status-board: no monster holds "
                                          "slot 4 (green); see the slots with `drunagor adventure show`\n")
    assert snapshot(under_way) == before


@pytest.mark.parametrize("args, code, message", [
    (("add", "Mud Golem", "--new"), 2, "the catalog does not know 'Mud Golem', so its rank is unknown; give it once "
                                       "with --rank (Overlord, Commander, Black, Gray, White, Scenario, Minion); it is "
                                       "remembered for this adventure"),
    (("add", "Gremlin Hurde"), 1, "no monster called 'Gremlin Hurde'; did you mean 'Gremlin Horde'? (if it is a "
                                  "monster drunagor does not know, give its rank once with --rank (Overlord, "
                                  "Commander, Black, Gray, White, Scenario, Minion))"),
    (("add", "Gremlin Horde", "--rank", "Black"), 2, "the catalog gives Gremlin Horde the rank White, not Black; "
                                                     "leave out --rank"),
    (("add", "Gremlin Horde", "--rank", "Purple"), 2, "unknown monster rank 'Purple': expected one of Overlord, "
                                                      "Commander, Black, Gray, White, Scenario, Minion"),
    (("add", "Fell", "--count", "2"), 2, "'Fell' could be any of: Fell Asteris, Fell Woodman; type more of the "
                                         "monster's name"),
    (("add", "Ox", "--slot", "13"), 1, "campaigns/test/adventure.toml: status-board (Rulebook: Dreadful Raid, L315): status-board slots "
                                       "are 1 to 12, not 13; give --slot from 1 to 12"),
    (("add", "Ox", "--slot", "mauve"), 2, "--slot 'mauve': give a slot from 1 to 12 or its base colour"),
    (("add", "Ox", "--slot", "2", "--count", "2"), 2, "--slot places one monster; leave out --count, or --slot"),
    (("add", "Ox", "--count", "0"), 2, "--count must be at least 1, not 0"),
    (("remove", "Tidehunter"), 1, "no monster on the board called 'Tidehunter'; known: Fell Asteris, Gremlin Horde"),
    (("remove", "5"), 1, "campaigns/test/adventure.toml: status-board: no monster holds slot 5 (dark red); see the "
                         "slots with `drunagor adventure show`"),
])
def test_monster_refusals_write_nothing(run, under_way, args, code, message):
    ok(run("monster", "add", "Fell Asteris"))
    ok(run("monster", "add", "Gremlin Horde"))
    before = snapshot(under_way)
    r = run("monster", *args)
    assert (r.exit_code, r.stderr) == (code, f"error: {message}\n")
    assert snapshot(under_way) == before


def test_an_unknown_monster_s_rank_is_asked_once_and_remembered(run, under_way):
    r = ok(run("monster", "add", "Mud Golem", "--rank", "black"))
    assert r.stderr == "warning: Mud Golem is not in the catalog: recorded with the rank Black for this adventure\n"
    ok(run("monster", "add", "mud golem"))
    data = state(under_way)
    assert data["ranks"] == {"Mud Golem": "Black"}
    assert [m["name"] for m in data["monsters"]] == ["Mud Golem", "Mud Golem"]
    r = run("monster", "remove", "mud")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: status-board: 2 Mud Golem are on the "
                                          "board (slots 1, 2); give the slot of the one that leaves\n")
    assert ok(run("monster", "remove", "dark blue")).stdout == "Mud Golem off the board; slot 2 (dark blue) is free\n"


def test_the_board_holds_twelve_and_a_minion_four_models(run, under_way):
    ok(run("monster", "add", "Tidehunter", "--count", "4"))
    before = snapshot(under_way)
    r = run("monster", "add", "Tidehunter")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: models (Rulebook: Dreadful Raid, L311): all 4 models of "
                                          "Tidehunter are on the board; remove a defeated one first: drunagor monster "
                                          "remove SLOT (Tidehunter holds slots 1, 2, 3, 4)\n")
    assert snapshot(under_way) == before
    # more than there is room for: how many fit, and nothing placed (issue 13)
    r = run("monster", "add", "Gremlin Horde", "--count", "9")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: status-board (Rulebook: Dreadful Raid, L311): room for only 8 "
                                          "of the 9 Gremlin Horde: then all 12 Health Tracks of the Monster Status "
                                          "board are taken: no new monster may be placed; place 8 (--count 8), or "
                                          "remove a defeated monster first (drunagor monster remove SLOT)\n")
    assert snapshot(under_way) == before
    ok(run("monster", "add", "Gremlin Horde", "--count", "8"))
    r = run("monster", "add", "Ox")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: status-board (Rulebook: Dreadful Raid, L311): all 12 Health "
                                          "Tracks of the Monster Status board are taken: no new monster may be "
                                          "placed; remove a defeated monster first (drunagor monster remove SLOT)\n")
    assert len(state(under_way)["monsters"]) == 12
    ok(run("monster", "add", "Awakened King"))  # a boss takes no track
    assert snapshot(under_way) != before


# ------------------------------------------------------------------------------------ check


def test_check_finds_runes_lost_by_a_hand_edit(run, party):
    write(party / "adventure.toml", GOLDEN.replace("bag = { red = 2", "bag = { red = 3"))
    r = run("check")
    assert r.exit_code == 1
    assert r.stdout.splitlines()[0] + "\n" == ("campaigns/test/adventure.toml:4: rune-count: red runes: 3 in the bag + 4 on the Initiative "
                        "Track + 1 in Piles of Runes = 8, but the rune bag of the campaign (rules.rune_bag in "
                        "story.toml) holds 7; drunagor only moves runes between them, so a hand edit went wrong: fix "
                        "the counts\n")


def test_check_warns_of_an_adventure_of_another_chapter(run, party):
    write(party / "adventure.toml", GOLDEN.replace('chapter = "05"', 'chapter = "06"').replace(
        "\nraid = {", "\n# raid = {"))
    r = run("check", "--json")
    data = json.loads(r.stdout)
    assert [(p["line"], p["rule"], p["message"]) for p in data["warnings"] if p["file"].endswith("adventure.toml")] == [
        (2, "adventure", "adventure.toml plays chapter 06, but the next chapter on the Adventure Track is 05 (RB L961); "
                         "end it with `drunagor adventure end`")]


def test_check_of_a_party_at_the_table_stays_clean(run, party):
    for args in (("adventure", "start", "--heroes", "3"), ("pile", "add"), ("pile", "add"),
                 ("monster", "add", "Fell Asteris"),
                 ("raid", "--seed", "1"), ("draw", "--seed", "4"), ("tiebreak", "2", "--runes", "gray,red,blue"),
                 ("raid", "--seed", "9"), ("battalion", "Ox", "Ox", "--near", "1")):
        ok(run(*args))
    r = run("check", "--json")
    assert json.loads(r.stdout)["errors"] == []
    ok(run("adventure", "end", "--won"))
    assert json.loads(run("check", "--json").stdout)["errors"] == []


def test_the_example_campaign_is_at_the_table(run, example):
    r = ok(run("adventure", "show"))
    assert r.stdout.startswith("Chapter 05, Tempest Island: 4 heroes, round 1\n")
    assert sorted(p.name for p in (example / "adventures").iterdir()) == ["03-1.toml", "04-1.toml"]
    assert ok(run("check", "--strict")).stdout == ""
    ok(run("raid", "--dry-run", "--seed", "1"))
    ok(run("odds"))


def test_an_archived_adventure_of_the_wrong_shape_is_reported(run, party):
    write(party / "adventures" / "04-1.toml", GOLDEN.replace('chapter = "05"', 'chapter = "04"\noutcome = "won"')
          .replace("heroes = 4", "heroes = 0"))
    r = run("check")
    assert (r.exit_code, r.stdout) == (3, "campaigns/test/adventures/04-1.toml:4: adventure-state: `heroes` must be a "
                                          "whole number from 1 to 5, not 0; set it from 1 to 5\n")


def test_check_reads_an_archive_again_once_it_changes(run, example):
    import os
    from pathlib import Path

    # A clean check remembers the archives that passed (outside the campaign: XDG_CACHE_HOME)...
    assert ok(run("check")).stdout == ""
    from drunagor_log.catalog import diskcache

    (cache,) = (Path(os.environ["XDG_CACHE_HOME"]) / "drunagor").glob("checked-archives-*")
    assert sorted(diskcache.load(cache.name)[1]) == ["03-1.toml", "04-1.toml"]
    assert not list(example.rglob("*cache*"))
    # ...and a later edit of one of them (new size and time) is read and reported all the same.
    archive = example / "adventures" / "04-1.toml"
    text = archive.read_text()
    archive.write_text(text + "broken = [\n")
    r = run("check")
    assert r.exit_code == 3
    assert r.stdout.startswith(f"campaigns/example/adventures/04-1.toml:{text.count(chr(10)) + 1}: toml-syntax: ")

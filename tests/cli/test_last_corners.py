"""The last rule corners (issue 34): cards the book does not print, briefings that say how a chapter is
won and lost, and facts a slip cannot spoil. Through the command line, with exact outputs, exit codes and
the files left as they were where a command is refused."""

import json
import tomllib
from pathlib import Path

import pytest

from tests.cli.test_losing import started, table
from tests.conftest import snapshot
from tests.helpers import ok


@pytest.fixture
def root(tmp_path) -> Path:
    return tmp_path / "campaigns" / "test"


def _to_the_cutscene(run, root):
    started(run, root, "03")
    ok(run("round", "end", "--draws", "1", "--seed", "1"))
    ok(run("round", "end", "--draws", "2", "--seed", "2"))
    return ok(run("round", "end", "--seed", "3"))


# ------------------------------------------------------------------ 1. chapter 03 after the cutscene


def test_chapter_03_after_the_cutscene_ends_the_round_with_the_harvesters_hunt_card(run, root):
    r = _to_the_cutscene(run, root)
    assert r.stdout.splitlines()[-5:] == [
        "   The last one is removed: read \"Cutscene – Nightmare Come True\" on page 54.",
        "5. The Harvester's Hunt card replaces the Growing Influence card (drunagor's reading of Rulebook: Clarifications – Soul Hunt, L1142-1144)",
        "   From now on the end of the round is the Soul Harvester's Harvester's Hunt Rune card, face A, until the "
        "end of the adventure.",
        "Round 4 begins.",
        "round 3 ended: drew green; the Harvester's Hunt card replaces the Growing Influence card; read \"Cutscene – "
        "Nightmare Come True\"; round 4 begins (seed 3)"]
    d = table(run)
    assert json.dumps(d["rune_card"]) == '{"name": "Harvester\'s Hunt", "face": "A", "draws": null}'

    assert d["counters"]["harvesters_hunt"] is True and d["round"] == 4
    assert d["next_round"] == ("At the end of round 4: the Harvester's Hunt card, face A, draws its runes (how many: "
                               "not recorded) (RB L1142-1144)")
    # Growing Influence's face B draws 2 and the bag holds 2: the replaced card's count would lose the adventure
    before = snapshot(root)
    r = run("round", "end", "--seed", "4")
    assert r.exit_code == 2 and "how many runes does face A of the Harvester's Hunt card draw?" in r.stderr
    assert snapshot(root) == before
    r = ok(run("round", "end", "--draws", "1", "--seed", "4"))
    assert r.stdout.splitlines() == [
        "End of round 4: chapter 03, Harvester's Hunt card face A (draws 1); runes drawn with seed 4 (--seed 4 "
        "replays it)",
        "1. Draw the indicated number of Runes, one at a time (Rulebook: Clarifications – Soul Hunt, L1142-1144)",
        "   Face A draws 1: orange.",
        "2. Place the drawn Runes on the Initiative Track (Rulebook: Clarifications – Soul Hunt, L1142-1144)",
        "   orange on the track; 1 rune left in the bag. No Darkness tile is spawned (Rulebook: Clarifications – Soul Hunt, L1144); the card is not "
        "flipped: the book does not say to.",
        "3. The Soul Harvester advances and swings its scythe (Rulebook: Clarifications – Soul Hunt, L1145-1151)",
        "   It advances on the Closest Hero (tied: the Weakest), collapsing each Map tile it leaves; then each enemy "
        "in the Weakest Hero's area within Range 1 takes orange: 7 damage (the orange runes on the track), plus a "
        "rune of that colour for each one of a Pile of Runes it removed on the way.",
        "Round 5 begins.",
        "face A of the Harvester's Hunt card draws 1 (recorded under [cards]); round 4 ended: drew orange; round 5 "
        "begins (seed 4)"]
    d = table(run)
    assert (d["round"], d["lost"], d["rune_card"]) == (5, None, {"name": "Harvester's Hunt", "face": "A", "draws": 1})
    story = tomllib.loads((root / "story.toml").read_text())
    assert story["cards"]["Harvester's Hunt"] == {"draws_a": 1}
    shown = ok(run("adventure", "show")).stdout
    assert "The Harvester's Hunt card replaced the Growing Influence card (drunagor's reading of Rulebook: Clarifications – Soul Hunt, L1142-1144)" in shown
    # the last rune drawn by the Hunt card still fails chapter 03 (RB L1136)
    r = ok(run("round", "end"))
    assert "the last rune in the bag is drawn: the adventure fails (Rulebook: Chapter 03 › Winning and Losing the Adventure, L1136)" in r.stdout


# ------------------------------------------------------------------------ 2. the Naval Raid card's flip


def test_the_naval_raid_card_is_flipped_by_its_event_and_the_face_is_kept(run, root):
    started(run, root, "04")
    r = run("raid")
    assert r.exit_code == 1 and r.stderr.endswith(
        "record the monsters it places with `drunagor monster add`, then its flip with `drunagor adventure event "
        "naval-raid-flip`\n")
    r = ok(run("adventure", "event", "naval-raid-flip"))
    assert r.stdout == ("the Naval Raid card resolved from its own text and flipped: face A -> face B (Rulebook: Special Mechanic – Naval Raid, L1171)\n")
    assert table(run)["raid"]["face"] == "B"
    assert "Naval Raid card: face B; summons Tidehunter or Boatswain (Minion, 4 models)" in ok(
        run("adventure", "show")).stdout
    ok(run("adventure", "undo"))
    assert table(run)["raid"]["face"] == "A"
    ok(run("adventure", "event", "naval-raid-flip"))
    ok(run("adventure", "event", "naval-raid-flip"))
    ok(run("adventure", "event", "naval-raid-flip"))
    ok(run("adventure", "end", "--lost"))
    archived = tomllib.loads((root / "adventures" / "04-1.toml").read_text())
    assert archived["raid"]["face"] == "B"
    started_again = run("adventure", "start", "--heroes", "2")
    assert started_again.exit_code == 0 and table(run)["raid"]["face"] == "A"


def test_the_naval_raid_flip_belongs_to_chapter_04(run, root):
    started(run, root, "05")
    before = snapshot(root)
    r = run("adventure", "event", "naval-raid-flip")
    assert r.exit_code == 1 and "chapter 05 has no Naval Raid card: it is chapter 04's (Rulebook: Special Mechanic – Naval Raid, L1171)" in r.stderr
    assert snapshot(root) == before


# --------------------------------------------------------- 4. the briefing says how the chapter ends


def test_chapter_show_json_lists_every_way_the_chapter_is_lost_and_ended(run, root):
    started(run, root, "04")
    b = json.loads(ok(run("chapter", "show", "4", "--json")).stdout)
    assert b["losing"] == [
        {"what": "a Hero receives more Curse Cubes or Trauma Cubes than they can hold", "rule": "RB L1177",
         "command": "drunagor cube HERO trauma|curse +1; drunagor recall HERO"},
        {"what": "the last Rune in the bag is drawn", "rule": "RB L1177", "command": "drunagor draw; drunagor round end"},
        {"what": "the last Pristine Swan's HP card is drawn", "rule": "RB L1177",
         "command": "drunagor adventure event swan-hp"}]
    assert b["endings"][1] == {
        "what": "the last Corrupted Vessel's HP card is drawn: read \"End of the Adventure – A Day For the Prey\" on "
                "page 76", "rule": "RB L1179", "command": "drunagor adventure event vessel-hp"}
    nine = json.loads(ok(run("chapter", "show", "9", "--json")).stdout)
    assert nine["losing"][1:] == [] and nine["endings"][1]["rule"] == "RB L1309"
    assert [e["rule"] for e in json.loads(ok(run("chapter", "show", "7", "--json")).stdout)["losing"]] == [
        "RB L1251", "RB L1243, L1251"]
    counters = {ch: [(e["rule"], e["command"]) for e in json.loads(ok(run("chapter", "show", ch, "--json")).stdout)[
        "chapter_counters"]] for ch in ("1", "3", "5")}
    assert counters == {  # short citation: chapter show --json
        "1": [("RB L1074", "drunagor adventure event special-event")],
        "3": [("RB L1134", "drunagor round end")],
        "5": [("RB L1205", "drunagor adventure event mending-rope"),
              ("RB L1205", "drunagor adventure event plenty-of-provisions"),
              ("RB L1205", "drunagor adventure event spare-wood")]}
    shown = ok(run("chapter", "show", "3")).stdout
    assert ("3 Time Tokens on the Rune card, one removed at each end of the round; the last: read \"Cutscene "
            "– Nightmare Come True\"; then the Harvester's Hunt card ends the round (drunagor's reading of Rulebook: "
            "Clarifications – Soul Hunt, L1142-1144) (Rulebook: Chapter 03 › Cutscene Trigger, L1134); drunagor "
            "tracks it with `drunagor round end`\n") in shown


# ------------------------------------------------------- 5. endings named when their trigger is met


def test_the_awakened_kings_last_health_says_the_damage_taken_and_names_the_ending(run, root):
    started(run, root, "09")
    ok(run("adventure", "event", "king-health", "--count", "50"))
    d = json.loads(ok(run("adventure", "event", "king-health", "--count", "50", "--json")).stdout)
    assert d["read"] == "End of the Adventure – Baptism of Fire" and d["counters"]["king_health"] == 0
    ok(run("adventure", "undo"))
    r = ok(run("adventure", "event", "king-health", "--count", "50"))
    assert r.stdout == ("the Awakened King loses his last 30 Health (50 dealt): 0 of 80 left (1 per Darkness square "
                        "purged, Rulebook: Special Mechanics – Purge, L1295; 40 per hero, Rulebook: Boss Fight Preparation – Awakened King, L1299); he is defeated: read \"End of the Adventure – "
                        "Baptism of Fire\" on page 50 (Rulebook: Chapter 09 › Endgame Trigger, L1309), then drunagor adventure end --won\n")


def test_chapter_05_names_its_ending_when_the_last_enemy_leaves_with_the_three_resources_in(run, root):
    started(run, root, "05")
    ok(run("monster", "add", "Tidehunter", "--count", "2"))
    for name in ("mending-rope", "spare-wood", "plenty-of-provisions"):
        ok(run("adventure", "event", name))
    assert ok(run("monster", "remove", "1")).stdout == "Tidehunter off the board; slot 1 (yellow) is free\n"
    assert ok(run("monster", "remove", "2")).stdout == (
        "Tidehunter off the board; slot 2 (dark blue) is free; the last enemy is defeated with the three resources "
        "collected: read \"End of the Adventure – Mending Broken Wings\" on page 88 (Rulebook: Chapter 05 › Endgame Trigger, L1205), then drunagor "
        "adventure end --won\n")


# --------------------------------------------------------------------- 8. resources collected once


def test_each_chapter_05_resource_is_collected_once_and_reminds_the_heros_gain(run, root):
    started(run, root, "05")
    assert ok(run("adventure", "event", "plenty-of-provisions")).stdout == (
        "Plenty of Provisions collected: 1 (Rulebook: Chapter 05 › Endgame Trigger, L1205); the collecting Hero gains FOCUS 2 or CLEANSE 2 (Rulebook: Special Mechanics – A Hard Roast, L1201); "
        "still to collect: Mending Rope, Spare Wood\n")
    before = snapshot(root)
    r = run("adventure", "event", "plenty-of-provisions")
    assert (r.exit_code, r.stderr) == (1, (
        "error: campaigns/test/adventure.toml: plenty-of-provisions: the Plenty of Provisions is collected once: the "
        "chapter has 1 (Rulebook: Chapter 05 › Endgame Trigger, L1205), and it is collected already; take back a collection recorded by mistake with "
        "`drunagor adventure undo`\n"))
    r = run("adventure", "event", "spare-wood", "--count", "2")
    assert r.exit_code == 1 and "the Spare Wood is collected once: the chapter has 1 (Rulebook: Chapter 05 › Endgame Trigger, L1205); leave out --count" \
        in r.stderr
    assert snapshot(root) == before
    assert table(run)["counters"]["plenty_of_provisions"] == 1


# ----------------------------------------------------------------- 6. facts a slip cannot spoil


@pytest.mark.parametrize("draws", ["0", "37"])
def test_a_draw_count_no_rune_card_can_have_is_refused_before_it_is_recorded(run, root, draws):
    started(run, root, "05")
    before = snapshot(root)
    r = run("round", "end", "--draws", draws)
    assert (r.exit_code, r.stderr) == (2, (
        f"error: --draws {draws}: a Rune card draws at least 1 rune, and at most the 36 the bag holds "
        "(rules.rune_bag); read the number on face A of the Growing Influence card\n"))
    assert snapshot(root) == before


def test_a_recorded_fact_is_corrected_by_card_forget_and_undo_says_it_stays(run, root):
    started(run, root, "05")
    ok(run("round", "end", "--draws", "2", "--seed", "1"))
    r = ok(run("adventure", "undo"))
    assert r.stdout.splitlines()[-1] == (
        "round: the fact it recorded under [cards] stays (undo takes back the table, not what a card or board says); "
        "if it was a slip: drunagor card forget \"Growing Influence\" --fact draws_a")
    r = run("round", "end", "--draws", "3")
    assert (r.exit_code, r.stderr) == (2, (
        "error: campaigns/test/story.toml: face A of the Growing Influence card draws 2 runes on record; leave out "
        "--draws; if the record is a slip: drunagor card forget \"Growing Influence\" --fact draws_a\n"))
    ok(run("card", "forget", "Growing Influence", "--fact", "draws_a"))
    assert "draws 3 (recorded under [cards])" in ok(run("round", "end", "--draws", "3", "--seed", "1")).stdout
    ok(run("recall", "Nyx", "--capacity", "5"))
    r = ok(run("adventure", "undo"))
    assert r.stdout.splitlines()[-1].endswith("if it was a slip: drunagor card forget Nyx --fact curse_capacity")
    r = run("recall", "Nyx", "--capacity", "4")
    assert r.exit_code == 2 and r.stderr.endswith(
        "leave out --capacity; if the record is a slip: drunagor card forget Nyx --fact curse_capacity\n")
    assert tomllib.loads((root / "story.toml").read_text())["cards"]["Nyx"] == {"curse_capacity": 5}


# ------------------------------------------------------------ 9. messages that agree with themselves


def test_messages_that_agree_with_themselves(run, root):
    started(run, root, "05")  # the bag after Stirring Darkness: red 1, blue 2, green 1, orange 1, gray 1
    before = snapshot(root)
    r = run("draw", "--rune", "blue,blue,blue")
    assert (r.exit_code, r.stderr) == (1, (
        "error: campaigns/test/adventure.toml: draw: the rune bag holds only 2 blue, not the 3 drawn (red, 2 blue, "
        "green, orange, gray); record the rune you really drew\n"))
    r = run("pile", "add", "--runes", "red=0")
    assert (r.exit_code, r.stderr) == (2, (
        "error: 'red=0': red=0 names no rune: give each colour at least 1 (COLOUR=N), or leave the colour out; e.g. "
        "--runes red=2,blue\n"))
    assert snapshot(root) == before
    ok(run("pile", "add"))
    ok(run("cube", "Nyx", "trauma", "+2"))
    d = table(run)
    assert d["next_round"] == "No next end of round: the adventure is lost (drunagor adventure end --lost)"
    assert "At the end of round" not in ok(run("adventure", "show")).stdout


def test_the_tie_breaker_of_one_hero_says_hero(run, root):
    from tests.cli.test_losing import party

    party(root, "05")
    ok(run("adventure", "start", "--heroes", "1"))
    ok(run("pile", "add"))
    r = ok(run("tiebreak", "1"))
    assert "(6 - 1 hero = 5)" in r.stdout


# ------------------------------------------------------------- 3. a Siege Monster's models, asked once


def test_chapter_07_asks_a_siege_monsters_models_once_and_activates_the_first_of_its_kind(run, root):
    started(run, root, "07")
    before = snapshot(root)
    r = run("monster", "add", "Vile Spawn")
    assert (r.exit_code, r.stderr) == (2, (
        "error: how many Vile Spawn models are there? The book does not say, and one that cannot spawn because all "
        "its models are on the board activates the first Vile Spawn instead (Rulebook: Special Scenario Rule – Tower Defense, L1237); count them and give --models "
        "N once; drunagor remembers it under [cards] in story.toml (drunagor monster add \"Vile Spawn\" --models N)\n"))
    r = run("monster", "add", "Vile Spawn", "--models", "0")
    assert r.exit_code == 2 and r.stderr.startswith("error: --models must be from 1 to 12, not 0")
    assert snapshot(root) == before
    assert ok(run("monster", "add", "Vile Spawn", "--models", "2")).stdout == (
        "Vile Spawn: 2 models recorded under [cards]; Vile Spawn placed in slot 1 (yellow)\n")
    ok(run("monster", "add", "Vile Spawn"))
    r = run("monster", "add", "Vile Spawn")
    assert (r.exit_code, r.stderr) == (1, (
        "error: campaigns/test/adventure.toml: models (Rulebook: Special Scenario Rule – Tower Defense, L1237): all 2 models of Vile Spawn are on the board: it "
        "cannot spawn; activate the first Vile Spawn, in slot 1 (yellow), instead (Rulebook: Special Scenario Rule – Tower Defense, L1237); the spawn is not "
        "recorded; activate that monster at the table\n"))
    d = json.loads(ok(run("battalion", "Vile Spawn", "--json", "--dry-run")).stdout)
    assert d["not_placed"] == ["Vile Spawn"]
    r = run("monster", "add", "Vile Spawn", "--models", "3")
    assert r.exit_code == 2 and r.stderr.endswith(
        "leave out --models; if the record is a slip: drunagor card forget \"Vile Spawn\" --fact model_count\n")


# --------------------------------------------------------------- 7. one copy of a card is one card


def test_check_warns_when_heroes_hold_more_copies_of_an_epic_chest_card_than_the_deck_has(run, tmp_path):
    ok(run("new", "t", "--party", "P"))
    for hero, role in (("Andreas", "Support"), ("Nyx", "Striker"), ("Vacrem", "Defender")):
        ok(run("hero", "add", hero, "--role", role, "--gear", "Wooden Staff", "--gear", "Cloth Armor"))
    ok(run("hero", "gain", "Andreas", "Treasure Trove", "--bag"))
    assert run("check").stdout == ""
    ok(run("hero", "gain", "Nyx", "Treasure Trove", "--bag"))
    ok(run("hero", "gain", "Vacrem", "Treasure Trove", "--bag"))
    r = run("check")
    assert (r.exit_code, r.stdout) == (0, (
        "campaigns/t/heroes/vacrem.toml:12: chest-copies: 3 Treasure Trove are held (Andreas, Nyx, Vacrem), but the Chest deck "
        "has one copy (Rulebook: Compulsory Replacement, L371); drop the extra ones (drunagor hero drop Vacrem \"Treasure Trove\") (warning)\n"))
    assert run("check", "--strict").exit_code == 1


# ------------------------------------------------------------- 10. heroes of other products in a token


def test_a_campaign_with_katarina_makes_the_round_trip_through_export_and_import(run, tmp_path):
    ok(run("new", "t", "--party", "P"))
    r = ok(run("hero", "add", "Katarina", "--role", "Striker", "--class", "Warrior"))  # no near miss of Catharina
    assert r.stdout.startswith("Katarina joins the party before chapter 01: Warrior, Striker\n")
    token = ok(run("-C", "campaigns/t", "export")).stdout.strip()
    (tmp_path / "token.txt").write_text(token)
    r = ok(run("import", "token.txt", "--name", "k", "--class", "Katarina=Warrior", "--role", "Katarina=Striker"))
    assert r.stdout.startswith("imported 'P' (current token) as campaigns/k: 1 hero, 0 Followers, 0 Outcomes, "
                               "0 statuses\n")
    assert tomllib.loads((tmp_path / "campaigns" / "k" / "heroes" / "katarina.toml").read_text())["name"] == "Katarina"

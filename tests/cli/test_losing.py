"""Every way an adventure is won or lost, through the command line (SPEC 9 "Cubes and losing
conditions"; issue 14): cubes, recall, the chapters' events, chapter 09's endings, `adventure undo`,
and the raid, odds, camp and check defects the issue names. Golden outputs, exit codes, exact files."""

import json
import tomllib
from pathlib import Path

import pytest

from drunagor_log.catalog.headings import rendered
from tests.conftest import EXAMPLE, snapshot, write
from tests.helpers import ok

CHAPTERS = ["01", "02", "03", "04", "05", "06", "07", "08", "09"]


def story(before: str, trauma_limit: int = 1, cards: str = "") -> str:
    """story.toml with every chapter before `before` completed."""
    track = "".join(f'"{ch}" = "completed"\n' for ch in CHAPTERS if ch < before)
    return f"""
schema = 1
campaign = "awakenings"
party = "Test Party"
leader = "Andreas"

[track]
{track}
[rules]
trauma_limit = {trauma_limit}
max_heroes = 4
rune_bag = {{ red = 7, blue = 8, green = 7, orange = 7, gray = 7 }}

[cards]
{cards}"""


HEROES = {"andreas": ("Andreas", "Cleric", "Support"), "nyx": ("Nyx", "Assassin", "Striker")}


def party(root: Path, chapter: str, **kw) -> Path:
    write(root / "story.toml", story(chapter, **kw))
    for slug, (name, cls, role) in HEROES.items():
        write(root / "heroes" / f"{slug}.toml", f'schema = 1\nname = "{name}"\nclass = "{cls}"\nrole = "{role}"\n')
    return root


@pytest.fixture
def root(tmp_path) -> Path:
    return tmp_path / "campaigns" / "test"


def started(run, root: Path, chapter: str, **kw) -> Path:
    party(root, chapter, **kw)
    ok(run("adventure", "start", "--heroes", "2", *(["--models", "4"] if chapter in ("02", "08") else [])))
    return root


def table(run) -> dict:
    return json.loads(ok(run("adventure", "show", "--json")).stdout)


# ------------------------------------------------------------------------------------ cubes


@pytest.mark.parametrize("limit, rule, ordinal", [(0, "RB L1032", "1st"), (1, "RB L1026", "2nd"),  # short citation
                                                  (2, "RB L1028", "3rd")])
def test_trauma_cubes_up_to_the_limit_and_over_it(run, root, limit, rule, ordinal):
    started(run, root, "05", trauma_limit=limit)
    for n in range(1, limit + 1):
        r = ok(run("cube", "Nyx", "trauma", "+1"))
        assert r.stdout == f"Nyx receives 1 Trauma Cube: {n} held, {limit} can be held\n"
        assert table(run)["lost"] is None
    r = ok(run("cube", "nyx", "trauma", "+1"))  # over the limit: said, exit 0
    lost = f"Nyx receives a {ordinal} Trauma Cube and is defeated: the adventure fails, {rule}"
    assert r.stdout == rendered(f"Nyx receives 1 Trauma Cube: {limit + 1} held, {limit} can be held\n"
                                f"{lost}. Record it with `drunagor adventure end --lost`.\n")  # --json: short
    data = table(run)
    assert data["lost"] == lost
    assert data["cubes"]["Nyx"] == {"trauma": limit + 1, "curse": 0, "trauma_limit": limit, "curse_capacity": None}
    assert data["cubes"]["Andreas"] == {"trauma": 0, "curse": 0, "trauma_limit": limit, "curse_capacity": None}


def test_a_skill_that_adds_to_the_trauma_limit_is_recorded_once_per_hero(run, root):
    started(run, root, "05")
    r = ok(run("cube", "Nyx", "trauma", "+2", "--trauma-limit-bonus", "1"))
    assert r.stdout == ("Nyx's Skills add 1 Trauma Cube to the limit (recorded under [cards]); Nyx receives 2 Trauma "
                        "Cubes: 2 held, 2 can be held\n")
    assert (root / "story.toml").read_text().endswith("[cards]\nNyx = { trauma_limit_bonus = 1 }\n")
    data = json.loads(ok(run("cube", "Nyx", "trauma", "1", "--json")).stdout)
    assert data == {"hero": "Nyx", "kind": "trauma", "trauma": 3, "curse": 0, "trauma_limit": 2,
                    "curse_capacity": None, "defeated": True,
                    "lost": "Nyx receives a 3rd Trauma Cube and is defeated: the adventure fails, RB L1030"}
    assert table(run)["cubes"]["Andreas"]["trauma_limit"] == 1  # Nyx's Skill, not Andreas's


def test_the_curse_capacity_is_asked_once_and_remembered(run, root):
    started(run, root, "05")
    before = snapshot(root)
    r = run("cube", "Nyx", "curse", "+1")
    assert (r.exit_code, r.stderr) == (2, rendered(
        "error: how many Curse Cubes does Nyx's board hold? The book says the sixth defeats a hero (RB L927), so 5, "
        "and one more than the board holds fails the adventure (RB L1203); confirm it with --capacity 5 once (or "
        "give the number the board shows); drunagor remembers it under [cards] in story.toml (drunagor cube Nyx "
        "curse +1 --capacity 5)\n"))
    assert snapshot(root) == before
    r = ok(run("cube", "Nyx", "curse", "2", "--capacity", "3"))
    assert r.stdout == ("Nyx's Curse Cube capacity 3 recorded under [cards]; Nyx receives 2 Curse Cubes: 2 held, "
                        "3 can be held\n")
    assert 'Nyx = { curse_capacity = 3 }\n' in (root / "story.toml").read_text()
    r = run("cube", "Nyx", "curse", "+1", "--capacity", "4")
    assert (r.exit_code, r.stderr) == (2, "error: campaigns/test/story.toml: Nyx's board holds 3 Curse Cubes on "
                                          "record; leave out --capacity; if the record is a slip: drunagor card "
                                          "forget Nyx --fact curse_capacity\n")
    ok(run("cube", "Nyx", "curse", "-1"))  # removing needs no capacity, and a negative DELTA is no option
    r = ok(run("cube", "Nyx", "curse", "+3"))
    assert r.stdout.splitlines()[-1] == ("Nyx receives a 4th Curse Cube, more than the 3 their board holds, and is "
                                         "defeated: the adventure fails (Rulebook: Chapter 05 › Winning and Losing the Adventure, L1203). Record it with `drunagor "
                                         "adventure end --lost`.")


def test_cubes_never_go_below_zero(run, root):
    started(run, root, "05")
    before = snapshot(root)
    r = run("cube", "Andreas", "trauma", "-1")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: cubes: Andreas holds no Trauma Cubes: "
                                          "there is none to remove\n")
    assert snapshot(root) == before


@pytest.mark.parametrize("chapter, penalty, ref", [("01", 1, "RB L1066"), ("04", 1, "RB L1167"),  # short citation
                                                   ("05", 2, "RB L1191"), ("09", 2, "RB L1289")])
def test_recall_gives_the_chapters_curse_penalty_single_or_double(run, root, chapter, penalty, ref):
    started(run, root, chapter, cards='Nyx = { curse_capacity = 2 }\n')
    r = ok(run("recall", "Nyx"))
    cubes = "1 Curse Cube" if penalty == 1 else "2 Curse Cubes"
    assert r.stdout == rendered(f"Nyx takes a Recall Action: chapter {chapter}'s penalty is {cubes} ({ref}); Nyx "
                                f"receives {cubes}: {penalty} held, 2 can be held\n")
    r = ok(run("recall", "Nyx"))
    assert ("is defeated" in r.stdout) == (penalty == 2)  # 4 > 2 defeats; 2 is what the board holds


# --------------------------------------------------------------------- each chapter's losing conditions


FAILS_ON_LAST_RUNE = {"01", "02", "03", "04", "05", "06"}  # RB L1076 ... L1225; not 07, 08, 09


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_last_rune_fails_the_chapters_that_say_so(run, root, chapter):
    started(run, root, chapter)
    left = table(run)["runes_in_bag"]
    r = ok(run("draw", str(left), "--seed", "1"))
    data = table(run)
    if chapter in FAILS_ON_LAST_RUNE:
        assert data["lost"].startswith("the last rune in the bag is drawn: the adventure fails, RB L1")
        assert "the adventure fails" in r.stdout
    else:
        assert data["lost"] is None
        assert f"The bag is empty (chapter {chapter} does not fail on the last rune)." in r.stdout


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_a_hero_defeated_by_cubes_fails_every_chapter(run, root, chapter):
    started(run, root, chapter)
    ok(run("cube", "Andreas", "trauma", "2"))
    assert table(run)["lost"] == ("Andreas receives a 2nd Trauma Cube and is defeated: the adventure fails, "
                                  "RB L1026")
    r = run("adventure", "end", "--won")
    assert r.exit_code == 1 and "adventure: the adventure was lost: Andreas receives a 2nd" in r.stderr
    r = ok(run("adventure", "end", "--lost"))
    assert r.stdout.startswith(f"chapter {chapter} failed (attempt 1)")


NO_COUNTERS = dict.fromkeys(("barricade", "swan_hp_drawn", "endgame", "king_health", "vessel_hp_drawn", "mending_rope",
                              "plenty_of_provisions", "spare_wood", "special_event", "time_tokens",
                              "desperation_time_tokens", "doom_clock", "siege_cards_drawn", "harvesters_hunt"))


@pytest.mark.parametrize("chapter, counters", [
    ("04", {"swan_hp_drawn": 0, "vessel_hp_drawn": 0}),
    ("07", {"barricade": 3, "siege_cards_drawn": 0}),
    ("09", {"endgame": False, "king_health": 80, "desperation_time_tokens": 2}),  # 2 heroes x 40 (RB L1299)
    ("05", {"mending_rope": 0, "plenty_of_provisions": 0, "spare_wood": 0}),  # RB L1205
    ("01", {"special_event": False}),
    ("02", {"doom_clock": 0}),
    ("03", {"time_tokens": 3, "harvesters_hunt": False}),  # RB L1134, L1142
    ("06", {}),
    ("08", {}),
])
def test_each_chapter_starts_its_own_counters(run, root, chapter, counters):
    started(run, root, chapter)
    assert table(run)["counters"] == NO_COUNTERS | counters


def test_chapter_07_the_barricade(run, root):
    started(run, root, "07")
    assert ok(run("adventure", "event", "barricade")).stdout == "a Barricade token removed: 2 of 3 left (Rulebook: Special Preparation – Barricade, L1243)\n"
    ok(run("adventure", "event", "bar"))
    r = ok(run("adventure", "event", "barricade"))
    assert r.stdout == ("the last Barricade token removed (Rulebook: Special Preparation – Barricade, L1243)\n"
                        "the last Barricade token is removed and the Seabreeze Tavern barricade is destroyed: the "
                        "adventure fails (Rulebook: Special Preparation – Barricade, L1243; Chapter 07 › Winning and Losing the Adventure, L1251). Record it with `drunagor adventure end --lost`.\n")
    assert table(run)["counters"]["barricade"] == 0
    before = snapshot(root)
    r = run("adventure", "event", "barricade")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: adventure: the adventure is lost: "
                                          "drunagor adventure end --lost; lost by: the last Barricade token is removed "
                                          "and the Seabreeze Tavern barricade is destroyed: the adventure fails "
                                          "(Rulebook: Special Preparation – Barricade, L1243; Chapter 07 › Winning and Losing the Adventure, L1251); if that was a slip, take it back: drunagor adventure undo\n")
    assert snapshot(root) == before


def test_chapter_04_the_pristine_swan_hp_deck_is_asked_once(run, root):
    started(run, root, "04")
    r = run("adventure", "event", "swan-hp")
    assert (r.exit_code, r.stderr) == (2, "error: how many HP cards does the Pristine Swan's deck hold? The rulebook "
                                          "does not say, and drawing the last one fails the adventure (Rulebook: Chapter 04 › Winning and Losing the Adventure, L1177); "
                                          "count them and give --deck N once; drunagor remembers it under [cards] in "
                                          "story.toml (drunagor adventure event swan-hp --deck N)\n")
    r = ok(run("adventure", "event", "swan-hp", "--deck", "2"))
    assert r.stdout == ("the Pristine Swan's HP deck of 2 cards recorded under [cards]; Pristine Swan's HP card 1 of "
                        "2 drawn (Rulebook: Chapter 04 › Winning and Losing the Adventure, L1177)\n")
    assert '"Pristine Swan HP" = { deck_size = 2 }\n' in (root / "story.toml").read_text()
    data = json.loads(ok(run("adventure", "event", "swan-hp", "--json")).stdout)
    assert data["lost"] == "the last Pristine Swan's HP card is drawn: the adventure fails, RB L1177"


def test_an_event_of_another_chapter_is_refused(run, root):
    started(run, root, "05")
    before = snapshot(root)
    r = run("adventure", "event", "endgame")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: adventure-event: chapter 05 has no "
                                          "Endgame Trigger: it is chapter 09's (Rulebook: Chapter 09 › Endgame Trigger, L1309); events of chapter 05: "
                                          "mending-rope, plenty-of-provisions, spare-wood\n")
    assert snapshot(root) == before


# ------------------------------------------------------------------------------ chapter 09's endings


def test_chapter_09_a_defeat_after_the_endgame_trigger_is_a_hero_undone(run, root):
    started(run, root, "09")
    r = ok(run("adventure", "event", "endgame"))
    assert r.stdout == ('Endgame Trigger: from now on a defeat of the party ends the adventure with "A Hero Undone", '
                        'not a failure; defeating the Scenario Commander, with "Baptism of Fire" (Rulebook: Chapter 09 › Endgame Trigger, L1309)\n')
    r = ok(run("cube", "Nyx", "trauma", "+2"))
    assert r.stdout.splitlines()[-1] == (
        'Nyx receives a 2nd Trauma Cube and is defeated: after the Endgame Trigger the party\'s defeat ends the '
        'adventure with "A Hero Undone", not a failure (Rulebook: Chapter 09 › Endgame Trigger, L1309). Record it with `drunagor adventure end --lost`.')
    r = ok(run("adventure", "end", "--lost"))
    assert r.stdout.splitlines()[0] == ('chapter 09 completed with the ending "A Hero Undone" (the party\'s defeat '
                                        'after the Endgame Trigger is not a failure, Rulebook: Chapter 09 › Endgame Trigger, L1309); adventure archived '
                                        'as adventures/09-1.toml')
    saved = tomllib.loads((root / "story.toml").read_text())
    assert (saved["ending"], saved["track"]["09"], "failures" in saved) == ("A Hero Undone", "completed", False)
    assert ok(run("show")).stdout.count('The campaign is finished: chapter 09 is on the Adventure Track. Ending: '
                                        '"A Hero Undone".') == 1
    assert json.loads(ok(run("show", "--json")).stdout)["ending"] == "A Hero Undone"
    listed = json.loads(ok(run("list", "--dir", str(root.parent), "--json")).stdout)["campaigns"][0]
    assert listed["ending"] == "A Hero Undone"
    archived = tomllib.loads((root / "adventures" / "09-1.toml").read_text())
    assert archived["cubes"] == {"Nyx": {"trauma": 2, "curse": 0}} and "events" not in archived
    assert not (root / "adventure.toml").exists()  # the cubes go with the adventure


def test_chapter_09_a_win_is_baptism_of_fire(run, root):
    started(run, root, "09")
    ok(run("adventure", "event", "endgame"))
    r = ok(run("adventure", "end", "--won"))
    assert r.stdout.splitlines()[0] == ('chapter 09 completed with the ending "Baptism of Fire" (Rulebook: Chapter 09 › Endgame Trigger, L1309); '
                                        'adventure archived as adventures/09-1.toml')
    assert tomllib.loads((root / "story.toml").read_text())["ending"] == "Baptism of Fire"
    assert "finished: Baptism of Fire" in ok(run("list", "--dir", str(root.parent))).stdout


def test_chapter_09_a_defeat_before_the_endgame_trigger_is_a_failure(run, root):
    started(run, root, "09")
    ok(run("cube", "Nyx", "trauma", "+2"))
    r = ok(run("adventure", "end", "--lost"))
    assert r.stdout.startswith("chapter 09 failed (attempt 1); the slot stays open")
    assert "ending" not in tomllib.loads((root / "story.toml").read_text())


# -------------------------------------------------------------------------------------- undo


EVENTS = [
    ("pile", "add"), ("draw", "--rune", "red"), ("tiebreak", "1", "--runes", "red,blue,green,orange"),
    ("monster", "add", "Tidehunter"), ("raid", "--seed", "3"), ("battalion", "Gremlin Horde", "--near", "1"),
    ("monster", "remove", "1"), ("pile", "remove", "1"), ("recall", "Andreas"),
    ("cube", "Nyx", "trauma", "+2"),  # the last: it loses the adventure, and nothing happens at the table after it
]


def test_undo_restores_adventure_toml_exactly_after_every_kind_of_event(run, root):
    started(run, root, "05", cards='Andreas = { curse_capacity = 4 }\n')
    states = [(root / "adventure.toml").read_bytes()]
    for args in EVENTS:
        ok(run(*args))
        states.append((root / "adventure.toml").read_bytes())
    assert [e["event"] for e in table(run)["events"]] == [a[0] for a in EVENTS]
    for i in range(len(EVENTS), 0, -1):
        r = ok(run("adventure", "undo"))
        assert r.stdout.startswith(f"took back 1 table event: {EVENTS[i - 1][0]}: ")
        assert (root / "adventure.toml").read_bytes() == states[i - 1], EVENTS[i - 1]


def test_undo_several_steps_dry_run_and_refusals(run, root):
    started(run, root, "07")
    before = (root / "adventure.toml").read_bytes()
    r = run("adventure", "undo")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: undo: 0 table events to take back, "
                                          "not 1; nothing was recorded at the table since the adventure started (an "
                                          "older drunagor kept nothing to take back)\n")
    ok(run("adventure", "event", "barricade"))
    ok(run("draw", "--rune", "blue"))
    after = snapshot(root)
    r = ok(run("adventure", "undo", "--steps", "2", "--dry-run"))
    assert r.stdout == ("would take back 2 table events: draw: drew blue (drawn at the table) to the Initiative Track; "
                        "35 runes left in the bag; barricade: a Barricade token removed: 2 of 3 left (Rulebook: Special Preparation – Barricade, L1243)\n"
                        "dry run: nothing written\n")
    assert snapshot(root) == after
    r = run("adventure", "undo", "--steps", "3")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: undo: 2 table events to take back, "
                                          "not 3; take back at most 2\n")
    data = json.loads(ok(run("adventure", "undo", "--steps", "2", "--json")).stdout)
    assert data["undone"][1] == "barricade: a Barricade token removed: 2 of 3 left (RB L1243)"
    assert (root / "adventure.toml").read_bytes() == before


def test_undo_takes_back_a_defeat(run, root):
    started(run, root, "05")
    ok(run("cube", "Nyx", "trauma", "+2"))
    assert run("adventure", "end", "--won").exit_code == 1
    ok(run("adventure", "undo"))
    assert table(run)["lost"] is None
    assert ok(run("adventure", "end", "--won")).stdout.startswith("chapter 05 completed")


# ---------------------------------------------------------------------------- raid, odds, camp, check


def test_a_raid_on_an_empty_bag_in_chapter_08_flips_the_card(run, root):
    # Chapter 08 does not fail on the last rune (RB L1275); the card flips even if nothing comes (RB L286).
    started(run, root, "08")
    ok(run("pile", "add", "--runes", "red"))
    ok(run("draw", str(table(run)["runes_in_bag"]), "--seed", "2"))
    r = ok(run("raid"))
    assert r.stdout.splitlines()[3:5] == ["2. Manifest a Rune (Rulebook: Dreadful Raid, L292)",
                                          "   The rune bag is empty: no rune can be manifested, so no minion is "
                                          "summoned."]
    assert r.stdout.splitlines()[-1] == ("raid: nothing summoned (the rune bag is empty: no rune can be manifested); "
                                         "the card now shows face B")
    assert table(run)["raid"]["face"] == "B"


def test_raid_rune_not_in_the_bag_is_refused_as_draw_refuses_it(run, root):
    started(run, root, "05")
    ok(run("pile", "add"))
    ok(run("draw", "--rune", "red"))  # the bag held 1 red after Stirring Darkness: none now
    before = snapshot(root)
    r = run("raid", "--rune", "red")
    assert (r.exit_code, r.stdout) == (1, "")
    assert r.stderr == ("error: campaigns/test/adventure.toml: raid (Rulebook: Dreadful Raid, L292): the rune bag holds no red rune (2 blue, "
                        "green, orange, gray); record the rune you really drew\n")
    assert snapshot(root) == before


@pytest.mark.parametrize("monsters, reason", [
    ([("Fell Asteris", "Gray", s) for s in range(1, 13)], "all 12 status-board tracks are taken"),
    ([("Tidehunter", "Minion", s) for s in range(1, 5)], "all 4 models of Tidehunter are on the board"),
])
def test_odds_on_a_full_board_or_with_every_minion_model_out(run, root, monsters, reason):
    from tests.cli.test_raid import STORY, adventure

    write(root / "story.toml", STORY)
    adventure(root, face="B", piles=[{"red": 1}], monsters=monsters)
    data = json.loads(ok(run("odds", "--json")).stdout)
    assert (data["summon_chance"], data["summon_probability"]) == ("0/1", 0.0)
    assert (data["try_chance"], data["try_probability"]) == ("6/35", pytest.approx(6 / 35))
    assert data["reason"] == f"every minion would fail to be summoned: {reason}"
    r = ok(run("odds"))
    assert r.stdout.splitlines()[1:3] == [
        f"Chance it summons: none: every minion would fail to be summoned: {reason}",
        "Chance it tries (a Pile holds the rune manifested): 6/35 (17.1%)"]
    raid = json.loads(ok(run("raid", "--dry-run", "--rune", "red", "--json")).stdout)
    assert (raid["placed"], raid["failed"]) == (0, 2)  # as odds said: it tries, and nothing is placed


def test_camp_waits_for_the_end_of_the_adventure_and_then_the_chest_deck_may_change(run, tmp_path):
    import shutil

    root = tmp_path / "campaigns" / "example"
    shutil.copytree(EXAMPLE, root)
    r = run("camp")
    assert (r.exit_code, r.stdout) == (1, "")
    assert r.stderr == ("error: campaigns/example/adventure.toml: camp: the adventure of chapter 05 is under way, and "
                        "the Camp phase comes between adventures; end the adventure first (drunagor adventure end "
                        "--won|--lost)\n")
    ok(run("adventure", "end", "--won"))
    assert ok(run("camp")).stdout.splitlines()[2].startswith("The Chest deck may be changed now (Rulebook: Preparing the Chest Deck, L361)")


def test_check_strict_finds_more_chest_copies_and_starting_gear_than_there_can_be(run, tmp_path):
    import shutil

    root = tmp_path / "campaigns" / "example"
    shutil.copytree(EXAMPLE, root)
    assert ok(run("check", "--strict")).stdout == ""
    for _ in range(2):  # the deck has 2 Scroll of Incinerate, and Andreas holds one already
        ok(run("hero", "gain", "Nyx", "Scroll of Incinerate", "--kind", "consumable"))
    r = ok(run("hero", "gain", "Nyx", "Iron Helm", "--kind", "starting"))
    assert r.stderr == ("warning: Nyx now has 3 pieces of Starting Gear, but a hero starts with 2 and finds no more "
                        "(Rulebook: Recruiting a New Hero to Your Party, L989); drunagor check reports it\n")
    r = run("check", "--strict")
    assert r.exit_code == 1
    assert r.stdout == (
        "campaigns/example/heroes/nyx.toml:19: starting-gear: Nyx has 3 pieces of Starting Gear, but a hero starts "
        "with 2 and finds no more (Rulebook: Recruiting a New Hero to Your Party, L989); if Iron Helm is not Starting Gear, give it its kind: drunagor hero drop "
        "Nyx \"Iron Helm\", then drunagor hero gain Nyx \"Iron Helm\" --kind spoils|adventure|epic|consumable; else "
        "drop it: drunagor hero drop Nyx \"Iron Helm\"\n"
        "campaigns/example/heroes/nyx.toml:18: chest-copies: 3 Scroll of Incinerate are held (Andreas, Nyx), but the "
        "Chest deck has 2 (Rulebook: Preparing the Chest Deck, L349-359); drop the extra ones (drunagor hero drop Nyx \"Scroll of Incinerate\"), or correct the deck "
        "(drunagor chest swap OUT \"Scroll of Incinerate\", or chest add while it is being recorded)\n")
    assert ok(run("check")).stdout.count("(warning)") == 2
    ok(run("hero", "drop", "Nyx", "Iron Helm"))
    ok(run("hero", "gain", "Nyx", "Elvish Bow"))  # Starting Gear by the catalog: only dropping it helps
    assert ok(run("check")).stdout.splitlines()[0] == (
        "campaigns/example/heroes/nyx.toml:19: starting-gear: Nyx has 3 pieces of Starting Gear, but a hero starts "
        "with 2 and finds no more (Rulebook: Recruiting a New Hero to Your Party, L989); drop it: drunagor hero drop Nyx \"Elvish Bow\" (warning)")


@pytest.mark.slow  # starts a Python
def test_the_table_operations_from_python_in_a_fresh_interpreter(tmp_path):
    """docs/library.md's table example, run as a script would run it: `from drunagor_log import ops` alone."""
    import re
    import shutil
    import subprocess
    import sys

    from tests.conftest import REPO

    shutil.copytree(EXAMPLE, tmp_path / "campaigns" / "example")
    code = re.findall(r"```python\n(.*?)```", (REPO / "docs" / "library.md").read_text(encoding="utf-8"), re.S)[2]
    said = re.findall(r"print\(.+?\)\s+# (.+)", code)
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout.splitlines() == said

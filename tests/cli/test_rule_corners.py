"""The rule corners issue 34 left (items 3, 4, 7, 10): a Siege Monster's models asked by `battalion` too,
the miniatures a raid card takes (the Nagian Hunter is the Tidehunter's, RB L1199), every copy the Chest
deck's cards are known to have, and a token's doubted hero name taken with `import --new`. Through the
command line, with exact outputs, exit codes and the files left as they were where a command is refused."""

import json
import tomllib
from pathlib import Path

import pytest

from tests.cli.test_losing import started, table
from tests.cli.test_raid import STORY, adventure
from tests.conftest import snapshot, write
from tests.helpers import ok


@pytest.fixture
def root(tmp_path) -> Path:
    return tmp_path / "campaigns" / "test"


# ---------------------------------------------------- 3. a Siege Monster's models in a battalion


def test_a_chapter_07_battalion_asks_each_siege_monsters_models_once(run, root):
    started(run, root, "07")
    before = snapshot(root)
    r = run("battalion", "Vile Spawn", "Coiled Harridan", "--near", "1")
    assert (r.exit_code, r.stderr) == (2, (
        "error: how many Vile Spawn and Coiled Harridan models are there? The book does not say, and one that "
        "cannot spawn because all its models are on the board activates the first of its kind instead (Rulebook: Special Scenario Rule – Tower Defense, L1237); "
        "count them and give --models \"Vile Spawn=N\" --models \"Coiled Harridan=N\" once; drunagor remembers it "
        "under [cards] in story.toml (drunagor battalion \"Vile Spawn\" \"Coiled Harridan\" --near 1 --models "
        "\"Vile Spawn=N\" --models \"Coiled Harridan=N\")\n"))
    r = run("battalion", "Vile Spawn", "Coiled Harridan", "--models", "2")
    assert (r.exit_code, r.stderr) == (2, "error: --models 2: the battalion summons Vile Spawn and Coiled Harridan; "
                                          "say whose; write --models NAME=N, once for each\n")
    r = run("battalion", "Vile Spawn", "--models", "0")
    assert r.exit_code == 2 and r.stderr.startswith("error: --models must be from 1 to 12, not 0")
    d = ok(run("battalion", "Vile Spawn", "Coiled Harridan", "Coiled Harridan", "--models", "vile spawn=2",
               "--models", "Coiled Harridan=1", "--dry-run", "--json"))
    assert json.loads(d.stdout)["not_placed"] == ["Coiled Harridan"]
    assert snapshot(root) == before  # a dry run records no fact
    r = ok(run("battalion", "Vile Spawn", "Coiled Harridan", "Coiled Harridan", "--near", "1", "--models",
               "Vile Spawn=2", "--models", "Coiled Harridan=1"))
    assert r.stdout.splitlines()[-4:] == [
        "Not placed (all its models are on the board, Rulebook: Dreadful Raid, L311): Coiled Harridan",
        "Siege of Everedge: each activates the first monster of its own kind instead (Rulebook: Special Scenario Rule – Tower Defense, L1237):",
        "  Coiled Harridan: activate Coiled Harridan in slot 2 (dark blue)",
        "Vile Spawn: 2 models recorded under [cards]; Coiled Harridan: 1 model recorded under [cards]; battalion: "
        "Vile Spawn in slot 1 (yellow), Coiled Harridan in slot 2 (dark blue) placed near 1; 1 not placed: "
        "1 activation"]
    cards = tomllib.loads((root / "story.toml").read_text())["cards"]
    assert cards == {"Vile Spawn": {"model_count": 2}, "Coiled Harridan": {"model_count": 1}}
    assert ok(run("battalion", "Vile Spawn", "--near", "1")).stdout.endswith(
        "battalion: Vile Spawn in slot 3 (pink) placed near 1\n")  # asked once: now remembered
    r = run("battalion", "Vile Spawn", "--models", "3")
    assert r.exit_code == 2 and r.stderr.endswith(
        "leave out --models; if the record is a slip: drunagor card forget \"Vile Spawn\" --fact model_count\n")
    ok(run("adventure", "undo"))
    undone = ok(run("adventure", "undo")).stdout
    assert "drunagor card forget \"Vile Spawn\" --fact model_count" in undone
    assert "drunagor card forget \"Coiled Harridan\" --fact model_count" in undone


def test_a_battalion_refuses_two_counts_for_one_kind(run, root):
    """--models given twice for one kind with two counts is a slip: refused, nothing recorded (it kept the last)."""
    started(run, root, "07")
    before = snapshot(root)
    for models in (("2", "3"), ("vile spawn=2", "Vile Spawn=3")):
        r = run("battalion", "Vile Spawn", "--near", "1", "--models", models[0], "--models", models[1])
        assert (r.exit_code, r.stderr) == (2, "error: --models gives Vile Spawn 2 and 3 models; give Vile Spawn's "
                                              "count once\n")
    assert snapshot(root) == before
    ok(run("battalion", "Vile Spawn", "--near", "1", "--models", "2", "--models", "Vile Spawn=2"))  # the same twice


def test_one_model_on_record_reads_in_the_singular(run, root):
    started(run, root, "07")
    ok(run("monster", "add", "Coiled Harridan", "--models", "1"))
    for args in (("monster", "add", "Coiled Harridan", "--models", "2"),
                 ("battalion", "Coiled Harridan", "--near", "1", "--models", "2")):
        r = run(*args)
        assert (r.exit_code, r.stderr) == (2, "error: campaigns/test/story.toml: Coiled Harridan has 1 model on "
                                              "record; leave out --models; if the record is a slip: drunagor card "
                                              "forget \"Coiled Harridan\" --fact model_count\n")
    r = run("monster", "add", "Vile Spawn", "--models", "13")
    assert (r.exit_code, r.stderr) == (2, "error: --models must be from 1 to 12, not 13: a monster has at least one "
                                          "model, and the Monster Status board has 12 tracks (Rulebook: Dreadful "
                                          "Raid, L311)\n")


def test_monster_add_counts_the_models_a_battalion_recorded(run, root):
    started(run, root, "07")
    ok(run("battalion", "Coiled Harridan", "--models", "1"))
    r = run("monster", "add", "Coiled Harridan")
    assert r.exit_code == 1 and "the one model of Coiled Harridan is on the board: it cannot spawn; activate the " \
                                "first Coiled Harridan, in slot 1 (yellow), instead (Rulebook: Special Scenario Rule – Tower Defense, L1237)" in r.stderr


# ------------------------------------------ 3. the Nagian Hunter miniatures are the Tidehunter's (05)


@pytest.mark.parametrize("chapter, name, rule, minion", [
    ("05", "Nagian Hunter", "Rulebook: Special Mechanics – Monster Raid, L1199", "Tidehunter"),
    ("04", "Nagian Hunter", "Rulebook: Special Mechanic – Naval Raid, L1171", "Tidehunter"),
    ("04", "Executioner", "Rulebook: Special Mechanic – Naval Raid, L1171", "Boatswain"),
    ("02", "Night Stalker", "Rulebook: Special Mechanic – Nightmare Raid, L1102", "Nightmare"),
    ("08", "Hellspawn Brute", "Rulebook: Special Mechanics – Fell Woodmen Raid, L1271", "Fell Woodman"),
])
def test_a_raid_cards_miniatures_are_not_a_random_monster(run, root, chapter, name, rule, minion):
    started(run, root, chapter)
    before = snapshot(root)
    r = run("monster", "add", name, *(["--rank", "Gray"] if name == "Executioner" else []))
    assert (r.exit_code, r.stderr) == (1, (
        f"error: campaigns/test/adventure.toml: raid models ({rule}): chapter {chapter} takes the {name} miniatures "
        f"for its {minion} card: the {name} is not used as a random Monster ({rule}); {'an' if name == 'Executioner' else 'a'} {name} miniature on the "
        f"board is a {minion}: drunagor monster add {minion}\n"))
    r = run("battalion", name, "--near", "1", *(["--rank", f"{name}=Gray"] if name == "Executioner" else []))
    assert r.exit_code == 1 and f"the {name} is not used as a random Monster ({rule})" in r.stderr
    assert snapshot(root) == before


def test_the_nagian_hunter_is_a_monster_of_its_own_where_no_raid_takes_it(run, root):
    started(run, root, "06")
    assert ok(run("monster", "add", "Nagian Hunter")).stdout == "Nagian Hunter placed in slot 1 (yellow)\n"


def test_the_tidehunters_four_models_count_the_nagian_hunters_on_the_board(run, root):
    write(root / "story.toml", STORY)
    (root / "heroes").mkdir(parents=True)
    # an adventure.toml whose board holds Nagian Hunters (by hand, or from an older drunagor)
    adventure(root, monsters=[("Tidehunter", "Minion", 1), ("Nagian Hunter", "White", 2),
                              ("Tidehunter", "Minion", 3), ("Nagian Hunter", "White", 4)])
    before = snapshot(root)
    r = run("monster", "add", "Tidehunter")
    assert (r.exit_code, r.stderr) == (1, (
        "error: campaigns/test/adventure.toml: models (Rulebook: Dreadful Raid, L311): all 4 models of Tidehunter are on the board "
        "(Nagian Hunter plays the same miniatures); remove a defeated one first: drunagor monster remove SLOT "
        "(Tidehunter holds slots 1, 3; Nagian Hunter holds slots 2, 4)\n"))
    r = ok(run("battalion", "Tidehunter", "--near", "1", "--dry-run", "--json"))
    assert json.loads(r.stdout)["not_placed"] == ["Tidehunter"]
    assert snapshot(root) == before
    ok(run("monster", "remove", "4"))
    assert ok(run("monster", "add", "Tidehunter")).stdout == "Tidehunter placed in slot 4 (green)\n"
    assert [m["name"] for m in table(run)["monsters"]] == ["Tidehunter", "Nagian Hunter", "Tidehunter", "Tidehunter"]


def test_check_counts_the_nagian_hunters_among_the_tidehunters_models(run, root):
    write(root / "story.toml", STORY)
    (root / "heroes").mkdir(parents=True)
    adventure(root, monsters=[("Tidehunter", "Minion", 1), ("Nagian Hunter", "White", 2),
                              ("Tidehunter", "Minion", 3), ("Nagian Hunter", "White", 4), ("Tidehunter", "Minion", 5)])
    r = run("-C", str(root), "check")
    assert "adventure: 5 Tidehunter and Nagian Hunter on the board, but the box holds 4 models (Rulebook: Dreadful Raid, L311); remove " \
           "the extra ones (drunagor monster remove SLOT)\n" in r.stdout


# ------------------------------------------------ 4, 10. a token's heroes: known, doubted, counted


def test_import_takes_a_hero_name_the_resolver_doubts_with_new(run, tmp_path):
    ok(run("new", "t", "--party", "P"))
    ok(run("hero", "add", "Catharine", "--role", "Striker", "--class", "Warrior", "--new"))  # not Catharina
    (tmp_path / "token.txt").write_text(ok(run("-C", "campaigns/t", "export")).stdout.strip())
    before = snapshot(tmp_path / "campaigns")
    args = ("import", "token.txt", "--name", "k", "--class", "Catharine=Warrior", "--role", "Catharine=Striker")
    r = run(*args)
    assert (r.exit_code, r.stdout, r.stderr) == (1, "", (
        "error: 'Catharine' is not a hero drunagor knows, and it is very like 'Catharina'; did you mean 'Catharina'? "
        "If 'Catharine' is new, add --new to record it as typed\n"))
    assert snapshot(tmp_path / "campaigns") == before  # nothing written
    r = ok(run(*args, "--new"))
    assert r.stdout.splitlines()[0] == ("imported 'P' (current token) as campaigns/k: 1 hero, 0 Followers, "
                                        "0 Outcomes, 0 statuses")
    log = tomllib.loads((tmp_path / "campaigns" / "k" / "heroes" / "catharine.toml").read_text())
    assert (log["name"], log["class"], log["role"]) == ("Catharine", "Warrior", "Striker")


def test_a_drunagor_campaign_with_katarina_comes_back_the_same_through_export_and_import(run, tmp_path):
    ok(run("new", "t", "--party", "P"))
    ok(run("hero", "add", "Katarina", "--role", "Striker", "--class", "Warrior"))
    ok(run("hero", "add", "Nyx", "--role", "Defender"))
    token = ok(run("-C", "campaigns/t", "export")).stdout.strip()
    r = ok(run("import", token, "--name", "k", "--class", "Katarina=Warrior", "--role", "Katarina=Striker",
               "--role", "Nyx=Defender"))
    assert "2 heroes, 0 Followers" in r.stdout.splitlines()[0]
    assert ok(run("-C", "campaigns/k", "export")).stdout.strip() == token


# --------------------------------------------- 7. every card whose copies are known, counted


def _party_of_three(run):
    ok(run("new", "t", "--party", "P"))
    for hero, role in (("Andreas", "Support"), ("Nyx", "Striker"), ("Vacrem", "Defender")):
        ok(run("hero", "add", hero, "--role", role, "--gear", "Wooden Staff", "--gear", "Cloth Armor"))


def test_check_counts_a_common_scroll_against_its_grid_cell_before_the_deck_is_recorded(run, tmp_path):
    # Scroll of Incinerate is Common (RB L363-365): the deck holds 4 Common Scrolls in all (RB L357)
    _party_of_three(run)
    for hero in ("Andreas", "Andreas", "Nyx", "Vacrem"):
        ok(run("hero", "gain", hero, "Scroll of Incinerate", "--bag"))
    assert run("check").stdout == ""
    ok(run("hero", "gain", "Vacrem", "Scroll of Incinerate", "--bag"))
    r = run("check")
    assert (r.exit_code, r.stdout) == (0, (
        "campaigns/t/heroes/vacrem.toml:13: chest-copies: 5 Scroll of Incinerate are held (Andreas, Nyx, Vacrem), but "
        "the Chest deck has at most 4: it holds 4 Common Scrolls in all (Rulebook: Preparing the Chest Deck, L357); drop the extra ones (drunagor hero "
        "drop Vacrem \"Scroll of Incinerate\") (warning)\n"))


def test_check_counts_a_card_recorded_rare_under_cards(run, tmp_path):
    _party_of_three(run)
    ok(run("card", "set", "Potion of Haste", "--rarity", "rare"))
    for hero in ("Andreas", "Nyx", "Vacrem"):
        ok(run("hero", "gain", hero, "Potion of Haste", "--bag"))
    assert "3 Potion of Haste are held (Andreas, Nyx, Vacrem), but the Chest deck has at most 2: it holds 2 Rare " \
           "Potions in all (Rulebook: Preparing the Chest Deck, L357)" in run("check").stdout


def test_check_counts_the_epic_pair_in_the_stash_and_when_epic_is_not_recorded(run, tmp_path):
    _party_of_three(run)
    story = tmp_path / "campaigns" / "t" / "story.toml"
    ok(run("stash", "add", "Treasure Trove"))
    ok(run("stash", "add", "Treasure Trove"))
    r = run("check")
    assert r.stdout.endswith(
        "chest-copies: 2 Treasure Trove are held (the stash), but the Chest deck has one copy (Rulebook: Compulsory Replacement, L371); take the "
        "extra ones out (drunagor stash remove \"Treasure Trove\") (warning)\n")
    ok(run("stash", "remove", "Treasure Trove"))
    ok(run("hero", "gain", "Nyx", "Artisan's Tools", "--bag"))
    ok(run("hero", "gain", "Andreas", "Artisan's Tools", "--bag"))
    text = story.read_text()
    write(story, text.replace(text[text.index("epic = ["):text.index("]", text.index("epic = ["))+1], "epic = []"))
    assert "2 Artisan's Tools are held (Andreas, Nyx), but the Chest deck has one copy (Rulebook: Compulsory Replacement, L371)" in run("check").stdout

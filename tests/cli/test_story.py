"""The Story Record commands (SPEC section 4 "Story Record", 5.2; RB L951-962, L447-463, L1058-1331):
each command's effect on story.toml as exact file content, each refusal with its message and exit code,
and the chapter briefings with the party's numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drunagor_log.campaign import Campaign
from drunagor_log.ops.story import record_chapter
from tests.conftest import snapshot, write

STORY = """
schema = 1
campaign = "awakenings"
party = "Safeguard Corporation"
leader = "Andreas"              # breaks the ties

# names as written on the sheet
followers = ["Vorn the Warrior"]
outcomes = []
statuses = []

[track]                         # Adventure Track
"01" = "completed"
"02" = "completed"

[rules]
trauma_limit = 1
max_heroes = 4
"""

HERO = """
schema = 1
name = "{name}"
class = "{cls}"
role = "{role}"
joined = "01"
{extra}
skills = [{{ name = "Skill", tree = "melee", level = 1, chapter = "01" }}]
equipment = [
  {{ name = "Blooded Sword", kind = "starting", place = "equipped" }},
  {{ name = "Cloth Armor", kind = "starting", place = "equipped" }},
]
"""


def story_lines(r) -> str:
    """The lines `check` printed about story.toml (the heroes' checks are another area's)."""
    return "".join(line + "\n" for line in r.stdout.splitlines() if "story.toml" in line)


@pytest.fixture
def sgc(tmp_path) -> Path:
    """Andreas and Nyx active (each holding the chapter 01 reward), Vacrem retired; 01 and 02 completed."""
    root = tmp_path / "campaigns" / "sgc"
    write(root / "story.toml", STORY)
    write(root / "heroes" / "andreas.toml", HERO.format(name="Andreas", cls="Cleric", role="Support", extra=""))
    write(root / "heroes" / "nyx.toml", HERO.format(name="Nyx", cls="Assassin", role="Striker", extra=""))
    write(root / "heroes" / "vacrem.toml",
          HERO.format(name="Vacrem", cls="Warrior", role="Defender", extra="retired = true"))
    return root


def story(root: Path) -> str:
    return (root / "story.toml").read_text()


def with_story(root: Path, old: str, new: str) -> None:
    text = story(root)
    assert old in text
    (root / "story.toml").write_text(text.replace(old, new))


@pytest.fixture
def today(monkeypatch):
    monkeypatch.setattr("drunagor_log.ops.story._today", lambda: "2026-11-29")


# ------------------------------------------------------------------------------- party and leader

def test_party_renames_in_place(run, sgc):
    r = run("party", "SGC")
    assert (r.exit_code, r.stdout, r.stderr) == (0, "party name: SGC\n", ""), r
    assert story(sgc) == STORY.lstrip().replace('party = "Safeguard Corporation"', 'party = "SGC"')


def test_leader_keeps_the_comment(run, sgc):
    r = run("leader", "ny")
    assert (r.exit_code, r.stdout) == (0, "Party Leader: Nyx\n"), r
    assert story(sgc) == STORY.lstrip().replace('leader = "Andreas"', 'leader = "Nyx"')


def test_leader_is_written_after_the_party_when_missing(run, sgc):
    with_story(sgc, 'leader = "Andreas"              # breaks the ties\n', "")
    assert run("leader", "NYX").exit_code == 0
    assert story(sgc).startswith('schema = 1\ncampaign = "awakenings"\nparty = "Safeguard Corporation"\n'
                                 'leader = "Nyx"\n\n# names as written on the sheet\n')


def test_leader_unchanged_writes_nothing(run, sgc):
    before = snapshot(sgc)
    r = run("leader", "andreas")
    assert (r.exit_code, r.stdout) == (0, "no change: Party Leader: Andreas\n")
    assert snapshot(sgc) == before


def test_unknown_leader_is_refused(run, sgc):
    before = snapshot(sgc)
    r = run("leader", "Bob")
    assert r.exit_code == 1
    assert r.stderr == ("error: leader: no active hero called 'Bob'; the Party Leader is one of the active "
                        "heroes: Andreas, Nyx\n")
    assert snapshot(sgc) == before


def test_a_retired_hero_cannot_lead(run, sgc):
    before = snapshot(sgc)
    r = run("leader", "Vacrem")
    assert r.exit_code == 1
    assert r.stderr == ("error: campaigns/sgc/story.toml: leader: Vacrem has left the party (retired); the Party "
                        "Leader must be an active hero; the Party Leader is one of the active heroes: Andreas, Nyx\n")
    assert snapshot(sgc) == before


# --------------------------------------------------------------------- followers, outcomes, statuses

def test_follower_add_uses_the_catalog_spelling_and_goes_one_per_line(run, sgc):
    r = run("follower", "add", "maya")
    assert (r.exit_code, r.stderr) == (0, ""), r
    assert r.stdout == "Maya the Ranger follows the party: Follower written on the Story Record (Rulebook: Recruiting Followers and Cohorts, L455)\n"
    assert story(sgc) == STORY.lstrip().replace(
        'followers = ["Vorn the Warrior"]',
        'followers = [\n  "Vorn the Warrior",\n  "Maya the Ranger",\n]')


def test_an_unknown_follower_is_refused_with_a_suggestion_unless_new(run, sgc):
    # SPEC 9 name resolution: a typo is never written as a side effect; --new records a name drunagor
    # does not know, and `check` keeps reporting it as unknown (a warning; --strict: an error)
    with_story(sgc, 'followers = ["Vorn the Warrior"]', "followers = []")
    before = snapshot(sgc)
    r = run("follower", "add", "Vorn the Warior")
    assert (r.exit_code, r.stderr) == (1, "error: no Follower called 'Vorn the Warior'; did you mean 'Vorn the "
                                          "Warrior'? (if it is a Follower drunagor does not know, add --new to "
                                          "record it)\n")
    assert snapshot(sgc) == before
    r = run("follower", "add", "Vorm", "--new")
    assert (r.exit_code, r.stderr) == (0, ""), r
    assert 'followers = [\n  "Vorm",\n]\n' in story(sgc)
    r = run("check")
    assert (r.exit_code, story_lines(r)) == (0, "campaigns/sgc/story.toml:7: unknown-name: Follower 'Vorm' is not a name "
                                          "drunagor knows; did you mean 'Vorn the Warrior'? fix the spelling, or "
                                          "keep it if the book says so (warning)\n")
    assert run("check", "--strict").exit_code == 1
    assert run("follower", "remove", "Vorm").exit_code == 0
    assert snapshot(sgc) == before  # the inverse: byte for byte


def test_a_duplicate_follower_is_refused(run, sgc):
    before = snapshot(sgc)
    r = run("follower", "add", "VORN THE WARRIOR")
    assert r.exit_code == 1
    assert r.stderr == ("error: campaigns/sgc/story.toml:7: followers: Follower 'Vorn the Warrior' is already "
                        "written on the Story Record; each name is written once; nothing to do\n")
    assert snapshot(sgc) == before


def test_follower_remove(run, sgc):
    r = run("follower", "remove", "vorn")
    assert (r.exit_code, r.stdout) == (0, "Vorn the Warrior erased from the Story Record's Followers (Rulebook: Recruiting Followers and Cohorts, L459)\n")
    assert story(sgc) == STORY.lstrip().replace('followers = ["Vorn the Warrior"]', "followers = []")


def test_removing_an_absent_follower_is_refused(run, sgc):
    before = snapshot(sgc)
    r = run("follower", "remove", "Maya")
    assert r.exit_code == 1
    assert r.stderr == ("error: campaigns/sgc/story.toml:7: followers: there is no Follower 'Maya' on the Story "
                        "Record (Rulebook: Recruiting Followers and Cohorts, L455-459); the followers recorded are: Vorn the Warrior\n")
    assert snapshot(sgc) == before


def test_outcomes_keep_their_order_and_shrink_back(run, sgc):
    assert run("outcome", "add", "drinking pal").exit_code == 0
    assert run("outcome", "add", "Watcher").exit_code == 0
    assert run("outcome", "add", "Ancient Book").exit_code == 0
    assert 'outcomes = [\n  "Drinking Pal",\n  "Watcher",\n  "Ancient Book",\n]\n' in story(sgc)
    r = run("outcome", "remove", "watcher")
    assert (r.exit_code, r.stdout) == (0, "Outcome Watcher erased from the Story Record\n")
    assert 'outcomes = [\n  "Drinking Pal",\n  "Ancient Book",\n]\n' in story(sgc)
    assert run("outcome", "remove", "Drinking Pal").exit_code == 0
    assert run("outcome", "remove", "Ancient").exit_code == 0
    assert story(sgc) == STORY.lstrip()


def test_a_missing_list_is_written_after_its_neighbour(run, sgc):
    with_story(sgc, "outcomes = []\nstatuses = []\n", "")
    r = run("status", "add", "imminent danger")
    assert (r.exit_code, r.stdout) == (0, "Story Record status Imminent Danger written\n"), r
    r = run("outcome", "add", "Pirate's Gift")
    assert (r.exit_code, r.stdout) == (0, "Outcome Pirate's Gift written on the Story Record (Rulebook: Story Record, L962)\n"), r
    assert story(sgc) == STORY.lstrip().replace(
        'outcomes = []\nstatuses = []\n', 'outcomes = [\n  "Pirate\'s Gift",\n]\nstatuses = [\n  "Imminent Danger",\n]\n')


def test_status_refusals(run, sgc):
    assert run("status", "add", "Careful").exit_code == 0
    before = snapshot(sgc)
    r = run("status", "add", "careful")
    assert r.exit_code == 1
    assert "status 'Careful' is already written on the Story Record" in r.stderr
    r = run("status", "remove", "Guided")
    assert r.exit_code == 1
    assert r.stderr == ("error: campaigns/sgc/story.toml:9: statuses: there is no status 'Guided' on the Story "
                        "Record; the statuses recorded are: Careful\n")
    assert snapshot(sgc) == before


def test_an_ambiguous_prefix_is_a_usage_error(run, sgc):
    r = run("follower", "add", "l")  # only Lorelai: a unique prefix
    assert r.exit_code == 0 and "Lorelai the Mage follows the party" in r.stdout
    before = snapshot(sgc)
    r = run("outcome", "add", "S")  # Selfish, Selfless
    assert r.exit_code == 2
    assert r.stderr == "error: 'S' could be any of: Selfish, Selfless; type more of the Outcome's name\n"
    assert snapshot(sgc) == before


# ---------------------------------------------------------------------------- the Adventure Track

def test_complete_the_next_chapter_lists_what_each_hero_owes(run, sgc):
    r = run("chapter", "complete", "3")
    assert r.exit_code == 0, r
    assert r.stdout == (
        "chapter 03 completed\n"
        "Chapter 03 rewards each hero: 1 Class Ability, 1 Spoils of the Hero (Standard) (Rulebook: One-Shot Adventures, L1005-1016).\n"
        "Andreas now owes: 1 Class Ability, 1 Spoils of the Hero (Standard)\n"
        "Nyx now owes: 1 Class Ability, 1 Spoils of the Hero (Standard)\n"
        "Record them with drunagor hero ability and hero gain.\n")  # the commands for what is owed, only
    assert story(sgc) == STORY.lstrip().replace('"02" = "completed"\n', '"02" = "completed"\n"03" = "completed"\n')


def test_a_chapter_without_rewards(run, sgc):
    with_story(sgc, '"02" = "completed"\n', "")
    r = run("chapter", "complete", "02")
    assert r.stdout == ("chapter 02 completed\n"
                        "Chapter 02 gives the heroes no rewards to record (Rulebook: One-Shot Adventures, L1005-1016).\n"
                        "Andreas now owes: nothing\n"
                        "Nyx now owes: nothing\n")


def test_skip_gives_no_rewards(run, sgc):
    r = run("chapter", "skip", "3")
    assert (r.exit_code, r.stdout) == (0, "chapter 03 skipped\nSkipped chapters give no rewards (Rulebook: Rewards (end of Chapter), L1084).\n")
    assert story(sgc) == STORY.lstrip().replace('"02" = "completed"\n', '"02" = "completed"\n"03" = "skipped"\n')
    shown = json.loads(run("show", "--json").stdout)
    assert [h["owes"]["class_abilities"] for h in shown["heroes"] if not h["retired"]] == [0, 0]


def test_fail_records_an_attempt_and_leaves_the_slot_open(run, sgc):
    r = run("chapter", "fail", "3")
    assert r.exit_code == 0, r
    assert r.stdout.startswith("chapter 03: failed attempt recorded (1 so far)\n"
                               "Chapter 03 stays open on the Adventure Track: play it again (Rulebook: Story Record, L961).\n")
    assert run("chapter", "fail", "3").stdout.startswith("chapter 03: failed attempt recorded (2 so far)\n")
    assert story(sgc) == STORY.lstrip().replace(
        '"02" = "completed"\n\n', '"02" = "completed"\n\n[failures]\n"03" = 2\n\n')
    assert "Next: chapter 03, Run! (2 failed attempts)" in run("show").stdout
    assert json.loads(run("show", "--json").stdout)["failures"] == {"03": 2}


def test_an_out_of_order_chapter_is_refused(run, sgc):
    before = snapshot(sgc)
    r = run("chapter", "complete", "5")
    assert r.exit_code == 1
    assert r.stderr == (
        "error: campaigns/sgc/story.toml:11: adventure-track: chapter 05 is not the next unfilled slot of the "
        "Adventure Track: chapter 03 is, and the track is filled in order (Rulebook: Story Record, L961); play chapter 03 first "
        "(drunagor chapter complete|skip|fail 3), or correct history with `drunagor chapter complete 5 --force` "
        "(recorded in story.toml)\n")
    assert run("chapter", "fail", "4").exit_code == 1
    assert snapshot(sgc) == before


def test_a_filled_chapter_is_refused(run, sgc):
    before = snapshot(sgc)
    r = run("chapter", "complete", "2")
    assert r.exit_code == 1
    assert r.stderr == ("error: campaigns/sgc/story.toml:13: adventure-track: chapter 02 is already completed on "
                        "the Adventure Track (Rulebook: Story Record, L961); nothing to record; the next unfilled slot is chapter 03\n")
    r = run("chapter", "skip", "1")
    assert r.exit_code == 1
    assert r.stderr == ("error: campaigns/sgc/story.toml:12: adventure-track: chapter 01 is already completed on "
                        "the Adventure Track (Rulebook: Story Record, L961); to correct history: drunagor chapter skip 1 --force "
                        "(recorded in story.toml)\n")
    assert snapshot(sgc) == before


def test_force_corrects_history_and_records_it(run, sgc, today):
    r = run("chapter", "skip", "2", "--force")
    assert r.exit_code == 0, r
    assert r.stdout.startswith("chapter 02 skipped; history corrected with --force (was completed), recorded "
                               "under corrections\n")
    assert story(sgc) == STORY.lstrip().replace(
        'statuses = []\n',
        'statuses = []\ncorrections = [\n  "2026-11-29: chapter 02 set to skipped with --force (was completed)",\n]\n'
    ).replace('"02" = "completed"', '"02" = "skipped"')
    r = run("chapter", "skip", "2", "--force")  # nothing left to correct
    assert (r.exit_code, r.stdout) == (0, "no change: chapter 02 is already skipped\n")


def test_force_out_of_order_keeps_the_track_in_chapter_order(run, sgc, today):
    assert run("chapter", "complete", "5", "--force").exit_code == 0
    assert story_lines(run("check")) == ""  # the correction explains the gap
    assert run("chapter", "skip", "3").exit_code == 0
    assert run("chapter", "complete", "4").exit_code == 0
    text = story(sgc)
    assert ('[track]                         # Adventure Track\n"01" = "completed"\n"02" = "completed"\n'
            '"03" = "skipped"\n"04" = "completed"\n"05" = "completed"\n\n') in text
    assert ('corrections = [\n  "2026-11-29: chapter 05 set to completed with --force (was open; chapter 03 was '
            'the next unfilled slot)",\n]\n') in text
    assert json.loads(run("show", "--json").stdout)["next_chapter"] == "06"


def test_check_reports_a_gap_on_the_track(run, sgc):
    with_story(sgc, '"02" = "completed"\n', '"04" = "completed"\n')
    r = run("check")
    assert r.exit_code == 1
    assert story_lines(r) == ("campaigns/sgc/story.toml:13: track-order: chapter 04 is completed but chapter 02 before it "
                        "is still open; the Adventure Track is filled in order (Rulebook: Story Record, L961): fill chapter 02 (drunagor "
                        "chapter complete|skip 2), or write under `corrections` why chapter 04 was filled out of "
                        "order\n")


def test_the_campaign_ends_with_chapter_09(run, sgc):
    with_story(sgc, '"02" = "completed"\n', "".join(f'"{n:02d}" = "completed"\n' for n in range(2, 9)))
    r = run("chapter", "complete", "9")
    assert r.exit_code == 0
    assert r.stdout.splitlines()[-1] == "The campaign is finished: chapter 09 is on the Adventure Track."
    assert "The campaign is finished: chapter 09 is on the Adventure Track." in run("show").stdout
    before = snapshot(sgc)
    r = run("chapter", "complete", "10")
    assert r.exit_code == 1
    assert r.stderr == ("error: no chapter '10': the Awakenings campaign has chapters 01 to 09; the campaign is "
                        "finished: chapter 09 is on the Adventure Track; give a chapter number from 1 to 9\n")
    r = run("chapter", "fail", "9")
    assert r.exit_code == 1
    assert "chapter 09 is already completed on the Adventure Track and the campaign is finished" in r.stderr
    r = run("chapter", "show")
    assert r.exit_code == 2
    assert "the campaign is finished" in r.stderr
    assert snapshot(sgc) == before


def test_record_chapter_edits_without_saving(sgc):
    with Campaign(sgc) as c:
        lines = record_chapter(c, "03", "completed").notes
        assert lines[0] == (  # short citation: the operation's own notes
            "Chapter 03 rewards each hero: 1 Class Ability, 1 Spoils of the Hero (Standard) (RB L1005-1016).")
        assert '"03" = "completed"' not in story(sgc)  # the caller saves (finish)
        c.save()
    assert '"03" = "completed"' in story(sgc)


def test_track_keys_written_as_single_digits_are_edited_in_place(run, sgc, today):
    with_story(sgc, '"02" = "completed"', '2 = "completed"   # the Swarm')
    assert run("chapter", "skip", "2", "--force").exit_code == 0
    assert '2 = "skipped"   # the Swarm\n' in story(sgc)
    assert '"02"' not in story(sgc)


@pytest.mark.parametrize("verb", ["complete", "skip", "fail"])
def test_the_chapter_of_the_adventure_under_way_is_ended_by_adventure_end(run, example, verb):
    # Filling chapter 05 while its adventure is under way left `adventure end` with nothing it could do.
    before = snapshot(example)
    r = run("chapter", verb, "5")
    assert (r.exit_code, r.stderr) == (
        1, "error: campaigns/example/adventure.toml: adventure: the adventure of chapter 05 is under way; end it "
           "with `drunagor adventure end --won` (completes the chapter) or `--lost` (records a failed attempt), "
           "which also archives it" + ("; then skip the chapter if the party gives it up\n" if verb == "skip"
                                       else "\n"))
    assert snapshot(example) == before
    r = run("adventure", "end", "--won" if verb == "complete" else "--lost")
    assert r.exit_code == 0, r


def test_another_chapter_may_be_recorded_while_an_adventure_is_under_way(run, example, today):
    # Only the chapter under way is refused: correcting another slot of the track stays legal.
    r = run("chapter", "skip", "3", "--force")
    assert r.exit_code == 0, r
    assert story(example).count('"03" = "skipped"') == 1


# ------------------------------------------------------------------------------ chapter briefings

def test_chapter_show_7_for_three_heroes_recruits_two_followers(run, sgc):
    r = run("chapter", "show", "7", "--heroes", "3")
    assert r.exit_code == 0, r
    lines = r.stdout.splitlines()
    assert lines[0] == "Chapter 07: Siege of Everedge, for 3 heroes"
    assert (
        "Camaraderie: recruit 2 Followers (5 - 3 heroes) from Elros the Assassin, Lorelai the Mage, Maya the "
        "Ranger, Vorn the Warrior, on the Follower spaces of the First Setup; their behaviour on page 105 (Rulebook: "
        "Special Preparation – Camaraderie, L1247); at the table") in lines
    assert lines[-1] == "Adventure Track: open; chapter 03 is the next unfilled slot"


def test_chapter_show_9_for_four_heroes_gives_the_king_160_health(run, example):
    r = run("chapter", "show", "9")  # the example party: four active heroes
    assert r.exit_code == 0, r
    assert ("Boss: Awakened King, 160 Health (40 x 4 heroes), on the Undead King's board (Rulebook: Boss Fight "
            "Preparation – Awakened King, L1297-1299); drunagor tracks it with `drunagor adventure event king-health "
            "--count N`\n") in r.stdout
    assert r.stdout.startswith("Chapter 09: The Stand, for 4 heroes\n")


def test_chapter_show_2_for_five_heroes_returns_one_rune_per_tie_breaker(run, sgc):
    r = run("chapter", "show", "2", "--heroes", "5")
    assert r.exit_code == 0, r
    assert ("Tie Breaker: 1 Rune per Tie Breaker (6 - 5 heroes) back to the bag, for 1 AC next to a Pile of "
            "Runes with no enemy beside it; the hero gains FOCUS 1 or CLEANSE 1 (Rulebook: Special Mechanic – Tie "
            "Breaker, L1100); drunagor tracks it with `drunagor tiebreak PILE`\n") in r.stdout
    assert ("Raid: Dreadful Raid card (Nightmare Raid), face A up; summons Nightmare (Scenario Monster card, "
            "Night Stalker models); raid party of 3 minions for 5 heroes (Rulebook: Special Mechanic – Nightmare Raid, "
            "L1102; Dreadful Raid, L305-308); drunagor tracks it with `drunagor raid`, `drunagor odds`\n") in r.stdout
    assert r.stdout.endswith("Adventure Track: completed\n")


def test_chapter_show_defaults_to_the_next_chapter_and_the_active_heroes(run, sgc):
    r = run("chapter", "show")
    assert r.stdout.startswith("Chapter 03: Run!, for 2 heroes\n")  # Vacrem is retired
    assert "Tie Breaker: 4 Runes per Tie Breaker (6 - 2 heroes)" in r.stdout
    assert r.stdout.endswith("Adventure Track: the next unfilled slot\n")


def test_chapter_show_json_shape(run, sgc):
    with_story(sgc, "trauma_limit = 1", "trauma_limit = 2")
    r = run("chapter", "show", "9", "--json")
    assert r.exit_code == 0, r
    data = json.loads(r.stdout)
    contract = {"chapter": "09", "title": "The Stand", "heroes": 2, "stirring_darkness": 6, "recall_penalty": 2,
                "raid": None, "tie_breaker_runes": None, "camaraderie_followers": None, "boss_health": 80,
                "trauma_limit": 2}
    assert {k: data[k] for k in contract} == contract
    assert (data["state"], data["failures"], data["next"]) == (None, 0, False)
    data = json.loads(run("chapter", "show", "5", "--json", "--heroes", "3").stdout)
    assert data["raid"] == {"card": "Dreadful Raid",
                            "summons": [{"minion": "Tidehunter", "models": "Nagian Hunter", "kind": "minion"}]}
    assert (data["tie_breaker_runes"], data["raid_party"]) == (3, 2)


def test_chapter_show_needs_a_party_size(run, camp):
    r = run("chapter", "show", "2")
    assert r.exit_code == 2
    assert r.stderr == ("error: the party has no active heroes yet, so its numbers cannot be filled in; say how "
                        "many will play: --heroes K (1 to 5)\n")
    r = run("chapter", "show", "2", "--heroes", "6")
    assert r.exit_code == 2
    assert r.stderr == ("error: --heroes must be from 1 to 5, not 6; 4 heroes; 5 with extra-hero content "
                        "(Rulebook: Hero Limitations, L941-943)\n")
    assert run("chapter", "show", "0", "--heroes", "4").exit_code == 1  # no chapter 00: a name of the game
    assert run("chapter", "show", "1", "--heroes", "4").exit_code == 0


# --------------------------------------------------------------------------------------- checks

def test_check_duplicates_and_leader(run, sgc):
    with_story(sgc, 'followers = ["Vorn the Warrior"]', 'followers = ["Vorn the Warrior", "vorn the warrior"]')
    with_story(sgc, 'leader = "Andreas"', 'leader = "Vacrem"')
    r = run("check", "--json")
    assert r.exit_code == 1
    errors = json.loads(r.stdout)["errors"]
    assert [e for e in errors if e["file"].endswith("story.toml")] == [
        {"file": "campaigns/sgc/story.toml", "line": 7, "rule": "story-duplicate",
         "message": "Follower 'vorn the warrior' is written twice on the Story Record; erase one "
                    "(drunagor follower remove 'vorn the warrior')"},
        {"file": "campaigns/sgc/story.toml", "line": 4, "rule": "leader",
         "message": "the Party Leader Vacrem has left the party (retired); choose an active hero "
                    "(drunagor leader HERO; active: Andreas, Nyx)"},
    ]


def test_check_a_leader_who_is_no_hero(run, sgc):
    with_story(sgc, 'leader = "Andreas"', 'leader = "Lorelai"')
    r = run("check")
    assert r.exit_code == 1
    assert story_lines(r) == ("campaigns/sgc/story.toml:4: leader: the Party Leader 'Lorelai' is not a hero of this "
                        "campaign; choose an active hero (drunagor leader HERO; active: Andreas, Nyx)\n")


def test_the_example_stays_clean_after_a_full_story_evening(run, example, today):
    for args in (("adventure", "end", "--lost"), ("chapter", "fail", "5"), ("chapter", "complete", "5"),
                 ("follower", "add", "Maya"),
                 ("outcome", "add", "Watcher"), ("status", "remove", "imminent"), ("leader", "Nyx")):
        r = run(*args)
        assert r.exit_code == 0, (args, r)
    r = run("check")  # rewards owed are the heroes' warnings; the story has no error
    assert "story.toml" not in r.stdout


# ------------------------------------------------------------------------- round trip (property)

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

POOL = ["Vorn the Warrior", "Maya the Ranger", "Minerva", "Lorelai the Mage", "Elros the Assassin", "Ökö \"the\" Odd"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.sampled_from(POOL)), max_size=12))
def test_list_edits_round_trip_and_keep_comments(ops):
    # The operations edit story lists through the store's layer (append_entry / remove_entry).
    import tomllib

    import tomlkit

    from drunagor_log.ops.story import PLACE_AFTER
    from drunagor_log.store import edit

    text = STORY.lstrip()
    expected = ["Vorn the Warrior"]
    for add, name in ops:
        doc = tomlkit.parse(text)
        if add and name not in expected:
            edit.append_entry(doc, "followers", name, PLACE_AFTER["followers"])
            expected.append(name)
        elif not add and name in expected:
            edit.remove_entry(doc, "followers", expected.index(name))
            expected.remove(name)
        text = tomlkit.dumps(doc)
        assert tomllib.loads(text)["followers"] == expected
        assert "# names as written on the sheet\n" in text and "# breaks the ties\n" in text
        if len(expected) >= 2:  # one name per line: merge-friendly
            for n in expected:
                assert f"\n  {json.dumps(n, ensure_ascii=False)},\n" in text

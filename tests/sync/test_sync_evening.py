"""Issue 42's sharing items with real repositories: `sheet` then `sync` (item 15), the subject line of
sync's commit (item 16), a skill recorded on a machine behind (item 17)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow  # real git, and the merge driver


def test_sheet_then_sync_commits_the_sheet_made_again(group):
    """The reproduction: `sheet` writes sheet.html into the campaign folder; the next `sync` took it for
    the player's own file and refused. It is drunagor's: made again from the files, committed, pushed."""
    ana, ben = group
    ana.ok("sheet")
    ana.ok("sheet", "--format", "md")
    ana.ok("follower", "add", "Maya the Ranger")  # after the sheet: the sheet is older than the files
    r = ana.ok("sync")
    lines = r.stdout.splitlines()
    assert lines[0] == "made sheet.html and sheet.md again from the campaign's files"
    assert lines[1].startswith("committed ") and lines[1].endswith(
        ": follower: Maya the Ranger; sheet.html made again and 1 more")
    assert lines[-1] == "pushed 1 change to origin/main"
    assert "Maya the Ranger" in ana.text("sheet.html") and "Maya the Ranger" in ana.text("sheet.md")
    assert ana.git("status", "--porcelain") == ""
    before = ana.files()
    ana.ok("sheet")  # made again from unchanged files: the same bytes
    assert ana.files() == before

    # Ben has the sheet from the pull; both machines change the campaign and make the sheet again:
    ben.ok("sync")
    assert ben.text("sheet.html") == ana.text("sheet.html")
    ben.ok("follower", "add", "Minerva")
    ben.ok("sheet")
    ben.ok("sync")
    ana.ok("follower", "add", "Lorelai the Mage")  # the same line of the sheet as Ben's Minerva: git cannot merge it
    ana.ok("sheet")
    r = ana.ok("sync")  # both changed sheet.html: no conflict, the sheet is made again from the merged files
    assert "conflict" not in r.stdout
    assert r.stdout.splitlines()[2] == ("pulled 1 change from Ben: follower: Minerva; sheet.html made again; "
                                        "sheet.md made again (the sheet made again from the merged files)")
    assert r.stdout.splitlines()[-1].startswith("pushed ")
    sheet = ana.text("sheet.html")
    assert "Minerva" in sheet and "Lorelai the Mage" in sheet and "Maya the Ranger" in sheet
    assert ana.git("status", "--porcelain") == ""
    ana.ok("check")
    ben.ok("sync")
    assert ben.files() == ana.files()


def test_a_file_of_the_players_own_still_stops_the_sync(group):
    ana, _ = group
    ana.ok("sheet", "--out", str(ana.root / "evening.html"))  # a sheet put elsewhere is the player's file
    head = ana.git("rev-parse", "HEAD")
    r = ana("sync")
    assert r.exit_code == 1
    assert "not committed, and not files drunagor writes: evening.html" in r.stderr
    assert ana.git("rev-parse", "HEAD") == head


def test_the_subject_line_says_what_matters_first(group):
    """The reproduction: "chapter 03 completed; card facts: Harvester's Hunt and 8 more" while the body
    said a hero joined. A hero joining or leaving and a chapter's end come first, then rewards, then
    card facts."""
    ana, _ = group
    for card in ("Storm Mantle", "Gale Cloak", "Tide Ring"):
        ana.ok("card", "set", card, "--kind", "spoils", "--new")
    ana.ok("follower", "add", "Maya the Ranger")
    ana.ok("chapter", "complete", "5")
    ana.ok("hero", "remove", "Vacrem")
    r = ana.ok("sync")
    subject = ana.subjects()[0]
    assert subject == "drunagor: chapter 05 completed; Vacrem leaves the party and 11 more", r.stdout
    body = [line for line in ana.git("log", "-1", "--format=%b").splitlines() if line]
    assert body.index("follower: Maya the Ranger") < body.index("card facts: Gale Cloak")
    assert body[:2] == ["chapter 05 completed", "Vacrem leaves the party"]
    assert body[-3:] == ["card facts: Storm Mantle", "card facts: Gale Cloak", "card facts: Tide Ring"]


def test_a_skill_recorded_on_a_machine_behind_is_caught_by_check_with_the_fix(group):
    """The reproduction: Ben records Nyx's Level 2 skill (chapter 06's reward, RB L1082) before pulling
    chapter 06: `hero learn` records it against chapter 05, and the merge keeps that."""
    ana, ben = group
    ana.ok("chapter", "complete", "5")
    ana.ok("sync")
    ben.ok("sync")
    ana.ok("chapter", "complete", "6")
    ana.ok("sync")
    ben.ok("hero", "learn", "Nyx", "Deadly Strike", "--tree", "melee", "--level", "2")  # not pulled: 05
    assert 'chapter = "05"' in [line for line in ben.text("heroes/nyx.toml").splitlines() if "Deadly" in line][0]
    ben.ok("sync")
    warned = [line for line in ben.ok("check").stdout.splitlines() if "skill-chapter" in line]
    assert warned == [
        "ben/campaigns/example/heroes/nyx.toml:12: skill-chapter: Nyx's Deadly Strike is recorded against chapter "
        "05, which gives no Level 2 skill, while chapter 06's is not recorded: it was learned after chapter 06, on a "
        "machine that had not pulled it yet (sync); drunagor hero unlearn Nyx \"Deadly Strike\", then drunagor hero "
        "learn Nyx \"Deadly Strike\" --tree melee --level 2 (recorded against chapter 06) (warning)"]
    ben.ok("hero", "unlearn", "Nyx", "Deadly Strike")
    ben.ok("hero", "learn", "Nyx", "Deadly Strike", "--tree", "melee", "--level", "2")
    assert "skill-chapter" not in ben.ok("check").stdout

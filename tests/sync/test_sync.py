"""`drunagor sync` with real repositories (issue 17): two players, two clones of one bare remote,
each recording different things and the same things with the real commands, then `sync` on both in
turn. Every row of the merge table ends with both sides' records on both machines and no conflict;
the true conflicts stop with the campaign's own words and markers on the disputed value only; a
failed push leaves a campaign every command reads."""

from __future__ import annotations

import json

import pytest

from tests.sync.conftest import Player, clone, git


def show(p: Player) -> dict:
    return json.loads(p.ok("show", "--json").stdout)


def sync_both(ana: Player, ben: Player) -> tuple[str, str]:
    """Ana syncs, then Ben (who merges Ana's records into his), then Ana again (she gets the merge).
    Both end with the same campaign, committed, clean, readable and legal."""
    first = ana.ok("sync").stdout
    second = ben.ok("sync").stdout
    ana.ok("sync")
    assert ana.files() == ben.files()
    for p in (ana, ben):
        assert p.git("status", "--porcelain", "--untracked-files=all") == ""
        assert not any(b"<<<<<<<" in data for data in p.files().values())
        r = p("check", "--json")
        assert (r.exit_code, json.loads(r.stdout)["errors"]) == (0, []), r
    return first, second


def story_lines(p: Player, key: str) -> list[str]:
    return show(p)[key]


# ------------------------------------------------------------------------------ the merge table


def test_chapters_05_and_06_against_05(group):
    ana, ben = group
    ana.ok("chapter", "complete", "5")
    ana.ok("chapter", "complete", "6")
    ben.ok("chapter", "complete", "5")
    first, second = sync_both(ana, ben)
    assert first.splitlines() == [
        "committed " + ana.git("rev-parse", "--short", "HEAD^2").strip() + ": chapter 05 completed; chapter 06 completed",
        "nothing to pull: up to date with origin/main",
        "check: no errors, 12 warnings (drunagor check lists them)",
        "pushed 1 change to origin/main",
    ]
    lines = second.splitlines()
    assert lines[0] == "set up the campaign-aware merge driver (config)"  # Ben's fresh clone
    assert lines[1].startswith("committed ") and lines[1].endswith(": chapter 05 completed")
    assert lines[2] == "pulled 1 change from Ana: chapter 05 completed; chapter 06 completed"
    assert lines[4] == "pushed 1 change to origin/main"  # his own (the merge is not a change)
    data = show(ana)
    assert {ch: data["track"][ch] for ch in ("05", "06")} == {"05": "completed", "06": "completed"}
    assert data["next_chapter"] == "07"
    text = ana.text("story.toml")
    assert text.count('"05" = "completed"') == 1 and '"04" = "completed"\n"05" = "completed"\n"06" = "completed"\n' in text


def test_two_followers_added_at_once(group):
    ana, ben = group
    ana.ok("follower", "add", "Maya the Ranger")
    ben.ok("follower", "add", "Lorelai the Mage")
    sync_both(ana, ben)
    # Ben merged: his own addition first, then Ana's
    assert story_lines(ana, "followers") == ["Vorn the Warrior", "Lorelai the Mage", "Maya the Ranger"]


def test_outcomes_and_statuses_added_and_removed_on_both_sides(group):
    ana, ben = group
    ana.ok("outcome", "add", "Promised Reward")
    ana.ok("status", "remove", "Imminent Danger")
    ben.ok("outcome", "add", "Ancient Book")
    ben.ok("status", "add", "Dark Past")
    sync_both(ana, ben)
    assert story_lines(ana, "outcomes") == ["Drinking Pal", "Ancient Book", "Promised Reward"]
    assert story_lines(ana, "statuses") == ["Dark Past"]


def test_the_same_things_recorded_alike_are_kept_once(group):
    ana, ben = group
    for p in (ana, ben):
        p.ok("chapter", "complete", "5")
        p.ok("follower", "remove", "Vorn")
        p.ok("hero", "gain", "Nyx", "Potion of Healing", "--bag")
    ben.ok("hero", "status", "Nyx", "add", "Haunted")
    sync_both(ana, ben)
    assert show(ana)["followers"] == [] and show(ana)["track"]["05"] == "completed"
    nyx = ana.text("heroes/nyx.toml")
    assert nyx.count("Potion of Healing") == 1 and "Haunted" in nyx


def test_skills_and_class_abilities_of_one_hero(group):
    ana, ben = group
    ana.ok("hero", "learn", "Andreas", "Wisdom 2", "--tree", "wisdom", "--level", "2")
    ana.ok("hero", "ability", "Andreas", "Divine Shield")
    ben.ok("hero", "learn", "Andreas", "Support 2", "--tree", "role", "--level", "2")
    ben.ok("hero", "ability", "Andreas", "Holy Light")
    sync_both(ana, ben)
    hero = json.loads(ana.ok("hero", "show", "Andreas", "--json").stdout)
    assert [s["name"] for s in hero["skills"]] == ["Wisdom 1", "Support 1", "Support 2", "Wisdom 2"]
    assert hero["class_abilities"] == ["Cleric ability (chapter 03)", "Holy Light", "Divine Shield"]


def test_equipment_gained_on_both_sides_and_one_card_moved(group):
    ana, ben = group
    ana.ok("hero", "gain", "Nyx", "Potion of Healing", "--bag")
    ana.ok("hero", "unequip", "Nyx", "Twin-Blades")
    ben.ok("hero", "gain", "Nyx", "Buckler")
    sync_both(ana, ben)
    equipment = {e["name"]: e["place"] for e in json.loads(ana.ok("hero", "show", "Nyx", "--json").stdout)["equipment"]}
    assert equipment == {"Blooded Sword": "equipped", "Leather Armor": "equipped", "Twin-Blades": "bag",
                         "Buckler": "equipped", "Potion of Healing": "bag"}


def test_chest_cards_and_the_commander_deck(group):
    ana, ben = group
    ana.ok("chest", "add", "Potion of Healing", "--copies", "2", "--rarity", "common")
    ana.ok("commander", "add", "Bite", "--position", "red-top")
    ben.ok("chest", "add", "Potion of Fortitude", "--copies", "1", "--rarity", "uncommon")
    ben.ok("commander", "remove", "Haste")
    sync_both(ana, ben)
    text = ana.text("story.toml")
    cards = text.split("[chest]", 1)[1].split("[cards]", 1)[0]
    assert [ln.strip() for ln in cards.splitlines() if ln.strip().startswith("{")] == [
        '{ name = "Scroll of Incinerate", copies = 2 },', '{ name = "Scroll of Beguile", copies = 2 },',
        '{ name = "Potion of Fortitude", copies = 1 },', '{ name = "Potion of Healing", copies = 2 },']
    deck = text.split("[commander]", 1)[1].split("[git]", 1)[0]
    assert '"Haste"' not in deck and '"Flame Swipe"' in deck and '"Bite"' in deck
    assert 'Bite = { position = "red-top" }' in text and '"Potion of Fortitude" = ' in text


def test_the_stash_and_stored_cards(group):
    ana, ben = group
    ana.ok("hero", "remove", "Catharina")  # no Consumables: nothing to the stash
    ana.ok("hero", "gain", "Nyx", "Scroll of Incinerate", "--bag")
    ana.ok("hero", "remove", "Nyx")  # her Scroll goes to the stash
    ben.ok("spoils", "upgrade", "Vacrem", "Heavy Shield", "--discard", "Captain's Brooch", "--not-epic")
    sync_both(ana, ben)
    data = show(ana)
    assert data["stash"] == ["Scroll of Incinerate"]
    stored = ana.text("story.toml").split("stored = ", 1)[1].split("]", 1)[0]
    assert "Captain's Brooch" in stored and "Cosmic Gemstone" in stored
    assert [h["name"] for h in data["heroes"] if h["retired"]] == ["Catharina", "Nyx"]
    assert 'quality = "improved"' in ana.text("heroes/vacrem.toml")


def test_a_hero_file_created_on_one_side(group):
    ana, ben = group
    ana.ok("hero", "remove", "Vacrem")
    ana.ok("hero", "add", "Zed", "--class", "Assassin", "--role", "Defender", "--player", "Ana")
    ben.ok("hero", "gain", "Catharina", "Potion of Healing", "--bag")
    sync_both(ana, ben)
    assert "Zed joins the party" in ana.git("log", "-1", "--format=%B", "HEAD^2")
    assert (ben.root / "heroes" / "zed.toml").read_text() == ana.text("heroes/zed.toml")


# ----------------------------------------------------------------------------- true conflicts


def test_a_true_conflict_stops_in_the_games_words_and_merges_nothing(group):
    ana, ben = group
    ana.ok("chapter", "complete", "5")
    ana.ok("follower", "add", "Maya the Ranger")
    ana.ok("sync")
    ben.ok("chapter", "skip", "5")
    ben.ok("party", "Ben's Band")
    before = ben.files()
    r = ben("sync")
    assert r.exit_code == 1
    assert r.stdout.splitlines()[2:] == [
        "found 1 change from Ana: chapter 05 completed; follower: Maya the Ranger (not merged)",
        "conflict: chapter 05: you skipped it, Ana completed it (story.toml)",
    ]
    assert r.stderr == ("error: ben/campaigns/example: sync: the campaign went two ways (1 conflict above); nothing was "
                        "merged: the campaign is as it was before this sync; keep yours with `drunagor sync --keep "
                        "mine`, or Ana's with `drunagor sync --keep theirs`, then correct anything else with "
                        "drunagor's commands\n")
    # nothing merged, nothing pushed: Ben's campaign reads as before (his records committed)
    assert ben.files() == {**before, ".gitattributes": ben.files()[".gitattributes"]}
    assert ben.git("status", "--porcelain") == "" and ben.git("rev-parse", "-q", "--verify", "MERGE_HEAD", ok=1) == ""
    assert show(ben)["track"]["05"] == "skipped" and ben.ok("check").stdout == ""
    # Ben keeps his: Ana's follower merges all the same; Ana then gets the skipped chapter
    out = ben.ok("sync", "--keep", "mine").stdout.splitlines()
    assert out[1] == ("pulled 1 change from Ana: chapter 05 completed; follower: Maya the Ranger (kept yours where "
                      "both changed: chapter 05: you skipped it, Ana completed it (story.toml))")
    ana.ok("sync")
    assert ana.files() == ben.files()
    assert show(ana)["track"]["05"] == "skipped" and show(ana)["party"] == "Ben's Band"
    assert show(ana)["followers"] == ["Vorn the Warrior", "Maya the Ranger"]


def test_keep_theirs_takes_the_other_players_value(group):
    ana, ben = group
    ana.ok("leader", "Nyx")
    ana.ok("sync")
    ben.ok("leader", "Vacrem")
    ben.ok("hero", "status", "Vacrem", "add", "Haunted")
    assert ben("sync").exit_code == 1
    ben.ok("sync", "--keep", "theirs")
    assert show(ben)["leader"] == "Nyx" and "Haunted" in ben.text("heroes/vacrem.toml")


def test_git_merge_with_the_driver_puts_markers_around_the_disputed_value_only(group):
    """A player who pulls with git itself: the driver merges the rest, marks the one chapter, `check`
    points at it, and `drunagor sync --keep` finishes the merge."""
    ana, ben = group
    ana.ok("chapter", "complete", "5")
    ana.ok("chapter", "complete", "6")
    ana.ok("follower", "add", "Maya the Ranger")
    ana.ok("hero", "drop", "Nyx", "Twin-Blades")
    ana.ok("sync")
    ben.ok("git", "setup")
    ben.ok("chapter", "skip", "5", "--commit")
    ben.ok("follower", "add", "Lorelai the Mage", "--commit")
    ben.ok("hero", "unequip", "Nyx", "Twin-Blades", "--commit")
    ben.git("commit", "--quiet", "-m", "merge driver", "--", "campaigns/example/.gitattributes", ok=None)
    ben.git("fetch", "--quiet")
    ben.git("merge", "--no-edit", "origin/main", ok=1)
    story = ben.text("story.toml").splitlines()
    start = story.index("<<<<<<< mine")
    assert story[start - 1:start + 6] == ['"04" = "completed"', "<<<<<<< mine", '"05" = "skipped"', "=======",
                                          '"05" = "completed"', ">>>>>>> theirs", '"06" = "completed"']
    assert sum(ln.startswith("<<<<<<<") for ln in story) == 1
    assert "Lorelai the Mage" in ben.text("story.toml") and "Maya the Ranger" in ben.text("story.toml")
    nyx = ben.text("heroes/nyx.toml").splitlines()
    start = nyx.index("<<<<<<< mine")
    assert nyx[start:start + 4] == ["<<<<<<< mine",
                                    '  { name = "Twin-Blades", kind = "spoils", quality = "standard", place = "bag" },',
                                    "=======", ">>>>>>> theirs"]
    r = ben("check")
    assert r.exit_code == 3 and "conflict-markers" in r.stdout
    r = ben("sync")
    assert r.exit_code == 1
    assert r.stdout.splitlines() == [
        "a merge is under way with 2 conflicted files",
        ("conflict: Nyx's equipment.Twin-Blades: yours { name = \"Twin-Blades\", kind = \"spoils\", quality = "
        "\"standard\", place = \"bag\" }, Ana's removed (heroes/nyx.toml)"),
        "conflict: chapter 05: you skipped it, Ana completed it (story.toml)",
    ]
    assert "the merge under way stays as it is" in r.stderr
    out = ben.ok("sync", "--keep", "theirs").stdout.splitlines()
    assert out[0].startswith("finished the merge under way (") and out[0].endswith("keeping theirs where both changed")
    ana.ok("sync")
    assert ana.files() == ben.files()
    assert show(ana)["track"]["05"] == "completed" and "Twin-Blades" not in ana.text("heroes/nyx.toml")


def test_the_adventure_under_way_is_never_merged_silently(remote, tmp_path, run):
    """adventure.toml is the table on one machine: both sides played on, so sync asks which to keep."""
    import shutil

    from tests.conftest import EXAMPLE

    ana = clone(remote, tmp_path / "ana", "Ana", run)
    shutil.copytree(EXAMPLE, ana.root)
    ana.git("add", "-A")
    ana.git("commit", "--quiet", "-m", "the campaign, chapter 05 under way")
    ana.ok("sync")
    ben = clone(remote, tmp_path / "ben", "Ben", run)
    ana.ok("draw", "--seed", "1")
    ana.ok("sync")
    ben.ok("draw", "--seed", "2")
    ben_table = ben.text("adventure.toml")
    r = ben("sync")
    assert r.exit_code == 1
    assert r.stdout.splitlines()[-1] == ("conflict: the adventure under way went on on both machines (adventure.toml): "
                                         "keep one table state, yours or Ana's")
    assert ben.text("adventure.toml") == ben_table
    ben.ok("sync", "--keep", "mine")
    assert ben.text("adventure.toml") == ben_table
    ana.ok("sync")
    assert ana.text("adventure.toml") == ben_table


# ------------------------------------------------------------------------- interrupted, refused


@pytest.mark.posix  # a shell-script hook on the remote
def test_a_failed_push_leaves_a_campaign_every_command_reads(group, remote):
    ana, ben = group
    hook = remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'the shared drive is read-only today' >&2\nexit 1\n")
    hook.chmod(0o755)
    ana.ok("chapter", "complete", "5")
    ana.ok("hero", "gain", "Nyx", "Potion of Healing", "--bag")
    r = ana("sync")
    assert r.exit_code == 1
    assert r.stdout.splitlines()[-1] == "check: no errors, 8 warnings (drunagor check lists them)"
    assert r.stderr == ("error: ana/campaigns/example: sync: the push to origin failed: the shared drive is read-only "
                        "today; [remote rejected] HEAD -> main (pre-receive hook declined); nothing is lost: "
                        "everything is committed here and every command works; drunagor sync again when the "
                        "remote accepts it\n")
    assert ana.git("status", "--porcelain") == ""
    assert ana.subjects()[0] == "drunagor: chapter 05 completed; Nyx gains Potion of Healing"
    for args in (["show"], ["check"], ["hero", "show", "Nyx"], ["history"], ["chapter", "show"]):
        ana.ok(*args)
    hook.unlink()
    assert ana.ok("sync").stdout.splitlines()[-1] == "pushed 1 change to origin/main"
    ben.ok("sync")
    assert ben.files() == ana.files()


def test_someone_pushed_meanwhile(group, remote, tmp_path, run):
    """The push is refused because the remote moved after the fetch: sync again pulls it first."""
    ana, ben = group
    ben.ok("sync")
    ana.ok("follower", "add", "Maya the Ranger")
    ana.ok("sync")
    ben.ok("follower", "add", "Minerva")
    ben.git("commit", "--quiet", "-am", "drunagor: Minerva", ok=None)
    ben.git("fetch", "--quiet")
    ben.git("update-ref", "refs/remotes/origin/main", "HEAD~1")  # as if fetched before Ana's push
    from drunagor_log.interop import sync as syncing

    said: list[str] = []
    up = syncing.upstream(ben.root)
    with pytest.raises(Exception) as stop:
        syncing.push(ben.root, up, said.append)
    assert "someone pushed to origin/main meanwhile" in str(stop.value.message)
    assert ben.ok("sync").stdout.splitlines()[-1] == "pushed 1 change to origin/main"  # and the merge


def test_no_remote_is_a_usage_error(tmp_path, monkeypatch, run):
    import shutil

    from tests.conftest import EXAMPLE
    from tests.sync.conftest import isolate_git

    isolate_git(monkeypatch, tmp_path)
    git(tmp_path, "init", "--quiet", "--initial-branch=main")
    git(tmp_path, "config", "user.name", "Ana")
    git(tmp_path, "config", "user.email", "ana@example.org")
    shutil.copytree(EXAMPLE, tmp_path / "campaigns" / "example")
    r = run("sync")
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == ("error: campaigns/example: sync: the campaign's repository has no remote to sync with; add "
                        "the group's shared repository once: git remote add origin URL (a hosting service's "
                        "repository, or a bare one on a shared drive: git init --bare /path/to/campaign.git), "
                        "then drunagor sync\n")
    assert git(tmp_path, "status", "--porcelain") == "?? campaigns/\n"  # nothing committed, nothing set up


def test_outside_a_repository(example, tmp_path, monkeypatch, run):
    from tests.sync.conftest import isolate_git

    isolate_git(monkeypatch, tmp_path)
    for args in (["sync"], ["git", "setup"]):
        r = run(*args)
        assert (r.exit_code, r.stdout) == (2, ""), r
        assert r.stderr.startswith("error: campaigns/example: git: the campaign is not in a git repository; ")


def test_files_drunagor_does_not_write_stop_the_sync_before_anything(group):
    ana, _ = group
    (ana.root / "notes.txt").write_text("bring snacks\n")
    ana.ok("chapter", "complete", "5")
    head = ana.git("rev-parse", "HEAD")
    r = ana("sync")
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr == ("error: ana/campaigns/example: sync: not committed, and not files drunagor writes: notes.txt; "
                        "commit them yourself (git add FILE, then git commit) or move them out of the campaign "
                        "folder, then drunagor sync; nothing was synced\n")
    assert ana.git("rev-parse", "HEAD") == head


def test_a_broken_hand_edit_stops_the_sync_before_anything(group):
    ana, _ = group
    story = ana.root / "story.toml"
    story.write_text(story.read_text().replace('party = "Safeguard Corporation"', 'party = "Safeguard'))
    head = ana.git("rev-parse", "HEAD")
    r = ana("sync")
    assert r.exit_code == 3 and r.stdout == ""
    assert r.stderr.startswith("error: ana/campaigns/example/story.toml:3: toml-syntax: not valid TOML")
    assert r.stderr.endswith("fix it, or take the edit back (git restore FILE), then drunagor sync; nothing was synced\n")
    assert ana.git("rev-parse", "HEAD") == head


def test_sync_and_git_setup_help_examples_run_in_a_shared_repository(group):
    """The `Example:` lines of sync and git setup (tests/cli/test_docs.py leaves them to this file)."""
    _, ben = group
    ben.ok("git", "setup")
    ben.ok("sync")


def test_a_merge_under_way_resolved_by_hand_is_finished_by_sync(group):
    ana, ben = group
    ana.ok("party", "Ana's Band")
    ana.ok("sync")
    ben.ok("git", "setup")
    ben.ok("party", "Ben's Band", "--commit")
    ben.git("commit", "--quiet", "-m", "driver", "--", "campaigns/example/.gitattributes", ok=None)
    ben.git("pull", "--quiet", "--no-rebase", "--no-edit", ok=1)
    story = ben.root / "story.toml"
    text = story.read_text()
    assert text.count("<<<<<<< mine") == 1
    r = ben("sync")  # not added yet: still a conflict
    assert r.exit_code == 1 and 'conflict: party name: yours "Ben\'s Band", Ana\'s "Ana\'s Band" (story.toml)' in r.stdout
    lines = text.splitlines(keepends=True)
    start = lines.index("<<<<<<< mine\n")
    story.write_text("".join(lines[:start] + ['party = "Our Band"\n'] + lines[start + 5:]))
    ben.git("add", "campaigns/example/story.toml")
    out = ben.ok("sync").stdout.splitlines()
    assert out[0].startswith("finished the merge under way (") and out[0].endswith(")")
    assert out[-1] == "pushed 1 change to origin/main"
    ana.ok("sync")
    assert show(ana)["party"] == "Our Band" and ana.files() == ben.files()


def test_a_refused_sync_sets_nothing_up(group):
    """Ben's fresh clone: sync would set the merge driver up, but refuses first, writing nothing."""
    _, ben = group
    (ben.root / "notes.txt").write_text("bring snacks\n")
    (ben.root / ".gitattributes").write_text("*.toml text eol=lf\n")
    assert ben("sync").exit_code == 1
    assert (ben.root / ".gitattributes").read_text() == "*.toml text eol=lf\n"
    assert ben.git("config", "merge.drunagor.driver", ok=1) == ""

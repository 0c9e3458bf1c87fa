"""`drunagor migrate`: ordered, pure, in-place steps per schema, a dry run that shows the diff.

Schema 1 is the first schema, so the tests inject a synthetic 0 -> 1 step: schema 0 called the
party `party_name`, marked the Adventure Track with true/false, and called a hero's class
`class_name`."""

from __future__ import annotations

import tomllib

import pytest

from drunagor_log import store
from drunagor_log.ops import migrate
from drunagor_log.store import schema
from tests.conftest import snapshot, write

STORY_V0 = """\
schema = 0
campaign = "awakenings"
# our name, chosen on the first evening
party_name = "Safeguard Corporation"  # keep it
followers = ["Vorn the Warrior"]
house_rule = "no rerolls"

[track]
"01" = true   # a close one
"02" = false

[rules]
trauma_limit = 1
max_heroes = 4
"""

STORY_V1 = """\
schema = 1
campaign = "awakenings"
# our name, chosen on the first evening
party = "Safeguard Corporation"  # keep it
followers = ["Vorn the Warrior"]
house_rule = "no rerolls"

[track]
"01" = "completed"   # a close one
"02" = "skipped"

[rules]
trauma_limit = 1
max_heroes = 4
"""

HERO_V0 = """\
schema = 0
name = "Andreas"
class_name = "Cleric"   # from the box
role = "Defender"
"""

HERO_V1 = """\
schema = 1
name = "Andreas"
class = "Cleric"   # from the box
role = "Defender"
"""

HERO_CURRENT = 'schema = 1\nname = "Nyx"\nclass = "Rogue"\nrole = "Striker"\n'


def rename_key(tbl, old: str, new: str) -> None:
    """A key renamed where it stands, its value and comment kept (tomlkit's own rename)."""
    if old in tbl and new not in tbl:
        tbl._replace(old, new, tbl.item(old))


def step_0_to_1(doc, kind):
    """The synthetic step: pure, in place, one kind of file at a time."""
    if kind == "story":
        rename_key(doc, "party_name", "party")
        track = doc.get("track")
        if track is not None:
            for chapter in list(track.keys()):
                value = track[chapter]
                if isinstance(value, bool):
                    track[chapter] = "completed" if value else "skipped"
    elif kind == "hero":
        rename_key(doc, "class_name", "class")


@pytest.fixture
def steps(monkeypatch):
    monkeypatch.setattr(schema, "STEPS", {0: step_0_to_1})


@pytest.fixture
def old(tmp_path):
    root = tmp_path / "campaigns" / "old"
    write(root / "story.toml", STORY_V0)
    write(root / "heroes" / "andreas.toml", HERO_V0)
    write(root / "heroes" / "nyx.toml", HERO_CURRENT)
    return root


def test_other_commands_refuse_an_old_file_and_name_migrate(old, run, steps):
    before = snapshot(old)
    r = run("show")
    assert r.exit_code == 3
    assert r.stderr == ("error: campaigns/old/story.toml:1: schema: schema 0 is older than this drunagor's (1); "
                        "run `drunagor migrate`\n")
    assert snapshot(old) == before


def test_a_schema_below_the_first_is_not_sent_to_migrate_in_a_circle(old, run):
    """Schema 1 is the first drunagor wrote: a schema 0 file is not drunagor's, and with no step from 0
    in the table `migrate` cannot help, so neither show nor migrate suggests it; the remedy they give
    works (set the schema, then check)."""
    before = snapshot(old)
    message = ("error: campaigns/old/story.toml:1: schema: schema 0 was not written by drunagor (its first schema "
               "is 1); if the file follows the format in README, set `schema = 1`, then run `drunagor check`\n")
    r = run("show")
    assert (r.exit_code, r.stderr) == (3, message)
    r = run("migrate")
    assert (r.exit_code, r.stderr) == (3, message)
    assert "drunagor migrate" not in r.stderr
    assert snapshot(old) == before
    # the remedy works: with the schema set as told, check reads the files and names what else is off
    for path in (old / "story.toml", old / "heroes" / "andreas.toml"):
        path.write_text(path.read_text().replace("schema = 0", "schema = 1"))
    r = run("check")
    assert (r.exit_code, r.stdout) == (3, 'campaigns/old/story.toml:9: shape: chapter 01 is True; it must be '
                                          '"completed" or "skipped"; fix the value, or remove the line to leave '
                                          'the slot open\ncampaigns/old/heroes/andreas.toml: shape: `class` is '
                                          'missing; add `class = ...` (text)\n')


def test_dry_run_shows_a_unified_diff_and_writes_nothing(old, run, steps):
    before = snapshot(old)
    r = run("migrate", "--dry-run")
    assert r.exit_code == 0, r
    assert r.stdout == """\
--- a/story.toml
+++ b/story.toml
@@ -1,13 +1,13 @@
-schema = 0
+schema = 1
 campaign = "awakenings"
 # our name, chosen on the first evening
-party_name = "Safeguard Corporation"  # keep it
+party = "Safeguard Corporation"  # keep it
 followers = ["Vorn the Warrior"]
 house_rule = "no rerolls"
 
 [track]
-"01" = true   # a close one
-"02" = false
+"01" = "completed"   # a close one
+"02" = "skipped"
 
 [rules]
 trauma_limit = 1
--- a/heroes/andreas.toml
+++ b/heroes/andreas.toml
@@ -1,4 +1,4 @@
-schema = 0
+schema = 1
 name = "Andreas"
-class_name = "Cleric"   # from the box
+class = "Cleric"   # from the box
 role = "Defender"
would migrate 2 files to schema 1 (dry run: nothing written)
"""
    assert snapshot(old) == before


def test_migrate_rewrites_in_place_keeping_comments_and_order(old, run, steps):
    r = run("migrate")
    assert r.exit_code == 0, r
    assert r.stdout == "migrated 2 files to schema 1: story.toml, heroes/andreas.toml\n"
    assert (old / "story.toml").read_text() == STORY_V1
    assert (old / "heroes" / "andreas.toml").read_text() == HERO_V1
    assert (old / "heroes" / "nyx.toml").read_text() == HERO_CURRENT  # already current: untouched
    assert run("show").exit_code == 0
    # a second run has nothing to do and writes nothing
    before = snapshot(old)
    r = run("migrate")
    assert (r.exit_code, r.stdout) == (0, "no change: every file is at schema 1\n")
    assert snapshot(old) == before


def test_migrate_is_all_or_nothing_when_one_file_is_unreadable(old, run, steps):
    write(old / "heroes" / "broken.toml", "schema = 0\nname = \n")
    before = snapshot(old)
    r = run("migrate")
    assert r.exit_code == 3
    assert r.stderr.startswith("error: campaigns/old/heroes/broken.toml:2: toml-syntax: not valid TOML")
    assert snapshot(old) == before


def test_migrate_leaves_a_newer_file_alone_with_a_warning(old, run, steps):
    write(old / "heroes" / "zed.toml", 'schema = 7\nname = "Zed"\nclass = "Mage"\nrole = "Leader"\n')
    r = run("migrate")
    assert r.exit_code == 0, r
    assert "warning: heroes/zed.toml: schema 7 is newer than this drunagor knows (1); left as it is\n" in r.stderr
    assert (old / "heroes" / "zed.toml").read_text().startswith("schema = 7\n")
    assert (old / "story.toml").read_text() == STORY_V1


@pytest.mark.parametrize("dry", [["--dry-run"], []])
def test_nothing_to_do_with_a_newer_file_says_which_was_left_alone(old, run, dry):
    """No false "every file is at schema 1": the counts of current files and the newer ones left alone."""
    write(old / "story.toml", STORY_V1)
    write(old / "heroes" / "andreas.toml", HERO_V1)
    write(old / "heroes" / "nyx.toml", HERO_CURRENT.replace("schema = 1", "schema = 2"))
    before = snapshot(old)
    r = run("migrate", *dry)
    assert r.exit_code == 0, r
    assert r.stderr == "warning: heroes/nyx.toml: schema 2 is newer than this drunagor knows (1); left as it is\n"
    assert r.stdout == "no change: 2 files at schema 1; 1 left alone (newer schema): heroes/nyx.toml\n"
    assert snapshot(old) == before


def test_no_known_step_is_a_clear_refusal(old, run, monkeypatch):
    monkeypatch.setattr(schema, "STEPS", {})
    before = snapshot(old)
    r = run("migrate")
    assert r.exit_code == 3
    assert r.stderr == ("error: campaigns/old/story.toml:1: schema: schema 0 was not written by drunagor (its first "
                        "schema is 1); if the file follows the format in README, set `schema = 1`, then run "
                        "`drunagor check`\n")
    assert snapshot(old) == before


def test_a_gap_in_the_table_is_not_sent_to_migrate(old, run, monkeypatch):
    """A schema above the first but with no step from it (a table with a hole) is refused honestly on
    both paths: no `drunagor migrate` advice that migrate would refuse."""
    monkeypatch.setattr(store, "SCHEMA", 3)
    monkeypatch.setattr(schema, "SCHEMA", 3)
    monkeypatch.setattr(schema, "STEPS", {0: step_0_to_1, 2: step_0_to_1})
    for path in (old / "story.toml", old / "heroes" / "andreas.toml", old / "heroes" / "nyx.toml"):
        path.write_text(path.read_text().replace("schema = 0", "schema = 1"))
    before = snapshot(old)
    message = ("error: campaigns/old/story.toml:1: schema: schema 1 is older than this drunagor's (3) and no "
               "migration from it is known; bring the file to the format in README by hand and set "
               "`schema = 3`\n")
    for command in ("show", "migrate"):
        r = run(command)
        assert (r.exit_code, r.stderr) == (3, message), command
    assert snapshot(old) == before


def test_steps_run_in_order_each_setting_the_schema(monkeypatch):
    import tomlkit

    monkeypatch.setattr(store, "SCHEMA", 3)
    monkeypatch.setattr(schema, "SCHEMA", 3)
    seen = []

    def step(n):
        def fn(doc, kind):
            seen.append((n, kind, doc["schema"]))
            doc[f"s{n}"] = True
        return fn

    doc = tomlkit.parse("schema = 0  # first\n")
    assert migrate.migrate_doc(doc, "hero", {2: step(2), 0: step(0), 1: step(1)}) == [1, 2, 3]
    assert seen == [(0, "hero", 0), (1, "hero", 1), (2, "hero", 2)]
    assert tomlkit.dumps(doc) == "schema = 3  # first\ns0 = true\ns1 = true\ns2 = true\n"
    assert tomllib.loads(tomlkit.dumps(doc))["schema"] == 3


def test_current_campaign_has_nothing_to_migrate(example, run):
    before = snapshot(example)
    r = run("migrate", "--dry-run")
    assert (r.exit_code, r.stdout) == (0, "no change: every file is at schema 1\n")
    assert snapshot(example) == before


def test_help_has_an_example(run):
    r = run("migrate", "--help")
    assert r.exit_code == 0
    assert "Example: drunagor migrate --dry-run" in r.stdout


@pytest.mark.slow  # runs git
def test_migrate_commit_commits_exactly_the_migrated_files(old, run, steps, monkeypatch):
    import subprocess

    top = old.parent.parent
    for var in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"):
        monkeypatch.setenv(var, "t")
    for var in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"):
        monkeypatch.setenv(var, "t@example.org")

    def git(*args):
        return subprocess.run(["git", "-C", str(top), *args], check=True, capture_output=True, text=True).stdout

    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "schema 0")
    r = run("migrate", "--commit")
    assert r.exit_code == 0, r
    assert r.stdout.startswith("migrated 2 files to schema 1: story.toml, heroes/andreas.toml\ncommitted ")
    assert git("log", "-1", "--format=%s") == "drunagor: migrated 2 files to schema 1\n"
    assert sorted(git("show", "--name-only", "--format=", "HEAD").split()) == [
        "campaigns/old/heroes/andreas.toml", "campaigns/old/story.toml"]
    assert git("status", "--porcelain") == ""

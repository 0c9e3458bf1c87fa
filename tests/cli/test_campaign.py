"""The spine commands: new, show, check, list, and finding the campaign (SPEC sections 3-4, 6)."""

from __future__ import annotations

import json

from tests.conftest import snapshot, write


def test_new_creates_story_with_compulsory_replacement(run, tmp_path):
    r = run("new", "autumn", "--party", "Safeguard Corporation")
    assert r.exit_code == 0, r
    assert r.stdout.startswith("created campaign campaigns/autumn")
    text = (tmp_path / "campaigns/autumn/story.toml").read_text()
    assert 'party = "Safeguard Corporation"' in text
    assert """epic = ["Artisan's Tools", "Treasure Trove"]""" in text
    assert 'stored = ["Cosmic Gemstone", "Forgotten Treasure"]' in text
    assert (tmp_path / "campaigns/autumn/heroes").is_dir()
    # the new campaign is valid and found without -C (it is the only one)
    assert run("check").exit_code == 0
    shown = json.loads(run("show", "--json").stdout)
    assert shown["party"] == "Safeguard Corporation"
    assert shown["next_chapter"] == "01"
    assert shown["chest"]["epic"] == ["Artisan's Tools", "Treasure Trove"]


def test_new_options_are_recorded(run, tmp_path):
    r = run("new", "hard", "--dir", "elsewhere", "--max-heroes", "5", "--trauma-limit", "0")
    assert r.exit_code == 0, r
    text = (tmp_path / "elsewhere/hard/story.toml").read_text()
    assert "max_heroes = 5" in text and "trauma_limit = 0" in text


def test_new_refuses_an_existing_campaign_and_bad_options(run, camp):
    before = snapshot(camp)
    r = run("new", "test")
    assert r.exit_code == 2
    assert "campaigns/test already holds a campaign" in r.stderr
    assert run("new", "x", "--max-heroes", "6").exit_code == 2
    assert snapshot(camp) == before


def test_show_example(run, example):
    r = run("show")
    assert r.exit_code == 0, r
    out = r.stdout
    assert "Safeguard Corporation" in out
    assert "Party Leader: Andreas" in out
    for hero in ("Andreas", "Catharina", "Nyx", "Vacrem"):
        assert hero in out
    assert "Followers: Vorn the Warrior" in out
    assert "Next: chapter 05, Tempest Island" in out


def test_show_json_keys(run, example):
    data = json.loads(run("show", "--json").stdout)
    assert data["party"] == "Safeguard Corporation"
    assert data["leader"] == "Andreas"
    assert [h["name"] for h in data["heroes"]] == ["Andreas", "Catharina", "Nyx", "Vacrem"]
    assert data["track"] == {"01": "completed", "02": "completed", "03": "completed", "04": "completed"}
    assert data["next_chapter"] == "05"
    assert data["finished"] is False
    assert all(h["owes"] == {"level1_skills": 0, "level2_skills": 0, "class_abilities": 0,
                             "spoils": 0, "spoils_upgrades": 0} for h in data["heroes"])


def test_check_is_silent_on_the_example(run, example):
    for args in (("check",), ("check", "--strict")):
        r = run(*args)
        assert (r.exit_code, r.stdout, r.stderr) == (0, "", ""), r


def test_check_json_shape(run, example):
    r = run("check", "--json")
    assert r.exit_code == 0
    assert json.loads(r.stdout) == {"errors": [], "warnings": []}


def test_list(run, example, camp):
    r = run("list")
    assert r.exit_code == 0, r
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["Campaign", "Party", "Next", "chapter"]
    assert any(line.startswith("example") and "Safeguard Corporation" in line and "05" in line for line in lines)
    assert any(line.startswith("test") and "Test Party" in line and "01" in line for line in lines)
    data = json.loads(run("list", "--json").stdout)
    assert [c["name"] for c in data["campaigns"]] == ["example", "test"]


# ------------------------------------------------------------------ finding the campaign (SPEC 3)


def test_no_campaign_is_a_usage_error(run):
    r = run("show")
    assert r.exit_code == 2
    assert "no campaign here" in r.stderr and "drunagor new NAME" in r.stderr


def test_several_campaigns_need_a_choice(run, example, camp):
    r = run("show")
    assert r.exit_code == 2
    assert "several campaigns found (campaigns/example, campaigns/test)" in r.stderr
    assert run("-C", "campaigns/test", "show").exit_code == 0
    assert run("-C", "test", "show").exit_code == 0  # a bare name under ./campaigns/


def test_environment_and_current_folder(run, example, camp, monkeypatch):
    monkeypatch.setenv("DRUNAGOR_CAMPAIGN", str(camp))
    assert "Test Party" in run("show").stdout
    monkeypatch.delenv("DRUNAGOR_CAMPAIGN")
    monkeypatch.chdir(example)
    assert "Safeguard Corporation" in run("show").stdout


def test_campaign_option_must_name_a_campaign(run, tmp_path):
    r = run("-C", "nowhere", "show")
    assert r.exit_code == 2
    assert "-C/--campaign names 'nowhere', which holds no story.toml" in r.stderr


def test_version_and_help(run):
    r = run("--version")
    assert r.exit_code == 0 and r.stdout.startswith("drunagor ")
    r = run("--help")
    assert r.exit_code == 0 and "Awakenings" in r.stdout


# ------------------------------------------------------------------ bad files (SPEC 6)


def test_conflict_markers_are_reported_with_lines(run, camp):
    story = camp / "story.toml"
    story.write_text(story.read_text() + '<<<<<<< HEAD\nparty = "A"\n=======\nparty = "B"\n>>>>>>> theirs\n')
    before = snapshot(camp)
    for args in (("show",), ("check",)):
        r = run(*args)
        assert r.exit_code == 3, r
        out = r.stderr + r.stdout
        assert "campaigns/test/story.toml:13: conflict-markers: unresolved git conflict markers at lines 13, 15, 17" in out
    assert snapshot(camp) == before


def test_syntax_error_names_file_and_line(run, camp):
    write(camp / "heroes" / "nyx.toml", 'schema = 1\nname = "Nyx"\nclass = "Assassin\n')
    before = snapshot(camp)
    r = run("check")
    assert r.exit_code == 3
    assert r.stdout.startswith("campaigns/test/heroes/nyx.toml:3: toml-syntax: not valid TOML")
    r = run("show")
    assert r.exit_code == 3 and "heroes/nyx.toml:3:" in r.stderr
    assert "Traceback" not in r.stderr
    assert snapshot(camp) == before


def test_wrong_type_names_the_key_and_line(run, camp):
    story = camp / "story.toml"
    story.write_text(story.read_text().replace("max_heroes = 4", 'max_heroes = "four"'))
    r = run("show")
    assert r.exit_code == 3
    assert "campaigns/test/story.toml:11: shape: `rules.max_heroes` must be a whole number, not 'four'" in r.stderr


def test_newer_schema_is_read_with_a_warning_but_not_checked(run, camp):
    story = camp / "story.toml"
    story.write_text(story.read_text().replace("schema = 1", "schema = 2"))
    before = snapshot(camp)
    r = run("show")
    assert r.exit_code == 0
    assert "schema 2 is newer than this drunagor knows (1); reading it, never writing it" in r.stderr
    r = run("check")
    assert r.exit_code == 3
    assert "story.toml:1: schema: schema 2 is newer" in r.stdout
    assert snapshot(camp) == before


def test_empty_and_not_utf8_and_directory(run, camp):
    (camp / "heroes" / "a.toml").write_bytes(b"")
    r = run("check")
    assert r.exit_code == 3 and "heroes/a.toml: empty-file: the file is empty" in r.stdout
    (camp / "heroes" / "a.toml").write_bytes(b'schema = 1\nname = "\xff"\n')
    r = run("check")
    assert r.exit_code == 3 and "heroes/a.toml:2: encoding: the file is not UTF-8" in r.stdout
    (camp / "heroes" / "a.toml").unlink()
    (camp / "heroes" / "b.toml").mkdir()
    r = run("show")
    assert r.exit_code == 3 and "a directory stands where a file should be" in r.stderr


def test_new_writes_valid_toml_for_any_party_name(run, tmp_path):
    # JSON escapes are not TOML's: a DEL character must be escaped too, quotes and backslashes as well.
    name = 'The "Odd" \\ Party\x7f\t'
    assert run("new", "odd", "--party", name).exit_code == 0
    assert json.loads(run("show", "--json").stdout)["party"] == name
    assert 'party = "The \\"Odd\\" \\\\ Party\\u007F\\t"' in (tmp_path / "campaigns/odd/story.toml").read_text()


def test_new_inside_a_campaign_is_refused_and_a_second_campaign_is_announced(run, example, monkeypatch, tmp_path):
    monkeypatch.chdir(example / "heroes")
    r = run("new", "third")
    assert r.exit_code == 2
    assert r.stderr == (f"error: campaigns/third would be inside the campaign {example}; run drunagor new from "
                        "the folder that holds campaigns/ (the repository), or give --dir outside the campaign\n")
    assert not (example / "heroes" / "campaigns").exists()
    monkeypatch.chdir(tmp_path)
    r = run("new", "third")
    assert r.exit_code == 0
    assert r.stderr == ("warning: 2 campaigns are now under campaigns/, so a command run here must say which: "
                        "drunagor -C campaigns/third ... (or DRUNAGOR_CAMPAIGN=campaigns/third, or cd into it)\n")


def test_new_example_copies_the_shipped_example_byte_for_byte(run, tmp_path):
    from tests.conftest import EXAMPLE

    r = run("new", "--example", "try-it")
    assert (r.exit_code, r.stdout, r.stderr) == (0, "created campaign campaigns/try-it, a copy of the shipped "
                                                    "example campaign\n", "")
    copy = tmp_path / "campaigns" / "try-it"
    assert set(snapshot(copy)) == set(snapshot(EXAMPLE)) | {".gitignore", ".gitattributes"}
    for rel, data in snapshot(EXAMPLE).items():
        assert snapshot(copy)[rel] == data, rel
    assert run("-C", str(copy), "check").exit_code == 0
    assert run("-C", str(copy), "raid", "--dry-run", "--seed", "1").exit_code == 0  # the adventure under way


def test_new_example_refuses_the_options_of_an_empty_campaign_and_writes_nothing(run, tmp_path):
    for args in (["--party", "Night Watch"], ["--max-heroes", "5"], ["--trauma-limit", "2"]):
        r = run("new", "--example", "try-it", *args)
        assert (r.exit_code, r.stdout, r.stderr) == (2, "", (
            "error: --example copies the example's Story Record as it is; --party, --max-heroes and --trauma-limit "
            "are for a new empty campaign; leave them out, or leave out --example\n")), args
    assert not (tmp_path / "campaigns").exists()


def test_new_example_without_the_example_says_so(run, tmp_path, monkeypatch):
    """An installation that lost its example (a copy of the package without its data)."""
    from drunagor_log.ops import campaign

    monkeypatch.setattr(campaign, "__file__", str(tmp_path / "nowhere" / "drunagor_log" / "ops" / "campaign.py"))
    r = run("new", "--example", "try-it")
    assert (r.exit_code, r.stdout) == (3, "")
    assert r.stderr == ("error: nowhere/drunagor_log/example: file: the example campaign did "
                        "not come with this drunagor; reinstall drunagor (pip install --force-reinstall drunagor)\n")
    assert not (tmp_path / "campaigns").exists()

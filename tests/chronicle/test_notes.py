"""The party's notes (issue 45.1, SPEC 12): `note add|list|remove`, stamped with the chapter, the round,
the date and the author; shown through the output rule; and two players' notes merged by `sync` through a
bare repository, both ways, without a conflict."""

import json

import pytest

from tests.conftest import snapshot
from tests.helpers import ok
from tests.sync.conftest import remote, shared_by_ana

__all__ = ["remote"]  # the fixture of the sync tests


@pytest.fixture(autouse=True)
def _today(monkeypatch):
    monkeypatch.setattr("drunagor_log.ops.story._today", lambda: "2026-12-04")


def test_a_note_under_way_is_stamped_with_chapter_round_date_and_author(run, example):
    assert ok(run("note", "add", "The key is with Nyx", "--hero", "nyx", "--by", "Ana")).stdout == (
        "note 1 written: chapter 05, round 1, 2026-12-04, Ana, about Nyx\n")
    ok(run("note", "add", "  a second  ", "--by", "Ben"))
    assert ok(run("note", "list")).stdout == (
        "1. chapter 05, round 1, 2026-12-04, Ana, about Nyx: The key is with Nyx\n"
        "2. chapter 05, round 1, 2026-12-04, Ben: a second\n")
    assert json.loads(ok(run("note", "list", "--json")).stdout)["notes"][0] == {
        "number": 1, "id": "d3ef00af24", "chapter": "05", "round": 1, "date": "2026-12-04", "by": "Ana",
        "hero": "Nyx", "text": "The key is with Nyx"}
    assert '  { id = "d3ef00af24", chapter = "05", round = 1, date = "2026-12-04", by = "Ana", hero = "Nyx", ' \
           'text = "The key is with Nyx" },\n' in (example / "story.toml").read_text()


def test_between_adventures_the_note_names_the_next_chapter_and_no_round(run, example):
    (example / "adventure.toml").unlink()
    assert ok(run("note", "add", "buy potions", "--by", "Ana")).stdout == "note 1 written: chapter 05, 2026-12-04, Ana\n"


def test_remove_takes_the_note_by_its_number(run, example):
    before = (example / "story.toml").read_bytes()
    ok(run("note", "add", "one", "--by", "Ana"))
    assert ok(run("note", "remove", "1")).stdout == "note 1 removed (chapter 05, round 1, 2026-12-04, Ana: one)\n"
    assert (example / "story.toml").read_bytes() != before  # `notes = []` stays, as every emptied list
    assert ok(run("note", "list")).stdout == "no notes yet: drunagor note add TEXT\n"


def test_refusals_write_nothing(run, example):
    before = snapshot(example)
    for args, code, message in [
        (["note", "remove", "3"], 2, "error: there is no note 3: the campaign has 0; drunagor note list numbers them\n"),
        (["note", "add", "   ", "--by", "Ana"], 2, 'error: a note needs some words; drunagor note add "the key opens '
                                                   'the north gate"\n'),
        (["note", "add", "x", "--by", " "], 2, "error: --by names no one; --by NAME\n"),
        (["note", "add", "one\n2. chapter 05, round 1, 2026-12-04, Ana: forged", "--by", "Mal"], 2,
         "error: a note is one line: its words hold a line break; write it as two notes\n"),
        (["note", "add", "one\u2028two", "--by", "Mal"], 2,
         "error: a note is one line: its words hold a line break; write it as two notes\n"),
        (["note", "add", "x", "--by", "Mal\nBen"], 2, "error: --by holds a line break; --by NAME, on one line\n"),
    ]:
        r = run(*args)
        assert (r.exit_code, r.stderr) == (code, message)
    assert snapshot(example) == before


def test_a_git_user_name_of_two_lines_is_refused(run, example, monkeypatch):
    monkeypatch.setattr("drunagor_log.ops.notes.config_value", lambda root, key: "Ana\n2. forged")
    before = snapshot(example)
    r = run("note", "add", "x")
    assert (r.exit_code, r.stderr) == (2, "error: git's user.name holds a line break; --by NAME, on one line\n")
    assert snapshot(example) == before


def test_a_note_is_shown_through_the_output_rule(run, example):
    ok(run("note", "add", "evil \x1b[2J\u202e text", "--by", "Mal\x07lory"))
    assert ok(run("note", "list")).stdout == (
        "1. chapter 05, round 1, 2026-12-04, Mal<U+0007>lory: evil <U+001B>[2J<U+202E> text\n")
    assert "\\u001b[2J\\u202e" in ok(run("note", "list", "--json")).stdout


def test_a_bad_note_in_the_file_is_refused_on_its_line(run, example):
    path = example / "story.toml"
    path.write_text(path.read_text().replace('party = "', 'notes = [{ id = "x", chapter = "05", date = "d", '
                                                              'by = 3, text = "t" }]\nparty = "', 1))
    r = run("note", "list")
    assert r.exit_code == 3
    assert r.stderr.startswith("error: campaigns/example/story.toml:")
    assert "`by` of note 1 must be text, not 3" in r.stderr


@pytest.mark.slow  # runs git
def test_two_players_notes_merge_both_ways_through_a_bare_repository(remote, tmp_path, run):
    ana, ben = shared_by_ana(remote, tmp_path, run, "Ben")
    ana.ok("note", "add", "Ana: the gate is north")  # --by defaults to git's user.name
    ben.ok("note", "add", "Ben: we owe the smith", "--hero", "Nyx")
    ana.ok("sync")
    ben.ok("sync")
    ana.ok("sync")
    for p in (ana, ben):
        assert p.git("status", "--porcelain") == ""
        notes = json.loads(p.ok("note", "list", "--json").stdout)["notes"]
        assert sorted((n["by"], n["text"]) for n in notes) == [("Ana", "Ana: the gate is north"),
                                                                ("Ben", "Ben: we owe the smith")]
        assert "<<<<<<<" not in p.text("story.toml")
    assert ana.files() == ben.files()


def test_a_note_of_two_lines_in_the_file_is_refused_on_its_line(run, example):
    path = example / "story.toml"
    path.write_text(path.read_text().replace('party = "', 'notes = [{ id = "x", chapter = "05", date = "d", '
                                                              'by = "Mal", text = "t\\n2. forged" }]\nparty = "', 1))
    r = run("note", "list")
    assert (r.exit_code, r.stdout) == (3, "")
    assert "`text` of note 1 holds a line break: a note is one line; write it on one line" in r.stderr


def test_check_names_a_bad_note(run, example):
    path = example / "story.toml"
    path.write_text(path.read_text().replace('party = "', 'notes = [{ id = "x", chapter = "05", date = "d", '
                                                              'by = 3, text = "t" }]\nparty = "', 1))
    r = run("check")
    assert (r.exit_code, r.stdout) == (1, 'campaigns/example/story.toml:3: notes: `by` of note 1 must be text, not 3; '
                                          'write by = "..."\n')


def test_the_sheets_show_the_notes_through_the_output_rule(run, example):
    ok(run("note", "add", "the *key* <b>\u202e", "--by", "Ana"))
    md = ok(run("sheet", "--format", "md", "--out", "-")).stdout
    assert "### The party's notes\n\n1. chapter 05, round 1, 2026-12-04, Ana: the \\*key\\* &lt;b&gt;&lt;U+202E&gt;\n" in md
    html = ok(run("sheet", "--out", "-")).stdout
    assert "<li>chapter 05, round 1, 2026-12-04, Ana: the *key* &lt;b&gt;&lt;U+202E&gt;</li>" in html

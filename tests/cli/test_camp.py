"""The Camp phase (SPEC 10: `camp` between adventures only, listing before removing, `--dry-run`): refused
while an adventure is under way with nothing changed; the statuses it removes named first; after chapter 09
no word of the Chest deck changing."""

from __future__ import annotations

import json

from tests.conftest import snapshot


def test_refused_while_an_adventure_is_under_way(run, example):
    assert run("hero", "status", "Andreas", "add", "Lifesaver").exit_code == 0
    before = snapshot(example)
    for args in (("camp",), ("camp", "--dry-run"), ("camp", "--json")):
        r = run(*args)
        assert (r.exit_code, r.stdout) == (1, "")
        assert r.stderr == ("error: campaigns/example/adventure.toml: camp: the adventure of chapter 05 is under way, "
                            "and the Camp phase comes between adventures; end the adventure first (drunagor adventure "
                            "end --won|--lost)\n")
        assert snapshot(example) == before


def test_between_adventures_it_lists_what_it_removes_and_dry_run_writes_nothing(run, example):
    assert run("adventure", "end", "--won").exit_code == 0
    assert run("hero", "status", "Nyx", "add", "Haunted").exit_code == 0
    assert run("hero", "status", "Andreas", "add", "Lifesaver").exit_code == 0
    before = snapshot(example)
    r = run("camp", "--dry-run")
    assert (r.exit_code, r.stderr) == (0, "")
    assert r.stdout.splitlines()[:4] == ["Camp phase: the Campaign Log statuses go:", "  Andreas: Lifesaver",
                                         "  Nyx: Haunted", "dry run: nothing removed; drunagor camp removes them"]
    assert snapshot(example) == before
    data = json.loads(run("camp", "--dry-run", "--json").stdout)
    assert (data["cleared"], data["dry_run"], data["changed"]) == (
        {"Andreas": ["Lifesaver"], "Nyx": ["Haunted"]}, True, [])
    assert snapshot(example) == before
    r = run("camp")
    assert r.stdout.splitlines()[:4] == ["Camp phase: the Campaign Log statuses go:", "  Andreas: Lifesaver",
                                         "  Nyx: Haunted", "Camp phase: 2 Campaign Log statuses removed"]
    assert "statuses = []\n" in (example / "heroes" / "nyx.toml").read_text()
    assert run("camp").stdout.splitlines()[0] == "no change: Camp phase: no Campaign Log statuses to remove"


def test_after_chapter_09_it_no_longer_says_the_chest_deck_may_change(run, example):
    assert run("adventure", "end", "--won").exit_code == 0
    for ch in ("06", "07", "08", "09"):
        assert run("chapter", "complete", ch).exit_code == 0
    r = run("camp")
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    assert lines[2] == "The campaign is finished: no adventure is left to prepare the Chest deck for"
    assert not any("may be changed" in line for line in lines)
    assert json.loads(run("camp", "--json").stdout)["finished"] is True


def test_a_file_of_a_newer_schema_is_said_as_every_writer_says_it(run, example):
    assert run("adventure", "end", "--won").exit_code == 0
    nyx = example / "heroes" / "nyx.toml"
    nyx.write_text(nyx.read_text().replace("schema = 1\n", "schema = 99\n", 1))
    before = snapshot(example)
    r = run("camp", "--dry-run")
    assert (r.exit_code, r.stderr) == (0, "warning: campaigns/example/heroes/nyx.toml: schema 99 is newer than this "
                                          "drunagor knows (1); reading it, never writing it\n")
    assert r.stdout.splitlines()[0] == "Camp phase: no Campaign Log statuses to remove"
    assert snapshot(example) == before

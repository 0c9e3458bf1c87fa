"""design/app-token.md section 5, row by row: what the token lacks is asked, what drunagor does not
model is kept, what the token cannot carry is reported on export."""

from __future__ import annotations

import json

from tests.interop.test_import_export import ROLES, _json, _tok
from tests.interop.test_token import CURRENT


def _export(run, root):
    r = run("-C", str(root), "export", "--json")
    assert r.exit_code == 0, r
    return json.loads(r.stdout), r.stderr


def _imported(run, tmp_path, data=None, *flags):
    (tmp_path / "campaigns").mkdir(exist_ok=True)
    r = run("import", _tok(data) if data else CURRENT, *ROLES, *flags)
    assert r.exit_code == 0, r
    return tmp_path / "campaigns" / "safeguard-corporation"


def test_row_party_and_campaign_type(run, tmp_path):
    r = run("import", _tok({"campaignData": {"campaign": "apocalypse", "name": "P"}, "heroes": []}))
    assert (r.exit_code, r.stderr) == (1, "error: token: the token's campaign is of the 'apocalypse' box, not an "
                                          "Awakenings campaign; drunagor keeps Awakenings campaigns only; import "
                                          "it into the app of that box\n")
    assert not (tmp_path / "campaigns").exists()


def test_row_leader_and_track_are_asked_and_reported_lost(run, tmp_path):
    root = _imported(run, tmp_path, None, "--leader", "Nyx", "--completed", "01")
    assert 'leader = "Nyx"' in (root / "story.toml").read_text()
    _, lost = _export(run, root)
    assert "the Adventure Track (the token has no chapters); the Party Leader" in lost


def test_row_story_lists_map_and_names_without_an_id_are_reported(run, tmp_path):
    root = _imported(run, tmp_path)
    assert run("-C", str(root), "follower", "add", "Karsten", "--new").exit_code == 0
    data, lost = _export(run, root)
    assert data["campaignData"]["followerIds"] == ["vorn"]
    assert "warning: the apps have no ID for the Follower Karsten: left out of the token\n" in lost


def test_row_party_level_records_are_reported(run, tmp_path):
    _, lost = _export(run, _imported(run, tmp_path))
    assert "the Chest deck, the Commander deck, the [cards] facts, the stash and stored cards" in lost


def test_row_class_abilities_count_is_kept(run, tmp_path):
    data = _json(CURRENT)
    data["heroes"][0]["classAbilityCount"] = 3  # the official app's count; no names
    root = _imported(run, tmp_path, data)
    exported, lost = _export(run, root)
    assert exported["heroes"][0]["classAbilityCount"] == 3
    assert "Class Ability names and skill names" in lost


def test_row_skills_a_second_of_one_tree_and_level_is_reported(run, tmp_path):
    root = _imported(run, tmp_path)
    assert run("-C", str(root), "hero", "learn", "Nyx", "Shadow Step", "--tree", "agility", "--level", "1").exit_code == 0
    data, lost = _export(run, root)
    assert data["heroes"][2]["skillIds"] == ["agility-1"]
    assert "Nyx's skill Shadow Step (a second agility Level 1 skill: one box in the apps)" in lost


def test_row_equipment_a_third_bag_item_goes_to_the_stash(run, tmp_path):
    root = _imported(run, tmp_path)
    for item in ("Potion of Haste", "Scroll of Beguile"):
        assert run("-C", str(root), "hero", "gain", "Andreas", item).exit_code == 0, item
    data, lost = _export(run, root)
    eq = data["heroes"][0]["equipment"]
    assert (eq["bagOneId"], eq["bagTwoId"], data["heroes"][0]["stashedCardIds"]) == (
        "artisans-tools", "potion-of-haste", ["scroll-of-beguile"])
    assert "Andreas's Scroll of Beguile goes to the app's Stash (no free slot)" in lost


def test_row_retired_heroes_are_not_exported(run, tmp_path):
    root = _imported(run, tmp_path)
    assert run("-C", str(root), "hero", "remove", "Catharina").exit_code == 0
    data, lost = _export(run, root)
    assert [h["heroId"] for h in data["heroes"]] == ["andreas-cleric", "nyx-assassin", "vacren-warrior"]
    assert "Catharina (left the party: the apps delete a hero who leaves)" in lost

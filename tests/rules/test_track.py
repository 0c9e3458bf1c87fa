"""The Adventure Track (RB L961, L1084) and chapter briefings (RB L1058-1309), as pure rules."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drunagor_log import catalog
from drunagor_log.model import CHAPTERS
from drunagor_log.rules import track
from drunagor_log.rules.track import (
    Move,
    briefing,
    camaraderie_followers,
    correction,
    is_finished,
    next_open,
    plan,
    tie_breaker_runes,
    unexplained_gaps,
)

CONTRACT = {"chapter", "title", "heroes", "stirring_darkness", "recall_penalty", "raid", "tie_breaker_runes",
            "camaraderie_followers", "boss_health", "trauma_limit"}


# ------------------------------------------------------------------------------ filling the track

def test_the_next_adventure_is_the_next_unfilled_slot():
    # RB L961: "the next Adventure you must play is the next unfilled slot on the Track"
    assert next_open({}) == "01"
    assert next_open({"01": "completed", "02": "skipped"}) == "03"
    assert next_open({"01": "completed", "03": "completed"}) == "02"
    assert next_open({ch: "completed" for ch in CHAPTERS}) is None


def test_the_campaign_is_finished_when_chapter_09_is_filled():
    assert not is_finished({ch: "completed" for ch in CHAPTERS[:-1]})
    assert is_finished({ch: "skipped" for ch in CHAPTERS})


def test_filling_the_next_slot_is_legal():
    move = plan({"01": "completed"}, "02", "completed")
    assert move == Move("02", "completed", None, "02", None)
    assert move.changes and move.fills
    assert plan({"01": "completed"}, "02", "skipped").problem is None
    assert plan({}, "01", "failed").problem is None


def test_a_later_slot_needs_force():
    move = plan({"01": "completed"}, "03", "completed")
    assert move.problem == ("chapter 03 is not the next unfilled slot of the Adventure Track: chapter 02 is, "
                            "and the track is filled in order")
    assert move.changes


def test_a_filled_slot_needs_force():
    assert plan({"01": "completed"}, "01", "skipped").problem == \
        "chapter 01 is already completed on the Adventure Track"
    same = plan({"01": "completed"}, "01", "completed")
    assert same.problem == "chapter 01 is already completed on the Adventure Track"
    assert not same.changes  # with --force: nothing to do


def test_a_finished_campaign_says_so():
    full = {ch: "completed" for ch in CHAPTERS}
    assert plan(full, "09", "completed").problem == (
        "chapter 09 is already completed on the Adventure Track and the campaign is finished")


def test_a_failed_attempt_leaves_the_slot_open_and_is_only_for_the_next_chapter():
    move = plan({"01": "completed"}, "02", "failed")
    assert move.problem is None and move.changes and not move.fills
    assert plan({"01": "completed"}, "01", "failed").problem == (
        "chapter 01 is already completed on the Adventure Track; a failed attempt is recorded for the next "
        "unfilled slot")
    assert plan({"01": "completed"}, "04", "failed").problem.startswith("chapter 04 is not the next unfilled slot")


def test_plan_refuses_what_is_not_a_move():
    with pytest.raises(ValueError):
        plan({}, "01", "won")
    with pytest.raises(ValueError):
        plan({}, "10", "completed")


def test_correction_lines():
    assert correction("2026-11-29", plan({"03": "completed"}, "03", "skipped")) == \
        "2026-11-29: chapter 03 set to skipped with --force (was completed)"
    assert correction("2026-11-29", plan({"01": "completed"}, "04", "completed")) == \
        "2026-11-29: chapter 04 set to completed with --force (was open; chapter 02 was the next unfilled slot)"
    assert correction("2026-11-29", plan({"01": "completed"}, "01", "failed")) == \
        "2026-11-29: chapter 01 failed attempt recorded with --force (was completed)"


def test_gaps_are_errors_unless_a_correction_names_the_chapter():
    t = {"01": "completed", "03": "completed", "05": "skipped"}
    assert unexplained_gaps(t) == [("03", "02"), ("05", "02")]
    assert unexplained_gaps(t, ["2026-11-29: chapter 03 set to completed with --force (was open; ...)"]) == \
        [("05", "02")]
    assert unexplained_gaps({"01": "completed", "02": "skipped"}) == []
    assert unexplained_gaps({ch: "completed" for ch in CHAPTERS}) == []


@given(st.lists(st.sampled_from(track.ACTIONS), max_size=20))
def test_legal_moves_fill_the_track_in_order(actions):
    t: dict[str, str] = {}
    for action in actions:
        ch = next_open(t)
        if ch is None:
            break
        move = plan(t, ch, action)
        assert move.problem is None
        if move.fills:
            t[ch] = action
    assert list(t) == list(CHAPTERS[:len(t)])
    assert unexplained_gaps(t) == []


# ---------------------------------------------------------------------------------- the briefing

def test_camaraderie_for_three_heroes_is_two_followers():
    # RB L1247: "Recruit a number of Followers equal to 5 minus the number of Heroes"
    b = briefing(catalog.chapter("07"), heroes=3, trauma_limit=1)
    assert b["camaraderie_followers"] == 2
    assert b["camaraderie_from"] == ["Elros the Assassin", "Lorelai the Mage", "Maya the Ranger", "Vorn the Warrior"]
    assert b["stirring_darkness"] is None and b["raid"] is None and b["tie_breaker_runes"] is None


def test_awakened_king_for_four_heroes_has_160_health():
    # RB L1299: "The Undead King has 40 Health per Hero."
    b = briefing(catalog.chapter("09"), heroes=4, trauma_limit=1)
    assert b["boss_health"] == 160
    assert b["boss"] == "Awakened King"
    assert b["camaraderie_followers"] is None


def test_tie_breaker_for_five_heroes_is_one_rune():
    # RB L1100: "equal to 6 minus the number of Heroes"
    b = briefing(catalog.chapter("02"), heroes=5, trauma_limit=1)
    assert b["tie_breaker_runes"] == 1
    assert b["raid"] == {"card": "Dreadful Raid",
                         "summons": [{"minion": "Nightmare", "models": "Night Stalker", "kind": "scenario"}]}
    assert b["raid_party"] == 3  # RB L308


def test_briefing_of_chapter_01_has_nulls_where_nothing_applies():
    b = briefing(catalog.chapter(1), heroes=2, trauma_limit=2)
    assert {k: b[k] for k in CONTRACT} == {
        "chapter": "01", "title": "Untimely Holidays", "heroes": 2, "stirring_darkness": 4, "recall_penalty": 1,
        "raid": None, "tie_breaker_runes": None, "camaraderie_followers": None, "boss_health": None,
        "trauma_limit": 2,
    }


def test_naval_raid_has_two_minion_cards_and_no_dreadful_raid_party():
    b = briefing(catalog.chapter(4), heroes=4, trauma_limit=1)
    assert [s["minion"] for s in b["raid"]["summons"]] == ["Tidehunter", "Boatswain"]
    assert b["raid"]["card"] == "Naval Raid"
    assert b["raid_party"] is None


@pytest.mark.parametrize("ch", CHAPTERS)
def test_every_briefing_has_the_contract_keys(ch):
    assert CONTRACT <= set(briefing(catalog.chapter(ch), heroes=4, trauma_limit=1))


@given(st.integers(1, 5))
def test_party_numbers(heroes):
    assert tie_breaker_runes(heroes) + heroes == 6
    assert camaraderie_followers(heroes) + heroes == 5
    assert track.boss_health(40, heroes) == 40 * heroes


@pytest.mark.parametrize("bad", [0, 6, True, "4"])
def test_a_party_has_one_to_five_heroes(bad):
    with pytest.raises(ValueError):
        tie_breaker_runes(bad)
    with pytest.raises(ValueError):
        briefing(catalog.chapter(2), heroes=bad, trauma_limit=1)

"""Table events after a loss (SPEC 10): once a losing condition is met, every table event is refused (exit 1,
nothing written) with the way out: `adventure end --lost`, or `adventure undo` when the loss was a slip."""

from __future__ import annotations

import pytest

from tests.conftest import snapshot

LOST = ("error: campaigns/example/adventure.toml: adventure: the adventure is lost: drunagor adventure end --lost; "
        "lost by: Nyx receives a 2nd Trauma Cube and is defeated: the adventure fails (Rulebook: Increasing Trauma Cube Limits, L1026); if that was a slip, "
        "take it back: drunagor adventure undo\n")

EVENTS = [
    ("raid", "--seed", "3"), ("raid", "--dry-run"), ("draw",), ("draw", "--rune", "red"),
    ("monster", "add", "Tidehunter"), ("monster", "remove", "1"), ("pile", "add"), ("pile", "remove", "1"),
    ("tiebreak", "1"), ("battalion", "Gremlin Horde", "--near", "1"), ("battalion", "Gremlin Horde", "--dry-run"),
    ("cube", "Nyx", "trauma", "-1"), ("cube", "Andreas", "curse", "+1", "--capacity", "5"),
    ("recall", "Andreas", "--capacity", "5"),
]


@pytest.fixture
def lost(run, example):
    r = run("cube", "Nyx", "trauma", "+2")
    assert r.exit_code == 0 and "the adventure fails (Rulebook: Increasing Trauma Cube Limits, L1026)" in r.stdout
    return example


@pytest.mark.parametrize("args", EVENTS, ids=" ".join)
def test_every_table_event_is_refused_once_the_adventure_is_lost(run, lost, args):
    before = snapshot(lost)
    r = run(*args)
    assert (r.exit_code, r.stdout, r.stderr) == (1, "", LOST)
    assert snapshot(lost) == before


def test_the_ways_out_still_work(run, lost):
    assert run("odds").exit_code == 0  # reading the table is no event
    assert run("adventure", "undo").exit_code == 0  # the slip taken back: the table goes on
    assert run("draw", "--rune", "red").exit_code == 0
    assert run("cube", "Nyx", "trauma", "+2").exit_code == 0
    r = run("adventure", "end", "--lost")
    assert r.exit_code == 0 and r.stdout.startswith("chapter 05 failed (attempt 1); the slot stays open")


def test_the_last_rune_drawn_stops_the_table_too(run, example):
    assert run("draw", "9", "--seed", "1").exit_code == 0  # chapter 05: the last rune fails it (RB L1203)
    before = snapshot(example)
    r = run("raid", "--seed", "3")
    assert r.exit_code == 1
    assert r.stderr == ("error: campaigns/example/adventure.toml: adventure: the adventure is lost: drunagor adventure "
                        "end --lost; lost by: the last rune in the bag is drawn: the adventure fails (Rulebook: Chapter 05 › Winning and Losing the Adventure, L1203); if "
                        "that was a slip, take it back: drunagor adventure undo\n")
    assert snapshot(example) == before

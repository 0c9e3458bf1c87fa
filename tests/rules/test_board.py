"""The Monster Status board: slot order, rank order, the strongest non-boss monster (RB L309-315)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drunagor_log.model.adventure import (
    RANKS,
    SLOT_COLOURS,
    Monster,
    Pile,
    canonical_rank,
    check_board,
    rank_index,
    slot_colour,
)
from drunagor_log.rules.board import (
    activation_priority,
    first_of_kind,
    free_slots,
    models_on_board,
    next_free_slot,
    place,
    strongest_non_boss,
)


def test_slot_order_is_board_one_yellow_to_black_then_board_two_orange_to_brown():
    # RB L315
    assert SLOT_COLOURS[:6] == ("yellow", "dark blue", "pink", "green", "dark red", "black")
    assert SLOT_COLOURS[6:] == ("orange", "gray", "light blue", "blue", "red", "brown")
    assert slot_colour(1) == "yellow"
    assert slot_colour(12) == "brown"
    with pytest.raises(ValueError):
        slot_colour(13)


def test_rank_order_highest_first():
    # RB L314
    assert RANKS == ("Overlord", "Commander", "Black", "Gray", "White", "Scenario", "Minion")
    assert rank_index("overlord") < rank_index("Commander") < rank_index("black") < rank_index("Minion")
    assert canonical_rank(" gray ") == "Gray"
    with pytest.raises(ValueError):
        canonical_rank("Elite")


def test_next_free_slot_fills_gaps_from_the_top():
    board = [Monster("Gremlin Horde", "Minion", 1), Monster("Fell Asteris", "Gray", 3)]
    assert next_free_slot(board) == 2
    assert free_slots(board)[:3] == (2, 4, 5)
    placed = place(board, "Gremlin Horde", "Minion")
    assert placed == Monster("Gremlin Horde", "Minion", 2)


def test_a_full_board_has_no_free_slot():
    board = [Monster(f"M{slot}", "White", slot) for slot in range(1, 13)]
    assert next_free_slot(board) is None
    assert place(board, "Gremlin Horde", "Minion") is None


def test_a_boss_holds_no_track():
    boss = Monster("Soul Harvester", "Overlord", None, boss=True)
    assert next_free_slot([boss]) == 1
    with pytest.raises(ValueError):
        Monster("Gremlin Horde", "Minion", None)  # a non-boss needs a slot


def test_two_monsters_cannot_share_a_slot():
    with pytest.raises(ValueError):
        check_board([Monster("A", "White", 4), Monster("B", "Gray", 4)])


def test_strongest_non_boss_is_highest_rank_then_higher_slot():
    board = [
        Monster("Soul Harvester", "Overlord", None, boss=True),
        Monster("Gremlin Horde", "Minion", 1),
        Monster("Night Stalker", "Gray", 5),
        Monster("Fell Asteris", "Gray", 3),
        Monster("Grim Doctor", "White", 2),
    ]
    # The boss never counts; Gray beats White and Minion; of the two Grays, slot 3 is higher than slot 5.
    assert strongest_non_boss(board) == Monster("Fell Asteris", "Gray", 3)
    assert [m.slot for m in activation_priority(board)] == [3, 5, 2, 1]


def test_no_strongest_monster_with_only_a_boss():
    assert strongest_non_boss([Monster("Soul Harvester", "Overlord", None, boss=True)]) is None
    assert strongest_non_boss([]) is None


def test_models_and_first_of_kind_are_case_insensitive():
    board = [Monster("Gremlin Horde", "Minion", 7), Monster("Gremlin Horde", "Minion", 2)]
    assert models_on_board(board, "gremlin horde") == 2
    assert first_of_kind(board, "GREMLIN HORDE").slot == 2
    assert first_of_kind(board, "Night Stalker") is None


def test_pile_holds_colours_case_insensitively():
    pile = Pile(1, {"Red": 1, "blue": 0})
    assert pile.id == "1"
    assert pile.holds("red")
    assert not pile.holds("blue")
    assert pile.colours() == frozenset({"red"})
    with pytest.raises(ValueError):
        Pile("x", {"red": -1})


@given(st.sets(st.integers(1, 12)))
def test_next_free_slot_is_the_lowest_slot_not_taken(taken):
    board = [Monster(f"M{slot}", "White", slot) for slot in taken]
    free = [slot for slot in range(1, 13) if slot not in taken]
    assert next_free_slot(board) == (free[0] if free else None)

"""Monster Battalion summons (RB L1311-1325; SPEC 5.6) and the Siege of Everedge (RB L1237)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drunagor_log.model.adventure import Monster
from drunagor_log.rules.battalion import propose_order, resolve_battalion

RANKS = {"Hellspawn Brute": "Gray", "Gorgoness Witch": "White", "Abomination": "Black",
         "Gremlin Horde": "Minion"}


def white_board(taken: int) -> list[Monster]:
    return [Monster(f"Monster {slot}", "White", slot) for slot in range(1, taken + 1)]


def test_three_monsters_with_eleven_on_board_place_one_and_give_four_activations():
    board = white_board(10) + [Monster("Fell Asteris", "Gray", 11)]
    result = resolve_battalion(["Abomination", "Hellspawn Brute", "Gorgoness Witch"], board=board, ranks=RANKS)
    assert result.placed == ("Abomination",)
    assert result.placements[0].slot == 12
    assert result.not_placed == ("Hellspawn Brute", "Gorgoness Witch")
    assert result.activations == 4  # RB L1319: two commands per monster not summoned
    # The Black Abomination just placed is strongest, then the Gray Fell Asteris; they alternate.
    assert result.order == ("Abomination", "Fell Asteris", "Abomination", "Fell Asteris")
    assert result.order_slots == (12, 11, 12, 11)
    assert result.unused == 0


def test_everything_fits():
    result = resolve_battalion(["Abomination", "Gorgoness Witch"], board=[Monster("Fell Asteris", "Gray", 1)],
                               ranks=RANKS)
    assert result.placed == ("Abomination", "Gorgoness Witch")
    assert [p.slot for p in result.placements] == [2, 3]
    assert result.activations == 0
    assert result.order == ()


def test_a_lone_monster_is_activated_once():
    # RB L1321: all the commands share one trigger; after the first, the lone monster would be
    # activated twice in a row, so the other commands go unused.
    order, unused = propose_order([Monster("Gorgoness Witch", "White", 1)], 4)
    assert [m.name for m in order] == ["Gorgoness Witch"]
    assert unused == 3


def test_no_monster_to_activate_leaves_the_commands_unused():
    order, unused = propose_order([Monster("Soul Harvester", "Overlord", None, boss=True)], 2)
    assert order == () and unused == 2


def test_models_limit_of_a_minion_is_four():
    board = [Monster("Gremlin Horde", "Minion", slot) for slot in range(1, 5)] + [Monster("Fell Asteris", "Gray", 5)]
    result = resolve_battalion(["Gremlin Horde", "Gorgoness Witch"], board=board, ranks=RANKS)
    assert result.not_placed == ("Gremlin Horde",)
    assert result.placed == ("Gorgoness Witch",)
    assert result.activations == 2


def test_a_known_models_limit():
    board = [Monster("Abomination", "Black", 1)]
    result = resolve_battalion(["Abomination"], board=board, models_limits={"abomination": 1})
    assert result.not_placed == ("Abomination",)  # the rank is read from the board
    assert result.order == ("Abomination",)
    assert result.unused == 1


def test_unknown_rank_is_asked_for():
    with pytest.raises(ValueError):
        resolve_battalion(["Vile Spawn"], board=[])


def test_siege_activates_the_first_monster_of_the_same_kind():
    board = white_board(9) + [
        Monster("Hellspawn Brute", "Gray", 10),
        Monster("Abomination", "Black", 11),
        Monster("Hellspawn Brute", "Gray", 12),
    ]
    result = resolve_battalion(["Hellspawn Brute", "Abomination", "Gorgoness Witch"], board=board, ranks=RANKS,
                               siege=True)
    assert result.placed == ()
    assert result.activations == 3  # one each, not two
    assert [(t.not_placed, t.target, t.slot) for t in result.siege_targets] == [
        ("Hellspawn Brute", "Hellspawn Brute", 10),
        ("Abomination", "Abomination", 11),
        ("Gorgoness Witch", None, None),
    ]
    assert result.order == ("Hellspawn Brute", "Abomination")
    assert result.unused == 1


def test_untracked_battalion():
    result = resolve_battalion(["Abomination", "Hellspawn Brute", "Gorgoness Witch"], monsters_on_board=11)
    assert result.placed == ("Abomination",)
    assert result.not_placed == ("Hellspawn Brute", "Gorgoness Witch")
    assert result.activations == 4
    assert result.order == ()
    assert result.placements == ()


def test_json_contract():
    data = resolve_battalion(["Abomination"], board=white_board(12), ranks=RANKS).as_json()
    assert set(data) >= {"placed", "not_placed", "activations", "order"}
    assert data["activations"] == 2
    assert data["order"] == ["Monster 1", "Monster 2"]


names = st.lists(st.sampled_from(sorted(RANKS)), max_size=6)


@st.composite
def boards(draw):
    board = []
    for slot in sorted(draw(st.sets(st.integers(1, 12)))):
        name = draw(st.sampled_from(sorted(RANKS)))
        board.append(Monster(name, RANKS[name], slot))
    return board


@given(names=names, board=boards(), siege=st.booleans())
def test_battalion_properties(names, board, siege):
    result = resolve_battalion(names, board=board, ranks=RANKS, siege=siege)
    assert len(result.placed) + len(result.not_placed) == len(names)
    assert len(result.board) <= 12
    assert len(result.placed) <= 12 - len(board)
    assert sum(1 for m in result.board if m.name == "Gremlin Horde") <= max(
        4, sum(1 for m in board if m.name == "Gremlin Horde"))
    assert result.activations == (1 if siege else 2) * len(result.not_placed)
    assert len(result.order) + result.unused == result.activations
    # Never the same monster twice in a row (RB L1321).
    if not siege:
        pairs = list(zip(result.order, result.order_slots, strict=False))
        assert all(a != b for a, b in zip(pairs, pairs[1:], strict=False))

"""The Dreadful Raid, step by step as RB L267-317 (SPEC 5.5)."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drunagor_log.model.adventure import Monster, Pile
from drunagor_log.rules.raid import (
    flip,
    manifest,
    no_summon_reason,
    raid_party_size,
    resolve_raid,
)

MINION = "Gremlin Horde"
RED_PILE = [Pile("1", {"red": 1, "blue": 1})]


def raid(**kwargs):
    defaults = dict(face="B", heroes=4, minion=MINION, piles=RED_PILE, rune="red", board=[])
    defaults.update(kwargs)
    return resolve_raid(**defaults)


def full_board(taken: int) -> list[Monster]:
    """`taken` tracks taken by White monsters, except slot 4 (Gray) and 6 (Gray) when taken."""
    board = []
    for slot in range(1, taken + 1):
        rank = "Gray" if slot in (4, 6) else "White"
        board.append(Monster(f"Monster {slot}", rank, slot))
    return board


# Step 1: the face (RB L284-286)

def test_face_a_with_monsters_on_board_summons_nothing_and_flips():
    result = raid(face="A", board=[Monster("Fell Asteris", "Gray", 1)])
    assert result.placed == 0 and result.failed == 0
    assert result.summoned == ()
    assert result.rune is None  # no rune manifested
    assert result.next_face == "B"
    assert "face A" in result.reason
    assert [step.number for step in result.steps] == [1, 2, 3, 4]
    assert "Face A" in result.steps[0].fact


def test_face_a_on_an_empty_board_summons():
    result = raid(face="A", heroes=2)
    assert result.placed == 1
    assert result.summoned[0].slot == 1
    assert result.next_face == "B"


def test_face_b_summons_even_with_monsters_on_board():
    result = raid(face="B", heroes=1, board=[Monster("Fell Asteris", "Gray", 1)])
    assert result.placed == 1
    assert result.summoned[0].slot == 2
    assert result.next_face == "A"


def test_face_a_with_monsters_needs_no_rune():
    # The rune is only drawn when it matters.
    result = raid(face="A", rune=None, board=[Monster("Fell Asteris", "Gray", 1)])
    assert result.rune is None


# Step 2: manifest a rune, check the Piles of Runes (RB L292-297)

@pytest.mark.parametrize("face", ["A", "B"])
def test_no_piles_of_runes_means_no_summon_whatever_the_face(face):
    assert no_summon_reason(face, monsters_on_board=0, piles=[]) is not None
    result = raid(face=face, piles=[], rune=None)
    assert result.placed == 0
    assert result.rune is None
    assert "Pile of Runes" in result.reason
    assert result.next_face == flip(face)


def test_a_rune_absent_from_the_piles_is_a_breathing_space():
    result = raid(rune="green")
    assert result.rune == "green"
    assert result.placed == 0 and result.failed == 0
    assert result.matching_piles == ()
    assert "breathing space" in result.reason
    assert result.next_face == "A"


def test_several_matching_piles_are_listed_for_the_party_leader():
    piles = [Pile("1", {"red": 1}), Pile("2", {"blue": 1}), Pile("3", {"red": 2})]
    result = raid(piles=piles, rune="Red")
    assert result.matching_piles == ("1", "3")
    assert "Party Leader" in result.steps[1].fact


def test_a_rune_deep_in_a_pile_counts():
    # RB L294: all the runes in a pile are on the board.
    result = raid(piles=[Pile("1", {"orange": 3, "red": 1})], rune="red")
    assert result.matching_piles == ("1",)


def test_a_rune_is_required_when_the_raid_can_summon():
    with pytest.raises(ValueError):
        raid(rune=None)


# Step 3: the raid party (RB L305-315)

@pytest.mark.parametrize("heroes, minions", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3)])
def test_raid_party_size(heroes, minions):
    assert raid_party_size(heroes) == minions
    result = raid(heroes=heroes)
    assert result.placed == minions
    assert result.party_size == minions
    assert [s.slot for s in result.summoned] == list(range(1, minions + 1))


@pytest.mark.parametrize("heroes", [0, 6])
def test_a_party_has_one_to_five_heroes(heroes):
    with pytest.raises(ValueError):
        raid_party_size(heroes)


def test_three_to_summon_with_room_for_one():
    # RB L313: summon the one that fits; the other two fail, each activating the strongest non-boss
    # monster; two Grays tie, the higher slot (4) wins over slot 6.
    board = full_board(11) + [Monster("Soul Harvester", "Overlord", None, boss=True)]
    result = raid(heroes=5, board=board)
    assert result.placed == 1
    assert result.summoned[0].slot == 12
    assert result.failed == 2
    assert result.activations == ("Monster 4", "Monster 4")
    assert result.activation_slots == (4, 4)
    assert result.reason is None
    assert "12 status-board tracks" in result.steps[2].fact


def test_all_twelve_tracks_taken_fails_every_minion():
    result = raid(heroes=3, board=full_board(12))
    assert result.placed == 0
    assert result.failed == 2
    assert result.activations == ("Monster 4", "Monster 4")
    assert "failed" in result.reason


def test_the_minions_placed_this_raid_count_for_the_activation():
    # A lone boss on the board: the placed Gremlin is the only non-boss monster to activate.
    board = [Monster("Soul Harvester", "Overlord", None, boss=True)]
    board += [Monster(MINION, "Minion", slot) for slot in (1, 2, 3)]
    result = raid(heroes=5, board=board)
    assert result.placed == 1  # the fourth model
    assert result.failed == 2
    assert result.activations == (MINION, MINION)
    assert result.activation_slots == (1, 1)


def test_four_models_on_board_fails_the_minion():
    board = [Monster(MINION, "Minion", slot) for slot in (1, 2, 3, 4)] + [Monster("Grim Doctor", "White", 5)]
    result = raid(heroes=2, board=board)
    assert result.placed == 0
    assert result.failed == 1
    assert result.activations == ("Grim Doctor",)
    assert "4 models" in result.reason


def test_no_monster_to_activate():
    # Only bosses on the board and the minion's single model already out: nothing to activate.
    board = [Monster(MINION, "Overlord", None, boss=True), Monster("Soul Harvester", "Overlord", None, boss=True)]
    result = raid(heroes=2, board=board, models_limit=1)
    assert result.failed == 1
    assert result.activations == (None,)


def test_untracked_board_from_counts():
    result = resolve_raid(face="B", heroes=5, minion=MINION, piles=RED_PILE, rune="red",
                          monsters_on_board=5, minion_models_on_board=2)
    assert result.placed == 2
    assert result.failed == 1
    assert result.activations == (None,)
    assert result.summoned == ()
    assert result.board is None


def test_untracked_face_a_with_monsters():
    result = resolve_raid(face="A", heroes=5, minion=MINION, piles=RED_PILE, rune=None, monsters_on_board=1)
    assert result.rune is None and result.placed == 0


def test_board_after_holds_the_summoned_minions():
    result = raid(heroes=3, board=[Monster("Fell Asteris", "Gray", 2)])
    assert [(m.name, m.slot) for m in result.board] == [("Fell Asteris", 2), (MINION, 1), (MINION, 3)]


def test_json_contract():
    data = raid(heroes=5, board=full_board(11)).as_json(seed=42)
    assert set(data) >= {"face", "next_face", "rune", "seed", "matching_piles", "party_size", "placed",
                         "failed", "activations", "summoned", "reason"}
    assert data["summoned"] == [{"name": MINION, "slot": 12}]
    assert data["seed"] == 42


# Step 4 and the draw

def test_manifest_returns_the_rune_and_leaves_the_bag_alone():
    bag = {"red": 1, "blue": 0}
    assert manifest(bag, random.Random(1)) == "red"
    assert bag == {"red": 1, "blue": 0}
    with pytest.raises(ValueError):
        manifest({"red": 0}, random.Random(1))


COLOURS = ["red", "blue", "green", "orange", "gray"]
bags = st.dictionaries(st.sampled_from(COLOURS), st.integers(0, 8)).filter(lambda b: sum(b.values()) > 0)


@given(bag=bags, seed=st.integers(0, 2**64))
def test_manifest_is_reproducible_and_leaves_the_bag_unchanged(bag, seed):
    before = dict(bag)
    first = manifest(bag, random.Random(seed))
    assert manifest(bag, random.Random(seed)) == first
    assert bag == before
    assert all(count >= 0 for count in bag.values())
    assert bag[first] > 0
    # The order the bag was written in does not change the draw.
    assert manifest(dict(reversed(list(bag.items()))), random.Random(seed)) == first


slot_sets = st.sets(st.integers(1, 12))


@st.composite
def boards(draw):
    slots = sorted(draw(slot_sets))
    board = []
    for slot in slots:
        is_minion = draw(st.booleans())
        if is_minion:
            board.append(Monster(MINION, "Minion", slot))
        else:
            board.append(Monster(f"Monster {slot}", draw(st.sampled_from(["Commander", "Gray", "White"])), slot))
    if draw(st.booleans()):
        board.append(Monster("Soul Harvester", "Overlord", None, boss=True))
    return board


@given(
    face=st.sampled_from("AB"),
    heroes=st.integers(1, 5),
    board=boards(),
    piles=st.lists(st.dictionaries(st.sampled_from(COLOURS), st.integers(0, 2)), max_size=3),
    rune=st.sampled_from(COLOURS),
)
def test_raid_properties(face, heroes, board, piles, rune):
    piles = [Pile(str(i), runes) for i, runes in enumerate(piles)]
    minions_before = sum(1 for m in board if m.name == MINION)
    result = resolve_raid(face=face, heroes=heroes, minion=MINION, piles=piles, rune=rune, board=board)
    # The face always alternates.
    assert result.next_face != result.face
    # Never more than the raid party, nor beyond 4 models or 12 tracks.
    assert result.placed <= raid_party_size(heroes)
    assert result.placed + result.failed in (0, raid_party_size(heroes))
    assert minions_before + result.placed <= max(4, minions_before)
    assert len([m for m in result.board if m.slot is not None]) <= 12
    assert len({m.slot for m in result.board if m.slot is not None}) == len(
        [m for m in result.board if m.slot is not None])
    assert len(result.activations) == result.failed
    assert (result.reason is None) == (result.placed > 0)
    if face == "A" and board:
        assert result.placed == 0 and result.rune is None
    if not piles:
        assert result.placed == 0 and result.rune is None


@given(
    face=st.sampled_from("AB"),
    heroes=st.integers(1, 5),
    monsters=st.integers(0, 12),
    models=st.integers(0, 4),
)
def test_untracked_raid_properties(face, heroes, monsters, models):
    result = resolve_raid(face=face, heroes=heroes, minion=MINION, piles=RED_PILE, rune="red",
                          monsters_on_board=monsters, minion_models_on_board=models)
    assert result.next_face == flip(face)
    assert result.placed <= min(raid_party_size(heroes), 12 - monsters, 4 - models)
    assert all(activation is None for activation in result.activations)

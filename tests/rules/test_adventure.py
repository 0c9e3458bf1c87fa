"""The play state of an adventure (rules/adventure.py): its moves and their invariants (the file
format: tests/store/test_adventure_file.py)."""

import random
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drunagor_log.errors import Refused
from drunagor_log.model.adventure import STATUS_BOARD_TRACKS, Monster, Pile, RaidCard
from drunagor_log.rules.adventure import (
    add_monster,
    add_pile,
    draw,
    draw_random,
    new_adventure,
    remove_monster,
    remove_pile,
    tie_breaker_runes,
    tiebreak,
)
from drunagor_log.rules.board import models_on_board
from drunagor_log.rules.raid import manifest, no_summon_reason, raid_party_size, resolve_raid
from drunagor_log.store.adventure import dumps, state_from

BAG = {"red": 7, "blue": 8, "green": 7, "orange": 7, "gray": 7}
COLOURS = tuple(BAG)
counts = st.fixed_dictionaries({c: st.integers(0, 9) for c in COLOURS})


def chapter05(heroes=4):
    return new_adventure(chapter="05", heroes=heroes, bag=BAG, stirring_darkness=6,
                         raid=RaidCard("Dreadful Raid", "A", ["Tidehunter"], "Minion", 4), log_text="start")


# ----------------------------------------------------------------------------------- the runes


def test_stirring_darkness_moves_runes_of_each_colour_to_the_track():
    state = chapter05()  # RB L1193: 6 of each colour
    assert state.bag == {"red": 1, "blue": 2, "green": 1, "orange": 1, "gray": 1}
    assert state.track == {c: 6 for c in COLOURS}
    assert state.raid.face == "A" and state.monsters == () and state.piles == ()


def test_stirring_darkness_needs_the_runes():
    with pytest.raises(Refused) as err:
        new_adventure(chapter="05", heroes=4, bag={"red": 5, "blue": 8}, stirring_darkness=6, raid=None, log_text="")
    assert err.value.message == "Stirring Darkness takes 6 runes of each colour, but the bag holds fewer red"


def test_darkness_nodes_pile_takes_one_of_each_colour_from_the_track():
    state, pile, missing = add_pile(chapter05())  # RB L1098
    assert pile == Pile("1", {c: 1 for c in COLOURS})
    assert state.track == {c: 5 for c in COLOURS}
    assert missing == ()
    state, pile, _ = add_pile(state)
    assert pile.id == "2"


def test_a_colour_missing_on_the_track_is_left_out_and_reported():
    state = chapter05().replace(track={"red": 1, "blue": 0, "green": 0, "orange": 0, "gray": 2})
    state, pile, missing = add_pile(state)
    assert pile.runes == {"red": 1, "gray": 1}
    assert missing == ("blue", "green", "orange")
    with pytest.raises(Refused) as err:
        add_pile(state.replace(track={c: 0 for c in COLOURS}))
    assert err.value.rule == "darkness-nodes (RB L1098)"


def test_an_explicit_pile_comes_from_the_track():
    state, pile, _ = add_pile(chapter05(), ["red", "red", "gray"])
    assert pile.runes == {"red": 2, "gray": 1}
    assert state.track["red"] == 4
    with pytest.raises(Refused) as err:
        add_pile(chapter05(), ["red"] * 7)
    assert err.value.message == "the Initiative Track holds 6 red runes, not the 7 this Pile needs"


@pytest.mark.parametrize("heroes, returned", [(1, 5), (2, 4), (3, 3), (4, 2), (5, 1)])
def test_tie_breaker_returns_six_minus_heroes(heroes, returned):
    assert tie_breaker_runes(heroes) == returned  # RB L1100


def test_tie_breaker_returns_the_chosen_runes_to_the_bag():
    state, _, _ = add_pile(chapter05())
    state, back, removed = tiebreak(state, "1", ["red", "gray"])
    assert back == {"red": 1, "gray": 1} and not removed
    assert state.piles == (Pile("1", {"blue": 1, "green": 1, "orange": 1}),)
    assert state.bag == {"red": 2, "blue": 2, "green": 1, "orange": 1, "gray": 2}


def test_tie_breaker_needs_the_party_s_choice_when_there_is_one():
    state, _, _ = add_pile(chapter05())
    with pytest.raises(Refused) as err:
        tiebreak(state, "1")
    assert err.value.message == ("Pile 1 holds 5 runes (red, blue, green, orange, gray); the Tie Breaker returns 2 "
                                 "of the party's choice (6 - 4 heroes)")
    with pytest.raises(Refused) as err:
        tiebreak(state, "1", ["red"])
    assert err.value.message == "the Tie Breaker returns 2 runes from Pile 1 (6 - 4 heroes), not 1"
    with pytest.raises(Refused) as err:
        tiebreak(state, "1", ["red", "red"])
    assert err.value.message == "Pile 1 holds 1 red (red, blue, green, orange, gray)"
    with pytest.raises(Refused):
        tiebreak(state, "7", ["red", "blue"])


def test_a_pile_emptied_by_the_tie_breaker_leaves_the_board():
    state, _, _ = add_pile(chapter05(heroes=3), ["red", "blue"])
    state, back, removed = tiebreak(state, "Pile 1")  # 3 due, 2 held: all of them, no choice needed
    assert removed and state.piles == () and back == {"red": 1, "blue": 1}
    with pytest.raises(Refused) as err:
        state2, _, _ = add_pile(chapter05(heroes=3), ["red", "blue"])
        tiebreak(state2, "1", ["red"])
    assert "and the Pile holds only 2" in err.value.message


def test_removing_a_pile_puts_its_runes_on_the_track():
    state, _, _ = add_pile(chapter05())
    state, gone = remove_pile(state, "1")  # RB L1147
    assert state.piles == () and state.track == {c: 6 for c in COLOURS}


def test_draws_move_runes_from_the_bag_to_the_track():
    state = draw(chapter05(), ["blue", "blue"])
    assert state.bag["blue"] == 0 and state.track["blue"] == 8
    with pytest.raises(Refused) as err:
        draw(state, ["blue"])
    assert err.value.message == "the rune bag holds no blue rune (red, green, orange, gray)"


@given(bag=counts, count=st.integers(0, 50), seed=st.integers(0, 2**32))
def test_a_random_draw_never_takes_more_than_the_bag_holds_and_replays(bag, count, seed):
    drawn = draw_random(bag, count, random.Random(seed))
    assert len(drawn) == min(count, sum(bag.values()))
    assert all(drawn.count(c) <= bag[c] for c in bag)
    assert drawn == draw_random(dict(reversed(list(bag.items()))), count, random.Random(seed))


# -------------------------------------------------------------------------------- the monsters


def test_monsters_take_the_status_board_slots_in_order_and_a_boss_none():
    state = chapter05()
    state, boss = add_monster(state, "Awakened King", None, boss=True)
    assert boss.slot is None
    for expected in range(1, 13):
        state, m = add_monster(state, "Gremlin Horde", "White")
        assert m.slot == expected  # RB L315: yellow (1) first
    with pytest.raises(Refused) as err:
        add_monster(state, "Gremlin Horde", "White")
    assert (err.value.rule, err.value.message) == (
        "status-board (RB L311)",
        "all 12 Health Tracks of the Monster Status board are taken: no new monster may be placed")
    state, _ = add_monster(state, "Another King", None, boss=True)  # a boss needs no track
    state, gone = remove_monster(state, 3)
    state, m = add_monster(state, "Fell Asteris", "Gray")
    assert m.slot == 3


def test_a_slot_can_be_chosen_once_and_models_are_limited():
    state, _ = add_monster(chapter05(), "Fell Asteris", "Gray", slot=4)
    with pytest.raises(Refused) as err:
        add_monster(state, "Gremlin Horde", "White", slot=4)
    assert err.value.message == "slot 4 (green) is taken by Fell Asteris"
    for _ in range(4):
        state, _ = add_monster(state, "Tidehunter", "Minion", model_limit=4)
    with pytest.raises(Refused) as err:
        add_monster(state, "Tidehunter", "Minion", model_limit=4)
    assert err.value.message == "all 4 models of Tidehunter are on the board"  # RB L311


def test_removing_by_name_needs_a_single_monster_of_that_name():
    state, _ = add_monster(chapter05(), "Tidehunter", "Minion")
    state, _ = add_monster(state, "Tidehunter", "Minion")
    state, _ = add_monster(state, "Fell Asteris", "Gray")
    with pytest.raises(Refused) as err:
        remove_monster(state, "tidehunter")
    assert err.value.message == "2 Tidehunter are on the board (slots 1, 2)"
    state, gone = remove_monster(state, "fell asteris")
    assert gone == Monster("Fell Asteris", "Gray", 3)
    with pytest.raises(Refused) as err:
        remove_monster(state, 9)
    assert err.value.message == "no monster holds slot 9 (light blue)"


def test_a_raid_may_summon_a_scenario_monster():
    # The Nightmare raid of chapter 02 summons a Scenario Monster card (RB L1102).
    result = resolve_raid(face="A", heroes=2, minion="Nightmare", piles=[Pile("1", {"red": 1})], rune="red",
                          board=[], minion_rank="Scenario")
    assert result.board == (Monster("Nightmare", "Scenario", 1),)


# ---------------------------------------------------------------------------- the invariants

moves = st.lists(st.tuples(st.sampled_from(["pile", "tiebreak", "draw", "raid", "add", "remove", "drop"]),
                           st.integers(0, 2**16)), max_size=40)


@settings(max_examples=150)
@given(heroes=st.integers(1, 5), steps=moves)
def test_a_whole_adventure_keeps_every_rune_and_the_rules(heroes, steps):
    """Whatever the table does: bag + track + Piles stay the rune bag, no count goes negative, the raid
    card alternates faces, a raid never places more minions than the party size, nor beyond 4 models or
    12 tracks."""
    state = chapter05(heroes)
    for move, n in steps:
        rng = random.Random(n)
        try:
            if move == "pile":
                state, _, _ = add_pile(state)
            elif move == "tiebreak" and state.piles:
                pile = state.piles[n % len(state.piles)]
                held = [c for c, k in pile.runes.items() for _ in range(k)]
                state, _, _ = tiebreak(state, pile.id, rng.sample(held, min(len(held), 6 - heroes)))
            elif move == "draw":
                state = draw(state, draw_random(state.bag, 1 + n % 3, rng))
            elif move == "add":
                state, _ = add_monster(state, "Fell Asteris", "Gray")
            elif move == "remove" and state.monsters:
                state, _ = remove_monster(state, state.monsters[n % len(state.monsters)].slot)
            elif move == "drop" and state.piles:
                state, _ = remove_pile(state, state.piles[0].id)
            elif move == "raid":
                face = state.raid.face
                before = state.monsters
                reason = no_summon_reason(face, monsters_on_board=len(before), piles=state.piles)
                rune = manifest(state.bag, rng) if reason is None and state.runes_in_bag() else None
                if reason is None and rune is None:
                    continue
                result = resolve_raid(face=face, heroes=heroes, minion="Tidehunter", piles=state.piles, rune=rune,
                                      board=before, models_limit=4)
                state = state.replace(monsters=result.board, raid=state.raid.with_face(result.next_face))
                assert state.raid.face != face
                assert result.placed + result.failed in (0, raid_party_size(heroes))
                assert result.placed <= raid_party_size(heroes)
                assert len([m for m in state.monsters if m.slot is not None]) <= STATUS_BOARD_TRACKS  # bosses hold none
                assert models_on_board(state.monsters, "Tidehunter") <= 4
                assert len(state.monsters) - len(before) == result.placed
        except Refused:
            pass
        assert state.totals() == BAG
        assert all(n >= 0 for n in [*state.bag.values(), *state.track.values()])
        assert state_from(tomllib.loads(dumps(state))) == state

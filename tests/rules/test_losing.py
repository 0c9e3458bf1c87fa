"""How an adventure is lost at the table (rules/losing.py): cubes over the limit, the chapters' own
counters, chapter 09's endings (each chapter's "Winning and Losing the Adventure", RB L1076-L1309); and
the raid and odds edge cases of issue 14 (an empty bag, a full board, every minion model out)."""

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drunagor_log.errors import Refused
from drunagor_log.model.adventure import Monster, Pile, RaidCard
from drunagor_log.rules.adventure import changed_fields, new_adventure
from drunagor_log.rules.losing import (
    BAPTISM_OF_FIRE,
    HERO_UNDONE,
    change_cubes,
    chapter_event,
    counters_at_start,
    counters_json,
    ending,
    ordinal,
    trauma_limit,
    trauma_rule,
)
from drunagor_log.rules.odds import summon_odds
from drunagor_log.rules.raid import no_room_reason, resolve_raid

BAG = {"red": 7, "blue": 8, "green": 7, "orange": 7, "gray": 7}


def start(chapter="05"):
    state = new_adventure(chapter=chapter, heroes=4, bag=BAG, stirring_darkness=None,
                          raid=RaidCard("Dreadful Raid", "A", ["Tidehunter"]), log_text="start")
    return state.replace(counters=counters_at_start(chapter))


# ------------------------------------------------------------------------------------ cubes


@pytest.mark.parametrize("limit, rule", [(0, "RB L1032"), (1, "RB L1026"), (2, "RB L1028")])
def test_a_hero_holds_the_trauma_limit_and_the_next_cube_defeats(limit, rule):
    state = start()
    for n in range(1, limit + 1):  # up to the limit: held, nothing lost
        state, lost = change_cubes(state, "Nyx", "trauma", 1, limit=limit, rule=trauma_rule(limit))
        assert (lost, state.cubes["Nyx"]["trauma"], state.lost) == (None, n, None)
    state, lost = change_cubes(state, "Nyx", "trauma", 1, limit=limit, rule=trauma_rule(limit))
    assert lost == f"Nyx receives a {ordinal(limit + 1)} Trauma Cube and is defeated: the adventure fails, {rule}"
    assert state.lost == lost


def test_a_skill_adds_to_the_trauma_limit():
    assert trauma_limit(1, 1) == 2 and trauma_rule(1, 1) == "RB L1030"
    state, lost = change_cubes(start(), "Nyx", "trauma", 2, limit=trauma_limit(1, 1), rule=trauma_rule(1, 1))
    assert lost is None
    state, lost = change_cubes(state, "Nyx", "trauma", 1, limit=2, rule="RB L1030")
    assert lost == "Nyx receives a 3rd Trauma Cube and is defeated: the adventure fails, RB L1030"


def test_several_cubes_at_once_name_the_cube_that_defeats():
    _, lost = change_cubes(start(), "Nyx", "curse", 7, limit=5, rule="RB L1203")
    assert lost == ("Nyx receives a 6th Curse Cube, more than the 5 their board holds, and is defeated: "
                    "the adventure fails, RB L1203")


def test_cubes_are_removed_but_never_below_zero_and_a_hero_with_none_is_left_out():
    state, _ = change_cubes(start(), "Nyx", "curse", 2, limit=5, rule="x")
    state, lost = change_cubes(state, "Nyx", "curse", -2, limit=None, rule="x")
    assert (lost, state.cubes) == (None, {})
    with pytest.raises(Refused) as err:
        change_cubes(state, "Nyx", "trauma", -1, limit=1, rule="x")
    assert (err.value.message, err.value.remedy) == ("Nyx holds no Trauma Cubes: there is none to remove", None)
    state, _ = change_cubes(state, "Nyx", "curse", 1, limit=5, rule="x")
    with pytest.raises(Refused) as err:
        change_cubes(state, "Nyx", "curse", -2, limit=5, rule="x")
    assert (err.value.message, err.value.remedy) == ("Nyx holds 1 Curse Cube: 2 cannot be removed", "remove at most 1")


def test_the_first_defeat_is_the_one_kept():
    state, first = change_cubes(start(), "Nyx", "trauma", 2, limit=1, rule="RB L1026")
    state, second = change_cubes(state, "Andreas", "trauma", 2, limit=1, rule="RB L1026")
    assert second.startswith("Andreas receives a 2nd") and state.lost == first


def test_ordinals():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]


# -------------------------------------------------------------------------- the chapters' own


def test_chapter_07_fails_when_the_last_of_3_barricade_tokens_goes():
    state = start("07")
    assert counters_json(state) == {"barricade": 3, "swan_hp_drawn": None, "endgame": None}
    for left in (2, 1):
        state, said, lost = chapter_event(state, "barricade")
        assert (said, lost) == (f"a Barricade token removed: {left} of 3 left (RB L1243)", None)
    state, said, lost = chapter_event(state, "barricade")
    assert lost == ("the last Barricade token is removed and the Seabreeze Tavern barricade is destroyed: the "
                    "adventure fails, RB L1243, L1251")
    with pytest.raises(Refused):
        chapter_event(state, "barricade")


def test_chapter_04_fails_on_the_last_pristine_swan_hp_card():
    state = start("04")
    state, said, lost = chapter_event(state, "swan-hp", deck=2)
    assert (said, lost) == ("Pristine Swan's HP card 1 of 2 drawn (RB L1177)", None)
    state, said, lost = chapter_event(state, "swan-hp", deck=2)
    assert lost == "the last Pristine Swan's HP card is drawn: the adventure fails, RB L1177"
    with pytest.raises(Refused):
        chapter_event(state, "swan-hp", deck=2)


def test_an_event_belongs_to_its_chapter():
    with pytest.raises(Refused) as err:
        chapter_event(start("05"), "barricade")
    assert err.value.message == "chapter 05 has no Barricade: it is chapter 07's (RB L1243)"
    assert err.value.remedy == "events of chapter 05: none"


def test_chapter_09_after_the_endgame_trigger_a_defeat_is_a_hero_undone():
    state = start("09")
    state, lost = change_cubes(state, "Nyx", "trauma", 2, limit=1, rule="RB L1026")
    assert lost.endswith("the adventure fails, RB L1026")  # before the trigger: a failure (RB L1305)
    assert ending("09", "lost", state) is None and ending("09", "won", state) == BAPTISM_OF_FIRE
    state = start("09")
    state, said, _ = chapter_event(state, "endgame")
    state, lost = change_cubes(state, "Nyx", "trauma", 2, limit=1, rule="RB L1026")
    assert lost == ('Nyx receives a 2nd Trauma Cube and is defeated: after the Endgame Trigger the party\'s defeat '
                    'ends the adventure with "A Hero Undone", not a failure (RB L1309)')
    assert ending("09", "lost", state) == HERO_UNDONE
    assert ending("08", "lost", state) is None and ending("05", "won", state) is None
    with pytest.raises(Refused):
        chapter_event(state, "endgame")


def test_an_event_says_which_fields_it_changed():
    state = start("07")
    after, _, _ = chapter_event(state, "barricade")
    assert changed_fields(state, after) == ("counters",)


# ---------------------------------------------------------------------- raid and odds edge cases


def test_a_raid_on_an_empty_bag_summons_nothing_and_flips_the_card():
    # Chapter 08 plays on with the bag empty (RB L1275); the card flips all the same (RB L286).
    result = resolve_raid(face="B", heroes=4, minion="Fell Woodman", piles=[Pile("1", {"red": 1})], rune=None,
                          board=[], runes_in_bag=0, minion_rank="Scenario")
    assert (result.placed, result.rune, result.next_face) == (0, None, "A")
    assert result.reason == "the rune bag is empty: no rune can be manifested"
    assert [s.rule for s in result.steps] == ["RB L285", "RB L292", "RB L301", "RB L286"]


FULL = [Monster(f"M{s}", "White", s) for s in range(1, 13)]
MINIONS_OUT = [Monster("Tidehunter", "Minion", s) for s in range(1, 5)]


@pytest.mark.parametrize("board, cause", [
    (FULL, "all 12 status-board tracks are taken"),
    (MINIONS_OUT, "all 4 models of Tidehunter are on the board"),
])
def test_odds_when_no_minion_can_be_placed(board, cause):
    piles = [Pile("1", {"red": 1, "blue": 1})]
    no_room = no_room_reason(board, "Tidehunter", 4)
    assert no_room == f"every minion would fail to be summoned: {cause}"
    odds = summon_odds(face="B", monsters_on_board=len(board), piles=piles, bag=BAG, no_room=no_room)
    assert (odds.chance, odds.try_chance, odds.reason) == (0, Fraction(15, 36), no_room)
    assert odds.as_json()["summon_probability"] == 0.0 and odds.as_json()["try_chance"] == "5/12"


boards = st.lists(st.tuples(st.sampled_from(["Tidehunter", "Fell Asteris"]), st.sampled_from(["Minion", "Gray"])),
                  max_size=12).map(lambda ms: [Monster(n, "Minion" if n == "Tidehunter" else "Gray", i + 1)
                                               for i, (n, _) in enumerate(ms)])


@given(board=boards, bag=st.fixed_dictionaries({c: st.integers(0, 3) for c in BAG}),
       held=st.sets(st.sampled_from(list(BAG)), max_size=3), face=st.sampled_from("AB"))
def test_odds_equal_an_enumeration_of_the_bag_through_the_raid(board, bag, held, face):
    """Each rune of the bag in turn, through resolve_raid: the share that tries, and that places a minion."""
    piles = [Pile("1", {c: 1 for c in held})] if held else []
    tidehunters = sum(m.name == "Tidehunter" for m in board)
    board = [m for m in board if m.name != "Tidehunter" or tidehunters <= 4]  # the box holds 4 (RB L311)
    odds = summon_odds(face=face, monsters_on_board=len(board), piles=piles, bag=bag,
                       no_room=no_room_reason(board, "Tidehunter", 4))
    runes = list(itertools.chain.from_iterable([c] * n for c, n in bag.items()))
    tries = places = 0
    for rune in runes:
        result = resolve_raid(face=face, heroes=4, minion="Tidehunter", piles=piles, rune=rune, board=board)
        tries += result.placed + result.failed > 0
        places += result.placed > 0
    assert odds.try_chance == (Fraction(tries, len(runes)) if runes else 0)
    assert odds.chance == (Fraction(places, len(runes)) if runes else 0)

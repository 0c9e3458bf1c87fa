"""Exact chance that the next Dreadful Raid summons (SPEC 8 `odds --json`)."""

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drunagor_log.model.adventure import Pile
from drunagor_log.rules.odds import summon_odds
from drunagor_log.rules.raid import manifest, resolve_raid

BAG = {"orange": 7, "blue": 8, "green": 7, "gray": 7, "red": 7}  # 36, the default bag


def test_chance_is_the_share_of_the_bag_held_by_the_piles():
    odds = summon_odds(face="B", monsters_on_board=3, piles=[Pile("1", {"red": 1, "gray": 1})], bag=BAG)
    assert odds.chance == Fraction(14, 36)
    assert odds.summon_chance == "7/18"
    assert odds.summon_probability == pytest.approx(14 / 36)
    assert odds.runes_in_bag == 36
    assert odds.by_colour == BAG
    assert odds.reason is None


def test_a_colour_in_two_piles_counts_once():
    piles = [Pile("1", {"red": 1}), Pile("2", {"red": 2})]
    assert summon_odds(face="A", monsters_on_board=0, piles=piles, bag=BAG).summon_chance == "7/36"


def test_face_a_with_monsters_never_summons():
    odds = summon_odds(face="A", monsters_on_board=True, piles=[Pile("1", {"red": 1})], bag=BAG)
    assert odds.summon_chance == "0/1"
    assert odds.summon_probability == 0.0
    assert odds.reason


def test_no_piles_never_summons_whatever_the_face():
    for face in "AB":
        assert summon_odds(face=face, monsters_on_board=0, piles=[], bag=BAG).chance == 0


def test_empty_bag():
    odds = summon_odds(face="B", monsters_on_board=0, piles=[Pile("1", {"red": 1})], bag={"red": 0})
    assert odds.chance == 0
    assert odds.runes_in_bag == 0


def test_json_contract_keys():
    odds = summon_odds(face="B", monsters_on_board=0, piles=[Pile("1", {"red": 1})], bag=BAG)
    assert set(odds.as_json()) >= {"summon_chance", "summon_probability", "runes_in_bag", "by_colour"}


COLOURS = ["red", "blue", "green", "orange", "gray"]
bags = st.dictionaries(st.sampled_from(COLOURS), st.integers(0, 6))
piles_st = st.lists(
    st.dictionaries(st.sampled_from(COLOURS), st.integers(0, 2)), max_size=3
).map(lambda ps: [Pile(str(i), runes) for i, runes in enumerate(ps)])


@given(face=st.sampled_from("AB"), monsters=st.integers(0, 12), piles=piles_st, bag=bags)
def test_odds_equal_an_exhaustive_enumeration_of_the_bag(face, monsters, piles, bag):
    odds = summon_odds(face=face, monsters_on_board=monsters, piles=piles, bag=bag)
    # Take every rune in the bag one by one and resolve the raid with it (untracked board).
    runes = list(itertools.chain.from_iterable([colour] * count for colour, count in bag.items()))
    if not runes:
        assert odds.chance == 0
        return
    summons = 0
    for rune in runes:
        result = resolve_raid(face=face, heroes=2, minion="Gremlin Horde", piles=piles, rune=rune,
                              monsters_on_board=min(monsters, 11))
        summons += result.placed > 0  # at most 11 monsters: a minion always fits when the raid tries
    assert odds.chance == Fraction(summons, len(runes))


@given(bag=bags.filter(lambda b: sum(b.values()) > 0), seed=st.integers(0, 2**32))
def test_manifest_draws_a_colour_in_the_bag_in_proportion(bag, seed):
    colour = manifest(bag, random.Random(seed))
    assert bag[colour] > 0

"""Miniatures more than one card plays (RB L311, L1102, L1171, L1199, L1271): the raid card's own monster
is no random Monster in its chapter, and the cards played with the same miniatures share their models."""

import pytest

from drunagor_log.errors import Refused
from drunagor_log.model.adventure import Monster
from drunagor_log.rules.battalion import resolve_battalion
from drunagor_log.rules.board import models_on_board
from drunagor_log.rules.miniatures import kin, miniature, not_random


def test_the_tidehunter_is_played_with_the_nagian_hunter_miniatures():
    assert miniature("Tidehunter") == "Nagian Hunter" and miniature("Nagian Hunter") == "Nagian Hunter"
    assert set(kin("Tidehunter")) == {"Nagian Hunter", "Hunter"}  # the catalog's `models` of each card
    assert "Tidehunter" in kin("Nagian Hunter")
    assert kin("Vile Spawn") == ()  # the catalog names no miniatures for it: nothing is guessed


def test_models_on_board_counts_the_kin():
    board = [Monster("Tidehunter", "Minion", 1), Monster("Nagian Hunter", "White", 2), Monster("Gremlin Horde",
                                                                                               "White", 3)]
    assert models_on_board(board, "Tidehunter") == 1
    assert models_on_board(board, "Tidehunter", kin("Tidehunter")) == 2


def test_a_battalion_counts_the_kin_against_the_limit():
    board = [Monster("Nagian Hunter", "White", 1), Monster("Nagian Hunter", "White", 2),
             Monster("Tidehunter", "Minion", 3)]
    names = ["Tidehunter", "Tidehunter"]
    assert resolve_battalion(names, board=board).placed == ("Tidehunter", "Tidehunter")  # by name: 3 of 4
    shared = resolve_battalion(names, board=board, kin={"Tidehunter": kin("Tidehunter")})
    assert (shared.placed, shared.not_placed) == (("Tidehunter",), ("Tidehunter",))  # the 4th miniature, then none


@pytest.mark.parametrize("chapter, name, rule", [("05", "Nagian Hunter", "RB L1199"), ("04", "Executioner", "RB L1171"),
                                                 ("02", "night stalker", "RB L1102"),
                                                 ("08", "Hellspawn Brute", "RB L1271")])
def test_a_raid_cards_miniatures_are_not_a_random_monster(chapter, name, rule):
    with pytest.raises(Refused) as exc:
        not_random(chapter, name)
    assert exc.value.rule == f"raid models ({rule})"


@pytest.mark.parametrize("chapter, name", [("05", "Tidehunter"), ("06", "Nagian Hunter"), ("07", "Vile Spawn"),
                                           ("02", "Nightmare")])
def test_the_raid_cards_own_minion_and_other_chapters_are_not_refused(chapter, name):
    assert not_random(chapter, name) is None

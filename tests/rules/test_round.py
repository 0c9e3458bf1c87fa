"""The end of the round (rules/round.py) and each chapter's own mechanics (rules/chapters.py), over plain
values: every number the chapter paragraphs give (RB L1060-1309), used as written."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drunagor_log.errors import Refused
from drunagor_log.rules import chapters
from drunagor_log.rules.adventure import new_adventure
from drunagor_log.rules.round import GROWING, NAVAL, due_runes, end_round, next_round_text, round_card

BAG = {"red": 7, "blue": 8, "green": 7, "orange": 7, "gray": 7}
STIRRING = {"01": 4, "02": 6, "03": 6, "04": 5, "05": 6, "06": 5, "07": None, "08": 5, "09": 6}


def start(chapter, heroes=4, bag=BAG):
    return new_adventure(chapter=chapter, heroes=heroes, bag=bag, stirring_darkness=STIRRING[chapter], raid=None,
                         log_text="start")


def steps(result):
    return [(s.number, s.title, s.rule, s.fact) for s in result.steps]


# ----------------------------------------------------------------------------- the cards


@pytest.mark.parametrize("chapter, card, source", [
    ("01", GROWING, "RB L1062"), ("02", GROWING, "RB L1090"), ("03", GROWING, "RB L1120"), ("04", NAVAL, "RB L1163"),
    ("05", GROWING, "RB L1187"), ("06", GROWING, "RB L1213"), ("07", "Siege of Everedge", "RB L1235"),
    ("08", GROWING, "RB L1259"), ("09", "Darkness Awakening", "RB L1285"),
])
def test_every_chapter_has_its_card_at_the_end_of_the_track(chapter, card, source):
    assert (round_card(chapter).name, round_card(chapter).source) == (card, source)


def test_growing_influence_draws_places_and_flips():
    result = end_round(start("02"), draws=2, drawn=["red", "gray"])
    assert steps(result) == [
        (1, "Draw the indicated number of Runes, one at a time", "RB L1090", "Face A draws 2: red, gray."),
        (2, "Place the drawn Runes on the Initiative Track", "RB L1090",
         "red, gray on the track; 4 runes left in the bag."),
        (3, "Flip the Rune card over", "RB L1090", "Face A -> face B."),
    ]
    state = result.state
    assert (state.bag["red"], state.track["red"], state.track["gray"]) == (0, 7, 7)
    assert (chapters.round_number(state), chapters.rune_face(state), result.next_face) == (2, "B", "B")
    again = end_round(state, draws=3, drawn=["blue", "blue", "green"])
    assert (again.round, again.face, chapters.rune_face(again.state), chapters.round_number(again.state)) == (
        2, "B", "A", 3)


def test_the_runes_drawn_must_be_the_faces_count():
    with pytest.raises(Refused, match="face A of the Growing Influence card draws 2 runes: 2 to draw, not 1"):
        end_round(start("05"), draws=2, drawn=["red"])
    with pytest.raises(Refused, match="how many runes face A of the Growing Influence card draws is not known"):
        end_round(start("05"), draws=None, drawn=[])
    with pytest.raises(Refused, match="the rune bag holds no red rune"):
        end_round(start("02").replace(bag={**BAG, "red": 0}), draws=1, drawn=["red"])


def test_the_last_rune_drawn_fails_the_adventure_where_the_chapter_says_so():
    state = start("01", bag={"red": 5, "blue": 4, "green": 4, "orange": 4, "gray": 4})  # 4 of each on the track
    assert due_runes(state, 3) == 1
    result = end_round(state, draws=3, drawn=["red"])
    assert result.steps[0].fact == "Face A draws 3, but the bag held only 1: red."
    assert result.lost == "the last rune in the bag is drawn: the adventure fails, RB L1076"
    assert result.state.lost == result.lost
    assert result.steps[1].fact.endswith("The last rune in the bag was drawn: the adventure fails (RB L1076).")
    assert len(result.steps) == 2 and result.state.counters == {}  # "fails immediately": no flip, no next round


def test_chapter_08_and_09_do_not_fail_on_the_last_rune():
    for chapter in ("08", "09"):
        state = start(chapter)
        state = state.replace(bag={c: (1 if c == "red" else 0) for c in BAG})
        result = end_round(state, draws=2, drawn=["red"])
        assert (result.lost, result.state.lost) == (None, None)
        assert "The bag is empty (chapter " + chapter + " does not fail on the last rune)." in result.steps[-2].fact \
            + result.steps[-1].fact


def test_naval_battle_advances_the_vessels_and_the_runes_effects_are_the_cards():
    result = end_round(start("04"), draws=1, drawn=["blue"])
    assert [s.title for s in result.steps] == [
        "Advance the vessels", "Draw the indicated number of Runes, one at a time", "Execute their respective effects",
        "Place the drawn Runes on the Initiative Track", "Flip the Rune card over"]
    assert {s.rule for s in result.steps} == {"RB L1163"}
    assert result.steps[2].fact == ("Each rune's effect is printed on the Naval Battle card (not transcribed in the "
                                    "book): resolve blue from the card.")


def test_darkness_awakening_names_each_runes_spawning_token_and_the_crush():
    result = end_round(start("09", heroes=3), draws=2, drawn=["green", "blue"])
    assert steps(result)[1:3] == [
        (2, "Resolve the effects on the card", "RB L1285",
         "green: a Chest or the green Darkness tile, as the card shows, at the green Spawning token; blue: a Chest or "
         "the blue Darkness tile, as the card shows, at the Spawning token the Party Leader chooses."),
        (3, "The Crush", "RB L1287", "A Darkness tile that should spawn while every Hero is on top of Darkness is "
         "skipped: all Heroes take 3 non-preventable damage (3 heroes)."),
    ]
    assert result.next_face == "A" and chapters.rune_face(result.state) == "A"  # RB L1285 does not say it flips
    assert result.steps[3].fact.endswith(" Placed as in chapter 01 (RB L1062); the card is not "
                                         "flipped: the book does not say to (RB L1285).")
    assert result.steps[3].rule == "RB L1062, L1285"


def test_the_siege_deck_draws_its_ten_cards_in_order():
    state = start("07")
    for n in range(1, 11):
        result = end_round(state)
        assert result.steps[0].fact.startswith(f"Card {n} of 10: resolve its effects") and result.siege_card == n
        state = result.state
    assert chapters.counters(state)["siege_cards_drawn"] == 10 and chapters.round_number(state) == 11
    spent = end_round(state)
    assert spent.steps[0].fact == "All 10 cards are drawn: the deck is spent (the book says no more)."
    assert spent.siege_card is None
    assert spent.state.bag == state.bag and spent.state.track == state.track
    with pytest.raises(Refused, match="the Siege of Everedge deck draws a card, not runes"):
        end_round(state, drawn=["red"])


def test_chapter_06_crumbling_ceiling_after_the_rune_card():
    result = end_round(start("06"), draws=1, drawn=["red"])
    assert steps(result)[-1] == (4, "Crumbling Ceiling", "RB L1223", "All Characters inside marked areas take 3 DMG; "
                                 "then remove all Special Mechanic tokens from the board.")


def test_chapter_01_special_event_token_leaves_with_its_cutscene():
    state = start("01")
    assert len(end_round(state, draws=1, drawn=["red"]).steps) == 3  # no token yet: no step
    placed = chapters.chapter_event(state, "special-event").state
    result = end_round(placed, draws=1, drawn=["red"])
    assert steps(result)[-1] == (4, "Remove the Special Event token", "RB L1074",
                                 "It leaves the Rune card: read \"Cutscene – Redecorating\" on page 34.")
    assert result.read == ("Cutscene – Redecorating",)
    assert chapters.counters(result.state)["special_event"] is False


def test_chapter_03_three_time_tokens_and_the_cutscene_of_the_last():
    state, facts = start("03"), []
    for _ in range(4):
        result = end_round(state, draws=0)
        facts.append((result.steps[-1].title, result.steps[-1].fact, result.read))
        state = result.state
    assert facts == [
        ("Remove a Time Token", "2 of 3 left on the Rune card.", ()),
        ("Remove a Time Token", "1 of 3 left on the Rune card.", ()),
        ("The Harvester's Hunt card replaces the Growing Influence card", "From now on the end of the round is the "
         "Soul Harvester's Harvester's Hunt Rune card, face A, until the end of the adventure.",
         ("Cutscene – Nightmare Come True",)),
        # none left: no step; the Harvester's Hunt card draws and does not flip (RB L1142-1144)
        ("The Soul Harvester's hunt", "No rune drawn: as the card says.", ()),
    ]
    assert result.card.name == "Harvester's Hunt" and result.next_face == "A"


def test_next_round_text():
    state = start("03")
    assert next_round_text(state, None) == ("At the end of round 1: the Growing Influence card, face A, draws its "
                                            "runes (how many: not recorded), then flips (RB L1120); a Time Token "
                                            "leaves, 2 left (RB L1134)")
    assert next_round_text(start("07"), None) == "At the end of round 1: card 1 of 10 of the Siege of Everedge deck " \
                                                 "(RB L1235)"
    assert next_round_text(start("06"), 2) == ("At the end of round 1: the Growing Influence card, face A, draws 2 "
                                               "runes, then flips (RB L1213); Crumbling Ceiling (RB L1223)")


@given(st.sampled_from(["01", "02", "03", "04", "05", "06", "08", "09"]), st.integers(0, 6), st.randoms())
def test_an_end_of_round_keeps_every_rune(chapter, draws, rng):
    from drunagor_log.rules.adventure import draw_random

    state = start(chapter)
    result = end_round(state, draws=draws, drawn=draw_random(state.bag, due_runes(state, draws), rng))
    assert result.state.totals() == state.totals()
    assert len(result.drawn) == min(draws, state.runes_in_bag())

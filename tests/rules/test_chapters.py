"""Each chapter's own counters, setup numbers and monster rule (rules/chapters.py, RB L1060-1309)."""

import pytest

from drunagor_log.errors import Refused
from drunagor_log.rules import chapters
from drunagor_log.rules.adventure import new_adventure

BAG = {"red": 7, "blue": 8, "green": 7, "orange": 7, "gray": 7}


def start(chapter, heroes=4):
    return new_adventure(chapter=chapter, heroes=heroes, bag=BAG, stirring_darkness=None, raid=None, log_text="start")


def event(state, name, count=1, **kw):
    return chapters.chapter_event(state, name, count, **kw)


# ------------------------------------------------------------------------------------- counters


@pytest.mark.parametrize("heroes, health", [(1, 40), (3, 120), (5, 200)])
def test_the_awakened_king_has_40_health_per_hero_and_loses_1_per_square(heroes, health):
    state = start("09", heroes)
    assert chapters.counters(state)["king_health"] == health  # RB L1299
    result = event(state, "king-health", 6)  # a Purge of 6 Darkness squares (RB L1295)
    assert result.text == (f"the Awakened King loses 6 Health: {health - 6} of {health} left (1 per Darkness square "
                           f"purged, RB L1295; 40 per hero, RB L1299)")
    last = event(result.state, "king-health", 500)
    assert chapters.counters(last.state)["king_health"] == 0
    assert last.text == (f"the Awakened King loses his last {health - 6} Health (500 dealt): 0 of {health} left (1 per "
                         "Darkness square purged, RB L1295; 40 per hero, RB L1299); he is defeated: read \"End of the "
                         "Adventure – Baptism of Fire\" on page 50 (RB L1309), then drunagor adventure end --won")
    assert last.read == "End of the Adventure – Baptism of Fire"
    with pytest.raises(Refused, match="the Awakened King has no Health left"):
        event(last.state, "king-health")


def test_chapter_09_two_time_tokens_on_the_desperation_attack_card():
    state = start("09")
    result = event(state, "desperation-time")
    assert result.text == "1 Time token off the Desperation Attack card: 1 of 2 left (RB L1301)"
    result = event(result.state, "desperation-time")
    assert result.text == ("1 Time token off the Desperation Attack card: 0 of 2 left (what follows is on the card; "
                           "the book's page 126 on is not transcribed) (RB L1301)")
    with pytest.raises(Refused, match="0 Time tokens on the Desperation Attack card: 1 cannot be removed"):
        event(result.state, "desperation-time")


def test_chapter_04_the_last_corrupted_vessel_hp_card_is_the_ending():
    state = start("04")
    with pytest.raises(Refused, match="how many HP cards the Corrupted Vessel's deck holds is not known"):
        event(state, "vessel-hp")
    result = event(state, "vessel-hp", 2, deck=3)
    assert (result.text, result.read) == ("Corrupted Vessel's HP cards drawn: 2 of 3 (RB L1179)", None)
    result = event(result.state, "vessel-hp", deck=3)
    assert result.text == ("Corrupted Vessel's HP card drawn: 3 of 3: the last one, the enemy vessel is destroyed: "
                           "read \"End of the Adventure – A Day For the Prey\" on page 76 (RB L1179)")
    assert result.read == "End of the Adventure – A Day For the Prey" and result.state.lost is None  # a win
    with pytest.raises(Refused, match="3 of the Corrupted Vessel's 3 HP cards are drawn: 1 more cannot be"):
        event(result.state, "vessel-hp", deck=3)


def test_chapter_05_resources_then_the_ending():
    state = start("05")
    state = event(state, "mending-rope").state
    with pytest.raises(Refused, match=r"the Spare Wood is collected once: the chapter has 1 \(RB L1205\)$"):
        event(state, "spare-wood", 2)
    result = event(state, "spare-wood")
    assert result.text == ("Spare Wood collected: 1 (RB L1205); the collecting Hero gains FOCUS 2 or CLEANSE 2 (RB "
                           "L1201); still to collect: Plenty of Provisions")
    with pytest.raises(Refused, match="the Spare Wood is collected once: the chapter has 1 \\(RB L1205\\), and it is "
                                      "collected already"):
        event(result.state, "spare-wood")
    result = event(result.state, "plenty-of-provisions")
    assert result.text == ("Plenty of Provisions collected: 1 (RB L1205); the collecting Hero gains FOCUS 2 or CLEANSE 2 "
                           "(RB L1201); all three collected: as soon as the last enemy is defeated, read \"End of the "
                           "Adventure – Mending Broken Wings\" on page 88 (RB L1205)")
    assert result.read == "End of the Adventure – Mending Broken Wings"


def test_chapter_01_special_event_token_once():
    placed = event(start("01"), "special-event")
    assert placed.text.startswith("the Special Event token placed on the Rune card: when the Initiative Marker reaches")
    with pytest.raises(Refused, match="the Special Event token is on the Rune card already"):
        event(placed.state, "special-event")
    with pytest.raises(Refused, match="one Special Event token"):
        event(start("01"), "special-event", 2)


@pytest.mark.parametrize("name, chapter", [("king-health", "09"), ("vessel-hp", "04"), ("spare-wood", "05"),
                                           ("special-event", "01"), ("desperation-time", "09")])
def test_a_counter_of_another_chapter_is_refused(name, chapter):
    with pytest.raises(Refused, match=f"chapter 06 has no .*: it is chapter {chapter}'s") as caught:
        event(start("06"), name)
    assert caught.value.remedy == "events of chapter 06: none"


def test_counters_json_is_null_where_the_chapter_has_none():
    assert chapters.counters_json(start("06")) == dict.fromkeys(chapters.COUNTER_KEYS)
    assert {k: v for k, v in chapters.counters_json(start("07")).items() if v is not None} == {
        "barricade": 3, "siege_cards_drawn": 0}


# ---------------------------------------------------------------------------------- Doom Clock


def test_chapter_02_doom_clock_names_the_cutscene_of_the_first_three_piles():
    state, said = start("02"), []
    for _ in range(4):
        state, text = chapters.pile_left_board(state)
        said.append(text)
    assert said == [
        "Doom Clock: the 1st Pile of Runes removed: at the end of the current Hero's turn, read \"Cutscene – Sound "
        "the Bells\" on page 44 (RB L1108)",
        "Doom Clock: the 2nd Pile of Runes removed: at the end of the current Hero's turn, read \"Cutscene – There's "
        "No End to Them\" on page 44 (RB L1109)",
        "Doom Clock: the 3rd Pile of Runes removed: at the end of the current Hero's turn, read \"Cutscene – Time for "
        "the Harvest\" on page 44 (RB L1110)",
        "Doom Clock: the 4th Pile of Runes removed; the book names a cutscene for the first 3 only (RB L1106-1110)",
    ]
    assert chapters.pile_left_board(start("05")) == (start("05"), None)


# ------------------------------------------------------------------------------ setup numbers


@pytest.mark.parametrize("heroes, markers", [(1, ["G1"]), (2, ["G1", "W2"]), (4, ["G1", "W2", "G3", "W4"]),
                                             (5, ["G1", "W2", "G3", "W4", "G5"])])
def test_setup_monsters_by_party_size(heroes, markers):
    for chapter, level in (("01", "Rookie"), ("08", "Champion")):  # RB L1080, L1279
        monsters = chapters.setup_monsters(chapter, heroes)
        assert monsters is not None
        assert [m.marker for m in monsters] == markers and {m.level for m in monsters} == {level}
    assert [m.monster for m in chapters.setup_monsters("01", 2) or ()] == ["Gray Monster", "White Monster"]
    assert chapters.setup_monsters("05", 4) is None


def test_crush_damage_is_the_number_of_heroes_in_chapter_09():
    assert [chapters.crush_damage("09", k) for k in (1, 3, 5)] == [1, 3, 5]  # RB L1287
    assert chapters.crush_damage("01", 4) is None


# ------------------------------------------------------------------------------ monster rule


def test_chapter_07_uses_only_its_scenario_monsters():
    for name in ("Vicious Mauler", "vile spawn", "Coiled Harridan"):
        chapters.check_monster("07", name)
    with pytest.raises(Refused) as caught:
        chapters.check_monster("07", "Gremlin Horde")
    assert caught.value.message == ("chapter 07 uses only its Scenario Monsters (RB L1245): Gremlin Horde is not one "
                                    "of them")
    assert caught.value.remedy == "the monsters of chapter 07: Vicious Mauler, Vile Spawn, Coiled Harridan"
    chapters.check_monster("05", "Gremlin Horde")  # no such rule elsewhere

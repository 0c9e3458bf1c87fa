"""The play state of an adventure (rules/adventure.py): its file format, its moves, its invariants."""

import random
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drunagor_log.rules.adventure import (
    AdventureState,
    RaidCard,
    Refused,
    StateError,
    add_monster,
    add_pile,
    draw,
    draw_random,
    dumps,
    line_of,
    new_adventure,
    record_rank,
    remove_monster,
    remove_pile,
    state_from,
    tie_breaker_runes,
    tiebreak,
    with_log,
)
from drunagor_log.rules.board import STATUS_BOARD_TRACKS, Monster, Pile, models_on_board
from drunagor_log.rules.raid import manifest, no_summon_reason, raid_party_size, resolve_raid

BAG = {"red": 7, "blue": 8, "green": 7, "orange": 7, "gray": 7}
COLOURS = tuple(BAG)


def chapter05(heroes=4):
    return new_adventure(chapter="05", heroes=heroes, bag=BAG, stirring_darkness=6,
                         raid=RaidCard("Dreadful Raid", "A", ["Tidehunter"], "Minion", 4), log_text="start")


# ------------------------------------------------------------------------------ the file format


def test_a_new_adventure_written_exactly():
    state = chapter05()
    assert dumps(state) == '''\
schema = 1
# The adventure under way: written by drunagor, not by hand (drunagor adventure show).
chapter = "05"
heroes = 4
bag = { red = 1, blue = 2, green = 1, orange = 1, gray = 1 }
track = { red = 6, blue = 6, green = 6, orange = 6, gray = 6 }
raid = { card = "Dreadful Raid", face = "A", minions = ["Tidehunter"], rank = "Minion", model_limit = 4 }
ranks = {}
piles = []
monsters = []
log = [
  { event = "start", text = "start" },
]
'''


def test_a_state_with_everything_written_exactly_one_entry_a_line():
    state = chapter05()
    state, _, _ = add_pile(state)
    state, _ = add_monster(state, "Awakened King", None, boss=True)
    state, _ = add_monster(state, "Gremlin Horde", "White")
    state, _ = add_monster(state, "Fell Asteris", "Gray", slot=5)
    state = record_rank(state, 'Odd "Thing"', "black")
    state = with_log(state, {"event": "draw", "runes": "red", "seed": 12, "physical": False, "text": "drew red"})
    text = dumps(state.replace(outcome="lost"))
    assert text == '''\
schema = 1
# A finished adventure, archived by `drunagor adventure end`: its draws, summons and seeds.
chapter = "05"
heroes = 4
outcome = "lost"
bag = { red = 1, blue = 2, green = 1, orange = 1, gray = 1 }
track = { red = 5, blue = 5, green = 5, orange = 5, gray = 5 }
raid = { card = "Dreadful Raid", face = "A", minions = ["Tidehunter"], rank = "Minion", model_limit = 4 }
ranks = { "Odd \\"Thing\\"" = "Black" }
piles = [
  { id = "1", runes = { red = 1, blue = 1, green = 1, orange = 1, gray = 1 } },
]
monsters = [
  { name = "Gremlin Horde", rank = "White", slot = 1 },
  { name = "Fell Asteris", rank = "Gray", slot = 5 },
  { name = "Awakened King", boss = true },
]
log = [
  { event = "start", text = "start" },
  { event = "draw", runes = "red", seed = 12, physical = false, text = "drew red" },
]
'''
    assert state_from(tomllib.loads(text)) == state.replace(outcome="lost")


names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=12).filter(
    lambda s: s.strip())
counts = st.fixed_dictionaries({c: st.integers(0, 9) for c in COLOURS})


@st.composite
def states(draw_):
    bag, track = draw_(counts), draw_(counts)
    piles = [Pile(str(i + 1), draw_(st.dictionaries(st.sampled_from(COLOURS), st.integers(1, 3), min_size=1)))
             for i in range(draw_(st.integers(0, 3)))]
    slots = draw_(st.lists(st.integers(1, 12), unique=True, max_size=12))
    monsters = [Monster(draw_(names), draw_(st.sampled_from(["Commander", "Gray", "White", "Minion"])), s)
                for s in slots]
    if draw_(st.booleans()):
        monsters.append(Monster(draw_(names), None, None, boss=True))
    raid = draw_(st.none() | st.builds(RaidCard, names, st.sampled_from("AB"), st.lists(names, min_size=1, max_size=2),
                                       st.sampled_from(["Minion", "Scenario"]), st.none() | st.integers(1, 6)))
    log = draw_(st.lists(st.dictionaries(st.sampled_from(["event", "text", "seed", "rune", "physical"]),
                                         names | st.integers(0, 10**6) | st.booleans()), max_size=4))
    return AdventureState(chapter=f"0{draw_(st.integers(1, 9))}", heroes=draw_(st.integers(1, 5)), bag=bag,
                          track=track, raid=raid, ranks=draw_(st.dictionaries(names, st.sampled_from(["Black", "Gray"]),
                                                                              max_size=2)),
                          piles=piles, monsters=monsters, log=log,
                          outcome=draw_(st.sampled_from([None, "won", "lost"])))


@given(state=states())
def test_the_file_is_valid_toml_that_reads_back_to_the_same_state(state):
    text = dumps(state)
    assert text.startswith("schema = 1\n")
    assert state_from(tomllib.loads(text)) == state
    assert dumps(state_from(tomllib.loads(text))) == text  # stable: same state, same bytes


def test_strings_that_need_escaping_round_trip():
    name = 'Quote " back \\ tab \t nl \n del \x7f bell \x07 é ✓'
    state, _ = add_monster(chapter05(), name, "Gray")
    data = tomllib.loads(dumps(state))
    assert data["monsters"][0]["name"] == name


@pytest.mark.parametrize("text, path, message", [
    ('chapter = "10"', ("chapter",), "`chapter` must be a chapter from \"01\" to \"09\", not '10'"),
    ('chapter = "05"\nheroes = 6', ("heroes",), "`heroes` must be a whole number from 1 to 5, not 6"),
    ('chapter = "05"\nheroes = 4', ("bag",), "`bag` is missing"),
    ('chapter = "05"\nheroes = 4\nbag = { red = -1 }', ("bag", "red"),
     "`bag.red` must be a rune count (0 or more), not -1"),
    ('chapter = "05"\nheroes = 4\nbag = {}\nraid = { card = "Dreadful Raid", face = "C", minions = ["X"] }',
     ("raid", "face"), "the raid card face must be \"A\" or \"B\", not 'C'"),
    ('chapter = "05"\nheroes = 4\nbag = {}\nmonsters = [{ name = "A", rank = "Gray", slot = 13 }]',
     ("monsters", 0, "slot"), "status-board slot must be 1-12, got 13"),
    ('chapter = "05"\nheroes = 4\nbag = {}\nmonsters = [{ name = "A", rank = "Gray", slot = 2 }, '
     '{ name = "B", rank = "White", slot = 2 }]', ("monsters", 1, "slot"), "B and A both hold slot 2 (dark blue)"),
    ('chapter = "05"\nheroes = 4\nbag = {}\nmonsters = [{ name = "A", rank = "Purple", slot = 2 }]',
     ("monsters", 0, "rank"), "unknown monster rank 'Purple': expected one of Overlord, Commander, Black, Gray, "
                              "White, Scenario, Minion"),
    ('chapter = "05"\nheroes = 4\nbag = {}\npiles = [{ id = "1", runes = { red = 1 } }, { id = "1", runes = {} }]',
     ("piles", 1, "id"), "two Piles of Runes have the id '1'"),
])
def test_a_file_of_the_wrong_shape_says_where_and_what(text, path, message):
    with pytest.raises(StateError) as err:
        state_from(tomllib.loads(text))
    assert (err.value.path, err.value.message) == (path, message)


def test_line_of_finds_the_entry_of_a_list():
    state, _ = add_monster(chapter05(), "Gremlin Horde", "White")
    state, _ = add_monster(state, "Fell Asteris", "Gray")
    text = dumps(state)
    lines = text.splitlines()
    assert lines[line_of(text, ("monsters", 1, "slot")) - 1] == '  { name = "Fell Asteris", rank = "Gray", slot = 2 },'
    assert lines[line_of(text, ("bag", "red")) - 1].startswith("bag = ")
    assert lines[line_of(text, ("chapter",)) - 1] == 'chapter = "05"'


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
                assert len(state.board_monsters()) <= STATUS_BOARD_TRACKS
                assert models_on_board(state.monsters, "Tidehunter") <= 4
                assert len(state.monsters) - len(before) == result.placed
        except Refused:
            pass
        assert state.totals() == BAG
        assert all(n >= 0 for n in [*state.bag.values(), *state.track.values()])
        assert state_from(tomllib.loads(dumps(state))) == state

"""adventure.toml, the file of the adventure under way (store/adventure.py): written exactly, read back
to the same state, and a file of the wrong shape said where and what."""

import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drunagor_log.errors import StateError
from drunagor_log.model.adventure import AdventureState, Monster, Pile, RaidCard
from drunagor_log.rules.adventure import add_monster, add_pile, record_rank, with_log
from drunagor_log.store import line_of
from drunagor_log.store.adventure import dumps, state_from
from tests.rules.test_adventure import COLOURS, chapter05, counts


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
    plain = names | st.integers(0, 10**6) | st.booleans()  # a fact drunagor knows has its shape: `rune` a colour
    log = draw_(st.lists(st.fixed_dictionaries({}, optional={"event": plain, "text": plain, "seed": plain,
                                                             "rune": st.sampled_from(COLOURS), "physical": plain}),
                         max_size=4))
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



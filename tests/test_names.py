"""The one name resolver (SPEC 9, "name resolution"): exact, then any case, then a source's alias,
then a unique beginning; otherwise refused with the closest name, exit 1 for a name of the game and 2
for a usage slip; a name nobody knows is kept only when the user says so."""

from __future__ import annotations

import pytest

from drunagor_log.errors import ExitCode, RuleError, UsageError
from drunagor_log.names import lookup, match, resolve, resolve_known

NAMES = ["Haunted", "Soft Heart", "Sweet Scent", "haunted house"]


def test_exact_comes_first():
    assert resolve("haunted house", NAMES, "status") == "haunted house"
    assert resolve("Haunted", NAMES, "status") == "Haunted"


def test_then_any_case_apostrophes_and_spaces_alike():
    assert resolve("HAUNTED", ["Haunted", "haunted"], "status") == "Haunted"  # first in any case, not a prefix
    assert resolve("  soft   heart ", NAMES, "status") == "Soft Heart"
    assert resolve("captain\u2019s brooch", ["Captain's Brooch"], "card") == "Captain's Brooch"
    # the rulebook's spelling, with a comma (RB L457: "the Follower Vorn, the Warrior")
    assert resolve_known("Vorn, the Warrior", "followers") == "Vorn the Warrior"


def test_then_an_alias_a_source_gives():
    assert resolve("vacren", ["Vacrem", "Vacremius"], "hero", aliases={"Vacren": "Vacrem"}) == "Vacrem"
    assert resolve_known("Vacren", "heroes") == "Vacrem"  # heroes.toml: the app's spelling
    assert resolve_known("3", "chapters") == "03"


def test_then_a_unique_beginning():
    assert resolve("sw", NAMES, "status") == "Sweet Scent"
    assert resolve("vacr", ["Vacrem"], "hero", aliases={"Vacren": "Vacrem"}) == "Vacrem"  # alias and name agree
    assert resolve_known("gra", "colours") == "gray"


def test_several_beginnings_are_a_usage_slip():
    with pytest.raises(UsageError) as e:
        resolve("s", NAMES, "status", game=True)
    assert e.value.render() == "'s' could be any of: Soft Heart, Sweet Scent; type more of the status's name"
    assert e.value.code == ExitCode.USAGE


def test_otherwise_refused_with_the_closest_name():
    with pytest.raises(RuleError) as e:  # a name of the game: exit 1
        resolve_known("Hauntd", "hero_statuses")
    assert e.value.render() == "no hero status called 'Hauntd'; did you mean 'Haunted'?"
    assert e.value.code == ExitCode.RULE
    with pytest.raises(RuleError) as e:  # a Dungeon Role is a name of the game too (docs/errors.md, "Names")
        resolve_known("Tank", "roles")
    assert e.value.render() == "no Dungeon Role called 'Tank'; known: Controller, Defender, Leader, Striker, Support"
    with pytest.raises(UsageError) as e:  # one of drunagor's own words: a usage slip, exit 2
        resolve("remve", ["add", "remove"], "action")
    assert e.value.render() == "no action called 'remve'; did you mean 'remove'?"
    with pytest.raises(RuleError) as e:
        resolve("Fireball", NAMES, "status", game=True, new_hint="add --new to record it")
    assert e.value.render() == ("no status called 'Fireball'; known: Haunted, Soft Heart, Sweet Scent, haunted house "
                                "(add --new to record it)")


def test_a_new_name_only_when_the_user_says_so_and_never_a_beginning():
    assert resolve("Soft", NAMES, "status", new=True) == "Soft"
    assert resolve("soft heart", NAMES, "status", new=True) == "Soft Heart"  # known: the catalog's spelling
    assert match("Soft", NAMES, prefix=False) is None
    with pytest.raises(UsageError):
        resolve("  ", NAMES, "status", new=True)


def test_lookup_keeps_its_messages():
    options = {"Andreas": 1, "Andrea": 2, "Nyx": 3}
    assert lookup("ny", options, "hero") == 3
    assert lookup("andrea", options, "hero") == 2
    with pytest.raises(UsageError) as e:
        lookup("and", options, "hero")
    assert e.value.render() == "'and' could be any of: Andrea, Andreas; type more of the hero's name"
    with pytest.raises(UsageError) as e:
        lookup("Nix", options, "hero")
    assert e.value.render() == "no hero called 'Nix'; did you mean 'Nyx'?"


@pytest.mark.parametrize("kind, typed, name", [
    ("followers", "minerva", "Minerva"), ("outcomes", "farew", "Farewell"), ("story_statuses", "imminent",
     "Imminent Danger"), ("auras", "taunt", "Taunt"), ("items", "twin", "Twin-Blades"),
    ("monsters", "Ox", "Ox"), ("classes", "warl", "Warlord"), ("trees", "Mel", "melee"),
])
def test_every_kind_of_name_resolves(kind, typed, name):
    assert resolve_known(typed, kind) == name


@pytest.mark.parametrize("name", ["CON", "Nul", "aux", "Prn", "COM1", "lpt9", "Nul."])
def test_a_name_windows_keeps_for_a_device_names_nothing(name):
    from drunagor_log.names import check_name

    with pytest.raises(UsageError, match="a name Windows keeps for a device") as caught:
        check_name(name, "hero")
    assert caught.value.code == ExitCode.USAGE


@pytest.mark.parametrize("name", ["Conan", "Con Artist", "Nullah", "Aux-Knight", "COM10", "Lpt 1"])
def test_names_that_only_begin_as_a_device_are_names(name):
    from drunagor_log.names import check_name

    assert check_name(name, "hero") == name

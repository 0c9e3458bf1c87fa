"""Every command that takes a name of the game, found in the command tree (not a hand list): the
parameters the commands declare with `cli.common.game(KIND)`. For each, on the example campaign, a
near miss of a name it knows is refused with "did you mean" naming it and a far miss is refused
without one, both exit 1 (docs/errors.md, "Names"), and nothing is written (SPEC 9 "name resolution",
SPEC 10 "names and exit codes")."""

from __future__ import annotations

import pytest
import typer.main

from drunagor_log.cli.app import app
from drunagor_log.cli.common import GameName
from tests.conftest import snapshot

FAR = "Qzxv Wyjk"

# A name each kind of parameter knows on the example campaign (after SETUP): the near miss is made
# from it. Keyed by the kind the command declares; `path` picks among the Story Record's lists.
KNOWN = {
    "hero of the game": "Nyx",
    "hero who left": "Vacrem",
    "Dungeon Role": "Controller",
    "class": "Assassin",
    "skill tree": "agility",
    "learned skill": "Agility 1",
    "learned Class Ability": "Assassin ability (chapter 03)",
    "learned skill or ability": "Agility 1",
    "card": "Leather Armor",
    "held card": "Leather Armor",
    "Starting Gear card": "Leather Armor",
    "Spoils card held": "Twin-Blades",
    "card recorded under [cards]": "Elixir of Doom",
    "card in the stash": "Potion of Healing",
    "chest card": "Scroll of Protection",
    "card in the deck": "Scroll of Incinerate",
    "Commander card": "Inferno",
    "Commander card in the deck": "Flame Swipe",
    "Aura": "Bastion",
    "hero status": "Haunted",
    "monster": "Gremlin Horde",
    "monster on the board": "Gremlin Horde",
    "rune colour": "orange",
    "chapter": "05",
}
STORY_LISTS = {  # Story Record lists: (a name to add, a name written on the example's record)
    "follower": ("Maya the Ranger", "Vorn the Warrior"),
    "outcome": ("Watcher", "Drinking Pal"),
    "status": ("Dark Past", "Imminent Danger"),
}
# The example campaign, made to hold what some kinds name: a hero who left, a recorded card, the stash.
SETUP = (("hero", "remove", "Vacrem"), ("card", "set", "Elixir of Doom", "--type", "potion", "--rarity", "rare",
                                        "--new"), ("stash", "add", "Potion of Healing"))
# Nyx holds what a held card names; her entries are what the learned kinds name.
HERO = "Nyx"
# Flags a command needs before it looks at the name (fact flags count: card set records a fact).
NEEDS = {"card set": ("--epic",), "hero learn": ("--level", "1"), "chapter skip": ("--force",),
         "hero set": ("--player", "Dana"), "spoils upgrade": ("--discard", "Leather Armor"),  # (the last one counts)
         "round end": ("--draws", "1")}
NEEDS_SET = {"level"}
WORDS = {"action": "add", "kind": "trauma", "delta": "+1"}  # arguments of drunagor's own words


def near(name: str) -> str:
    """One edit from `name` that is no beginning of it: two neighbours in its middle swapped."""
    i = len(name) // 2
    if name[i] == name[i - 1]:
        return name[:i] + name[i + 1:]
    return name[:i - 1] + name[i] + name[i - 1] + name[i + 1:]


def known(kind: str, path: str) -> str:
    if kind == "Story Record name":
        return STORY_LISTS[path.split()[0]][0]
    if kind == "name on the Story Record":
        return STORY_LISTS[path.split()[0]][1]
    return KNOWN[kind]


def commands():
    """(path, command) of every command of the tree."""
    def walk(cmd, path):
        subs = getattr(cmd, "commands", None)
        if subs:
            for name, sub in subs.items():
                yield from walk(sub, (*path, name))
        else:
            yield " ".join(path), cmd
    yield from walk(typer.main.get_command(app), ())


def named_params(cmd):
    return [p for p in cmd.params if isinstance(p.type, GameName)]


CASES = [(path, p.name) for path, cmd in commands() for p in named_params(cmd)]


def value(cmd, path: str, param) -> str:
    """The name a parameter is given when it is not the one tested (and the one a near miss is made of)."""
    if param.type.kind == "hero":  # Nyx, and Andreas as the second (hero give FROM TO)
        heroes = [p.name for p in cmd.params if isinstance(p.type, GameName) and p.type.kind == "hero"]
        return "Andreas" if heroes.index(param.name) else HERO
    return known(param.type.kind, path)


def _args(cmd, path: str, tested: str, typed: str) -> list[str]:
    """The command line with `typed` for the tested parameter and a known name for every other."""
    args: list[str] = path.split()
    options: list[str] = list(NEEDS.get(path, ()))
    for p in cmd.params:
        if p.name != tested and not p.required and not isinstance(p.type, GameName) or p.name in NEEDS_SET:
            continue
        if p.param_type_name == "argument":
            if p.name == tested:
                value_ = typed
            elif isinstance(p.type, GameName):
                value_ = value(cmd, path, p)
            else:
                value_ = WORDS.get(p.name, "Fresh Name")
            args.append(value_)
        elif p.name == tested:
            options += [p.opts[0], typed]
        elif p.required and isinstance(p.type, GameName):
            options += [p.opts[0], value(cmd, path, p)]
    return args + options


def test_the_tree_marks_the_names_the_issue_found():
    marked = {(path, name) for path, name in CASES}
    for case in [("follower add", "name"), ("outcome add", "name"), ("hero aura", "aura_"), ("hero show", "name"),
                 ("hero learn", "tree"), ("draw", "rune"), ("monster add", "name"), ("chest add", "card"),
                 ("hero gain", "item")]:
        assert case in marked
    assert len(CASES) > 50


# Text parameters that name nothing of the game: the campaign's own names, players, drunagor's words
# (an action, a fact flag's fixed values, a kind of cube, an event), numbers, references and paths;
# and skills and Class Abilities learned, which the catalog does not hold (written as on the card).
FREE = {
    ("new", "name"), ("new", "party"), ("party", "name"), ("tiebreak", "pile"), ("raid", "face"),
    ("battalion", "near"), ("battalion", "rank"), ("battalion", "models"), ("cube", "kind"), ("cube", "delta"), ("sheet", "format"),
    ("sheet", "out"), ("sync", "keep"), ("completion", "shell"), ("import", "token"), ("import", "name"),
    ("import", "role"), ("import", "player"), ("import", "cls"), ("import", "leader"), ("import", "completed"),
    ("import", "skipped"), ("import", "joined"), ("hero add", "player"), ("hero learn", "skill"),
    ("hero ability", "ability_"), ("hero relearn", "new"), ("hero gain", "kind"), ("hero gain", "quality"),
    ("hero status", "action"), ("hero set", "player"), ("hero return", "player"), ("chest add", "type_"),
    ("chest add", "rarity"), ("chest swap", "type_"), ("chest swap", "rarity"), ("commander add", "position"),
    ("commander swap", "position"), ("spoils upgrade", "to"), ("card set", "type_"), ("card set", "rarity"),
    ("card set", "position"), ("card set", "kind"), ("card forget", "fact"), ("adventure event", "name"),
    ("pile remove", "pile"), ("monster add", "rank"), ("monster add", "slot"), ("rules set", "difficulty"),
    ("rules set", "rune_bag"), ("rules cite", "line"),
    ("note add", "text"), ("note add", "by"), ("recap", "since"), ("recap", "fmt"),
}


def test_every_text_parameter_is_a_name_of_the_game_or_known_free_text():
    """A new parameter that takes text is either declared a name (`game(KIND)`) or added to FREE."""
    text = {(path, p.name) for path, cmd in commands() for p in cmd.params
            if type(p.type).__name__ == "StringParamType" and not isinstance(p.type, GameName)}
    assert text - FREE == set()


def test_every_command_that_records_a_name_has_new():
    recording = {path for path, cmd in commands() for p in named_params(cmd) if p.type.records}
    lacking = sorted(path for path, cmd in commands()
                     if path in recording and "new" not in {p.name for p in cmd.params})
    assert lacking == []
    assert {"hero gain", "chest add", "chest swap", "monster add", "battalion", "card set", "hero add",
            "follower add", "commander add"} <= recording


@pytest.fixture
def walked(example, run):
    for args in SETUP:
        r = run(*args)
        assert r.exit_code == 0, (args, r)
    return example


@pytest.mark.parametrize(("path", "tested"), CASES, ids=[f"{p}:{n}" for p, n in CASES])
def test_a_near_miss_says_did_you_mean_and_a_far_miss_does_not(walked, run, path, tested):
    cmd = dict(commands())[path]
    param = next(p for p in cmd.params if p.name == tested)
    meant = value(cmd, path, param)
    before = snapshot(walked)

    r = run(*_args(cmd, path, tested, near(meant)))
    assert r.exit_code == 1, r
    if param.type.kind == "chapter":  # a number: no "did you mean 05" for 50, the chapters instead
        assert "01 to 09" in r.stderr, r
    else:
        assert f"did you mean {meant!r}" in r.stderr, r
    assert snapshot(walked) == before

    r = run(*_args(cmd, path, tested, FAR))
    facts = bool(set(NEEDS.get(path, ())) & {"--epic"})
    if facts:  # a fact flag says a name far from every known one is new (SPEC 10)
        assert r.exit_code == 0, r
        return
    assert r.exit_code == 1, r
    assert "did you mean" not in r.stderr, r
    assert snapshot(walked) == before

"""Completion by what a parameter is, not by its name (issue 35.1): a name's kind (cli.common.game),
the words its metavar lists, or the command's own entry; a free name or a number completes nothing.
The walk covers every parameter of the tree, and the issue's cases are asked as a shell asks them."""

from __future__ import annotations

import functools

import pytest
import typer.main

from drunagor_log import catalog, model
from drunagor_log.campaign import Campaign
from drunagor_log.cli import completion
from drunagor_log.cli.app import build_app, command_typed
from drunagor_log.cli.common import GameName
from drunagor_log.rules.chapters import ALL_EVENTS
from drunagor_log.rules.commander import positions

# Text parameters that complete nothing: a name the user makes up, a player, a token, a path, a count
# with a sign, `NAME=RANK` and `NAME=N` pairs.
NOTHING = {
    ("", "campaign"), ("new", "name"), ("new", "party"), ("party", "name"), ("battalion", "rank"), ("battalion", "models"),
    ("cube", "delta"), ("sheet", "out"), ("import", "token"), ("import", "name"), ("import", "role"),
    ("import", "player"), ("import", "cls"), ("import", "completed"), ("import", "skipped"), ("import", "joined"),
    ("hero add", "player"), ("hero learn", "skill"), ("hero ability", "ability_"), ("hero relearn", "new"),
    ("hero set", "player"), ("hero return", "player"), ("monster add", "rank"), ("monster add", "slot"),
    ("rules set", "rune_bag"), ("rules cite", "line"),
    ("note add", "text"), ("note add", "by"), ("recap", "since"),  # the party's own words, a commit, a date
}
STORY_LISTS = {"follower": ("followers", "followers"), "outcome": ("outcomes", "outcomes"),
               "status": ("story_statuses", "statuses")}


@functools.cache
def tree():
    """The whole command tree with its completers attached, built once for the module (Typer builds
    it anew on every get_command, ~50 ms; attach leaves a parameter that has its completer as it is)."""
    cmd = typer.main.get_command(build_app())
    completion.attach(cmd)
    return cmd


def params():
    def walk(cmd, path):
        for p in cmd.params:
            if p.name != "help" and not getattr(p, "is_flag", False):
                yield " ".join(path), p
        for name, sub in getattr(cmd, "commands", {}).items():
            yield from walk(sub, (*path, name))
    yield from walk(tree(), ())


def universe(path: str, param) -> set[str] | None:
    """Every value the parameter's kind has on the example campaign, read from the catalog and the
    campaign (not through completion)."""
    from drunagor_log.rules.spoils import disposable, upgradable

    with Campaign(completion_root()) as c:
        heroes = {h.name for h in c.active_heroes().values()}
        nyx = c.find_hero("Nyx")[1]
        kinds = {
            "hero": heroes, "hero of the game": {h.name for h in catalog.heroes()} - heroes,
            "hero who left": {h.name for h in c.heroes.values() if h.retired},
            "Dungeon Role": set(catalog.ROLES), "class": {k for h in catalog.heroes() for k in h.classes},
            "skill tree": set(model.TREES), "learned skill": {s.name for s in nyx.skills},
            "learned Class Ability": set(nyx.class_abilities),
            "learned skill or ability": {s.name for s in nyx.skills} | set(nyx.class_abilities),
            "held card": {e.name for e in nyx.equipment}, "Spoils card held": {e.name for e in nyx.equipment},
            "card": ({x["name"] for x in catalog.chest_cards()} | {x["name"] for x in catalog.spoils_items()}
                     | set(catalog.starting_gear()) | set(c.story.cards)),
            "Starting Gear card": set(catalog.starting_gear()), "card recorded under [cards]": set(c.story.cards),
            "card in the stash": set(c.story.stash), "chest card": {x["name"] for x in catalog.chest_cards()},
            "card in the deck": {x.name for x in c.story.chest_cards},
            "Commander card": {x["name"] for x in catalog.commander_cards()},
            "Commander card in the deck": set(c.story.commander),
            "Aura": set(catalog.names("auras")), "hero status": set(catalog.names("hero_statuses")),
            "monster": {m["name"] for m in catalog.monsters()}, "rune colour": set(completion.COLOURS),
            "chapter": set(model.CHAPTERS),
        }
        group = (path.split() or [""])[0]
        if group in STORY_LISTS:
            kinds["Story Record name"] = set(catalog.names(STORY_LISTS[group][0]))
            kinds["name on the Story Record"] = set(getattr(c.story, STORY_LISTS[group][1]))
        f = c.adventure_file
        board = f.data.get("monsters") or []
        kinds["monster on the board"] = {m["name"] for m in board} | {str(m["slot"]) for m in board if m.get("slot")}
        piles = {f"pile-{p['id']}" for p in f.data.get("piles") or []}
        cards = c.story.cards
    own = {
        ("adventure event", "name"): {n for n, (ch, _) in ALL_EVENTS.items() if ch == "05"},
        ("tiebreak", "pile"): piles, ("pile remove", "pile"): piles, ("battalion", "near"): piles,
        ("tiebreak", "runes"): set(completion.COLOURS),  # no Pile named: every colour
        ("spoils upgrade", "item"): set(upgradable(nyx)),  # Spoils below Ultimate
        ("spoils upgrade", "discard"): set(disposable(nyx, None, cards)),  # Nyx's bag holds none: nothing
        ("raid", "face"): {"A", "B"}, ("completion", "shell"): {"bash", "zsh", "fish"},
        ("hero gain", "kind"): set(model.EQUIPMENT_KINDS), ("card set", "kind"): set(model.EQUIPMENT_KINDS),
        ("hero gain", "quality"): set(model.QUALITIES),
        ("card forget", "fact"): {"type", "rarity", "epic", "position", "kind"},
        ("commander add", "position"): set(positions()), ("commander swap", "position"): set(positions()),
        ("card set", "position"): set(positions()), ("import", "leader"): {h.name for h in catalog.heroes()},
    }
    if (path, param.name) in own:
        return own[(path, param.name)]
    if isinstance(param.type, GameName):
        return kinds[param.type.kind]
    if isinstance(param.metavar, str) and completion.WORDS.fullmatch(param.metavar):
        return set(param.metavar.split("|"))
    return None


ROOT: list = []


def completion_root():
    return ROOT[0]


@pytest.fixture
def on_example(example):
    ROOT[:] = [example]
    yield example
    ROOT.clear()


def offered(example, path: str, param) -> list[str]:
    """What the completer of `param` offers for nothing typed, Nyx being the hero named before it."""
    cmd = tree()
    for word in path.split():
        cmd = cmd.commands[word]
    target = next(p for p in cmd.params if p.name == param.name)
    ctx = cmd.make_context(path.split()[-1] if path else "drunagor", [], resilient_parsing=True)
    ctx.params.update(name="Nyx", hero="Nyx", giver="Nyx")
    root = ctx.find_root()
    root.params["campaign"] = str(example)
    return [item.value for item in target.shell_complete(ctx, "")]


CASES = list(params())


@pytest.mark.parametrize(("path", "param"), CASES, ids=[f"{p or 'drunagor'}:{q.name}" for p, q in CASES])
def test_every_parameter_completes_its_own_kind(on_example, path, param):
    kind = universe(path, param)
    values = completion.values_of(path, param)
    if kind is None:  # a number, a path, or a free text: nothing offered, whatever its name
        assert values is None
        assert type(param.type).__name__ != "StringParamType" or (path, param.name) in NOTHING
        return
    assert values is not None
    got = offered(on_example, path, param)
    assert set(got) <= kind, set(got) - kind
    if kind:
        assert got, "nothing offered"


def ask(example, typed: str) -> list[str]:
    words = ["-C", str(example), *typed.split()]
    incomplete = "" if typed.endswith(" ") else words.pop()
    # the typed command's whole group (app_for leaves a group only the subcommand typed, for the rest of
    # a process that answers one request; this one goes on to other tests)
    return [v for v, _ in completion._candidates(build_app(command_typed(words)), words, incomplete)]


@pytest.mark.parametrize(("typed", "expected"), [
    ("cube Nyx ", ["trauma", "curse"]),  # offered card kinds and inserted `starting`
    ("adventure event ", ["mending-rope", "plenty-of-provisions", "spare-wood"]),  # chapter 05's; offered heroes
    ("spoils upgrade Nyx Twin-Blades --to ", ["improved", "ultimate"]),  # offered heroes
    ("import token.txt --name ", []),  # a free name; offered heroes
    ("raid --monsters ", []),  # a number; offered monster names
    ("history --n ", []),  # a count; offered chapters
    ("tiebreak --runes red,gr", ["red,green", "red,gray"]),  # a list completes after its comma
    ("raid --piles red+bl", ["red+blue"]),
    ("sync --keep ", ["mine", "theirs"]),
    ("rules set --difficulty ", ["easy", "normal", "hard"]),
])
def test_the_issues_cases_as_a_shell_asks(example, typed, expected):
    assert ask(example, typed) == expected


def test_chest_swap_offers_the_deck_for_the_card_taken_out(example):
    with Campaign(example) as c:
        deck = {x.name for x in c.story.chest_cards}
    got = ask(example, "chest swap ")
    assert got and set(got) <= deck
    assert set(ask(example, "chest swap Potion ")) - deck  # the card put in: any chest card

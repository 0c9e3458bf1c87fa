"""Shell completion (SPEC section 9): `drunagor completion bash|zsh|fish` prints the script, and a
completion request (the shell runs `drunagor` with `_DRUNAGOR_COMPLETE` set to its name) answers
with commands, options, and the names a player would type next: heroes of the campaign, the cards a
hero holds, monsters on the board, chapters, rune colours, and the catalog's names. How the words
and the candidates travel between drunagor and the shell, as data only, is in completion_shells.

The values come from what a parameter is, not from its name: the kind of name it declares
(cli.common.game), the words its metavar lists (`trauma|curse`), or the command's own entry where
neither says it; a free name or a number completes nothing. They are attached to the built command
tree at completion time only: the command modules stay as they are, and a normal run pays nothing
for completion. One asker (`ask`) serves the shell's request and the table session alike. Like every command, a request
builds only the command being typed. A completer that fails (no campaign here, a broken file)
offers nothing: completion never prints an error into the shell.

Why not Typer's own completion (0.28, compared in December 2026, issue 40): the candidates are asked
through Click's own machinery (`ShellComplete`), but the scripts Typer installs (its
_completion_shared.py) run zsh's answer through `eval $(...)` and take bash's as `COMPREPLY=( $(...) )`
(word-split and glob-expanded) from `COMP_WORDS` joined on spaces: a candidate read from a stranger's
campaign file would be code to zsh and several words or a file pattern to bash. Hence
completion_shells, where a candidate is data only.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from typing import Any

from .completion_shells import COMPLETE_VAR

SHELLS = ("bash", "zsh", "fish")
COLOURS = ("red", "blue", "green", "orange", "gray")
CHAPTERS = tuple(f"{n:02d}" for n in range(1, 10))
STALE = ("drunagor: this shell loaded the completion script of an older drunagor; load it again "
         "(see `drunagor completion --help`)\n")


def script(shell: str) -> str:
    """The completion script of `shell`, to source from the shell's start-up file."""
    from .completion_shells import SCRIPTS

    return SCRIPTS[shell]


def _request():
    """The shell's request (see completion_shells), or None when it is not one this drunagor reads."""
    import sys

    from .completion_shells import request

    shell = os.environ.get(COMPLETE_VAR, "")
    return shell, request(shell, sys.argv[1:]) if shell in SHELLS else None


def run(app_for: Callable[[list[str]], Any]) -> None:
    """Answer one completion request: build only the typed command, attach the value completers,
    let Click find what the cursor's word may be, and print the candidates for the shell."""
    import sys

    shell, req = _request()
    if req is None:
        if shell.startswith("complete_"):  # the script Typer wrote for an older drunagor
            sys.stderr.write(STALE)
        return
    try:  # the app a normal run of the words typed builds (a group's subcommands all while one is typed)
        items = _candidates(app_for(req.args), req.args, req.incomplete)
    except Exception:  # completion never shows an error in the shell
        items = []
    from .completion_shells import answer

    sys.stdout.write(answer(shell, req, items))


def _candidates(app: Any, args: list[str], incomplete: str) -> list[tuple[str, str]]:
    """(value, help) of every candidate for the word `incomplete` after `args`, as whole words."""
    import typer

    items = ask(typer.main.get_command(app), list(args), incomplete)
    # `--rune=r`: Click completes the value; the shell replaces the whole word
    head = incomplete.partition("=")[0] + "=" if incomplete.startswith("-") and "=" in incomplete else ""
    return [(head + value, help_text) for value, help_text in items]


def ask(cmd: Any, args: list[str], incomplete: str) -> list[tuple[str, str]]:
    """(value, help) of Click's candidates for the word `incomplete` after `args` in the command tree
    `cmd` (its completers attached once): the one question the shell's request and the table session
    ask. Click's ShellComplete.get_completions is shared by every shell's class; the shell-facing parts
    (its script, its output format) are never used here."""
    from .click import ShellComplete

    class Words(ShellComplete):
        name = "words"
        source_template = ""

        def source_vars(self) -> dict[str, Any]:
            return {}

        def get_completion_args(self) -> tuple[list[str], str]:
            return args, incomplete

        def format_completion(self, item: Any) -> str:
            return str(item.value)

    if not getattr(cmd, "_drunagor_attached", False):
        attach(cmd)
        cmd._drunagor_attached = True
    items = Words(cmd, {}, "drunagor", COMPLETE_VAR).get_completions(list(args), incomplete)
    return [(str(i.value), str(i.help or "")) for i in items if i.type == "plain"]


# ------------------------------------------------------------------------------ the values


def _campaign(ctx: Any):
    from ..campaign import Campaign, find_campaign
    from .common import options

    return Campaign(find_campaign(options(ctx).campaign))


def _heroes(ctx: Any) -> list[str]:
    with _campaign(ctx) as c:
        return [h.name for h in c.active_heroes().values()]


def _typed(ctx: Any, *names: str) -> str | None:
    """The value typed earlier on the line for the first of `names` the command has: Click's parsed one,
    else the positional word (Click leaves the words unparsed while an option awaits its value)."""
    for name in names:
        if ctx.params.get(name):
            return str(ctx.params[name])
    arguments = [p.name for p in getattr(ctx.command, "params", ()) if getattr(p, "param_type_name", "") == "argument"]
    valued = {o for p in getattr(ctx.command, "params", ()) if getattr(p, "param_type_name", "") == "option"
              and not getattr(p, "is_flag", False) for o in p.opts}
    words, skip = [], False
    for word in ctx.args:
        if skip or word.startswith("-"):
            skip = not skip and word in valued  # `--to improved`: the option's value is no positional word
            continue
        words.append(word)
    for name in names:
        if name in arguments and arguments.index(name) < len(words):
            return words[arguments.index(name)]
    return None


def _held(ctx: Any) -> list[str]:
    """The cards the hero named earlier on the line holds."""
    hero = _typed(ctx, "name", "hero", "giver")
    if not hero:
        return []
    with _campaign(ctx) as c:
        _, h = c.hero(hero, present=False)
        return [e.name for e in h.equipment]


def _upgradable(ctx: Any) -> list[str]:
    """`spoils upgrade HERO <Tab>`: the hero's Spoils cards below Ultimate."""
    from ..rules.spoils import upgradable

    with _campaign(ctx) as c:
        _, h = c.hero(_typed(ctx, "hero") or "", present=False)
        return upgradable(h)


def _disposable(ctx: Any) -> list[str]:
    """`spoils upgrade HERO ITEM --discard <Tab>`: the cards of the bag that may be disposed of."""
    from ..rules.spoils import disposable

    with _campaign(ctx) as c:
        _, h = c.hero(_typed(ctx, "hero") or "", present=False)
        return disposable(h, _typed(ctx, "item"), c.story.cards)


def _pile_colours(ctx: Any) -> list[str]:
    """`tiebreak PILE --runes <Tab>`: the colours the Pile holds (every colour while no Pile is named)."""
    from ..model.adventure import pile_key

    typed = _typed(ctx, "pile")
    with _campaign(ctx) as c:
        f = c.adventure_file
        piles = (f.data.get("piles") if f is not None else None) or []
    for p in piles:
        if typed and isinstance(p, dict) and str(p.get("id")) == pile_key(typed):
            return [colour for colour in COLOURS if (p.get("runes") or {}).get(colour)]
    return list(COLOURS)


def _retired(ctx: Any) -> list[str]:
    with _campaign(ctx) as c:
        return [h.name for h in c.heroes.values() if h.retired]


def _learned(*keys: str) -> Callable[[Any], list[str]]:
    """The skills and/or Class Abilities of the hero named earlier on the line."""
    def values(ctx: Any) -> list[str]:
        with _campaign(ctx) as c:
            _, h = c.hero(ctx.params.get("name") or "", present=False)
            return ([s.name for s in h.skills] if "skills" in keys else []) + \
                (list(h.class_abilities) if "class_abilities" in keys else [])
    return values


def _story_list(key: str) -> Callable[[Any], list[str]]:
    def values(ctx: Any) -> list[str]:
        with _campaign(ctx) as c:
            return list(getattr(c.story, key))
    return values


def _catalog_names(kind: str) -> Callable[[Any], Iterable[str]]:
    def values(ctx: Any) -> Iterable[str]:
        from .. import catalog

        return catalog.names(kind)
    return values


def _items(ctx: Any) -> list[str]:
    from .. import catalog

    out = [c["name"] for c in catalog.chest_cards() if not c.get("retired")]
    out += [s["name"] for s in catalog.spoils_items()]
    out += list(catalog.starting_gear())
    try:
        with _campaign(ctx) as c:
            out += list((c.story_file.data.get("cards") or {}).keys())
    except Exception:  # no campaign here: the catalog alone
        pass
    return out


def _chest_cards(ctx: Any) -> list[str]:
    """The cards `chest add` and `chest swap` take: Potions and Scrolls, not the Epic Rare pair (fixed, RB L345)."""
    from .. import catalog

    return [c["name"] for c in catalog.chest_cards() if not c.get("retired") and c.get("rarity") != "epic rare"]


def _deck(ctx: Any) -> list[str]:
    with _campaign(ctx) as c:
        return [x.name for x in c.story.chest_cards]


def _recorded_cards(ctx: Any) -> list[str]:
    with _campaign(ctx) as c:
        return list(c.story.cards)


def _positions(ctx: Any) -> Iterable[str]:
    from ..rules.commander import positions

    return positions()


def _monsters(ctx: Any) -> list[str]:
    from .. import catalog

    return [m["name"] for m in catalog.monsters()]


def _on_board(ctx: Any) -> list[str]:
    with _campaign(ctx) as c:
        f = c.adventure_file
        monsters = (f.data.get("monsters") if f is not None else None) or []
        names = {str(m["name"]) for m in monsters if isinstance(m, dict) and m.get("name")}
        return sorted(names) + [str(m["slot"]) for m in monsters if isinstance(m, dict) and m.get("slot")]


def _piles(ctx: Any) -> list[str]:
    from ..model.adventure import pile_word

    with _campaign(ctx) as c:
        f = c.adventure_file
        piles = (f.data.get("piles") if f is not None else None) or []
        return [pile_word(str(p["id"])) for p in piles if isinstance(p, dict) and p.get("id") is not None]


def _fixed(*values: str) -> Callable[[Any], Iterable[str]]:
    return lambda ctx: values


def _roles(ctx: Any) -> Iterable[str]:
    from .. import catalog

    return catalog.ROLES


def _classes(ctx: Any) -> list[str]:
    from .. import catalog

    return [c for h in catalog.heroes() for c in h.classes]


def _model(name: str) -> Callable[[Any], Iterable[str]]:
    def values(ctx: Any) -> Iterable[str]:
        from .. import model

        return getattr(model, name)
    return values


def _game_heroes(ctx: Any) -> list[str]:
    """The heroes of the game not in the party yet (`hero add`)."""
    from .. import catalog

    try:
        party = {name.casefold() for name in _heroes(ctx)}
    except Exception:  # no campaign here: every hero of the game
        party = set()
    return [h.name for h in catalog.heroes() if h.name.casefold() not in party]


def _all_heroes(ctx: Any) -> list[str]:
    from .. import catalog

    return [h.name for h in catalog.heroes()]


def _commander_cards(ctx: Any) -> list[str]:
    from .. import catalog

    return [c["name"] for c in catalog.commander_cards()]


def _starting_gear(ctx: Any) -> Iterable[str]:
    from .. import catalog

    return catalog.starting_gear()


def _chapter_events(ctx: Any) -> list[str]:
    """The counters of the chapter under way (all of them when no adventure is)."""
    from ..rules.chapters import ALL_EVENTS

    try:
        with _campaign(ctx) as c:
            f = c.adventure_file
            chapter = f.data.get("chapter") if f is not None else None
    except Exception:  # no campaign here
        chapter = None
    return [name for name, (ch, _) in ALL_EVENTS.items() if chapter in (None, ch)]


# What each kind of name (the kind a parameter declares with cli.common.game) completes with.
BY_KIND: dict[str, Callable[[Any], Iterable[str]]] = {
    "hero": _heroes, "hero of the game": _game_heroes, "hero who left": _retired,
    "Dungeon Role": _roles, "class": _classes, "skill tree": _model("TREES"),
    "learned skill": _learned("skills"), "learned Class Ability": _learned("class_abilities"),
    "learned skill or ability": _learned("skills", "class_abilities"),
    "card": _items, "held card": _held, "Spoils card held": _held, "Starting Gear card": _starting_gear,
    "card recorded under [cards]": _recorded_cards, "card in the stash": _story_list("stash"),
    "chest card": _chest_cards, "card in the deck": _deck,
    "Commander card": _commander_cards, "Commander card in the deck": _story_list("commander"),
    "Aura": _catalog_names("auras"), "hero status": _catalog_names("hero_statuses"),
    "monster": _monsters, "monster on the board": _on_board,
    "rune colour": _fixed(*COLOURS), "chapter": _fixed(*CHAPTERS),
}
# Where the kind alone does not say it (a Story Record list is the group's), and drunagor's own words
# that no metavar lists: (command path, parameter).
BY_COMMAND: dict[tuple[str, str], Callable[[Any], Iterable[str]]] = {
    ("follower add", "name"): _catalog_names("followers"),
    ("follower remove", "name"): _story_list("followers"),
    ("outcome add", "name"): _catalog_names("outcomes"),
    ("outcome remove", "name"): _story_list("outcomes"),
    ("status add", "name"): _catalog_names("story_statuses"),
    ("status remove", "name"): _story_list("statuses"),
    ("adventure event", "name"): _chapter_events,
    ("tiebreak", "pile"): _piles, ("pile remove", "pile"): _piles, ("battalion", "near"): _piles,
    ("tiebreak", "runes"): _pile_colours,
    ("spoils upgrade", "item"): _upgradable, ("spoils upgrade", "discard"): _disposable,
    ("raid", "face"): _fixed("A", "B"), ("completion", "shell"): _fixed(*SHELLS),
    ("hero gain", "kind"): _model("EQUIPMENT_KINDS"), ("card set", "kind"): _model("EQUIPMENT_KINDS"),
    ("hero gain", "quality"): _model("QUALITIES"),
    ("card forget", "fact"): _fixed("type", "rarity", "epic", "position", "kind"),
    ("commander add", "position"): _positions, ("commander swap", "position"): _positions,
    ("card set", "position"): _positions, ("import", "leader"): _all_heroes,
}
WORDS = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*(?:\|[a-z0-9]+(?:-[a-z0-9]+)*)+")  # trauma|curse: the flag's words
LISTS = {"COLOURS": ",+"}  # a metavar of a list: each item after one of these completes on its own (red,gr)


def values_of(cmd_path: str, param: Any) -> Callable[[Any], Iterable[str]] | None:
    """What a parameter completes with, by what it is: its (command, parameter) entry, the kind of name
    it declares, or the words its metavar lists; None: nothing (a free name, a number, a path)."""
    from .common import GameName

    if (cmd_path, param.name) in BY_COMMAND:
        return BY_COMMAND[(cmd_path, param.name)]
    if isinstance(param.type, GameName):
        return BY_KIND.get(param.type.kind)
    if isinstance(param.metavar, str) and WORDS.fullmatch(param.metavar):
        return _fixed(*param.metavar.split("|"))
    return None


def _completer(values: Callable[[Any], Iterable[str]], separators: str = ""):
    def complete(ctx: Any, param: Any, incomplete: str) -> list[Any]:
        from .click import CompletionItem

        cut = max((incomplete.rfind(sep) for sep in separators), default=-1) + 1
        head, incomplete = incomplete[:cut], incomplete[cut:]  # red,gr: the items before, the one typed
        try:
            options = [v for v in dict.fromkeys(values(ctx)) if isinstance(v, str) and shown_as_is(v)]
        except Exception:  # completion never shows an error in the shell
            return []
        low = incomplete.casefold()
        return [CompletionItem(head + v) for v in options if v.casefold().startswith(low)]
    return complete


def shown_as_is(name: str) -> bool:
    """Whether a shell may be handed `name` as a candidate: no control, bidi or format character, no
    separator, line break or tab, no byte that was not UTF-8 (the shell would draw it raw). Such a name is
    not offered; a unique prefix typed still reaches it, and `check` names it escaped (docs/errors.md)."""
    from ..text import visible

    return visible(name) == name and "\n" not in name and "\t" not in name


def attach(cmd: Any, path: tuple[str, ...] = ()) -> None:
    """Give every parameter of the tree its completer, by what the parameter is (values_of)."""
    for param in getattr(cmd, "params", ()):
        values = values_of(" ".join(path), param)
        if values is not None and getattr(param, "_custom_shell_complete", None) is None:
            param._custom_shell_complete = _completer(values, LISTS.get(param.metavar or "", ""))
    for name, sub in getattr(cmd, "commands", {}).items():
        attach(sub, path + (name,))

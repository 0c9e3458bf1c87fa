"""Shell completion (SPEC section 9): `drunagor completion bash|zsh|fish` prints the script, and a
completion request (the shell runs `drunagor` with `_DRUNAGOR_COMPLETE` set to its name) answers
with commands, options, and the names a player would type next: heroes of the campaign, the cards a
hero holds, monsters on the board, chapters, rune colours, and the catalog's names. How the words
and the candidates travel between drunagor and the shell, as data only, is in completion_shells.

The values come from one table keyed by the parameter's name (and the command, where a name means
different things), attached to the built command tree at completion time only: the command modules
stay as they are, and a normal run pays nothing for completion. Like every command, a request
builds only the command being typed. A completer that fails (no campaign here, a broken file)
offers nothing: completion never prints an error into the shell.
"""

from __future__ import annotations

import os
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

    cmd = typer.main.get_command(app)
    attach(cmd)
    items = Words(cmd, {}, "drunagor", COMPLETE_VAR).get_completions(list(args), incomplete)
    # `--rune=r`: Click completes the value; the shell replaces the whole word
    head = incomplete.partition("=")[0] + "=" if incomplete.startswith("-") and "=" in incomplete else ""
    return [(head + str(i.value), str(i.help or "")) for i in items if i.type == "plain"]


# ------------------------------------------------------------------------------ the values


def _campaign(ctx: Any):
    from ..campaign import Campaign, find_campaign
    from .common import options

    return Campaign(find_campaign(options(ctx).campaign))


def _heroes(ctx: Any) -> list[str]:
    with _campaign(ctx) as c:
        return [h.name for h in c.active_heroes().values()]


def _held(ctx: Any) -> list[str]:
    """The cards the hero named earlier on the line holds."""
    hero = ctx.params.get("name") or ctx.params.get("hero") or ctx.params.get("giver")
    if not hero:
        return []
    with _campaign(ctx) as c:
        _, h = c.find_hero(hero)
        return [e.name for e in h.equipment]


def _retired(ctx: Any) -> list[str]:
    with _campaign(ctx) as c:
        return [h.name for h in c.heroes.values() if h.retired]


def _learned(*keys: str) -> Callable[[Any], list[str]]:
    """The skills and/or Class Abilities of the hero named earlier on the line."""
    def values(ctx: Any) -> list[str]:
        with _campaign(ctx) as c:
            _, h = c.find_hero(ctx.params.get("name") or "")
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
    from .. import catalog

    return [c["name"] for c in catalog.chest_cards() if not c.get("retired")]


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
    with _campaign(ctx) as c:
        f = c.adventure_file
        piles = (f.data.get("piles") if f is not None else None) or []
        return [f"pile-{i + 1}" for i in range(len(piles))]


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


# (command path, parameter) first, then the parameter alone.
BY_COMMAND: dict[tuple[str, str], Callable[[Any], Iterable[str]]] = {
    ("follower add", "name"): _catalog_names("followers"),
    ("follower remove", "name"): _story_list("followers"),
    ("outcome add", "name"): _catalog_names("outcomes"),
    ("outcome remove", "name"): _story_list("outcomes"),
    ("status add", "name"): _catalog_names("story_statuses"),
    ("status remove", "name"): _story_list("statuses"),
    ("hero gain", "item"): _items,
    ("hero return", "name"): _retired,
    ("hero unlearn", "skill"): _learned("skills"),
    ("hero forget", "ability_"): _learned("class_abilities"),
    ("hero relearn", "old"): _learned("skills", "class_abilities"),
    ("monster add", "name"): _monsters,
    ("chest add", "card"): _chest_cards,
    ("chest remove", "card"): _deck,
    ("card show", "name"): _items,
    ("card set", "name"): _items,
    ("card forget", "name"): _recorded_cards,
    ("stash add", "item"): _items,
    ("stash remove", "item"): _story_list("stash"),
    ("chest swap", "into"): _chest_cards,
    ("chest swap", "out"): _chest_cards,
    ("party", "name"): lambda ctx: (),
    ("new", "name"): lambda ctx: (),
}
BY_PARAM: dict[str, Callable[[Any], Iterable[str]]] = {
    "name": _heroes, "hero": _heroes, "giver": _heroes, "to": _heroes, "leader": _heroes,
    "item": _held, "discard": _held,
    "aura_": _catalog_names("auras"), "status_": _catalog_names("hero_statuses"),
    "action": _fixed("add", "remove"),
    "tree": _model("TREES"), "kind": _model("EQUIPMENT_KINDS"), "quality": _model("QUALITIES"),
    "role": _roles, "cls": _classes,
    "n": _fixed(*CHAPTERS), "chapter": _fixed(*CHAPTERS),
    "rune": _fixed(*COLOURS), "runes": _fixed(*COLOURS), "piles": _fixed(*COLOURS),
    "face": _fixed("A", "B"), "monsters": _monsters, "which": _on_board, "pile": _piles,
    "near": _piles, "shell": _fixed(*SHELLS),
    "fact": _fixed("type", "rarity", "epic", "position", "kind"), "position": _positions,
}


def _completer(values: Callable[[Any], Iterable[str]]):
    def complete(ctx: Any, param: Any, incomplete: str) -> list[Any]:
        from .click import CompletionItem

        try:
            options = [v for v in dict.fromkeys(values(ctx)) if isinstance(v, str)]
        except Exception:  # completion never shows an error in the shell
            return []
        low = incomplete.casefold()
        return [CompletionItem(v) for v in options if v.casefold().startswith(low)]
    return complete


def attach(cmd: Any, path: tuple[str, ...] = ()) -> None:
    """Give every parameter of the tree that names a known kind of value its completer."""
    for param in getattr(cmd, "params", ()):
        if param.name in ("campaign",):
            continue
        values = BY_COMMAND.get((" ".join(path), param.name)) or BY_PARAM.get(param.name)
        if values is not None and getattr(param, "_custom_shell_complete", None) is None:
            param._custom_shell_complete = _completer(values)
    for name, sub in getattr(cmd, "commands", {}).items():
        attach(sub, path + (name,))

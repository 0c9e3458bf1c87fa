"""Shell completion (SPEC section 9): `drunagor completion bash|zsh|fish` prints the script, and a
completion request (the shell runs `drunagor` with `_DRUNAGOR_COMPLETE` set) answers with commands,
options, and the names a player would type next: heroes of the campaign, the cards a hero holds,
monsters on the board, chapters, rune colours, and the catalog's names.

The values come from one table keyed by the parameter's name (and the command, where a name means
different things), attached to the built command tree at completion time only: the command modules
stay as they are, and a normal run pays nothing for completion. Like every command, a request
builds only the command being typed. A completer that fails (no campaign here, a broken file)
offers nothing: completion never prints an error into the shell.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Iterable

COMPLETE_VAR = "_DRUNAGOR_COMPLETE"
SHELLS = ("bash", "zsh", "fish")
COLOURS = ("red", "blue", "green", "orange", "gray")
CHAPTERS = tuple(f"{n:02d}" for n in range(1, 10))


def script(shell: str) -> str:
    """The completion script of `shell`, to source from the shell's start-up file."""
    from typer._completion_classes import completion_init
    from typer._completion_shared import get_completion_script

    completion_init()
    return get_completion_script(prog_name="drunagor", complete_var=COMPLETE_VAR, shell=shell)


def requested() -> bool:
    return bool(os.environ.get(COMPLETE_VAR))


def typed_words() -> list[str]:
    """The words of the command line being completed, after `drunagor` (bash, zsh and fish)."""
    if "COMP_WORDS" in os.environ:  # bash
        words = _split(os.environ["COMP_WORDS"])
        return words[1:int(os.environ.get("COMP_CWORD", len(words)))]
    return _split(os.environ.get("_TYPER_COMPLETE_ARGS", ""))[1:]


def _split(line: str) -> list[str]:
    import shlex

    try:
        return shlex.split(line)
    except ValueError:  # a quote still open: the word being typed
        return line.split()


def run(build_app: Callable[[str | None], Any], command: str | None) -> None:
    """Answer one completion request: build the typed command, attach the value completers, and let
    Typer's completion classes print the answer in the shell's format."""
    import typer
    from typer._completion_classes import completion_init

    completion_init()
    cmd = typer.main.get_command(build_app(command))
    attach(cmd)
    cmd.main(prog_name="drunagor", complete_var=COMPLETE_VAR)


# ------------------------------------------------------------------------------ the values


def _campaign(ctx: Any):
    from ..campaign import Campaign, find_campaign

    root = ctx.find_root()
    option = root.params.get("campaign") if root is not None else None
    return Campaign(find_campaign(option))


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
        from typer._click.shell_completion import CompletionItem  # Typer vendors Click (0.26-0.28)

        try:
            options = list(dict.fromkeys(values(ctx)))
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

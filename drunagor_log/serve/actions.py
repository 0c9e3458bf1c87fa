"""What a hero's phone may do (SPEC 12, "A phone is its hero's"): a posted form read as the words of
one drunagor command, for that hero only.

`words(hero, form)` turns the fields of POST /heroes/<hero>/act into the command line's words
(`cube`, `recall`, `adventure undo`, `hero learn`, `hero ability`, `hero gain`, `hero aura`, `hero
status`, `spoils upgrade`), which the command line's own tree then runs (cli/phone.py): no rule is
judged here, no name resolved, no number read; the command does all of it, and answers in its own
words. The hero is the one whose key and page it is, never a field; each field is given as one word
after the command's own option (`--tree=...`) or after `--`, so that no value is read as an option,
a campaign, a path or another hero. A field the action does not take, a field given twice or an
action drunagor does not have is refused (Refusal: a usage slip, exit 2).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

ACTIONS = ("cube", "recall", "undo", "learn", "ability", "gain", "aura", "status", "upgrade")
#: The fields each action takes besides `action` and `csrf`: the command's arguments and options.
FIELDS: dict[str, tuple[str, ...]] = {
    "cube": ("kind", "delta", "capacity", "trauma_limit_bonus"),
    "recall": ("capacity",),
    "undo": (),
    "learn": ("skill", "tree", "level"),
    "ability": ("ability",),
    "gain": ("card", "kind", "quality", "bag", "new", "reward"),
    "aura": ("aura", "op", "new"),
    "status": ("status", "op", "new"),
    "upgrade": ("item", "discard", "to", "epic"),
}
#: The command each action runs, as docs/serve.md lists it.
COMMAND = {"cube": "cube", "recall": "recall", "undo": "adventure undo", "learn": "hero learn",
           "ability": "hero ability", "gain": "hero gain", "aura": "hero aura", "status": "hero status",
           "upgrade": "spoils upgrade"}
MAX_FIELDS = 16


class Refusal(Exception):
    """A form that names no command drunagor runs: its message (exit 2, 400)."""


def read(pairs: Sequence[tuple[str, str]]) -> dict[str, str]:
    """The fields of a posted form: each once, `csrf` and `action` among them; empty ones left out."""
    form: dict[str, str] = {}
    for name, value in pairs[:MAX_FIELDS + 1]:
        if name in form:
            raise Refusal(f"the field {name!r} is given twice")
        form[name] = value
    if len(pairs) > MAX_FIELDS:
        raise Refusal(f"more than {MAX_FIELDS} fields")
    return {k: v for k, v in form.items() if v != ""}


def words(hero: str, form: dict[str, str]) -> tuple[str, list[str]]:
    """(the action's label for the scribe's screen, the command's words) of `form` for `hero` (the
    hero's name as their Campaign Log writes it)."""
    action = form.get("action", "")
    if action not in ACTIONS:
        raise Refusal(f"no action {action!r}; a hero's phone does {', '.join(ACTIONS)}")
    extra = sorted(set(form) - {"action", "csrf", *FIELDS[action]})
    if extra:
        raise Refusal(f"{action} takes no field {extra[0]!r}; it takes "
                      + (", ".join(FIELDS[action]) if FIELDS[action] else "none"))
    return _BUILD[action](hero, form, form.get)


Get = Callable[[str], "str | None"]


def _cube(hero: str, form: dict[str, str], f: Get) -> tuple[str, list[str]]:
    kind, delta = _need(form, "kind"), _need(form, "delta")
    return (f"{kind.capitalize()} Cube {delta}",
            ["cube", *_opt("capacity", f("capacity")), *_opt("trauma-limit-bonus", f("trauma_limit_bonus")),
             "--", hero, kind, delta])


def _recall(hero: str, form: dict[str, str], f: Get) -> tuple[str, list[str]]:
    return "Recall Action", ["recall", *_opt("capacity", f("capacity")), "--", hero]


def _undo(hero: str, form: dict[str, str], f: Get) -> tuple[str, list[str]]:
    return "take back my last", ["adventure", "undo"]


def _learn(hero: str, form: dict[str, str], f: Get) -> tuple[str, list[str]]:
    skill = _need(form, "skill")
    return (f"learns {skill}", ["hero", "learn", *_opt("tree", _need(form, "tree")),
                                *_opt("level", _need(form, "level")), "--", hero, skill])


def _ability(hero: str, form: dict[str, str], f: Get) -> tuple[str, list[str]]:
    ability = _need(form, "ability")
    return f"Class Ability {ability}", ["hero", "ability", "--", hero, ability]


def _gain(hero: str, form: dict[str, str], f: Get) -> tuple[str, list[str]]:
    card = _need(form, "card")
    return (f"gains {card}", ["hero", "gain", *_opt("kind", f("kind")), *_opt("quality", f("quality")),
                              *_flag("bag", f("bag")), *_flag("new", f("new")), *_flag("reward", f("reward")),
                              "--", hero, card])


def _aura(hero: str, form: dict[str, str], f: Get) -> tuple[str, list[str]]:
    _only(form, "op", ("set", "clear"))
    if f("op") == "clear":
        return "Aura cleared", ["hero", "aura", "--clear", "--", hero]
    aura = _need(form, "aura")
    return f"Aura {aura}", ["hero", "aura", *_flag("new", f("new")), "--", hero, aura]


def _status(hero: str, form: dict[str, str], f: Get) -> tuple[str, list[str]]:
    status, op = _need(form, "status"), _need(form, "op")
    _only(form, "op", ("add", "remove"))
    return f"status {op} {status}", ["hero", "status", *_flag("new", f("new")), "--", hero, op, status]


def _upgrade(hero: str, form: dict[str, str], f: Get) -> tuple[str, list[str]]:
    """A reward's upgrade (nothing disposed of), or with Artisan's Tools and `discard`."""
    item = _need(form, "item")
    _only(form, "epic", ("yes", "no"))
    how = _opt("discard", f("discard")) if f("discard") else ["--reward"]
    epic = {"yes": ["--epic"], "no": ["--not-epic"]}.get(f("epic") or "", [])
    return f"Spoils upgrade {item}", ["spoils", "upgrade", *how, *_opt("to", f("to")), *epic, "--", hero, item]


_BUILD: dict[str, Callable[[str, dict[str, str], Get], tuple[str, list[str]]]] = {
    "cube": _cube, "recall": _recall, "undo": _undo, "learn": _learn, "ability": _ability, "gain": _gain,
    "aura": _aura, "status": _status, "upgrade": _upgrade}


def _need(form: dict[str, str], name: str) -> str:
    if name not in form:
        raise Refusal(f"{form['action']} needs the field {name!r}")
    return form[name]


def _only(form: dict[str, str], name: str, allowed: tuple[str, ...]) -> None:
    if name in form and form[name] not in allowed:
        raise Refusal(f"{name} is {' or '.join(allowed)}, not {form[name]!r}")


def _opt(option: str, value: str | None) -> list[str]:
    """`--option=value` (one word: a value starting with `-` stays a value), or nothing."""
    return [] if value is None else [f"--{option}={value}"]


def _flag(option: str, value: str | None) -> list[str]:
    """A checkbox: `--option` when ticked ("on", "1", "true", "yes"), nothing when left out."""
    if value is None:
        return []
    if value.casefold() not in ("on", "1", "true", "yes"):
        raise Refusal(f"{option} is a checkbox: on, or left out, not {value!r}")
    return [f"--{option}"]

"""The name resolver the operations of this area use: `names.resolve` (issue 13) where it exists,
else the same order here (exact, any case, a unique prefix; `new` keeps a name nobody knows as typed),
so this branch works before and after the resolver lands. Delete this module once names.resolve is on
main and call it directly."""

from __future__ import annotations

from typing import Iterable

from ..errors import RuleError, UsageError


def resolve(query: str, names: Iterable[str], what: str, *, game: bool = True, new: bool = False,
            new_hint: str | None = None) -> str:
    from .. import names as resolver

    shared = getattr(resolver, "resolve", None)
    if shared is not None:
        return str(shared(query, names, what, game=game, new=new, new_hint=new_hint))
    return _resolve(query, list(dict.fromkeys(names)), what, game, new, new_hint)


def _key(name: str) -> str:
    return " ".join(name.replace("\u2019", "'").replace("\u2018", "'").split()).casefold()


def _resolve(query: str, names: list[str], what: str, game: bool, new: bool, new_hint: str | None) -> str:
    q = query.strip()
    if q in names:
        return q
    same = next((n for n in names if _key(n) == _key(q)), None)
    if same is not None:
        return same
    begins = sorted({n for n in names if _key(n).startswith(_key(q))}) if q and not new else []
    if len(begins) == 1:
        return begins[0]
    if begins:
        raise UsageError(f"{query!r} could be any of: {', '.join(begins)}", remedy="type more of the name")
    if new and q:
        return q
    from ..names import closest

    hint = closest(query, names)
    remedy = f"did you mean {hint!r}?" if hint else f"known: {', '.join(sorted(names)) or 'none yet'}"
    if new_hint:
        remedy += f" ({new_hint})"
    raise (RuleError if game else UsageError)(f"no {what} called {query!r}", remedy=remedy)


def close_to(query: str, names: Iterable[str]) -> bool:
    """Whether `query` looks like a typo of one of `names` (then it is recorded only with --new)."""
    from ..names import closest

    return closest(query, list(names)) is not None

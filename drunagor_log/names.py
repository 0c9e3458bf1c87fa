"""Names typed at the command line: slugs for file names, case-insensitive lookup with unique
prefixes, and the closest known name for a typo."""

from __future__ import annotations

import re
import unicodedata
from typing import Iterable, TypeVar

from .errors import UsageError

T = TypeVar("T")


def slug(name: str) -> str:
    """"Andreas" -> "andreas"; "Vorn the Warrior" -> "vorn-the-warrior"."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def lookup(query: str, options: dict[str, T], what: str) -> T:
    """The option whose name equals `query` (any case), else the only one it is a prefix of."""
    q = query.strip().casefold()
    exact = [v for k, v in options.items() if k.casefold() == q]
    if exact:
        return exact[0]
    matches = [k for k in options if k.casefold().startswith(q)] if q else []
    if len(matches) == 1:
        return options[matches[0]]
    if matches:
        raise UsageError(f"{query!r} could be any of: {', '.join(sorted(matches))}",
                         remedy=f"type more of the {what}'s name")
    known = ", ".join(sorted(options)) or "none yet"
    hint = closest(query, options)
    remedy = f"did you mean {hint!r}?" if hint else f"known: {known}"
    raise UsageError(f"no {what} called {query!r}", remedy=remedy)


def closest(query: str, candidates: Iterable[str]) -> str | None:
    import difflib

    pool = {c.casefold(): c for c in candidates}
    hit = difflib.get_close_matches(query.casefold(), list(pool), n=1, cutoff=0.6)
    return pool[hit[0]] if hit else None


def canonical(query: str, candidates: Iterable[str]) -> str | None:
    q = query.strip().casefold()
    return next((c for c in candidates if c.casefold() == q), None)

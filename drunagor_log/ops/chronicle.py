"""What the chronicle reads (SPEC 12, issue 45): every adventure of the campaign (the archives and the one
under way) and the party's notes, for `stats`, `recap`, `note` and the pages. Light on purpose: `recap` and
`stats` answer within 1.2 x `show` on a campaign of 2,000 table events (tests/benchmarks/chronicle.py)."""

from __future__ import annotations

from collections.abc import Container
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import store
from ..catalog.diskcache import remembered
from ..errors import DataError, FieldError
from ..model.adventure import AdventureState
from ..model.campaign import Note, notes_from
from ..rules.chronicle import Tally, moments, tally
from ..store import adventure as adventure_codec

if TYPE_CHECKING:
    from ..campaign import Campaign

ARCHIVE_FOLDER = "adventures"


def adventures(c: Campaign, known: Container[str] = ()) -> list[tuple[str, int | None, AdventureState]]:
    """Every adventure of the campaign, oldest chapter first, each attempt in order, the one under way last:
    (its file, its attempt, its state), but the archives named in `known`. The adventure under way counts
    its attempt from every archive of its chapter."""
    found = []
    for path in c.archive_paths():
        name = f"{ARCHIVE_FOLDER}/{path.name}"
        if name not in known:  # an archive the caller knew already (recap: there at its start) is not read
            found.append((name, _attempt(path), adventure_codec.read(c.file(path))))
    found.sort(key=lambda a: (a[2].chapter, a[1] or 0, a[0]))
    if c.adventure_file is not None:
        state = c.adventure()
        tried = sum(1 for p in c.archive_paths() if p.name.startswith(f"{state.chapter}-"))
        found.append(("adventure.toml", tried + 1, state))
    return found


def _attempt(path: Path) -> int | None:
    _, _, attempt = path.stem.partition("-")
    return int(attempt) if attempt.isascii() and attempt.isdigit() and len(attempt) < 4 else None


def adventure_row(name: str, attempt: int | None, state: AdventureState) -> dict[str, Any]:
    """One adventure as `stats --json` and `recap --json` list it."""
    return {"file": name, "chapter": state.chapter, "attempt": attempt,
            "outcome": state.outcome or ("under way" if name == "adventure.toml" else None),
            "lost": state.lost, "rounds": state.counters.get("round"), "heroes": state.heroes}


def notes(c: Campaign) -> tuple[Note, ...]:
    """The party's notes, oldest first; a note of the wrong shape is refused on its line (exit 3)."""
    f = c.story_file
    try:
        return notes_from(f.data)
    except FieldError as exc:
        raise f.refuse(exc.key_path, exc.message, rule="notes", remedy=exc.remedy, error=DataError) from None


def summaries(c: Campaign, known: Container[str] = ()) -> list[dict[str, Any]]:
    """Every adventure as the chronicle tells it: {"row" (adventure_row), "tally" (of its table events, as
    plain values), "moments" (rules.chronicle.moments)}, oldest chapter first, the one under way last; the
    archives named in `known` left out. An archive's summary is remembered across runs while it holds the
    very same bytes (catalog/diskcache.py, as the store remembers a parse): archives are written once, and a
    campaign gathers one per adventure played, so `stats` and `recap` do not slow down as it grows."""
    found = []
    for path in c.archive_paths():
        name = f"{ARCHIVE_FOLDER}/{path.name}"
        if name in known:
            continue

        def made(path: Path = path, name: str = name) -> dict[str, Any]:
            return _summary(adventure_row(name, _attempt(path), state := adventure_codec.read(c.file(path))),
                            state)

        raw = store.peek(path)
        found.append(made() if raw is None else remembered(str(path) + "#chronicle", raw, made, (4,)))
    found.sort(key=lambda a: (a["row"]["chapter"], a["row"]["attempt"] or 0, a["row"]["file"]))
    if c.adventure_file is not None:
        state = c.adventure()
        tried = sum(1 for p in c.archive_paths() if p.name.startswith(f"{state.chapter}-"))
        found.append(_summary(adventure_row("adventure.toml", tried + 1, state), state))
    return found


def _summary(row: dict[str, Any], state: AdventureState) -> dict[str, Any]:
    return {"row": row, "tally": asdict(tally([state.log])), "moments": moments(state.log)}


def tallies(c: Campaign) -> list[tuple[dict[str, Any], Tally]]:
    """Every adventure's row and the tally of its table events (summaries)."""
    return [(s["row"], Tally(**s["tally"])) for s in summaries(c)]

"""`drunagor check`: every rule is one small registered check with a name.

A check is a function `(campaign) -> iterable of Problem`; it reads the typed model (never raw
files) and says FILE:LINE where it can. Files that cannot be read at all (syntax, conflict markers,
schema, wrong types) are reported first, and then the rule checks are skipped: they need a whole
campaign to judge.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from .. import __version__, store
from ..campaign import Campaign
from ..catalog import diskcache
from ..errors import Problem
from ..store.schema import UPGRADE, newer
from ..values import record

# Modules that register checks, one per area of the game (each imports `check` from here).
CHECK_MODULES = ("core", "story", "heroes", "chest", "adventure", "git")


@record
class Check:
    name: str
    fn: Callable[[Campaign], Iterable[Problem]]


REGISTRY: list[Check] = []


def check(name: str):
    """Register a rule check under `name` (the `rule` printed with each problem)."""

    def deco(fn):
        REGISTRY.append(Check(name, fn))
        return fn

    return deco


def _load_registry() -> None:
    for mod in CHECK_MODULES:
        try:
            importlib.import_module(f"{__package__}.{mod}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__package__}.{mod}":
                raise


def problem(f: store.TomlFile | str, key_path: tuple, rule: str, message: str,
            severity: str = "error") -> Problem:
    """A Problem located at a key path of a file (line looked up in the file's text)."""
    if isinstance(f, str):
        return Problem(f, None, rule, message, severity)
    return Problem(f.shown, f.line(key_path) if key_path else None, rule, message, severity)


def _newer(f: store.TomlFile) -> Problem:
    return problem(f, ("schema",), "schema", f"{newer(f.schema)}; it cannot be checked; {UPGRADE}")


class ArchiveCache:
    """Which archived adventures (adventures/*.toml) already passed `check`, by a hash of their bytes.

    Archives are written once by `adventure end` and never edited by drunagor, and a campaign
    gathers one per adventure played: re-reading all of them would make `check` slower with every
    evening (SPEC section 7 wants no growth with history). An archive is checked again as soon as its
    bytes change (an edit, a git checkout or merge, damage that keeps its size and time), or drunagor's
    version does; one that cannot be read is never answered from the cache.
    The cache lives outside the campaign (catalog/diskcache.py), never in git."""

    def __init__(self, root: Path):
        self.name = "checked-archives-" + os.path.abspath(root).strip(os.sep).replace(os.sep, "%") + ".marshal"
        self.stamp = (__version__, store.SCHEMA, "content")
        hit = diskcache.load(self.name)
        ok = isinstance(hit, tuple) and len(hit) == 2 and hit[0] == self.stamp and isinstance(hit[1], dict)
        self.mine: dict = hit[1] if ok else {}
        self.dirty = False

    def known_good(self, path: Path) -> bool:
        """Keyed on content, not on size and modification time: a file damaged with both kept, or made
        unreadable (store.peek: a regular file, no link, within the size cap), never matches."""
        raw = store.peek(path)
        return raw is not None and self.mine.get(path.name) == diskcache.bytes_stamp(raw)

    def passed(self, path: Path, raw: bytes) -> None:
        """`raw`, the bytes of `path` that passed, are remembered (as their hash)."""
        self.mine[path.name] = diskcache.bytes_stamp(raw)
        self.dirty = True

    def save(self) -> None:
        if self.dirty:
            diskcache.save(self.name, (self.stamp, self.mine))


def run_checks(root: Path, strict: bool = False, announce: Callable[[str], None] | None = None
               ) -> tuple[list[Problem], list[Problem], bool]:
    """(errors, warnings, unreadable). With `strict`, warnings count as errors."""
    cache = ArchiveCache(root)
    opened = Campaign.open_all(root, announce=announce, known_good=cache.known_good, passed=cache.passed)
    with opened as (c, unreadable):
        cache.save()
        unreadable += [_newer(f) for f in c.newer_files()]
        if unreadable:
            return unreadable, [], True
        _load_registry()
        found: list[Problem] = []
        for chk in REGISTRY:
            found.extend(chk.fn(c))
    errors = [p for p in found if p.severity == "error"]
    warnings = [p for p in found if p.severity != "error"]
    if strict:
        errors, warnings = errors + warnings, []
    return errors, warnings, False

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
from ..campaign import ADVENTURE, STORY, Campaign
from ..catalog import diskcache
from ..errors import DataError, Problem, StateError
from ..model import hero_from, story_from
from ..store import adventure as adventure_codec
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
            importlib.import_module(f"{__name__}.{mod}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{mod}":
                raise


def problem(f: store.TomlFile | str, key_path: tuple, rule: str, message: str,
            severity: str = "error") -> Problem:
    """A Problem located at a key path of a file (line looked up in the file's text)."""
    if isinstance(f, str):
        return Problem(f, None, rule, message, severity)
    return Problem(f.shown, f.line(key_path) if key_path else None, rule, message, severity)


def _newer(f: store.TomlFile) -> Problem:
    return Problem(f.shown, f.line(("schema",)), "schema", f"{newer(f.schema)}; it cannot be checked; {UPGRADE}")


def _from_error(exc: DataError) -> Problem:
    msg = exc.message + (f"; {exc.remedy}" if exc.remedy else "")
    return Problem(exc.file or "?", exc.line, exc.rule or "file", msg)


def load_checked(root: Path, announce: Callable[[str], None] | None = None) -> tuple[Campaign, list[Problem]]:
    """Read every file of the campaign one by one, collecting what cannot be read (`announce`: see
    Campaign)."""
    c = Campaign(root, scan=False, announce=announce)  # check reads and reports every file itself
    c.__enter__()  # completes a pending journal, if a killed command left one
    problems: list[Problem] = []
    try:
        c._story = c._typed(c.file(root / STORY), story_from)
    except DataError as exc:
        problems.append(_from_error(exc))
    _load_heroes(c, problems)
    cache = ArchiveCache(root)
    for path in _adventure_paths(c, root, cache, problems):
        _load_adventure(c, path, cache, problems)
    cache.save()
    return c, problems


def _load_heroes(c: Campaign, problems: list[Problem]) -> None:
    files, typed = {}, {}
    try:
        paths = c.hero_paths()
    except DataError as exc:
        paths = []
        problems.append(_from_error(exc))
    for path in paths:
        try:
            f = c._load(path)
            typed[path.stem] = c._typed(f, hero_from)
            files[path.stem] = f
        except DataError as exc:
            problems.append(_from_error(exc))
    c._hero_files, c._heroes = files, typed


def _adventure_paths(c: Campaign, root: Path, cache: ArchiveCache, problems: list[Problem]) -> list[Path]:
    """adventure.toml if there is one, and the archived adventures not known good by the cache."""
    extra = [root / ADVENTURE] if os.path.lexists(root / ADVENTURE) else []
    try:
        extra += [p for p in c.archive_paths() if not cache.known_good(p)]
    except DataError as exc:  # a file, or a link, where adventures/ should be
        problems.append(_from_error(exc))
    return extra


def _load_adventure(c: Campaign, path: Path, cache: ArchiveCache, problems: list[Problem]) -> None:
    try:
        f = c._load(path)
        if path.name == ADVENTURE:
            c._adventure = f
    except DataError as exc:
        problems.append(_from_error(exc))
        return
    bad = shape_problem(f)  # wrong types, negative counts, a slot twice: unreadable
    if bad is not None:
        problems.append(bad)
    elif path.name != ADVENTURE and not f.read_only:
        cache.passed(path, f.raw or b"")


def parsed_adventure(f):
    """(state, None) or (None, the Problem saying why the file has the wrong shape)."""
    try:
        return adventure_codec.read(f), None
    except StateError as exc:
        message = exc.message + (f"; {exc.remedy}" if exc.remedy else "")
        return None, Problem(exc.file or f.shown, exc.line, "adventure-state", message)


def shape_problem(f) -> Problem | None:
    """Why an adventure file cannot be used at all (the shape the tool writes is broken), else None.
    `check` reports it with the unreadable files (exit 3), as every command that reads it does."""
    if f.read_only:
        return None
    return parsed_adventure(f)[1]


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
    c, unreadable = load_checked(root, announce)
    files = [c.opened(root / STORY), *(c._hero_files or {}).values(), c._adventure]
    unreadable += [_newer(f) for f in files if isinstance(f, store.TomlFile) and f.read_only]
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

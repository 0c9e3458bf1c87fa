"""A campaign folder: finding it, and the typed campaign over its files (store/session.py: the lock,
the look at every file at the open, the files loaded lazily, the save): the Story Record, the heroes,
the adventure under way.

Reading commands load only what they show (`drunagor raid` never opens the heroes' logs). How a
campaign opens, takes the exclusive lock at its first write and checks its reads is the session's
(store/session.py's doc). `Campaign.open_all` is the tolerant open of `check` and `sync`: every file
read, and what cannot be read reported, not raised.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TypeVar

from . import store
from .catalog.diskcache import outside_work_tree
from .errors import DataError, DrunagorError, Problem, Refused, RuleError, StateError, UsageError, located
from .git.planted import refuse_planted_journal
from .model import Hero, Story, hero_from, story_from
from .model.adventure import AdventureState
from .names import check_name, hero_aliases, hero_key, lookup, slug
from .rules.adventure import changed_fields, with_log
from .store import adventure as adventure_codec
from .store.session import ADVENTURE, ARCHIVE, FOLDERS, HEROES, SHEETS, STORY, Session, Stale
from .text import shell_word

__all__ = ["ADVENTURE", "ARCHIVE", "FOLDERS", "HEROES", "SHEETS", "STORY", "Campaign", "Stale", "acting", "actor",
           "find_campaign", "kind_of", "list_campaigns", "writing"]

#: The hero whose phone is acting (their Campaign Log's file stem), for the command being run in this
#: context (`drunagor serve`'s POST /heroes/<hero>/act); None: the scribe at the keyboard.
_ACTOR: ContextVar[str | None] = ContextVar("drunagor_actor", default=None)


@contextmanager
def acting(stem: str) -> Iterator[None]:
    """Run what the block runs as the phone of the hero `stem`: the table events it records say
    `by = "<stem>"`, and `adventure undo` takes back only that hero's own last event."""
    token = _ACTOR.set(stem)
    try:
        yield
    finally:
        _ACTOR.reset(token)


def actor() -> str | None:
    """The hero whose phone is acting now (see acting), or None for the scribe."""
    return _ACTOR.get()

def _holds_story(folder: Path) -> bool:
    # lexists(), not is_file(): a directory named story.toml, or a link (a dangling one too), is then
    # reported as such by the campaign's open (exit 3, the file named), not as "no campaign here"
    return os.path.lexists(folder / STORY)


def find_campaign(option: str | None, cwd: Path | None = None) -> Path:
    """SPEC sections 3 and 9: -C/--campaign > DRUNAGOR_CAMPAIGN > the current directory or the
    nearest folder above it that holds story.toml > the only campaign under ./campaigns/."""
    cwd = cwd or Path.cwd()
    for source, value in (("-C/--campaign", option), ("DRUNAGOR_CAMPAIGN", os.environ.get("DRUNAGOR_CAMPAIGN"))):
        if value:
            path = Path(value).expanduser()
            if not _holds_story(path) and _holds_story(cwd / "campaigns" / value):
                path = cwd / "campaigns" / value  # a bare campaign name is accepted too
            if not _holds_story(path):
                raise UsageError(f"{source} names {value!r}, which holds no {STORY}",
                                 remedy="give the folder of a campaign (drunagor list shows them)")
            return path
    for folder in (cwd, *cwd.parents):  # from any folder inside a campaign, as git finds .git
        if _holds_story(folder):
            return folder
    found = list_campaigns(cwd / "campaigns")
    if len(found) == 1:
        return found[0]
    if not found:
        raise UsageError("no campaign here: no story.toml in this folder and none under ./campaigns/",
                         remedy="create one with `drunagor new NAME`, or pick one with -C PATH")
    names = ", ".join(str(p.relative_to(cwd)) if p.is_relative_to(cwd) else str(p) for p in found)
    raise UsageError(f"several campaigns found ({names})",
                     remedy="pick one with `drunagor -C campaigns/NAME ...` or DRUNAGOR_CAMPAIGN=...")


def list_campaigns(directory: Path) -> list[Path]:
    if not directory.is_dir():
        return []
    try:
        return sorted(p for p in directory.iterdir() if _holds_story(p))
    except OSError:
        return []


def kind_of(root: Path, path: Path) -> str:
    """What a campaign file is: "story", "hero", "adventure", "archive" (or "other")."""
    try:
        rel = Path(os.path.relpath(path, root))
    except ValueError:
        return "other"
    if rel == Path(STORY):
        return "story"
    if rel == Path(ADVENTURE):
        return "adventure"
    if len(rel.parts) == 2 and rel.suffix == ".toml":
        return {HEROES: "hero", ARCHIVE: "archive"}.get(rel.parts[0], "other")
    return "other"


class Campaign(Session):
    """One campaign folder, typed: its Story Record, its heroes, the adventure under way, over the
    session of its files (store/session.py: the options, the lock, the save). Use as a context manager."""

    def __init__(self, root: Path, *, exclusive: bool = False, migrating: bool = False, scan: bool = True,
                 markers: bool = True, announce: Callable[[str], None] | None = None):
        super().__init__(root, vet=refuse_planted_journal, exclusive=exclusive, migrating=migrating,
                         scan=scan, markers=markers, announce=announce)
        outside_work_tree(os.path.join(root, STORY))  # a cache folder in its work tree: off, no key made there
        self._story: Story | None = None
        self._hero_files: dict[str, store.TomlFile] | None = None
        self._heroes: dict[str, Hero] | None = None
        self._adventure: store.TomlFile | None | bool = False  # False: not looked at yet (never True)

    def __enter__(self) -> Campaign:
        self._acquire()
        return self

    # -- the Story Record
    @property
    def story_file(self) -> store.TomlFile:
        return self.file(self.root / STORY)

    @property
    def story(self) -> Story:
        if self._story is None:
            self._story = self._typed(self.story_file, story_from)
        return self._story

    # -- the Campaign Logs
    def hero_paths(self) -> list[Path]:
        """The Campaign Log files under heroes/, sorted. Hidden files are an editor's
        (.#andreas.toml, a lock) or ours (temp files), not logs."""
        return self.listing(HEROES)

    def archive_paths(self) -> list[Path]:
        """The archived adventures under adventures/, sorted (hidden files excluded)."""
        return self.listing(ARCHIVE)

    @property
    def hero_files(self) -> dict[str, store.TomlFile]:
        if self._hero_files is None:
            self._hero_files = {p.stem: self.file(p) for p in self.hero_paths()}
        return self._hero_files

    @property
    def heroes(self) -> dict[str, Hero]:
        """Every Campaign Log by file slug, retired heroes included."""
        if self._heroes is None:
            self._heroes = {s: self._typed(f, hero_from) for s, f in self.hero_files.items()}
        return self._heroes

    def active_heroes(self) -> dict[str, Hero]:
        return {s: h for s, h in self.heroes.items() if h.active}

    def hero(self, query: str, *, present: bool = True) -> tuple[str, Hero]:
        """The one door to a hero a player names (issue 40): (the file stem of their Campaign Log, the
        hero), by the one resolver (any case, a unique prefix, the aliases of the catalog's heroes).
        `present` (the default: every command that acts for a hero) refuses a hero who left the party,
        saying how to bring them back; `present=False` takes them too (`hero show`, `hero set`,
        `hero return`, completion)."""
        by_name = {h.name: (s, h) for s, h in self.heroes.items()}
        found_slug, hero = lookup(query, by_name, "hero", aliases=hero_aliases(by_name), game=True)
        twins = [s for s, h in self.heroes.items() if hero_key(h.name) == hero_key(hero.name)]
        if len(twins) > 1:
            files = ", ".join(f"{HEROES}/{s}.toml" for s in twins)
            raise self.hero_files[twins[1]].refuse(("name",), f"{hero.name!r} has {len(twins)} Campaign Logs ({files})",
                                                   rule="hero-file", remedy="keep one of them (merge what each "
                                                   "records) and delete the other")
        if present and hero.retired:
            left = f" (before chapter {hero.left})" if hero.left else ""
            raise self.hero_files[found_slug].refuse(
                ("retired",), f"{hero.name} has left the party{left}", rule="retired",
                remedy=f"choose an active hero, or bring {hero.name} back: drunagor hero return "
                       f"{shell_word(hero.name)}")
        return found_slug, hero

    def find_hero(self, query: str, *, active_only: bool = False) -> tuple[str, Hero]:
        """Kept for callers written before `hero` (issue 40): use `hero(query, present=...)`."""
        return self.hero(query, present=active_only)

    def hero_path(self, name: str) -> Path:
        """The Campaign Log a new hero called `name` gets (a name fit for a file, else UsageError)."""
        return self.root / HEROES / f"{slug(check_name(name, 'hero'))}.toml"

    # -- the adventure under way
    @property
    def adventure_file(self) -> store.TomlFile | None:
        if self._adventure is False:
            self._acquire()
            path = self.root / ADVENTURE
            if os.path.lexists(path):
                self._adventure = self.file(path)
            else:  # "no adventure under way" is what the command read: an editor's new file is a change
                self._adventure = None
                self.absent(path)
        return self._adventure  # type: ignore[return-value]

    def adventure(self, *, changing: bool = False) -> AdventureState:
        """The adventure under way. A newer adventure.toml is read (with the campaign's warning);
        `changing`, for an operation that will stage it (a table event, not its dry run), refuses it
        at once (exit 3, SPEC 2), before the operation judges a state it cannot read whole."""
        f = self.adventure_file
        if f is None:
            finished = self.finished()
            raise RuleError("no adventure under way (there is no adventure.toml)"
                            + (f", and none to start ({finished})" if finished else ""),
                            file=store.display(self.root / ADVENTURE), rule="adventure",
                            remedy=("`drunagor show` and `drunagor sheet` still tell the whole campaign"
                                    if finished else "start one with `drunagor adventure start`"))
        if changing:
            self._refuse_newer(f.path, f.raw)
        return adventure_codec.read(f)

    def finished(self) -> str | None:
        """What a finished campaign says of itself (Story.finished), or None; None as well when
        story.toml cannot be read (the command that reads it says what is wrong)."""
        try:
            return self.story.finished()
        except DrunagorError:
            return None

    def stage_adventure(self, state: AdventureState) -> None:
        """Stage adventure.toml (written when the campaign is saved, with the command's other changes)."""
        f = self.adventure_file
        if f is not None:
            self._refuse_newer(f.path, f.raw)
        self.put_bytes(self.root / ADVENTURE, adventure_codec.text(state))

    def record_event(self, before: AdventureState, after: AdventureState, entry: Mapping[str, object]) -> None:
        """Stage the state after a table event: the event's line in the log, and in `events` what it
        changed as it was before, so that `adventure undo` restores the file exactly. A phone's event
        says whose it is (`by`, right after `event`: the shared order of the codec); the scribe's has none."""
        by = actor()
        if by is not None:
            entry = {"event": entry["event"], "by": by, **{k: v for k, v in entry.items() if k not in ("event", "by")}}
        event = {"event": entry["event"], "log": len(before.log),
                 "before": adventure_codec.before_values(before, changed_fields(before, after))}
        self.stage_adventure(with_log(after, entry).replace(events=after.events + (event,)))

    @contextmanager
    def adventure_refusals(self) -> Iterator[None]:
        """A rule's refusal (rules/adventure.py knows no file) names adventure.toml."""
        try:
            yield
        except Refused as exc:
            f = self.adventure_file
            raise located(exc, f.shown if f is not None else None) from None

    # -- the tolerant open
    @classmethod
    @contextmanager
    def open_all(cls, root: Path, *, announce: Callable[[str], None] | None = None,
                 known_good: Callable[[Path], bool] | None = None,
                 passed: Callable[[Path, bytes], None] | None = None) -> Iterator[tuple[Campaign, list[Problem]]]:
        """Open the campaign and read every file of it (the loader of `check` and `sync`): yields the
        campaign and the problems of every file that cannot be read (syntax, conflict markers, schema,
        wrong types, an adventure file of a shape drunagor does not write), reported, not raised. An
        archived adventure `known_good` says passed before is not read again; `passed` hears each one
        read whole (its bytes). The lock is released when the block ends, as with `with Campaign(...)`."""
        with cls(root, scan=False, announce=announce) as c:  # every file is read and reported here
            yield c, c._read_all(known_good or (lambda path: False), passed or (lambda path, raw: None))

    def _read_all(self, known_good: Callable[[Path], bool], passed: Callable[[Path, bytes], None]) -> list[Problem]:
        problems: list[Problem] = []
        try:
            self._story = self.story
        except DataError as exc:
            problems.append(problem_of(exc))
        self._read_heroes(problems)
        for path in self._adventure_paths(known_good, problems):
            self._read_adventure(path, passed, problems)
        return problems

    def _read_heroes(self, problems: list[Problem]) -> None:
        files, typed = {}, {}
        try:
            paths = self.hero_paths()
        except DataError as exc:
            paths = []
            problems.append(problem_of(exc))
        for path in paths:
            try:
                f = self._load(path)
                typed[path.stem] = self._typed(f, hero_from)
                files[path.stem] = f
            except DataError as exc:
                problems.append(problem_of(exc))
        self._hero_files, self._heroes = files, typed

    def _adventure_paths(self, known_good: Callable[[Path], bool], problems: list[Problem]) -> list[Path]:
        """adventure.toml if there is one, and the archived adventures not known good."""
        extra = [self.root / ADVENTURE] if os.path.lexists(self.root / ADVENTURE) else []
        try:
            extra += [p for p in self.archive_paths() if not known_good(p)]
        except DataError as exc:  # a file, or a link, where adventures/ should be
            problems.append(problem_of(exc))
        return extra

    def _read_adventure(self, path: Path, passed: Callable[[Path, bytes], None], problems: list[Problem]) -> None:
        try:
            f = self._load(path)
            if path.name == ADVENTURE:
                self._adventure = f
        except DataError as exc:
            problems.append(problem_of(exc))
            return
        bad = shape_problem(f)  # wrong types, negative counts, a slot twice: unreadable
        if bad is not None:
            problems.append(bad)
        elif path.name != ADVENTURE and not f.read_only:
            passed(path, f.raw or b"")

    def newer_files(self) -> list[store.TomlFile]:
        """The Story Record, Campaign Logs and adventure.toml read that are of a newer schema."""
        files = [self.opened(self.root / STORY), *(self._hero_files or {}).values(), self._adventure]
        return [f for f in files if isinstance(f, store.TomlFile) and f.read_only]

    def read_back(self, f: store.TomlFile) -> None:
        """A file about to be written, read as a command reads it: the Story Record, a Campaign Log, an
        adventure (under way or archived) by its typed values (Session._readable refuses the write if
        this would refuse the file)."""
        kind = kind_of(self.root, f.path)
        if f.read_only or kind == "other":
            return
        if kind in ("adventure", "archive"):
            adventure_codec.read(f)
        else:
            self._typed(f, story_from if kind == "story" else hero_from)

    # -- helpers
    def _forget(self, path: Path) -> None:
        """A file this command deleted is no longer one it read."""
        super()._forget(path)
        if isinstance(self._adventure, store.TomlFile) and self._adventure.path == path:
            self._adventure = None
        if self._hero_files is not None:
            for s, f in list(self._hero_files.items()):
                if f.path == path:
                    del self._hero_files[s]
                    if self._heroes is not None:
                        self._heroes.pop(s, None)
        if path == self.root / STORY:
            self._story = None

    @staticmethod
    def _typed(f: store.TomlFile, convert):
        with f.about():  # a FieldError gets the file and the line of its key path
            return convert(f.data)


def problem_of(exc: DataError) -> Problem:
    """A file that cannot be read, as `check` reports it."""
    msg = exc.message + (f"; {exc.remedy}" if exc.remedy else "")
    return Problem(exc.file or "?", exc.line, exc.rule or "file", msg)


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


T = TypeVar("T")


def writing(root: Path, body: Callable[[Campaign], T], **options: Any) -> T:
    """Run a writing command's `body` (it reads, changes and saves) on the campaign at `root` opened
    with `options`. If another drunagor wrote what it read before it could take the exclusive lock
    (`Stale`: nothing was written), run it once more from the start, the exclusive lock held from its
    first read, where no other drunagor can write in between. `body` prints nothing before the save
    or `lock_for_save()`, so that the re-run prints nothing twice."""
    try:
        with Campaign(root, **options) as c:
            return body(c)
    except Stale:
        with Campaign(root, **{**options, "exclusive": True}) as c:
            return body(c)

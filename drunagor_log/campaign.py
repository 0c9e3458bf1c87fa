"""A campaign folder: finding it, loading its files lazily, and saving what a command changed.

Reading commands load only what they show (`drunagor raid` never opens the heroes' logs). Every
command, reading or writing, opens the campaign under the shared lock (store.CampaignLock) before its
first read: it completes first what a killed command had committed (store.complete_pending, under
the exclusive lock for that moment, announced; never a journal that came with the repository), then
looks at every campaign file once (Campaign._scan: a file that is not a regular one, or a git
conflict marker, anywhere stops every command, exit 3). That open is the one place that decides a
campaign is unreadable, for every command.

No command says beforehand whether it will write: its first write (`save()` with a byte to write, or
`lock_for_save()`, which a front end calls before it prints) lets go of the shared lock, waits for the
exclusive one (CampaignLock.upgrade), finishes a write killed in that moment, and checks that all it
read is as it read it (every file's bytes, a file found absent, the lists of heroes/ and adventures/).
If another drunagor wrote meanwhile, nothing is written (`Stale`), and `writing()` runs the command
again from the start with the exclusive lock held from its first read (Campaign(exclusive=True)).
Just before the rename, `save()` compares every file read once more, for an editor or git (exit 4).
A dry run, or a write that changes no byte, never takes the exclusive lock.

A campaign may come from someone else's repository: files are read only as regular files inside
the folder, never through a symbolic link, and within the store's limits (store.read_bytes).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from . import store
from .errors import ChangedOnDisk, DataError, Refused, RuleError, UsageError, located
from .git.planted import refuse_planted_journal
from .model import Hero, Story, hero_from, story_from
from .model.adventure import AdventureState
from .names import check_name, hero_aliases, lookup, slug
from .rules.adventure import changed_fields, with_log
from .store import adventure as adventure_codec
from .store import edit
from .store.folders import take, toml_files
from .store.schema import newer

STORY = "story.toml"
ADVENTURE = "adventure.toml"
HEROES = "heroes"
ARCHIVE = "adventures"
FOLDERS = {HEROES: "the Campaign Logs", ARCHIVE: "the finished adventures"}  # what each folder holds

def _holds_story(folder: Path) -> bool:
    # exists(), not is_file(): a directory named story.toml is then reported as such (exit 3)
    return (folder / STORY).exists()


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


class Stale(ChangedOnDisk):
    """A file this command read changed before it could take the exclusive lock to write (another
    drunagor wrote in between): nothing was written. `writing()` runs the command again; uncaught,
    it is exit 4 as any change on disk."""


class Campaign:
    """One campaign folder. Use as a context manager: it opens under the shared lock, and takes the
    exclusive lock itself at its first write (see the module's doc).

    `exclusive=True` holds the exclusive lock from the first read, for a command whose reads the
    campaign cannot check at its first write: one that writes outside its save (git, sync), and the
    re-run of a command that found its reads `Stale`.
    `migrating=True` is for `drunagor migrate` only: files of an older schema are loaded.
    `scan=False` (for `check` only, which reads and reports every file itself) skips the look at every
    file at the open (_scan); `markers=False` (for `sync`, which finishes merges) skips only its search
    for conflict markers. `announce` hears at once that the campaign finished the write of an interrupted
    command (every command says so, README "Crashes": the command line prints a warning); without it
    the notice is one of the campaign's `warnings`."""

    def __init__(self, root: Path, *, exclusive: bool = False, migrating: bool = False, scan: bool = True,
                 markers: bool = True, announce: Callable[[str], None] | None = None):
        self.root = root
        self.announce = announce
        self.exclusive = exclusive
        self.migrating = migrating
        self.scan = scan
        self.markers = markers
        self._lock: store.CampaignLock | None = None
        self._writing = False  # the exclusive lock held, and every read so far known to be current
        self._story_file: store.TomlFile | None = None
        self._story: Story | None = None
        self._hero_files: dict[str, store.TomlFile] | None = None
        self._heroes: dict[str, Hero] | None = None
        self._adventure: store.TomlFile | None | bool = False  # False: not looked at yet (never True)
        self._extra: dict[Path, store.TomlFile] = {}  # other files loaded with file()
        self._new: dict[Path, store.TomlFile] = {}
        self._raw_writes: dict[Path, bytes] = {}
        self._deletes: set[Path] = set()
        self._seen: dict[Path, bytes | None] = {}  # bytes of files read raw (put_bytes, delete)
        self._listed: dict[str, tuple[str, ...]] = {}  # heroes/, adventures/: the files found there
        self.warnings: list[str] = []

    # -- lifetime
    def __enter__(self) -> Campaign:
        self._acquire()
        return self

    def __exit__(self, *exc) -> None:
        self._release()

    def __del__(self) -> None:  # a campaign used without `with`: never keep its lock
        try:
            self._release()
        except Exception:
            pass

    def _acquire(self) -> None:
        """Lock the campaign before the first read (lazily, if the command did not use `with`)."""
        if self._lock is not None:
            return
        if self.exclusive:
            lock = store.CampaignLock(self.root).__enter__()
            try:
                self._complete(lambda: store.roll_forward(self.root))  # a killed command's commit; sweep
                self._scan()
            except BaseException:
                lock.__exit__(None, None, None)
                raise
            self._lock, self._writing = lock, True
            return
        for _ in range(5):
            self._complete(lambda: store.complete_pending(self.root))
            lock = store.CampaignLock(self.root, shared=True).__enter__()
            if not store.pending_journal(self.root):
                try:
                    self._scan()
                except BaseException:
                    lock.__exit__(None, None, None)
                    raise
                self._lock = lock
                return
            lock.__exit__(None, None, None)  # a writer was killed in between: complete it first
        raise ChangedOnDisk("the campaign keeps changing while it is read", file=store.display(self.root),
                                  rule="lock", remedy="re-run the command")

    def lock_for_save(self) -> bool:
        """Take the exclusive lock for the save to come if anything is to be written (True), and check
        every read (`Stale`). save() does it itself; a front end that prints before it saves calls it
        first, so that a re-run prints nothing twice. The save, not the first staged change, is the
        first write: a change is an edit of a document in place, seen only when serialized; by then
        every read the write rests on is done, so one check covers them all; and a change refused
        after it was staged, or one that leaves every byte as it was, never keeps the readers out."""
        tx, _, _ = self._transaction()
        if tx:
            self._write_lock()
        return bool(tx)

    def _write_lock(self) -> None:
        if self._writing:
            return
        self._acquire()
        assert self._lock is not None
        self._lock.upgrade()  # lets go of the shared lock first: another writer may get in
        self._writing = True
        self._complete(lambda: store.roll_forward(self.root))  # one killed in that moment; sweep
        changed = self._changed_since_read()
        if changed is not None:
            raise Stale("changed on disk while the command ran (an editor, a git pull, another drunagor)",
                        file=store.display(changed), rule="changed-on-disk",
                        remedy="nothing was written; re-run the command")

    def _changed_since_read(self) -> Path | None:
        """The first thing this command read that is no longer as it read it; None if there is none."""
        for path, raw in [*((f.path, f.raw) for f in self._loaded()), *self._seen.items()]:
            try:
                if store.current_bytes(path, self.root) != raw:
                    return path
            except DataError:  # now unreadable (a link, a folder): the re-run says so
                return path
        for name, names in self._listed.items():
            try:
                if tuple(p.name for p in toml_files(self.root / name, FOLDERS[name])) != names:
                    return self.root / name
            except DataError:
                return self.root / name
        return None

    def _complete(self, roll: Callable[[], bool]) -> None:
        """Finish what a killed command committed (`roll`), and say so."""
        files = ""
        if store.pending_journal(self.root):
            try:
                refuse_planted_journal(self.root)
                files = ", ".join(store.journal_files(self.root))
            except DataError:
                # Read before any lock: a live writer may have finished (and removed) its journal
                # between the look and the read. Gone, it is nothing to complete; still there, it is
                # what the refusal says.
                if store.pending_journal(self.root):
                    raise
        try:
            done = roll()
        except OSError as exc:
            raise DataError(f"an interrupted command left changes to complete, and they cannot be written "
                            f"({exc.strerror or exc})", file=store.display(self.root / store.JOURNAL),
                            rule="journal", remedy="make the campaign folder writable and re-run") from None
        if done:
            notice = (f"{store.display(self.root)}: finished the write of an interrupted drunagor command "
                      f"({files or 'its files'})")
            if self.announce is not None:
                self.announce(notice)
            else:
                self.warnings.append(notice)

    def _scan(self) -> None:
        """The one place that decides, for every command, that the campaign cannot be read: one cheap
        look at every campaign file before anything is read. Something else than a regular file where
        a campaign file should be (a symbolic link, a folder, a FIFO), a file where heroes/ or
        adventures/ should be, or a git conflict marker in any file stops the command (exit 3), also
        when it would not open that file: a command that reads part of a campaign must not act on a
        campaign whose other part is unreadable."""
        if not self.scan:
            return
        names = self._file_names(strict=True)
        if not self.markers:
            return
        for path in names:
            raw = store.peek(path)
            if raw is not None and store.has_conflict(raw):
                error = store.conflict_error(raw, store.display(Path(path)))
                if error is not None:
                    raise error

    def files(self) -> list[Path]:
        """Every file of the campaign that drunagor reads: story.toml, adventure.toml, heroes/*.toml,
        adventures/*.toml (not hidden files, not through a symbolic link), in that order."""
        return [Path(p) for p in self._file_names()]

    def _file_names(self, strict: bool = False) -> list[str]:
        """files() as strings (the scan at every command's start: no Path objects, ~0.1 ms a hundred).
        `strict`: refuse what stands at a campaign file's or folder's name and is not one (store.folders)."""
        found: list[str] = []
        folders: list[str] = []
        try:
            with os.scandir(self.root) as entries:
                for e in entries:
                    if e.name in (STORY, ADVENTURE):
                        take(e, found, strict)
                    elif e.name in (HEROES, ARCHIVE):
                        take(e, folders, strict, folder=FOLDERS[e.name])
        except OSError:
            return found
        found.sort(key=lambda p: not p.endswith(STORY))
        for folder in sorted(folders, key=lambda f: not f.endswith(HEROES)):
            inside: list[str] = []
            try:
                with os.scandir(folder) as entries:
                    for e in entries:
                        if e.name.endswith(".toml") and e.name[0] != ".":
                            take(e, inside, strict)
            except OSError:
                continue
            found += sorted(inside)
        return found

    def _release(self) -> None:
        if self._lock is not None:
            lock, self._lock = self._lock, None
            lock.__exit__(None, None, None)

    # -- the Story Record
    @property
    def story_file(self) -> store.TomlFile:
        if self._story_file is None:
            self._story_file = self._load(self.root / STORY)
        return self._story_file

    @property
    def story(self) -> Story:
        if self._story is None:
            self._story = self._typed(self.story_file, story_from)
        return self._story

    # -- the Campaign Logs
    def hero_paths(self) -> list[Path]:
        """The Campaign Log files under heroes/, sorted. Hidden files are an editor's
        (.#andreas.toml, a lock) or ours (temp files), not logs."""
        return self._folder(HEROES)

    def archive_paths(self) -> list[Path]:
        """The archived adventures under adventures/, sorted (hidden files excluded)."""
        return self._folder(ARCHIVE)

    def _folder(self, name: str) -> list[Path]:
        self._acquire()
        found = toml_files(self.root / name, FOLDERS[name])
        self._listed.setdefault(name, tuple(p.name for p in found))  # what a write may rest on
        return found

    @property
    def hero_files(self) -> dict[str, store.TomlFile]:
        if self._hero_files is None:
            self._hero_files = {p.stem: self._load(p) for p in self.hero_paths()}
        return self._hero_files

    @property
    def heroes(self) -> dict[str, Hero]:
        """Every Campaign Log by file slug, retired heroes included."""
        if self._heroes is None:
            self._heroes = {s: self._typed(f, hero_from) for s, f in self.hero_files.items()}
        return self._heroes

    def active_heroes(self) -> dict[str, Hero]:
        return {s: h for s, h in self.heroes.items() if h.active}

    def find_hero(self, query: str, *, active_only: bool = False) -> tuple[str, Hero]:
        pool = self.active_heroes() if active_only else self.heroes
        by_name = {h.name: (s, h) for s, h in pool.items()}
        found_slug, hero = lookup(query, by_name, "hero", aliases=hero_aliases(by_name), game=True)
        twins = [s for s, h in pool.items() if h.name.casefold() == hero.name.casefold()]
        if len(twins) > 1:
            files = ", ".join(f"{HEROES}/{s}.toml" for s in twins)
            raise RuleError(f"{hero.name!r} has {len(twins)} Campaign Logs ({files})",
                            file=store.display(self.hero_files[twins[1]].path),
                            line=self.hero_files[twins[1]].line(("name",)), rule="hero-file",
                            remedy="keep one of them (merge what each records) and delete the other")
        return found_slug, hero

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
                self._adventure = self._load(path)
            else:  # "no adventure under way" is what the command read: an editor's new file is a change
                self._adventure = None
                self._seen[path] = None
        return self._adventure  # type: ignore[return-value]

    def adventure(self, *, changing: bool = False) -> AdventureState:
        """The adventure under way. A newer adventure.toml is read (with the campaign's warning);
        `changing`, for an operation that will stage it (a table event, not its dry run), refuses it
        at once (exit 3, SPEC 2), before the operation judges a state it cannot read whole."""
        f = self.adventure_file
        if f is None:
            raise RuleError("no adventure under way (there is no adventure.toml)",
                            file=store.display(self.root / ADVENTURE), rule="adventure",
                            remedy="start one with `drunagor adventure start`")
        if changing:
            self._refuse_newer(f.path, f.raw)
        return adventure_codec.read(f)

    def stage_adventure(self, state: AdventureState) -> None:
        """Stage adventure.toml (written when the campaign is saved, with the command's other changes)."""
        f = self.adventure_file
        if f is not None:
            self._refuse_newer(f.path, f.raw)
        self.put_bytes(self.root / ADVENTURE, adventure_codec.text(state))

    def record_event(self, before: AdventureState, after: AdventureState, entry: Mapping[str, object]) -> None:
        """Stage the state after a table event: the event's line in the log, and in `events` what it
        changed as it was before, so that `adventure undo` restores the file exactly."""
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

    # -- any other file of the campaign (archived adventures)
    def file(self, path: Path) -> store.TomlFile:
        """Load another file of the campaign (e.g. under adventures/) to read or edit; its changes
        are saved with the rest. Loaded once per command."""
        path = Path(path)
        for f in self._loaded():
            if f.path == path:
                return f
        f = self._load(path)
        self._extra[path] = f
        return f

    # -- changes
    def create(self, path: Path, text: str = "") -> store.TomlFile:
        """A new file this command creates (fails at save if someone created it meanwhile)."""
        f = store.TomlFile(path, None)
        if text:
            import tomllib

            f._doc = edit.new_document(text)
            f.data = tomllib.loads(text)
        self._new[path] = f
        return f

    def put_bytes(self, path: Path, data: bytes) -> None:
        """Write a tool-owned file (adventure state) without tomlkit's round trip."""
        self._raw_writes[path] = data

    def delete(self, path: Path) -> None:
        self._deletes.add(path)

    def save(self) -> list[str]:
        """Write every change of this command at once; returns the changed paths, relative to the
        campaign folder. Nothing is written, and the exclusive lock is not taken, when nothing changed.
        Every file the command read is compared with the disk first: if one changed meanwhile, nothing
        is written (exit 4; `Stale` when another drunagor wrote before the lock was had)."""
        tx, written, created = self._transaction()
        if tx:
            self._write_lock()
        changed = tx.commit()
        self._saved(written, created)
        return [p.relative_to(self.root).as_posix() if p.is_relative_to(self.root) else str(p) for p in changed]

    def _transaction(self) -> tuple[store.Transaction, list[tuple[store.TomlFile, bytes]],
                                    list[tuple[store.TomlFile, bytes]]]:
        """Every change staged, as one transaction (empty when no byte would change), with the files
        it writes and creates."""
        self._acquire()
        tx = store.Transaction(self.root)
        written = self._stage_edits(tx)
        created = self._stage_created(tx)
        self._stage_raw(tx)
        return tx, written, created

    def _stage_edits(self, tx: store.Transaction) -> list[tuple[store.TomlFile, bytes]]:
        """Every file read: its new bytes if edited, else the bytes it must still have at commit."""
        written: list[tuple[store.TomlFile, bytes]] = []
        for f in self._loaded():
            new = f.new_bytes()
            if new is not None:
                tx.write(f.path, new, f.raw)
                written.append((f, new))
            else:
                tx.expect(f.path, f.raw)
        return written

    def _stage_created(self, tx: store.Transaction) -> list[tuple[store.TomlFile, bytes]]:
        created: list[tuple[store.TomlFile, bytes]] = []
        for path, f in self._new.items():
            data = edit.dumps(f.edit()).encode()
            tx.write(path, data, None)
            created.append((f, data))
        return created

    def _stage_raw(self, tx: store.Transaction) -> None:
        """Tool-owned bytes (put_bytes) and deletes, each refused over a file newer than this drunagor."""
        for path, data in self._raw_writes.items():
            expected = self._expected(path)
            if data != expected:
                self._refuse_newer(path, expected)
                tx.write(path, data, expected)
        for path in self._deletes:
            expected = self._expected(path)
            self._refuse_newer(path, expected)
            tx.delete(path, expected)

    def _saved(self, written: list[tuple[store.TomlFile, bytes]],
               created: list[tuple[store.TomlFile, bytes]]) -> None:
        """The command may go on and save again: what is on disk now is what it "read"."""
        for f, data in written + created:
            f._written(data)
        for f, _ in created:
            self._new.pop(f.path, None)
            self._extra[f.path] = f
        for path, data in self._raw_writes.items():
            self._seen[path] = data
        for path in self._deletes:
            self._seen[path] = None
            self._forget(path)
        self._raw_writes.clear()
        self._deletes.clear()

    # -- helpers
    def _forget(self, path: Path) -> None:
        """A file this command deleted is no longer one it read."""
        if isinstance(self._adventure, store.TomlFile) and self._adventure.path == path:
            self._adventure = None
        if self._hero_files is not None:
            for s, f in list(self._hero_files.items()):
                if f.path == path:
                    del self._hero_files[s]
                    if self._heroes is not None:
                        self._heroes.pop(s, None)
        self._extra.pop(path, None)
        if self._story_file is not None and self._story_file.path == path:
            self._story_file = None
            self._story = None

    def _loaded(self) -> list[store.TomlFile]:
        adventure = self._adventure if isinstance(self._adventure, store.TomlFile) else None
        files = [self._story_file, *(self._hero_files or {}).values(), adventure, *self._extra.values()]
        return [f for f in files if f is not None and f.raw is not None]

    def _expected(self, path: Path) -> bytes | None:
        """The bytes of `path` as this command first saw them (read now if it never had)."""
        for f in self._loaded():
            if f.path == path:
                return f.raw
        if path not in self._seen:
            self._seen[path] = store.current_bytes(path, self.root)
        return self._seen[path]

    def _refuse_newer(self, path: Path, raw: bytes | None) -> None:
        """A file of a newer schema is never written (SPEC section 2), also when replaced whole."""
        schema = store.schema_of(raw) if raw else None
        if schema is not None and schema > store.SCHEMA:
            raise store.newer_refusal(schema, store.display(path))

    def _load(self, path: Path) -> store.TomlFile:
        self._acquire()  # every read under the lock
        f = store.load(path, migrating=self.migrating, root=self.root)
        if f.read_only:
            self.warnings.append(f"{f.shown}: {newer(f.schema)}; reading it, never writing it")
        return f

    @staticmethod
    def _typed(f: store.TomlFile, convert):
        with f.about():  # a FieldError gets the file and the line of its key path
            return convert(f.data)


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

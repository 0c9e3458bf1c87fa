"""The files of one campaign folder as one session: the lock and its upgrade, the look at every file
at the open, the files open (each loaded once), the changes staged, the check that every read is
still current, and `save()` through the journal's transaction. campaign.py builds the typed campaign
over it (the Story Record, the heroes, the adventure under way).

Every command, reading or writing, opens the campaign under the shared lock (CampaignLock) before its
first read: it completes first what a killed command had committed (complete_pending, under the
exclusive lock for that moment, announced; never a journal that came with the repository: `vet`),
then looks at every campaign file once (Session._scan: a file that is not a regular one, or a git
conflict marker, anywhere stops every command, exit 3). That open is the one place that decides a
campaign is unreadable, for every command.

No command says beforehand whether it will write: its first write (`save()` with a byte to write, or
`lock_for_save()`, which a front end calls before it prints) lets go of the shared lock, waits for
the exclusive one (CampaignLock.upgrade), finishes a write killed in that moment, and checks that all it
read is as it read it (every file's bytes, a file found absent, the lists of heroes/ and adventures/).
If another drunagor wrote meanwhile, nothing is written (`Stale`), and campaign.writing() runs the
command again from the start with the exclusive lock held from its first read (exclusive=True).
Just before the rename, `save()` compares every file read once more, for an editor or git (exit 4).
A dry run, or a write that changes no byte, never takes the exclusive lock.

A campaign may come from someone else's repository: files are read only as regular files inside
the folder, never through a symbolic link, and within the store's limits (store.read_bytes).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from .. import store
from ..errors import ChangedOnDisk, DataError, UsageError
from . import edit
from .folders import MAX_FILES, take, toml_files, too_many
from .schema import newer

STORY = "story.toml"
ADVENTURE = "adventure.toml"
HEROES = "heroes"
ARCHIVE = "adventures"
FOLDERS = {HEROES: "the Campaign Logs", ARCHIVE: "the finished adventures"}  # what each folder holds
# The sheets `drunagor sheet` writes beside story.toml by default (sheet/sheets.output_path), by format:
# not campaign files (no command reads them), but drunagor's, so `sync` commits them made again.
SHEETS = {"sheet.html": "html", "sheet.md": "md"}


class Stale(ChangedOnDisk):
    """A file this command read changed before it could take the exclusive lock to write (another
    drunagor wrote in between): nothing was written. `writing()` runs the command again; uncaught,
    it is exit 4 as any change on disk."""


class NotWritten(UsageError):
    """A write refused because drunagor would refuse to read the file it makes (a text past the limits,
    a name left empty...): nothing is written, exit 2, as the value came from the command line."""

    @classmethod
    def of(cls, refusal: DataError, shown: str) -> NotWritten:
        what = refusal.message.replace(": more than a campaign holds", "")
        remedy = ("nothing was written; shorten what you typed" if refusal.rule == "limits"
                  else "nothing was written; give a value drunagor can read back")
        return cls(f"not written, as drunagor could not read the file back: {what}", file=shown,
                   rule=refusal.rule or "file", remedy=remedy)


class Session:
    """The files of one campaign folder. Use as a context manager: it opens under the shared lock,
    and takes the exclusive lock itself at its first write (see the module's doc).

    `exclusive=True` holds the exclusive lock from the first read, for a command whose reads the
    campaign cannot check at its first write: one that writes outside its save (git, sync), and the
    re-run of a command that found its reads `Stale`.
    `migrating=True` is for `drunagor migrate` only: files of an older schema are loaded.
    `scan=False` (for `check` only, which reads and reports every file itself) skips the look at every
    file at the open (_scan); `markers=False` (for `sync`, which finishes merges) skips only its search
    for conflict markers. `announce` hears at once that the campaign finished the write of an interrupted
    command (every command says so, README "Crashes": the command line prints a warning); without it
    the notice is one of the campaign's `warnings`. `vet` refuses a pending journal that did not come
    from an interrupted command here (git/planted.py), before it is completed."""

    def __init__(self, root: Path, *, vet: Callable[[Path], None], exclusive: bool = False,
                 migrating: bool = False, scan: bool = True, markers: bool = True,
                 announce: Callable[[str], None] | None = None):
        self.root = root
        self.announce = announce
        self.exclusive = exclusive
        self.migrating = migrating
        self.scan = scan
        self.markers = markers
        self._vet = vet
        self._lock: store.CampaignLock | None = None
        self._writing = False  # the exclusive lock held, and every read so far known to be current
        self._open: dict[Path, store.TomlFile] = {}  # every file loaded, once each (file())
        self._new: dict[Path, store.TomlFile] = {}
        self._raw_writes: dict[Path, bytes] = {}
        self._deletes: set[Path] = set()
        self._seen: dict[Path, bytes | None] = {}  # bytes of files read raw (put_bytes, delete)
        self._listed: dict[str, tuple[str, ...]] = {}  # heroes/, adventures/: the files found there
        self._strays = False  # the open saw temp files of a write that never reached its commit point
        self.warnings: list[str] = []

    # -- lifetime
    def __enter__(self):
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
        swept = store.CampaignLock.held(self.root) is not None  # an outer open of this process sweeps
        for _ in range(5):
            self._complete(lambda: store.complete_pending(self.root))
            lock = store.CampaignLock(self.root, shared=True).__enter__()
            if not store.pending_journal(self.root):
                try:
                    self._scan()
                except BaseException:
                    lock.__exit__(None, None, None)
                    raise
                if not self._strays or swept:
                    self._lock = lock
                    return
                lock.__exit__(None, None, None)  # nothing read yet: let go, sweep, and open again
                self._sweep()
                swept = True
                continue
            lock.__exit__(None, None, None)  # a writer was killed in between: complete it first
        raise ChangedOnDisk("the campaign keeps changing while it is read", file=store.display(self.root),
                                  rule="lock", remedy="re-run the command")

    def _sweep(self) -> None:
        """Remove the temp files of writers that died before their commit point, whatever this command
        goes on to do (a command that writes nothing would never sweep them), under the exclusive lock if
        it is free at once: a live writer's temp files exist only while it holds that lock. Never waits."""
        self._strays = False
        try:
            with store.CampaignLock(self.root, timeout=0):
                self._complete(lambda: store.roll_forward(self.root))  # a journal, if one came meanwhile
        except ChangedOnDisk:  # another command is using the campaign: the next one sweeps
            pass

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
                self._vet(self.root)
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
            self._file_names()  # only to see temp files left behind
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
                    elif e.name.endswith(store.TMP_SUFFIX):
                        self._strays = True
        except OSError:
            return found
        found.sort(key=lambda p: not p.endswith(STORY))
        for folder in sorted(folders, key=lambda f: not f.endswith(HEROES)):
            found += self._folder_names(folder, strict)
        return found

    def _folder_names(self, folder: str, strict: bool) -> list[str]:
        inside: list[str] = []
        try:
            with os.scandir(folder) as entries:
                for e in entries:
                    if e.name.endswith(".toml") and e.name[0] != ".":
                        take(e, inside, strict)
                        if len(inside) > MAX_FILES:  # a campaign holds no more: every command stops
                            raise too_many(folder, FOLDERS[os.path.basename(folder)])
                    elif e.name.endswith(store.TMP_SUFFIX):
                        self._strays = True
        except OSError:
            return []
        return sorted(inside)

    def _release(self) -> None:
        if self._lock is not None:
            lock, self._lock = self._lock, None
            lock.__exit__(None, None, None)

    def listing(self, name: str) -> list[Path]:
        """The .toml files of the campaign's folder `name` (heroes/, adventures/), sorted; the list is
        one of the reads a write rests on."""
        self._acquire()
        found = toml_files(self.root / name, FOLDERS[name])
        self._listed.setdefault(name, tuple(p.name for p in found))  # what a write may rest on
        return found

    def absent(self, path: Path) -> None:
        """The command read that nothing stands at `path`: a file created there meanwhile is a change."""
        self._seen[path] = None

    # -- the files of the campaign
    def file(self, path: Path) -> store.TomlFile:
        """Load a file of the campaign to read or edit; its changes are saved with the rest. Loaded
        once per command."""
        path = Path(path)
        f = self._open.get(path)
        if f is None:
            f = self._load(path)
            self._open[path] = f
        return f

    def opened(self, path: Path) -> store.TomlFile | None:
        """The file at `path` if this command loaded it, else None (nothing is read)."""
        f = self._open.get(Path(path))
        return f if f is not None and f.raw is not None else None

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
            self._refuse_past_limit([*self._new, *self._raw_writes])
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

    def _refuse_past_limit(self, made: list[Path]) -> None:
        """A write that would put more than MAX_FILES logs (or archives) in their folder is refused
        before anything is written: no command could read the campaign after it."""
        for name, what in FOLDERS.items():
            new = {p.name for p in made if p.parent == self.root / name and p.suffix == ".toml"}
            if new and len({p.name for p in toml_files(self.root / name, what)} | new) > MAX_FILES:
                exc = too_many(self.root / name, what)
                exc.remedy = "nothing was written; " + (exc.remedy or "")
                raise exc

    def _stage_edits(self, tx: store.Transaction) -> list[tuple[store.TomlFile, bytes]]:
        """Every file read: its new bytes if edited, else the bytes it must still have at commit."""
        written: list[tuple[store.TomlFile, bytes]] = []
        for f in self._loaded():
            new = f.new_bytes()
            if new is not None:
                self._readable(f.path, new)
                tx.write(f.path, new, f.raw)
                written.append((f, new))
            else:
                tx.expect(f.path, f.raw)
        return written

    def _stage_created(self, tx: store.Transaction) -> list[tuple[store.TomlFile, bytes]]:
        created: list[tuple[store.TomlFile, bytes]] = []
        for path, f in self._new.items():
            data = edit.dumps(f.edit()).encode()
            self._readable(path, data)
            tx.write(path, data, None)
            created.append((f, data))
        return created

    def _stage_raw(self, tx: store.Transaction) -> None:
        """Tool-owned bytes (put_bytes) and deletes, each refused over a file newer than this drunagor."""
        for path, data in self._raw_writes.items():
            expected = self._expected(path)
            if data != expected:
                self._refuse_newer(path, expected)
                self._readable(path, data)
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
            self._open[f.path] = f
        for path, data in self._raw_writes.items():
            self._seen[path] = data
        for path in self._deletes:
            self._seen[path] = None
            self._forget(path)
        self._raw_writes.clear()
        self._deletes.clear()

    def _readable(self, path: Path, data: bytes) -> None:
        """Refuse to write `data` to `path` if drunagor would refuse to read it back (docs/errors.md
        "Limits"): the reader's own checks (parse: TOML, the limits on texts, entries and depth; the
        schema; `read_back`: the typed values of the file's kind), so that no write makes a campaign that
        no command opens. A refusal is NotWritten (exit 2): nothing of the command is written."""
        try:
            self.read_back(store.TomlFile(path, data, migrating=self.migrating))
        except DataError as exc:
            raise NotWritten.of(exc, store.display(path)) from None

    def read_back(self, f: store.TomlFile) -> None:
        """The typed reading of a file about to be written (the Campaign reads its Story Record, a
        Campaign Log, an adventure): a DataError if it would refuse it."""

    # -- helpers
    def _forget(self, path: Path) -> None:
        """A file this command deleted is no longer one it read."""
        self._open.pop(path, None)

    def _loaded(self) -> list[store.TomlFile]:
        """The files read, in the order they are checked and written: story.toml, the Campaign Logs,
        adventure.toml, then the others, each group in the order it was loaded."""
        def rank(f: store.TomlFile) -> int:
            if f.path == self.root / STORY:
                return 0
            if f.path.parent == self.root / HEROES:
                return 1
            return 2 if f.path == self.root / ADVENTURE else 3

        return sorted((f for f in self._open.values() if f.raw is not None), key=rank)

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

"""A campaign folder: finding it, loading its files lazily, and saving what a command changed.

Reading commands load only what they show (`drunagor raid` never opens the heroes' logs); writing
commands hold the campaign lock from their first read to their last write.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import store
from .errors import DataError, UsageError
from .model import FieldError, Hero, Story, hero_from, story_from
from .names import lookup, slug

STORY = "story.toml"
ADVENTURE = "adventure.toml"
HEROES = "heroes"
ARCHIVE = "adventures"


def find_campaign(option: str | None, cwd: Path | None = None) -> Path:
    """SPEC section 3: -C/--campaign > DRUNAGOR_CAMPAIGN > the current directory if it holds
    story.toml > the only campaign under ./campaigns/."""
    cwd = cwd or Path.cwd()
    for source, value in (("-C/--campaign", option), ("DRUNAGOR_CAMPAIGN", os.environ.get("DRUNAGOR_CAMPAIGN"))):
        if value:
            path = Path(value).expanduser()
            if not (path / STORY).is_file() and (cwd / "campaigns" / value / STORY).is_file():
                path = cwd / "campaigns" / value  # a bare campaign name is accepted too
            if not (path / STORY).is_file():
                raise UsageError(f"{source} names {value!r}, which holds no {STORY}",
                                 remedy="give the folder of a campaign (drunagor list shows them)")
            return path
    if (cwd / STORY).is_file():
        return cwd
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
    return sorted(p for p in directory.iterdir() if (p / STORY).is_file())


class Campaign:
    """One campaign folder. Use as a context manager; `write=True` takes the campaign lock."""

    def __init__(self, root: Path, write: bool = False):
        self.root = root
        self.write = write
        self._lock: store.CampaignLock | None = None
        self._story_file: store.TomlFile | None = None
        self._story: Story | None = None
        self._hero_files: dict[str, store.TomlFile] | None = None
        self._heroes: dict[str, Hero] | None = None
        self._adventure: store.TomlFile | None | bool = False  # False: not looked at yet
        self._new: dict[Path, store.TomlFile] = {}
        self._raw_writes: dict[Path, bytes] = {}
        self._deletes: set[Path] = set()
        self.warnings: list[str] = []

    # -- lifetime
    def __enter__(self) -> "Campaign":
        if self.write:
            self._lock = store.CampaignLock(self.root).__enter__()
            store.roll_forward(self.root)
        elif (self.root / store.JOURNAL).exists():
            with store.CampaignLock(self.root):  # finish what a killed command had committed
                store.roll_forward(self.root)
        return self

    def __exit__(self, *exc) -> None:
        if self._lock is not None:
            self._lock.__exit__(*exc)
            self._lock = None

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
    @property
    def hero_files(self) -> dict[str, store.TomlFile]:
        if self._hero_files is None:
            folder = self.root / HEROES
            files = sorted(folder.glob("*.toml")) if folder.is_dir() else []
            self._hero_files = {p.stem: self._load(p) for p in files}
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
        return lookup(query, by_name, "hero")

    def hero_path(self, name: str) -> Path:
        return self.root / HEROES / f"{slug(name)}.toml"

    # -- the adventure under way
    @property
    def adventure_file(self) -> store.TomlFile | None:
        if self._adventure is False:
            path = self.root / ADVENTURE
            self._adventure = self._load(path) if path.exists() else None
        return self._adventure  # type: ignore[return-value]

    # -- changes
    def create(self, path: Path, text: str = "") -> store.TomlFile:
        """A new file this command creates (fails at save if someone created it meanwhile)."""
        f = store.TomlFile(path, None)
        if text:
            f.raw = None
            f._text = text
            import tomlkit

            f._doc = tomlkit.parse(text)
        self._new[path] = f
        return f

    def put_bytes(self, path: Path, data: bytes) -> None:
        """Write a tool-owned file (adventure state) without tomlkit's round trip."""
        self._raw_writes[path] = data

    def delete(self, path: Path) -> None:
        self._deletes.add(path)

    def save(self) -> list[str]:
        """Write every change of this command at once; returns the changed paths, relative to the
        campaign folder. Nothing is written when nothing changed."""
        if not self.write:
            raise RuntimeError("campaign opened read-only")
        tx = store.Transaction(self.root)
        loaded = [self._story_file, *(self._hero_files or {}).values()]
        if self._adventure:
            loaded.append(self._adventure)
        for f in loaded:
            if f is not None and f.raw is not None:
                new = f.new_bytes()
                if new is not None:
                    tx.write(f.path, new, f.raw)
        for path, f in self._new.items():
            import tomlkit

            tx.write(path, tomlkit.dumps(f.edit()).encode(), None)
        for path, data in self._raw_writes.items():
            expected = self._expected(path)
            if data != expected:
                tx.write(path, data, expected)
        for path in self._deletes:
            tx.delete(path, self._expected(path))
        changed = tx.commit()
        return [str(p.relative_to(self.root)) for p in changed]

    # -- helpers
    def _expected(self, path: Path) -> bytes | None:
        for f in [self._story_file, self._adventure or None, *(self._hero_files or {}).values()]:
            if f is not None and f.path == path:
                return f.raw
        return path.read_bytes() if path.exists() else None

    def _load(self, path: Path) -> store.TomlFile:
        f = store.load(path)
        if f.read_only:
            self.warnings.append(f"{f.shown}: schema {f.data['schema']} is newer than this drunagor "
                                 f"knows ({store.SCHEMA}); reading it, never writing it")
        return f

    @staticmethod
    def _typed(f: store.TomlFile, convert):
        try:
            return convert(f.data)
        except FieldError as exc:
            raise DataError(exc.message, file=f.shown, line=f.line(exc.path), remedy=exc.remedy,
                            rule="shape") from None

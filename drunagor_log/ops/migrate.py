"""`drunagor migrate`: bring campaign files written by an older drunagor to the current schema.

When a release changes the shape of a file, it bumps store.SCHEMA and adds one step to
store.schema.STEPS (see there); this runner applies the steps in order to each file's tomlkit
document and sets `schema` after each. Only this operation reads files of an older schema
(Campaign(migrating=True)); every other command refuses them (store.schema.older: "run drunagor
migrate", exit 3, or what to do by hand when no chain of steps leads from the file's schema). All files
of a campaign are migrated in one all-or-nothing write. Files of a newer schema are never touched.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import store
from ..campaign import Campaign, kind_of
from ..errors import DataError
from ..store import schema as schemas
from ..store.schema import RUN_MIGRATE, Step


def migrate_doc(doc: Any, kind: str, steps: dict[int, Step] | None = None,
                target: int | None = None) -> list[int]:
    """Apply the steps from the document's schema up to `target` (default store.SCHEMA), in order.
    Returns the schemas the document went through (empty if it was already there)."""
    steps = schemas.STEPS if steps is None else steps
    target = store.SCHEMA if target is None else target
    schema = int(doc["schema"])
    passed = []
    while schema < target:
        step = steps.get(schema)
        if step is None:
            raise KeyError(schema)
        step(doc, kind)
        schema += 1
        doc["schema"] = schema
        passed.append(schema)
    return passed


@dataclass
class FileChange:
    """One file the migration changes."""

    path: Path
    rel: str  # relative to the campaign folder
    kind: str
    old_schema: int
    before: bytes
    after: bytes

    def diff(self) -> str:
        import difflib

        lines = difflib.unified_diff(self.before.decode("utf-8").splitlines(keepends=True),
                                     self.after.decode("utf-8").splitlines(keepends=True),
                                     fromfile=f"a/{self.rel}", tofile=f"b/{self.rel}")
        return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                       for line in lines)


@dataclass
class Plan:
    changes: list[FileChange]
    newer: list[tuple[str, int]]  # files of a newer schema (and their schema), left alone
    current: int  # files already at the current schema


def files_text(plan: Plan) -> str:
    """"1 file", "3 files": the files a plan changes."""
    n = len(plan.changes)
    return f"{n} file" if n == 1 else f"{n} files"


def nothing_to_do(plan: Plan) -> str:
    """The line `migrate` prints when no file needs it."""
    if not plan.newer:
        return f"no change: every file is at schema {store.SCHEMA}"
    # not "every file": the newer ones are not at this schema, only left alone
    return (f"no change: {plan.current} {'file' if plan.current == 1 else 'files'} at schema {store.SCHEMA}; "
            f"{len(plan.newer)} left alone (newer schema): {', '.join(rel for rel, _ in plan.newer)}")


def campaign_files(c: Campaign) -> list[store.TomlFile]:
    """Every file of the campaign, loaded for migration (older schemas accepted)."""
    files = [c.story_file, *c.hero_files.values()]
    if c.adventure_file is not None:
        files.append(c.adventure_file)
    files += [c.file(p) for p in c.archive_paths()]  # refuses a file or a link standing as adventures/
    return files


def plan(c: Campaign, steps: dict[int, Step] | None = None) -> Plan:
    """Migrate the documents of `c` in memory (opened with migrating=True) and say what changes.
    Nothing is written: `c.save()` writes the plan, all files or none."""
    if not c.migrating:
        raise RuntimeError("open the campaign with Campaign(root, migrating=True)")
    import tomllib

    steps = schemas.STEPS if steps is None else steps
    changes: list[FileChange] = []
    newer: list[tuple[str, int]] = []
    current = 0
    for f in campaign_files(c):
        rel = Path(f.path).relative_to(c.root).as_posix() if f.path.is_relative_to(c.root) else f.shown
        schema = f.schema or 0
        if f.read_only:
            newer.append((rel, schema))
            continue
        if schema == store.SCHEMA:
            current += 1
            continue
        assert schema is not None and f.raw is not None  # store.load checked both
        kind = kind_of(c.root, f.path)
        message, remedy = schemas.older(schema, steps)
        if remedy != RUN_MIGRATE:  # no chain of steps from this schema: the same refusal as every command's
            raise f.refuse(("schema",), message, rule="schema", remedy=remedy, error=DataError)
        migrate_doc(f.edit(), kind, steps)
        after = f.new_bytes()
        if after is None:  # cannot happen: the schema line changed at least
            continue
        data = tomllib.loads(after.decode("utf-8"))  # a step must leave valid TOML
        if data.get("schema") != store.SCHEMA:
            raise RuntimeError(f"migration of {rel} ended at schema {data.get('schema')}")
        changes.append(FileChange(f.path, rel, kind, schema, f.raw, after))
    return Plan(changes, newer, current)


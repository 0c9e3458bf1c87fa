"""Schema migrations: bring campaign files written by an older drunagor to the current schema.

Every campaign file starts with `schema = N` (SPEC section 2). When a release changes the shape of a
file, it bumps store.SCHEMA and adds one step to STEPS: `STEPS[n]` turns a file at schema n into
schema n + 1. A step is a pure function `step(doc, kind)` that mutates the tomlkit document in place
(so the user's comments, key order and unknown keys survive) and does nothing else: no files, no
terminal. `kind` says which file it is ("story", "hero", "adventure", "archive"); a step ignores the
kinds it does not change. The runner applies the steps in order and sets `schema` after each.

Only `drunagor migrate` reads files of an older schema (Campaign(migrating=True)); every other
command refuses them with "run drunagor migrate" (exit 3). All files of a campaign are migrated in one
all-or-nothing write. Files of a newer schema are never touched.

Schema 1 is the first schema, so STEPS is empty today; the tests inject a synthetic 0 -> 1 step.
A file whose schema is below the first one the table knows was not written by drunagor: no command
sends it to `drunagor migrate` (which could not help); `refusal()` says so, for both paths.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from . import store
from .campaign import Campaign, kind_of
from .errors import DataError

Step = Callable[[Any, str], None]

# STEPS[n]: schema n -> n + 1, in place. Add one per schema bump; never edit a released step.
STEPS: dict[int, Step] = {}
RUN_MIGRATE = "run `drunagor migrate`"


def refusal(schema: int, steps: dict[int, Step] | None = None) -> tuple[str, str]:
    """(message, remedy) for a file at an older `schema`, honest about whether `drunagor migrate` can
    bring it to store.SCHEMA: only then does the remedy name migrate (SPEC 6: the remedy must work)."""
    steps = STEPS if steps is None else steps
    first = min(steps, default=store.SCHEMA)  # the first schema drunagor wrote (1 while STEPS is empty)
    if schema < first:
        return (f"schema {schema} was not written by drunagor (its first schema is {first})",
                f"if the file follows the format in README, set `schema = {store.SCHEMA}`, then run "
                "`drunagor check`")
    if all(n in steps for n in range(schema, store.SCHEMA)):
        return f"schema {schema} is older than this drunagor's ({store.SCHEMA})", RUN_MIGRATE
    return (f"schema {schema} is older than this drunagor's ({store.SCHEMA}) and no migration from it is known",
            f"bring the file to the format in README by hand and set `schema = {store.SCHEMA}`")


def rename_key(table: Any, old: str, new: str) -> None:
    """Rename a key of a table where it stands, keeping its value and its comment (for steps)."""
    from .store import edit

    edit.rename_key(table, old, new)


def migrate_doc(doc: Any, kind: str, steps: dict[int, Step] | None = None,
                target: int | None = None) -> list[int]:
    """Apply the steps from the document's schema up to `target` (default store.SCHEMA), in order.
    Returns the schemas the document went through (empty if it was already there)."""
    steps = STEPS if steps is None else steps
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
class Change:
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
    changes: list[Change]
    newer: list[str]  # files of a newer schema, left alone
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
            f"{len(plan.newer)} left alone (newer schema): {', '.join(plan.newer)}")


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

    steps = STEPS if steps is None else steps
    changes, newer, current = [], [], 0
    for f in campaign_files(c):
        rel = Path(f.path).relative_to(c.root).as_posix() if f.path.is_relative_to(c.root) else f.shown
        schema = f.schema
        if f.read_only:
            newer.append(rel)
            continue
        if schema == store.SCHEMA:
            current += 1
            continue
        assert schema is not None and f.raw is not None  # store.load checked both
        kind = kind_of(c.root, f.path)
        message, remedy = refusal(schema, steps)
        if remedy != RUN_MIGRATE:  # no chain of steps from this schema: the same refusal as every command's
            raise DataError(message, file=f.shown, line=f.line(("schema",)), rule="schema", remedy=remedy)
        migrate_doc(f.edit(), kind, steps)
        after = f.new_bytes()
        if after is None:  # cannot happen: the schema line changed at least
            continue
        data = tomllib.loads(after.decode("utf-8"))  # a step must leave valid TOML
        if data.get("schema") != store.SCHEMA:
            raise RuntimeError(f"migration of {rel} ended at schema {data.get('schema')}")
        changes.append(Change(f.path, rel, kind, schema, f.raw, after))
    return Plan(changes, newer, current)


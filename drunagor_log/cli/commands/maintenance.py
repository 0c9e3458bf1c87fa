"""Maintenance commands: `drunagor migrate` (bring files to the current schema)."""


from typing import Annotated

import typer

from ..common import CommitOpt, said, write_campaign
from ..terminal import term


def migrate(
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show the changes as a diff; write nothing.")] = False,
    commit: CommitOpt = False,
) -> None:
    """Bring every file of the campaign to the current schema, in place.

    Files written by an older drunagor (an older `schema = N`) are rewritten in one all-or-nothing
    write; comments, key order and your own keys are kept. Files already current, or newer than this
    drunagor, are left alone. Every other command refuses an older file until it is migrated.

    Example: drunagor migrate --dry-run
    """
    from ... import store
    from ...ops import migrate as migration
    from ...store.schema import newer

    def body(c) -> None:
        plan = migration.plan(c)
        if plan.changes and not dry_run:
            c.lock_for_save()  # before anything is printed: a re-run prints nothing twice
        for rel, schema in plan.newer:
            term.warn(f"{rel}: {newer(schema)}; left as it is")
        if not plan.changes:
            term.line(migration.nothing_to_do(plan))
        elif dry_run:
            for change in plan.changes:
                term.raw(change.diff())
            term.line(f"would migrate {migration.files_text(plan)} to schema {store.SCHEMA} "
                      "(dry run: nothing written)")
        else:
            _save(c, f"migrated {migration.files_text(plan)} to schema {store.SCHEMA}", commit)

    write_campaign(body, migrating=True)


def _save(c, message: str, commit: bool) -> None:
    """Write the migrated files at once; commit them if asked (or `[git] autocommit`, read from the raw
    values: the Story Record of an older schema is not read as such)."""
    from ...ops.commit import commit_tail

    git = c.story_file.data.get("git")
    autocommit = isinstance(git, dict) and git.get("autocommit") is True
    saved = commit_tail(c.root, c.save, message, commit=commit, autocommit=autocommit,
                        written=lambda files: term.done(f"{message}: {', '.join(files)}"))
    said(saved, message)


def register(app: typer.Typer) -> None:
    app.command()(migrate)

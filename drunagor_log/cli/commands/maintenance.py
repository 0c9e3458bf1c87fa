"""Maintenance commands: `drunagor migrate` (bring files to the current schema)."""


from typing import Annotated

import typer

from ..common import CommitOpt, campaign_root
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
    from ... import migrations, store
    from ...campaign import Campaign

    root = campaign_root()
    with Campaign(root, write=not dry_run, migrating=True) as c:
        plan = migrations.plan(c)
        for rel in plan.newer:
            term.warn(f"{rel}: its schema is newer than this drunagor knows ({store.SCHEMA}); left as it is")
        n = len(plan.changes)
        files = "file" if n == 1 else "files"
        if not plan.changes:
            if not plan.newer:
                term.line(f"no change: every file is at schema {store.SCHEMA}")
            else:  # not "every file": the newer ones are not at this schema, only left alone
                term.line(f"no change: {plan.current} {'file' if plan.current == 1 else 'files'} at schema "
                          f"{store.SCHEMA}; {len(plan.newer)} left alone (newer schema): {', '.join(plan.newer)}")
            return
        if dry_run:
            for change in plan.changes:
                print(change.diff(), end="")
            term.line(f"would migrate {n} {files} to schema {store.SCHEMA} (dry run: nothing written)")
            return
        git = (c.story_file.data.get("git") or {}) if isinstance(c.story_file.data.get("git"), dict) else {}
        wants_commit = commit or git.get("autocommit") is True
        message = f"migrated {n} {files} to schema {store.SCHEMA}"
        if wants_commit:
            from ... import gitops

            gitops.check_can_commit(c.root, explicit=commit)  # before writing
        changed = c.save()
        term.done(f"{message}: {', '.join(changed)}")
        if wants_commit:
            sha = gitops.commit_changes(c.root, changed, message)
            if sha:
                term.line(f"committed {sha}: drunagor: {message}")


def register(app: typer.Typer) -> None:
    app.command()(migrate)

"""Checks of the campaign's git repository: the campaign-aware merge driver is set up where the
campaign is shared (a warning: without it, git merges the campaign line by line, as before).

Cheap by design (`check` has a speed budget): it reads the repository's config and the
.gitattributes files as text and never runs git; outside a repository, or in one with no remote,
it says nothing."""

from __future__ import annotations

from .. import store
from ..git.driver_setup import driver_problem
from .registry import check, problem


@check("merge-driver")
def merge_driver(c):

    message = driver_problem(c.root)
    if message:
        yield problem(store.display(c.root), (), "merge-driver", message, severity="warning")

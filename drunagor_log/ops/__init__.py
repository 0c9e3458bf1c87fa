"""Campaign operations: one function per thing a player does, the library under every front end.

The command line, the sheets, the token import and `sync` all call these; none of them edits a file
or enforces a rule itself. An operation takes an open `Campaign`, resolves the names the user typed,
asks `rules/` whether the action is allowed, edits the campaign's files through the store, and
returns a `Change`; a refusal is a `DrunagorError` with its exit code. Nothing is on disk until the
campaign is saved, so several operations can make one all-or-nothing write:

    from drunagor_log import ops
    from drunagor_log.campaign import Campaign

    with Campaign(Path("campaigns/example")) as c:
        change = ops.equipment.gain(c, "Nyx", "Buckler")
        c.save()
    print(change.summary)          # Nyx gains Buckler (spoils, standard, equipped)

`ops.apply(root, operation, ...)` does the same in one call, and more: when another command wrote
the campaign between this one's reads and its save (`campaign.Stale`, exit 4 above), it runs the
operation once more from the start under the exclusive lock (`campaign.writing`), as every command
of the command line does. Use it, or `writing`, where two programs may write at once.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..campaign import Campaign, writing
from ..values import field, record


@record
class Change:
    """What an operation did: the one line a command prints, and what else a front end may show.

    `summary` is the line a writing command prints ("Nyx gains Buckler ..."); `notes` are further
    lines of output (rewards owed, a reminder of what to do next); `warnings` go to stderr; `data` is
    the operation's result for `--json`. A reading operation returns the same shape with `data` only.
    """

    summary: str = ""
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    data: dict = field(factory=dict)


def apply(root: Path, operation: Callable[..., Change], *args: Any, **kwargs: Any) -> tuple[Change, list[str]]:
    """Open the campaign at `root`, run `operation(campaign, *args, **kwargs)`, save (once more from
    the start if another drunagor wrote what it read meanwhile: campaign.writing).

    Returns the change and the files written (relative to the campaign folder; empty when the
    operation changed nothing)."""

    def body(c: Campaign) -> tuple[Change, list[str]]:
        change = operation(c, *args, **kwargs)
        return change, c.save()

    return writing(root, body)


class Line(str):
    """A line of output (in `Change.notes`) with the style a colour terminal gives it ("bold", "bold
    red"): still a plain `str` everywhere else (piped output, a script, a test)."""

    style: str | None

    def __new__(cls, text: str, style: str | None = None) -> Line:
        line = super().__new__(cls, text)
        line.style = style
        return line


def __getattr__(name: str) -> Any:
    """`ops.heroes`, `ops.adventure`, ...: an area's module, imported when first used (a script needs
    only `from drunagor_log import ops`; a command imports just the one it calls)."""
    import importlib

    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{name}":
            raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None

"""The one door to Click: Typer (0.26-0.28) vendors its own copy as `typer._click`, a private module
whose place may change with a Typer release. Every module of the command line and of the table session
takes Click's names from here, so such a change is one edit. Importing this costs nothing: Typer has
already imported all of it (its completion too) before any command of ours is built."""

from __future__ import annotations

from typer._click import Context, types
from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError
from typer._click.formatting import HelpFormatter
from typer._click.globals import get_current_context
from typer._click.shell_completion import CompletionItem, ShellComplete
from typer._click.utils import make_default_short_help
from typer.exceptions import Abort

__all__ = ["Abort", "ClickException", "CompletionItem", "Context", "HelpFormatter", "NoArgsIsHelpError",
           "ShellComplete", "UsageError", "get_current_context", "make_default_short_help", "types"]

"""The `play` command itself, registered by cli/app.py like every top-level command. Importing it costs
nothing: the session (and prompt_toolkit) is imported when `drunagor play` runs."""

# No `from __future__ import annotations` here: Typer reads the annotations (cli/commands/ do the same).
import typer


def play() -> None:
    """The table session: type drunagor commands without the prefix, with the board always in view.

    Each line is a command as after `drunagor` (raid --seed 3, monster remove 2, odds) and prints exactly
    what that command prints; completion as you type (Tab), history per campaign (Up), and a toolbar:
    chapter, round, rune bag, raid card face, monsters by slot, heroes near their cube limit, LOST. `undo`
    is `adventure undo`, `help` is --help; `exit`, `quit` or Ctrl-D leave, Ctrl-C clears the line. No lock
    is held while it waits. Without a terminal it runs the lines of standard input (a script of table
    events) and prints only what the commands print; its exit code is the first failure's.

    Example: drunagor play
    """
    from ..cli.common import options
    from .session import run

    raise typer.Exit(run(options().campaign))


def register(app: typer.Typer) -> None:
    app.command("play")(play)

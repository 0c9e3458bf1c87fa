"""`drunagor completion SHELL`: the shell's completion script (SPEC section 9)."""

# No `from __future__ import annotations` here: Typer would eval every string annotation.
from typing import Annotated

import typer

from ...errors import UsageError
from ..completion import SHELLS, script
from ..terminal import term


def completion(
    shell: Annotated[str, typer.Argument(help="bash, zsh or fish.", metavar="SHELL")],
) -> None:
    """Print the completion script of a shell: commands, options, and names from the campaign and
    the catalog (heroes, the cards a hero holds, monsters on the board, chapters, rune colours).

    bash: add `eval "$(drunagor completion bash)"` to ~/.bashrc. zsh: `eval "$(drunagor completion
    zsh)"` in ~/.zshrc (after compinit). fish: `drunagor completion fish >
    ~/.config/fish/completions/drunagor.fish`. Load it again after updating drunagor.

    Each name reaches the shell as data and is inserted as one word, quoted for that shell: a name
    from a campaign's files never runs as code. A name holding a control character (a newline, a
    tab, an escape) is not offered.

    Example: drunagor completion bash
    """
    name = shell.strip().casefold()
    if name not in SHELLS:
        raise UsageError(f"no completion for the shell {shell!r}", remedy=f"use one of {', '.join(SHELLS)}")
    term.raw(script(name) + "\n")


def register(app: typer.Typer) -> None:
    app.command("completion")(completion)

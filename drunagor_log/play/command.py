"""The `play` command itself, registered by cli/app.py like every top-level command. Importing it costs
nothing: the session (and prompt_toolkit) is imported when `drunagor play` runs."""

# No `from __future__ import annotations` here: Typer reads the annotations (cli/commands/ do the same).
from typing import Annotated

import typer


def play(
    serve: Annotated[bool, typer.Option("--serve", help="Also serve the table's screen on 127.0.0.1 (as "
                                                        "`drunagor serve`, with each hero's phone URL; `qr NAME` "
                                                        "shows one as a QR code) while the session runs.")] = False,
    port: Annotated[int, typer.Option("--port", metavar="N", min=0, max=65535,
                                      help="With --serve: the port (0: any free one).")] = 8765,
) -> None:
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

    if not serve:
        raise typer.Exit(run(options().campaign))
    from ..campaign import find_campaign
    from ..cli.phone import Phones, phone_line
    from ..cli.terminal import term
    from ..serve import running
    from .session import Notices

    root = find_campaign(options().campaign)
    notices = Notices()
    phones = Phones(root, lambda name, label, answer: notices.say(phone_line(name, label, answer)))
    with running(root, port, act=phones.act) as served:
        term.line(f"the table's screen: {served.url} (until the session ends)")
        names = {h["slug"]: h["name"] for h in served.board.data.get("heroes", ())}
        for stem, url in served.heroes.items():
            term.line(f"{names.get(stem, stem)}'s phone: {url}")
        if served.heroes:
            term.line("`qr NAME` shows a hero's QR code here")
        code = run(options().campaign, served=served, notices=notices)
    raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    app.command("play")(play)

"""`drunagor serve`: the campaign as a live web page for every phone, tablet and TV at the table."""

import sys
from typing import Annotated

import typer

from ..common import campaign_root
from ..terminal import term


def serve(
    port: Annotated[int, typer.Option("--port", metavar="N", help="The port to listen on (0: any free one).",
                                      min=0, max=65535)] = 8765,
    lan: Annotated[bool, typer.Option("--lan", help="Listen on the local network, with an access key for this "
                                                    "run in the URL (and a QR code for phones).")] = False,
    open_: Annotated[bool, typer.Option("--open", help="Open the page in this computer's web browser.")] = False,
    no_qr: Annotated[bool, typer.Option("--no-qr", help="Under --lan, print the URL without the QR code.")] = False,
) -> None:
    """A read-only web view of the campaign, live: the table now, each Campaign Log, the Story Record.

    Every page follows the campaign's files as they change (a command, `drunagor play`, `git pull`, an
    editor) within half a second, without a reload. It listens on 127.0.0.1 only; with --lan, on the
    local network, where each run makes a new access key (in the printed URL; a request without it
    is refused). Nothing served writes. Add ?tv to a page's address for a TV across the room. Ctrl-C
    stops it.

    Example: drunagor serve --lan
    """
    from ...serve import run
    from ...store import display

    root = campaign_root()

    def said(served) -> None:
        where = "the local network" if lan else "this computer only"
        term.line(f"serving {display(root)} on {where}: {served.url}")
        if served.qr is not None and not no_qr:
            term.raw(served.qr)
        if lan:
            term.line("a phone on the same Wi-Fi joins by this URL (or the QR code); the key changes each run")
        term.line("Ctrl-C stops it")
        sys.stdout.flush()  # the URL is read at once, also from a pipe

    run(root, port, lan, said, open_browser=open_)
    term.line("stopped")


def register(app: typer.Typer) -> None:
    app.command()(serve)

"""`drunagor serve`: the campaign as a live web page for every phone, tablet and TV at the table."""

import sys
import threading
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
    json: Annotated[bool, typer.Option("--json", help="Print the table's URL and each hero's as one JSON object "
                                                      "on the first line; every message goes to stderr.")] = False,
) -> None:
    """A read-only web view of the campaign, live: the table now, each Campaign Log, the Story Record.

    Every page follows the campaign's files as they change (a command, `drunagor play`, `git pull`, an
    editor) within half a second, without a reload. It listens on 127.0.0.1 only; with --lan, on the
    local network, where each run makes a new access key (in the printed URL; a request without it
    is refused). Each hero of the party gets a key of their own too, new each run: their URL (printed
    here; type the hero's name and Enter for its QR code) opens every page and lets that phone record
    for that hero only (cubes, Recall, rewards...), as the commands do. Nothing else served writes.
    Add ?tv to a page's address for a TV across the room. Ctrl-C stops it.

    Example: drunagor serve --lan
    """
    import json as jsonlib

    from ...serve import run
    from ...store import display
    from ..phone import Phones, phone_line

    root = campaign_root()
    say = term.message if json else term.line  # with --json, stdout holds the one JSON line only

    def said(served) -> None:
        if json:
            sys.stdout.write(jsonlib.dumps({"url": served.url, "heroes": served.heroes}) + "\n")
        where = "the local network" if lan else "this computer only"
        say(f"serving {display(root)} on {where}: {served.url}")
        if served.qr is not None and not no_qr and not json:
            term.raw(served.qr)
        if lan:
            say("a phone on the same Wi-Fi joins by this URL (or the QR code); the key changes each run")
        names = {h["slug"]: h["name"] for h in served.board.data.get("heroes", ())}
        for stem, url in served.heroes.items():
            say(f"{names.get(stem, stem)}'s phone: {url}")
        if served.heroes:
            say("type a hero's name and Enter to show their QR code here")
        say("Ctrl-C stops it")
        sys.stdout.flush()  # the URL is read at once, also from a pipe
        threading.Thread(target=_qr_on_request, args=(served, json), daemon=True).start()

    def acted(name: str, label: str, answer: dict) -> None:
        say(phone_line(name, label, answer))

    run(root, port, lan, said, open_browser=open_, act=Phones(root, acted).act)
    say("stopped")


def _qr_on_request(served, json: bool) -> None:
    """Each line typed on the scribe's terminal that names a hero shows their URL's QR code (on
    stderr with --json); standard input closed or not a terminal ends it."""
    try:
        if not sys.stdin or not sys.stdin.isatty():
            return
        for line in sys.stdin:
            found = served.hero_qr(line)
            if found is None:
                term.message(f"no hero {line.strip()!r}: " + ", ".join(served.heroes))
                continue
            stem, qr = found
            (sys.stderr if json else sys.stdout).write(qr)
            term.message(f"{stem}: {served.heroes[stem]}")
    except (OSError, ValueError):
        return


def register(app: typer.Typer) -> None:
    app.command()(serve)

"""`drunagor sheet`: the campaign as sheets to look at, print or share (HTML or Markdown)."""

from typing import Annotated

import typer

from ..common import campaign_root, warn_all
from ..terminal import term


def sheet(
    format: Annotated[str | None, typer.Option(
        "--format", metavar="html|md", help="html (the default) or md; else taken from --out's suffix.")] = None,
    out: Annotated[str | None, typer.Option(
        "--out", metavar="PATH|-", help="Where to write it (a folder gets sheet.html in it); - for stdout. "
                                        "Default: sheet.html (sheet.md) in the campaign folder.")] = None,
    open_: Annotated[bool, typer.Option("--open", help="Open the written sheet in the web browser.")] = False,
) -> None:
    """The campaign as printable sheets: one self-contained HTML page (or Markdown for GitHub).

    Story Record, one Campaign Log per hero, the Chest grid and the Commander Attack deck, the adventure
    under way as a picture (Monster Status board, raid card, Piles of Runes, rune bag) and the timeline
    of archived adventures. Each sheet prints on its own page. The page has no script and loads nothing
    from the network; a sheet made again from unchanged files is the same bytes (left untouched).

    Example: drunagor sheet --format md
    """
    from ... import sheet as sheets
    from ...campaign import Campaign
    from ...store import display

    fmt = sheets.format_for(format, out, open_)
    root = campaign_root()
    if out != "-":
        sheets.check_out(sheets.output_path(root, fmt, out))  # before the campaign is even read
    with Campaign(root, announce=term.warn) as c:
        data = sheets.view(c)
        warn_all(c)
    text = sheets.render(data, fmt)
    if out == "-":
        term.raw(text)  # through the facade, as all output (its values are shown visible already)
        return
    path, n = sheets.output_path(root, fmt, out), len(data["sheets"])
    if sheets.write(path, text):
        term.done(f"wrote {display(path)} ({n} sheets)")
    else:
        term.line(f"no change: {display(path)} is up to date ({n} sheets)")
    if open_ and not sheets.open_in_browser(path):
        term.warn(f"no web browser found; open {display(path)} yourself")


def register(app: typer.Typer) -> None:
    app.command()(sheet)

"""`drunagor import` and `drunagor export`: the companion apps' campaign token (SPEC section 9,
design/app-token.md). The work is in interop/transfer.py; these parse, call it and print."""

# No `from __future__ import annotations` here: Typer would eval every string annotation.
from pathlib import Path
from typing import Annotated, Optional

import typer

from ...errors import DataError, UsageError
from ..common import JsonOpt, open_campaign, print_change
from ..terminal import term

MAX_FILE = 1024 * 1024  # a token file bigger than this is not a token (the token module says why)


def _pairs(values: Optional[list[str]], flag: str) -> dict[str, str]:
    out = {}
    for v in values or []:
        hero, sep, value = v.partition("=")
        if not sep or not hero.strip() or not value.strip():
            raise UsageError(f"{flag} {v!r} is not HERO=VALUE", remedy=f"write it as {flag} Nyx=...")
        out[hero.strip()] = value.strip()
    return out


def _read_source(source: str) -> tuple[str, str]:
    """The token text and where it came from: `-` (standard input), a file, or the token itself."""
    import sys

    if source == "-":
        return sys.stdin.read(MAX_FILE + 1), "standard input"
    if len(source) < 4096 and not source.startswith("eyJ") and ("/" in source or "\\" in source or "." in source):
        path = Path(source)
        if not path.is_file():
            raise UsageError(f"no file {source!r}", remedy="give the token itself, a file holding it, or - to read it")
        with path.open("rb") as f:
            raw = f.read(MAX_FILE + 1)
        try:
            return raw.decode("utf-8-sig"), source
        except UnicodeDecodeError:
            raise DataError("not a campaign token: the file is not text", file=source, rule="token",
                            remedy="save the token the app's Export shows as a text file") from None
    return source, "the token"


TokenArg = Annotated[str, typer.Argument(metavar="TOKEN|FILE|-",
                                         help="The token, a file holding it, or - for standard input.")]
DirOpt = Annotated[Path, typer.Option("--dir", help="Where campaigns live.")]
NameOpt = Annotated[Optional[str], typer.Option(
    "--name", metavar="SLUG", help="The new campaign's folder name (default: the party's name).")]
DropOpt = Annotated[bool, typer.Option(
    "--drop-unknown", help="Import without the IDs that are not in the Awakenings lists.")]
RoleOpt = Annotated[Optional[list[str]], typer.Option(
    "--role", metavar="HERO=ROLE", help="A hero's Dungeon Role (the apps do not record them); once per hero.")]
PlayerOpt = Annotated[Optional[list[str]], typer.Option("--player", metavar="HERO=TEXT", help="Who plays a hero.")]
ClassOpt = Annotated[Optional[list[str]], typer.Option(
    "--class", metavar="HERO=CLASS", help="The class of a hero of another product.")]
LeaderOpt = Annotated[Optional[str], typer.Option("--leader", metavar="HERO", help="The Party Leader.")]
CompletedOpt = Annotated[Optional[list[str]], typer.Option(
    "--completed", metavar="CH", help="Chapters completed (04, or a range 01-04): the token has no Adventure Track.")]
SkippedOpt = Annotated[Optional[list[str]], typer.Option(
    "--skipped", metavar="CH", help="Chapters skipped (RB L1084: no rewards).")]


def import_(token: TokenArg, dir: DirOpt = Path("campaigns"), name: NameOpt = None, drop_unknown: DropOpt = False,
            role: RoleOpt = None, player: PlayerOpt = None, cls: ClassOpt = None, leader: LeaderOpt = None,
            completed: CompletedOpt = None, skipped: SkippedOpt = None) -> None:
    """Create a campaign from the companion apps' campaign token (current and legacy forms, pasted
    with line breaks or not): party, Followers, Outcomes, statuses, heroes with their classes,
    equipment, skills, Aura and statuses. Nothing is written on any error.

    What the token lacks is given by flags: each hero's Dungeon Role (required), players, the Party
    Leader, the Adventure Track (--completed, --skipped); the rest `check` reports as missing.

    Example: drunagor import token.txt --role Nyx=Striker --completed 01-04 --name nyx-alone
    """
    from ...interop.transfer import chapters, import_token

    track = {ch: "completed" for ch in chapters(completed, "--completed")}
    track.update({ch: "skipped" for ch in chapters(skipped, "--skipped")})
    text, source = _read_source(token)
    change = import_token(text, source, dir, name=name, drop_unknown=drop_unknown, roles=_pairs(role, "--role"),
                          players=_pairs(player, "--player"), classes=_pairs(cls, "--class"), leader=leader,
                          track=track)
    print_change(change)


def export(json: JsonOpt = False) -> None:
    """Print the campaign as a token both companion apps import (Latin-1 base64 of its JSON); say on
    standard error what drunagor keeps that the token cannot carry.

    Example: drunagor export
    """
    from ...interop.transfer import export_token

    with open_campaign() as c:
        change = export_token(c)
    if json:
        term.json(change.data["json"])
    else:
        print(change.data["token"])
    if change.notes:
        term.warn("the token cannot carry: " + "; ".join(change.notes))


def register(app: typer.Typer) -> None:
    app.command("import")(import_)
    app.command("export")(export)

"""`drunagor import` and `drunagor export`: the companion apps' campaign token (SPEC section 9,
design/app-token.md). The work is in interop/transfer.py; these parse, call it and print."""

# No `from __future__ import annotations` here: Typer would eval every string annotation.
import re
from pathlib import Path
from typing import Annotated

import typer

from ...errors import DataError, UsageError
from ..common import JsonOpt, open_campaign, print_change
from ..terminal import term

MAX_FILE = 1024 * 1024  # a token file bigger than this is not a token (the token module says why)


def _pairs(values: list[str] | None, flag: str) -> dict[str, str]:
    out = {}
    for v in values or []:
        hero, sep, value = v.partition("=")
        if not sep or not hero.strip() or not value.strip():
            raise UsageError(f"{flag} {v!r} is not HERO=VALUE", remedy=f"write it as {flag} Nyx=...")
        out[hero.strip()] = value.strip()
    return out


def _read_source(source: str) -> tuple[str, str]:
    """The token text and where it came from: `-` (standard input), the token itself, or a file.

    A token is base64 of JSON that starts `{"`, so it starts `eyJ` (after any blank pasted before
    it, and whatever `/` its base64 holds); anything else is a file's name, if a file has it."""
    import sys

    if source == "-":
        return sys.stdin.read(MAX_FILE + 1), "standard input"
    if source.lstrip().startswith("eyJ"):
        return source, "the token"
    raw = _read_file(source)
    if raw is None:
        if _B64ISH.fullmatch("".join(source.split())) and len(source) > 64 and not source.startswith("/"):
            return source, "the token"  # base64, but not of a campaign: the token's checks say why
        raise UsageError(f"{_prefix(source)} is neither a campaign token nor a file",
                         remedy="give the token itself (it starts with eyJ), a file holding it, or - to read it "
                                "from standard input")
    try:
        return raw.decode("utf-8-sig"), source
    except UnicodeDecodeError:
        raise DataError("not a campaign token: the file is not text", file=source, rule="token",
                        remedy="save the token the app's Export shows as a text file") from None


_B64ISH = re.compile(r"[A-Za-z0-9+/=]+")
SHOWN = 40  # characters of an argument quoted back


def _short(text: str) -> str:
    """An argument as a message quotes it: its first SHOWN characters, invisible ones spelled out."""
    cut = "".join(ch if ch.isprintable() else f"U+{ord(ch):04X}" for ch in text[:SHOWN])
    return cut + ("…" if len(text) > SHOWN else "")


def _prefix(text: str) -> str:
    return repr(_short(text))


def _unreadable(name: str, why: str, remedy: str) -> DataError:
    return DataError(why, file=_short(name), rule="token", remedy=remedy)


_NOT_REGULAR = "save the token in a text file, or give - to read standard input"


def _read_file(name: str) -> bytes | None:
    """The bytes of the regular file `name` (at most MAX_FILE + 1), None when there is none: a FIFO
    or a device is never opened for reading (it could block or act)."""
    import os
    import stat

    try:
        mode = os.stat(name).st_mode  # the user's own path: a link to the token file is fine
    except (OSError, ValueError):  # no such file, a name too long, a NUL in it
        return None
    if stat.S_ISDIR(mode):
        raise UsageError(f"{_prefix(name)} is a folder, not a file holding a token",
                         remedy="give the token itself, a file holding it, or - to read it from standard input")
    if not stat.S_ISREG(mode):
        raise _unreadable(name, "not a regular file (a FIFO, a device or a socket): it was not opened", _NOT_REGULAR)
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise _unreadable(name, f"cannot read the file ({exc.strerror or exc})", "check its permissions") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped since the stat
            raise _unreadable(name, "not a regular file: it was not read", _NOT_REGULAR)
        chunks, size = [], 0
        while size <= MAX_FILE:
            chunk = os.read(fd, MAX_FILE + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise _unreadable(name, f"cannot read the file ({exc.strerror or exc})", "check its permissions") from None
    finally:
        os.close(fd)


TokenArg = Annotated[str, typer.Argument(metavar="TOKEN|FILE|-",
                                         help="The token, a file holding it, or - for standard input.")]
DirOpt = Annotated[Path, typer.Option("--dir", help="Where campaigns live.")]
NameOpt = Annotated[str | None, typer.Option(
    "--name", metavar="SLUG", help="The new campaign's folder name (default: the party's name).")]
DropOpt = Annotated[bool, typer.Option(
    "--drop-unknown", help="Import without the IDs that are not in the Awakenings lists.")]
RoleOpt = Annotated[list[str] | None, typer.Option(
    "--role", metavar="HERO=ROLE", help="A hero's Dungeon Role (the apps do not record them); once per hero.")]
PlayerOpt = Annotated[list[str] | None, typer.Option("--player", metavar="HERO=TEXT", help="Who plays a hero.")]
ClassOpt = Annotated[list[str] | None, typer.Option(
    "--class", metavar="HERO=CLASS", help="The class of a hero of another product.")]
LeaderOpt = Annotated[str | None, typer.Option("--leader", metavar="HERO", help="The Party Leader.")]
CompletedOpt = Annotated[list[str] | None, typer.Option(
    "--completed", metavar="CH", help="Chapters completed (04, or a range 01-04): the token has no Adventure Track.")]
SkippedOpt = Annotated[list[str] | None, typer.Option(
    "--skipped", metavar="CH", help="Chapters skipped (RB L1084: no rewards).")]
JoinedOpt = Annotated[list[str] | None, typer.Option(
    "--joined", metavar="HERO=NN", help="The chapter before which a hero joined (default 01): a recruit's "
                                        "rewards owed are counted from it.")]
NewOpt = Annotated[bool, typer.Option(
    "--new", help="A hero drunagor does not know, though its name is very like one it knows: take it as typed.")]


def import_(token: TokenArg, dir: DirOpt = Path("campaigns"), name: NameOpt = None, drop_unknown: DropOpt = False,
            role: RoleOpt = None, player: PlayerOpt = None, cls: ClassOpt = None, leader: LeaderOpt = None,
            completed: CompletedOpt = None, skipped: SkippedOpt = None, joined: JoinedOpt = None,
            new: NewOpt = False) -> None:
    """Create a campaign from the companion apps' campaign token (current and legacy forms, pasted
    with line breaks or not): party, Followers, Outcomes, statuses, heroes with their classes,
    equipment, skills, Aura and statuses. Nothing is written on any error.

    What the token lacks is given by flags: each hero's Dungeon Role (required), players, the Party
    Leader, the Adventure Track (--completed, --skipped), when a recruit joined (--joined); the rest
    `check` reports as missing. --dir is created when missing, as `new` does.

    Example: drunagor import token.txt --role Nyx=Striker --completed 01-04 --name nyx-alone
    """
    from ...interop.transfer import chapters, import_token

    track = {ch: "completed" for ch in chapters(completed, "--completed")}
    track.update({ch: "skipped" for ch in chapters(skipped, "--skipped")})
    text, source = _read_source(token)
    change = import_token(text, source, dir, name=name, drop_unknown=drop_unknown, roles=_pairs(role, "--role"),
                          players=_pairs(player, "--player"), classes=_pairs(cls, "--class"), leader=leader,
                          track=track, joined=_pairs(joined, "--joined"), new=new)
    print_change(change)


StrictOpt = Annotated[bool, typer.Option(
    "--strict", help="Refuse (exit 1) when a hero, card or name has no ID in the apps' tables.")]


def export(json: JsonOpt = False, strict: StrictOpt = False) -> None:
    """Print the campaign as a token both companion apps import (Latin-1 base64 of its JSON); say on
    standard error each hero, card or name the apps' ID tables lack (--strict: refuse), and what
    drunagor keeps that the token cannot carry.

    Example: drunagor export
    """
    from ...interop.transfer import export_token

    with open_campaign() as c:
        change = export_token(c, strict=strict)
    if json:
        term.json(change.data["json"])
    else:
        term.raw(change.data["token"] + "\n")
    for warning in change.warnings:
        term.warn(warning)
    if change.notes:
        term.warn("the token cannot carry: " + "; ".join(change.notes))


def register(app: typer.Typer) -> None:
    app.command("import")(import_)
    app.command("export")(export)

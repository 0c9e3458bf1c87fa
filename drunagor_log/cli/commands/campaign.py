"""Campaign commands: new, show, check, list."""


from pathlib import Path
from typing import Annotated

import typer

from ...campaign import Campaign, list_campaigns
from ...errors import DataError, ExitCode
from ...ops import campaign as campaign_ops
from ...text import plural
from ..common import CommitOpt, JsonOpt, campaign_root, look, print_change
from ..terminal import term


def new(
    name: Annotated[str, typer.Argument(help="Name of the new campaign (its folder is named after it).")],
    party: Annotated[str | None, typer.Option(help="Party name (default: NAME).")] = None,
    dir: Annotated[Path, typer.Option("--dir", help="Where campaigns live.")] = Path("campaigns"),
    max_heroes: Annotated[int, typer.Option(help="4, or 5 with extra-hero content (RB L941-943).")] = 4,
    trauma_limit: Annotated[int, typer.Option(
        help="Trauma Cubes a hero can hold: 1; 2 Taking It Easy; 0 harder (RB L1020-1034).")] = 1,
    example: Annotated[bool, typer.Option(
        "--example", help="Copy the example campaign that ships with drunagor instead, to try every command.")] = False,
    commit: CommitOpt = False,
) -> None:
    """Create a campaign folder with its Story Record (compulsory chest replacement applied).

    The folder is written whole, then put in place: a failure leaves nothing behind. With --example,
    the folder is a copy of the shipped example: a party of four after chapter 04, chapter 05 under way.

    Example: drunagor new autumn --party "Safeguard Corporation"
    """
    change = campaign_ops.new(dir, name, party=party, max_heroes=max_heroes, trauma_limit=trauma_limit,
                              commit=commit, example=example)
    print_change(change)


def show(json: JsonOpt = False) -> None:
    """The campaign at a glance: party, heroes, followers, Adventure Track, chest deck, adventure.

    Example: drunagor show
    """
    from ...store import display

    change, root = look(campaign_ops.show, json=json)  # its change holds data alone: the text is drawn here
    if json:
        return
    data = change.data
    term.heading(f"{data['party'] or '(no party name)'}: Awakenings campaign ({display(root)})")
    term.line(f"Party Leader: {data['leader'] or '(none; set one with drunagor leader HERO)'}")
    _print_heroes(data["heroes"])
    term.line("Followers: " + (", ".join(data["followers"]) or "none"))
    _print_track(data)
    term.line("Outcomes: " + (", ".join(data["outcomes"]) or "none"))
    term.line("Statuses: " + (", ".join(data["statuses"]) or "none"))
    if data["stash"]:
        term.line("Party stash: " + ", ".join(data["stash"]))
    term.line("Chest deck: " + data["chest"]["text"])
    if data["adventure"]:
        _print_adventure(data["adventure"])


def _print_heroes(heroes: list[dict]) -> None:
    active = [h for h in heroes if not h["retired"]]
    if active:
        rows = [[h["name"], h["class"], h["role"], h["player"] or "", _owes_text(h["owes"], h.get("excess"))]
                for h in active]
        term.table(["Hero", "Class", "Role", "Player", "Owes"], rows, title=f"Heroes ({len(active)})")
    else:
        term.line("Heroes: none yet (drunagor hero add NAME --role ROLE)")
    retired = [h["name"] for h in heroes if h["retired"]]
    if retired:
        term.line("Retired: " + ", ".join(retired))


def _print_track(data: dict) -> None:
    from ... import catalog

    track = [f"{ch} {state}" for ch, state in sorted(data["track"].items())]
    term.line("Adventure Track: " + ("; ".join(track) or "nothing played yet"))
    nxt = data["next_chapter"]
    if nxt:
        tries = data["failures"].get(nxt, 0)
        tries_text = f" ({tries} failed attempt{'s' if tries != 1 else ''})" if tries else ""
        term.line(f"Next: chapter {nxt}, {catalog.chapter(nxt).title}{tries_text}")
    else:
        ending = f' Ending: "{data["ending"]}".' if data["ending"] else ""
        term.line(f"The campaign is finished: chapter 09 is on the Adventure Track.{ending}", "bold")


def _print_adventure(adv: dict) -> None:
    term.line(f"Adventure under way: chapter {adv['chapter']}, {plural(adv['heroes'], 'hero', 'heroes')}"
              + (f", raid card face {adv['raid_face']}" if adv.get("raid_face") else ""))
    piles = "; ".join(f"Pile {p['id']} ({', '.join(p['runes'])})" for p in adv["piles"]) or "none"
    board = ", ".join(f"{m['name']} ({m['slot'] if m['slot'] else 'boss'})" for m in
                      sorted(adv["monsters"], key=lambda m: (m["slot"] is None, m["slot"] or 0))) or "none"
    term.line(f"  rune bag {adv['runes_in_bag']}; Piles of Runes: {piles}; monsters (slot): {board}")


def _owes_text(owes: dict | None, excess: dict | None = None) -> str:
    from ...rules.rewards import describe

    text = describe(owes or {}) or "nothing"
    over = describe(excess or {})
    return text + (f" (and {over} more than the chapters give)" if over else "")


def check(
    strict: Annotated[bool, typer.Option(
        "--strict", help="Warnings (unknown names, rewards owed) are errors.")] = False,
    json: JsonOpt = False,
) -> None:
    """Validate every file of the campaign and every rule; silent and exit 0 when all is well.

    Each problem prints as FILE:LINE: rule: explanation and remedy.
    Exit codes: 0 clean, 1 a rule is broken, 3 a file cannot be read.

    Example: drunagor check --strict
    """
    from ...checks import run_checks

    errors, warnings, unreadable = run_checks(campaign_root(), strict=strict, announce=term.warn)
    if json:
        term.json({"errors": [p.as_json() for p in errors], "warnings": [p.as_json() for p in warnings]})
    else:  # through the terminal facade: wrapped at word boundaries on a terminal, as every command
        for p in errors:
            term.line(p.render())
        for p in warnings:
            term.line(p.render() + " (warning)")
    if unreadable:
        raise typer.Exit(int(ExitCode.DATA))
    if errors:
        raise typer.Exit(int(ExitCode.RULE))


def list_(
    dir: Annotated[Path, typer.Option("--dir", help="Where campaigns live.")] = Path("campaigns"),
    json: JsonOpt = False,
) -> None:
    """The campaigns under ./campaigns/ (or --dir), with party and next chapter.

    Example: drunagor list
    """
    rows = []
    for folder in list_campaigns(dir):
        try:
            with Campaign(folder, announce=term.warn) as c:
                story = c.story
                rows.append({"name": folder.name, "path": str(folder), "party": story.party,
                             "next_chapter": story.next_chapter(), "ending": story.ending,
                             "error": None})
        except DataError as exc:
            rows.append({"name": folder.name, "path": str(folder), "party": None,
                         "next_chapter": None, "ending": None, "error": exc.render()})
    if json:
        term.json({"campaigns": rows})
        return
    if not rows:
        term.line(f"no campaigns under {dir} (create one with drunagor new NAME)")
        return
    term.table(["Campaign", "Party", "Next chapter"],
               [[r["name"], r["party"] or "", (r["next_chapter"] or _finished(r["ending"])) if not r["error"]
                 else "unreadable: " + r["error"]] for r in rows])


def _finished(ending: str | None) -> str:
    return f"finished: {ending}" if ending else "finished"


def register(app: typer.Typer) -> None:
    app.command()(new)
    app.command()(show)
    app.command()(check)
    app.command("list")(list_)

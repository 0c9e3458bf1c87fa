"""House rules: `rules show` and `rules set`, the [rules] table of story.toml (SPEC 10; RB L941-943,
L1018-1032). Each command calls one operation of `drunagor_log.ops.house`."""


from typing import Annotated

import typer

from ...ops import house as house_ops
from ..common import CommitOpt, JsonOpt, look, perform
from ..terminal import term

rules_app = typer.Typer(help="House rules: the difficulty (Trauma Cube limit), the party's size, the rune bag.",
                        no_args_is_help=True)


@rules_app.command("show")
def rules_show(json: JsonOpt = False) -> None:
    """The house rules of the campaign: difficulty, Trauma Cube limit, heroes at most, rune bag.

    Example: drunagor rules show
    """
    look(house_ops.show, json=json)


@rules_app.command("set")
def rules_set(
    difficulty: Annotated[str | None, typer.Option(
        "--difficulty", metavar="easy|normal|hard",
        help="Trauma Cubes a hero holds: easy 2 (Taking It Easy), normal 1, hard 0 (RB L1018-1032).")] = None,
    trauma_limit: Annotated[int | None, typer.Option(
        "--trauma-limit", metavar="N", help="Trauma Cubes a hero holds before the next defeats them, 0 to 9.")] = None,
    max_heroes: Annotated[int | None, typer.Option(
        "--max-heroes", metavar="4|5", help="4, or 5 with extra-hero content (RB L941-943).")] = None,
    rune_bag: Annotated[str | None, typer.Option(
        "--rune-bag", metavar="red=N,...", help="The runes of each colour in your bag (colours not named are "
                                                "kept).")] = None,
    commit: CommitOpt = False,
) -> None:
    """Change the house rules in story.toml [rules].

    A change the campaign already contradicts is refused and nothing is written: --max-heroes 4 with
    five heroes in the party, a new rune bag or a lower Trauma Cube limit than a hero already holds
    while an adventure is under way.

    Example: drunagor rules set --difficulty easy
    """
    perform(house_ops.set_rules, difficulty_name=difficulty, trauma_limit=trauma_limit, max_heroes=max_heroes,
            bag=rune_bag, commit=commit)


@rules_app.command("cite")
def rules_cite(
    line: Annotated[list[str], typer.Argument(metavar="LINE...", help="A rulebook line as drunagor cites it: "
                                                                   "`L1203`, `RB L1203`, a range `L1203-1205`, a "
                                                                   "list `L1177, L1179` (quoted or not).")],
    json: JsonOpt = False,
) -> None:
    """Where a rulebook line stands in the book: its heading path, as the table of contents names it.

    drunagor cites the rulebook by section and line, `(Rulebook: Dreadful Raid, L285)` (--json: `RB L285`);
    this names every title above the line, the chapter and the paragraph a player finds in the printed
    book; a range by its first line, a list one line each. Titles only: drunagor ships no sentence of the
    book. --json: {"line", "last", "path", "section"} (a list of them for a list), "section" as a citation
    names it.

    Example: drunagor rules cite L1203
    """
    from ...catalog import headings
    from ...errors import UsageError

    text = " ".join(line)
    parts = headings.cited_lines(text)
    if parts is None:
        raise UsageError(f"{text!r} is not a rulebook line; give it as drunagor cites it: L1203, L1203-1205 or "
                         "L1177, L1179")
    last = headings.last_line()
    for first, end in parts:
        if end < first:
            raise UsageError(f"L{first}-{end} runs backwards; give its first line first: L{end}-{first}")
        if first < 1 or end > last:
            raise UsageError(f"the rulebook has lines 1 to {last}, not {first if first < 1 or first > last else end}")
    if json:
        found = [{"line": first, "last": end, "path": list(headings.path(first)),
                  "section": headings.cited_section(first)} for first, end in parts]
        term.json(found[0] if len(found) == 1 else found)
        return
    for first, end in parts:  # the whole path: no short form
        lines = f"L{first}" + (f"-{end}" if end != first else "")
        term.line(f"Rulebook {lines}: {headings.JOIN.join(headings.path(first))}")


def register(app: typer.Typer) -> None:
    app.add_typer(rules_app, name="rules")

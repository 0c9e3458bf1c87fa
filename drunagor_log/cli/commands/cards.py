"""Facts about cards, recorded once under [cards] in story.toml (SPEC "User-recorded facts", section 9):
`card show`, `card set` and `card forget`. Each command calls one operation of `drunagor_log.ops.cards`."""


from typing import Annotated

import typer

from ...ops import cards as cards_ops
from ..common import CommitOpt, JsonOpt, game, look, perform
from ..terminal import term

card_app = typer.Typer(help="Facts about cards recorded under [cards]: type, rarity, Epic, Rune position, kind.",
                       no_args_is_help=True)

CardArg = Annotated[str, typer.Argument(click_type=game("card"),
        metavar="NAME", help="The card (any case; a unique prefix is enough).")]
SetCardArg = Annotated[str, typer.Argument(click_type=game("card", records=True),
        metavar="NAME", help="The card (any case; a unique prefix is enough).")]
RecordedCardArg = Annotated[str, typer.Argument(click_type=game("card recorded under [cards]"),
        metavar="NAME", help="The card (any case; a unique prefix is enough).")]
COLUMNS = ("type", "rarity", "epic", "position", "kind")


def _cell(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


@card_app.command("show")
def card_show(
    name: Annotated[str | None, typer.Argument(click_type=game("card"),
        metavar="[NAME]", help="One card (default: every card recorded).")] = None,
    json: JsonOpt = False,
) -> None:
    """The facts recorded under [cards], or what drunagor knows about one card.

    A fact comes from the catalog where a source gives it, else from [cards]; "-" where nobody knows.
    The last column lists what [cards] records (a fact the catalog also gives is `check`'s to report).

    Example: drunagor card show "Potion of Healing"
    """
    look(cards_ops.show, name, json=json, show=_print_cards)


def _print_cards(data: dict) -> None:
    if not data["cards"]:
        term.line("no card facts recorded under [cards]; record one with drunagor card set NAME --rarity R (or "
                  "--type, --epic|--not-epic, --position, --kind)")
        return
    rows = [[e["name"], *(_cell(e[k]) for k in COLUMNS),
             ", ".join(f"{k} {_cell(v)}" for k, v in e["recorded"].items()) or "-"] for e in data["cards"]]
    term.table(["Card", "Type", "Rarity", "Epic", "Position", "Kind", "Recorded"], rows)


@card_app.command("set")
def card_set(
    name: SetCardArg,
    type_: Annotated[str | None, typer.Option(
        "--type", metavar="potion|scroll|other",
        help="A chest card's type (other: neither a Potion nor a Scroll).")] = None,
    rarity: Annotated[str | None, typer.Option("--rarity", metavar="common|uncommon|rare",
                                                  help="A Potion's or Scroll's rarity.")] = None,
    epic: Annotated[bool | None, typer.Option("--epic/--not-epic", help="Whether an item is an Epic Item.")] = None,
    position: Annotated[str | None, typer.Option("--position", metavar="COLOUR-top|bottom",
                                                    help="A Commander Attack card's Rune position.")] = None,
    kind: Annotated[str | None, typer.Option(
        "--kind", metavar="KIND", help="An item's kind: starting, spoils, adventure, epic, consumable.")] = None,
    new: Annotated[bool, typer.Option("--new", help="A card drunagor does not know, though it looks like one it "
                                                    "knows: record it as typed.")] = False,
    commit: CommitOpt = False,
) -> None:
    """Record or correct a fact about a card under [cards], checked as the commands that use it check it.

    A fact a source contradicts is refused; one the catalog gives is not recorded (a recorded value
    that disagrees is dropped). A card of the Chest deck must keep the grid (RB L357-359); a card of
    the Commander Attack deck must not take a Rune position another card holds (RB L822-824). A name
    like a known one ("Potion of Heling") is refused with "did you mean" unless --new.

    Example: drunagor card set "Elixir of Doom" --type potion --rarity rare
    """
    perform(cards_ops.set_facts, name, type_, rarity, epic, position, kind, new, commit=commit)


@card_app.command("forget")
def card_forget(
    name: RecordedCardArg,
    fact: Annotated[list[str] | None, typer.Option("--fact", metavar="FACT",
                                                      help="Forget only this fact (repeatable): type, rarity, epic, "
                                                           "position, kind.")] = None,
    commit: CommitOpt = False,
) -> None:
    """Forget what [cards] records about a card (a fact recorded by mistake): the entry, or --fact ones.

    Says what the decks no longer know (chest show and commander show then ask for it again).

    Example: drunagor card set "Elixir of Doom" --type potion && drunagor card forget "Elixir of Doom"
    """
    perform(cards_ops.forget, name, fact or (), commit=commit)


def register(app: typer.Typer) -> None:
    app.add_typer(card_app, name="card")

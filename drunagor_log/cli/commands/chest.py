"""The Chest deck, the Commander Attack deck and Spoils upgrades: `chest show|add|swap`,
`commander show|add|swap|remove`, `spoils upgrade` (SPEC 4, 5.4, 5.7, 5.8; RB L345-435, L816-828).

Each command parses its options, calls one operation of `drunagor_log.ops.chest` and prints.
"""


from typing import Annotated

import typer

from ...ops import chest as chest_ops
from ...text import shell_word
from ..common import CommitOpt, JsonOpt, game, look, open_campaign, perform
from ..terminal import term

chest_app = typer.Typer(help="The Chest deck: the Epic Rare pair and 9 Potions + 9 Scrolls (RB L345-371).",
                        no_args_is_help=True)
commander_app = typer.Typer(help="The 10-card Commander Attack deck, one card per Rune position (RB L816-828).",
                            no_args_is_help=True)
spoils_app = typer.Typer(help="Improve Spoils Equipment one quality step (RB L409-435).", no_args_is_help=True)

TypeOpt = Annotated[str | None, typer.Option(
    "--type", metavar="potion|scroll", help="The card's type, when drunagor does not know it (remembered).")]
RarityOpt = Annotated[str | None, typer.Option(
    "--rarity", metavar="common|uncommon|rare",
    help="The card's rarity, when drunagor does not know it (remembered).")]
NewOpt = Annotated[bool, typer.Option(
    "--new", help="The card is one drunagor does not know (nor looks like one it knows): record it as typed.")]
PositionOpt = Annotated[str | None, typer.Option(
    "--position", metavar="COLOUR-top|bottom",
    help="The card's Rune position, when drunagor does not know it (remembered).")]


# ------------------------------------------------------------------------------- chest show


def _cell(n: int, want: int) -> str:
    if n == want:
        return f"{n}/{want}"
    return f"{n}/{want} " + (f"{want - n} short" if n < want else f"{n - want} too many")


def _grid_rows(data: dict) -> list[list[str]]:
    from ...rules import chest

    rows = []
    for t in chest.TYPES:
        cells = data["grid"][t]
        row = [chest.PLURAL[t]] + [_cell(cells[r]["count"], cells[r]["target"]) for r in chest.RARITIES]
        held = sum(e["copies"] for e in data["cards"] if e["type"] == t)  # also the copies of unknown rarity
        row.append(_cell(held, sum(cells[r]["target"] for r in chest.RARITIES)))
        rows.append(row)
    return rows


def chest_show(json: JsonOpt = False) -> None:
    """The Chest deck: the Epic Rare pair and the grid of Potions and Scrolls by rarity.

    Counts are shown against the grid (4 Common, 3 Uncommon, 2 Rare of each type, RB L357-359),
    with gaps and excesses marked, then whether the deck is legal, what is wrong, or which facts
    are still to record.

    Example: drunagor chest show
    """
    look(chest_ops.show, json=json, show=_print_chest)


def _print_chest(data: dict) -> None:
    from ...rules import chest

    term.heading(f"Chest deck: {data['text']}")
    term.line(f"Epic Rare (fixed, RB L345): {', '.join(data['epic']) or 'not recorded'}")
    term.line()
    term.table(["", "Common", "Uncommon", "Rare", "Total"], _grid_rows(data))
    if data["cards"]:
        term.line()
        term.table(["Card", "Copies", "Type", "Rarity"],
                   [[e["name"], e["copies"], e["type"] or "?", e["rarity"] or ("-" if e["type"] == "treasure" else "?")]
                    for e in data["cards"]])
    for problem in data["problems"]:
        term.line(f"wrong: {problem}", "red")
    for m in data["missing_facts"]:
        name, missing = m["card"], m["facts"]
        term.line(f"fact missing: the {' and '.join(missing)} of {name} is unknown, so its place in the grid "
                  f"cannot be checked; record it once: drunagor chest add {shell_word(name)} --copies 0 "
                  f"{chest.flags_for(missing)}", "yellow")


# -------------------------------------------------------------------------------- chest add


def chest_add(
    card: Annotated[str, typer.Argument(click_type=game("chest card", records=True), help="The Potion or Scroll.")],
    copies: Annotated[int, typer.Option("--copies", help="Copies to add (0: only record --type/--rarity).")] = 1,
    type_: TypeOpt = None,
    rarity: RarityOpt = None,
    new: NewOpt = False,
    commit: CommitOpt = False,
) -> None:
    """Put a Potion or Scroll in the Chest deck while recording it; remember its type and rarity.

    Type and rarity come from the catalog where a source gives them; otherwise give them once with
    --type and --rarity: they are stored under [cards] in story.toml, because the grid (4 Common,
    3 Uncommon, 2 Rare of each type, RB L357-359) cannot be checked without them. `--copies 0`
    records the facts of a card without adding a copy. A card that would break the grid is refused.
    A card drunagor does not know is added with its --type and --rarity, or with --new; a name close
    to a known one ("Potion of Heling") is refused with "did you mean" unless --new says it is new.
    `drunagor chest remove` takes a card out again.

    Example: drunagor chest add "Potion of Healing" --copies 3 --rarity common
    """
    perform(chest_ops.add, card, copies, type_, rarity, new, commit=commit)


def chest_remove(
    card: Annotated[str, typer.Argument(click_type=game("card in the deck"),
            help="The Potion or Scroll (any case; a unique prefix is enough).")],
    copies: Annotated[int, typer.Option("--copies", help="Copies to take out (the entry goes with its last).")] = 1,
    commit: CommitOpt = False,
) -> None:
    """Take a card out of the Chest deck while recording it: the inverse of `chest add`.

    For a card added by mistake, or one copy too many. The Epic Rare pair is fixed (RB L345). The
    facts recorded about the card under [cards] stay; `drunagor card forget` forgets them. To change
    the deck on the table in a Camp phase, use `drunagor chest swap` (RB L361).

    Example: drunagor chest remove "Scroll of Beguile" --copies 2
    """
    perform(chest_ops.remove, card, copies, commit=commit)


# ------------------------------------------------------------------------------- chest swap


def chest_swap(
    out: Annotated[str, typer.Argument(click_type=game("card in the deck"),
            metavar="OUT", help="The Potion or Scroll leaving the deck.")],
    into: Annotated[str, typer.Argument(click_type=game("chest card", records=True),
            metavar="IN", help="The card of the same type and rarity replacing it.")],
    copies: Annotated[int, typer.Option("--copies", help="How many copies of OUT to replace.")] = 1,
    type_: TypeOpt = None,
    rarity: RarityOpt = None,
    yes: Annotated[bool, typer.Option(
        "--yes", help="Do it: swap, and remove the returned Potions and Scrolls from the logs.")] = False,
    new: NewOpt = False,
    json: JsonOpt = False,
    commit: CommitOpt = False,
) -> None:
    """Replace a Potion or Scroll by one of the same type and rarity (Camp phase only).

    The Epic Rare pair cannot be replaced (RB L345). Changing the composition makes the party first
    return every Potion and Scroll it owns; Epic Rare treasures are kept (RB L361). Without --yes
    nothing is written: the command says what the swap would do and which cards each hero returns
    (also during an adventure, when --yes is refused: the deck changes only in a Camp phase).
    With --yes the deck changes and those cards leave the Campaign Logs (and the party stash), all
    in one write. --type/--rarity give IN's facts when drunagor does not know them (remembered).

    On the example campaign an adventure is under way, so this shows the swap and writes nothing;
    after `drunagor adventure end`, add --yes to do it.

    Example: drunagor chest swap "Scroll of Incinerate" "Scroll of Protection"
    """
    if yes:
        change, changed = perform(chest_ops.swap, out, into, copies, type_, rarity, new, commit=commit, quiet=json)
        if json:
            term.json({**change.data, "written": bool(changed)})
        return
    with open_campaign() as c:
        change = chest_ops.preview_swap(c, out, into, copies, type_, rarity, new)
    if json:
        term.json(change.data)
        return
    _print_preview(change.summary, change.data)


def _print_preview(summary: str, report: dict) -> None:
    """What a swap would do: the cards, what each holder returns (RB L361), and that nothing was written."""
    term.line(f"Swap: {summary}.")
    term.line("The composition changes, so the party first returns every Potion and Scroll it owns; "
              "Epic Rare treasures are kept (RB L361):")
    if not report["returns"]:
        term.line("  nothing to return")
    for who, items in report["returns"].items():
        term.line(f"  {who}: {', '.join(items)}")
    for who, items in report["unknown"].items():
        term.line(f"  {who}: cannot tell whether {', '.join(items)} is a Potion or a Scroll; record it with "
                  f"drunagor chest add NAME --copies 0 --type potion|scroll|other", "yellow")
    if not report["camp_phase"]:
        term.line("Nothing written. An adventure is under way: the Chest deck can be changed only during "
                  "a Camp phase (RB L361); after `drunagor adventure end`, run again with --yes.")
    else:
        term.line("Nothing written: run again with --yes to swap and remove these cards from the logs.")


# ----------------------------------------------------------------------------- commander deck


def commander_show(json: JsonOpt = False) -> None:
    """The Commander Attack deck: which card holds each of the 10 Rune positions (RB L820-824).

    Example: drunagor commander show
    """
    look(chest_ops.commander_show, json=json, show=_print_commander)


def _print_commander(data: dict) -> None:
    term.heading(f"Commander Attack deck: {data['text']}")
    term.line()
    term.table(["Position", "Card"], [[pos, " + ".join(held) if held else "-"]
                                      for pos, held in data["positions"].items()])
    if data["unknown"]:
        term.line()
        for name in data["unknown"]:
            term.line(f"position unknown: {name}; record it once: drunagor commander add {shell_word(name)} "
                      f"--position COLOUR-top|bottom", "yellow")


def commander_add(
    card: Annotated[str, typer.Argument(click_type=game("Commander card", records=True),
            help="The Commander Attack card.")],
    position: PositionOpt = None,
    new: NewOpt = False,
    commit: CommitOpt = False,
) -> None:
    """Put a card in the Commander Attack deck while recording it; remember its Rune position.

    No Rune position may be held by two cards and the deck holds exactly 10 (RB L820-824). Positions
    come from the catalog where known (Haste, Life Heat: orange-bottom; Flame Swipe, Inferno:
    orange-top); otherwise give --position once and it is stored under [cards]. For a card already
    in the deck, --position records (or corrects) its position.

    On the example campaign Haste holds orange-bottom, so Life Heat joins once Haste is out.

    Example: drunagor commander remove Haste && drunagor commander add "Life Heat"
    """
    perform(chest_ops.commander_add, card, position, new, commit=commit)


def commander_swap(
    out: Annotated[str, typer.Argument(click_type=game("Commander card in the deck"),
            metavar="OUT", help="The card leaving the deck.")],
    into: Annotated[str, typer.Argument(click_type=game("Commander card", records=True),
            metavar="IN", help="The card joining it.")],
    position: Annotated[str | None, typer.Option(
        "--position", metavar="COLOUR-top|bottom",
        help="IN's Rune position, when drunagor does not know it (remembered).")] = None,
    new: NewOpt = False,
    commit: CommitOpt = False,
) -> None:
    """Replace a Commander Attack card; IN must not hold a Rune position another card holds.

    "You could choose to combine Haste with Flame Swipe (replacing Inferno)" (RB L826); Haste and
    Life Heat both hold orange-bottom, so they are never in the deck together (RB L824).

    Example: drunagor commander swap "Flame Swipe" Inferno
    """
    perform(chest_ops.commander_swap, out, into, position, new, commit=commit)


def commander_remove(
    card: Annotated[str, typer.Argument(click_type=game("Commander card in the deck"),
            help="The card leaving the deck.")],
    commit: CommitOpt = False,
) -> None:
    """Take a card out of the Commander Attack deck (to correct the record).

    Example: drunagor commander remove Haste
    """
    perform(chest_ops.commander_remove, card, commit=commit)


# ----------------------------------------------------------------------------- spoils upgrade


def spoils_upgrade(
    hero: Annotated[str, typer.Argument(click_type=game("hero"), help="The hero improving a Spoils card.")],
    item: Annotated[str, typer.Argument(click_type=game("Spoils card held"), help="The Spoils card to improve.")],
    discard: Annotated[str | None, typer.Option("--discard", click_type=game("held card"), metavar="OTHER",
                                                   help="The other card disposed of, from the hero's bag.")] = None,
    to: Annotated[str | None, typer.Option("--to", metavar="improved|ultimate",
                                              help="The quality expected (checked: one step only).")] = None,
    epic: Annotated[bool | None, typer.Option(
        "--epic/--not-epic", help="Whether OTHER is an Epic Item, when drunagor does not know (remembered).")] = None,
    reward: Annotated[bool, typer.Option(
        "--reward", help="The Spoils upgrade owed as a reward (RB L1015-1016): nothing is disposed of.")] = False,
    commit: CommitOpt = False,
) -> None:
    """Improve a Spoils card one quality step, disposing of Artisan's Tools and another card.

    The hero needs Artisan's Tools in the bag and another card in the bag that is not a Consumable,
    an Epic Item or Starting Gear, and not the item itself (RB L413-419). The item goes up exactly
    one step, Standard -> Improved -> Ultimate (RB L421-423). The Artisan's Tools go back to the
    Chest deck when it is reformed; the other card and the old-quality card are stored for the rest
    of the campaign (story.toml `stored`, RB L431). The Campaign Log gains an `upgrades` entry.

    --reward records instead the "Spoil of the Hero Equipment Upgrade" a hero is owed as a reward
    (the new-recruit table from chapter 08 on, RB L1015-1016): the item goes up one step, no
    Artisan's Tools are needed and nothing is disposed of; refused when none is owed.

    Example: drunagor spoils upgrade Vacrem "Heavy Shield" --discard "Captain's Brooch" --not-epic
    """
    perform(chest_ops.upgrade_spoils, hero, item, discard, to, epic, reward=reward, commit=commit)


# ------------------------------------------------------------------------------------ register


def register(app: typer.Typer) -> None:
    chest_app.command("show")(chest_show)
    chest_app.command("add")(chest_add)
    chest_app.command("remove")(chest_remove)
    chest_app.command("swap")(chest_swap)
    commander_app.command("show")(commander_show)
    commander_app.command("add")(commander_add)
    commander_app.command("swap")(commander_swap)
    commander_app.command("remove")(commander_remove)
    spoils_app.command("upgrade")(spoils_upgrade)
    app.add_typer(chest_app, name="chest")
    app.add_typer(commander_app, name="commander")
    app.add_typer(spoils_app, name="spoils")

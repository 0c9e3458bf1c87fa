"""The end of the round (SPEC 10, "The round"): `drunagor round end` resolves the chapter's card at the
end of the Initiative Track and its end-of-round rules, step by step (ops/round.py)."""

# No `from __future__ import annotations` here (see cli/commands/adventure.py: Typer evals them).
from typing import Annotated

import typer

from ..common import CommitOpt, JsonOpt, game, perform
from .adventure import DryRunOpt, SeedOpt

round_app = typer.Typer(name="round", no_args_is_help=True,
                        help="The round: the card at the end of the Initiative Track and the chapter's end-of-round "
                             "rules.")


@round_app.command("end")
def round_end(
    rune: Annotated[list[str] | None, typer.Option("--rune", click_type=game("rune colour"), metavar="COLOUR",
            help="A rune drawn at the table (repeat, or red,blue; not with --seed).")] = None,
    seed: SeedOpt = None,
    draws: Annotated[int | None, typer.Option("--draws",
            help="How many runes the face up of the Rune card draws (printed on the card: asked once per face, "
                 "remembered under [cards]).")] = None,
    dry_run: DryRunOpt = False,
    json: JsonOpt = False,
    commit: CommitOpt = False,
) -> None:
    """The Initiative Marker reaches the card at the end of the Initiative Track: resolve it, step by step.

    Growing Influence (chapters 01-03, 05, 06, 08): draw its runes to the track, flip it (RB L1062); Naval
    Battle (04, RB L1163); Darkness Awakening (09, RB L1285); the Siege of Everedge deck (07, RB L1235).
    Then the chapter's end-of-round rules (Crumbling Ceiling, RB L1223; the tokens on the Rune card, RB
    L1074, L1134), and the round number goes up by one. Drawing the last rune fails the adventure where
    the chapter says so. `adventure undo` takes it back.

    Example: drunagor round end --draws 2 --seed 7
    """
    from ...ops import round as ops

    perform(ops.end, runes=rune, seed=seed, draws=draws, dry_run=dry_run, commit=commit, json=json, notes_first=True)


def register(app: typer.Typer) -> None:
    app.add_typer(round_app, name="round")

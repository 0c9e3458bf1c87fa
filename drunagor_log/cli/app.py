"""The `drunagor` command line: global options, the command groups, and the one error path.

Each area of the game lives in its own module under `cli/commands/`; this file only assembles them.
Heavy modules (tomlkit, rich) are imported inside the commands that need them.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer
from typer.core import TyperGroup

from .. import __version__
from ..errors import DrunagorError
from .common import state
from .terminal import term


class DrunagorGroup(TyperGroup):
    """Turns every user-facing failure into one message and its exit code (SPEC section 6)."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except DrunagorError as exc:
            term.error(exc.render())
            ctx.exit(int(exc.code))


app = typer.Typer(
    cls=DrunagorGroup,
    name="drunagor",
    help="Campaign companion for Chronicles of Drunagor: Awakenings.\n\n"
    "Keeps the Story Record and Campaign Logs as TOML files, enforces the campaign rules, and resolves "
    "the Dreadful Raid and Monster Battalions at the table.\n\n"
    "Example: drunagor -C campaigns/example show",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # help texts cite [cards] and [track]: never eat them as markup
)


def _version(value: bool) -> None:
    if value:
        print(f"drunagor {__version__}")
        raise typer.Exit()


@app.callback()
def _global(
    campaign: Annotated[Optional[str], typer.Option("-C", "--campaign", metavar="PATH",
                                                     help="The campaign folder (else DRUNAGOR_CAMPAIGN, the current folder, or the only one under ./campaigns/).")] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="No colour (also: NO_COLOR=1).")] = False,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    state.campaign_option = campaign
    term.no_color = no_color


from .commands import adventure, campaign, chest, gitcmds, heroes, maintenance, story  # noqa: E402

for _module in (campaign, story, heroes, chest, adventure, gitcmds, maintenance):
    _module.register(app)


def main() -> None:
    app()

"""The `drunagor` command line: global options, the command groups, and the one error path.

Each area of the game lives in its own module under `cli/commands/`; this file only assembles them.
Typer builds every registered command's options when it starts, and that cost grows with the number
of commands; so `main()` builds an app holding only the command the user typed (the COMMANDS map
says which module has it), and the whole app is built only for `drunagor --help`, an unknown command,
and for `from drunagor_log.cli.app import app` (tests). Heavy modules (tomlkit, rich) are imported
inside the commands that need them.
"""

import sys
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from .. import installed_version
from ..errors import DrunagorError
from .common import Options, whole_numbers
from .terminal import term

# Module under cli/commands/ of every top-level command, in the order `--help` lists them.
MODULES = ("campaign", "story", "house", "heroes", "chest", "cards", "adventure", "round", "sheet", "serve",
           "gitcmds",
           "maintenance", "shell", "interop",
           "drunagor_log.play.command")  # a dotted name: a front end's own module (the table session)
COMMANDS = {
    "new": "campaign", "show": "campaign", "check": "campaign", "list": "campaign",
    "party": "story", "leader": "story", "follower": "story", "outcome": "story", "status": "story",
    "chapter": "story", "stash": "story", "rules": "house",
    "hero": "heroes", "recruit": "heroes", "camp": "heroes",
    "chest": "chest", "commander": "chest", "spoils": "chest", "card": "cards",
    "adventure": "adventure", "pile": "adventure", "tiebreak": "adventure", "draw": "adventure",
    "monster": "adventure", "raid": "adventure", "battalion": "adventure", "odds": "adventure",
    "cube": "adventure", "recall": "adventure", "round": "round",
    "history": "gitcmds", "undo": "gitcmds", "sync": "gitcmds", "git": "gitcmds",
    "migrate": "maintenance",
    "completion": "shell",
    "import": "interop", "export": "interop",
    "sheet": "sheet", "serve": "serve",
    "play": "drunagor_log.play.command",
}
# `drunagor --help` in panels by when a command is used (Typer's rich_help_panel, drawn by
# DrunagorGroup.format_commands in plain text), each command with a one-liner that fits 80 columns whole.
PANELS: dict[str, dict[str, str]] = {
    "The campaign": {
        "new": "Create a campaign folder (--example: a copy of the shipped one).",
        "show": "The campaign at a glance: heroes, track, decks, adventure.",
        "check": "Check every file and every rule; silent when all is well.",
        "list": "The campaigns under ./campaigns/, with party and next chapter.",
    },
    "The Story Record": {
        "party": "Set the party's name (RB L959).",
        "leader": "Set the Party Leader, who breaks the party's ties (RB L453).",
        "follower": "Followers on the Story Record (RB L447-463).",
        "outcome": "Outcomes on the Story Record (RB L962).",
        "status": "The party's statuses on the Story Record.",
        "chapter": "The Adventure Track (RB L961) and the chapter briefings.",
        "stash": "The party stash: what a hero who left gave the party.",
        "rules": "House rules: difficulty, party size, rune bag.",
    },
    "Heroes": {
        "hero": "Campaign Logs: skills, abilities, equipment, aura, statuses.",
        "recruit": "What a hero joining before chapter N is owed (RB L1005-1016).",
    },
    "Between adventures": {
        "camp": "The Camp phase: clear the heroes' statuses, see what is owed.",
        "chest": "The Chest deck: the Epic Rare pair, Potions, Scrolls.",
        "commander": "The Commander Attack deck, one card per Rune position.",
        "spoils": "Improve Spoils Equipment one quality step (RB L409-435).",
        "card": "Facts about cards under [cards]: type, rarity, Epic, position.",
    },
    "At the table": {
        "play": "The table session: commands without the prefix, board in view.",
        "serve": "The table's screen: the board live on every phone and the TV.",
        "adventure": "The adventure under way: start, show, events, undo, end.",
        "raid": "Resolve the Dreadful Raid and flip its card.",
        "draw": "Draw runes from the bag to the Initiative Track.",
        "odds": "The chance the next Dreadful Raid summons; the runes in the bag.",
        "battalion": "Summon a Monster Battalion near a reference point.",
        "monster": "Monsters on the board and their status-board slots.",
        "pile": "Piles of Runes on the board.",
        "tiebreak": "Tie Breaker: return runes from a Pile to the bag.",
        "cube": "A hero's Trauma or Curse Cubes during the adventure.",
        "recall": "A Recall Action: the chapter's Curse Cube penalty.",
        "round": "End the round: the chapter's card and end-of-round rules.",
    },
    "Sharing": {
        "sheet": "The campaign as a printable page (HTML, or Markdown).",
        "export": "The campaign as a token both companion apps import.",
        "import": "Create a campaign from the companion apps' token.",
        "sync": "Share with the other players: commit, pull, check, push.",
        "history": "This campaign's drunagor commits, newest first.",
        "undo": "Undo the last drunagor commit of this campaign.",
        "git": "The campaign's git repository: the campaign-aware merge driver.",
    },
    "Maintenance": {
        "migrate": "Bring every file of the campaign to the current schema.",
        "completion": "Print a shell's completion script (bash, zsh, fish).",
    },
}
GLOBAL_WITH_VALUE = ("-C", "--campaign")
GLOBAL_FLAGS = ("--no-color",)


def globals_first(args: list[str]) -> list[str]:
    """The global options moved before the command, wherever they were typed (SPEC section 9:
    `drunagor show --no-color`, `drunagor hero show Nyx -C DIR`). Nothing after `--` moves."""
    front: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest.extend(args[i:])
            break
        if arg in GLOBAL_WITH_VALUE and i + 1 < len(args):
            front += args[i:i + 2]
            i += 2
            continue
        if arg in GLOBAL_FLAGS or arg.startswith("--campaign="):
            front.append(arg)
        else:
            rest.append(arg)
        i += 1
    return front + rest


def upper_metavars(command) -> None:
    """Arguments as SPEC writes them, NAME, HERO, ITEM, in every usage line and message (Typer shows an
    argument with no metavar by its parameter's name, so one line read `hero give {FROM} {to} {item}` and
    `recall` said "Missing argument 'hero'")."""
    for param in getattr(command, "params", ()):
        if param.param_type_name == "argument" and param.metavar is None:
            param.metavar = param.name.upper()
    for sub in getattr(command, "commands", {}).values():
        upper_metavars(sub)


def _waiting(folder: str, what: str, timeout: float) -> None:
    """Said once a command has waited half a second for the campaign's lock (the store's on_wait)."""
    term.message(f"waiting for another drunagor command to finish {what} {folder} (at most {timeout:g} s) ...")
    sys.stderr.flush()


class DrunagorGroup(TyperGroup):
    """Turns every user-facing failure into one message and its exit code (SPEC section 6), and
    takes the global options anywhere on the line."""

    def __init__(self, **attrs):
        super().__init__(**attrs)
        upper_metavars(self)
        whole_numbers(self)

    def parse_args(self, ctx, args):
        return super().parse_args(ctx, globals_first(list(args)))

    def format_commands(self, ctx, formatter):
        """The commands in their panels (PANELS), in the panels' order; a command no panel names
        (none today) under Commands, as Click lists it."""
        shown = {name: cmd for name in self.list_commands(ctx)
                 if (cmd := self.get_command(ctx, name)) is not None and not cmd.hidden}
        placed = {name for panel in PANELS.values() for name in panel}
        sections = [(title, [n for n in panel if n in shown]) for title, panel in PANELS.items()]
        sections.append(("Commands", [n for n in shown if n not in placed]))
        width = max((len(n) for n in shown), default=0)
        for title, names in sections:
            if names:
                with formatter.section(title):
                    formatter.write_dl([(n.ljust(width), shown[n].get_short_help_str(200)) for n in names])

    def invoke(self, ctx):
        from ..store import lock

        lock.on_wait = _waiting
        try:
            return super().invoke(ctx)
        except DrunagorError as exc:
            term.error(exc.render())
            ctx.exit(int(exc.code))


def _version(value: bool) -> None:
    if value:
        term.raw(f"drunagor {installed_version()}\n")
        raise typer.Exit()


def _global(
    ctx: typer.Context,
    campaign: Annotated[str | None, typer.Option("-C", "--campaign", metavar="PATH",
                                                     help="The campaign folder (else DRUNAGOR_CAMPAIGN, the current "
                                                          "folder, or the only one under ./campaigns/).")] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="No colour (also: NO_COLOR=1).")] = False,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    ctx.obj = Options(campaign=campaign)
    term.no_color = no_color


def build_app(only: str | None = None, sub: str | None = None) -> typer.Typer:
    """The drunagor app with every command, or with the one command `only`; of a group (`hero`),
    only its subcommand `sub` when the group has one of that name (`hero show` builds one command,
    not the group's twenty; `hero --help` and a mistyped subcommand build them all)."""
    import importlib

    app = typer.Typer(
        cls=DrunagorGroup,
        name="drunagor",
        help="Campaign companion for Chronicles of Drunagor: Awakenings.\n\n"
        "Keeps the Story Record and Campaign Logs as TOML files, enforces the campaign rules, and "
        "resolves the Dreadful Raid and Monster Battalions at the table.\n\n"
        "Example: drunagor new demo --example && drunagor -C campaigns/demo show",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,  # help texts cite [cards] and [track]: never eat them as markup
    )
    app.callback()(_global)
    for name in MODULES if only is None else (COMMANDS[only],):
        importlib.import_module(name if "." in name else f"{__package__}.commands.{name}").register(app)
    infos: list[Any] = [*app.registered_commands, *app.registered_groups]
    for info in infos:
        name = _name(info) or ""
        for title, lines in PANELS.items():
            if name in lines:
                info.rich_help_panel, info.short_help = title, lines[name]
    if only is not None:
        app.registered_commands = [c for c in app.registered_commands if _name(c) == only]
        app.registered_groups = [g for g in app.registered_groups if _name(g) == only]
    if sub is not None:
        for group in app.registered_groups:
            if group.typer_instance is not None:
                _keep_only(group.typer_instance, sub)
    return app


def _keep_only(group: typer.Typer, sub: str) -> None:
    """Leave in `group` only its subcommand `sub`, if it has one (this process builds one command)."""
    names = [_name(c) for c in group.registered_commands] + [_name(g) for g in group.registered_groups]
    if sub in names:
        group.registered_commands = [c for c in group.registered_commands if _name(c) == sub]
        group.registered_groups = [g for g in group.registered_groups if _name(g) == sub]


def _name(info) -> str | None:
    """The name Typer gives a registered command or group."""
    if getattr(info, "name", None):
        return info.name
    if getattr(info, "typer_instance", None) is not None:
        return info.typer_instance.info.name
    callback = getattr(info, "callback", None)
    return callback.__name__.lower().replace("_", "-") if callback else None


def command_typed(argv: list[str]) -> str | None:
    """The top-level command in `argv`, skipping the global options; None if there is none."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in GLOBAL_WITH_VALUE:
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


def app_for(argv: list[str]) -> typer.Typer:
    """The app to build for the command line `argv`: only the command typed, and of a group only the
    subcommand typed (the whole app for an unknown command or none)."""
    typed = command_typed(argv)
    if typed not in COMMANDS:
        return build_app()
    return build_app(typed, command_typed(argv[argv.index(typed) + 1:]))


def __getattr__(name: str):
    if name == "app":  # the whole app, built once on first use
        globals()["app"] = built = build_app()
        return built
    raise AttributeError(name)


def main() -> None:
    import os
    import sys

    if os.environ.get("_DRUNAGOR_COMPLETE"):  # the shell asks what may come next: only the typed command
        from . import completion

        completion.run(app_for)
        return
    app_for(sys.argv[1:])()

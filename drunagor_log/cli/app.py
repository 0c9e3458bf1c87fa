"""The `drunagor` command line: global options, the command groups, and the one error path.

Each area of the game lives in its own module under `cli/commands/`; this file only assembles them.
Typer builds every registered command's options when it starts, and that cost grows with the number
of commands; so `main()` builds an app holding only the command the user typed (the COMMANDS map
says which module has it), and the whole app is built only for `drunagor --help`, an unknown command,
and for `from drunagor_log.cli.app import app` (tests). Heavy modules (tomlkit, rich) are imported
inside the commands that need them.
"""

import os
import sys
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from .. import installed_version
from ..errors import DrunagorError
from .click import Context, HelpFormatter, make_default_short_help
from .common import Options, path_refused, typed_texts, whole_numbers
from .terminal import term

# Module under cli/commands/ of every top-level command, in the order `--help` lists them.
MODULES = ("campaign", "story", "house", "heroes", "chest", "cards", "adventure", "round", "sheet", "serve",
           "gitcmds", "chronicle",
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
    "note": "chronicle", "recap": "chronicle", "stats": "chronicle",
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
    "The chronicle": {
        "note": "The party's own notes: chapter, round, date, author.",
        "recap": "Previously on…: what happened since the last evening.",
        "stats": "Raids, runes, cubes and defeats, chapter by chapter.",
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


# ------------------------------------------------------------------ citations in the help (issue 35.7)
# Every help text cites the rulebook short (`RB L959`), as the code writes it; what `--help` prints names
# the section too (SPEC 11, "Citations"): the help formatter renders a citation where it writes a text or
# a row, so no headings work happens until a help is printed. A one-liner (a panel's line, a group's list
# of commands) keeps its citation only if the rendered line still fits its row; else it drops it, and the
# command's own help, which names the same lines, keeps it (tests/cli/test_help_citations.py).
HELP_WIDTH = 78  # Click's help width on an 80-column terminal (its formatter keeps 2 columns spare)


def _prose(text: str) -> str:
    """`text` with its citations in the reader's form, paragraph by paragraph (a citation may run across
    the source's lines); `code spans` and `\\b` blocks as they are."""
    if "RB" not in text:
        return text
    from ..catalog.headings import rendered_prose

    return "\n\n".join(par if par.lstrip().startswith("\b") else rendered_prose(par) for par in text.split("\n\n"))


class CitingFormatter(HelpFormatter):
    """Click's help formatter, writing each text and row with its citations rendered (then wrapped)."""

    def write_text(self, text: str) -> None:
        super().write_text(_prose(text))

    def write_dl(self, rows, col_max: int = 30, col_spacing: int = 2) -> None:
        super().write_dl([(first, _prose(second)) for first, second in rows], col_max, col_spacing)


class CitingContext(Context):
    formatter_class = CitingFormatter


def one_liner(command, limit: int) -> str:
    """A command's line in its group's list, within `limit` columns: its short help (a panel's line),
    else the first sentence of its help as Click shortens it; its citations rendered if the line still
    fits whole so, else left out (the command's own `--help` names them)."""
    given = command.short_help
    first = (given or command.help or "").split("\n\n")[0]
    if "RB" not in first:
        return command.get_short_help_str(limit)
    from ..catalog.headings import uncited

    if given:
        line = " ".join(_prose(first).split())
        return line if len(line) <= limit else " ".join(uncited(first).split())
    line = make_default_short_help(_prose(first), limit)
    return line if not line.endswith("...") else make_default_short_help(uncited(first), limit)


class CitingCommand(TyperCommand):
    context_class = CitingContext

    def parse_args(self, ctx, args):
        """Click's parsing; a word too many after a command's last argument is mostly the second word of
        an unquoted name (`monster add Shadow Knight`): Click's message then says to quote it."""
        from .click import UsageError

        try:
            return super().parse_args(ctx, args)
        except UsageError as exc:
            if "unexpected extra argument" not in exc.message:
                raise
            names = [p for p in self.params if getattr(p, "param_type_name", "") == "argument"]
            value = ctx.params.get(names[-1].name) if names else None
            extra = exc.message.rpartition("(")[2].rstrip(")")
            if isinstance(value, str) and extra:
                exc.message += (f"; a name of several words is one argument: quote it whole, e.g. "
                                f"{ctx.command_path.split(' ', 1)[-1]} \"{value} {extra}\"")
            raise


class CitingGroup(TyperGroup):
    """A group of the tree (`hero`, `chapter`): its list of commands with their one-liners."""

    context_class = CitingContext

    def format_commands(self, ctx, formatter):
        shown = [(name, cmd) for name in self.list_commands(ctx)
                 if (cmd := self.get_command(ctx, name)) is not None and not cmd.hidden]
        if shown:
            limit = formatter.width - 6 - max(len(name) for name, _ in shown)  # as Click's
            with formatter.section("Commands"):
                formatter.write_dl([(name, one_liner(cmd, limit)) for name, cmd in shown])


def citing(typer_app: typer.Typer) -> None:
    """Every command and group under `typer_app` built with the citing help (Typer's `cls`)."""
    for info in typer_app.registered_commands:
        if info.cls in (None, TyperCommand):  # Typer's default (`app.command()` writes it in)
            info.cls = CitingCommand
    for group in typer_app.registered_groups:
        if group.typer_instance is not None:
            group.cls = CitingGroup
            citing(group.typer_instance)


class DrunagorGroup(TyperGroup):
    """Turns every user-facing failure into one message and its exit code (SPEC section 6), and
    takes the global options anywhere on the line."""

    context_class = CitingContext

    def __init__(self, **attrs):
        super().__init__(**attrs)
        upper_metavars(self)
        whole_numbers(self)
        typed_texts(self)

    def parse_args(self, ctx, args):
        return super().parse_args(ctx, globals_first(list(args)))

    def main(self, *args, **kwargs):
        from .terminal import settle_environment

        settle_environment()
        return super().main(*args, **kwargs)

    def format_commands(self, ctx, formatter):
        """The commands in their panels (PANELS), in the panels' order; a command no panel names
        (none today) under Commands, as Click lists it."""
        shown = {name: cmd for name in self.list_commands(ctx)
                 if (cmd := self.get_command(ctx, name)) is not None and not cmd.hidden}
        placed = {name for panel in PANELS.values() for name in panel}
        sections = [(title, [n for n in panel if n in shown]) for title, panel in PANELS.items()]
        sections.append(("Commands", [n for n in shown if n not in placed]))
        width = max((len(n) for n in shown), default=0)
        limit = self.panel_limit(shown)
        for title, names in sections:
            if names:
                with formatter.section(title):
                    formatter.write_dl([(n.ljust(width), one_liner(shown[n], limit)) for n in names])

    @staticmethod
    def panel_limit(names) -> int:
        """The columns of a panel's one-liner: what stays on one row at 80 columns, on any terminal (the
        indent, the names' column and its spacing, and the 2 Click keeps spare)."""
        return HELP_WIDTH - (max((len(n) for n in names), default=0) + 2) - 2

    def invoke(self, ctx):
        from ..store import lock

        lock.on_wait = _waiting
        typed = [*getattr(ctx, "_protected_args", ()), *ctx.args]  # the words after the global options
        try:
            return super().invoke(ctx)
        except DrunagorError as exc:
            if exc.ask is not None and exc.typed is None:
                exc.typed = typed
            term.error(exc.render())
            ctx.exit(int(exc.code))
        except OSError as exc:
            refusal = path_refused(exc)
            if refusal is None:
                raise
            term.error(refusal.render())
            ctx.exit(int(refusal.code))


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
    named = campaign or os.environ.get("DRUNAGOR_CAMPAIGN")
    if named:  # the cache is off in the campaign's work tree, from the first thing cached (issue 41.5)
        from ..catalog.diskcache import outside_work_tree

        outside_work_tree(os.path.join(os.path.expanduser(named), "story.toml"))


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
    citing(app)
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

"""Story Record commands (RB L951-962): the party's name, the Party Leader, Followers, Outcomes,
Story Record statuses, the Adventure Track (`chapter complete|skip|fail`) and chapter briefings
(`chapter show`).

Each command parses its options, calls one operation of `drunagor_log.ops.story` and prints.
"""


from typing import Annotated

import typer

from ...ops import story as story_ops
from ..common import CommitOpt, ForceOpt, JsonOpt, game, look, perform

# ----------------------------------------------------------------------------------- party, leader


def party(
    name: Annotated[str, typer.Argument(help="The party's name, as on the Story Record.")],
    commit: CommitOpt = False,
) -> None:
    """Set the party's name on the Story Record (RB L959).

    Example: drunagor party "Safeguard Corporation"
    """
    perform(story_ops.set_party, name, commit=commit)


def leader(
    hero: Annotated[str, typer.Argument(click_type=game("hero"),
            help="An active hero (case-insensitive; a unique prefix is enough).")],
    commit: CommitOpt = False,
) -> None:
    """Set the Party Leader, who breaks the ties the rules leave to the party (RB L453, L1072).

    Example: drunagor leader Andreas
    """
    perform(story_ops.set_leader, hero, commit=commit)


# ------------------------------------------------------------------------ followers, outcomes, ...


NameArg = Annotated[str, typer.Argument(click_type=game("Story Record name", records=True),
    help="The name as written in the book (any case; a unique prefix of a known name is enough).")]
RecordedArg = Annotated[str, typer.Argument(click_type=game("name on the Story Record"),
    help="The name as written in the book (any case; a unique prefix of a known name is enough).")]

NewOpt = Annotated[bool, typer.Option("--new", help="The name is one drunagor does not know: record it as typed.")]

follower_app = typer.Typer(help="Followers on the Story Record (RB L447-463).", no_args_is_help=True)
outcome_app = typer.Typer(help="Outcomes on the Story Record (RB L962).", no_args_is_help=True)
status_app = typer.Typer(help="Story Record statuses (the party's; a hero's are `drunagor hero status`).",
                         no_args_is_help=True)


@follower_app.command("add")
def follower_add(name: NameArg, new: NewOpt = False, commit: CommitOpt = False) -> None:
    """Write a Follower on the Story Record when the party recruits one (RB L455).

    A name drunagor does not know is refused with the closest known one ("did you mean"); --new
    records it as typed. `follower remove` takes back a Follower written by mistake.

    Example: drunagor follower add "Maya the Ranger"
    """
    perform(story_ops.add_follower, name, new, commit=commit)


@follower_app.command("remove")
def follower_remove(name: RecordedArg, commit: CommitOpt = False) -> None:
    """Erase a Follower who was defeated or dismissed (RB L459), or was written by mistake.

    Example: drunagor follower remove vorn
    """
    perform(story_ops.remove_follower, name, commit=commit)


@outcome_app.command("add")
def outcome_add(name: NameArg, new: NewOpt = False, commit: CommitOpt = False) -> None:
    """Write an Outcome on the Story Record when the book says so (RB L962).

    A name drunagor does not know is refused with the closest known one; --new records it as typed.

    Example: drunagor outcome add "Promised Reward"
    """
    perform(story_ops.add_outcome, name, new, commit=commit)


@outcome_app.command("remove")
def outcome_remove(name: RecordedArg, commit: CommitOpt = False) -> None:
    """Erase an Outcome from the Story Record (written by mistake, or the book says so).

    Example: drunagor outcome remove "Drinking Pal"
    """
    perform(story_ops.remove_outcome, name, commit=commit)


@status_app.command("add")
def status_add(name: NameArg, new: NewOpt = False, commit: CommitOpt = False) -> None:
    """Write a status on the Story Record (the party's, not a hero's).

    A name drunagor does not know is refused with the closest known one; --new records it as typed.

    Example: drunagor status add "Dark Past"
    """
    perform(story_ops.add_status, name, new, commit=commit)


@status_app.command("remove")
def status_remove(name: RecordedArg, commit: CommitOpt = False) -> None:
    """Erase a status from the Story Record.

    Example: drunagor status remove "Imminent Danger"
    """
    perform(story_ops.remove_status, name, commit=commit)


# ------------------------------------------------------------------------------------ party stash

stash_app = typer.Typer(help="The party stash: Consumable Items a hero who left gave the party (RB L972-974).",
                        no_args_is_help=True)
ItemArg = Annotated[str, typer.Argument(click_type=game("card", records=True),
        help="The card (any case; a unique prefix of a known name is enough).")]
StashedArg = Annotated[str, typer.Argument(click_type=game("card in the stash"),
        help="The card (any case; a unique prefix of a known name is enough).")]


@stash_app.command("show")
def stash_show(json: JsonOpt = False) -> None:
    """The party stash: the Consumable Items heroes who left gave the party, to hand out.

    Example: drunagor stash show
    """
    look(story_ops.show_stash, json=json)


@stash_app.command("add")
def stash_add(item: ItemArg, new: NewOpt = False, commit: CommitOpt = False) -> None:
    """Put a Consumable Item in the party stash (to take back a `stash remove` made by mistake).

    `drunagor hero remove` stashes a leaving hero's Consumables itself; only Consumables are stashed.

    Example: drunagor stash add "Potion of Healing"
    """
    perform(story_ops.add_to_stash, item, new, commit=commit)


@stash_app.command("remove")
def stash_remove(item: StashedArg, commit: CommitOpt = False) -> None:
    """Take a card out of the party stash: recorded by mistake, or returned to the box.

    Example: drunagor stash add "Potion of Healing" && drunagor stash remove "Potion of Healing"
    """
    perform(story_ops.remove_from_stash, item, commit=commit)


# ---------------------------------------------------------------------------- the Adventure Track


ChapterArg = Annotated[str, typer.Argument(click_type=game("chapter"), metavar="N", help="Chapter number, 1 to 9.")]

chapter_app = typer.Typer(help="The Adventure Track (RB L961) and chapter briefings (RB L1058-1309).",
                          no_args_is_help=True)


@chapter_app.command("complete")
def chapter_complete(n: ChapterArg, force: ForceOpt = False, commit: CommitOpt = False) -> None:
    """Fill the next slot of the Adventure Track as completed; list the rewards each hero now owes.

    Only the next unfilled slot may be filled (RB L961). --force corrects history and is recorded in story.toml.
    The chapter of the adventure under way is ended by `drunagor adventure end --won|--lost` instead.

    Example: drunagor adventure end --won && drunagor chapter complete 6
    """
    perform(story_ops.fill_chapter, n, "completed", force, commit=commit)


@chapter_app.command("skip")
def chapter_skip(n: ChapterArg, force: ForceOpt = False, commit: CommitOpt = False) -> None:
    """Fill the next slot of the Adventure Track as skipped: no rewards (RB L1084).

    Only the next unfilled slot may be filled (RB L961). --force corrects history and is recorded in story.toml.
    The chapter of the adventure under way is ended by `drunagor adventure end --won|--lost` instead.

    Example: drunagor adventure end --lost && drunagor chapter skip 5
    """
    perform(story_ops.fill_chapter, n, "skipped", force, commit=commit)


@chapter_app.command("fail")
def chapter_fail(n: ChapterArg, force: ForceOpt = False, commit: CommitOpt = False) -> None:
    """Record a failed attempt at the next chapter; its slot stays open.

    The attempts are counted under failures in story.toml. --force records one for another chapter.
    The chapter of the adventure under way is ended by `drunagor adventure end --lost` instead.

    Example: drunagor adventure end --won && drunagor chapter fail 6
    """
    perform(story_ops.fill_chapter, n, "failed", force, commit=commit)


@chapter_app.command("show")
def chapter_show(
    n: Annotated[str | None, typer.Argument(click_type=game("chapter"),
            metavar="[N]", help="Chapter number (default: the next one).")] = None,
    heroes: Annotated[int | None, typer.Option(
        "--heroes", metavar="K", help="Number of heroes (default: the party's active heroes).")] = None,
    json: JsonOpt = False,
) -> None:
    """The briefing for chapter N (default: the next), with the party's numbers filled in.

    Stirring Darkness, recall penalty, raid card and its minions, Darkness Nodes, trauma limit.

    Tie Breaker runes (6 - heroes), Camaraderie Followers (5 - heroes), boss Health (40 x heroes).

    Example: drunagor chapter show 7 --heroes 3
    """
    look(story_ops.briefing, n, heroes, json=json)


def register(app: typer.Typer) -> None:
    app.command()(party)
    app.command()(leader)
    app.add_typer(follower_app, name="follower")
    app.add_typer(outcome_app, name="outcome")
    app.add_typer(status_app, name="status")
    app.add_typer(stash_app, name="stash")
    app.add_typer(chapter_app, name="chapter")


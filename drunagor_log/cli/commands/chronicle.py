"""The campaign's chronicle (SPEC 12, issue 45): the party's notes (`note add|list|remove`), "previously
on..." (`recap`) and the statistics (`stats`). Each command calls one operation of `drunagor_log.ops`
(notes, recap, stats) and prints."""


from typing import Annotated

import typer

from ..common import CommitOpt, JsonOpt, game, look, perform

note_app = typer.Typer(help="The party's own notes, stamped with the chapter, round, date and author.",
                       no_args_is_help=True)


@note_app.command("add")
def note_add(
    text: Annotated[str, typer.Argument(metavar="TEXT", help="The note, in the party's own words.")],
    hero: Annotated[str | None, typer.Option("--hero", metavar="HERO", click_type=game("hero"),
                                             help="The hero the note is about.")] = None,
    by: Annotated[str | None, typer.Option("--by", metavar="NAME",
                                           help="Who wrote it (default: git's user.name).")] = None,
    commit: CommitOpt = False,
) -> None:
    """Write a note in story.toml, stamped with the chapter, the round when an adventure is under way,
    the date and who wrote it.

    Two players who each add a note before `drunagor sync` get both: the merge driver merges them.

    Example: drunagor note add "the north gate's key is with Nyx" --hero Nyx --by Ana
    """
    from ...ops import notes as notes_ops

    perform(notes_ops.add, text, hero=hero, by=by, commit=commit)


@note_app.command("list")
def note_list(json: JsonOpt = False) -> None:
    """The party's notes, numbered, oldest first.

    --json: {"notes": [{"number", "id", "chapter", "round", "date", "by", "hero", "text"}]}.

    Example: drunagor note list
    """
    from ...ops import notes as notes_ops

    look(notes_ops.listing, json=json)


@note_app.command("remove")
def note_remove(
    number: Annotated[int, typer.Argument(metavar="N", help="The note's number, as `note list` shows it.")],
    commit: CommitOpt = False,
) -> None:
    """Take a note out (N: its number in `note list`).

    Example: drunagor note add "buy potions" --by Ana && drunagor note remove 1
    """
    from ...ops import notes as notes_ops

    perform(notes_ops.remove, number, commit=commit)


def stats(
    chapter: Annotated[str | None, typer.Option("--chapter", metavar="N", click_type=game("chapter"),
                                                help="Only this chapter (01-09).")] = None,
    json: JsonOpt = False,
) -> None:
    """The table's statistics, chapter by chapter and per hero, from the facts of every adventure's table events.

    Per chapter: its attempts and how each ended, raids resolved and summoned beside the summons the odds
    predicted ("expected 3.4, happened 4"), runes drawn by colour beside what the bag made likely, cubes
    received and defeats per hero, Battalions; per hero over the campaign. An adventure archived before
    drunagor kept these facts is counted for what it kept, and the output says what it could not count.

    Example: drunagor stats --chapter 03
    """
    from ...ops import stats as stats_ops

    look(stats_ops.stats, chapter=chapter, json=json)


def recap(
    since: Annotated[str, typer.Option("--since", metavar="last|CHAPTER|DATE|COMMIT",
                                       help="From when: the last evening (default), a chapter (03), a day "
                                            "(2026-11-29) or a git commit.")] = "last",
    hero: Annotated[str | None, typer.Option("--hero", metavar="HERO", click_type=game("hero"),
                                             help="Only what concerns this hero.")] = None,
    fmt: Annotated[str, typer.Option("--format", metavar="text|md",
                                     help="md: Markdown that pastes into a group chat as it is.")] = "text",
    json: JsonOpt = False,
) -> None:
    """Previously on…: what happened since the last evening, from the campaign's files and git history.

    The chapters played with their attempts and how each ended, the Adventure Track, heroes who joined
    or left, the rewards each hero took, Followers, Outcomes and statuses gained or lost, the table's
    notable moments (Battalions, raids that summoned, heroes defeated, the bag down to its last rune) and
    the party's notes. By default since the last adventure started or ended, or the last `sync`,
    whichever is later; the first line says which. Only the party's own facts and the book's titles.

    --json: {"since": {"kind", "commit", "date", "chapter", "said"}, "hero", "party", "adventures",
    "track", "heroes", "rewards", "story", "moments", "notes"}.

    Example: drunagor recap --format md
    """
    from ...ops import recap as recap_ops

    look(recap_ops.recap, since=since, hero=hero, fmt=fmt, json=json)


def register(app: typer.Typer) -> None:
    app.add_typer(note_app, name="note")
    app.command("recap")(recap)
    app.command("stats")(stats)

"""At the table: the adventure under way (adventure.toml), Piles of Runes, runes, monsters, the Dreadful
Raid, Monster Battalions and the odds of the next raid (SPEC section 4 "During an adventure", 5.5, 5.6).

Each command parses its options, calls one operation (ops/adventure.py: the adventure as a whole;
ops/board.py: Piles, runes, monsters; ops/summon.py: raid, battalion; ops/odds.py; ops/losing.py: cubes)
and prints the Change it returns. `raid` must answer at once (SPEC 7): its operation reads story.toml
and adventure.toml only, reads none of the catalog's data and imports no fractions (rich only on a
colour terminal). A command that may write opens the campaign for writing (the raid and the battalion
too: they write nothing when no adventure is under way); none looks at the files to decide.
"""

# No `from __future__ import annotations` here: Typer would then eval (and compile) every annotation of
# every command at each start; evaluated once at import, the annotations cost a third of that (SPEC 7).
from typing import Annotated

import typer

from ...errors import UsageError
from ..common import CommitOpt, JsonOpt, game, look, perform
from ..terminal import term

DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Resolve and print, write nothing.")]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Seed of the random draw: replays an earlier draw.")]


# -------------------------------------------------------------------------------- adventure group

adventure_app = typer.Typer(name="adventure", no_args_is_help=True,
                            help="The adventure under way: start a chapter, show the table, end it.")


@adventure_app.command("start")
def adventure_start(
    chapter: Annotated[str | None, typer.Argument(click_type=game("chapter"),
            help="Chapter number (default: the next on the Adventure Track).")] = None,
    heroes: Annotated[int | None, typer.Option("--heroes",
            help="Heroes playing: at most the active heroes and rules.max_heroes (default: all of them).")] = None,
    models: Annotated[int | None, typer.Option("--models",
            help="How many models the raid's Scenario Monster has, when the catalog does not know (asked once, "
                 "remembered under [cards]).")] = None,
    commit: CommitOpt = False,
) -> None:
    """Start chapter N: the rune bag, Stirring Darkness on the track, the raid card face A, an empty board.

    The bag is the campaign's rules.rune_bag; Stirring Darkness moves that many runes of each colour to
    the Initiative Track; the chapter's raid card (if any) starts face A up. One adventure at a time: on
    the shipped example chapter 05 is under way, so the example ends it first.

    Example: drunagor adventure end --won && drunagor adventure start 6
    """
    from ...ops import adventure as ops

    perform(ops.start, chapter, heroes, models, commit=commit)


@adventure_app.command("show")
def adventure_show(json: JsonOpt = False) -> None:
    """The table now: rune bag, Initiative Track, Piles of Runes, raid card face, monsters and their slots.

    Also the round, what its end will do (drunagor round end), and the chapter's counters and tokens.

    Example: drunagor adventure show
    """
    from ...ops import adventure as ops

    look(ops.show, json=json, show=_print_table)


def _print_table(d: dict) -> None:
    from ...model.adventure import SLOT_COLOURS, STATUS_BOARD_TRACKS
    from ...ops.words import pile_runes, plural, runes_text

    used = [0]  # rows of the terminal taken so far: the log comes last, in what is left (80x24)

    def say(text: str, style: str | None = None) -> None:
        used[0] += term.rows_of(text)
        term.line(text, style)

    used[0] += 1
    term.heading(f"Chapter {d['chapter']}, {d['title']}: {plural(d['heroes'], 'hero', 'heroes')}, round {d['round']}")
    say(f"Rune bag: {plural(d['runes_in_bag'], 'rune')} ({runes_text(d['bag'])})")
    say(f"Initiative Track: {plural(sum(d['track'].values()), 'rune')} ({runes_text(d['track'])})")
    piles = "; ".join(f"Pile {p['id']} ({pile_runes(p['runes'])})" for p in d["piles"])
    say(f"Piles of Runes: {piles or 'none on the board'}")
    raid = d["raid"]
    if raid is not None:
        limit = f", {raid['model_limit']} models" if raid["model_limit"] else ""
        say(f"{raid['card']} card: face {raid['face']}; summons {' or '.join(raid['minions'])} "
            f"({raid['rank']}{limit})")
    taken = sum(1 for m in d["monsters"] if m["slot"] is not None)
    if d["monsters"]:
        rows = [[m["slot"] or "-", m["colour"] or "boss", m["name"], m["rank"] or ""] for m in d["monsters"]]
        by_slot = {m["slot"]: f"{m['name']} ({m['rank']})" if m["rank"] else m["name"] for m in d["monsters"]}
        slots = [(n, SLOT_COLOURS[n - 1], by_slot.get(n)) for n in range(1, STATUS_BOARD_TRACKS + 1)]
        term.board(f"Monsters on the board ({taken} of {STATUS_BOARD_TRACKS} tracks taken)", slots, rows,
                   ["Slot", "Base", "Monster", "Rank"])
        used[0] += 1 + (STATUS_BOARD_TRACKS + 1) // 2 if term.rich else 2 + len(rows)
        bosses = [m["name"] for m in d["monsters"] if m["slot"] is None]
        if bosses and term.rich:  # the plain table lists them as "-  boss"
            say(f"Off the status board (boss): {', '.join(bosses)}")
    else:
        say("Monsters on the board: none")
    say(d["next_round"])
    _print_losing(d, say)
    _print_log(d, used[0])


#: Table events `adventure show` lists at most, newest last.
RECENT = 5


def _print_log(d: dict, used: int) -> None:
    """The last table events, last: on a terminal as many as the rows left allow (one row each, a longer
    one cut with …), so the board and the counters stay on the screen; piped, the last five whole."""
    from ...names import slug

    names = {slug(name): name for name in d["cubes"]}  # the heroes at the table, by their file's stem
    recent = [e for e in d["log"] if e.get("text")][-RECENT:]
    if not recent:
        return
    screen = term.screen()
    if screen is None:
        term.line("Last at the table:")
        for entry in recent:
            term.line(_event_line(entry, names))
        return
    room = screen[1] - 1 - used - 1  # a row for the shell's prompt, one for the heading
    if room < 1:
        if room == 0:  # the heading's row is left: say where the log is
            term.line_cut("Last at the table: no room left at this height (drunagor adventure show | less)")
        return
    term.line("Last at the table:")
    for entry in recent[-room:]:
        term.line_cut(_event_line(entry, names))


def _event_line(entry: dict, names: dict[str, str]) -> str:
    """A table event as `adventure show` lists it; a phone's says whose: the hero's name, as the pages
    say it (`by` is the hero's file name; `names`: file name -> hero)."""
    by = entry.get("by")
    by = f" (from {names.get(by, by)}'s phone)" if isinstance(by, str) else ""
    return f"  {entry.get('event', '')}{by}: {entry['text']}"


def _print_losing(d: dict, say) -> None:
    """Cubes held, the chapter's counters, and the losing condition met (SPEC 9)."""
    def of(n, most) -> str:
        return f"{n}/{'?' if most is None else most}"

    held = [f"{hero} trauma {of(c['trauma'], c['trauma_limit'])}, curse {of(c['curse'], c['curse_capacity'])}"
            for hero, c in d["cubes"].items() if c["trauma"] or c["curse"]]
    if held:
        say("Cubes (held/can hold): " + "; ".join(held))
    from ...ops.round import counter_lines

    for line in counter_lines(d["counters"]):
        say(line)
    if d["lost"]:
        say(f"The adventure is lost: {d['lost']}. Record it with `drunagor adventure end --lost`.", "bold red")
    elif d.get("won"):
        say(f"The adventure has ended: {d['won']}. Record it with `drunagor adventure end --won`.", "bold")


@adventure_app.command("end")
def adventure_end(
    won: Annotated[bool, typer.Option("--won", help="The adventure ended successfully: complete the chapter.")] = False,
    lost: Annotated[bool, typer.Option("--lost", help="The adventure failed: record a failed attempt.")] = False,
    commit: CommitOpt = False,
) -> None:
    """End the adventure: archive its state under adventures/; --won completes the chapter, --lost records a failure.

    Everything is written at once or not at all: the archive, the Adventure Track (or the failure count)
    and the removal of adventure.toml. A chapter already filled on the track meanwhile is left as it is
    (the adventure is archived all the same, and the way to change the track is printed).

    Example: drunagor adventure end --won
    """
    from ...ops import adventure as ops

    if won == lost:
        raise UsageError("say how the adventure ended: --won or --lost (one of them)")
    perform(ops.end, "won" if won else "lost", commit=commit)


EVENT_NAMES = ("barricade|swan-hp|endgame|vessel-hp|naval-raid-flip|king-health|desperation-time|special-event|"
               "mending-rope|plenty-of-provisions|spare-wood")


@adventure_app.command("event", help=(
    "A chapter's own counter, as the book names it: a Barricade token removed (07), a Pristine Swan or Corrupted "
    "Vessel HP card drawn or the Naval Raid card flipped (04), the Endgame Trigger, the Awakened King's Health or a "
    "Time token off the "
    "Desperation Attack card (09), the Special Event token on the Rune card (01), a resource collected (05).\n\n"
    "Chapter 07: the last Barricade token removed fails the adventure (RB L1243, L1251). Chapter 04: drawing the "
    "last Pristine Swan's HP card fails it (RB L1177); the last Corrupted Vessel's HP card is the ending \"A Day "
    "For the Prey\" (RB L1179); naval-raid-flip flips the Naval Raid card once its own text is resolved (RB L1171). "
    "Chapter 09: the Awakened King has 40 Health per hero, 1 lost per Darkness square "
    "purged (--count: the damage, RB L1295-1299); 2 Time tokens on the Desperation Attack card (RB L1301); after "
    "the Endgame Trigger a defeat of the party is the ending \"A Hero Undone\", not a failure (RB L1309). Chapter "
    "01: the Special Event token on the Rune card (RB L1074). Chapter 05: 1 Mending Rope, 1 Plenty of Provisions "
    "and 1 Spare Wood (RB L1205). On the shipped example chapter 05 is under way.\n\n"
    # one line: the docs test runs it as written (a help text, so that it may be longer than the code's lines)
    "Example: drunagor adventure event spare-wood"))
def adventure_event(
    name: Annotated[str, typer.Argument(metavar=EVENT_NAMES, help="The chapter's counter.")],
    count: Annotated[int, typer.Option("--count", help="How many (the damage for king-health).")] = 1,
    deck: Annotated[int | None, typer.Option(
            "--deck", help="How many HP cards the deck holds (swan-hp, vessel-hp: asked once, remembered under "
                           "[cards]).")] = None,
    json: JsonOpt = False,
    commit: CommitOpt = False,
) -> None:
    """The help is in the decorator (its example is one long line)."""
    from ...ops import round as ops

    perform(ops.event, name, count=count, deck=deck, commit=commit, json=json)


@adventure_app.command("undo")
def adventure_undo(
    steps: Annotated[int, typer.Option("--steps", help="How many table events to take back.")] = 1,
    dry_run: DryRunOpt = False,
    json: JsonOpt = False,
    commit: CommitOpt = False,
) -> None:
    """Take back the last table events (raid, draw, monster, pile, tiebreak, battalion, cube, recall, event, round).

    adventure.toml is restored exactly as it was before them, its log included. The random draws of a
    raid or a draw taken back are drawn anew by the next command (or replayed with --seed).

    Example: drunagor draw && drunagor adventure undo
    """
    from ...ops import adventure as ops

    perform(ops.undo, steps, dry_run=dry_run, commit=commit, json=json)


# -------------------------------------------------------------------------------- Piles of Runes

pile_app = typer.Typer(name="pile", no_args_is_help=True, help="Piles of Runes on the board.")


@pile_app.command("add")
def pile_add(
    runes: Annotated[str | None, typer.Option("--runes", click_type=game("rune colour"), metavar="COLOURS",
            help="The Pile's runes, from the track: red,blue or red=2 (default: Darkness Nodes, one of each "
                 "colour).")] = None,
    commit: CommitOpt = False,
) -> None:
    """Put a Pile of Runes on the board, its runes taken from the Initiative Track.

    By default the Darkness Nodes rule: one rune of each colour from the track (RB L1098).

    Example: drunagor pile add
    """
    from ...ops import board as ops

    perform(ops.add_pile, runes, commit=commit)


@pile_app.command("remove")
def pile_remove(
    pile: Annotated[str, typer.Argument(help="The Pile: pile-1, or 1 (Pile 1 as adventure show lists it).")],
    commit: CommitOpt = False,
) -> None:
    """Take a Pile of Runes off the board, its runes going to the Initiative Track.

    As when the Soul Harvester advances through it or its Map tile collapses (RB L1147, L1149). To
    return runes to the bag, use the Tie Breaker (drunagor tiebreak).

    Example: drunagor pile remove 2
    """
    from ...ops import board as ops

    perform(ops.remove_pile, pile, commit=commit)


def tiebreak(
    pile: Annotated[str, typer.Argument(help="The Pile: pile-1, or 1 (Pile 1 as adventure show lists it).")],
    runes: Annotated[str | None, typer.Option("--runes", click_type=game("rune colour"), metavar="COLOURS",
            help="The runes the party chooses to return: red,blue or red=2.")] = None,
    commit: CommitOpt = False,
) -> None:
    """Tie Breaker: return (6 - heroes) runes of the party's choice from a Pile to the bag.

    A Pile left empty leaves the board. When the Pile holds no more runes than that, --runes may be
    left out (RB L1100).

    Example: drunagor tiebreak 1 --runes blue,green
    """
    from ...ops import board as ops

    perform(ops.tiebreak, pile, runes, commit=commit)


# ----------------------------------------------------------------------------------------- runes


def draw(
    count: Annotated[int | None, typer.Argument(
            help="How many runes (default 1, or as many as --rune names).")] = None,
    rune: Annotated[list[str] | None, typer.Option("--rune", click_type=game("rune colour"), metavar="COLOUR",
            help="A rune drawn at the table (repeat, or red,blue).")] = None,
    seed: SeedOpt = None,
    json: JsonOpt = False,
    commit: CommitOpt = False,
) -> None:
    """Draw runes from the bag to the Initiative Track, at random (seeded) or as drawn at the table.

    Drawing the last rune of the bag fails the adventure in chapters 01-06 (e.g. RB L1203). --json prints
    the runes drawn, the seed, the bag left and whether the adventure fails.

    Example: drunagor draw 2
    """
    from ...ops import board as ops

    perform(ops.draw, count, rune, seed, commit=commit, json=json)


# -------------------------------------------------------------------------------------- monsters

monster_app = typer.Typer(name="monster", no_args_is_help=True,
        help="Monsters on the board and their status-board slots.")


@monster_app.command("add")
def monster_add(
    name: Annotated[str, typer.Argument(click_type=game("monster", records=True),
            help="The monster card's name (quote names with spaces).")],
    count: Annotated[int, typer.Option("--count", help="How many of them.")] = 1,
    rank: Annotated[str | None, typer.Option("--rank",
            help="Its rank, when the catalog does not know it: Overlord, Commander, Black, Gray, White, Scenario, "
                 "Minion.")] = None,
    slot: Annotated[str | None, typer.Option("--slot",
            help="Its status-board slot, 1-12 or the base colour (default: the next free one).")] = None,
    boss: Annotated[bool, typer.Option("--boss", help="A boss: it takes no status-board slot.")] = False,
    new: Annotated[bool, typer.Option("--new", help="A monster drunagor does not know, though its name is very like "
                                                    "one it knows: record it as typed.")] = False,
    models: Annotated[int | None, typer.Option("--models", help="How many models the monster has, when the book does "
                                                            "not say (chapter 07's Siege Monsters: asked once, "
                                                            "remembered under [cards]).")] = None,
    commit: CommitOpt = False,
) -> None:
    """Place monsters on the board, each in the next free status-board slot (slot 1, yellow, first).

    A boss takes no slot. No monster is placed when the 12 tracks are taken, nor a model beyond its
    kind's (4 for a Minion, RB L311).

    Example: drunagor monster add "Gremlin Horde" --count 2
    """
    from ...ops import board as ops

    perform(ops.add_monster, name, count=count, rank=rank, slot=slot, boss=boss, new=new, models=models, commit=commit)


@monster_app.command("remove")
def monster_remove(
    which: Annotated[list[str], typer.Argument(click_type=game("monster on the board"), metavar="NAME|SLOT...",
            help="Each monster's name, or its slot (1-12 or the base colour).")],
    commit: CommitOpt = False,
) -> None:
    """Take monsters off the board (defeated or removed), freeing their status-board slots.

    A name that several monsters share needs the slot instead. Several at once are one table event:
    one `adventure undo` puts them all back.

    Example: drunagor monster remove 3 4
    """
    from ...ops import board as ops

    perform(ops.remove_monster, which, commit=commit)


# ------------------------------------------------------------------------------------------ raid


def raid(
    rune: Annotated[str | None, typer.Option("--rune", click_type=game("rune colour"), metavar="COLOUR",
            help="The rune manifested at the table (a physical draw; not with --seed).")] = None,
    seed: SeedOpt = None,
    dry_run: DryRunOpt = False,
    json: JsonOpt = False,
    face: Annotated[str | None, typer.Option("--face",
            help="No adventure under way: the card's face, A or B.")] = None,
    heroes: Annotated[int | None, typer.Option("--heroes",
            help="No adventure under way: heroes in the party.")] = None,
    piles: Annotated[str | None, typer.Option("--piles", click_type=game("rune colour"), metavar="COLOURS",
            help="No adventure under way: the Piles of Runes on the board, red,blue (two Piles) or red+blue (one), "
                 "or none.")] = None,
    monsters: Annotated[int | None, typer.Option("--monsters",
            help="No adventure under way (then required): monsters on the board, 0 to 12 (status-board tracks "
                 "taken).")] = None,
    minions: Annotated[int | None, typer.Option("--minions",
            help="No adventure under way: models of the raid's minion on the board, 0 to the lesser of --monsters "
                 "and its models (4 for a Minion); default 0.")] = None,
    minion: Annotated[str | None, typer.Option("--minion", click_type=game("monster"),
            help="No adventure under way: the minion the raid summons.")] = None,
    commit: CommitOpt = False,
) -> None:
    """Resolve the Dreadful Raid: face check, manifest a rune, summon the raid party, flip the card.

    Prints the four steps in the rulebook's order (RB L277-315), each with the fact that decided it. With
    an adventure under way, adventure.toml gains the minions placed (with their slots), the new face and
    a log line with the rune and the seed. With none, it works from the flags alone and writes nothing.

    Example: drunagor raid --seed 48213
    """
    from ...ops import summon

    flags = summon.RaidFlags(face=face, heroes=heroes, piles=piles, monsters=monsters, minions=minions, minion=minion)
    perform(summon.raid, rune=rune, seed=seed, dry_run=dry_run, flags=flags, commit=commit, json=json,
            notes_first=True)


# ------------------------------------------------------------------------------------- battalion


def battalion(
    monsters: Annotated[list[str], typer.Argument(click_type=game("monster", records=True), metavar="MONSTER...",
            help="The monsters of the battalion, in summoning order (repeat a name for each model).")],
    near: Annotated[str | None, typer.Option("--near", metavar="REF",
            help="The reference point: a Pile (pile-1), a Spawning or Special Event token...")] = None,
    siege: Annotated[bool, typer.Option("--siege",
            help="Siege of Everedge: a monster that cannot spawn activates the first of its kind (RB L1237; on in "
                 "chapter 07).")] = False,
    dry_run: DryRunOpt = False,
    json: JsonOpt = False,
    rank: Annotated[list[str] | None, typer.Option("--rank", metavar="NAME=RANK",
            help="Rank of a monster the catalog does not know (repeat).")] = None,
    on_board: Annotated[int | None, typer.Option("--monsters",
            help="No adventure under way (then required): monsters on the board, 0 to 12 (status-board tracks "
                 "taken).")] = None,
    new: Annotated[bool, typer.Option("--new",
            help="A monster drunagor does not know: take its name as typed.")] = False,
    models: Annotated[list[str] | None, typer.Option("--models", metavar="N|NAME=N",
            help="How many models a monster has, when the book does not say (chapter 07's Siege Monsters: asked "
                 "once, remembered under [cards]); NAME=N for a battalion of several kinds (repeat).")] = None,
    commit: CommitOpt = False,
) -> None:
    """Summon a Monster Battalion NEAR a reference point: place what fits, the rest activate monsters.

    Each monster not placed (12-monster limit, or all its models out) gives two "Activate a Monster"
    commands; the proposed order never activates the same monster twice in a row (RB L1311-1321).

    Example: drunagor battalion "Gremlin Horde" "Gremlin Horde" "Fell Asteris" --near 2
    """
    from ...ops import summon

    perform(summon.battalion, monsters, near=near, siege=siege, dry_run=dry_run, ranks=rank, on_board=on_board,
            new=new, models=models or (), commit=commit, json=json, notes_first=True)


# ------------------------------------------------------------------------------------------ odds


def odds(json: JsonOpt = False) -> None:
    """The exact chance that the next Dreadful Raid summons, and the runes left in the bag.

    The chance is the share of the bag whose colour a Pile of Runes holds (RB L292-297), 0 when the
    card is face A with monsters on the board (RB L284) or no Pile is on the board. Exact fractions.

    Example: drunagor odds
    """
    from ...ops import odds as ops

    look(ops.odds, json=json)


# ------------------------------------------------------------------------------------------ cubes


def cube(
    hero: Annotated[str, typer.Argument(click_type=game("hero"), help="The hero (a unique prefix is enough).")],
    kind: Annotated[str, typer.Argument(metavar="trauma|curse", help="Trauma Cubes or Curse Cubes.")],
    delta: Annotated[str, typer.Argument(metavar="DELTA", help="Cubes added (+1, 2) or removed (-1).")],
    capacity: Annotated[int | None, typer.Option(
            "--capacity", help="How many Curse Cubes the hero's board holds (asked once, remembered under "
                               "[cards]).")] = None,
    trauma_limit_bonus: Annotated[int | None, typer.Option(
            "--trauma-limit-bonus", help="Trauma Cubes the hero's Skills add to rules.trauma_limit (RB L1030; "
                                         "remembered under [cards]).")] = None,
    json: JsonOpt = False,
    commit: CommitOpt = False,
) -> None:
    """A hero's Trauma or Curse Cubes during the adventure: one more than the hero holds defeats them.

    A hero holds rules.trauma_limit Trauma Cubes (1; 2 Taking It Easy; 0 harder: RB L1026-1032) plus what
    their Skills add; the Curse Cubes their board holds are asked once. A defeat fails the adventure (in
    chapter 09 after the Endgame Trigger it is "A Hero Undone", RB L1309): said, exit 0.

    Example: drunagor cube Nyx trauma +1
    """
    from ...ops import losing

    perform(losing.cube, hero, kind, delta, capacity=capacity, trauma_limit_bonus=trauma_limit_bonus, commit=commit,
            json=json)


def recall(
    hero: Annotated[str, typer.Argument(click_type=game("hero"), help="The hero who takes the Recall Action.")],
    capacity: Annotated[int | None, typer.Option(
            "--capacity", help="How many Curse Cubes the hero's board holds (asked once, remembered under "
                               "[cards]).")] = None,
    json: JsonOpt = False,
    commit: CommitOpt = False,
) -> None:
    """A Recall Action: the hero receives the chapter's penalty in Curse Cubes (single or double).

    1 Curse Cube in chapters 01-04 (e.g. RB L1066), 2 from chapter 05 on (e.g. RB L1191); one more than
    the hero's board holds defeats them, as `cube` says.

    Example: drunagor recall Nyx --capacity 5
    """
    from ...ops import losing

    perform(losing.recall, hero, capacity=capacity, commit=commit, json=json)


# ------------------------------------------------------------------------------------- registration


def register(app: typer.Typer) -> None:
    app.add_typer(adventure_app, name="adventure")
    app.add_typer(pile_app, name="pile")
    app.command()(tiebreak)
    app.command()(draw)
    app.add_typer(monster_app, name="monster")
    app.command()(raid)
    app.command()(battalion)
    app.command()(odds)
    app.command(context_settings={"ignore_unknown_options": True})(cube)  # DELTA may be -1
    app.command()(recall)

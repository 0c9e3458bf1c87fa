"""At the table: the adventure under way (adventure.toml), Piles of Runes, runes, monsters, the Dreadful
Raid, Monster Battalions and the odds of the next raid (SPEC section 4 "During an adventure", 5.5, 5.6).

`raid` must answer at once (SPEC 7): it reads story.toml and adventure.toml only (never the heroes'
logs), writes adventure.toml without tomlkit, and imports neither the catalog nor fractions (rich only on
a colour terminal). The rules themselves live in drunagor_log/rules/ (raid, battalion, odds, adventure).
"""

# No `from __future__ import annotations` here: Typer would then eval (and compile) every annotation of
# every command at each start; evaluated once at import, the annotations cost a third of that (SPEC 7).
from pathlib import Path
from typing import Annotated, Optional

import typer

from ...campaign import ADVENTURE, ARCHIVE, Campaign
from ...errors import DataError, RuleError, UsageError
from ..common import CommitOpt, JsonOpt, campaign_root, finish, open_campaign, warn_all
from ..terminal import term

DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Resolve and print, write nothing.")]
SeedOpt = Annotated[Optional[int], typer.Option("--seed", help="Seed of the random draw: replays an earlier draw.")]


# ----------------------------------------------------------------------------------------- helpers


def _refused(exc, c: Campaign | None = None) -> RuleError:
    """A rules refusal (rules.adventure.Refused) as the error the CLI prints (exit 1)."""
    f = c.adventure_file if c is not None else None
    return RuleError(exc.message, file=f.shown if f is not None else None, rule=exc.rule, remedy=exc.remedy)


def _no_adventure(c: Campaign) -> RuleError:
    return RuleError("no adventure under way (there is no adventure.toml)", file=_shown(c.root / ADVENTURE),
                     rule="adventure", remedy="start one with `drunagor adventure start`")


def _shown(path: Path) -> str:
    from ...store import display

    return display(path)


def _load(c: Campaign, *, required: bool = True):
    """The adventure under way as an AdventureState (None when there is none and not `required`)."""
    from ...rules.adventure import StateError, line_of, state_from

    f = c.adventure_file
    if f is None:
        if required:
            raise _no_adventure(c)
        return None
    if c.write and f.read_only:  # refuse before resolving anything: the result could not be written
        raise _read_only(f)
    try:
        return state_from(f.data)
    except StateError as exc:
        raise DataError(exc.message, file=f.shown, line=line_of(f.text, exc.path), rule="adventure-state",
                        remedy=exc.remedy) from None


def _read_only(f) -> DataError:
    return DataError(f"schema {f.data['schema']} is newer than this drunagor knows; the file is read-only",
                     file=f.shown, line=1, rule="schema", remedy="upgrade drunagor")


def _store(c: Campaign, state) -> None:
    """Stage adventure.toml (written by finish(), with every other change of the command, or none)."""
    from ...rules.adventure import dumps

    f = c.adventure_file
    if f is not None and f.read_only:
        raise _read_only(f)
    c.put_bytes(c.root / ADVENTURE, dumps(state).encode("utf-8"))


def _colours(values: list[str] | str | None, known: tuple[str, ...] | list[str], what: str = "rune colour") -> list[str]:
    """'red,blue,red' / 'red=2,blue' / ['red', 'blue'] -> ['red', 'blue', 'red'] (a unique prefix is
    enough; 'grey' is 'gray')."""
    from ...names import lookup

    if values is None:
        return []
    parts = [values] if isinstance(values, str) else list(values)
    options = {c: c for c in known}
    out: list[str] = []
    for part in parts:
        for item in part.replace(";", ",").split(","):
            item = item.strip()
            if not item:
                continue
            count = 1
            if "=" in item:
                item, _, number = item.partition("=")
                item = item.strip()
                if not number.strip().isdigit() or int(number) < 1:
                    raise UsageError(f"{part!r}: write COLOUR=N with N a whole number of runes",
                                     remedy="e.g. --runes red=2,blue")
                count = int(number)
            if item.casefold() == "grey":
                item = "gray"
            out += [lookup(item, options, what)] * count
    return out


def _runes(counts: dict[str, int]) -> str:
    """'red 5, blue 6, green 0' (every colour), or 'none'."""
    return ", ".join(f"{c} {n}" for c, n in counts.items()) or "none"


def _pile_runes(runes: dict[str, int]) -> str:
    """'red, blue, 2 gray' (only the colours the Pile holds)."""
    return ", ".join(c if n == 1 else f"{n} {c}" for c, n in runes.items() if n) or "empty"


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _new_seed() -> int:
    import os

    return int.from_bytes(os.urandom(4), "big") % 1_000_000  # six digits: easy to type back


def _slot_text(slots: list[int]) -> str:
    from ...rules.board import slot_label

    if len(slots) == 1:
        return slot_label(slots[0])
    return "slots " + ", ".join(str(s) for s in slots)


def _monster_json(m) -> dict:
    from ...rules.board import slot_colour

    return {"name": m.name, "rank": m.rank, "slot": m.slot,
            "colour": slot_colour(m.slot) if m.slot is not None else None, "boss": m.boss}


def state_json(state) -> dict:
    """The `adventure show --json` object."""
    from ... import catalog

    raid = state.raid
    return {
        "chapter": state.chapter,
        "title": catalog.chapter(state.chapter).title,
        "heroes": state.heroes,
        "bag": dict(state.bag),
        "runes_in_bag": state.runes_in_bag(),
        "track": dict(state.track),
        "piles": [{"id": p.id, "runes": {c: n for c, n in p.runes.items() if n}} for p in state.piles],
        "raid": None if raid is None else {"card": raid.card, "face": raid.face, "minions": list(raid.minions),
                                           "rank": raid.rank, "model_limit": raid.model_limit},
        "monsters": [_monster_json(m) for m in state.monsters],
        "ranks": dict(state.ranks),
        "log": [dict(e) for e in state.log],
    }


def _chapter_list(has) -> str:
    """'02, 05 and 08': the chapters with a feature, from the catalog."""
    from ... import catalog

    ids = [ch.id for ch in catalog.chapters() if has(ch)]
    return ", ".join(ids[:-1]) + " and " + ids[-1] if len(ids) > 1 else "".join(ids)


def _chapter_ref(chapter, fact: str) -> str:
    ref = chapter.refs.get(fact)
    return f" ({ref})" if ref else ""


# -------------------------------------------------------------------------------- adventure group

adventure_app = typer.Typer(name="adventure", no_args_is_help=True,
                            help="The adventure under way: start a chapter, show the table, end it.")


@adventure_app.command("start")
def adventure_start(
    chapter: Annotated[Optional[str], typer.Argument(help="Chapter number (default: the next on the Adventure Track).")] = None,
    heroes: Annotated[Optional[int], typer.Option("--heroes", help="Heroes playing, 1 to 5 and at most rules.max_heroes (default: the active heroes).")] = None,
    models: Annotated[Optional[int], typer.Option("--models", help="How many models the raid's Scenario Monster has, when the catalog does not know (asked once, remembered under [cards]).")] = None,
    commit: CommitOpt = False,
) -> None:
    """Start chapter N: the rune bag, Stirring Darkness on the track, the raid card face A, an empty board.

    The bag is the campaign's rules.rune_bag; Stirring Darkness moves that many runes of each colour to
    the Initiative Track; the chapter's raid card (if any) starts face A up. One adventure at a time: on
    the shipped example chapter 05 is under way, so the example ends it first.

    Example: drunagor adventure end --won && drunagor adventure start 6
    """
    from ... import catalog
    from ...rules.adventure import RaidCard, Refused, new_adventure

    if heroes is not None and not 1 <= heroes <= 5:
        # No party has that many (a usage error, exit 2, as for `chapter show --heroes`); 5 above the
        # campaign's rules.max_heroes is the rule's refusal below (exit 1).
        raise UsageError(f"--heroes must be from 1 to 5, not {heroes}",
                         remedy="4 heroes; 5 with extra-hero content (RB L941-943)")
    with open_campaign(write=True) as c:
        if c.adventure_file is not None:
            under_way = c.adventure_file.data.get("chapter")
            raise RuleError(f"an adventure is under way (chapter {under_way})", file=c.adventure_file.shown,
                            rule="adventure", remedy="finish it first with `drunagor adventure end --won` or `--lost`")
        story = c.story
        nxt = story.next_chapter()
        if chapter is None:
            if nxt is None:
                raise RuleError("the campaign is finished: every chapter is on the Adventure Track",
                                file=c.story_file.shown, rule="adventure-track (RB L961)")
            ch = nxt
        else:
            try:
                ch = catalog.chapter_id(chapter)
            except ValueError as exc:
                raise UsageError(str(exc), remedy="give a chapter from 1 to 9") from None
            if ch != nxt:
                raise RuleError(
                    f"chapter {ch} is not the next chapter on the Adventure Track ("
                    + (f"that is {nxt}" if nxt else "the campaign is finished") + ")",
                    file=c.story_file.shown, rule="adventure-track (RB L961)",
                    remedy=(f"start chapter {nxt}, or fill the track first (drunagor chapter complete|skip)"
                            if nxt else "the next adventure is the next unfilled slot on the track"))
        info = catalog.chapter(ch)
        if heroes is None:
            heroes = len(c.active_heroes())
            if heroes == 0:
                raise UsageError("the party has no active hero to count",
                                 remedy="add heroes (drunagor hero add) or give --heroes K")
        if not 1 <= heroes <= story.rules.max_heroes:
            raise RuleError(f"{heroes} heroes: this campaign plays with 1 to {story.rules.max_heroes} heroes",
                            file=c.story_file.shown, rule="heroes (RB L941-943)",
                            remedy="give --heroes within the limit (rules.max_heroes in story.toml)")
        bag = dict(story.rules.rune_bag) or dict(catalog.DEFAULT_RUNE_BAG)

        raid = None
        if info.raid is not None:
            scenario = [s for s in info.raid.summons if s.kind == "scenario"]
            rank = "Scenario" if scenario else "Minion"
            if scenario:
                limit = _scenario_models(c, scenario[0], models, info)
            else:
                if models is not None:
                    raise UsageError(f"--models is asked only when the catalog does not know a model count: "
                                     f"each Minion has {catalog.MINION_MODELS} models (RB L311)",
                                     remedy="leave out --models")
                limit = catalog.MINION_MODELS
            raid = RaidCard(info.raid.card, "A", info.raid.minions, rank, limit)
        elif models is not None:
            raise UsageError(f"chapter {ch} has no raid card: --models has nothing to count",
                             remedy="leave out --models")

        parts = [f"chapter {ch}, {info.title}, under way with {_plural(heroes, 'hero', 'heroes')}"]
        if info.stirring_darkness:
            parts.append(f"Stirring Darkness put {info.stirring_darkness} runes of each colour on the "
                         f"Initiative Track{_chapter_ref(info, 'stirring_darkness')}")
        if raid is not None:
            parts.append(f"{raid.card} card face A up, summoning {' and '.join(raid.minions)}"
                         f"{_chapter_ref(info, 'raid')}")
        if info.darkness_nodes:
            parts.append("add each Pile of Runes of the setup with `drunagor pile add`"
                         f"{_chapter_ref(info, 'darkness_nodes')}")
        message = "; ".join(parts)
        try:
            state = new_adventure(chapter=ch, heroes=heroes, bag=bag, stirring_darkness=info.stirring_darkness,
                                  raid=raid, log_text=message.split("; add each Pile")[0])
        except Refused as exc:
            raise _refused(exc) from None
        _store(c, state)
        warn_all(c)
        finish(c, message, commit)


def _scenario_models(c: Campaign, summon, models: int | None, info) -> int:
    """The model count of a Scenario Monster a raid summons: the catalog's, the party's recorded fact
    ([cards] in story.toml), or --models, which is then recorded (SPEC: user-recorded facts)."""
    from ... import catalog

    known = (catalog.monster(summon.models) or {}).get("model_count")
    for name in (summon.models, summon.minion):
        facts = c.story.cards.get(name) or {}
        if known is None and isinstance(facts.get("model_count"), int):
            known = facts["model_count"]
    if models is None:
        if known is None:
            raise UsageError(
                f"how many {summon.models} models does the {summon.minion} raid use? The catalog does not know, "
                f"and a raid stops when all of them are on the board (RB L311, {info.raid.source})",
                remedy=f"count them and give --models N once; drunagor remembers it under [cards] in story.toml")
        return known
    if models < 1 or models > 12:
        raise UsageError(f"--models must be from 1 to 12, not {models}")
    if known is not None and known != models:
        raise UsageError(f"{summon.models} has {known} models on record", file=c.story_file.shown,
                         remedy="leave out --models, or correct [cards] in story.toml")
    if known is None:
        import tomlkit

        doc = c.story_file.edit()
        if "cards" not in doc:
            doc["cards"] = tomlkit.table()
        cards = doc["cards"]
        if summon.models in cards and hasattr(cards[summon.models], "__setitem__"):
            cards[summon.models]["model_count"] = models
        else:
            entry = tomlkit.inline_table()
            entry["model_count"] = models
            cards[summon.models] = entry
    return models


@adventure_app.command("show")
def adventure_show(json: JsonOpt = False) -> None:
    """The table now: rune bag, Initiative Track, Piles of Runes, raid card face, monsters and their slots.

    Example: drunagor adventure show
    """
    from ... import catalog
    from ...rules.board import STATUS_BOARD_TRACKS, slot_colour

    with open_campaign() as c:
        state = _load(c)
        warn_all(c)
    if json:
        term.json(state_json(state))
        return
    info = catalog.chapter(state.chapter)
    term.heading(f"Chapter {state.chapter}, {info.title}: {_plural(state.heroes, 'hero', 'heroes')}")
    term.line(f"Rune bag: {_plural(state.runes_in_bag(), 'rune')} ({_runes(state.bag)})")
    term.line(f"Initiative Track: {_plural(sum(state.track.values()), 'rune')} ({_runes(state.track)})")
    if state.piles:
        term.line("Piles of Runes: " + "; ".join(f"Pile {p.id} ({_pile_runes(p.runes)})" for p in state.piles))
    else:
        term.line("Piles of Runes: none on the board")
    if state.raid is not None:
        limit = f", {state.raid.model_limit} models" if state.raid.model_limit else ""
        term.line(f"{state.raid.card} card: face {state.raid.face}; summons {' or '.join(state.raid.minions)} "
                  f"({state.raid.rank}{limit})")
    taken = len(state.board_monsters())
    if state.monsters:
        rows = [[m.slot or "-", slot_colour(m.slot) if m.slot else "boss", m.name, m.rank or ""]
                for m in sorted(state.monsters, key=lambda m: (m.slot is None, m.slot or 0))]
        term.table(["Slot", "Base", "Monster", "Rank"], rows,
                   title=f"Monsters on the board ({taken} of {STATUS_BOARD_TRACKS} tracks taken)")
    else:
        term.line("Monsters on the board: none")
    recent = [e for e in state.log if e.get("text")][-5:]
    if recent:
        term.line("Last at the table:")
        for entry in recent:
            term.line(f"  {entry.get('event', '')}: {entry['text']}")


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
    from ...rules.adventure import dumps, with_log

    if won == lost:
        raise UsageError("say how the adventure ended: --won or --lost (one of them)")
    with open_campaign(write=True) as c:
        state = _load(c)  # a file of a newer schema is refused here: never written, nor archived
        ch = state.chapter
        outcome = "won" if won else "lost"
        attempt = c.story.failures.get(ch, 0) + 1
        folder = c.root / ARCHIVE
        while (folder / f"{ch}-{attempt}.toml").exists():
            attempt += 1
        archive = folder / f"{ch}-{attempt}.toml"
        final = with_log(state, {"event": "end", "text": f"the adventure {'ends successfully' if won else 'fails'}"})
        c.put_bytes(archive, dumps(final.replace(outcome=outcome)).encode("utf-8"))
        c.delete(c.root / ADVENTURE)
        from .story import record_chapter

        filled = c.story.track.get(ch)
        if filled is not None:
            # The slot was filled meanwhile (`chapter complete 5 --force`, or by hand): the adventure still
            # ends and is archived; the track is left as it is, and the remedy said (never a dead end).
            archived = f"adventure archived as {ARCHIVE}/{archive.name}"
            n = int(ch)
            if won:
                message = f"chapter {ch} was already {filled} on the Adventure Track, which is left as it is; {archived}"
                lines = ([] if filled == "completed" else
                         [f"To record the win instead: drunagor chapter complete {n} --force (recorded in story.toml)."])
            else:
                message = (f"chapter {ch} failed, but it is already {filled} on the Adventure Track: no failed "
                           f"attempt counted; {archived}")
                lines = [f"To count the failed attempt anyway: drunagor chapter fail {n} --force (recorded in "
                         "story.toml)."]
            warn_all(c)
            finish(c, message, commit)
            for line in lines:
                term.line(line)
            return
        # The Adventure Track (or [failures]) is written by the story commands' own rule (RB L961).
        lines = list(record_chapter(c, ch, "completed" if won else "failed") or [])
        if won:
            message = f"chapter {ch} completed; adventure archived as {ARCHIVE}/{archive.name}"
        else:
            message = (f"chapter {ch} failed (attempt {c.story.failures.get(ch, 0) + 1}); the slot stays open; "
                       f"adventure archived as {ARCHIVE}/{archive.name}")
        warn_all(c)
        finish(c, message, commit)
    for line in lines:
        term.line(line)


# -------------------------------------------------------------------------------- Piles of Runes

pile_app = typer.Typer(name="pile", no_args_is_help=True, help="Piles of Runes on the board.")


@pile_app.command("add")
def pile_add(
    runes: Annotated[Optional[str], typer.Option("--runes", metavar="COLOURS", help="The Pile's runes, from the track: red,blue or red=2 (default: Darkness Nodes, one of each colour).")] = None,
    commit: CommitOpt = False,
) -> None:
    """Put a Pile of Runes on the board, its runes taken from the Initiative Track.

    By default the Darkness Nodes rule: one rune of each colour from the track (RB L1098).

    Example: drunagor pile add
    """
    from ...rules.adventure import Refused, add_pile, with_log

    with open_campaign(write=True) as c:
        state = _load(c)
        chosen = _colours(runes, state.colours) if runes is not None else None
        if runes is not None and not chosen:
            raise UsageError("--runes names no rune", remedy="e.g. --runes red,blue")
        try:
            state, pile, missing = add_pile(state, chosen)
        except Refused as exc:
            raise _refused(exc, c) from None
        message = f"Pile {pile.id} on the board ({_pile_runes(pile.runes)}, from the Initiative Track)"
        if missing:
            term.warn(f"the Initiative Track held no {', '.join(missing)} rune: Pile {pile.id} is made without "
                      f"{'it' if len(missing) == 1 else 'them'} (RB L1098)")
        _store(c, with_log(state, {"event": "pile", "text": message}))
        finish(c, message, commit)


@pile_app.command("remove")
def pile_remove(
    pile: Annotated[str, typer.Argument(help="The Pile's id (as adventure show lists it).")],
    commit: CommitOpt = False,
) -> None:
    """Take a Pile of Runes off the board, its runes going to the Initiative Track.

    As when the Soul Harvester advances through it or its Map tile collapses (RB L1147, L1149). To
    return runes to the bag, use the Tie Breaker (drunagor tiebreak).

    Example: drunagor pile remove 2
    """
    from ...rules.adventure import Refused, remove_pile, with_log

    with open_campaign(write=True) as c:
        state = _load(c)
        try:
            state, gone = remove_pile(state, pile)
        except Refused as exc:
            raise _refused(exc, c) from None
        message = f"Pile {gone.id} off the board; its runes ({_pile_runes(gone.runes)}) go to the Initiative Track"
        _store(c, with_log(state, {"event": "pile", "text": message}))
        finish(c, message, commit)


def tiebreak(
    pile: Annotated[str, typer.Argument(help="The Pile's id (as adventure show lists it).")],
    runes: Annotated[Optional[str], typer.Option("--runes", metavar="COLOURS", help="The runes the party chooses to return: red,blue or red=2.")] = None,
    commit: CommitOpt = False,
) -> None:
    """Tie Breaker: return (6 - heroes) runes of the party's choice from a Pile to the bag.

    A Pile left empty leaves the board. When the Pile holds no more runes than that, --runes may be
    left out (RB L1100).

    Example: drunagor tiebreak 1 --runes blue,green
    """
    from ... import catalog
    from ...rules.adventure import Refused, tie_breaker_runes, with_log
    from ...rules.adventure import tiebreak as tie_breaker

    with open_campaign(write=True) as c:
        state = _load(c)
        info = catalog.chapter(state.chapter)
        if not info.tie_breaker:
            raise RuleError(f"chapter {state.chapter}, {info.title}, has no Tie Breaker",
                            file=c.adventure_file.shown, rule="tie-breaker (RB L1100)",
                            remedy="only chapters " + _chapter_list(lambda ch: ch.tie_breaker) + " have it")
        chosen = _colours(runes, state.colours) if runes is not None else None
        try:
            state, returned, removed = tie_breaker(state, pile, chosen)
        except Refused as exc:
            raise _refused(exc, c) from None
        pid = str(pile).strip()
        pid = pid[4:].strip() if pid.casefold().startswith("pile") else pid
        n = sum(returned.values())
        message = (f"Tie Breaker: {_plural(n, 'rune')} ({_pile_runes(returned)}) from Pile {pid} back to the bag "
                   f"(6 - {state.heroes} heroes = {tie_breaker_runes(state.heroes)})")
        if removed:
            message += f"; Pile {pid} is empty and leaves the board"
        message += "; the hero gains FOCUS 1 or CLEANSE 1"
        _store(c, with_log(state, {"event": "tiebreak", "text": message}))
        finish(c, message, commit)


# ----------------------------------------------------------------------------------------- runes


def draw(
    count: Annotated[Optional[int], typer.Argument(help="How many runes (default 1, or as many as --rune names).")] = None,
    rune: Annotated[Optional[list[str]], typer.Option("--rune", metavar="COLOUR", help="A rune drawn at the table (repeat, or red,blue).")] = None,
    seed: SeedOpt = None,
    json: JsonOpt = False,
    commit: CommitOpt = False,
) -> None:
    """Draw runes from the bag to the Initiative Track, at random (seeded) or as drawn at the table.

    Drawing the last rune of the bag fails the adventure in chapters 01-06 (e.g. RB L1203). --json prints
    the runes drawn, the seed, the bag left and whether the adventure fails.

    Example: drunagor draw 2
    """
    from ... import catalog
    from ...rules.adventure import Refused, draw_random, with_log
    from ...rules.adventure import draw as draw_runes

    with open_campaign(write=True) as c:
        state = _load(c)
        physical = _colours(rune, state.colours) if rune else []
        if rune and not physical:
            raise UsageError("--rune names no rune", remedy="e.g. --rune red")
        if physical:
            if count is not None and count != len(physical):
                raise UsageError(f"{count} runes to draw, but --rune names {len(physical)}",
                                 remedy="leave out the count, or name as many runes")
            if seed is not None:
                raise UsageError("--seed replays a random draw; --rune records the runes drawn at the table",
                                 remedy="give one of them")
            drawn, used_seed = physical, None
        else:
            count = 1 if count is None else count
            if count < 1:
                raise UsageError(f"draw at least 1 rune, not {count}")
            if state.runes_in_bag() == 0:
                raise RuleError("the rune bag is empty: there is no rune to draw", file=c.adventure_file.shown,
                                rule="draw", remedy="runes come back to the bag with the Tie Breaker")
            import random

            used_seed = _new_seed() if seed is None else seed
            drawn = draw_random(state.bag, count, random.Random(used_seed))
        try:
            state = draw_runes(state, drawn)
        except Refused as exc:
            raise _refused(exc, c) from None
        how = f"seed {used_seed}" if used_seed is not None else "drawn at the table"
        message = (f"drew {', '.join(drawn)} ({how}) to the Initiative Track; "
                   f"{_plural(state.runes_in_bag(), 'rune')} left in the bag")
        entry: dict[str, object] = {"event": "draw", "runes": ", ".join(drawn)}
        if used_seed is not None:
            entry["seed"] = used_seed
        entry["text"] = message
        _store(c, with_log(state, entry))
        finish(c, message, commit, quiet=json)
    info = catalog.chapter(state.chapter)
    fails = state.runes_in_bag() == 0 and bool(info.fails_on_last_rune)
    if json:
        term.json({"drawn": list(drawn), "seed": used_seed, "runes_in_bag": state.runes_in_bag(),
                   "by_colour": dict(state.bag), "adventure_fails": fails})
        return
    if state.runes_in_bag() == 0:
        if fails:
            term.line(f"The last rune in the bag was drawn: the adventure fails{_chapter_ref(info, 'losing')}. "
                      "Record it with `drunagor adventure end --lost`.", "bold red")
        else:
            term.line(f"The bag is empty (chapter {state.chapter} does not fail on the last rune).")


# -------------------------------------------------------------------------------------- monsters

monster_app = typer.Typer(name="monster", no_args_is_help=True, help="Monsters on the board and their status-board slots.")


def _resolve_monster(query: str, state) -> str:
    """The monster a name means: a catalog card, one recorded in this adventure or on the board
    (any case, or a unique prefix); a name nobody knows is taken as typed (a new monster)."""
    from ... import catalog

    q = query.strip()
    if not q:
        raise UsageError("a monster needs a name")
    pool = [m["name"] for m in catalog.monsters()]
    if state is not None:
        pool += list(state.ranks) + [m.name for m in state.monsters]
    pool = list(dict.fromkeys(pool))
    exact = [n for n in pool if n.casefold() == q.casefold()]
    if exact:
        return exact[0]
    starts = [n for n in pool if n.casefold().startswith(q.casefold())]
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise UsageError(f"{query!r} could be any of: {', '.join(sorted(starts))}",
                         remedy="type more of the monster's name")
    return q


def _monster_facts(c: Campaign, state, name: str, rank: str | None) -> tuple[str, str | None, bool, int | None, bool]:
    """(name as known, rank, boss, model limit, unknown to the catalog) for a monster to place."""
    from ... import catalog
    from ...names import closest
    from ...rules.board import MINION_MODELS, canonical_rank

    given = None
    if rank is not None:
        try:
            given = canonical_rank(rank)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    entry = catalog.monster(name)
    if entry is not None:
        name = entry["name"]
        known = entry.get("rank")
        if given is not None and known is not None and given != known:
            raise UsageError(f"the catalog gives {name} the rank {known}, not {given}", remedy="leave out --rank")
        rank = known or given
        boss = bool(entry.get("boss"))
        limit = entry.get("model_count")
        unknown = False
    else:
        for m in state.monsters:  # the spelling already on the board
            if m.is_named(name):
                name = m.name
        recorded = state.rank_of(name)
        if given is not None and recorded is not None and given != recorded:
            raise UsageError(f"{name} is on record with the rank {recorded}, not {given}",
                             remedy="leave out --rank, or remove its record from adventure.toml [ranks]")
        rank = recorded or given
        boss, limit, unknown = False, None, recorded is None
        if rank is None:
            hint = closest(name, [m["name"] for m in catalog.monsters()])
            raise UsageError(f"the catalog does not know {name!r}, so its rank is unknown"
                             + (f" (did you mean {hint!r}?)" if hint else ""),
                             remedy="give it once with --rank (Overlord, Commander, Black, Gray, White, Scenario, "
                                    "Minion); it is remembered for this adventure")
    if limit is None:
        facts = c.story.cards.get(name) or {}
        if isinstance(facts.get("model_count"), int):
            limit = facts["model_count"]
    if limit is None and state.raid is not None and any(name.casefold() == m.casefold() for m in state.raid.minions):
        limit = state.raid.model_limit
    if limit is None and rank == "Minion":
        limit = MINION_MODELS  # RB L311: all 4 models of a Minion
    return name, rank, boss, limit, unknown


def _parse_slot(text: str) -> int | None:
    """'3' -> 3; 'pink' -> 3 (a base colour); anything else None."""
    from ...rules.board import SLOT_COLOURS

    t = text.strip().casefold()
    if t.isdigit():
        return int(t)
    if t in SLOT_COLOURS:
        return SLOT_COLOURS.index(t) + 1
    return None


@monster_app.command("add")
def monster_add(
    name: Annotated[str, typer.Argument(help="The monster card's name (quote names with spaces).")],
    count: Annotated[int, typer.Option("--count", help="How many of them.")] = 1,
    rank: Annotated[Optional[str], typer.Option("--rank", help="Its rank, when the catalog does not know it: Overlord, Commander, Black, Gray, White, Scenario, Minion.")] = None,
    slot: Annotated[Optional[str], typer.Option("--slot", help="Its status-board slot, 1-12 or the base colour (default: the next free one).")] = None,
    boss: Annotated[bool, typer.Option("--boss", help="A boss: it takes no status-board slot.")] = False,
    commit: CommitOpt = False,
) -> None:
    """Place monsters on the board, each in the next free status-board slot (slot 1, yellow, first).

    A boss takes no slot. No monster is placed when the 12 tracks are taken, nor a model beyond its
    kind's (4 for a Minion, RB L311).

    Example: drunagor monster add "Gremlin Horde" --count 2
    """
    from ...rules.adventure import Refused, add_monster, record_rank, with_log
    from ...rules.board import slot_label

    if count < 1:
        raise UsageError(f"--count must be at least 1, not {count}")
    slot_no = None
    if slot is not None:
        slot_no = _parse_slot(slot)
        if slot_no is None:
            raise UsageError(f"--slot {slot!r}: give a slot from 1 to 12 or its base colour")
        if count > 1:
            raise UsageError("--slot places one monster", remedy="leave out --count, or --slot")
    with open_campaign(write=True) as c:
        state = _load(c)
        name, rank_, is_boss, limit, unknown = _monster_facts(c, state, _resolve_monster(name, state), rank)
        is_boss = is_boss or boss
        if unknown and rank_ is not None:
            state = record_rank(state, name, rank_)
            term.warn(f"{name} is not in the catalog: recorded with the rank {rank_} for this adventure")
        placed = []
        try:
            for _ in range(count):
                state, monster = add_monster(state, name, rank_, boss=is_boss, slot=slot_no, model_limit=limit)
                placed.append(monster)
        except Refused as exc:
            raise _refused(exc, c) from None
        if is_boss:
            message = f"{name} (boss) on the board, with no status-board slot"
        elif count == 1:
            message = f"{name} placed in {slot_label(placed[0].slot)}"
        else:
            message = f"{count} {name} placed in {_slot_text([m.slot for m in placed])}"
        _store(c, with_log(state, {"event": "monster", "text": message}))
        finish(c, message, commit)


@monster_app.command("remove")
def monster_remove(
    which: Annotated[str, typer.Argument(metavar="NAME|SLOT", help="The monster's name, or its slot (1-12 or the base colour).")],
    commit: CommitOpt = False,
) -> None:
    """Take a monster off the board (defeated or removed), freeing its status-board slot.

    A name that several monsters share needs the slot instead.

    Example: drunagor monster remove 3
    """
    from ...rules.adventure import Refused, remove_monster, with_log
    from ...rules.board import slot_label

    with open_campaign(write=True) as c:
        state = _load(c)
        slot_no = _parse_slot(which)
        if slot_no is None:
            from ...names import lookup

            which = lookup(which, {m.name: m.name for m in state.monsters}, "monster on the board")
        try:
            state, gone = remove_monster(state, slot_no if slot_no is not None else which)
        except Refused as exc:
            raise _refused(exc, c) from None
        where = f"; {slot_label(gone.slot)} is free" if gone.slot is not None else ""
        message = f"{gone.name} off the board{where}"
        _store(c, with_log(state, {"event": "monster", "text": message}))
        finish(c, message, commit)


# ------------------------------------------------------------------------------------------ raid


def _untracked_piles(text: str, colours: tuple[str, ...]):
    """--piles 'red,blue' (two Piles) or 'red+blue,gray' (a Pile holding red and blue, one gray);
    'none' for no Pile on the board."""
    from ...rules.board import Pile

    if text.strip().casefold() in ("", "none", "0", "-"):
        return []
    piles = []
    for i, part in enumerate(p for p in text.split(",") if p.strip()):
        piles.append(Pile(str(i + 1), {c: 1 for c in _colours(part.replace("+", ","), colours)}))
    return piles


def raid(
    rune: Annotated[Optional[str], typer.Option("--rune", metavar="COLOUR", help="The rune manifested at the table (a physical draw; not with --seed).")] = None,
    seed: SeedOpt = None,
    dry_run: DryRunOpt = False,
    json: JsonOpt = False,
    face: Annotated[Optional[str], typer.Option("--face", help="No adventure under way: the card's face, A or B.")] = None,
    heroes: Annotated[Optional[int], typer.Option("--heroes", help="No adventure under way: heroes in the party.")] = None,
    piles: Annotated[Optional[str], typer.Option("--piles", metavar="COLOURS", help="No adventure under way: the Piles of Runes on the board, red,blue (two Piles) or red+blue (one), or none.")] = None,
    monsters: Annotated[Optional[int], typer.Option("--monsters", help="No adventure under way (then required): monsters on the board, 0 to 12 (status-board tracks taken).")] = None,
    minions: Annotated[Optional[int], typer.Option("--minions", help="No adventure under way: models of the raid's minion on the board, 0 to the lesser of --monsters and its models (4 for a Minion); default 0.")] = None,
    minion: Annotated[Optional[str], typer.Option("--minion", help="No adventure under way: the minion the raid summons.")] = None,
    commit: CommitOpt = False,
) -> None:
    """Resolve the Dreadful Raid: face check, manifest a rune, summon the raid party, flip the card.

    Prints the four steps in the rulebook's order (RB L277-315), each with the fact that decided it. With
    an adventure under way, adventure.toml gains the minions placed (with their slots), the new face and
    a log line with the rune and the seed. With none, it works from the flags alone and writes nothing.

    Example: drunagor raid --seed 48213
    """
    from ...rules import raid as rules

    root = campaign_root()
    flags = {"--face": face, "--heroes": heroes, "--piles": piles, "--monsters": monsters,
             "--minions": minions, "--minion": minion}
    given = [k for k, v in flags.items() if v is not None]
    if seed is not None and rune is not None:
        raise UsageError("--seed replays a random draw; --rune records the rune drawn at the table",
                         remedy="give one of them")
    tracked = (root / ADVENTURE).exists()
    if tracked and given:
        raise UsageError(f"an adventure is under way: {', '.join(given)} would contradict adventure.toml",
                         file=_shown(root / ADVENTURE),
                         remedy="leave them out: adventure.toml decides the face, heroes, Piles and board")
    with Campaign(root, write=tracked and not dry_run) as c:
        story = c.story
        if tracked:
            state = _load(c)
            warn_all(c)
            if state.raid is None:
                raise RuleError(f"chapter {state.chapter} has no Dreadful Raid card", file=c.adventure_file.shown,
                                rule="raid", remedy="only chapters " + _chapter_list(
                                    lambda ch: ch.raid is not None and ch.raid.card == "Dreadful Raid") + " have one")
            if state.raid.card != "Dreadful Raid":
                raise RuleError(f"the {state.raid.card} card resolves by its own text, which the rulebook does not "
                                "give (chapter 04, RB L1171)", file=c.adventure_file.shown, rule="raid",
                                remedy="resolve it from the card; record the monsters it places with "
                                       "`drunagor monster add`")
            card = state.raid
            face_, heroes_, piles_, board = card.face, state.heroes, state.piles, state.monsters
            minion_ = card.minions[0]
            bag = state.bag
            colours = state.colours
            on_board = len(board)
        else:
            state = card = board = None
            # --monsters is required: face A summons only on an empty board (RB L284), so a default of 0
            # would decide the raid for the party.
            missing = [k for k in ("--face", "--heroes", "--piles", "--monsters") if flags[k] is None]
            if missing:
                raise UsageError(f"no adventure under way: the raid needs {', '.join(missing)}",
                                 remedy="e.g. drunagor raid --face B --heroes 4 --piles red,blue --monsters 3; "
                                        "or start the adventure (drunagor adventure start)")
            try:
                face_ = rules.canonical_face(face)
                rules.raid_party_size(heroes)
            except ValueError as exc:
                raise UsageError(str(exc)) from None
            heroes_ = heroes
            bag = _full_bag(story)
            colours = tuple(bag)
            piles_ = _untracked_piles(piles, colours)
            on_board = _tracks_taken(monsters)
            minion_ = minion or _next_minion(story)
            untracked_limit = _untracked_limit(story, minion_)
            if minions is not None:
                # A minion on the board is a monster on the board, and the box holds so many models (RB L311).
                most = min(untracked_limit[0], on_board)
                if not 0 <= minions <= most:
                    raise UsageError(f"--minions {minions}: a minion on the board is one of the {on_board} monsters "
                                     f"on the board, and {minion_} has {untracked_limit[0]} models (RB L311)",
                                     remedy=f"give --minions from 0 to {most}")

        reason = rules.no_summon_reason(face_, monsters_on_board=on_board, piles=piles_)
        drawn = None
        used_seed = None
        if rune is not None:
            drawn = _colours(rune, colours)
            if len(drawn) != 1:
                raise UsageError("--rune names the one rune manifested", remedy="e.g. --rune red")
            drawn = drawn[0]
            if reason is None and tracked and bag.get(drawn, 0) == 0:
                term.warn(f"adventure.toml has no {drawn} rune in the bag: check the runes with "
                          "`drunagor adventure show`")
        elif reason is None:
            if sum(bag.values()) == 0:
                raise RuleError("the rune bag is empty: there is no rune to manifest",
                                file=c.adventure_file.shown if tracked else None, rule="raid (RB L292)")
            import random

            used_seed = _new_seed() if seed is None else seed
            drawn = rules.manifest(bag, random.Random(used_seed))
        if reason is not None:
            drawn, used_seed = None, None
        kwargs = {"board": board} if tracked else {"monsters_on_board": on_board,
                                                   "minion_models_on_board": minions or 0}
        if tracked:
            limit = card.model_limit or 12
            rank = card.rank
        else:
            limit, rank = untracked_limit
        result = rules.resolve_raid(face=face_, heroes=heroes_, minion=minion_, piles=piles_, rune=drawn,
                                    models_limit=limit, minion_rank=rank, **kwargs)

        summary = _raid_summary(result)
        if json:
            data = result.as_json(used_seed)
            data["dry_run"] = dry_run or not tracked
            data["chapter"] = state.chapter if tracked else None
            term.json(data)
        else:
            _print_raid(result, story.leader, used_seed, rune is not None and drawn is not None,
                        state.chapter if tracked else None, tracked, bag_note=not tracked and drawn is not None and rune is None)
        if tracked and not dry_run:
            from ...rules.adventure import with_log

            entry: dict[str, object] = {"event": "raid", "face": result.face}
            if result.rune is not None:
                entry["rune"] = result.rune
            if used_seed is not None:
                entry["seed"] = used_seed
            elif result.rune is not None:
                entry["physical"] = True
            entry["text"] = summary
            new = state.replace(monsters=result.board, raid=card.with_face(result.next_face))
            _store(c, with_log(new, entry))
            seed_note = f" (seed {used_seed})" if used_seed is not None else ""
            finish(c, f"raid: {summary}{seed_note}", commit, quiet=json)
        elif not json:
            term.line("dry run: nothing written" if tracked else "no adventure under way: nothing written")


def _full_bag(story) -> dict[str, int]:
    from ... import catalog

    return dict(story.rules.rune_bag) or dict(catalog.DEFAULT_RUNE_BAG)


def _tracks_taken(monsters: int) -> int:
    """--monsters of a raid or battalion from flags: 0 to 12, the Health Tracks of the Monster Status board."""
    from ...rules.board import STATUS_BOARD_TRACKS

    if not 0 <= monsters <= STATUS_BOARD_TRACKS:
        raise UsageError(f"--monsters {monsters}: the Monster Status board has {STATUS_BOARD_TRACKS} Health Tracks "
                         f"(RB L311), so 0 to {STATUS_BOARD_TRACKS} monsters take one",
                         remedy=f"give --monsters from 0 to {STATUS_BOARD_TRACKS}")
    return monsters


def _next_minion(story) -> str:
    from ... import catalog

    nxt = story.next_chapter()
    raid = catalog.chapter(nxt).raid if nxt else None
    return raid.minions[0] if raid is not None and len(raid.minions) == 1 else "Minion"


def _untracked_limit(story, minion: str) -> tuple[int, str]:
    from ... import catalog

    entry = catalog.monster(minion) or {}
    rank = entry.get("rank") if entry.get("rank") in ("Minion", "Scenario") else "Minion"
    limit = entry.get("model_count")
    for name in (minion, entry.get("models")):
        facts = story.cards.get(name) or {} if name else {}
        if limit is None and isinstance(facts.get("model_count"), int):
            limit = facts["model_count"]
    if limit is None:
        limit = catalog.MINION_MODELS if rank == "Minion" else 12
    return limit, rank


def _raid_summary(result) -> str:
    """One line: what the raid did, and the face it leaves up."""
    from ...rules.board import slot_label

    if result.placed:
        slots = [s.slot for s in result.summoned]
        what = (f"{result.placed} {result.minion} placed" + (f" ({_slot_text(slots)})" if slots else "")
                + (f" by rune {result.rune}" if result.rune else ""))
    else:
        what = f"nothing summoned ({result.reason})" if result.reason else "nothing summoned"
    if result.failed:
        targets = [f"{n} in {slot_label(s)}" if n and s else (n or "nothing") for n, s in
                   zip(result.activations, result.activation_slots)]
        unique = list(dict.fromkeys(targets))
        who = ", ".join(unique) if len(unique) > 1 or result.failed == 1 else f"{unique[0]}, {result.failed} times"
        what += f"; {result.failed} failed to be summoned: activate {who}"
    return f"{what}; the card now shows face {result.next_face}"


def _print_raid(result, leader: str | None, seed: int | None, physical: bool, chapter: str | None,
                tracked: bool, bag_note: bool = False) -> None:
    where = f"chapter {chapter}, " if chapter else ""
    head = f"Dreadful Raid: {where}{_plural(result.heroes, 'hero', 'heroes')}, face {result.face}"
    if seed is not None:
        head += f"; rune drawn with seed {seed} (--seed {seed} replays it)"
    elif physical:
        head += "; rune drawn at the table"
    if not tracked:
        head += "; from the flags, no adventure under way"
    term.heading(head)
    for step in result.steps:
        fact = step.fact
        if leader and "the Party Leader picks" in fact:
            fact = fact.replace("the Party Leader picks", f"the Party Leader ({leader}) picks")
        term.line(f"{step.number}. {step.title} ({step.rule})")
        term.line(f"   {fact}")
    if bag_note:
        term.line("   (the rune was drawn from the whole bag, rules.rune_bag: the runes on the track are not "
                  "tracked; --rune records the rune drawn at the table)")


# ------------------------------------------------------------------------------------- battalion


def _rank_options(values: list[str] | None) -> dict[str, str]:
    from ...rules.board import canonical_rank

    ranks: dict[str, str] = {}
    for value in values or []:
        name, sep, rank = value.rpartition("=")
        if not sep or not name.strip():
            raise UsageError(f"--rank {value!r}: write NAME=RANK", remedy='e.g. --rank "Vile Spawn=Scenario"')
        try:
            ranks[name.strip()] = canonical_rank(rank)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    return ranks


def battalion(
    monsters: Annotated[list[str], typer.Argument(metavar="MONSTER...", help="The monsters of the battalion, in summoning order (repeat a name for each model).")],
    near: Annotated[Optional[str], typer.Option("--near", metavar="REF", help="The reference point: a Pile id, a Spawning or Special Event token...")] = None,
    siege: Annotated[bool, typer.Option("--siege", help="Siege of Everedge: a monster that cannot spawn activates the first of its kind (RB L1237; on in chapter 07).")] = False,
    dry_run: DryRunOpt = False,
    json: JsonOpt = False,
    rank: Annotated[Optional[list[str]], typer.Option("--rank", metavar="NAME=RANK", help="Rank of a monster the catalog does not know (repeat).")] = None,
    on_board: Annotated[Optional[int], typer.Option("--monsters", help="No adventure under way (then required): monsters on the board, 0 to 12 (status-board tracks taken).")] = None,
    commit: CommitOpt = False,
) -> None:
    """Summon a Monster Battalion NEAR a reference point: place what fits, the rest activate monsters.

    Each monster not placed (12-monster limit, or all its models out) gives two "Activate a Monster"
    commands; the proposed order never activates the same monster twice in a row (RB L1311-1321).

    Example: drunagor battalion "Gremlin Horde" "Gremlin Horde" "Fell Asteris" --near 2
    """
    from ... import catalog
    from ...rules.battalion import resolve_battalion

    root = campaign_root()
    tracked = (root / ADVENTURE).exists()
    if tracked and on_board is not None:
        raise UsageError("an adventure is under way: --monsters would contradict adventure.toml",
                         file=_shown(root / ADVENTURE), remedy="leave it out: adventure.toml holds the board")
    if not tracked:
        if on_board is None:  # the board decides what fits (RB L1319): no default of an empty board
            raise UsageError("no adventure under way: the battalion needs --monsters, the monsters on the board "
                             "(status-board tracks taken)",
                             remedy='e.g. drunagor battalion "Gremlin Horde" --monsters 11; or start the adventure '
                                    "(drunagor adventure start)")
        _tracks_taken(on_board)
    given_ranks = _rank_options(rank)
    with Campaign(root, write=tracked and not dry_run) as c:
        state = _load(c) if tracked else None
        warn_all(c)
        names: list[str] = []
        ranks: dict[str, str] = {}
        limits: dict[str, int] = {}
        new_ranks: dict[str, str] = {}
        for query in monsters:
            name = _resolve_monster(query, state)
            entry = catalog.monster(name)
            known = (entry or {}).get("rank") or (state.rank_of(name) if state is not None else None)
            chosen = next((v for k, v in given_ranks.items() if k.casefold() == name.casefold()), None)
            if known is None and chosen is None and tracked:
                raise UsageError(f"the catalog does not know {name!r}, so its rank is unknown",
                                 remedy=f'give it with --rank "{name}=RANK" (Overlord ... Minion)')
            if known is not None and chosen is not None and known != chosen:
                raise UsageError(f"{name} has the rank {known}, not {chosen}", remedy="leave out its --rank")
            if known is None and chosen is not None:
                new_ranks[name] = chosen
            if known or chosen:
                ranks[name] = known or chosen
            limit = (entry or {}).get("model_count")
            facts = c.story.cards.get(name) or {}
            if limit is None and isinstance(facts.get("model_count"), int):
                limit = facts["model_count"]
            if limit is None and state is not None and state.raid is not None and any(
                    name.casefold() == m.casefold() for m in state.raid.minions):
                limit = state.raid.model_limit
            if limit is not None:
                limits[name] = limit
            names.append(name)
        use_siege = siege or (state is not None and catalog.chapter(state.chapter).siege)
        try:
            if state is not None:
                result = resolve_battalion(names, board=state.monsters, ranks=ranks, models_limits=limits,
                                           siege=use_siege)
            else:
                result = resolve_battalion(names, ranks=ranks, models_limits=limits, monsters_on_board=on_board,
                                           siege=use_siege)
        except ValueError as exc:
            raise UsageError(str(exc)) from None

        reference = _reference(near, state)
        summary = _battalion_summary(result, reference)
        if json:
            data = result.as_json()
            data["near"] = reference
            data["dry_run"] = dry_run or not tracked
            term.json(data)
        else:
            _print_battalion(result, reference, tracked)
        if tracked and not dry_run:
            from ...rules.adventure import record_rank, with_log

            new = state.replace(monsters=result.board)
            for name, r in new_ranks.items():
                new = record_rank(new, name, r)
            _store(c, with_log(new, {"event": "battalion", "text": summary}))
            finish(c, f"battalion: {summary}", commit, quiet=json)
        elif not json:
            term.line("dry run: nothing written" if tracked else "no adventure under way: nothing written")


def _reference(near: str | None, state) -> str | None:
    if near is None:
        return None
    text = near.strip()
    pid = text[4:].strip() if text.casefold().startswith("pile") else text
    if state is not None and any(p.id == pid for p in state.piles):
        return f"Pile {pid}"
    return text


def _battalion_summary(result, reference: str | None) -> str:
    from ...rules.board import slot_label

    parts = []
    where = f" near {reference}" if reference else ""
    if result.placements:
        parts.append(", ".join(f"{p.name} in {slot_label(p.slot)}" for p in result.placements) + " placed" + where)
    elif result.placed:
        parts.append(f"{_plural(len(result.placed), 'monster')} placed{where}")
    else:
        parts.append("nothing placed")
    if result.not_placed:
        kind = "activation" if result.siege else '"Activate a Monster" command'
        parts.append(f"{len(result.not_placed)} not placed: {_plural(result.activations, kind)}")
    return "; ".join(parts)


def _print_battalion(result, reference: str | None, tracked: bool) -> None:
    from ...rules.board import next_free_slot, slot_label

    n = len(result.placed) + len(result.not_placed)
    where = f" NEAR {reference}" if reference else " NEAR the reference point"
    term.heading(f"Monster Battalion: {_plural(n, 'monster')}{where}"
                 + ("" if tracked else "; from the flags, no adventure under way"))
    if result.placed:
        term.line("Place each within Range 1 of the reference, in an empty area where possible (RB L1316-1318):")
        if result.placements:
            for p in result.placements:
                term.line(f"  {p.name} in {slot_label(p.slot)}")
        else:
            for name in result.placed:
                term.line(f"  {name} (on the next free status-board base)")
    if result.not_placed:
        full = result.board is not None and next_free_slot(result.board) is None
        cause = ("all 12 status-board tracks are taken, RB L1319" if full or result.board is None
                 else "all its models are on the board, RB L311")
        term.line(f"Not placed ({cause}): {', '.join(result.not_placed)}")
    if result.siege and result.not_placed:
        term.line(f"Siege of Everedge: each activates the first monster of its own kind instead (RB L1237):")
        for t in result.siege_targets:
            term.line(f"  {t.not_placed}: " + (f"activate {t.target} in {slot_label(t.slot)}" if t.target
                                                else f"no {t.not_placed} on the board: nothing to activate"))
    elif result.activations:
        term.line(f"{_plural(result.activations, 'Activate a Monster command')} (2 per monster not placed, "
                  "RB L1319); never the same monster twice in a row (RB L1321); the party may choose (RB L1320).")
        if result.order:
            term.line("Proposed order:")
            for i, (name, slot) in enumerate(zip(result.order, result.order_slots), 1):
                term.line(f"  {i}. {name}" + (f" in {slot_label(slot)}" if slot else ""))
        if result.unused:
            term.line(f"{_plural(result.unused, 'command')} cannot activate anything: "
                      + ("only one non-boss monster is on the board, and it cannot go twice in a row."
                         if result.order else "no non-boss monster is on the board."))


# ------------------------------------------------------------------------------------------ odds


def odds(json: JsonOpt = False) -> None:
    """The exact chance that the next Dreadful Raid summons, and the runes left in the bag.

    The chance is the share of the bag whose colour a Pile of Runes holds (RB L292-297), 0 when the
    card is face A with monsters on the board (RB L284) or no Pile is on the board. Exact fractions.

    Example: drunagor odds
    """
    from ... import catalog
    from ...rules.odds import summon_odds

    with open_campaign() as c:
        state = _load(c)
        warn_all(c)
    info = catalog.chapter(state.chapter)
    if state.raid is not None and state.raid.card == "Dreadful Raid":
        result = summon_odds(face=state.raid.face, monsters_on_board=len(state.monsters), piles=state.piles,
                             bag=state.bag)
        data = result.as_json()
        reason, matching, face = result.reason, list(result.matching_colours), state.raid.face
    else:
        data = {"summon_chance": "0/1", "summon_probability": 0.0, "runes_in_bag": state.runes_in_bag(),
                "by_colour": dict(state.bag)}
        reason = f"chapter {state.chapter} has no Dreadful Raid card"
        matching, face = [], None
    data.update({"reason": reason, "face": face, "matching_colours": matching, "chapter": state.chapter,
                 "fails_on_last_rune": info.fails_on_last_rune})
    if json:
        term.json(data)
        return
    if face is not None:
        held = [c for c in state.colours if any(p.holds(c) for p in state.piles)]
        term.line(f"Next raid: face {face}, {_plural(len(state.monsters), 'monster')} on the board; "
                  + (f"the Piles of Runes hold {', '.join(held)}" if held else "no Pile of Runes on the board"))
    chance = data["summon_chance"]
    percent = f"{data['summon_probability'] * 100:.1f}%"
    term.line(f"Chance it summons: {chance} ({percent})" + (f": {reason}" if reason else ""), "bold")
    term.line(f"Runes in the bag: {data['runes_in_bag']} ({_runes(state.bag)})")
    if info.fails_on_last_rune:
        term.line(f"The adventure fails when the last rune in the bag is drawn{_chapter_ref(info, 'losing')}.")


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

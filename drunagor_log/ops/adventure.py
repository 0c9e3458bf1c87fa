"""At the table: the adventure under way (adventure.toml), its Piles of Runes, runes and monsters
(SPEC section 4 "During an adventure"). One function per thing the table does; each takes an open
`Campaign`, asks rules/adventure.py whether the move is allowed, stages the new adventure.toml
through the store (nothing is written until the campaign is saved) and returns a `Change`.

    with Campaign(root, write=True) as c:
        change = ops.adventure.draw(c, 2, seed=48213)
        c.save()
    change.summary   # 'drew red, gray (seed 48213) to the Initiative Track; 4 runes left in the bag'

`raid` and `battalion` (ops/summon.py) use `load` and `save` from here. Imports stay light: the
catalog is imported only by the operations that need a chapter's facts (`raid` never does, SPEC 7).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..campaign import ADVENTURE, ARCHIVE
from ..errors import DataError, Refused, RuleError, UsageError, located
from . import Change, Line

if TYPE_CHECKING:
    from ..campaign import Campaign
    from ..rules.adventure import AdventureState
    from ..rules.board import Monster

#: Ranks as `--rank` takes them (RB L314).
RANK_HINT = "Overlord, Commander, Black, Gray, White, Scenario, Minion"


# ------------------------------------------------------------------------------- the state file


def load(c: Campaign) -> AdventureState:
    """The adventure under way. A campaign opened for writing refuses a newer adventure.toml at once:
    whatever is resolved could not be written."""
    from ..store import adventure as codec

    f = c.adventure_file
    if f is None:
        raise RuleError("no adventure under way (there is no adventure.toml)", file=_shown(c, ADVENTURE),
                        rule="adventure", remedy="start one with `drunagor adventure start`")
    if c.write and f.read_only:
        raise _read_only(f)
    return codec.read(f)


def save(c: Campaign, state: AdventureState) -> None:
    """Stage adventure.toml (written when the campaign is saved, with the command's other changes)."""
    from ..store import adventure as codec

    f = c.adventure_file
    if f is not None and f.read_only:
        raise _read_only(f)
    c.put_bytes(c.root / ADVENTURE, codec.text(state))


def record(c: Campaign, before: AdventureState, after: AdventureState, entry: Mapping[str, object]) -> None:
    """Stage the state after a table event: the event's line in the log, and in `events` what it changed
    as it was before, so that `adventure undo` restores the file exactly."""
    from ..rules.adventure import changed_fields, with_log
    from ..store.adventure import before_values

    event = {"event": entry["event"], "log": len(before.log),
             "before": before_values(before, changed_fields(before, after))}
    save(c, with_log(after, entry).replace(events=after.events + (event,)))


def _read_only(f) -> DataError:
    return DataError(f"schema {f.data['schema']} is newer than this drunagor knows; the file is read-only",
                     file=f.shown, line=1, rule="schema", remedy="upgrade drunagor")


def _shown(c: Campaign, name: str) -> str:
    from ..store import display

    return display(c.root / name)


@contextmanager
def refusals_on_file(c: Campaign) -> Iterator[None]:
    """A rule's refusal (rules/adventure.py knows no file) names adventure.toml."""
    try:
        yield
    except Refused as exc:
        f = c.adventure_file
        raise located(exc, f.shown if f is not None else None) from None


# ------------------------------------------------------------------------------- words and names


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def runes_text(counts: Mapping[str, int]) -> str:
    """'red 5, blue 6, green 0' (every colour), or 'none'."""
    return ", ".join(f"{c} {n}" for c, n in counts.items()) or "none"


def pile_runes(runes: Mapping[str, int]) -> str:
    """'red, blue, 2 gray' (only the colours the Pile holds)."""
    return ", ".join(c if n == 1 else f"{n} {c}" for c, n in runes.items() if n) or "empty"


def slot_text(slots: Sequence[int | None]) -> str:
    from ..rules.board import slot_label

    if len(slots) == 1:
        return slot_label(slots[0])
    return "slots " + ", ".join(str(s) for s in slots)


def colours(values: Sequence[str] | str | None, known: Sequence[str], what: str = "rune colour") -> list[str]:
    """'red,blue,red' / 'red=2,blue' / ['red', 'blue'] -> ['red', 'blue', 'red'] (a unique prefix is
    enough; 'grey' is 'gray')."""
    from ..names import lookup

    if values is None:
        return []
    options = {c: c for c in known}
    out: list[str] = []
    for part in [values] if isinstance(values, str) else list(values):
        for item in part.replace(";", ",").split(","):
            item, count = _counted(item.strip(), part)
            if item:
                out += [lookup("gray" if item.casefold() == "grey" else item, options, what)] * count
    return out


def _counted(item: str, part: str) -> tuple[str, int]:
    """'red=2' -> ('red', 2); 'red' -> ('red', 1)."""
    if "=" not in item:
        return item, 1
    name, _, number = item.partition("=")
    if not number.strip().isdigit() or int(number) < 1:
        raise UsageError(f"{part!r}: write COLOUR=N with N a whole number of runes", remedy="e.g. --runes red=2,blue")
    return name.strip(), int(number)


def chapter_list(has) -> str:
    """'02, 05 and 08': the chapters with a feature, from the catalog."""
    from .. import catalog

    ids = [ch.id for ch in catalog.chapters() if has(ch)]
    return ", ".join(ids[:-1]) + " and " + ids[-1] if len(ids) > 1 else "".join(ids)


def chapter_ref(chapter, fact: str) -> str:
    ref = chapter.refs.get(fact)
    return f" ({ref})" if ref else ""


def new_seed() -> int:
    import os

    return int.from_bytes(os.urandom(4), "big") % 1_000_000  # six digits: easy to type back


# ------------------------------------------------------------------------------------ reading


def state_json(state: AdventureState) -> dict[str, Any]:
    """The `adventure show --json` object."""
    from .. import catalog
    from ..rules.board import slot_colour

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
        "monsters": [{"name": m.name, "rank": m.rank, "slot": m.slot,
                      "colour": slot_colour(m.slot) if m.slot is not None else None, "boss": m.boss}
                     for m in state.monsters],
        "ranks": dict(state.ranks),
        "log": [dict(e) for e in state.log],
    }


def show(c: Campaign) -> Change:
    """The table now (`data` is the `adventure show --json` object): with each active hero's cubes and
    limits, the chapter's counters, the losing condition met, and the events `adventure undo` takes back."""
    from ..rules.losing import counters_json, held
    from .losing import hero_limits

    state = load(c)
    data = state_json(state)
    heroes = list(dict.fromkeys([h.name for h in c.active_heroes().values()] + list(state.cubes)))
    data["cubes"] = {name: {"trauma": held(state, name, "trauma"), "curse": held(state, name, "curse"),
                            **hero_limits(c, name)} for name in heroes}
    data["counters"] = counters_json(state)
    data["lost"] = state.lost
    data["events"] = events_json(state)
    return Change(data=data)


def events_json(state: AdventureState) -> list[dict[str, Any]]:
    """The table events `adventure undo` can take back, newest last: their kind, their log line, and
    the fields of adventure.toml each would restore."""
    return [{"event": e["event"], "text": _event_text(state, e), "restores": list(e["before"])}
            for e in state.events]


def _event_text(state: AdventureState, event: dict[str, Any]) -> str:
    at = event["log"]
    return str(state.log[at].get("text", "")) if 0 <= at < len(state.log) else ""


def undo(c: Campaign, steps: int = 1, *, dry_run: bool = False) -> Change:
    """Take back the last `steps` table events (raid, draw, monster, pile, tiebreak, battalion, cube,
    recall, event), restoring adventure.toml exactly as it was before them."""
    from ..store import adventure as codec

    if steps < 1:
        raise UsageError(f"--steps must be at least 1, not {steps}")
    state = load(c)
    if len(state.events) < steps:
        raise RuleError(f"{plural(len(state.events), 'table event')} to take back, not {steps}",
                        file=_shown(c, ADVENTURE), rule="undo",
                        remedy=(f"take back at most {len(state.events)}" if state.events else
                                "nothing was recorded at the table since the adventure started (an older drunagor "
                                "kept nothing to take back)"))
    taken = []
    for _ in range(steps):
        event = state.events[-1]
        taken.append(f"{event['event']}: {_event_text(state, event)}")
        fields = codec.undo_fields(event, len(state.events) - 1, c.adventure_file)
        state = state.replace(**fields, log=state.log[:event["log"]], events=state.events[:-1])
    summary = f"took back {plural(steps, 'table event')}: " + "; ".join(taken)
    if dry_run:
        return Change(notes=(Line("would " + summary.replace("took back", "take back", 1)),
                             Line("dry run: nothing written")),
                      data={"undone": taken, "dry_run": True})
    save(c, state)
    return Change(summary=summary, data={"undone": taken, "dry_run": False})


def odds(c: Campaign) -> Change:
    """The exact chance that the next Dreadful Raid summons (`data`: the `odds --json` object; `notes`:
    the lines a person reads)."""
    from .. import catalog
    from ..rules.odds import summon_odds

    state = load(c)
    info = catalog.chapter(state.chapter)
    data: dict[str, Any]
    if state.raid is not None and state.raid.card == "Dreadful Raid":
        from ..rules.raid import no_room_reason

        no_room = no_room_reason(state.monsters, state.raid.minions[0], state.raid.model_limit or 12)
        result = summon_odds(face=state.raid.face, monsters_on_board=len(state.monsters), piles=state.piles,
                             bag=state.bag, no_room=no_room)
        data = result.as_json()
        reason, matching, face = result.reason, list(result.matching_colours), state.raid.face
    else:
        data = {"summon_chance": "0/1", "summon_probability": 0.0, "runes_in_bag": state.runes_in_bag(),
                "by_colour": dict(state.bag), "try_chance": "0/1", "try_probability": 0.0}
        reason, matching, face = f"chapter {state.chapter} has no Dreadful Raid card", [], None
    data.update({"reason": reason, "face": face, "matching_colours": matching, "chapter": state.chapter,
                 "fails_on_last_rune": info.fails_on_last_rune})
    notes = []
    if face is not None:
        held = [c for c in state.colours if any(p.holds(c) for p in state.piles)]
        notes.append(Line(f"Next raid: face {face}, {plural(len(state.monsters), 'monster')} on the board; "
                          + (f"the Piles of Runes hold {', '.join(held)}" if held
                             else "no Pile of Runes on the board")))
    notes.append(Line(f"Chance it summons: {chance_text(data['summon_chance'], data['summon_probability'])}"
                      + (f": {reason}" if reason else ""), "bold"))
    if data["try_chance"] != data["summon_chance"]:
        notes.append(Line("Chance it tries (a Pile holds the rune manifested): "
                          + chance_text(data["try_chance"], data["try_probability"])))
    notes.append(Line(f"Runes in the bag: {data['runes_in_bag']} ({runes_text(state.bag)})"))
    if info.fails_on_last_rune:
        notes.append(Line(f"The adventure fails when the last rune in the bag is drawn{chapter_ref(info, 'losing')}."))
    return Change(notes=tuple(notes), data=data)


def chance_text(fraction: str, probability: float) -> str:
    """An exact chance as a person reads it: '2/7 (28.6%)', but 'none' and 'certain' for 0 and 1 (not
    '0/1 (0.0%)'; the --json keys keep the fraction)."""
    if probability == 0:
        return "none"
    if probability == 1:
        return "certain"
    return f"{fraction} ({probability * 100:.1f}%)"


def chest_may_change(c: Campaign) -> str | None:
    """None when the Chest deck may be changed now, in a Camp phase between adventures (RB L361); else
    why not (an adventure is under way), for `camp` and the chest commands to say."""
    f = c.adventure_file
    if f is None:
        return None
    return (f"the adventure of chapter {f.data.get('chapter')} is under way, and the deck changes only during a "
            "Camp phase, between adventures (RB L361); end the adventure first (drunagor adventure end "
            "--won|--lost)")


# -------------------------------------------------------------------------------- start and end


def start(c: Campaign, chapter: str | None = None, heroes: int | None = None, models: int | None = None) -> Change:
    """Start chapter `chapter` (default: the next on the Adventure Track): the rune bag, Stirring
    Darkness on the track, the raid card face A, an empty board."""
    from .. import catalog
    from ..rules.adventure import new_adventure
    from ..rules.losing import counters_at_start

    if heroes is not None and not 1 <= heroes <= 5:
        # No party has that many (a usage error, exit 2, as for `chapter show --heroes`); 5 above the
        # campaign's rules.max_heroes is the rule's refusal below (exit 1).
        raise UsageError(f"--heroes must be from 1 to 5, not {heroes}",
                         remedy="4 heroes; 5 with extra-hero content (RB L941-943)")
    if c.adventure_file is not None:
        raise RuleError(f"an adventure is under way (chapter {c.adventure_file.data.get('chapter')})",
                        file=c.adventure_file.shown, rule="adventure",
                        remedy="finish it first with `drunagor adventure end --won` or `--lost`")
    ch = _chapter_to_start(c, chapter)
    info = catalog.chapter(ch)
    heroes = _party(c, heroes)
    raid = _raid_card(c, info, models)
    parts = [f"chapter {ch}, {info.title}, under way with {plural(heroes, 'hero', 'heroes')}"]
    if info.stirring_darkness:
        parts.append(f"Stirring Darkness put {info.stirring_darkness} runes of each colour on the "
                     f"Initiative Track{chapter_ref(info, 'stirring_darkness')}")
    if raid is not None:
        parts.append(f"{raid.card} card face A up, summoning {' and '.join(raid.minions)}{chapter_ref(info, 'raid')}")
    logged = "; ".join(parts)
    if info.darkness_nodes:
        parts.append("add each Pile of Runes of the setup with `drunagor pile add`"
                     + chapter_ref(info, "darkness_nodes"))
    bag = dict(c.story.rules.rune_bag) or dict(catalog.DEFAULT_RUNE_BAG)
    state = new_adventure(chapter=ch, heroes=heroes, bag=bag, stirring_darkness=info.stirring_darkness, raid=raid,
                          log_text=logged)
    save(c, state.replace(counters=counters_at_start(ch)))
    return Change(summary="; ".join(parts))


def _chapter_to_start(c: Campaign, chapter: str | None) -> str:
    """The chapter to start: the next on the Adventure Track, which `chapter` must be (RB L961)."""
    from .. import catalog

    nxt = c.story.next_chapter()
    if chapter is None:
        if nxt is None:
            raise RuleError("the campaign is finished: every chapter is on the Adventure Track",
                            file=c.story_file.shown, rule="adventure-track (RB L961)")
        return nxt
    ch = catalog.chapter_id(chapter)  # UnknownChapter: a UsageError ("give a chapter from 1 to 9")
    if ch != nxt:
        raise RuleError(
            f"chapter {ch} is not the next chapter on the Adventure Track ("
            + (f"that is {nxt}" if nxt else "the campaign is finished") + ")",
            file=c.story_file.shown, rule="adventure-track (RB L961)",
            remedy=(f"start chapter {nxt}, or fill the track first (drunagor chapter complete|skip)"
                    if nxt else "the next adventure is the next unfilled slot on the track"))
    return ch


def _party(c: Campaign, heroes: int | None) -> int:
    """Heroes playing: given, or the active heroes; at most rules.max_heroes (RB L941-943)."""
    if heroes is None:
        heroes = len(c.active_heroes())
        if heroes == 0:
            raise UsageError("the party has no active hero to count",
                             remedy="add heroes (drunagor hero add) or give --heroes K")
    most = c.story.rules.max_heroes
    if not 1 <= heroes <= most:
        raise RuleError(f"{heroes} heroes: this campaign plays with 1 to {most} heroes",
                        file=c.story_file.shown, rule="heroes (RB L941-943)",
                        remedy="give --heroes within the limit (rules.max_heroes in story.toml)")
    return heroes


def _raid_card(c: Campaign, info, models: int | None):
    """The chapter's raid card face A up, with the rank and model count of what it summons."""
    from .. import catalog
    from ..rules.adventure import RaidCard

    if info.raid is None:
        if models is not None:
            raise UsageError(f"chapter {info.id} has no raid card: --models has nothing to count",
                             remedy="leave out --models")
        return None
    scenario = [s for s in info.raid.summons if s.kind == "scenario"]
    if scenario:
        limit = _scenario_models(c, scenario[0], models, info)
        return RaidCard(info.raid.card, "A", info.raid.minions, "Scenario", limit)
    if models is not None:
        raise UsageError(f"--models is asked only when the catalog does not know a model count: "
                         f"each Minion has {catalog.MINION_MODELS} models (RB L311)", remedy="leave out --models")
    return RaidCard(info.raid.card, "A", info.raid.minions, "Minion", catalog.MINION_MODELS)


def _scenario_models(c: Campaign, summon, models: int | None, info) -> int:
    """The model count of a Scenario Monster a raid summons: the catalog's, the party's recorded fact
    ([cards] in story.toml), or --models, which is then recorded (SPEC: user-recorded facts)."""
    from .. import catalog
    from ..store.edit import set_card_facts

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
                remedy="count them and give --models N once; drunagor remembers it under [cards] in story.toml")
        return known
    if models < 1 or models > 12:
        raise UsageError(f"--models must be from 1 to 12, not {models}")
    if known is not None and known != models:
        raise UsageError(f"{summon.models} has {known} models on record", file=c.story_file.shown,
                         remedy="leave out --models, or correct [cards] in story.toml")
    if known is None:
        set_card_facts(c.story_file.edit(), summon.models, {"model_count": models}, match=str.__eq__)
    return models


def end(c: Campaign, outcome: str) -> Change:
    """End the adventure, "won" or "lost": archive its state under adventures/; won completes the
    chapter on the Adventure Track, lost records a failed attempt (`notes`: the rewards owed, or how to
    change the track). In chapter 09 a win is the ending "Baptism of Fire", and a defeat after the
    Endgame Trigger "A Hero Undone", which is no failure (RB L1309): both complete the chapter and name
    the campaign's ending in story.toml. Everything is staged together: the archive, the track and the
    removal of adventure.toml."""
    from ..rules.adventure import with_log
    from ..rules.losing import ending as ending_of
    from ..store import adventure as codec
    from .losing import lost_refusal

    won = outcome == "won"
    state = load(c)  # a file of a newer schema is refused here: never written, nor archived
    if won and state.lost:
        raise lost_refusal(c, state)
    ch = state.chapter
    ending = ending_of(ch, outcome, state)
    attempt = c.story.failures.get(ch, 0) + 1
    while (c.root / ARCHIVE / f"{ch}-{attempt}.toml").exists():
        attempt += 1
    archive = c.root / ARCHIVE / f"{ch}-{attempt}.toml"
    how = ("ends successfully" if won else f'ends with "{ending}", not a failure' if ending else "fails")
    final = with_log(state, {"event": "end", "text": f"the adventure {how}"})
    c.put_bytes(archive, codec.text(final.replace(outcome=outcome, events=())))  # nothing to take back now
    c.delete(c.root / ADVENTURE)
    archived = f"adventure archived as {ARCHIVE}/{archive.name}"
    filled = c.story.track.get(ch)
    if filled is not None:
        return _end_on_filled_slot(ch, won, filled, archived)
    if ending is not None:
        return _end_with_ending(c, ch, ending, won, archived)
    lines = _record_chapter(c, ch, "completed" if won else "failed")
    if won:
        return Change(summary=f"chapter {ch} completed; {archived}", notes=tuple(lines))
    return Change(summary=f"chapter {ch} failed (attempt {c.story.failures.get(ch, 0) + 1}); the slot stays open; "
                          f"{archived}", notes=tuple(lines))


def _end_with_ending(c: Campaign, ch: str, ending: str, won: bool, archived: str) -> Change:
    """Chapter 09 ends the campaign with one of its two endings (RB L1309), kept as `ending` in story.toml."""
    from ..store.edit import add_key, item

    lines = _record_chapter(c, ch, "completed")
    doc = c.story_file.edit()
    if "ending" in doc:
        doc["ending"] = ending
    else:
        add_key(doc, "ending", item(ending))
    why = "RB L1309" if won else "the party's defeat after the Endgame Trigger is not a failure, RB L1309"
    return Change(summary=f'chapter {ch} completed with the ending "{ending}" ({why}); {archived}',
                  notes=tuple(lines))


def _end_on_filled_slot(ch: str, won: bool, filled: str, archived: str) -> Change:
    """The slot was filled meanwhile (`chapter complete 5 --force`, or by hand): the adventure still ends
    and is archived; the track is left as it is, and the remedy said (never a dead end)."""
    n = int(ch)
    if won:
        lines = ([] if filled == "completed" else
                 [f"To record the win instead: drunagor chapter complete {n} --force (recorded in story.toml)."])
        return Change(summary=f"chapter {ch} was already {filled} on the Adventure Track, which is left as it is; "
                              f"{archived}", notes=tuple(lines))
    return Change(summary=f"chapter {ch} failed, but it is already {filled} on the Adventure Track: no failed attempt "
                          f"counted; {archived}",
                  notes=(f"To count the failed attempt anyway: drunagor chapter fail {n} --force (recorded in "
                         "story.toml).",))


def _record_chapter(c: Campaign, ch: str, state: str) -> list[str]:
    """The Adventure Track (or [failures]) is written by the Story Record's own rule (RB L961)."""
    from .story import record_chapter

    return list(record_chapter(c, ch, state).notes)


# ------------------------------------------------------------------------------- Piles of Runes


def add_pile(c: Campaign, runes: Sequence[str] | str | None = None) -> Change:
    """A Pile of Runes on the board, its runes from the Initiative Track (default: Darkness Nodes, one
    of each colour, RB L1098)."""
    from ..rules import adventure as rules

    state = before = load(c)
    chosen = colours(runes, state.colours) if runes is not None else None
    if runes is not None and not chosen:
        raise UsageError("--runes names no rune", remedy="e.g. --runes red,blue")
    with refusals_on_file(c):
        state, pile, missing = rules.add_pile(state, chosen)
    message = f"Pile {pile.id} on the board ({pile_runes(pile.runes)}, from the Initiative Track)"
    warnings: tuple[str, ...] = ()
    if missing:
        warnings = (f"the Initiative Track held no {', '.join(missing)} rune: Pile {pile.id} is made without "
                    f"{'it' if len(missing) == 1 else 'them'} (RB L1098)",)
    record(c, before, state, {"event": "pile", "text": message})
    return Change(summary=message, warnings=warnings)


def remove_pile(c: Campaign, pile: str) -> Change:
    """A Pile of Runes leaves the board, its runes going to the Initiative Track (RB L1147, L1149)."""
    from ..rules import adventure as rules

    state = before = load(c)
    with refusals_on_file(c):
        state, gone = rules.remove_pile(state, pile)
    message = f"Pile {gone.id} off the board; its runes ({pile_runes(gone.runes)}) go to the Initiative Track"
    record(c, before, state, {"event": "pile", "text": message})
    return Change(summary=message)


def tiebreak(c: Campaign, pile: str, runes: Sequence[str] | str | None = None) -> Change:
    """Tie Breaker (RB L1100): (6 - heroes) runes of the party's choice from a Pile back to the bag."""
    from .. import catalog
    from ..rules import adventure as rules

    state = before = load(c)
    info = catalog.chapter(state.chapter)
    if not info.tie_breaker:
        raise RuleError(f"chapter {state.chapter}, {info.title}, has no Tie Breaker", file=_shown(c, ADVENTURE),
                        rule="tie-breaker (RB L1100)",
                        remedy="only chapters " + chapter_list(lambda ch: ch.tie_breaker) + " have it")
    chosen = colours(runes, state.colours) if runes is not None else None
    with refusals_on_file(c):
        state, returned, removed = rules.tiebreak(state, pile, chosen)
    pid = str(pile).strip()
    pid = pid[4:].strip() if pid.casefold().startswith("pile") else pid
    message = (f"Tie Breaker: {plural(sum(returned.values()), 'rune')} ({pile_runes(returned)}) from Pile {pid} "
               f"back to the bag (6 - {state.heroes} heroes = {rules.tie_breaker_runes(state.heroes)})")
    if removed:
        message += f"; Pile {pid} is empty and leaves the board"
    message += "; the hero gains FOCUS 1 or CLEANSE 1"
    record(c, before, state, {"event": "tiebreak", "text": message})
    return Change(summary=message)


# ------------------------------------------------------------------------------------------ runes


def draw(c: Campaign, count: int | None = None, runes: Sequence[str] | str | None = None,
         seed: int | None = None) -> Change:
    """Runes from the bag to the Initiative Track: at random (seeded), or `runes` drawn at the table.
    Drawing the last rune fails the adventure in chapters 01-06 (e.g. RB L1203)."""
    from .. import catalog
    from ..rules import adventure as rules

    state = before = load(c)
    drawn, used_seed = _runes_drawn(c, state, count, runes, seed)
    with refusals_on_file(c):
        state = rules.draw(state, drawn)
    how = f"seed {used_seed}" if used_seed is not None else "drawn at the table"
    if count is not None and count > len(drawn):  # `draw 30` with 6 runes in the bag draws those 6: say so
        how += f"; {count} asked, but the bag held only {len(drawn)}"
    message = (f"drew {', '.join(drawn)} ({how}) to the Initiative Track; "
               f"{plural(state.runes_in_bag(), 'rune')} left in the bag")
    entry: dict[str, object] = {"event": "draw", "runes": ", ".join(drawn)}
    if used_seed is not None:
        entry["seed"] = used_seed
    entry["text"] = message
    info = catalog.chapter(state.chapter)
    fails = state.runes_in_bag() == 0 and bool(info.fails_on_last_rune)
    if fails:
        from ..rules.losing import last_rune

        state, _ = last_rune(state, info.refs.get("losing", ""))
    record(c, before, state, entry)
    notes: tuple[Line, ...] = ()
    if fails:
        notes = (Line(f"The last rune in the bag was drawn: the adventure fails{chapter_ref(info, 'losing')}. "
                      "Record it with `drunagor adventure end --lost`.", "bold red"),)
    elif state.runes_in_bag() == 0:
        notes = (Line(f"The bag is empty (chapter {state.chapter} does not fail on the last rune)."),)
    return Change(summary=message, notes=notes,
                  data={"drawn": list(drawn), "seed": used_seed, "runes_in_bag": state.runes_in_bag(),
                        "by_colour": dict(state.bag), "adventure_fails": fails})


def _runes_drawn(c: Campaign, state: AdventureState, count: int | None, runes: Sequence[str] | str | None,
                 seed: int | None) -> tuple[list[str], int | None]:
    """The runes a draw takes, and the seed of a random draw (None for runes drawn at the table)."""
    import random

    from ..rules.adventure import draw_random

    physical = colours(runes, state.colours) if runes else []
    if runes and not physical:
        raise UsageError("--rune names no rune", remedy="e.g. --rune red")
    if physical:
        if count is not None and count != len(physical):
            raise UsageError(f"{count} runes to draw, but --rune names {len(physical)}",
                             remedy="leave out the count, or name as many runes")
        if seed is not None:
            raise UsageError("--seed replays a random draw; --rune records the runes drawn at the table",
                             remedy="give one of them")
        return physical, None
    count = 1 if count is None else count
    if count < 1:
        raise UsageError(f"draw at least 1 rune, not {count}")
    if state.runes_in_bag() == 0:
        raise RuleError("the rune bag is empty: there is no rune to draw", file=_shown(c, ADVENTURE), rule="draw",
                        remedy="runes come back to the bag with the Tie Breaker")
    used_seed = new_seed() if seed is None else seed
    return draw_random(state.bag, count, random.Random(used_seed)), used_seed


# -------------------------------------------------------------------------------------- monsters


def resolve_monster(query: str, state: AdventureState | None) -> str:
    """The monster a name means: a catalog card, one recorded in this adventure or on the board
    (any case, or a unique prefix); a name nobody knows is taken as typed (a new monster)."""
    from .. import catalog

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


def recorded_models(c: Campaign, name: str) -> int | None:
    """A model count the party recorded under [cards] (SPEC "User-recorded facts")."""
    facts = c.story.cards.get(name) or {}
    return facts["model_count"] if isinstance(facts.get("model_count"), int) else None


def _monster_facts(c: Campaign, state: AdventureState, name: str, rank: str | None
                   ) -> tuple[str, str | None, bool, int | None, bool]:
    """(name as known, rank, boss, model limit, unknown to the catalog) for a monster to place."""
    from .. import catalog
    from ..rules.board import MINION_MODELS

    given = canonical(rank)
    entry = catalog.monster(name)
    if entry is not None:
        name, known = entry["name"], entry.get("rank")
        if given is not None and known is not None and given != known:
            raise UsageError(f"the catalog gives {name} the rank {known}, not {given}", remedy="leave out --rank")
        rank, boss, limit, unknown = known or given, bool(entry.get("boss")), entry.get("model_count"), False
    else:
        name, rank = _unknown_monster(state, name, given)
        boss, limit, unknown = False, None, state.rank_of(name) is None
    if limit is None:
        limit = recorded_models(c, name)
    if limit is None and state.raid is not None and any(name.casefold() == m.casefold() for m in state.raid.minions):
        limit = state.raid.model_limit
    if limit is None and rank == "Minion":
        limit = MINION_MODELS  # RB L311: all 4 models of a Minion
    return name, rank, boss, limit, unknown


def _unknown_monster(state: AdventureState, name: str, given: str | None) -> tuple[str, str]:
    """A monster the catalog does not know: its spelling on the board, and its rank (recorded for this
    adventure, or given now)."""
    from .. import catalog
    from ..names import closest

    for m in state.monsters:  # the spelling already on the board
        if m.is_named(name):
            name = m.name
    recorded = state.rank_of(name)
    if given is not None and recorded is not None and given != recorded:
        raise UsageError(f"{name} is on record with the rank {recorded}, not {given}",
                         remedy="leave out --rank, or remove its record from adventure.toml [ranks]")
    rank = recorded or given
    if rank is None:
        hint = closest(name, [m["name"] for m in catalog.monsters()])
        raise UsageError(f"the catalog does not know {name!r}, so its rank is unknown"
                         + (f" (did you mean {hint!r}?)" if hint else ""),
                         remedy=f"give it once with --rank ({RANK_HINT}); it is remembered for this adventure")
    return name, rank


def canonical(rank: str | None) -> str | None:
    """A --rank as the rulebook spells it (a usage error when it is no rank)."""
    from ..rules.board import canonical_rank

    if rank is None:
        return None
    try:
        return canonical_rank(rank)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def parse_slot(text: str | int) -> int | None:
    """'3' -> 3; 'pink' -> 3 (a base colour); anything else None."""
    from ..rules.board import SLOT_COLOURS

    t = str(text).strip().casefold()
    if t.isdigit():
        return int(t)
    if t in SLOT_COLOURS:
        return SLOT_COLOURS.index(t) + 1
    return None


def add_monster(c: Campaign, name: str, *, count: int = 1, rank: str | None = None, slot: str | int | None = None,
                boss: bool = False) -> Change:
    """Monsters on the board, each in the next free status-board slot (RB L315) or `slot`; a boss takes
    none. Refused when the 12 tracks are taken or all models of its kind are out (RB L311)."""
    from ..rules.adventure import add_monster as place, record_rank
    from ..rules.board import slot_label

    slot_no = _slot_option(slot, count)
    state = before = load(c)
    name, rank_, is_boss, limit, unknown = _monster_facts(c, state, resolve_monster(name, state), rank)
    is_boss = is_boss or boss
    warnings: tuple[str, ...] = ()
    if unknown and rank_ is not None:
        state = record_rank(state, name, rank_)
        warnings = (f"{name} is not in the catalog: recorded with the rank {rank_} for this adventure",)
    placed: list[Monster] = []
    with refusals_on_file(c):
        for _ in range(count):
            try:
                state, monster = place(state, name, rank_, boss=is_boss, slot=slot_no, model_limit=limit)
            except Refused as exc:
                raise _room_for(exc, name, len(placed), count) from None
            placed.append(monster)
    if is_boss:
        message = f"{name} (boss) on the board, with no status-board slot"
    elif count == 1:
        message = f"{name} placed in {slot_label(placed[0].slot)}"
    else:
        message = f"{count} {name} placed in {slot_text([m.slot for m in placed])}"
    record(c, before, state, {"event": "monster", "text": message})
    return Change(summary=message, warnings=warnings)


def _room_for(exc: Refused, name: str, fit: int, count: int) -> Refused:
    """A refusal of the `fit`+1-th of `count` monsters: say how many fit (`--count 3` with room for 2 is
    not "all 12 tracks are taken")."""
    if not fit:
        return exc
    return Refused(f"room for only {fit} of the {count} {name}: then {exc.message}", exc.rule or "status-board",
                   f"place {fit} (--count {fit}), or {exc.remedy}" if exc.remedy else f"place {fit} (--count {fit})")


def _slot_option(slot: str | int | None, count: int) -> int | None:
    if count < 1:
        raise UsageError(f"--count must be at least 1, not {count}")
    if slot is None:
        return None
    slot_no = parse_slot(slot)
    if slot_no is None:
        raise UsageError(f"--slot {slot!r}: give a slot from 1 to 12 or its base colour")
    if count > 1:
        raise UsageError("--slot places one monster", remedy="leave out --count, or --slot")
    return slot_no


def remove_monster(c: Campaign, which: str | Sequence[str]) -> Change:
    """Monsters off the board (defeated or removed), each by name or by status-board slot; several at
    once are one table event (one `adventure undo` takes them all back)."""
    from ..names import lookup
    from ..rules.adventure import remove_monster as take
    from ..rules.board import slot_label

    state = before = load(c)
    gone = []
    for one in [which] if isinstance(which, str) else which:
        slot_no = parse_slot(one)
        if slot_no is None:
            one = lookup(one, {m.name: m.name for m in state.monsters}, "monster on the board")
        with refusals_on_file(c):
            state, monster = take(state, slot_no if slot_no is not None else one)
        gone.append(monster)
    if len(gone) == 1:
        where = f"; {slot_label(gone[0].slot)} is free" if gone[0].slot is not None else ""
        message = f"{gone[0].name} off the board{where}"
    else:
        slots = sorted(m.slot for m in gone if m.slot is not None)
        message = (f"{', '.join(m.name for m in gone)} off the board"
                   + (f"; {slot_text(slots)} {'is' if len(slots) == 1 else 'are'} free" if slots else ""))
    record(c, before, state, {"event": "monster", "text": message})
    return Change(summary=message)

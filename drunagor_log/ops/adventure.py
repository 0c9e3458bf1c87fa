"""At the table: the adventure under way (adventure.toml) as a whole (SPEC section 4 "During an
adventure"): start a chapter, show the table, take back table events, end it. The board's moves are
ops/board.py, the summons ops/summon.py, cubes and losing ops/losing.py, the odds ops/odds.py; the
state itself is read and staged through the `Campaign` (campaign.adventure(), stage_adventure()).

    with Campaign(root) as c:
        change = ops.adventure.start(c, "06")
        c.save()
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import catalog, store
from ..campaign import ADVENTURE, ARCHIVE, actor
from ..errors import RuleError, UsageError
from ..model.adventure import RaidCard, slot_colour
from ..rules.adventure import new_adventure, with_log
from ..rules.losing import counters_at_start, held
from ..rules.losing import ending as ending_of
from ..store import adventure as codec
from ..store.edit import add_key, item
from . import Change, Line
from .losing import hero_limits, lost_refusal, won_refusal
from .models import in_range, record_models
from .round import round_json
from .story import record_chapter
from .typed import typed_chapter
from .words import chapter_ref, forget_note, plural

if TYPE_CHECKING:
    from ..campaign import Campaign
    from ..model.adventure import AdventureState


# ------------------------------------------------------------------------------------ reading


def state_json(state: AdventureState) -> dict[str, Any]:
    """The `adventure show --json` object."""
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
    state = c.adventure()
    data = state_json(state)
    heroes = list(dict.fromkeys([h.name for h in c.active_heroes().values()] + list(state.cubes)))
    data["cubes"] = {name: {"trauma": held(state, name, "trauma"), "curse": held(state, name, "curse"),
                            **hero_limits(c, name)} for name in heroes}
    data.update(round_json(c, state))  # "round", "rune_card", "next_round" and every chapter's "counters"
    data["lost"] = state.lost
    data["won"] = state.won
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
    if steps < 1:
        raise UsageError(f"--steps must be at least 1, not {steps}")
    state = c.adventure(changing=not dry_run)
    if len(state.events) < steps:
        raise RuleError(f"{plural(len(state.events), 'table event')} to take back, not {steps}",
                        file=store.display(c.root / ADVENTURE), rule="undo",
                        remedy=(f"take back at most {len(state.events)}" if state.events else
                                "nothing was recorded at the table since the adventure started (an older drunagor "
                                "kept nothing to take back)"))
    _refuse_not_theirs(c, state, steps)
    taken, stays = [], []
    for _ in range(steps):
        event = state.events[-1]
        taken.append(f"{event['event']}: {_event_text(state, event)}")
        at = event["log"]
        note = forget_note(str(state.log[at].get("recorded", ""))) if 0 <= at < len(state.log) else None
        if note:
            stays.append(Line(f"{event['event']}: {note}"))
        fields = codec.undo_fields(event, len(state.events) - 1, c.adventure_file)
        state = state.replace(**fields, log=state.log[:event["log"]], events=state.events[:-1])
    summary = f"took back {plural(steps, 'table event')}: " + "; ".join(taken)
    if dry_run:
        return Change(notes=(Line("would " + summary.replace("took back", "take back", 1)), *stays,
                             Line("dry run: nothing written")),
                      data={"undone": taken, "dry_run": True})
    c.stage_adventure(state)
    return Change(summary=summary, notes=tuple(stays), data={"undone": taken, "dry_run": False})


def _refuse_not_theirs(c: Campaign, state: AdventureState, steps: int) -> None:
    """A hero's phone takes back only that hero's own last table event (`by`), one at a time: the
    scribe's and another hero's stay for the scribe to take back."""
    hero = actor()
    if hero is None:
        return
    at = state.events[-1]["log"]
    by = state.log[at].get("by") if 0 <= at < len(state.log) else None
    if steps != 1 or by != hero:
        hero_of = c.heroes.get(by) if isinstance(by, str) else None
        whose = "the scribe's" if by is None else f"{hero_of.name if hero_of else by}'s, from their phone"
        raise RuleError(f"the last table event is not this hero's to take back (it is {whose}: "
                        f"{_event_text(state, state.events[-1])})", file=store.display(c.root / ADVENTURE),
                        rule="undo", remedy="the scribe takes it back with `drunagor adventure undo`")


# -------------------------------------------------------------------------------- start and end


def start(c: Campaign, chapter: str | None = None, heroes: int | None = None, models: int | None = None) -> Change:
    """Start chapter `chapter` (default: the next on the Adventure Track): the rune bag, Stirring
    Darkness on the track, the raid card face A, an empty board."""
    if heroes is not None and not 1 <= heroes <= 5:
        # No party has that many (a usage error, exit 2, as for `chapter show --heroes`); 5 above the
        # campaign's rules.max_heroes is the rule's refusal below (exit 1).
        raise UsageError(f"--heroes must be from 1 to 5, not {heroes}",
                         remedy="4 heroes; 5 with extra-hero content (RB L941-943)")
    if chapter is not None:
        typed_chapter(chapter)
        catalog.chapter_id(chapter)  # a chapter the campaign lacks is said first, whatever is under way
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
    c.stage_adventure(state.replace(counters=counters_at_start(ch)))
    return Change(summary="; ".join(parts))


def _chapter_to_start(c: Campaign, chapter: str | None) -> str:
    """The chapter to start: the next on the Adventure Track, which `chapter` must be (RB L961)."""
    nxt = c.story.next_chapter()
    if chapter is None:
        if nxt is None:
            raise RuleError("the campaign is finished: every chapter is on the Adventure Track",
                            file=c.story_file.shown, rule="adventure-track (RB L961)")
        return nxt
    ch = catalog.chapter_id(chapter)  # UnknownChapter: an unknown name of the game, exit 1
    if ch != nxt:
        raise RuleError(
            f"chapter {ch} is not the next chapter on the Adventure Track ("
            + (f"that is {nxt}" if nxt else "the campaign is finished") + ")",
            file=c.story_file.shown, rule="adventure-track (RB L961)",
            remedy=(f"start chapter {nxt}, or fill the track first (drunagor chapter complete|skip)"
                    if nxt else "the next adventure is the next unfilled slot on the track"))
    return ch


def _party(c: Campaign, heroes: int | None) -> int:
    """Heroes playing: given, or the active heroes; at most rules.max_heroes (RB L941-943), and at most the
    heroes on the Story Record (fewer is a hero absent tonight): the raid party, the Tie Breaker and the
    cubes count the heroes at the table (RB L305-308, L1100)."""
    active = c.active_heroes()
    if heroes is None:
        heroes = len(active)
        if heroes == 0:
            raise UsageError("the party has no active hero to count",
                             remedy="add heroes (drunagor hero add) or give --heroes K")
    most = c.story.rules.max_heroes
    if not 1 <= heroes <= most:
        raise RuleError(f"{heroes} heroes: this campaign plays with 1 to {most} heroes",
                        file=c.story_file.shown, rule="heroes (RB L941-943)",
                        remedy=f"give --heroes from 1 to {most}"
                               + ("" if most >= 5 else "; with extra-hero content, allow five: drunagor rules "
                                                       "set --max-heroes 5"))
    if active and heroes > len(active):
        names = ", ".join(h.name for h in active.values())
        raise RuleError(f"{heroes} heroes, but the party has {plural(len(active), 'active hero', 'active heroes')} "
                        f"on the Story Record ({names}): the raid party, the Tie Breaker and the cubes count the "
                        "heroes at the table (RB L305-308, L1100)", file=c.story_file.shown,
                        rule="heroes (RB L941-943)",
                        remedy=f"give --heroes from 1 to {len(active)} (fewer: a hero absent tonight), or add the "
                               "hero first: drunagor hero add NAME")
    return heroes


def _raid_card(c: Campaign, info, models: int | None):
    """The chapter's raid card face A up, with the rank and model count of what it summons."""
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
    known = (catalog.monster(summon.models) or {}).get("model_count")
    for name in (summon.models, summon.minion):
        facts = c.story.cards.get(name) or {}
        if known is None and isinstance(facts.get("model_count"), int):
            known = facts["model_count"]
    if models is None:
        if known is None:
            raise UsageError(
                f"how many {summon.models} models does the {summon.minion} raid use? The catalog does not know, "
                f"and a raid stops when all of them are on the board (RB L311, {info.raid.source.removeprefix('RB ')})",
                remedy="count them and give --models N once; drunagor remembers it under [cards] in story.toml",
                ask="--models N", again="drunagor adventure start")
        return known
    return record_models(c, summon.models, in_range(models), known, match=str.__eq__)[0]


def end(c: Campaign, outcome: str) -> Change:
    """End the adventure, "won" or "lost": archive its state under adventures/; won completes the
    chapter on the Adventure Track, lost records a failed attempt (`notes`: the rewards owed, or how to
    change the track). In chapter 09 a win is the ending "Baptism of Fire", and a defeat after the
    Endgame Trigger "A Hero Undone", which is no failure (RB L1309): both complete the chapter and name
    the campaign's ending in story.toml. Everything is staged together: the archive, the track and the
    removal of adventure.toml."""
    won = outcome == "won"
    state = c.adventure(changing=True)  # a file of a newer schema is refused here: never written, nor archived
    if won and state.lost:
        raise lost_refusal(c, state)
    if not won and state.won:
        raise won_refusal(c, state)
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
    return list(record_chapter(c, ch, state).notes)

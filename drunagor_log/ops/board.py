"""At the table, the board: Piles of Runes, the Tie Breaker, runes drawn from the bag, monsters placed
and taken off the Monster Status board (SPEC section 4 "During an adventure"). Each operation takes an
open `Campaign`, asks rules/adventure.py whether the move is allowed, stages adventure.toml as a table
event (`adventure undo` takes it back) and returns a `Change`:

    with Campaign(root) as c:
        change = ops.board.draw(c, 2, seed=48213)
        c.save()
    change.summary   # 'drew red, gray (seed 48213) to the Initiative Track; 4 runes left in the bag'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .. import catalog, store
from ..campaign import ADVENTURE
from ..errors import Refused, RuleError, UsageError
from ..model.adventure import MINION_MODELS, pile_key, slot_label
from ..names import lookup, resolve
from ..rules import adventure as rules
from ..rules import miniatures
from ..rules.board import all_models_on_board
from ..rules.chapters import check_monster, ended, last_enemy_defeated, pile_left_board
from ..rules.losing import last_rune
from ..text import shell_word
from . import Change, Line
from .losing import table_state
from .models import in_range, record_models, recorded_models
from .typed import RANK_HINT, canonical, colours, parse_slot
from .words import chapter_list, chapter_ref, pile_runes, plural, slot_text

if TYPE_CHECKING:
    from ..campaign import Campaign
    from ..model.adventure import AdventureState, Monster


def new_seed() -> int:
    import os

    return int.from_bytes(os.urandom(4), "big") % 1_000_000  # six digits: easy to type back


# ------------------------------------------------------------------------------- Piles of Runes


def add_pile(c: Campaign, runes: Sequence[str] | str | None = None) -> Change:
    """A Pile of Runes on the board, its runes from the Initiative Track (default: Darkness Nodes, one
    of each colour, RB L1098)."""
    state = before = table_state(c)
    chosen = colours(runes, state.colours) if runes is not None else None
    if runes is not None and not chosen:
        raise UsageError("--runes names no rune", remedy="e.g. --runes red,blue")
    with c.adventure_refusals():
        state, pile, missing = rules.add_pile(state, chosen)
    message = f"Pile {pile.id} on the board ({pile_runes(pile.runes)}, from the Initiative Track)"
    warnings: tuple[str, ...] = ()
    if missing:
        warnings = (f"the Initiative Track held no {', '.join(missing)} rune: Pile {pile.id} is made without "
                    f"{'it' if len(missing) == 1 else 'them'} (RB L1098)",)
    c.record_event(before, state, {"event": "pile", "text": message})
    return Change(summary=message, warnings=warnings)


def remove_pile(c: Campaign, pile: str) -> Change:
    """A Pile of Runes leaves the board, its runes going to the Initiative Track (RB L1147, L1149);
    chapter 02's Doom Clock counts it (RB L1106-1110)."""
    state = before = table_state(c)
    with c.adventure_refusals():
        state, gone = rules.remove_pile(state, pile)
    message = f"Pile {gone.id} off the board; its runes ({pile_runes(gone.runes)}) go to the Initiative Track"
    state, clock = pile_left_board(state)
    message += f"; {clock}" if clock else ""
    c.record_event(before, state, {"event": "pile", "text": message})
    return Change(summary=message)


def tiebreak(c: Campaign, pile: str, runes: Sequence[str] | str | None = None) -> Change:
    """Tie Breaker (RB L1100): (6 - heroes) runes of the party's choice from a Pile back to the bag; a
    Pile emptied leaves the board, and chapter 02's Doom Clock counts it (RB L1106-1110)."""
    state = before = table_state(c)
    info = catalog.chapter(state.chapter)
    if not info.tie_breaker:
        raise RuleError(f"chapter {state.chapter}, {info.title}, has no Tie Breaker",
                        file=store.display(c.root / ADVENTURE), rule="tie-breaker (RB L1100)",
                        remedy="only chapters " + chapter_list(lambda ch: ch.tie_breaker) + " have it")
    chosen = colours(runes, state.colours) if runes is not None else None
    with c.adventure_refusals():
        state, returned, removed = rules.tiebreak(state, pile, chosen, rule=info.refs.get("tie_breaker", "RB L1100"))
    pid = pile_key(pile)
    party = plural(state.heroes, "hero", "heroes")
    message = (f"Tie Breaker: {plural(sum(returned.values()), 'rune')} ({pile_runes(returned)}) from Pile {pid} "
               f"back to the bag (6 - {party} = {rules.tie_breaker_runes(state.heroes)})")
    if removed:
        message += f"; Pile {pid} is empty and leaves the board"
    message += "; the hero gains FOCUS 1 or CLEANSE 1"
    if removed:
        state, clock = pile_left_board(state)
        message += f"; {clock}" if clock else ""
    facts = {"pile": pid, "returned": {colour: n for colour, n in returned.items() if n}}
    c.record_event(before, state, {"event": "tiebreak", **facts, "text": message})
    return Change(summary=message)


# ------------------------------------------------------------------------------------------ runes


def draw(c: Campaign, count: int | None = None, runes: Sequence[str] | str | None = None,
         seed: int | None = None) -> Change:
    """Runes from the bag to the Initiative Track: at random (seeded), or `runes` drawn at the table.
    Drawing the last rune fails the adventure in chapters 01-06 (e.g. RB L1203)."""
    state = before = table_state(c)
    drawn, used_seed = _runes_drawn(c, state, count, runes, seed)
    with c.adventure_refusals():
        state = rules.draw(state, drawn)
    how = f"seed {used_seed}" if used_seed is not None else "drawn at the table"
    if count is not None and count > len(drawn):  # `draw 30` with 6 runes in the bag draws those 6: say so
        how += f"; {count} asked, but the bag held only {len(drawn)}"
    message = (f"drew {', '.join(drawn)} ({how}) to the Initiative Track; "
               f"{plural(state.runes_in_bag(), 'rune')} left in the bag")
    entry: dict[str, object] = {"event": "draw", "runes": ", ".join(drawn), "left": state.runes_in_bag(),
                                "bag": dict(before.bag)}
    if used_seed is not None:
        entry["seed"] = used_seed
    entry["text"] = message
    info = catalog.chapter(state.chapter)
    fails = state.runes_in_bag() == 0 and bool(info.fails_on_last_rune)
    if fails:
        state, _ = last_rune(state, info.refs.get("losing", ""))
    c.record_event(before, state, entry)
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
        raise RuleError("the rune bag is empty: there is no rune to draw", file=store.display(c.root / ADVENTURE),
                        rule="draw",
                        remedy="runes come back to the bag with the Tie Breaker")
    used_seed = new_seed() if seed is None else seed
    return rules.draw_random(state.bag, count, random.Random(used_seed)), used_seed


# -------------------------------------------------------------------------------------- monsters


def resolve_monster(query: str, state: AdventureState | None, *, new: bool = False, facts: bool = False,
                    rank_flag: str = f"--rank ({RANK_HINT})") -> str:
    """The monster a name means: a catalog card, one recorded in this adventure or on the board (the
    one resolver: any case, or a unique prefix). A name nobody knows is taken as typed with `new`
    (--new), or with `facts` (its --rank given) unless it is a near miss of a known monster; else it
    is refused with the closest name (exit 1)."""
    q = query.strip()
    if not q:
        raise UsageError("a monster needs a name")
    pool = [m["name"] for m in catalog.monsters()]
    if state is not None:
        pool += list(state.ranks) + [m.name for m in state.monsters]
    return resolve(q, pool, "monster", game=True, new=new, facts=facts,
                   new_hint=f"if it is a monster drunagor does not know, give its rank once with {rank_flag}")


def _monster_facts(c: Campaign, state: AdventureState, name: str, rank: str | None
                   ) -> tuple[str, str | None, bool, int | None, bool]:
    """(name as known, rank, boss, model limit, unknown to the catalog) for a monster to place."""
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
    for m in state.monsters:  # the spelling already on the board
        if m.is_named(name):
            name = m.name
    recorded = state.rank_of(name)
    if given is not None and recorded is not None and given != recorded:
        raise UsageError(f"{name} is on record with the rank {recorded}, not {given}",
                         remedy="leave out --rank, or remove its record from adventure.toml [ranks]")
    rank = recorded or given
    if rank is None:  # a new monster (--new) with no rank: the flag is missing
        raise UsageError(f"the catalog does not know {name!r}, so its rank is unknown",
                         remedy=f"give it once with --rank ({RANK_HINT}); it is remembered for this adventure")
    return name, rank


def _siege_models(c: Campaign, state: AdventureState, name: str, limit: int | None, models: int | None
                  ) -> tuple[int | None, list[str]]:
    """Chapter 07 (RB L1237, L1245): a Siege Monster's models, asked once (--models N, remembered under
    [cards]), for "all of that Monster's models are on the board"."""
    if models is not None:
        in_range(models)
    siege = bool(catalog.chapter(state.chapter).siege)
    if models is None:
        if limit is None and siege:
            raise UsageError(f"how many {name} models are there? The book does not say, and one that cannot spawn "
                             f"because all its models are on the board activates the first {name} instead (RB L1237)",
                             remedy="count them and give --models N once; drunagor remembers it under [cards] in "
                                    "story.toml", ask="--models N", again=f"drunagor monster add {shell_word(name)}")
        return limit, []
    return record_models(c, name, models, recorded_models(c, name), limit)


def add_monster(c: Campaign, name: str, *, count: int = 1, rank: str | None = None, slot: str | int | None = None,
                boss: bool = False, new: bool = False, models: int | None = None) -> Change:
    """Monsters on the board, each in the next free status-board slot (RB L315) or `slot`; a boss takes
    none. Refused when the 12 tracks are taken or all models of its kind are out (RB L311); in chapter
    07 the latter names the first of its kind to activate instead (RB L1237)."""
    slot_no = _slot_option(slot, count)
    state = before = table_state(c)
    name, rank_, is_boss, limit, unknown = _monster_facts(c, state, resolve_monster(name, state, new=new,
                                                                                  facts=rank is not None), rank)
    with c.adventure_refusals():
        check_monster(state.chapter, name)  # chapter 07: only its Scenario Monsters (RB L1245)
    limit, said = _siege_models(c, state, name, limit, models) if not boss else (limit, [])
    is_boss = is_boss or boss
    warnings: tuple[str, ...] = ()
    if unknown and rank_ is not None:
        state = rules.record_rank(state, name, rank_)
        warnings = (f"{name} is not in the catalog: recorded with the rank {rank_} for this adventure",)
    placed: list[Monster] = []
    kin = miniatures.kin(name) if limit is not None else ()  # a Nagian Hunter is a Tidehunter's model (RB L1199)
    with c.adventure_refusals():
        for _ in range(count):
            try:
                state, monster = rules.add_monster(state, name, rank_, boss=is_boss, slot=slot_no, model_limit=limit,
                                                   kin=kin)
            except Refused as exc:
                if placed and limit is not None and exc.rule == "models (RB L311)":
                    exc = rules.models_out(before.monsters, name, limit, kin)  # the slots held now, not the staged
                if exc.rule == "models (RB L311)" and catalog.chapter(state.chapter).siege:
                    exc = _siege_activation(state, name, limit)
                raise _room_for(exc, name, len(placed), count) from None
            placed.append(monster)
    if is_boss:
        message = f"{name} (boss) on the board, with no status-board slot"
    elif count == 1:
        message = f"{name} placed in {slot_label(placed[0].slot)}"
    else:
        message = f"{count} {name} placed in {slot_text([m.slot for m in placed])}"
    message = "; ".join([*said, message])
    entry = {"event": "monster", "text": message}
    if said:
        entry["recorded"] = f"{name}: model_count"
    c.record_event(before, state, entry)
    return Change(summary=message, warnings=warnings)


def _siege_activation(state: AdventureState, name: str, limit: int | None) -> Refused:
    """RB L1237: a Siege Monster that cannot spawn because all its models are on the board activates the
    first Monster of its kind in status-board order, not the strongest."""
    first = next((m for m in state.monsters if m.is_named(name) and m.slot is not None), None)
    where = f"activate the first {name}, in {slot_label(first.slot)}, instead" if first else "nothing to activate"
    return Refused(f"{all_models_on_board(limit, name)}: it cannot spawn; {where} (RB L1237)",
                   "models (RB L1237)", "the spawn is not recorded; activate that monster at the table")


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
    state = before = table_state(c)
    gone = []
    for one in [which] if isinstance(which, str) else which:
        slot_no = parse_slot(one)
        if slot_no is None:
            one = lookup(one, {m.name: m.name for m in state.monsters}, "monster on the board", game=True)
        with c.adventure_refusals():
            state, monster = rules.remove_monster(state, slot_no if slot_no is not None else one)
        gone.append(monster)
    if len(gone) == 1:
        where = f"; {slot_label(gone[0].slot)} is free" if gone[0].slot is not None else ""
        message = f"{gone[0].name} off the board{where}"
    else:
        slots = sorted(m.slot for m in gone if m.slot is not None)
        message = (f"{', '.join(m.name for m in gone)} off the board"
                   + (f"; {slot_text(slots)} {'is' if len(slots) == 1 else 'are'} free" if slots else ""))
    ending = last_enemy_defeated(state)  # chapter 05 (RB L1205)
    if ending:
        message += f"; {ending}"
        state = ended(state, ending.removesuffix(", then drunagor adventure end --won"))
    c.record_event(before, state, {"event": "monster", "text": message})
    return Change(summary=message)

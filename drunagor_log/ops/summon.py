"""Summons at the table: the Dreadful Raid (SPEC 5.5, RB L277-315) and Monster Battalions (SPEC 5.6,
RB L1311-1321). With an adventure under way they resolve against adventure.toml and stage the board
after them; with none, against the flags a party gives (`RaidFlags`, `on_board`), writing nothing.

The Change they return: `data` is the `--json` object, `notes` the steps a person reads (the first
is the heading), `summary` the line of a write (empty when nothing is written: a dry run, or no
adventure under way).

`raid` must answer at once (SPEC 7): it reads story.toml and adventure.toml only (never the heroes'
logs), writes adventure.toml without tomlkit, reads none of the catalog's data and imports no fractions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .. import catalog
from ..errors import RuleError, UsageError
from ..model.adventure import STATUS_BOARD_TRACKS, Pile, pile_key, slot_label
from ..rules import miniatures
from ..rules import raid as rules
from ..rules.adventure import record_rank
from ..rules.battalion import resolve_battalion
from ..rules.board import next_free_slot
from ..rules.chapters import allowed_monsters, check_monster
from ..rules.raid import chance_text, manifest, next_raid, no_summon_reason, raid_share, resolve_raid
from ..text import shell_word
from ..values import record, replace
from . import Change, Line
from .board import new_seed, resolve_monster
from .losing import table_state
from .models import battalion_models, recorded_models
from .typed import canonical, colours
from .words import chapter_list, pile_runes, plural, slot_text

if TYPE_CHECKING:
    from ..campaign import Campaign
    from ..model.adventure import AdventureState
    from ..rules.battalion import BattalionResult
    from ..rules.raid import RaidResult


@record
class RaidFlags:
    """The table from flags, for a party that does not track the board (SPEC 4): the card's face, the
    heroes, the Piles of Runes ('red,blue' two Piles, 'red+blue' one, 'none'), the monsters on the board,
    the models of the raid's minion among them, and that minion."""

    face: str | None = None
    heroes: int | None = None
    piles: str | None = None
    monsters: int | None = None
    minions: int | None = None
    minion: str | None = None

    def given(self) -> list[str]:
        """The flags given, as the command line spells them."""
        names = {"face": "--face", "heroes": "--heroes", "piles": "--piles", "monsters": "--monsters",
                 "minions": "--minions", "minion": "--minion"}
        return [flag for key, flag in names.items() if getattr(self, key) is not None]


@record
class RaidSetup:
    """What the raid resolves against, from adventure.toml or from the flags."""

    state: AdventureState | None  # None: from the flags
    face: str
    heroes: int
    piles: tuple[Pile, ...]
    minion: str
    bag: Mapping[str, int]
    on_board: int
    minion_models: int
    limit: int
    rank: str

    @property
    def colours(self) -> tuple[str, ...]:
        return tuple(self.bag)


# ------------------------------------------------------------------------------------------ raid


def raid(c: Campaign, *, rune: str | None = None, seed: int | None = None, dry_run: bool = False,
         flags: RaidFlags | None = None) -> Change:
    """Resolve the Dreadful Raid: face check, manifest a rune (`rune` drawn at the table, or at random
    with `seed`), summon the raid party, flip the card. Stages the board, the new face and a log line
    unless `dry_run` (or no adventure is under way)."""
    flags = _named(c, flags or RaidFlags())
    if seed is not None and rune is not None:
        raise UsageError("--seed replays a random draw; --rune records the rune drawn at the table",
                         remedy="give one of them")
    if c.adventure_file is not None and flags.given():
        raise UsageError(f"an adventure is under way: {', '.join(flags.given())} would contradict adventure.toml",
                         file=c.adventure_file.shown,
                         remedy="leave them out: adventure.toml decides the face, heroes, Piles and board")
    setup = _tracked_setup(c, dry_run) if c.adventure_file is not None else _flags_setup(c, flags)
    drawn, used_seed = _manifested(c, setup, rune, seed)
    state = setup.state
    board = {"board": state.monsters} if state is not None else {"monsters_on_board": setup.on_board,
                                                                  "minion_models_on_board": setup.minion_models}
    result = resolve_raid(face=setup.face, heroes=setup.heroes, minion=setup.minion, piles=setup.piles,
                          rune=drawn, models_limit=setup.limit, minion_rank=setup.rank,
                          runes_in_bag=sum(setup.bag.values()), **board)
    data: dict[str, Any] = result.as_json(used_seed)
    data["dry_run"] = dry_run or state is None
    data["chapter"] = state.chapter if state is not None else None
    notes = raid_lines(result, c.story.leader, used_seed, rune is not None and drawn is not None, data["chapter"],
                       state is not None, bag_note=state is None and drawn is not None and rune is None)
    summary = raid_summary(result)
    warnings: tuple[str, ...] = ()
    if state is None or dry_run:
        notes.append(nothing_written(state is not None))
        return Change(notes=tuple(notes), warnings=warnings, data=data)
    entry: dict[str, object] = {"event": "raid", "face": result.face}
    if result.rune is not None:
        entry["rune"] = result.rune
    entry.update(_raid_facts(state, result))
    if used_seed is not None:
        entry["seed"] = used_seed
    elif result.rune is not None:
        entry["physical"] = True
    entry["text"] = summary
    assert state.raid is not None
    c.record_event(state, state.replace(monsters=result.board, raid=state.raid.with_face(result.next_face)), entry)
    seed_note = f" (seed {used_seed})" if used_seed is not None else ""
    return Change(summary=f"raid: {summary}{seed_note}", notes=tuple(notes), warnings=warnings, data=data)


def _raid_facts(state: AdventureState, result: RaidResult) -> dict[str, object]:
    """A raid's facts beside its sentence (SPEC 12): the bag and the Piles before it, the chance `odds` gave
    that it summons (the same counting, rules/raid.raid_share), the minions placed and those that failed."""
    share = raid_share(**next_raid(state))
    return {"bag": dict(state.bag), "piles": [{"id": p.id, "runes": {c: n for c, n in p.runes.items() if n}}
                                              for p in state.piles],
            "chance": chance_text(share.summons, share.total),
            "placed": [s.name for s in result.summoned] if result.summoned else [result.minion] * result.placed,
            "failed": [result.minion] * result.failed}


def _named(c: Campaign, flags: RaidFlags) -> RaidFlags:
    """The flags with the names they give resolved (a mistyped colour or minion is said first, even
    where the flag is refused)."""
    if flags.piles is not None:
        _untracked_piles(flags.piles, tuple(full_bag(c)))
    if flags.minion is not None:
        return replace(flags, minion=resolve_monster(flags.minion, None))
    return flags


def _tracked_setup(c: Campaign, dry_run: bool) -> RaidSetup:
    """The raid from adventure.toml: the chapter's Dreadful Raid card, the party, the Piles, the board."""
    state = table_state(c, dry_run=dry_run)
    shown = c.adventure_file.shown if c.adventure_file is not None else None
    if state.raid is None:
        only = allowed_monsters(state.chapter)
        raise RuleError(f"chapter {state.chapter} has no Dreadful Raid card"
                        + (f", and it uses only its Scenario Monsters (RB L1245): {', '.join(only)}" if only else ""),
                        file=shown, rule="raid", remedy="only chapters " + chapter_list(
                            lambda ch: ch.raid is not None and ch.raid.card == "Dreadful Raid") + " have one")
    if state.raid.card != "Dreadful Raid":
        raise RuleError(f"the {state.raid.card} card resolves by its own text, which the rulebook does not give "
                        "(chapter 04, RB L1171)", file=shown, rule="raid",
                        remedy="resolve it from the card; record the monsters it places with `drunagor monster add`, "
                               "then its flip with `drunagor adventure event naval-raid-flip`")
    card = state.raid
    return RaidSetup(state=state, face=card.face, heroes=state.heroes, piles=state.piles, minion=card.minions[0],
                     bag=state.bag, on_board=len(state.monsters), minion_models=0, limit=card.model_limit or 12,
                     rank=card.rank)


def _flags_setup(c: Campaign, flags: RaidFlags) -> RaidSetup:
    """The raid from the flags: --monsters is required, as face A summons only on an empty board (RB
    L284): a default of 0 would decide the raid for the party."""
    missing = [flag for flag, value in (("--face", flags.face), ("--heroes", flags.heroes), ("--piles", flags.piles),
                                        ("--monsters", flags.monsters)) if value is None]
    if missing or flags.face is None or flags.heroes is None or flags.piles is None or flags.monsters is None:
        raise UsageError(f"no adventure under way: the raid needs {', '.join(missing)}",
                         remedy="e.g. drunagor raid --face B --heroes 4 --piles red,blue --monsters 3; "
                                "or start the adventure (drunagor adventure start)")
    try:
        face = rules.canonical_face(flags.face)
        rules.raid_party_size(flags.heroes)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    bag = full_bag(c)
    piles = _untracked_piles(flags.piles, tuple(bag))
    on_board = tracks_taken(flags.monsters)
    minion = flags.minion or _next_minion(c)
    limit, rank = _untracked_limit(c, minion)
    if flags.minions is not None:
        # A minion on the board is a monster on the board, and the box holds so many models (RB L311).
        most = min(limit, on_board)
        if not 0 <= flags.minions <= most:
            raise UsageError(f"--minions {flags.minions}: a minion on the board is one of the {on_board} monsters "
                             f"on the board, and {minion} has {limit} models (RB L311)",
                             remedy=f"give --minions from 0 to {most}")
    return RaidSetup(state=None, face=face, heroes=flags.heroes, piles=piles, minion=minion, bag=bag,
                     on_board=on_board, minion_models=flags.minions or 0, limit=limit, rank=rank)


def _manifested(c: Campaign, setup: RaidSetup, rune: str | None, seed: int | None) -> tuple[str | None, int | None]:
    """The rune manifested (RB L292) and the seed of a random draw; (None, None) when no rune can matter
    (face A with monsters on the board, or no Pile of Runes: RB L284, L297)."""
    import random

    reason = no_summon_reason(setup.face, monsters_on_board=setup.on_board, piles=setup.piles,
                              runes_in_bag=sum(setup.bag.values()))
    if rune is not None:
        drawn = colours(rune, setup.colours)
        if len(drawn) != 1:
            raise UsageError("--rune names the one rune manifested", remedy="e.g. --rune red")
        if reason is None and setup.state is not None and setup.bag.get(drawn[0], 0) == 0:
            # As `draw --rune`: the rune recorded must be one the bag holds (RB L292).
            raise RuleError(f"the rune bag holds no {drawn[0]} rune ({pile_runes(setup.bag)})",
                            file=c.adventure_file.shown if c.adventure_file is not None else None,
                            rule="raid (RB L292)", remedy="record the rune you really drew")
        return (drawn[0] if reason is None else None), None
    if reason is not None:
        return None, None
    used_seed = new_seed() if seed is None else seed
    return manifest(setup.bag, random.Random(used_seed)), used_seed


def raid_summary(result: RaidResult) -> str:
    """One line: what the raid did, and the face it leaves up."""
    if result.placed:
        slots = [s.slot for s in result.summoned]
        what = (f"{result.placed} {result.minion} placed" + (f" ({slot_text(slots)})" if slots else "")
                + (f" by rune {result.rune}" if result.rune else ""))
    else:
        what = f"nothing summoned ({result.reason})" if result.reason else "nothing summoned"
    if result.failed:
        targets = [f"{n} in {slot_label(s)}" if n and s else (n or "nothing") for n, s in
                   zip(result.activations, result.activation_slots, strict=False)]
        unique = list(dict.fromkeys(targets))
        who = ", ".join(unique) if len(unique) > 1 or result.failed == 1 else f"{unique[0]}, {result.failed} times"
        what += f"; {result.failed} failed to be summoned: activate {who}"
    return f"{what}; the card now shows face {result.next_face}"


def raid_lines(result: RaidResult, leader: str | None, seed: int | None, physical: bool, chapter: str | None,
               tracked: bool, bag_note: bool = False) -> list[Line]:
    """The heading and the four steps, each with the fact that decided it."""
    where = f"chapter {chapter}, " if chapter else ""
    head = f"Dreadful Raid: {where}{plural(result.heroes, 'hero', 'heroes')}, face {result.face}"
    if seed is not None:
        head += f"; rune drawn with seed {seed} (--seed {seed} replays it)"
    elif physical:
        head += "; rune drawn at the table"
    if not tracked:
        head += "; from the flags, no adventure under way"
    lines = [Line(head, "bold")]
    for step in result.steps:
        fact = step.fact
        if leader and "the Party Leader picks" in fact:
            fact = fact.replace("the Party Leader picks", f"the Party Leader ({leader}) picks")
        lines += [Line(f"{step.number}. {step.title} ({step.rule})"), Line(f"   {fact}")]
    if bag_note:
        lines.append(Line("   (the rune was drawn from the whole bag, rules.rune_bag: the runes on the track are not "
                          "tracked; --rune records the rune drawn at the table)"))
    return lines


def nothing_written(tracked: bool) -> Line:
    return Line("dry run: nothing written" if tracked else "no adventure under way: nothing written")


def full_bag(c: Campaign) -> dict[str, int]:
    return dict(c.story.rules.rune_bag) or dict(catalog.DEFAULT_RUNE_BAG)


def tracks_taken(monsters: int) -> int:
    """--monsters of a raid or battalion from flags: 0 to 12, the Health Tracks of the Monster Status board."""
    if not 0 <= monsters <= STATUS_BOARD_TRACKS:
        raise UsageError(f"--monsters {monsters}: the Monster Status board has {STATUS_BOARD_TRACKS} Health Tracks "
                         f"(RB L311), so 0 to {STATUS_BOARD_TRACKS} monsters take one",
                         remedy=f"give --monsters from 0 to {STATUS_BOARD_TRACKS}")
    return monsters


def _untracked_piles(text: str, known: tuple[str, ...]) -> tuple[Pile, ...]:
    """--piles 'red,blue' (two Piles) or 'red+blue,gray' (a Pile holding red and blue, one gray);
    'none' for no Pile on the board."""
    if text.strip().casefold() in ("", "none", "0", "-"):
        return ()
    parts = [p for p in text.split(",") if p.strip()]
    return tuple(Pile(str(i + 1), {c: 1 for c in colours(part.replace("+", ","), known)})
                 for i, part in enumerate(parts))


def _next_minion(c: Campaign) -> str:
    nxt = c.story.next_chapter()
    raid = catalog.chapter(nxt).raid if nxt else None
    return raid.minions[0] if raid is not None and len(raid.minions) == 1 else "Minion"


def _untracked_limit(c: Campaign, minion: str) -> tuple[int, str]:
    """(models in the box, rank) of the raid's minion: the catalog's, or the party's recorded count."""
    entry = catalog.monster(minion) or {}
    rank = str(entry["rank"]) if entry.get("rank") in ("Minion", "Scenario") else "Minion"
    limit: int | None = entry.get("model_count")
    for name in (minion, entry.get("models")):
        if limit is None and name:
            limit = recorded_models(c, name)
    if limit is None:
        limit = catalog.MINION_MODELS if rank == "Minion" else 12
    return limit, rank


# ------------------------------------------------------------------------------------- battalion


def battalion(c: Campaign, monsters: Sequence[str], *, near: str | None = None, siege: bool = False,
              dry_run: bool = False, ranks: Sequence[str] | Mapping[str, str] | None = None,
              on_board: int | None = None, new: bool = False, models: Sequence[str] = ()) -> Change:
    """Summon a Monster Battalion NEAR a reference point: place what fits, the rest activate monsters
    (RB L1311-1321; siege, RB L1237). `ranks` gives monsters the catalog does not know ("NAME=RANK");
    `on_board` is the monsters on the board when no adventure is under way (then required); `new`: a
    monster name drunagor does not know is meant as typed (--new); `models`: --models N or NAME=N, a
    kind's model count, asked once in chapter 07 (ops/models.py)."""
    _check_board_flag(c, on_board)
    given = rank_options(ranks)
    state = table_state(c, dry_run=dry_run) if c.adventure_file is not None else None
    names, known_ranks, limits, new_ranks = _battalion_monsters(c, state, monsters, given, new)
    if state is not None:
        with c.adventure_refusals():
            for name in dict.fromkeys(names):
                check_monster(state.chapter, name)  # chapter 07: only its Scenario Monsters (RB L1245)
    use_siege = siege or (state is not None and catalog.chapter(state.chapter).siege)
    said = battalion_models(c, state, names, limits, models, siege=use_siege, dry_run=dry_run)
    kin = {name: miniatures.kin(name) for name in limits}  # a Nagian Hunter is a Tidehunter's model (RB L1199)
    try:
        board: dict[str, Any] = {"board": state.monsters} if state is not None else {"monsters_on_board": on_board}
        result = resolve_battalion(names, ranks=known_ranks, models_limits=limits, siege=use_siege, kin=kin, **board)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    reference = _reference(near, state)
    data = result.as_json()
    data["near"] = reference
    data["dry_run"] = dry_run or state is None
    notes = battalion_lines(result, reference, state is not None)
    if state is None or dry_run:
        notes.append(nothing_written(state is not None))
        return Change(notes=tuple(notes), data=data)

    after = state.replace(monsters=result.board)
    for name, rank in new_ranks.items():
        after = record_rank(after, name, rank)
    summary = battalion_summary(result, reference)
    entry: dict[str, object] = {"event": "battalion", "placed": list(result.placed),
                                "not_placed": list(result.not_placed), "text": "; ".join([*said, summary])}
    if said:
        entry["recorded"] = "; ".join(f"{line.partition(':')[0]}: model_count" for line in said)
    c.record_event(state, after, entry)
    return Change(summary="; ".join([*said, f"battalion: {summary}"]), notes=tuple(notes), data=data)


def _check_board_flag(c: Campaign, on_board: int | None) -> None:
    """--monsters contradicts adventure.toml, and is required without one: the board decides what fits
    (RB L1319), so there is no default of an empty board."""
    if c.adventure_file is not None:
        if on_board is not None:
            raise UsageError("an adventure is under way: --monsters would contradict adventure.toml",
                             file=c.adventure_file.shown, remedy="leave it out: adventure.toml holds the board")
        return
    if on_board is None:
        raise UsageError("no adventure under way: the battalion needs --monsters, the monsters on the board "
                         "(status-board tracks taken)",
                         remedy='e.g. drunagor battalion "Gremlin Horde" --monsters 11; or start the adventure '
                                "(drunagor adventure start)")
    tracks_taken(on_board)


def rank_options(values: Sequence[str] | Mapping[str, str] | None) -> dict[str, str]:
    """--rank NAME=RANK (repeated), or a mapping: {name: rank as the rulebook spells it}."""
    if isinstance(values, Mapping):
        return {name.strip(): canonical(rank) or "" for name, rank in values.items()}
    ranks: dict[str, str] = {}
    for value in values or []:
        name, sep, rank = value.rpartition("=")
        if not sep or not name.strip():
            raise UsageError(f"--rank {value!r}: write NAME=RANK", remedy='e.g. --rank "Vile Spawn=Scenario"')
        ranks[name.strip()] = canonical(rank) or ""
    return ranks


def _battalion_monsters(c: Campaign, state: AdventureState | None, queries: Sequence[str], given: dict[str, str],
                        new: bool = False) -> tuple[list[str], dict[str, str], dict[str, int], dict[str, str]]:
    """(names, ranks, model limits, ranks to record) of the monsters summoned."""
    names: list[str] = []
    ranks: dict[str, str] = {}
    limits: dict[str, int] = {}
    new_ranks: dict[str, str] = {}
    for query in queries:
        ranked = any(k.casefold() == query.strip().casefold() for k in given)  # its --rank: a fact flag
        name = resolve_monster(query, state, new=new, facts=ranked,
                               rank_flag=f'--rank {shell_word(query.strip() + "=RANK")} (Overlord ... Minion)')
        rank, new_rank = _battalion_rank(state, name, given)
        if new_rank:
            new_ranks[name] = rank or ""
        if rank:
            ranks[name] = rank
        limit = _battalion_limit(c, state, name)
        if limit is not None:
            limits[name] = limit
        names.append(name)
    return names, ranks, limits, new_ranks


def _battalion_rank(state: AdventureState | None, name: str, given: dict[str, str]) -> tuple[str | None, bool]:
    """The monster's rank (catalog, this adventure's record, or --rank) and whether --rank is new."""
    known = (catalog.monster(name) or {}).get("rank") or (state.rank_of(name) if state is not None else None)
    chosen = next((v for k, v in given.items() if k.casefold() == name.casefold()), None)
    if known is None and chosen is None and state is not None:
        raise UsageError(f"the catalog does not know {name!r}, so its rank is unknown",
                         remedy=f'give it with --rank {shell_word(name + "=RANK")} (Overlord ... Minion)')
    if known is not None and chosen is not None and known != chosen:
        raise UsageError(f"{name} has the rank {known}, not {chosen}", remedy="leave out its --rank")
    return known or chosen, known is None and chosen is not None


def _battalion_limit(c: Campaign, state: AdventureState | None, name: str) -> int | None:
    limit = (catalog.monster(name) or {}).get("model_count")
    if limit is None:
        limit = recorded_models(c, name)
    if limit is None and state is not None and state.raid is not None and any(
            name.casefold() == m.casefold() for m in state.raid.minions):
        limit = state.raid.model_limit
    return limit


def _reference(near: str | None, state: AdventureState | None) -> str | None:
    if near is None:
        return None
    text = near.strip()
    pid = pile_key(text)  # "Pile 1", "pile-1", "1"... all name Pile 1, and are echoed so
    if state is not None and any(p.id == pid for p in state.piles):
        return f"Pile {pid}"
    return text


def battalion_summary(result: BattalionResult, reference: str | None) -> str:
    parts = []
    where = f" near {reference}" if reference else ""
    if result.placements:
        parts.append(", ".join(f"{p.name} in {slot_label(p.slot)}" for p in result.placements) + " placed" + where)
    elif result.placed:
        parts.append(f"{plural(len(result.placed), 'monster')} placed{where}")
    else:
        parts.append("nothing placed")
    if result.not_placed:
        kind = "activation" if result.siege else '"Activate a Monster" command'
        parts.append(f"{len(result.not_placed)} not placed: {plural(result.activations, kind)}")
    return "; ".join(parts)


def battalion_lines(result: BattalionResult, reference: str | None, tracked: bool) -> list[Line]:
    """The heading, what is placed, what is not and why, and the activations."""
    n = len(result.placed) + len(result.not_placed)
    where = f" NEAR {reference}" if reference else " NEAR the reference point"
    lines = [Line(f"Monster Battalion: {plural(n, 'monster')}{where}"
                  + ("" if tracked else "; from the flags, no adventure under way"), "bold")]
    if result.placed:
        lines.append(Line("Place each within Range 1 of the reference, in an empty area where possible "
                          "(RB L1316-1318):"))
        if result.placements:
            lines += [Line(f"  {p.name} in {slot_label(p.slot)}") for p in result.placements]
        else:
            lines += [Line(f"  {name} (on the next free status-board base)") for name in result.placed]
    if result.not_placed:
        lines.append(Line(f"Not placed ({_not_placed_cause(result)}): {', '.join(result.not_placed)}"))
    if result.siege and result.not_placed:
        lines.append(Line("Siege of Everedge: each activates the first monster of its own kind instead (RB L1237):"))
        lines += [Line(f"  {t.not_placed}: " + (f"activate {t.target} in {slot_label(t.slot)}" if t.target
                                                 else f"no {t.not_placed} on the board: nothing to activate"))
                  for t in result.siege_targets]
    elif result.activations:
        lines += _activation_lines(result)
    return lines


def _not_placed_cause(result: BattalionResult) -> str:
    full = result.board is not None and next_free_slot(result.board) is None
    return ("all 12 status-board tracks are taken, RB L1319" if full or result.board is None
            else "all its models are on the board, RB L311")


def _activation_lines(result: BattalionResult) -> list[Line]:
    lines = [Line(f"{plural(result.activations, 'Activate a Monster command')} (2 per monster not placed, "
                  "RB L1319); never the same monster twice in a row (RB L1321); the party may choose (RB L1320).")]
    if result.order:
        lines.append(Line("Proposed order:"))
        lines += [Line(f"  {i}. {name}" + (f" in {slot_label(slot)}" if slot else ""))
                  for i, (name, slot) in enumerate(zip(result.order, result.order_slots, strict=False), 1)]
    if result.unused:
        lines.append(Line(f"{plural(result.unused, 'command')} cannot activate anything: "
                          + ("only one non-boss monster is on the board, and it cannot go twice in a row."
                             if result.order else "no non-boss monster is on the board.")))
    return lines


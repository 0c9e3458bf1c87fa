"""The moves of the table over the adventure under way (`AdventureState`, model/adventure.py).

Pure: no files, no terminal, standard library only. The file's format (reading it, writing it) is the
store's: drunagor_log/store/adventure.py.

Runes are counted per colour in three places: the bag, the Initiative Track and the Piles of Runes on
the board. Every operation here moves runes between those three, so their sum per colour stays the
campaign's rune bag (`rules.rune_bag` in story.toml); `drunagor check` verifies it.

Operations return a new state (and what they decided); a move the rules do not allow raises `Refused`
(errors.py, exit 1) with the rulebook lines and what would make it legal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..errors import Refused
from ..model.adventure import (
    STATUS_BOARD_TRACKS,
    UNDOABLE,
    AdventureState,
    Monster,
    Pile,
    RaidCard,
    canonical_rank,
    slot_label,
)
from ..text import plural
from ..values import DIGITS, is_digits
from .board import all_models_on_board, models_on_board, next_free_slot

#: RB L1100, L1130, L1197, L1269: Tie Breaker returns "6 minus the number of Heroes" runes.
TIE_BREAKER_BASE = 6

def changed_fields(before: AdventureState, after: AdventureState) -> tuple[str, ...]:
    """The fields a table event changed, of those `adventure undo` restores."""
    return tuple(name for name in UNDOABLE if getattr(before, name) != getattr(after, name))


# ------------------------------------------------------------------------------------ operations


def new_adventure(*, chapter: str, heroes: int, bag: Mapping[str, int], stirring_darkness: int | None,
                  raid: RaidCard | None, log_text: str) -> AdventureState:
    """A chapter's start: the full bag, Stirring Darkness moved to the Initiative Track (that many
    runes of each colour, e.g. RB L1068), the raid card face A up (e.g. RB L1102), an empty board."""
    _check_heroes(heroes)
    full = {c: n for c, n in bag.items()}
    track = {c: 0 for c in full}
    if stirring_darkness:
        short = [c for c, n in full.items() if n < stirring_darkness]
        if short:
            raise Refused(f"Stirring Darkness takes {stirring_darkness} runes of each colour, but the bag "
                          f"holds fewer {', '.join(short)}", "stirring-darkness",
                          "record the runes in your bag: drunagor rules set --rune-bag red=N,...")
        for colour in full:
            full[colour] -= stirring_darkness
            track[colour] += stirring_darkness
    return AdventureState(chapter=chapter, heroes=heroes, bag=full, track=track, raid=raid,
                          log=({"event": "start", "text": log_text},))


def _check_heroes(heroes: int) -> None:
    if isinstance(heroes, bool) or not isinstance(heroes, int) or not 1 <= heroes <= 5:
        raise Refused(f"an adventure is played by 1 to 5 heroes, not {heroes!r}", "heroes (RB L941-943)",
                      "give --heroes from 1 to 5")


def counts_of(colours: Iterable[str]) -> dict[str, int]:
    """["red", "red", "blue"] -> {"red": 2, "blue": 1}, in first-seen order."""
    counts: dict[str, int] = {}
    for colour in colours:
        counts[colour] = counts.get(colour, 0) + 1
    return counts


def add_pile(state: AdventureState, runes: Sequence[str] | None = None
             ) -> tuple[AdventureState, Pile, tuple[str, ...]]:
    """Put a Pile of Runes on the board, its runes taken from the Initiative Track.

    Without `runes`, the Darkness Nodes rule: "taking 1 Rune of each color from the Initiative Track"
    (RB L1098). A colour the track does not hold cannot be taken: the pile is made without it and the
    colour is returned in the third value, so the caller can say so. With `runes`, exactly those runes,
    each of which must be on the track.
    """
    track = dict(state.track)
    taken: dict[str, int] = {}
    missing: list[str] = []
    if runes is None:
        for colour in state.colours:
            if track[colour] > 0:
                track[colour] -= 1
                taken[colour] = 1
            else:
                missing.append(colour)
        if not taken:
            raise Refused("the Initiative Track holds no rune to build a Pile of Runes from",
                          "darkness-nodes (RB L1098)",
                          "draw runes to the track first, or give the Pile's runes with --runes")
    else:
        wanted = counts_of(runes)
        if not wanted:
            raise Refused("a Pile of Runes needs at least one rune", "pile", "give --runes red,blue,...")
        for colour, count in wanted.items():
            if track.get(colour, 0) < count:
                raise Refused(f"the Initiative Track holds {track.get(colour, 0)} {colour} rune"
                              f"{'' if track.get(colour, 0) == 1 else 's'}, not the {count} this Pile needs",
                              "darkness-nodes (RB L1098)", "a Pile of Runes is built from the runes on the track")
            track[colour] -= count
            taken[colour] = count
    pile = Pile(_next_pile_id(state.piles), taken)
    return state.replace(track=track, piles=state.piles + (pile,)), pile, tuple(missing)


def _next_pile_id(piles: Sequence[Pile]) -> str:
    ids = [int(p.id) for p in piles if is_digits(p.id) and len(p.id) <= DIGITS]  # not '²', which isdigit() takes
    return str(max(ids, default=0) + 1)


def tie_breaker_runes(heroes: int) -> int:
    """RB L1100: "a number of Runes of their choice from that pile equal to 6 minus the number of
    Heroes"."""
    return TIE_BREAKER_BASE - heroes


def tiebreak(state: AdventureState, pile_id: str, chosen: Sequence[str] | None = None, *, rule: str = "RB L1100"
             ) -> tuple[AdventureState, dict[str, int], bool]:
    """Tie Breaker (RB L1100): return (6 - heroes) runes of the party's choice from the Pile to the bag.

    A Pile that holds no more than that is returned whole, and `chosen` may be left out. Returns the new
    state, the runes returned, and whether the Pile left the board (emptied). `rule`: the chapter's own
    Tie Breaker line (RB L1100, L1130, L1197, L1269), cited by a refusal."""
    pile = state.pile(pile_id)
    due = tie_breaker_runes(state.heroes)
    held = sum(pile.runes.values())
    takes = min(due, held)
    if chosen is None:
        if held > due:
            raise Refused(f"Pile {pile.id} holds {held} runes ({_runes_text(pile.runes)}); the Tie Breaker "
                          f"returns {due} of the party's choice (6 - {plural(state.heroes, 'hero', 'heroes')})",
                          f"tie-breaker ({rule})", f"choose {due} with --runes COLOUR,...")
        returned = {c: n for c, n in pile.runes.items() if n}
    else:
        returned = counts_of(chosen)
        if sum(returned.values()) != takes:
            raise Refused(f"the Tie Breaker returns {takes} rune{'s' if takes != 1 else ''} from Pile "
                          f"{pile.id} (6 - {plural(state.heroes, 'hero', 'heroes')}"
                          f"{'' if takes == due else f', and the Pile holds only {held}'}), "
                          f"not {sum(returned.values())}", f"tie-breaker ({rule})",
                          f"give exactly {takes} with --runes")
        for colour, count in returned.items():
            if pile.runes.get(colour, 0) < count:
                raise Refused(f"Pile {pile.id} holds {pile.runes.get(colour, 0)} {colour} "
                              f"({_runes_text(pile.runes)})", f"tie-breaker ({rule})",
                              "choose runes that are in that Pile")
    left = {c: n - returned.get(c, 0) for c, n in pile.runes.items() if n - returned.get(c, 0) > 0}
    bag = dict(state.bag)
    for colour, count in returned.items():
        bag[colour] = bag.get(colour, 0) + count
    removed = not left
    piles = tuple(p for p in state.piles if p.id != pile.id) if removed else tuple(
        Pile(p.id, left) if p.id == pile.id else p for p in state.piles)
    return state.replace(bag=bag, piles=piles), returned, removed


def remove_pile(state: AdventureState, pile_id: str) -> tuple[AdventureState, Pile]:
    """A Pile leaves the board with its runes going to the Initiative Track (the Soul Harvester's
    advance, RB L1147, L1149)."""
    pile = state.pile(pile_id)
    track = dict(state.track)
    for colour, count in pile.runes.items():
        track[colour] = track.get(colour, 0) + count
    return state.replace(track=track, piles=tuple(p for p in state.piles if p.id != pile.id)), pile


def draw_random(bag: Mapping[str, int], count: int, rng) -> list[str]:
    """Draw `count` runes one at a time from the bag, without putting them back. Every rune in the bag
    is equally likely; colours are taken in sorted order so the same seed gives the same runes whatever
    order the bag is written in. Stops early when the bag runs out."""
    left = {c: n for c, n in bag.items() if n > 0}
    drawn: list[str] = []
    for _ in range(count):
        total = sum(left.values())
        if total == 0:
            break
        pick = rng.randrange(total)
        for colour in sorted(left):
            if pick < left[colour]:
                drawn.append(colour)
                left[colour] -= 1
                if not left[colour]:
                    del left[colour]
                break
            pick -= left[colour]
    return drawn


def draw(state: AdventureState, colours: Sequence[str]) -> AdventureState:
    """Runes drawn from the bag and placed on the Initiative Track (e.g. Growing Influence, RB L1062)."""
    bag, track = dict(state.bag), dict(state.track)
    for colour in colours:
        if bag.get(colour, 0) <= 0:
            held, asked = state.bag.get(colour, 0), list(colours).count(colour)
            what = (f"holds only {held} {colour}, not the {asked} drawn" if held else f"holds no {colour} rune")
            raise Refused(f"the rune bag {what} ({_runes_text(state.bag) or 'it is empty'})",
                          "draw", "record the rune you really drew")
        bag[colour] -= 1
        track[colour] = track.get(colour, 0) + 1
    return state.replace(bag=bag, track=track)


def models_out(monsters: Sequence[Monster], name: str, model_limit: int, kin: Sequence[str] = ()) -> Refused:
    """All `model_limit` models of `name` are out (RB L311): the refusal, naming the slots `monsters`
    hold (by slot: `monster remove NAME` is refused while several monsters share the name). A `kin`
    on the board plays the same miniatures (RB L1199): its slots are named too."""
    held = []
    for who in (name, *kin):
        slots = [str(m.slot) for m in monsters if m.is_named(who) and m.slot is not None]
        if slots:
            held.append(f"{who} holds slot{'s' if len(slots) > 1 else ''} {', '.join(slots)}")
    shared = [who for who in kin if any(m.is_named(who) for m in monsters)]
    return Refused(all_models_on_board(model_limit, name)
                   + (f" ({', '.join(shared)} plays the same miniatures)" if shared else ""), "models (RB L311)",
                   "remove a defeated one first: drunagor monster remove SLOT" + (f" ({'; '.join(held)})" if held
                                                                                   else ""))


def add_monster(state: AdventureState, name: str, rank: str | None, *, boss: bool = False,
                slot: int | None = None, model_limit: int | None = None, kin: Sequence[str] = ()
                ) -> tuple[AdventureState, Monster]:
    """Place one monster on the board, in the next free status-board slot (RB L315) or `slot`.

    A boss holds no slot. RB L311: no monster may be placed when all 12 Health Tracks are taken, nor a
    model beyond the `model_limit` of its kind (the `kin` played with its miniatures count, RB L1199)."""
    monsters = state.monsters
    if model_limit is not None and models_on_board(monsters, name, kin) >= model_limit:
        raise models_out(monsters, name, model_limit, kin)
    if boss:
        if slot is not None:
            raise Refused(f"{name} is a boss: a boss holds no status-board slot", "status-board",
                          "leave out --slot")
        monster = Monster(name, rank, None, boss=True)
    else:
        if slot is None:
            slot = next_free_slot(monsters)
            if slot is None:
                raise Refused(f"all {STATUS_BOARD_TRACKS} Health Tracks of the Monster Status board are "
                              f"taken: no new monster may be placed", "status-board (RB L311)",
                              "remove a defeated monster first (drunagor monster remove SLOT)")
        else:
            if isinstance(slot, bool) or not isinstance(slot, int) or not 1 <= slot <= STATUS_BOARD_TRACKS:
                raise Refused(f"status-board slots are 1 to {STATUS_BOARD_TRACKS}, not {slot!r}",
                              "status-board (RB L315)", "give --slot from 1 to 12")
            holder = next((m for m in monsters if m.slot == slot), None)
            if holder is not None:
                raise Refused(f"{slot_label(slot)} is taken by {holder.name}", "status-board (RB L315)",
                              "leave out --slot to take the next free one, or free that slot first")
        monster = Monster(name, rank, slot)
    return state.replace(monsters=monsters + (monster,)), monster


def remove_monster(state: AdventureState, which: str | int) -> tuple[AdventureState, Monster]:
    """Take a monster off the board, by status-board slot (a number) or by name. A name that several
    monsters on the board share is refused: their slots differ, and slots decide activations."""
    monsters = state.monsters
    if isinstance(which, int):
        found = [m for m in monsters if m.slot == which]
        if not found:
            raise Refused(f"no monster holds {slot_label(which) if 1 <= which <= 12 else f'slot {which}'}",
                          "status-board", "see the slots with `drunagor adventure show`")
    else:
        found = [m for m in monsters if m.is_named(which)]
        if not found:
            on_board = ", ".join(dict.fromkeys(m.name for m in monsters)) or "none"
            raise Refused(f"no {which} on the board (on the board: {on_board})", "status-board",
                          "name a monster on the board, or give its slot")
        if len(found) > 1:
            slots = ", ".join(str(m.slot) if m.slot is not None else "boss" for m in found)
            raise Refused(f"{len(found)} {found[0].name} are on the board (slots {slots})", "status-board",
                          "give the slot of the one that leaves")
    gone = found[0]
    rest = list(monsters)
    rest.remove(gone)
    return state.replace(monsters=tuple(rest)), gone


def record_rank(state: AdventureState, name: str, rank: str) -> AdventureState:
    """Remember the rank the party gave for a monster the catalog does not know."""
    ranks = {k: v for k, v in state.ranks.items() if k.casefold() != name.casefold()}
    ranks[name] = canonical_rank(rank)
    return state.replace(ranks=ranks)


def with_log(state: AdventureState, entry: Mapping[str, object]) -> AdventureState:
    return state.replace(log=state.log + (dict(entry),))


def _runes_text(counts: Mapping[str, int]) -> str:
    """'red, blue, 2 gray': the colours held, a count where more than one."""
    return ", ".join(c if n == 1 else f"{n} {c}" for c, n in counts.items() if n)

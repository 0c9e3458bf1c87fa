"""Each chapter's own mechanics at the table, from its paragraphs (RB L1060-1309) as the catalog holds
them (`[chapter.mechanics]` in catalog/data/chapters.toml): the counters the book names and the
`adventure event` that moves each, chapter 02's Doom Clock, the setup numbers by party size, and
chapter 07's rule that only its Scenario Monsters take part. The end of the round is rules/round.py.

Pure: no files, no terminal. A move the rules do not allow raises `Refused` (errors.py, exit 1).

The counters live in the adventure state's `counters` table, beside rules/losing.py's three
(barricade, swan_hp_drawn, endgame); a counter the file does not hold yet is at its start value, so
an adventure started by an older drunagor reads the same. The same table keeps the round number and
the face of the Rune card (`round`, `rune_face`), which `adventure undo` restores with the rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drunagor_log import catalog
from drunagor_log.errors import Refused
from drunagor_log.model.adventure import AdventureState
from drunagor_log.rules import losing
from drunagor_log.rules.miniatures import not_random
from drunagor_log.values import record

#: The entry chapter 09's win reads (RB L1309).
BAPTISM_OF_FIRE_ENTRY = f"End of the Adventure – {losing.BAPTISM_OF_FIRE}"
#: Keys of the `counters` table that are not the book's counters: the round, and the Rune card's face.
ROUND, RUNE_FACE = "round", "rune_face"
#: `adventure show --json` "counters", in this order; null where the chapter has none.
COUNTER_KEYS = (*losing.COUNTER_KEYS, "king_health", "vessel_hp_drawn", "mending_rope", "plenty_of_provisions",
                "spare_wood", "special_event", "time_tokens", "desperation_time_tokens", "doom_clock",
                "siege_cards_drawn", "harvesters_hunt")


@record
class ChapterEvent:
    """An `adventure event NAME`: the chapter it belongs to, the counter it moves, what it is, its line."""

    chapter: str
    counter: str
    title: str
    rule: str


#: The counters `adventure event` moves, beside rules/losing.py's EVENTS (barricade, swan-hp, endgame).
EVENTS = {
    "special-event": ChapterEvent("01", "special_event", "Special Event token on the Rune card", "RB L1074"),
    "vessel-hp": ChapterEvent("04", "vessel_hp_drawn", "Corrupted Vessel's HP deck", "RB L1179"),
    "mending-rope": ChapterEvent("05", "mending_rope", "Mending Rope to collect", "RB L1205"),
    "plenty-of-provisions": ChapterEvent("05", "plenty_of_provisions", "Plenty of Provisions to collect",
                                         "RB L1205"),
    "spare-wood": ChapterEvent("05", "spare_wood", "Spare Wood to collect", "RB L1205"),
    "king-health": ChapterEvent("09", "king_health", "Awakened King's Health", "RB L1295-1299"),
    "desperation-time": ChapterEvent("09", "desperation_time_tokens", "Time tokens on the Desperation Attack card",
                                     "RB L1301"),
    # The Naval Raid card resolves by its own text (not in the book), "and then flip the card over" (RB L1171):
    # the face is the raid card's own, not a counter.
    "naval-raid-flip": ChapterEvent("04", "", "Naval Raid card", "RB L1171"),
}
#: Every event name, with its chapter and line (for the refusal that names the chapter's own).
ALL_EVENTS: dict[str, tuple[str, str]] = {**losing.EVENTS, **{n: (e.chapter, e.rule) for n, e in EVENTS.items()}}


def mechanics(chapter: str) -> Mapping[str, Any]:
    return catalog.chapter(chapter).mechanics


def slug(name: str) -> str:
    """"Plenty of Provisions" -> "plenty_of_provisions" (a counter's key)."""
    return name.casefold().replace(" ", "_").replace("'", "")


# ------------------------------------------------------------------------------------- counters


def counters_at_start(chapter: str, heroes: int) -> dict[str, Any]:
    """The chapter's counters when the adventure starts (the book's numbers, each with its line in the
    catalog): a Rune card's tokens (RB L1074, L1134), the Doom Clock (RB L1106), the Corrupted Vessel's
    HP cards drawn (RB L1179), the resources collected (RB L1205), the Siege deck's cards drawn (RB
    L1235), the Awakened King's Health, 40 per hero (RB L1299), the Desperation Attack's Time tokens (RB
    L1301)."""
    m = mechanics(chapter)
    start = losing.counters_at_start(chapter)
    token = m.get("token")
    if token is not None:
        if token["placed"] == "start":
            start["time_tokens"] = token["count"]
        else:
            start["special_event"] = False
    if "hunt_card" in m:
        start["harvesters_hunt"] = False  # chapter 03: the Harvester's Hunt card replaced Growing Influence
    if "doom_clock" in m:
        start["doom_clock"] = 0
    if "vessel" in m:
        start["vessel_hp_drawn"] = 0
    for name in m.get("resources", {}).get("names", ()):
        start[slug(name)] = 0
    if "siege_deck" in m:
        start["siege_cards_drawn"] = 0
    boss = catalog.chapter(chapter).boss
    if "purge" in m and boss is not None:
        start["king_health"] = boss.health(heroes)
    if "desperation" in m:
        start["desperation_time_tokens"] = m["desperation"]["tokens"]
    return start


def counters(state: AdventureState) -> dict[str, Any]:
    """The chapter's counters now (without the round and the Rune card's face)."""
    now = counters_at_start(state.chapter, state.heroes)
    now.update((k, v) for k, v in state.counters.items() if k not in (ROUND, RUNE_FACE))
    return now


def counters_json(state: AdventureState) -> dict[str, Any]:
    """`adventure show --json` "counters": every counter, null where the chapter has none."""
    now = counters(state)
    return {key: now.get(key) for key in COUNTER_KEYS}


def round_number(state: AdventureState) -> int:
    """The round under way: 1 until the first end of round."""
    return int(state.counters.get(ROUND, 1))


def rune_face(state: AdventureState) -> str:
    """The face of the Rune card at the end of the Initiative Track: A at the start (e.g. RB L1062)."""
    return str(state.counters.get(RUNE_FACE, "A"))


def with_counters(state: AdventureState, **changes: Any) -> AdventureState:
    """The state with these counters changed (the others kept as the file holds them)."""
    return state.replace(counters={**state.counters, **changes})


# ---------------------------------------------------------------------------------------- events


@record
class EventResult:
    """What an `adventure event` did: the new state, the line to print, the losing condition met (or
    None) and the cutscene or ending to read (or None)."""

    state: AdventureState
    text: str
    lost: str | None = None
    read: str | None = None


def refuse_other_chapter(state: AdventureState, name: str) -> None:
    """A counter of another chapter is refused, naming the chapter's own."""
    chapter, rule = ALL_EVENTS[name]
    if state.chapter == chapter:
        return
    own = [n for n, (ch, _) in ALL_EVENTS.items() if ch == state.chapter]
    title = EVENTS[name].title if name in EVENTS else losing.event_title(name)
    raise Refused(f"chapter {state.chapter} has no {title}: it is chapter {chapter}'s ({rule})", "adventure-event",
                  f"events of chapter {state.chapter}: " + (", ".join(own) or "none"))


def chapter_event(state: AdventureState, name: str, count: int = 1, *, deck: int | None = None) -> EventResult:
    """`adventure event NAME --count N` for the counters of EVENTS (the chapter checked first)."""
    refuse_other_chapter(state, name)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise Refused(f"--count must be at least 1, not {count!r}", "adventure-event")
    if name == "vessel-hp":
        return _vessel_hp(state, count, deck)
    if name == "special-event":
        return _special_event(state, count)
    if name == "king-health":
        return _king_health(state, count)
    if name == "desperation-time":
        return _desperation(state, count)
    if name == "naval-raid-flip":
        return _naval_raid_flip(state, count)
    return _resource(state, name, count)


def _naval_raid_flip(state: AdventureState, count: int) -> EventResult:
    """RB L1171: "When the Initiative Marker reaches it, you must resolve its effects and then flip the card
    over": the effects are the card's (not transcribed), the flip is the book's."""
    if count != 1:
        raise Refused("the Naval Raid card flips once each time the Initiative Marker reaches it (RB L1171)",
                      "naval-raid-flip", "leave out --count")
    if state.raid is None:
        raise Refused("no Naval Raid card is on the Initiative Track", "naval-raid-flip (RB L1171)")
    card = state.raid.flipped()
    return EventResult(state.replace(raid=card), f"the {card.card} card resolved from its own text and flipped: face "
                                                 f"{state.raid.face} -> face {card.face} (RB L1171)")


def _special_event(state: AdventureState, count: int) -> EventResult:
    """RB L1074: "Place a Special Event token on top of the Rune card as a reminder"."""
    if count != 1:
        raise Refused("one Special Event token goes on the Rune card (RB L1074)", "special-event", "leave out --count")
    if counters(state)["special_event"]:
        raise Refused("the Special Event token is on the Rune card already", "special-event (RB L1074)",
                      "it leaves at the next end of the round (drunagor round end)")
    token = mechanics(state.chapter)["token"]
    return EventResult(with_counters(state, special_event=True),
                       f"the Special Event token placed on the Rune card: when the Initiative Marker reaches it, "
                       f"after its effects, remove the token and read \"{token['cutscene']}\" on page "
                       f"{token['page']} (RB L1074)")


def _vessel_hp(state: AdventureState, count: int, deck: int | None) -> EventResult:
    """RB L1179: the last Corrupted Vessel's HP card drawn destroys the enemy vessel: the ending."""
    if deck is None:
        raise Refused("how many HP cards the Corrupted Vessel's deck holds is not known", "vessel-hp (RB L1179)",
                      "count them and give --deck N once")
    drawn = counters(state)["vessel_hp_drawn"]
    if drawn + count > deck:
        raise Refused(f"{drawn} of the Corrupted Vessel's {deck} HP cards are drawn: {count} more cannot be",
                      "vessel-hp (RB L1179)", f"draw at most {deck - drawn}" if deck > drawn else
                      "take back a card drawn by mistake with `drunagor adventure undo`")
    new = with_counters(state, vessel_hp_drawn=drawn + count)
    said = f"Corrupted Vessel's HP card{'s' if count > 1 else ''} drawn: {drawn + count} of {deck}"
    if drawn + count < deck:
        return EventResult(new, f"{said} (RB L1179)")
    ending = mechanics(state.chapter)["vessel"]
    read = f"\"{ending['ending']}\" on page {ending['page']}"
    return EventResult(ended(new, f"the last Corrupted Vessel's HP card is drawn: read {read} (RB L1179)"),
                       f"{said}: the last one, the enemy vessel is destroyed: read {read} (RB L1179)",
                       read=ending["ending"])


def _king_health(state: AdventureState, damage: int) -> EventResult:
    """RB L1295-1299: 40 Health per hero; a Purge takes 1 per Darkness square (`damage`: the squares, or
    any other damage the party deals him)."""
    health = counters(state)["king_health"]
    if health <= 0:
        raise Refused("the Awakened King has no Health left", "king-health (RB L1299)",
                      "take back damage recorded by mistake with `drunagor adventure undo`")
    left = max(health - damage, 0)
    new = with_counters(state, king_health=left)
    full = catalog.chapter(state.chapter).boss
    most = full.health(state.heroes) if full is not None else health
    lost = (f"loses {damage} Health" if left else  # the damage taken, not the damage dealt beyond it
            f"loses his last {health} Health" + (f" ({damage} dealt)" if damage > health else ""))
    text = (f"the Awakened King {lost}: {left} of {most} left (1 per Darkness square purged, RB L1295; 40 per hero, "
            "RB L1299)")
    if left:
        return EventResult(new, text)
    # RB L1309: "if the Scenario Commander is defeated, read 'End of the Adventure – Baptism of Fire' on page 50"
    new = ended(new, f"the Awakened King is defeated: read \"{BAPTISM_OF_FIRE_ENTRY}\" on page 50 (RB L1309)")
    return EventResult(new, f"{text}; he is defeated: read \"{BAPTISM_OF_FIRE_ENTRY}\" on page 50 (RB L1309), then "
                            "drunagor adventure end --won", read=BAPTISM_OF_FIRE_ENTRY)


def _desperation(state: AdventureState, count: int) -> EventResult:
    """RB L1301: 2 Time tokens on the Desperation Attack card. When they leave, and what follows, is on
    the card (the Awakened King's Clarifications, page 126 on, are not transcribed)."""
    left = counters(state)["desperation_time_tokens"]
    if count > left:
        raise Refused(f"{left} Time token{'' if left == 1 else 's'} on the Desperation Attack card: {count} cannot "
                      "be removed", "desperation-time (RB L1301)",
                      f"remove at most {left}" if left else "take one back with `drunagor adventure undo`")
    new = with_counters(state, desperation_time_tokens=left - count)
    text = f"{count} Time token{'s' if count > 1 else ''} off the Desperation Attack card: {left - count} of 2 left"
    if left - count == 0:
        text += " (what follows is on the card; the book's page 126 on is not transcribed)"
    return EventResult(new, text + " (RB L1301)")


def _resource(state: AdventureState, name: str, count: int) -> EventResult:
    """RB L1205: 1 Mending Rope, 1 Plenty of Provisions and 1 Spare Wood collected, then the last enemy
    defeated: the ending."""
    event = EVENTS[name]
    res = mechanics(state.chapter)["resources"]
    now = counters(state)
    title = next(n for n in res["names"] if slug(n) == event.counter)
    # RB L1205 "1 Mending Rope, 1 Plenty of Provisions, and 1 Spare Wood": one token each (RB L1201: the
    # Boar's standee is replaced with *the* Plenty of Provisions token); a second collection is a slip.
    if now[event.counter] or count != 1:
        raise Refused(f"the {title} is collected once: the chapter has 1 (RB L1205)"
                      + (", and it is collected already" if now[event.counter] else ""), name,
                      "take back a collection recorded by mistake with `drunagor adventure undo`"
                      if now[event.counter] else "leave out --count")
    new = with_counters(state, **{event.counter: 1})
    text = (f"{title} collected: 1 (RB L1205); the collecting Hero gains FOCUS 2 or CLEANSE 2 (RB L1201)")
    have = counters(new)
    missing = [n for n in res["names"] if not have[slug(n)]]
    if missing:
        return EventResult(new, f"{text}; still to collect: {', '.join(missing)}")
    return EventResult(new, f"{text}; all three collected: as soon as the last enemy is defeated, read "
                            f"\"{res['ending']}\" on page {res['page']} (RB L1205)", read=res["ending"])


def ended(state: AdventureState, ending: str) -> AdventureState:
    """The book's ending reached at the table (RB L1179, L1205, L1309): the adventure is won and no table
    event follows, as after a loss, until `adventure end --won` (or `adventure undo` of a slip)."""
    return state.replace(won=state.won or ending)


def last_enemy_defeated(state: AdventureState) -> str | None:
    """RB L1205: with the three resources collected, "as soon as the last enemy is defeated, read" the
    ending: said when a monster leaves a board that is then empty (None otherwise, or in another chapter)."""
    res = mechanics(state.chapter).get("resources")
    if res is None or state.monsters or not all(counters(state)[slug(n)] for n in res["names"]):
        return None
    return (f"the last enemy is defeated with the three resources collected: read \"{res['ending']}\" on page "
            f"{res['page']} ({res['source']}), then drunagor adventure end --won")


# ------------------------------------------------------------------------------------ Doom Clock


def pile_left_board(state: AdventureState) -> tuple[AdventureState, str | None]:
    """A Pile of Runes completely removed from the board: chapter 02's Doom Clock counts it and names
    the cutscene of the 1st, 2nd, 3rd (RB L1106-1110); other chapters keep no count (None)."""
    clock = mechanics(state.chapter).get("doom_clock")
    if clock is None:
        return state, None
    n = counters(state)["doom_clock"] + 1
    new = with_counters(state, doom_clock=n)
    if n > len(clock):
        return new, (f"Doom Clock: the {losing.ordinal(n)} Pile of Runes removed; the book names a cutscene for the "
                     f"first {len(clock)} only (RB L1106-1110)")
    scene = clock[n - 1]
    return new, (f"Doom Clock: the {losing.ordinal(n)} Pile of Runes removed: at the end of the current Hero's "
                 f"turn, read \"{scene['cutscene']}\" on page {scene['page']} ({scene['source']})")


# ------------------------------------------------------------------------- setup by party size


@record
class SetupMonster:
    """A monster printed on a setup diagram, placed from so many heroes on (RB L1080: "W2 – 2+: WM")."""

    marker: str
    monster: str
    level: str
    heroes: int


def setup_monsters(chapter: str, heroes: int) -> tuple[SetupMonster, ...] | None:
    """The setup's monsters a party of `heroes` places (RB L1080, L1279); None when the book gives none."""
    entries = mechanics(chapter).get("setup_monsters")
    if entries is None:
        return None
    return tuple(SetupMonster(**e) for e in entries if e["heroes"] <= heroes)


def crush_damage(chapter: str, heroes: int) -> int | None:
    """The Crush: each hero takes as much non-preventable damage as there are heroes (RB L1287); None in
    a chapter without Darkness."""
    return heroes if "crush" in mechanics(chapter) else None


def setup_numbers(chapter: str, heroes: int) -> dict[str, Any]:
    """`chapter show`'s setup numbers by party size, for --json (null where the chapter has none)."""
    m = mechanics(chapter)
    monsters = setup_monsters(chapter, heroes)
    return {
        "setup_monsters": None if monsters is None else [
            {"marker": s.marker, "monster": s.monster, "level": s.level, "from_heroes": s.heroes} for s in monsters],
        "crush_damage": crush_damage(chapter, heroes),
        "rune_card": (m.get("rune_card") or m.get("siege_deck") or {}).get("name"),
    }


# ----------------------------------------------------------------------------- monster rules


def allowed_monsters(chapter: str) -> tuple[str, ...] | None:
    """The only monsters a chapter uses (chapter 07: its Scenario Monsters, RB L1245); None: no limit."""
    info = catalog.chapter(chapter)
    return info.scenario_monsters if "only_scenario_monsters" in info.mechanics else None


def check_monster(chapter: str, name: str) -> None:
    """Refuse a monster the chapter does not use (RB L1245), naming the ones it allows, and in a raid
    chapter the monster whose miniatures its raid card takes (RB L1199)."""
    not_random(chapter, name)
    allowed = allowed_monsters(chapter)
    if allowed is None or any(name.casefold() == a.casefold() for a in allowed):
        return
    rule = mechanics(chapter)["only_scenario_monsters"]
    raise Refused(f"chapter {chapter} uses only its Scenario Monsters ({rule}): {name} is not one of them",
                  f"scenario-monsters ({rule})", f"the monsters of chapter {chapter}: {', '.join(allowed)}")


# ------------------------------------------------------------------- how the chapter is won and lost


def _entry(what: str, rule: str, command: str | None) -> dict[str, Any]:
    return {"what": what, "rule": rule, "command": command}


def losing_conditions(chapter: str) -> list[dict[str, Any]]:
    """Every way the chapter's "Winning and Losing the Adventure" paragraph fails it, with its line and
    the command that records it (RB L1076, L1177, L1243, L1251, ...)."""
    info = catalog.chapter(chapter)
    rule = info.refs.get("losing", "")
    out = [_entry("a Hero receives more Curse Cubes or Trauma Cubes than they can hold", rule,
                  "drunagor cube HERO trauma|curse +1; drunagor recall HERO")]
    if info.fails_on_last_rune:
        out.append(_entry("the last Rune in the bag is drawn", rule, "drunagor draw; drunagor round end"))
    if "swan_hp_drawn" in losing.counters_at_start(chapter):
        out.append(_entry("the last Pristine Swan's HP card is drawn", rule, "drunagor adventure event swan-hp"))
    if "barricade" in losing.counters_at_start(chapter):
        out.append(_entry(f"the last of the {losing.BARRICADE_TOKENS} Barricade tokens is removed (a Vicious "
                          "Mauler's attack removes one): the Seabreeze Tavern barricade is destroyed",
                          "RB L1243, L1251", "drunagor adventure event barricade"))
    return out


def ending_triggers(chapter: str) -> list[dict[str, Any]]:
    """What ends the chapter, beyond the entry that says "The Adventure ends here" (e.g. RB L1076): the
    Endgame Triggers and what they name to read (RB L1179, L1205, L1309)."""
    m, info = mechanics(chapter), catalog.chapter(chapter)
    out = [_entry("a player reads an entry that says \"The Adventure ends here.\"", info.refs.get("losing", ""),
                  "drunagor adventure end --won")]
    if "vessel" in m:
        v = m["vessel"]
        out.append(_entry(f"the last Corrupted Vessel's HP card is drawn: read \"{v['ending']}\" on page {v['page']}",
                          v["source"], "drunagor adventure event vessel-hp"))
    if "resources" in m:
        r = m["resources"]
        out.append(_entry(f"1 {', 1 '.join(r['names'][:-1])} and 1 {r['names'][-1]} collected, then the last enemy "
                          f"defeated: read \"{r['ending']}\" on page {r['page']}", r["source"],
                          "drunagor adventure event " + "|".join(slug(n).replace("_", "-") for n in r["names"])
                          + "; drunagor monster remove"))
    if "endgame" in losing.counters_at_start(chapter):
        out.append(_entry(f"the Endgame Trigger: from then on a defeat of the party reads \"{losing.HERO_UNDONE}\" "
                          f"(not a failure), and the Scenario Commander defeated \"{losing.BAPTISM_OF_FIRE}\"",
                          "RB L1309", "drunagor adventure event endgame"))
    return out


def counters_kept(chapter: str, heroes: int) -> list[dict[str, Any]]:
    """Every counter the chapter keeps, at its start value, with its line and the command that moves it."""
    m, start = mechanics(chapter), counters_at_start(chapter, heroes)
    out = []
    token = m.get("token")
    if token is not None and token["placed"] == "event":
        out.append(_entry(f"the {token['name']} on the Rune card once its trigger happens; at the next end of the "
                          f"round it leaves: read \"{token['cutscene']}\"", token["source"],
                          "drunagor adventure event special-event"))
    elif token is not None:
        then = (f"; then the {m['hunt_card']['name']} card ends the round (drunagor's reading of "
                f"{m['hunt_card']['source']})"
                if "hunt_card" in m else "")
        out.append(_entry(f"{token['count']} {token['name']}s on the Rune card, one removed at each end of the round; "
                          f"the last: read \"{token['cutscene']}\"{then}", token["source"], "drunagor round end"))
    if "doom_clock" in m:
        out.append(_entry("the Doom Clock: the Piles of Runes removed from the board name a cutscene each",
                          m["doom_clock_source"], "drunagor tiebreak; drunagor pile remove"))
    return out + _decks_and_tokens(m, start)


def _decks_and_tokens(m: Mapping[str, Any], start: Mapping[str, Any]) -> list[dict[str, Any]]:
    out = []
    if "swan_hp_drawn" in start:
        out.append(_entry("the Pristine Swan's HP cards drawn (the deck's size asked once)", "RB L1177",
                          "drunagor adventure event swan-hp"))
    if "vessel" in m:
        out.append(_entry("the Corrupted Vessel's HP cards drawn (the deck's size asked once)", m["vessel"]["source"],
                          "drunagor adventure event vessel-hp"))
    for name in m.get("resources", {}).get("names", ()):
        out.append(_entry(f"{name} collected (one)", m["resources"]["source"],
                          f"drunagor adventure event {slug(name).replace('_', '-')}"))
    if "barricade" in start:
        out.append(_entry(f"{losing.BARRICADE_TOKENS} Barricade tokens", "RB L1243",
                          "drunagor adventure event barricade"))
    if "siege_deck" in m:
        out.append(_entry(f"the {m['siege_deck']['cards']} cards of the {m['siege_deck']['name']} deck",
                          m["siege_deck"]["source"], "drunagor round end"))
    if "king_health" in start:
        out.append(_entry(f"the Awakened King's Health, {start['king_health']} (40 per hero)", "RB L1295-1299",
                          "drunagor adventure event king-health --count N"))
    if "desperation" in m:
        out.append(_entry(f"{m['desperation']['tokens']} Time tokens on the Desperation Attack card",
                          m["desperation"]["source"], "drunagor adventure event desperation-time"))
    return out


def without_commands(line: str) -> str:
    """A briefing line as the players read it at the table (the table's screen): without the commands
    the scribe's terminal adds ("; with `drunagor draw`"; "drunagor tracks it with `drunagor round end`"
    reads "the scribe records it")."""
    import re

    line = re.sub(r";? with `drunagor [^`]*`(?:, `drunagor [^`]*`)*$", "", line)
    return re.sub(r"; drunagor tracks it$", "; the scribe records it", line)

"""`chapter show` as the setup checklist (issue 42): every paragraph of the chapter's section of the book
(RB L1058-1309) that sets up the table or holds a rule, in the book's order, one line each with its line,
marked "drunagor tracks it" (with the command) or "at the table".

The words are drunagor's own, short, with the party's numbers filled in; a citation names the paragraph's
title (catalog/headings.py), so no sentence of the book is copied. Which paragraphs, and what each is, is
the catalog's (`checklist` in each chapter's `[chapter.mechanics]`, catalog/data/chapters.toml): an entry
either names a fact drunagor computes (`key`) or says the step in a few words (`say`, with `command` when
a drunagor command records it). The paragraphs left out are the transcriber's notes and the triggers that
only say "begin to play". Each losing condition is said once, on the "Winning and Losing" line.

Pure: no files, no terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .. import catalog
from ..text import plural
from . import chapters, losing

TRACKS, AT_THE_TABLE = "drunagor tracks it", "at the table"
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def checklist(b: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The checklist entries of the briefing `b` (the `chapter show --json` shape, with `losing`,
    `endings` and `chapter_counters`): {"line", "what", "tracked", "command"} in the book's order."""
    out = []
    for entry in chapters.mechanics(b["chapter"]).get("checklist", ()):
        if "key" in entry:
            what, commands, tracked = _KEYS[entry["key"]](b)
        else:
            what, tracked = entry["say"], "command" in entry
            commands = [entry["command"]] if "command" in entry else []
        if entry.get("also"):
            what += f"; {entry['also']}"
        line = entry["line"]
        if entry.get("key") == "raid" and b["raid_party"]:
            line += ", L305-308"  # the raid party's sizes: the Dreadful Raid card's own rule
        out.append({"line": line, "what": what, "tracked": tracked,
                    "command": "; ".join(commands) or None})
    return out


def checklist_lines(entries: list[dict[str, Any]]) -> list[str]:
    """`chapter show`'s lines: "WHAT (LINE); drunagor tracks it with `COMMAND`" or "...; at the table"."""
    lines = []
    for e in entries:
        if not e["tracked"]:
            mark = AT_THE_TABLE
        elif e["command"]:
            mark = f"{TRACKS} with " + ", ".join(f"`{c}`" for c in e["command"].split("; "))
        else:
            mark = TRACKS
        lines.append(f"{e['what']} ({e['line']}); {mark}")
    return lines


# ------------------------------------------------------------------------- the facts drunagor computes

Said = tuple[str, list[str], bool]


def _rune_card(b: Mapping[str, Any]) -> Said:
    m = chapters.mechanics(b["chapter"])
    if "siege_deck" in m:
        deck = m["siege_deck"]
        return (f"End of the round: the {deck['name']} deck, cards 1 to {deck['cards']} in order, at the end of the "
                "Initiative Track; each end of the round draws the next", ["drunagor round end"], True)
    card = m["rune_card"]["name"]
    if "spawning_tokens" in m:  # chapter 09 (RB L1285)
        does = ("draws its runes; each names its Spawning token (blue: the Party Leader chooses) for a Chest or its "
                "Darkness tile, as the card shows")
    elif b["chapter"] == "04":  # the Naval Battle card (RB L1163)
        does = "advances the vessels, draws its runes and executes each one's effect from the card, then flips"
    else:
        does = "draws its runes, then flips"
    return (f"End of the round: the {card} card, face A, at the Initiative Track's end, {does} (how many runes: on "
            "the card, asked once)", ["drunagor round end"], True)


def _no_darkness(b: Mapping[str, Any]) -> Said:
    return "No Darkness: no Darkness tile spawns, no Crush", ["drunagor round end"], True


def _recall(b: Mapping[str, Any]) -> Said:
    return (f"Recall penalty: {plural(b['recall_penalty'], 'Curse Cube')} per Recall Action",
            ["drunagor recall HERO"], True)


def _stirring(b: Mapping[str, Any]) -> Said:
    return (f"Stirring Darkness: {plural(b['stirring_darkness'], 'Rune')} of each colour from the bag to the "
            "Initiative Track, no Darkness tile", ["drunagor adventure start"], True)


def _nodes(b: Mapping[str, Any]) -> Said:
    return ("Darkness Nodes: each Pile of Runes of a setup takes 1 Rune of each colour from the Initiative Track",
            ["drunagor pile add"], True)


def _tie_breaker(b: Mapping[str, Any]) -> Said:
    k = b["heroes"]
    return (f"Tie Breaker: {plural(b['tie_breaker_runes'], 'Rune')} per Tie Breaker (6 - {plural(k, 'hero', 'heroes')})"
            " back to the bag, for 1 AC next to a Pile of Runes with no enemy beside it; the hero gains FOCUS 1 or "
            "CLEANSE 1", ["drunagor tiebreak PILE"], True)


CARD_KINDS = {"minion": "Minion card", "scenario": "Scenario Monster card"}


def _raid(b: Mapping[str, Any]) -> Said:
    raid, k = b["raid"], b["heroes"]
    summons = " and ".join(f"{s['minion']} ({CARD_KINDS.get(s['kind'], s['kind'])}, {s['models']} models)"
                           for s in raid["summons"])
    name = f" ({b['mechanic']})" if b["mechanic"] and b["mechanic"] != raid["card"] else ""
    if raid["card"] != "Dreadful Raid":  # chapter 04: the card's own text is not in the book (RB L1171)
        return (f"Raid: {raid['card']} card, face A up; summons {summons} by its own text (not in the book): resolve "
                "it, then flip it", ["drunagor adventure event naval-raid-flip", "drunagor monster add"], True)
    return (f"Raid: {raid['card']} card{name}, face A up; summons {summons}; raid party of "
            f"{plural(b['raid_party'], 'minion')} for {plural(k, 'hero', 'heroes')}",
            ["drunagor raid", "drunagor odds"], True)


def _token(b: Mapping[str, Any]) -> Said:
    e = next(x for x in b["chapter_counters"] if "Rune card" in x["what"])
    what = e["what"]
    return f"{what[0].upper()}{what[1:]}", e["command"].split("; "), True


def _doom_clock(b: Mapping[str, Any]) -> Said:
    clock = chapters.mechanics(b["chapter"])["doom_clock"]
    scenes = ", ".join(f"\"{s['cutscene']}\"" for s in clock)
    return (f"Doom Clock: the 1st, 2nd and 3rd Pile of Runes removed from the board each name a cutscene (page "
            f"{clock[0]['page']}): {scenes}", ["drunagor tiebreak PILE", "drunagor pile remove PILE"], True)


def _losing(b: Mapping[str, Any]) -> Said:
    """Every losing condition once, and how the chapter is won (the "Winning and Losing" paragraph)."""
    t = b["trauma_limit"]
    nth = ORDINALS[t] if t < len(ORDINALS) else f"{t + 1}th"
    fails, commands = [], []
    for e in b["losing"]:
        what = e["what"]
        if what.startswith("a Hero receives more"):
            what = (f"a hero receives more cubes than they can hold (the {nth} Trauma Cube with the trauma limit of "
                    f"{t}, RB L1026-1032; a Curse Cube past their board, the sixth, RB L927)")
        fails.append(what.split(" (a Vicious")[0].split(": the Seabreeze")[0])
        commands += e["command"].split("; ")
    commands.append(b["endings"][0]["command"])
    return (f"Losing: the adventure fails at once when {'; or when '.join(fails)}. Won: at an entry that reads "
            "\"The Adventure ends here.\"", list(dict.fromkeys(commands)), True)


def _ending(word: str) -> Callable[[Mapping[str, Any]], Said]:
    def said(b: Mapping[str, Any]) -> Said:
        e = next(x for x in b["endings"] if word in x["what"])
        return f"Ending: {e['what']}", e["command"].split("; "), True
    return said


def _resources(b: Mapping[str, Any]) -> Said:
    e = next(x for x in b["endings"] if "Mending Rope" in x["what"])
    res = chapters.mechanics(b["chapter"])["resources"]
    return (f"Ending: the three resources ({', '.join(res['names'])}) collected, then the last enemy defeated: read "
            f"\"{res['ending']}\" on page {res['page']}", e["command"].split("; "), True)


def _setup_monsters(b: Mapping[str, Any]) -> Said:
    k = b["heroes"]
    placed = ", ".join(f"{s['marker']} {s['monster']} ({s['level']})" for s in b["setup_monsters"])
    return (f"Setup monsters for {plural(k, 'hero', 'heroes')}: {placed}", ["drunagor monster add"], True)


def _crush(b: Mapping[str, Any]) -> Said:
    return (f"Darkness chases the Strongest Hero not on Darkness. The Crush: when every hero is on Darkness, a tile "
            f"that should spawn does not and every hero takes {b['crush_damage']} non-preventable damage (the "
            "number of heroes)", ["drunagor round end"], True)


def _siege(b: Mapping[str, Any]) -> Said:
    return ("Siege: a monster that cannot spawn activates the first monster of its own kind on the Monster Status "
            "board, not the strongest", ["drunagor battalion", "drunagor monster add"], True)


def _barricade(b: Mapping[str, Any]) -> Said:
    return (f"Barricade: {losing.BARRICADE_TOKENS} Barricade tokens on Map tile AWB4-B; a Vicious Mauler's attack "
            "removes one", ["drunagor adventure event barricade"], True)


def _only_scenario(b: Mapping[str, Any]) -> Said:
    names = ", ".join(catalog.chapter(b["chapter"]).scenario_monsters)
    return (f"Monsters: only the Scenario Monsters, {names} (the Abomination, Hellspawn Brute and Gorgoness Witch "
            "models); their strategy on page 104", ["drunagor monster add", "drunagor battalion"], True)


def _camaraderie(b: Mapping[str, Any]) -> Said:
    k = b["heroes"]
    return (f"Camaraderie: recruit {plural(b['camaraderie_followers'], 'Follower')} (5 - "
            f"{plural(k, 'hero', 'heroes')}) from {', '.join(b['camaraderie_from'] or [])}, on the Follower spaces "
            "of the First Setup; their behaviour on page 105", [], False)


def _boss(b: Mapping[str, Any]) -> Said:
    k = b["heroes"]
    per = b["boss_health"] // k
    return (f"Boss: {b['boss']}, {b['boss_health']} Health ({per} x {plural(k, 'hero', 'heroes')}), on the Undead "
            "King's board", ["drunagor adventure event king-health --count N"], True)


def _purge(b: Mapping[str, Any]) -> Said:
    return ("Purge: for 1 AC next to a coloured Spawning token, the Darkness connected to it leaves the board; 1 "
            "Health off the Awakened King per Darkness square", ["drunagor adventure event king-health --count N"],
            True)


def _desperation(b: Mapping[str, Any]) -> Said:
    tokens = chapters.mechanics(b["chapter"])["desperation"]["tokens"]
    return (f"{tokens} Time tokens on the Desperation Attack card (what follows is on the card)",
            ["drunagor adventure event desperation-time"], True)


def _hunt(b: Mapping[str, Any]) -> Said:
    return ("Soul Hunt: once the last Time Token is gone, the Harvester's Hunt card ends each round: its runes with "
            "no Darkness tile, then the Soul Harvester advances on the Closest Hero (the tiles it leaves collapse) and "
            "swings its scythe", ["drunagor round end", "drunagor pile remove PILE"], True)


def _crumbling(b: Mapping[str, Any]) -> Said:
    damage = chapters.mechanics(b["chapter"])["crumbling_ceiling"]["damage"]
    return ("Crumbling Ceiling: a Weapon or Spell Attack that hits a Monster marks its area; after the Rune card, "
            f"{damage} DMG to every Character in a marked area, then the marks leave", ["drunagor round end"], True)


_KEYS: dict[str, Callable[[Mapping[str, Any]], Said]] = {
    "rune_card": _rune_card, "no_darkness": _no_darkness, "recall_penalty": _recall,
    "stirring_darkness": _stirring, "darkness_nodes": _nodes, "tie_breaker": _tie_breaker, "raid": _raid,
    "token": _token, "doom_clock": _doom_clock, "losing": _losing, "vessel": _ending("Corrupted Vessel"),
    "resources": _resources, "endgame": _ending("Endgame Trigger"), "setup_monsters": _setup_monsters,
    "crush": _crush, "siege": _siege, "barricade": _barricade, "only_scenario_monsters": _only_scenario,
    "camaraderie": _camaraderie, "boss": _boss, "purge": _purge, "desperation": _desperation, "hunt": _hunt,
    "crumbling_ceiling": _crumbling,
}

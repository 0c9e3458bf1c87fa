"""Miniatures that more than one card uses. A raid chapter takes a monster's miniatures for its raid card
and says not to use that monster as a random Monster (RB L1102, L1171, L1199, L1271): chapter 05's
Tidehunter Minion card is played with the Nagian Hunter miniatures, so the Nagian Hunter is no monster
of its own there, and a Tidehunter and a Nagian Hunter on the board are two of the same four models
(RB L311). The catalog says which miniatures a card uses (`models` in catalog/data/monsters.toml).

    kin("Tidehunter")                   # ("Nagian Hunter", "Hunter"): the cards the same models play
    not_random("05", "Nagian Hunter")   # raises Refused (RB L1199)
"""

from __future__ import annotations

from drunagor_log import catalog
from drunagor_log.errors import Refused
from drunagor_log.text import a


def miniature(name: str) -> str:
    """The miniatures a monster card is played with: the catalog's `models`, else its own name."""
    entry = catalog.monster(name) or {}
    return str(entry.get("models") or entry.get("name") or name)


def kin(name: str) -> tuple[str, ...]:
    """The other monster cards played with the same miniatures as `name` (and the miniatures' own
    name), whose models on the board are models of `name`'s kind too (RB L311, L1199)."""
    figure = miniature(name).casefold()
    own = name.strip().casefold()
    out = [m["name"] for m in catalog.monsters()
           if str(m.get("models") or m["name"]).casefold() == figure and m["name"].casefold() != own]
    if figure != own and all(figure != o.casefold() for o in out):
        out.append(miniature(name))  # the miniatures' name, when no catalog card is named after them
    return tuple(out)


def not_random(chapter: str, name: str) -> None:
    """Refuse, in a raid chapter, the monster whose miniatures its raid card takes: "do not use the
    Nagian Hunter as a random Monster" (RB L1199; L1102, L1171, L1271 say it of their own)."""
    raid = catalog.chapter(chapter).raid
    if raid is None:
        return
    for summon in raid.summons:
        models = summon.models or ""
        if models.casefold() == name.strip().casefold() and models.casefold() != summon.minion.casefold():
            rule = raid.source
            raise Refused(f"chapter {chapter} takes the {models} miniatures for its {summon.minion} card: the "
                          f"{models} is not used as a random Monster ({rule})", f"raid models ({rule})",
                          f"{a(models)} miniature on the board is {a(summon.minion)}: drunagor monster add "
                          f"{summon.minion}")

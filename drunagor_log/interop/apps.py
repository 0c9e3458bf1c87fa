"""The campaign as the companion apps see it: export to their token's JSON, and what it cannot carry.

The token's JSON shape and key order are HLP's (app-token section 2 and example 4.1); what the import
kept verbatim (under `[app]` in story.toml and in each Campaign Log) is given back, so an imported
token exports to the same JSON. Reads the campaign through its model and its files' plain data;
writes nothing.
"""

from __future__ import annotations

from typing import Any

from ..values import json_loads, record
from . import token

APP_TABLE = "app"  # story.toml and heroes/*.toml: `[app] json = '...'`, the token data kept verbatim
CAMPAIGN_DEFAULTS: dict[str, Any] = {  # what an Awakenings campaign made in the apps holds (example 4.1)
    "unfoldingIds": [], "backgroundAndTraitIds": [],
    "legacyTrail": {"perseverance": 0, "tragedy": 0, "doom": 0, "heroism": 0},
    "isSequentialAdventure": False, "sequentialAdventureRunes": 0,
}


@record
class Export:
    data: dict  # the token's JSON object
    lost: tuple[str, ...]  # what drunagor has that the token cannot carry, in words
    unknown: tuple[str, ...] = ()  # heroes, cards and names the apps' ID tables lack, in words


def kept(data: dict[str, Any]) -> dict[str, Any]:
    """The token data a file kept verbatim under [app] (empty when none or unreadable)."""
    table = data.get(APP_TABLE)
    if not isinstance(table, dict) or not isinstance(table.get("json"), str):
        return {}
    try:
        value = json_loads(table["json"])  # NaN, Infinity: unreadable, never exported
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def export(story: Any, story_data: dict[str, Any], heroes: list[tuple[Any, dict[str, Any]]]) -> Export:
    """The token JSON of a campaign: its Story Record and its active heroes (model, file data)."""
    tables = token.id_tables()
    lost: list[str] = []
    unknown: list[str] = []

    def ids(names: tuple[str, ...], table: str, what: str) -> list[str]:
        out = []
        for n in names:
            if n in tables[table]:
                out.append(tables[table][n])
            else:
                unknown.append(f"the {what} {n}")
        return out

    campaign: dict[str, Any] = {"campaignId": "", "campaign": "awakenings", "name": story.party,
                                "statusIds": ids(story.statuses, "story_statuses", "Story Record status"),
                                "outcomeIds": ids(story.outcomes, "outcomes", "Outcome"),
                                "followerIds": ids(story.followers, "followers", "Follower")}
    campaign.update(CAMPAIGN_DEFAULTS)
    campaign.update({k: v for k, v in kept(story_data).items() if k not in campaign or k in CAMPAIGN_DEFAULTS})
    ordered = sorted(heroes, key=lambda hd: kept(hd[1]).get("_order", len(heroes)))  # the apps' order first
    out_heroes = [_hero(h, data, tables, lost, unknown) for h, data in ordered if h.active]
    lost += [f"{h.name} (left the party: the apps delete a hero who leaves)" for h, _ in heroes if not h.active]
    if story.track:
        lost.append("the Adventure Track (the token has no chapters)")
    if story.leader:
        lost.append("the Party Leader")
    lost.append("the Chest deck, the Commander deck, the [cards] facts, the stash and stored cards")
    if any(h.active and (h.role or h.player) for h, _ in heroes):
        lost.append("the heroes' Dungeon Roles and players, Class Ability names and skill names")
    return Export({"campaignData": campaign, "heroes": out_heroes}, tuple(lost), tuple(unknown))


def _hero(h: Any, data: dict[str, Any], tables: dict[str, Any], lost: list[str], unknown: list[str]) -> dict[str, Any]:
    extra = kept(data)
    hero_id = tables["heroes"].get((h.name, h.cls))
    if hero_id is None:  # another product's hero: the apps use its name in lower case (app-token 3.1)
        hero_id = h.name if h.name == "Willow" else h.name.casefold()
        if hero_id not in tables["other_heroes"]:
            unknown.append(f"the hero {h.name} ({h.cls}): written as heroId {hero_id!r}, which the apps do not show")
    equipment, stashed = _slots(h, data, tables, extra.get("_emptySlots") or {}, lost, unknown)
    skills: list[str] = []
    for s in h.skills:  # the apps tick one box per tree and level: a second skill of the same has no box
        box = f"{tables['skill_trees'].get(s.tree, s.tree)}-{s.level}"
        if box in skills:
            lost.append(f"{h.name}'s skill {s.name} (a second {s.tree} Level {s.level} skill: one box in the apps)")
        else:
            skills.append(box)
    aura = tables["auras"].get(h.aura) if h.aura else extra.get("_emptyAura")  # "" as the app cleared it
    if h.aura and aura is None:
        unknown.append(f"{h.name}'s aura {h.aura}")
    statuses = []
    for s in h.statuses:
        if s in tables["hero_statuses"]:
            statuses.append(tables["hero_statuses"][s])
        else:
            unknown.append(f"{h.name}'s status {s}")
    out: dict[str, Any] = {"heroId": hero_id, "campaignId": "", "equipment": equipment,
                           "stashedCardIds": stashed, "skillIds": skills,
                           "dungeonRoleSkillCubeColors": {"rankOne": None, "rankTwo": None},
                           "sequentialAdventureState": None, "auraId": aura, "outcomeIds": [],
                           "statusIds": statuses}
    for k, v in extra.items():
        if not k.startswith("_") and k not in token.MODELLED_HERO:
            out[k] = v
    return out


def _slots(h: Any, data: dict[str, Any], tables: dict[str, Any], empty: dict[str, Any],
           lost: list[str], unknown: list[str]) -> tuple[dict[str, Any], list[str]]:
    """The six slots and the Stash: equipped items to their slot, the bag to the two bag slots."""
    found = data.get("equipment")
    raw: list[Any] = found if isinstance(found, list) else []
    slots: dict[str, Any] = {s: empty.get(s, "") for s in token.SLOTS + token.BAG_SLOTS}
    taken: set[str] = set()
    stashed: list[str] = []
    # The bag slots the app held cards in first: a card in bagTwoId with bagOneId empty comes back there.
    bag = sorted(token.BAG_SLOTS, key=lambda slot: slot in empty)
    for i, item in enumerate(h.equipment):
        entry = raw[i] if i < len(raw) and isinstance(raw[i], dict) else {}
        ident = _item_id(item, entry, tables)
        if ident is None:
            unknown.append(f"{h.name}'s {item.name}")
            continue
        base = ident.split("-", 1)[1] if ident.startswith(("improved-", "ultimate-")) else ident
        slot = token.SLOT_OF.get(tables["item_slots"].get(base, ""))
        if entry.get("app_slot") == "stash":
            stashed.append(ident)
        elif item.place == "equipped" and slot and slot not in taken:
            slots[slot] = ident
            taken.add(slot)
        elif item.place == "bag" and bag:
            slots[bag.pop(0)] = ident
        else:
            stashed.append(ident)
            lost.append(f"{h.name}'s {item.name} goes to the app's Stash (no free slot)")
    return slots, stashed


def _item_id(item: Any, entry: dict[str, Any], tables: dict[str, Any]) -> str | None:
    kept_id = entry.get("app_id")
    if isinstance(kept_id, str) and (token.item_of(kept_id) or ("",))[0] == item.name:
        base = kept_id.split("-", 1)[1] if kept_id.startswith(("improved-", "ultimate-")) else kept_id
    else:
        base = tables["items"].get(item.name)
        if base is None:
            return None
    if item.kind == "spoils" and item.quality in ("improved", "ultimate"):
        return f"{item.quality}-{base}"
    return base

"""The built-in catalog: facts about Chronicles of Drunagor: Awakenings, read from ``data/*.toml``.

The lookups are in `facts.py`, re-exported here (`catalog.hero("Elros")`, `catalog.chapter(3)`,
`catalog.ROLES`); the disk cache the data files are parsed into is `diskcache.py`; the rulebook's
headings, `headings.py`. Importing the package reads no file: the constants (ROLES, RANKS, ...) are
read from their data files on first access, as in `facts.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import facts
from .facts import (
    Boss,
    Chapter,
    CoreHero,
    Hero,
    Raid,
    RaidSummon,
    Rewards,
    adventure_item,
    adventure_items,
    canonical,
    chapter,
    chapter_id,
    chapter_reward,
    chapters,
    chest_card,
    chest_cards,
    commander_card,
    commander_cards,
    core_hero,
    core_heroes,
    hero,
    heroes,
    is_known_epic,
    is_spoils,
    item_kind,
    monster,
    monsters,
    names,
    other_heroes,
    recruit_row,
    recruit_table,
    source_words,
    spoils_item,
    spoils_items,
    starting_gear,
    starting_gear_item,
)

if TYPE_CHECKING:  # read on first access (below), not at import
    from .facts import (
        CHEST_GRID,
        COMMANDER_DECK_SIZE,
        DEFAULT_RUNE_BAG,
        EPIC_RARE_AWAKENINGS,
        EPIC_RARE_REPLACED,
        LEVELS,
        MINION_MODELS,
        NAME_KINDS,
        RANKS,
        ROLES,
        RUNE_COLOURS,
        RUNE_POSITIONS,
        SKILL_TREES,
        SPOILS_QUALITIES,
        STATUS_BOARD_COLOURS,
    )

__all__ = ["Boss", "CHEST_GRID", "COMMANDER_DECK_SIZE", "Chapter", "CoreHero", "DEFAULT_RUNE_BAG",
           "EPIC_RARE_AWAKENINGS", "EPIC_RARE_REPLACED", "Hero", "LEVELS", "MINION_MODELS", "NAME_KINDS", "RANKS",
           "ROLES", "RUNE_COLOURS", "RUNE_POSITIONS", "Raid", "RaidSummon", "Rewards", "SKILL_TREES",
           "SPOILS_QUALITIES", "STATUS_BOARD_COLOURS", "adventure_item", "adventure_items", "canonical", "chapter",
           "chapter_id", "chapter_reward", "chapters", "chest_card", "chest_cards", "commander_card",
           "commander_cards", "core_hero", "core_heroes", "hero", "heroes", "is_known_epic", "is_spoils",
           "item_kind", "monster", "monsters", "names", "other_heroes", "recruit_row", "recruit_table",
           "source_words", "spoils_item", "spoils_items", "starting_gear", "starting_gear_item"]


def __getattr__(name: str) -> Any:
    # The constants, read on first access (facts.__getattr__); immutable ones are then kept here too.
    value = getattr(facts, name)
    if not isinstance(value, dict):
        globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

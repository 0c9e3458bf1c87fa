"""The campaign as plain, immutable values: what the rules read. No files, no terminal.

The Story Record and the Campaign Logs are in `campaign.py` (re-exported here, as callers import
them: `from ..model import Hero, Story`); the adventure under way is in `adventure.py`.
"""

from .campaign import (
    CHAPTERS,
    EQUIPMENT_KINDS,
    PLACES,
    QUALITIES,
    TRACK_STATES,
    TREES,
    ChestCard,
    Hero,
    Item,
    Rules,
    Skill,
    Story,
    Upgrade,
    chapter_id,
    hero_from,
    story_from,
)

__all__ = ["CHAPTERS", "EQUIPMENT_KINDS", "PLACES", "QUALITIES", "TRACK_STATES", "TREES", "ChestCard", "Hero",
           "Item", "Rules", "Skill", "Story", "Upgrade", "chapter_id", "hero_from", "story_from"]

"""The chest deck (SPEC 5.7; RB L349-371). Pure: reads the Story Record's values."""

from __future__ import annotations

from ..model import Story


def summary(story: Story) -> dict:
    potions_scrolls = sum(card.copies for card in story.chest_cards)
    text = f"{len(story.chest_epic)} Epic Rare + {potions_scrolls} Potions and Scrolls"
    return {"epic": list(story.chest_epic), "cards": potions_scrolls, "text": text}

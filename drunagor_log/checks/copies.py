"""One copy of a card is one card (`chest-copies`): the heroes and the party stash together hold no more
copies of a Chest card than the deck has, for every card whose copies are known. The Chest deck holds
one Artisan's Tools and one Treasure Trove (RB L371); a Potion or Scroll has the copies the party
recorded in `[chest] cards` (RB L349-359), none when the recorded deck is whole without it, and never
more than its cell of the grid holds (4 Common, 3 Uncommon, 2 Rare of its type, RB L357) once its type
and rarity are known (the catalog's, or `[cards]`). A card whose copies nobody knows is not counted.
A warning: the party may be mid-way through recording a trade.

chest.py registers the check; this module holds its body (checks/registry.py is the registry).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..errors import Problem
from ..rules import chest
from ..text import shell_word
from .registry import problem

if TYPE_CHECKING:
    from ..campaign import Campaign
    from ..model import Story


def chest_copies(c: Campaign) -> Iterator[Problem]:
    story = c.story
    held: dict[str, list[tuple[str, int, str]]] = {}  # card -> [(hero file slug, entry, name as held)]
    for slug, hero in c.active_heroes().items():
        for i, item in enumerate(hero.equipment):
            if _epic(item.name, story) or (item.kind == "consumable" and chest.is_potion_or_scroll(item.name, story)):
                held.setdefault(chest.card_key(item.name), []).append((slug, i, item.name))
    stashed: dict[str, list[str]] = {}
    for name in story.stash:
        if _epic(name, story) or chest.is_potion_or_scroll(name, story):
            stashed.setdefault(chest.card_key(name), []).append(name)
    for key in dict.fromkeys([*held, *stashed]):
        where, stash = held.get(key, []), stashed.get(key, [])
        name = where[0][2] if where else stash[0]
        most = _copies(name, story)
        count = len(where) + len(stash)
        if most is None or count <= most[0]:
            continue
        _, why, remedy = most
        holders = ", ".join(dict.fromkeys(c.heroes[s].name for s, _, _ in where))
        holders = " and ".join(p for p in (holders, "the stash" if stash else "") if p)
        at: tuple[str, ...] | tuple[str, int]
        if where:
            slug, i, _ = where[-1]
            drop = f"drop the extra ones (drunagor hero drop {shell_word(c.heroes[slug].name)} {shell_word(name)})"
            f, at = c.hero_files[slug], ("equipment", i)
        else:
            drop = f"take the extra ones out (drunagor stash remove {shell_word(name)})"
            f, at = c.story_file, ("stash",)
        yield problem(f, at, "chest-copies", f"{count} {name} are held ({holders}), but the Chest deck has {why}; "
                      f"{drop}{remedy}", "warning")


def _epic(name: str, story: Story) -> bool:
    """One of the Epic Rare pair: the catalog's (RB L369-371) or the one `[chest] epic` records."""
    return any(chest.same_card(name, e) for e in (*chest.epic_pair(), *story.chest_epic))


def _copies(name: str, story: Story) -> tuple[int, str, str] | None:
    """(copies the deck has, how the message says it, the rest of its remedy), or None when unknown."""
    if _epic(name, story):
        return 1, "one copy (RB L371)", ""
    fix = f", or correct the deck (drunagor chest swap OUT {shell_word(name)}, or chest add while it is being recorded)"
    deck = next((card for card in story.chest_cards if chest.same_card(card.name, name)), None)
    if deck is not None:
        return deck.copies, f"{deck.copies} (RB L349-359)", fix
    if sum(card.copies for card in story.chest_cards) >= chest.DECK_SIZE:
        return 0, "0 (RB L349-359)", fix
    facts = chest.card_facts(name, story.cards)
    if facts.type in chest.TYPES and facts.rarity in chest.grid_target()[facts.type]:
        cell = chest.grid_target()[facts.type][facts.rarity]
        return cell, (f"at most {cell}: it holds {cell} {facts.rarity.capitalize()} {facts.type.capitalize()}s in all "
                      "(RB L357)"), ""
    return None

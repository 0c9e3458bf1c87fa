"""A hero's equipment (SPEC 4 "Heroes"; RB L939-1052): gain, drop, give (to a hero or the party
stash), and where a card is carried (equipped or in the bag). Each function takes an open `Campaign`
for writing, resolves the names typed, asks rules/heroes.py whether the move is allowed, edits the
Campaign Logs (and story.toml's stash) through the store, and returns a `Change`.

    with Campaign(root) as c:
        change = equipment.gain(c, "Nyx", "Buckler")
        c.save()
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import catalog
from ..errors import RuleError, UsageError
from ..model import EQUIPMENT_KINDS, QUALITIES, Hero, Item
from ..names import resolve_known
from ..rules import heroes as rules
from ..store import edit
from ..text import a, shell_word
from ..values import replace
from . import Change
from . import story as story_ops  # _today: the date a correction is written with (one function: tests fix it)
from .heroes import excess_warning, find_entry, held_item, owes_now, pick

if TYPE_CHECKING:
    from ..campaign import Campaign

STASH = "stash"  # `hero give stash TO ITEM`: the party stash in story.toml


# ------------------------------------------------------------------------------------ equipment


def _gained_item(c: Campaign, item: str, kind_given: bool, new: bool) -> str:
    """The name a gained card is written under: the one the catalog or [cards] knows that `item`
    means (the one resolver). A card neither knows is new only when the user says so: --new, or its
    kind given (--kind, the fact flag) for a name that is no near miss of a known card (SPEC 10:
    "Leathr Armor" is refused with "did you mean 'Leather Armor'", nothing written)."""
    remedy = ("if it is a card drunagor does not know, say its kind once with --kind "
              "starting|spoils|adventure|epic|consumable, remembered under [cards] in story.toml")
    return resolve_known(item, "items", extra=c.story.cards, new=new, facts=kind_given, new_hint=remedy)


def _check_not_held(c: Campaign, slug: str, hero: Hero, item_name: str, kind: str) -> None:
    """One card of each: the hero has none already, nor (for Spoils and Adventure Items) another."""
    if kind == "consumable":
        return
    if hero.item(item_name):
        raise c.hero_files[slug].refuse(("equipment",), f"{hero.name} already has {item_name}", rule="equipment",
                                        remedy="there is one card of each; to move it, use hero equip/unequip")
    if kind in ("spoils", "adventure", "epic"):
        other = next((h for h in c.active_heroes().values() if h is not hero and h.item(item_name)), None)
        if other is not None:
            raise RuleError(f"{other.name} holds {item_name}, and there is one card of it", rule="equipment",
                            remedy=f"hand it over: drunagor hero give {shell_word(other.name)} "
                                   f"{shell_word(hero.name)} {shell_word(item_name)}")


def _check_not_stored(c: Campaign, item_name: str, quality: str | None) -> None:
    stored = rules.stored_entry(c.story, item_name, quality)
    if stored is not None:
        raise c.story_file.refuse(("stored",), f"{item_name} is stored ({stored!r} in `stored`): a card disposed "
                                  "of in an upgrade or taken out of the campaign can never be gained again this "
                                  "campaign (RB L429-431)", rule="stored", remedy="choose another card")


def gain(c: Campaign, name: str, item: str, *, kind: str | None = None, quality: str | None = None,
         bag: bool = False, new: bool = False, reward: bool = False, force: bool = False,
         imported: bool = False) -> Change:
    """The hero gains a card, equipped or in the bag (Consumables always go to the bag). Its kind
    comes from the catalog or [cards]; a card neither knows needs `kind` once, remembered under
    [cards]. A card in `stored` is never gained again (RB L429-431). A Spoils card is received
    Standard (RB L397, L1011); above it only with `reward` (an Interaction or Interlude gave it so,
    RB L405) or `force`, recorded under `corrections` in story.toml (`imported`: the apps' token held it so)."""
    kind_ = pick(kind, EQUIPMENT_KINDS, "equipment kind") if kind else None
    quality_ = pick(quality, QUALITIES, "quality") if quality else None
    slug, hero = c.hero(name)
    warnings: list[str] = []
    item_name = _gained_item(c, item, kind_ is not None, new)
    choice = rules.gained_kind(item_name, kind_, quality_, catalog.item_kind(item_name),
                               rules.recorded_kind(c.story, item_name))
    _check_not_stored(c, item_name, choice.quality)
    _check_not_held(c, slug, hero, item_name, choice.kind)
    received = _received_above_standard(c, slug, hero, item_name, choice.kind, choice.quality, reward, force,
                                        "from the apps' token (drunagor import)" if imported else "")
    place = "bag" if bag or choice.kind == "consumable" else "equipped"
    entry = Item(item_name, choice.kind, choice.quality, place)
    edit.append_entry(c.hero_files[slug].edit(), "equipment", _item_fields(entry))
    notes: tuple[str, ...] = (received,) if received else ()
    if choice.remember:
        edit.set_card_facts(c.story_file.edit(), item_name, rules.kind_facts(choice.kind))
        notes += (f"remembered under [cards] in story.toml: {item_name} is {a(choice.kind)} card",)
    if choice.kind == "spoils":
        warnings += excess_warning(c, slug, replace(hero, equipment=hero.equipment + (entry,)))
    else:  # a card that is no reward settles nothing: the Spoils still owed are said, not left to `check`
        owed = owes_now(c, slug, replace(hero, equipment=hero.equipment + (entry,)))
        if owed and "Spoils of the Hero" in owed[0]:
            notes += (f"{item_name} is {a(choice.kind)} card, not a "
                      f"Spoils of the Hero reward; {owed[0]}",)
    gear = rules.starting_gear(hero) + (choice.kind == "starting")
    if gear > rules.STARTING_GEAR:  # said now, not only by `check` (RB L989)
        warnings.append(f"{hero.name} now has {gear} pieces of Starting Gear, but a hero starts with "
                        f"{rules.STARTING_GEAR} and finds no more (RB L989); drunagor check reports it")
    where = "in the bag" if place == "bag" else "equipped"
    q = f", {choice.quality}" if choice.kind == "spoils" else ""
    return Change(f"{hero.name} gains {item_name} ({choice.kind}{q}, {where})", notes, tuple(warnings),
                  {"hero": hero.name, "item": item_name, "kind": choice.kind, "quality": choice.quality,
                   "place": place})


def _received_above_standard(c: Campaign, slug: str, hero: Hero, item_name: str, kind: str, quality: str | None,
                             reward: bool, force: bool, source: str = "") -> str | None:
    """Spoils are received Standard (RB L397, L1011) and improved one step at a time (RB L421-423); a card
    received Improved or Ultimate needs what made it so: an Interaction or Interlude reward (RB L405,
    `reward`) or a correction (`force`), written under `corrections` in story.toml. Returns what was said."""
    above = kind == "spoils" and quality not in (None, "standard")
    if source and not above:
        return None
    force = force or bool(source)
    if not above:
        if reward or force:
            raise UsageError(f"{'--reward' if reward else '--force'} is for a Spoils card received above Standard "
                             "(--quality improved|ultimate)", remedy=f"leave out {'--reward' if reward else '--force'}")
        return None
    if not (reward or force):
        raise c.hero_files[slug].refuse(
            ("equipment",), f"{item_name} is a Spoils card, and Spoils are received Standard (RB L397, L1011): "
            f"{quality} comes of upgrades, one step at a time (RB L421-423)", rule="spoils-quality (RB L397)",
            remedy=f"gain it Standard, then upgrade it (drunagor spoils upgrade {shell_word(hero.name)} "
                   f"{shell_word(item_name)}); if an Interaction or Interlude reward gave it {quality} (RB L405), add "
                   "--reward; to correct the record, --force (either is written under corrections)")
    why = ("an Interaction or Interlude reward (--reward, RB L405)" if reward else source or "a correction (--force)")
    line = f"{story_ops._today()}: {hero.name} received {item_name} {quality}: {why}"
    edit.append_entry(c.story_file.edit(), "corrections", line)
    return f"recorded under corrections in story.toml: {hero.name} received {item_name} {quality}, {why}"


def _item_fields(i: Item) -> dict:
    return {"name": i.name, "kind": i.kind, "quality": i.quality, "place": i.place, "from": i.given_by}


def drop(c: Campaign, name: str, item: str) -> Change:
    """A card leaves the hero's Campaign Log (used, discarded, lost)."""
    slug, hero = c.hero(name)
    i = held_item(c, slug, hero, item, "drop")
    edit.remove_entry(c.hero_files[slug].edit(), "equipment", i)
    return Change(f"{hero.name} drops {hero.equipment[i].name}", data={"hero": hero.name,
                                                                       "item": hero.equipment[i].name})


def _from_stash(c: Campaign, item: str) -> Item:
    """Take a card out of the party stash: the Item it becomes in a bag."""
    stash = list(c.story.stash)
    i = find_entry(stash, item)
    if i is None:
        raise c.story_file.refuse(("stash",), f"the party stash holds no {item!r}", rule="stash",
                                  remedy="the stash holds: " + (", ".join(stash) or "nothing"))
    item_name = stash[i]
    kind = catalog.item_kind(item_name) or rules.recorded_kind(c.story, item_name) or "consumable"
    edit.remove_entry(c.story_file.edit(), "stash", i)
    return Item(item_name, kind, "standard" if kind == "spoils" else None, "bag")


def _from_hero(c: Campaign, giver: str, receiver: Hero, to_slug: str, item: str) -> tuple[Hero, Item]:
    """Take a card out of a hero's log: the Item it becomes in the receiver's bag. A Spoils card
    keeps naming the hero who earned it (`from`), unless it goes back to them."""
    slug, hero = c.hero(giver)
    if slug == to_slug:
        raise UsageError(f"{hero.name} cannot give a card to themselves")
    i = held_item(c, slug, hero, item, "give", to=receiver)
    entry = hero.equipment[i]
    if entry.kind != "consumable" and receiver.item(entry.name):
        raise RuleError(f"{receiver.name} already has {entry.name}", rule="equipment")
    earner = entry.given_by or (hero.name if entry.kind == "spoils" else None)
    if earner and earner.casefold() == receiver.name.casefold():
        earner = None  # back with the hero who earned it
    edit.remove_entry(c.hero_files[slug].edit(), "equipment", i)
    return hero, Item(entry.name, entry.kind, entry.quality, "bag", earner)


def _to_stash(c: Campaign, giver: str, item: str) -> Change:
    """A Consumable back into the party stash (the inverse of `hero give stash HERO ITEM`): the
    stash holds only Consumables (RB L972-974)."""
    slug, hero = c.hero(giver)
    i = held_item(c, slug, hero, item, "give")
    entry = hero.equipment[i]
    if entry.kind != "consumable":
        raise c.hero_files[slug].refuse(("equipment",), f"{entry.name} is not a Consumable Item, and the party "
                                        "stash holds only Consumables (RB L972-974)", rule="stash",
                                        remedy="to take it out of the Campaign Log: drunagor hero drop "
                                               f"{shell_word(hero.name)} {shell_word(entry.name)}")
    edit.remove_entry(c.hero_files[slug].edit(), "equipment", i)
    edit.append_entry(c.story_file.edit(), "stash", entry.name)
    return Change(f"{hero.name} puts {entry.name} in the party stash",
                  data={"from": hero.name, "to": STASH, "item": entry.name})


def give(c: Campaign, giver: str, to: str, item: str) -> Change:
    """Hand a card to another hero's bag; `giver` "stash" hands one out from the party stash, `to`
    "stash" puts a Consumable back there."""
    from_stash, to_stash = (x.strip().casefold() == STASH for x in (giver, to))
    if from_stash and to_stash:
        raise UsageError("give from the stash to a hero, or from a hero to the stash")
    if to_stash:
        return _to_stash(c, giver, item)
    to_slug, receiver = c.hero(to)
    if from_stash:
        moved = _from_stash(c, item)
        summary = f"{receiver.name} takes {moved.name} from the party stash (in the bag)"
        source = STASH
    else:
        hero, moved = _from_hero(c, giver, receiver, to_slug, item)
        summary = f"{hero.name} gives {moved.name} to {receiver.name} (in the bag)"
        source = hero.name
    edit.append_entry(c.hero_files[to_slug].edit(), "equipment", _item_fields(moved))
    return Change(summary, data={"from": source, "to": receiver.name, "item": moved.name})


def place(c: Campaign, name: str, item: str, where: str) -> Change:
    """Move a card the hero has to `where`: "equipped" or "bag" (a Consumable is never equipped)."""
    slug, hero = c.hero(name)
    i = held_item(c, slug, hero, item, "equip" if where == "equipped" else "unequip")
    entry = hero.equipment[i]
    if where == "equipped" and entry.kind == "consumable":
        raise c.hero_files[slug].refuse(("equipment",), f"{entry.name} is a Consumable Item: it is carried in "
                                        "the bag and used, never equipped", rule="equipment")
    if entry.place != where:
        edit.set_entry_field(c.hero_files[slug].edit(), "equipment", i, "place", where)
    done = f"equips {entry.name}" if where == "equipped" else f"puts {entry.name} in the bag"
    return Change(f"{hero.name} {done}", data={"hero": hero.name, "item": entry.name, "place": where})


def equip(c: Campaign, name: str, item: str) -> Change:
    """Equip a card the hero has in the bag."""
    return place(c, name, item, "equipped")


def unequip(c: Campaign, name: str, item: str) -> Change:
    """Put an equipped card in the hero's bag."""
    return place(c, name, item, "bag")



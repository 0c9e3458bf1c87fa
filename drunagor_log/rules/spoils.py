"""Improving Spoils Equipment (SPEC 5.4; RB L409-435). Pure: reads a hero's Campaign Log values.

An upgrade disposes of one Artisan's Tools plus one other Equipment card of the hero's choice that is
not a Consumable, an Epic Item or Starting Gear (RB L413); both disposed cards must be in the hero's
bag, and the item being improved cannot be the other card (RB L419). The item goes up exactly one
quality, Standard -> Improved -> Ultimate (RB L421-423). Afterwards the Artisan's Tools go back to
the Chest deck, while the discarded card and the old-quality card are stored for the rest of the
campaign (RB L431).

A reward upgrade, the "Spoil of the Hero Equipment Upgrade" of the new-recruit table (RB L1015-1016), is
a reward, not an upgrade found at the table: the item goes up one step and nothing is disposed of (no
Artisan's Tools, no other card); the old-quality card is replaced by its advanced version and stored
as after any upgrade (RB L415, L431). It is refused when the hero is owed none.

Note on RB L419 "Both cards, being disposed this way, must be in that Hero's bag": the two cards
disposed are the Artisan's Tools and the other card; the item being improved is not disposed (it is
replaced by its advanced version, RB L415), so it may be equipped.
"""

from __future__ import annotations

from .. import catalog
from ..errors import RuleError, UsageError
from ..model import QUALITIES, Hero, Item
from ..names import closest
from ..text import shell_word
from ..values import record
from .chest import recorded, same_card

RULE = "spoils-upgrade"
TOOLS = "Artisan's Tools"
KIND_WORDS = {
    "starting": "Starting Gear",
    "spoils": "a Spoils card",
    "adventure": "an Adventure Item",
    "epic": "an Epic Item",
    "consumable": "a Consumable Item",
}


def next_quality(quality: str) -> str | None:
    """standard -> improved -> ultimate -> None."""
    i = QUALITIES.index(quality)
    return QUALITIES[i + 1] if i + 1 < len(QUALITIES) else None


def find_item(hero: Hero, name: str) -> int | None:
    """Index of the hero's card called name (any case), else the only one it is a prefix of."""
    for i, it in enumerate(hero.equipment):
        if same_card(it.name, name):
            return i
    q = name.strip().casefold()
    hits = [i for i, it in enumerate(hero.equipment) if it.name.casefold().startswith(q)] if q else []
    names = {hero.equipment[i].name.casefold() for i in hits}
    return hits[0] if len(names) == 1 else None


def epic_fact(name: str, kind: str, cards: dict) -> bool | None:
    """Is the card an Epic Item? The log's kind "epic", the catalog (Frozen Tears of Alagast, RB
    L417), or the fact the player recorded under [cards]; None when nobody knows."""
    if kind == "epic":
        return True
    if kind in ("spoils", "starting", "consumable"):
        return False
    entry = catalog.adventure_item(name)
    if entry is not None and isinstance(entry.get("epic"), bool):
        return entry["epic"]
    _, facts = recorded(cards, name)
    if isinstance(facts.get("epic"), bool):
        return facts["epic"]
    return None


@record
class UpgradePlan:
    hero: str
    item: Item
    item_index: int
    to: str
    tools_index: int
    discard: Item
    discard_index: int
    record_epic: bool  # store `epic = false` for the discarded card under [cards]


def plan_upgrade(hero: Hero, item: str, discard: str, cards: dict, *, to: str | None = None,
                 epic: bool | None = None) -> UpgradePlan:
    """The upgrade, or a RuleError naming the condition of RB L409-435 that refuses it.

    `epic` is what the player says about the discarded card (--epic/--not-epic) when no source
    knows whether it is an Epic Item."""
    i, step = _upgradable(hero, item, to)
    it = hero.equipment[i]
    _discarded(hero, discard)  # both names before the rules
    tools = _tools_in_bag(hero)
    d, record = _other_card(hero, discard, it, i, cards, epic)
    return UpgradePlan(hero.name, it, i, step, tools, hero.equipment[d], d, record)


@record
class RewardPlan:
    hero: str
    item: Item
    item_index: int
    to: str


def plan_reward_upgrade(hero: Hero, item: str, owed: int, *, to: str | None = None) -> RewardPlan:
    """A reward upgrade (RB L1015-1016), or the RuleError that refuses it: none owed (`owed`, the
    reward upgrades the hero is owed now), or the item cannot go up a step (RB L409-423)."""
    if owed < 1:
        raise RuleError(f"{hero.name} is owed no Spoils upgrade as a reward (the new-recruit table gives one from "
                        f"chapter 08 on, RB L1015-1016)", rule=RULE,
                        remedy=f"an upgrade found at the table disposes of Artisan's Tools and another card from the "
                               f"bag: drunagor spoils upgrade {shell_word(hero.name)} {shell_word(item)} "
                               "--discard OTHER")
    i, step = _upgradable(hero, item, to)
    return RewardPlan(hero.name, hero.equipment[i], i, step)


def upgradable(hero: Hero) -> list[str]:
    """The hero's cards `spoils upgrade` can improve: Spoils cards below Ultimate (RB L409-423)."""
    return [it.name for it in hero.equipment if it.kind == "spoils" and next_quality(it.quality or "standard")]


def disposable(hero: Hero, item: str | None, cards: dict) -> list[str]:
    """The hero's cards `spoils upgrade --discard` can dispose of beside the Artisan's Tools: in the bag,
    not the item improved, not a Consumable, Starting Gear or a known Epic Item (RB L413-419)."""
    return [e.name for e in hero.equipment if e.place == "bag" and e.kind not in ("consumable", "starting")
            and not (item and same_card(e.name, item)) and epic_fact(e.name, e.kind, cards) is not True]


def _upgradable(hero: Hero, item: str, to: str | None) -> tuple[int, str]:
    """The index of the Spoils card to improve and the quality it reaches (one step, RB L421-423)."""
    who = hero.name
    i = find_item(hero, item)
    if i is None:
        held = ", ".join(it.name for it in hero.equipment) or "nothing"
        hint = closest(item, [it.name for it in hero.equipment])
        raise RuleError(f"{who} holds no {item}", rule=RULE,
                        remedy=(f"did you mean {hint!r}? " if hint else "")
                        + f"name one of {who}'s Spoils cards ({who} holds: {held})")
    it = hero.equipment[i]
    if it.kind != "spoils":
        raise RuleError(f"{it.name} is {KIND_WORDS[it.kind]}, not a Spoils card: only Spoils Equipment can be "
                        f"improved (RB L409-413)", rule=RULE, remedy="name a Spoils of the Hero card")
    quality = it.quality or "standard"
    step = next_quality(quality)
    if step is None:
        raise RuleError(f"{it.name} is already Ultimate, the highest quality (RB L421)", rule=RULE,
                        remedy="improve another Spoils card")
    if to is not None:
        _check_to(it.name, quality, step, to)
    return i, step


def _check_to(name: str, quality: str, step: str, to: str) -> None:
    """--to names the quality expected: it must be the next one."""
    to = to.strip().casefold()
    if to not in QUALITIES:
        raise UsageError(f"--to must be improved or ultimate, not {to!r}", rule=RULE)
    if to == step:
        return
    if QUALITIES.index(to) > QUALITIES.index(step):
        raise RuleError(f"{name} is {quality.capitalize()}: it cannot go straight to {to.capitalize()}; "
                        f"each upgrade goes one step, Standard, Improved, then Ultimate (RB L421-423)",
                        rule=RULE, remedy=f"upgrade it to {step.capitalize()} first (--to {step})")
    raise RuleError(f"{name} is already {quality.capitalize()}; an upgrade takes it to "
                    f"{step.capitalize()} (RB L421)", rule=RULE, remedy=f"use --to {step}")


def _tools_in_bag(hero: Hero) -> int:
    """The index of the Artisan's Tools the upgrade disposes of, from the bag (RB L413, L419)."""
    who = hero.name
    tools = [k for k, e in enumerate(hero.equipment) if same_card(e.name, TOOLS)]
    in_bag = [k for k in tools if hero.equipment[k].place == "bag"]
    if not in_bag:
        where = " (they are equipped; put them in the bag)" if tools else ""
        raise RuleError(f"{who} has no Artisan's Tools in the bag{where}: an upgrade disposes of one Artisan's "
                        f"Tools from the hero's bag (RB L413, L419)", rule=RULE,
                        remedy=f"{who} must first find Artisan's Tools in a Chest (or be given one): "
                               f"drunagor hero gain {shell_word(who)} {shell_word(TOOLS)} --bag")
    return in_bag[0]


def _other_card(hero: Hero, discard: str, it: Item, i: int, cards: dict, epic: bool | None) -> tuple[int, bool]:
    """The other disposed card (index, whether to record `epic = false` for it): in the bag, not the
    item itself, not a Consumable, an Epic Item or Starting Gear (RB L413-419)."""
    who = hero.name
    d = _discarded(hero, discard)
    other = hero.equipment[d]
    if d == i or same_card(other.name, it.name):
        raise RuleError(f"{it.name} cannot be both improved and disposed of: the other card must be a "
                        f"different Equipment card (RB L419)", rule=RULE, remedy="discard another card from the bag")
    _refuse_kind(other)
    record = _refuse_epic(other, cards, epic)
    if other.place != "bag":
        raise RuleError(f"{other.name} is equipped: both disposed cards must be in {who}'s bag (RB L419)",
                        rule=RULE, remedy=f"unequip it first: drunagor hero unequip {shell_word(who)} "
                                             f"{shell_word(other.name)}")
    return d, record


def _discarded(hero: Hero, discard: str) -> int:
    """The index of the card --discard names, else the refusal with the closest card held."""
    who = hero.name
    d = find_item(hero, discard)
    if d is None:
        hint = closest(discard, [e.name for e in hero.equipment])
        raise RuleError(f"{who} holds no {discard}: the other disposed card must be in {who}'s bag (RB L419)",
                        rule=RULE, remedy=(f"did you mean {hint!r}? " if hint else "") + f"discard a card from "
                        f"{who}'s bag: " + (", ".join(e.name for e in hero.equipment if e.place == "bag")
                                            or "the bag is empty"))
    return d


def _refuse_kind(other: Item) -> None:
    """A Consumable or Starting Gear cannot be the other disposed card (RB L413)."""
    if other.kind == "consumable":
        extra = (" (the Artisan's Tools disposed of are a separate card, RB L389, L413)"
                 if same_card(other.name, TOOLS) else "")
        raise RuleError(f"{other.name} is a Consumable Item and cannot be the other disposed card{extra}; it must "
                        f"not be a Consumable, an Epic Item or Starting Gear (RB L413)", rule=RULE,
                        remedy="discard a Spoils card or an Adventure Item that is not Epic")
    if other.kind == "starting":
        raise RuleError(f"{other.name} is Starting Gear and cannot be the other disposed card; it must not be a "
                        f"Consumable, an Epic Item or Starting Gear (RB L413)", rule=RULE,
                        remedy="discard a Spoils card or an Adventure Item that is not Epic")


def _refuse_epic(other: Item, cards: dict, epic: bool | None) -> bool:
    """An Epic Item cannot be disposed of (RB L413-417); True when the player's --not-epic is to be
    recorded (no source knew)."""
    is_epic = epic_fact(other.name, other.kind, cards)
    record = False
    if is_epic is None:
        if epic is None:
            raise UsageError(f"drunagor does not know whether {other.name} is an Epic Item, and an Epic Item "
                             f"cannot be disposed of (RB L413-417: Frozen Tears of Alagast cannot, the Ragged "
                             f"Doll can)", rule=RULE,
                             remedy="look at the card and say it once: --not-epic (remembered) or --epic")
        is_epic = epic
        record = not epic
    elif epic is not None and epic != is_epic:
        raise UsageError(f"{other.name} is {'an Epic Item' if is_epic else 'not an Epic Item'} "
                         f"(as drunagor knows it); --{'not-' if not epic else ''}epic contradicts that",
                         rule=RULE, remedy="leave the flag out")
    if is_epic:
        like = "" if other.name == "Frozen Tears of Alagast" else ", as Frozen Tears of Alagast cannot"
        raise RuleError(f"{other.name} is an Epic Item and cannot be disposed of to improve Spoils Equipment"
                        f"{like} (RB L413-417)", rule=RULE,
                        remedy="discard a Spoils card or an Adventure Item that is not Epic")
    return record

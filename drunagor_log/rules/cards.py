"""Facts about cards (SPEC "User-recorded facts"): what the catalog knows, what the player recorded
once under `[cards]` in story.toml, and which recorded values are wrong. Pure: no files.

A fact the catalog knows is never recorded (nor guessed where it does not); a recorded fact must be
a value drunagor understands and must not contradict a source. `card set` and `check` apply the same
rules (`problems`).

    known("Haste")["position"]                  # "orange-bottom" (RB L824)
    problems("Haste", {"position": "red-top"})  # ["Haste holds the orange-bottom Rune position ..."]
"""

from __future__ import annotations

from typing import Any

from .. import catalog
from ..model import EQUIPMENT_KINDS
from ..text import a
from .chest import FACT_TYPES, RARITIES, conflicts, recorded, same_card
from .commander import parse_position
from .spoils import epic_fact

FACTS = ("type", "rarity", "epic", "position", "kind")
CHOICES: dict[str, tuple[str, ...]] = {"type": FACT_TYPES, "rarity": RARITIES, "kind": EQUIPMENT_KINDS}


def catalog_name(name: str) -> str | None:
    """The catalog's spelling of a card (chest card, Spoils, Adventure Item, Starting Gear, Commander
    Attack card), None when the catalog does not know it."""
    for entry in (catalog.chest_card(name), catalog.spoils_item(name), catalog.adventure_item(name),
                  catalog.starting_gear_item(name)):
        if entry is not None:
            return str(entry["name"])
    return next((c["name"] for c in catalog.commander_cards() if same_card(c["name"], name)), None)


def catalog_names() -> tuple[str, ...]:
    """Every card name the catalog knows (for "did you mean")."""
    return (tuple(c["name"] for c in catalog.chest_cards()) + tuple(s["name"] for s in catalog.spoils_items())
            + tuple(catalog.starting_gear()) + tuple(c["name"] for c in catalog.commander_cards())
            + tuple(a["name"] for a in catalog.adventure_items()))


def known(name: str) -> dict[str, Any]:
    """The facts the catalog gives about a card (None where it gives none)."""
    chest = catalog.chest_card(name) or {}
    kind = catalog.item_kind(name)
    return {
        "type": chest.get("type"),
        "rarity": chest.get("rarity"),
        "epic": epic_fact(name, kind, {}) if kind is not None else None,
        "position": catalog.commander_card(name),
        "kind": kind,
    }


def facts_of(name: str, cards: dict) -> dict[str, Any]:
    """What drunagor knows about a card: the catalog first, then the facts recorded under [cards]."""
    _, rec = recorded(cards, name)
    cat = known(name)
    return {f: cat[f] if cat[f] is not None else rec.get(f) for f in FACTS}


def problems(name: str, facts: dict) -> list[tuple[str, str, str]]:
    """What is wrong with the facts recorded about `name`: (fact, what is wrong, the value's fix),
    where the fix is a `card set` flag ("" when the fact is to be forgotten: a source says otherwise)."""
    out = _bad_values(name, facts)
    out += _contradictions(name, facts)
    return out


def _bad_values(name: str, facts: dict) -> list[tuple[str, str, str]]:

    out = []
    for fact, choices in CHOICES.items():
        value = facts.get(fact)
        if value is not None and value not in choices:
            out.append((fact, f"{name}: {fact} {value!r} is not one of {', '.join(choices)}",
                        f"--{fact} {'|'.join(choices)}"))
    pos = facts.get("position")
    if pos is not None and (not isinstance(pos, str) or parse_position(pos) != pos):
        out.append(("position", f"{name}: position {pos!r} is not a Rune position (COLOUR-top or COLOUR-bottom, "
                                f"e.g. \"orange-bottom\")", "--position COLOUR-top|bottom"))
    epic = facts.get("epic")
    if epic is not None and not isinstance(epic, bool):
        out.append(("epic", f"{name}: epic must be true or false, not {epic!r}", "--epic|--not-epic"))
    return out


def _contradictions(name: str, facts: dict) -> list[tuple[str, str, str]]:
    """Recorded facts a source contradicts: the catalog's value holds, the recorded one is to go."""
    cat = known(name)
    out = []
    for fact in FACTS:
        value = facts.get(fact)
        if value is None or cat[fact] is None or value == cat[fact]:
            continue
        if fact in ("type", "rarity") and isinstance(value, str):
            said = conflicts(name, value if fact == "type" else None, value if fact == "rarity" else None)
        elif fact == "position":
            said = [f"{name} holds the {cat[fact]} Rune position (RB L824-826), not {value}"]
        elif fact == "epic":
            entry = catalog.adventure_item(name) or {}
            where = (f" ({catalog.source_words(entry['source'])})" if entry.get("source")
                     else f" (it is {a(str(cat['kind']))} card)")
            said = [f"{catalog_name(name) or name} is {'' if cat[fact] else 'not '}an Epic Item{where}"]
        else:
            said = [f"{catalog_name(name) or name} is {a(str(cat[fact]))} card, not {a(str(value))} one"]
        out += [(fact, s, "") for s in said]
    return out

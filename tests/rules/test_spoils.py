"""Pure Spoils upgrade rules (rules/spoils.py, RB L409-435): every condition, each with its message."""

from __future__ import annotations

import pytest

from drunagor_log.errors import RuleError, UsageError
from drunagor_log.model import hero_from
from drunagor_log.rules import spoils

TOOLS = {"name": "Artisan's Tools", "kind": "consumable", "place": "bag"}


def hero(*equipment, name="Nyx"):
    return hero_from({"name": name, "class": "Assassin", "role": "Striker", "equipment": list(equipment)})


def item(name, kind="spoils", quality=None, place="bag"):
    e = {"name": name, "kind": kind, "place": place}
    if quality:
        e["quality"] = quality
    return e


def refusal(h, it, other, cards=None, error=RuleError, **kw) -> str:
    with pytest.raises(error) as exc:
        spoils.plan_upgrade(h, it, other, cards or {}, **kw)
    assert exc.value.rule == "spoils-upgrade"
    return exc.value.message


# ------------------------------------------------------------------------ the rulebook's examples


def test_rb_l417_frozen_tears_of_alagast_is_epic_and_cannot_be_disposed_of():
    h = hero(item("Twin-Blades", quality="standard", place="equipped"), TOOLS,
             item("Frozen Tears of Alagast", kind="adventure"))
    assert refusal(h, "Twin-Blades", "Frozen Tears of Alagast") == (
        "Frozen Tears of Alagast is an Epic Item and cannot be disposed of to improve Spoils Equipment "
        "(RB L413-417)")
    # the player saying otherwise does not change a fact the rulebook gives
    assert refusal(h, "Twin-Blades", "Frozen Tears of Alagast", error=UsageError, epic=False) == (
        "Frozen Tears of Alagast is an Epic Item (as drunagor knows it); --not-epic contradicts that")


def test_rb_l417_the_ragged_doll_can_be_disposed_of():
    h = hero(item("Twin-Blades", quality="standard", place="equipped"), TOOLS, item("Ragged Doll", kind="adventure"))
    plan = spoils.plan_upgrade(h, "twin", "ragged", {})
    assert (plan.item.name, plan.to, plan.discard.name, plan.record_epic) == (
        "Twin-Blades", "improved", "Ragged Doll", False)
    assert (plan.item_index, plan.tools_index, plan.discard_index) == (0, 1, 2)


def test_rb_l421_423_standard_cannot_go_straight_to_ultimate():
    h = hero(item("Twin-Blades", quality="standard"), TOOLS, item("War Bow"))
    assert refusal(h, "Twin-Blades", "War Bow", to="ultimate") == (
        "Twin-Blades is Standard: it cannot go straight to Ultimate; each upgrade goes one step, Standard, "
        "Improved, then Ultimate (RB L421-423)")
    assert spoils.plan_upgrade(h, "Twin-Blades", "War Bow", {}, to="Improved").to == "improved"
    h = hero(item("Twin-Blades", quality="improved"), TOOLS, item("War Bow"))
    assert spoils.plan_upgrade(h, "Twin-Blades", "War Bow", {}).to == "ultimate"
    assert refusal(h, "Twin-Blades", "War Bow", to="improved") == (
        "Twin-Blades is already Improved; an upgrade takes it to Ultimate (RB L421)")
    assert refusal(h, "Twin-Blades", "War Bow", error=UsageError, to="legendary") == (
        "--to must be improved or ultimate, not 'legendary'")


def test_spoils_without_a_quality_are_standard():
    h = hero(item("Twin-Blades"), TOOLS, item("War Bow"))
    assert spoils.plan_upgrade(h, "Twin-Blades", "War Bow", {}).to == "improved"


# ------------------------------------------------------------------------ each refusal, its message


def test_the_item_must_be_held():
    h = hero(TOOLS, item("War Bow"))
    assert refusal(h, "Twin-Blades", "War Bow") == "Nyx holds no Twin-Blades"


@pytest.mark.parametrize("kind, words", [("starting", "Starting Gear"), ("adventure", "an Adventure Item"),
                                         ("epic", "an Epic Item"), ("consumable", "a Consumable Item")])
def test_the_item_must_be_a_spoils_card(kind, words):
    h = hero(item("Plate Armor", kind=kind), TOOLS, item("War Bow"))
    assert refusal(h, "Plate Armor", "War Bow") == (
        f"Plate Armor is {words}, not a Spoils card: only Spoils Equipment can be improved (RB L409-413)")


def test_an_ultimate_item_goes_no_further():
    h = hero(item("Twin-Blades", quality="ultimate"), TOOLS, item("War Bow"))
    assert refusal(h, "Twin-Blades", "War Bow") == "Twin-Blades is already Ultimate, the highest quality (RB L421)"


def test_artisans_tools_must_be_in_the_bag():
    h = hero(item("Twin-Blades"), item("War Bow"))
    assert refusal(h, "Twin-Blades", "War Bow") == (
        "Nyx has no Artisan's Tools in the bag: an upgrade disposes of one Artisan's Tools from the hero's bag "
        "(RB L413, L419)")
    h = hero(item("Twin-Blades"), {**TOOLS, "place": "equipped"}, item("War Bow"))
    assert refusal(h, "Twin-Blades", "War Bow") == (
        "Nyx has no Artisan's Tools in the bag (they are equipped; put them in the bag): an upgrade disposes of "
        "one Artisan's Tools from the hero's bag (RB L413, L419)")


def test_the_other_card_must_be_held():
    h = hero(item("Twin-Blades"), TOOLS)
    assert refusal(h, "Twin-Blades", "War Bow") == (
        "Nyx holds no War Bow: the other disposed card must be in Nyx's bag (RB L419)")


def test_the_other_card_must_be_in_the_bag():
    # RB L419: the two disposed cards (Artisan's Tools and the other card) must be in the bag; the
    # item improved is not disposed of, so it may stay equipped.
    h = hero(item("Twin-Blades", place="equipped"), TOOLS, item("War Bow", place="equipped"))
    assert refusal(h, "Twin-Blades", "War Bow") == "War Bow is equipped: both disposed cards must be in Nyx's bag (RB L419)"


def test_the_other_card_cannot_be_the_item_itself():
    h = hero(item("Twin-Blades"), TOOLS)
    assert refusal(h, "Twin-Blades", "Twin-Blades") == (
        "Twin-Blades cannot be both improved and disposed of: the other card must be a different Equipment card "
        "(RB L419)")


def test_the_other_card_cannot_be_a_consumable():
    h = hero(item("Twin-Blades"), TOOLS, item("Potion of Healing", kind="consumable"))
    assert refusal(h, "Twin-Blades", "Potion of Healing") == (
        "Potion of Healing is a Consumable Item and cannot be the other disposed card; it must not be a "
        "Consumable, an Epic Item or Starting Gear (RB L413)")
    # a second Artisan's Tools is a Consumable too (only the one disposed of may be, RB L389)
    h = hero(item("Twin-Blades"), TOOLS, TOOLS)
    assert refusal(h, "Twin-Blades", "Artisan's Tools").startswith(
        "Artisan's Tools is a Consumable Item and cannot be the other disposed card (the Artisan's Tools "
        "disposed of are a separate card, RB L389, L413)")


def test_the_other_card_cannot_be_starting_gear():
    h = hero(item("Twin-Blades"), TOOLS, item("Plate Armor", kind="starting"))
    assert refusal(h, "Twin-Blades", "Plate Armor") == (
        "Plate Armor is Starting Gear and cannot be the other disposed card; it must not be a Consumable, an "
        "Epic Item or Starting Gear (RB L413)")


def test_the_other_card_cannot_be_epic():
    h = hero(item("Twin-Blades"), TOOLS, item("Crown of Ash", kind="epic"))
    assert refusal(h, "Twin-Blades", "Crown of Ash") == (
        "Crown of Ash is an Epic Item and cannot be disposed of to improve Spoils Equipment, as Frozen Tears of "
        "Alagast cannot (RB L413-417)")


def test_whether_an_adventure_item_is_epic_is_asked_once_then_remembered():
    h = hero(item("Twin-Blades"), TOOLS, item("Captain's Brooch", kind="adventure"))
    assert refusal(h, "Twin-Blades", "Captain's Brooch", error=UsageError) == (
        "drunagor does not know whether Captain's Brooch is an Epic Item, and an Epic Item cannot be disposed of "
        "(RB L413-417: Frozen Tears of Alagast cannot, the Ragged Doll can)")
    plan = spoils.plan_upgrade(h, "Twin-Blades", "Captain's Brooch", {}, epic=False)
    assert plan.record_epic is True  # the command stores `epic = false` under [cards]
    assert refusal(h, "Twin-Blades", "Captain's Brooch", epic=True).startswith("Captain's Brooch is an Epic Item")
    # recorded once (by this command or by `hero gain`), used ever after
    plan = spoils.plan_upgrade(h, "Twin-Blades", "Captain's Brooch", {"captain's brooch": {"epic": False}})
    assert plan.record_epic is False
    assert refusal(h, "Twin-Blades", "Captain's Brooch", {"Captain's Brooch": {"kind": "adventure", "epic": True}}
                   ).startswith("Captain's Brooch is an Epic Item")


def test_another_spoils_card_may_be_disposed_of():
    h = hero(item("Twin-Blades", quality="improved", place="equipped"), item("War Bow", quality="improved"), TOOLS)
    plan = spoils.plan_upgrade(h, "Twin-Blades", "War Bow", {})
    assert (plan.to, plan.discard.kind, plan.tools_index, plan.discard_index) == ("ultimate", "spoils", 2, 1)


def test_next_quality():
    assert [spoils.next_quality(q) for q in ("standard", "improved", "ultimate")] == ["improved", "ultimate", None]

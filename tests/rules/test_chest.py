"""Pure Chest deck rules (rules/chest.py, RB L345-371) and Commander Attack deck rules
(rules/commander.py, RB L816-828): no files, no terminal."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drunagor_log.errors import RuleError, UsageError
from drunagor_log.model import ChestCard, hero_from, story_from
from drunagor_log.rules import chest, commander

PAIR = ["Artisan's Tools", "Treasure Trove"]


def story(cards=(), facts=None, epic=PAIR, commander_cards=(), stash=()):
    return story_from({
        "chest": {"epic": list(epic), "cards": [{"name": n, "copies": k} for n, k in cards]},
        "cards": facts or {},
        "commander": {"cards": list(commander_cards)},
        "stash": list(stash),
    })


# Facts a party recorded once (the catalog knows the rarity of only three Scrolls, RB L363-365).
FACTS = {
    "Potion of Healing": {"rarity": "common"},
    "Potion of Strength": {"rarity": "common"},
    "Potion of Fortitude": {"rarity": "uncommon"},
    "Potion of Haste": {"rarity": "rare"},
    "Scroll of Icy Bolts": {"rarity": "uncommon"},
    "Scroll of Polymorph": {"rarity": "rare"},
}
LEGAL = [
    ("Potion of Healing", 2), ("Potion of Strength", 2), ("Potion of Fortitude", 3), ("Potion of Haste", 2),
    ("Scroll of Incinerate", 2), ("Scroll of Beguile", 2), ("Scroll of Icy Bolts", 3), ("Scroll of Polymorph", 2),
]


# ----------------------------------------------------------------------- the rulebook's examples


def test_rb_l365_two_incinerate_two_beguile_is_a_legal_common_scroll_row():
    g = chest.grid(story([("Scroll of Incinerate", 2), ("Scroll of Beguile", 2)]))
    assert g.counts["scroll"] == {"common": 4, "uncommon": 0, "rare": 0}
    assert g.problems == ()
    assert g.status == "recording"
    assert g.text() == ("being recorded: 4 of 18 Potions and Scrolls; to record: 4 Common Potions, "
                        "3 Uncommon Potions, 2 Rare Potions, 3 Uncommon Scrolls, 2 Rare Scrolls")


def test_rb_l359_eight_common_potions_and_no_common_scroll_is_illegal():
    cards = [("Potion of Healing", 4), ("Potion of Strength", 4), ("Potion of Fortitude", 1),
             ("Scroll of Icy Bolts", 3), ("Scroll of Polymorph", 2), ("Scroll of Charm", 4)]
    facts = {**FACTS, "Scroll of Charm": {"rarity": "uncommon"}}
    g = chest.grid(story(cards, facts))
    assert g.status == "illegal"
    assert [p.message for p in g.problems] == [
        "8 Common Potions: the grid holds 4 (RB L357-359)",
        "7 Uncommon Scrolls: the grid holds 3 (RB L357-359)",
    ]
    assert g.text().startswith("illegal: 8 Common Potions: the grid holds 4 (RB L357-359); ")


def test_rb_l359_seven_uncommon_potions_and_no_common_potion_is_illegal():
    cards = [("Potion of Fortitude", 4), ("Potion of Strength", 3), ("Potion of Haste", 2)]
    facts = {**FACTS, "Potion of Strength": {"rarity": "uncommon"}}
    g = chest.grid(story(cards, facts))
    assert [p.message for p in g.problems] == ["7 Uncommon Potions: the grid holds 3 (RB L357-359)"]


def test_a_full_grid_with_the_epic_pair_is_legal():
    g = chest.grid(story(LEGAL, FACTS))
    assert g.status == "legal" and g.legal
    assert g.total == 18 and g.gaps() == []
    assert g.text() == ("legal: Epic Rare Artisan's Tools and Treasure Trove + 9 Potions + 9 Scrolls, "
                        "each 4 Common / 3 Uncommon / 2 Rare")


def test_an_empty_deck_is_not_recorded_yet_and_not_a_problem():
    g = chest.grid(story())
    assert (g.status, g.problems) == ("empty", ())
    assert g.text() == ("not recorded yet (Epic Rare: Artisan's Tools and Treasure Trove); record it with "
                        "`drunagor chest add CARD --copies N`")
    # a Story Record with no [chest] table at all is just as quiet
    assert chest.grid(story_from({})).problems == ()


# ------------------------------------------------------------------------------ facts


def test_facts_come_from_the_catalog_first_then_from_what_the_player_recorded():
    f = chest.card_facts("scroll of incinerate", {})
    assert (f.name, f.type, f.rarity, f.in_catalog) == ("Scroll of Incinerate", "scroll", "common", True)
    f = chest.card_facts("Potion of Healing", {})
    assert (f.type, f.rarity, f.missing) == ("potion", None, ("rarity",))
    f = chest.card_facts("Potion of Healing", {"potion of healing": {"rarity": "rare"}})
    assert (f.type, f.rarity, f.missing) == ("potion", "rare", ())
    f = chest.card_facts("Elixir of Doom", {})
    assert (f.type, f.rarity, f.missing, f.in_catalog) == (None, None, ("type", "rarity"), False)
    # a recorded value drunagor does not understand is no fact at all
    assert chest.card_facts("Elixir of Doom", {"Elixir of Doom": {"type": "potato", "rarity": 3}}).missing == (
        "type", "rarity")
    # a recorded fact never overrides the rulebook (RB L365: Beguile is Common)
    assert chest.card_facts("Scroll of Beguile", {"Scroll of Beguile": {"rarity": "rare"}}).rarity == "common"
    assert chest.conflicts("Scroll of Beguile", None, "rare") == [
        "Scroll of Beguile is common, not rare (the publisher's companion app; rarity RB L365)"]
    assert chest.conflicts("Combustible Grenade", "scroll", None) == [
        "Combustible Grenade is a potion, not a scroll (the publisher's companion app)"]
    assert chest.conflicts("Elixir of Doom", "potion", "rare") == []


def test_cards_with_missing_facts_are_named_and_keep_the_deck_from_being_legal():
    cards = [c for c in LEGAL if c[0] != "Potion of Haste"] + [("Potion of Haste", 2)]
    facts = {k: v for k, v in FACTS.items() if k != "Potion of Haste"}
    g = chest.grid(story(cards, facts))
    assert g.missing == (("Potion of Haste", ("rarity",)),)
    assert g.status == "recording" and g.problems == ()
    assert g.text() == ("being recorded: 18 of 18 Potions and Scrolls; facts missing: rarity of Potion of Haste")
    assert g.type_totals["potion"] == 9


def test_too_many_potions_of_unknown_rarity_break_the_type_count():
    g = chest.grid(story([("Potion of Healing", 9), ("Potion of Strength", 1)]))
    assert [p.message for p in g.problems] == ["10 Potions: the deck holds 9 (RB L349-355)"]


def test_too_many_cards_of_unknown_type():
    g = chest.grid(story([("Mystery A", 9), ("Mystery B", 9), ("Mystery C", 1)]))
    assert [p.message for p in g.problems] == ["19 Potions and Scrolls: the deck holds 18 (RB L349)"]


def test_the_epic_pair_is_fixed():
    def msgs(**kw):
        return [p.message for p in chest.grid(story(LEGAL, FACTS, **kw)).problems]

    assert msgs(epic=["Artisan's Tools", "Cosmic Gemstone"]) == [
        "the Epic Rare pair must be exactly Artisan's Tools and Treasure Trove, which cannot be replaced "
        "(RB L345, L369-371): Cosmic Gemstone was replaced for good before the campaign (RB L369-371); "
        "Treasure Trove missing"]
    assert msgs(epic=["Artisan's Tools"]) == [
        "the Epic Rare pair must be exactly Artisan's Tools and Treasure Trove, which cannot be replaced "
        "(RB L345, L369-371): Treasure Trove missing"]
    assert msgs(epic=[]) == ["the Epic Rare pair is not recorded; it is Artisan's Tools and Treasure Trove "
                             "(RB L369-371)"]
    assert msgs(epic=["treasure trove", "ARTISAN'S TOOLS"]) == []


def test_epic_rare_cards_and_duplicates_among_the_potions_and_scrolls():
    g = chest.grid(story([("Artisan's Tools", 1), ("Cosmic Gemstone", 1), ("Scroll of Beguile", 1),
                          ("scroll of beguile", 1)]))
    assert [p.message for p in g.problems] == [
        "Artisan's Tools is an Epic Rare treasure: the pair goes in `epic` and cannot be replaced (RB L345, "
        "L349-353); take it out of the Potions and Scrolls: drunagor chest remove \"Artisan's Tools\"",
        "Cosmic Gemstone was replaced for good before the campaign (RB L369-371); take it out of the Potions "
        "and Scrolls: drunagor chest remove \"Cosmic Gemstone\"",
        "scroll of beguile is listed twice in the Chest deck; keep one entry with the copies added up",
    ]


def test_summary_keeps_the_keys_show_uses():
    s = chest.summary(story([("Scroll of Incinerate", 2)]))
    assert s["epic"] == PAIR
    assert s["cards"] == [{"name": "Scroll of Incinerate", "copies": 2, "type": "scroll", "rarity": "common"}]
    assert s["count"] == 2
    assert s["status"] == "recording" and s["legal"] is False
    assert s["grid"]["scroll"]["common"] == {"count": 2, "target": 4}
    assert s["gaps"][-3:] == [{"type": "scroll", "rarity": "common", "missing": 2},
                              {"type": "scroll", "rarity": "uncommon", "missing": 3},
                              {"type": "scroll", "rarity": "rare", "missing": 2}]
    assert s["text"].startswith("being recorded: 2 of 18")


# ------------------------------------------------------------------------------- swapping


def test_rb_l363_incinerate_may_be_replaced_by_protection():
    s = story([("Scroll of Incinerate", 2), ("Scroll of Beguile", 2)])
    plan = chest.plan_swap(s, "scroll of inc", chest.card_facts("Scroll of Protection", {}), 1)
    assert plan.cards == (ChestCard("Scroll of Incinerate", 1), ChestCard("Scroll of Beguile", 2),
                          ChestCard("Scroll of Protection", 1))
    plan = chest.plan_swap(s, "Scroll of Incinerate", chest.card_facts("Scroll of Beguile", {}), 2)
    assert plan.cards == (ChestCard("Scroll of Beguile", 4),)


@pytest.mark.parametrize("out, into, copies, error, message", [
    ("Artisan's Tools", "Scroll of Protection", 1, RuleError,
     "Artisan's Tools is an Epic Rare treasure: the two Epic Rare cards cannot be replaced (RB L345)"),
    ("Treas", "Scroll of Protection", 1, RuleError,
     "Treasure Trove is an Epic Rare treasure: the two Epic Rare cards cannot be replaced (RB L345)"),
    ("Scroll of Incinerate", "Treasure Trove", 1, RuleError,
     "Treasure Trove is an Epic Rare treasure: only a Potion or a Scroll of the same rarity can replace a "
     "Potion or a Scroll (RB L345)"),
    ("Scroll of Incinerate", "Potion of Strength", 1, RuleError,
     "Scroll of Incinerate is a Common Scroll and Potion of Strength a Common Potion: a card can only be "
     "replaced by one of the same type and rarity (RB L345, L363)"),
    ("Scroll of Incinerate", "Potion of Fortitude", 1, RuleError,  # rarity unknown: the type decides
     "Scroll of Incinerate is a Common Scroll and Potion of Fortitude a Potion: a card can only be "
     "replaced by one of the same type and rarity (RB L345, L363)"),
    ("Scroll of Incinerate", "Scroll of Icy Bolts", 1, RuleError,
     "Scroll of Incinerate is a Common Scroll and Scroll of Icy Bolts an Uncommon Scroll: a card can only be "
     "replaced by one of the same type and rarity (RB L345, L363)"),
    ("Scroll of Incinerate", "Scroll of Incinerate", 1, UsageError, "Scroll of Incinerate would replace itself"),
    ("Scroll of Incinerate", "Scroll of Protection", 3, RuleError,
     "the Chest deck holds 2 Scroll of Incinerate, not 3"),
    ("Scroll of Protection", "Scroll of Beguile", 1, RuleError, "'Scroll of Protection' is not in the Chest deck"),
    ("Scroll of Incinerate", "Scroll of Charm", 1, UsageError,
     "the rarity of Scroll of Charm is not known, and a card can only be replaced by one of the same type and "
     "rarity (RB L345, L363)"),
    ("Potion of Healing", "Potion of Strength", 1, UsageError,
     "the rarity of Potion of Healing is not recorded, so drunagor cannot tell which cards may replace it "
     "(RB L345: same type and rarity)"),
])
def test_swap_refusals(out, into, copies, error, message):
    s = story([("Scroll of Incinerate", 2), ("Potion of Healing", 1)],
              {"Potion of Strength": {"rarity": "common"}, "Scroll of Icy Bolts": {"rarity": "uncommon"}})
    with pytest.raises(error) as exc:
        chest.plan_swap(s, out, chest.card_facts(into, s.cards), copies)
    assert exc.value.message == message
    assert exc.value.rule == "chest-swap"


# A pool of cards whose facts are recorded: 4 names in every cell of the grid.
POOL = {f"{t.capitalize()} {r} {i}": (t, r) for t in chest.TYPES for r in chest.RARITIES for i in range(4)}
POOL_FACTS = {n: {"type": t, "rarity": r} for n, (t, r) in POOL.items()}


@st.composite
def legal_deck_and_swap(draw):
    cards = []
    for t in chest.TYPES:
        for r in chest.RARITIES:
            names = [n for n, tr in POOL.items() if tr == (t, r)]
            left = chest.grid_target()[t][r]
            while left:
                n = draw(st.sampled_from([x for x in names if x not in dict(cards)]))
                k = draw(st.integers(1, left))
                cards.append((n, k))
                left -= k
    order = draw(st.permutations(cards))
    out, copies_held = draw(st.sampled_from(order))
    into = draw(st.sampled_from([n for n, tr in POOL.items() if tr == POOL[out] and n != out]))
    copies = draw(st.integers(1, copies_held))
    return list(order), out, into, copies


@settings(max_examples=200, deadline=None)
@given(legal_deck_and_swap())
def test_a_legal_deck_stays_legal_after_a_legal_swap(case):
    cards, out, into, copies = case
    s = story(cards, POOL_FACTS)
    assert chest.grid(s).legal
    plan = chest.plan_swap(s, out, chest.card_facts(into, s.cards), copies)
    after = story([(c.name, c.copies) for c in plan.cards], POOL_FACTS)
    assert chest.grid(after).legal
    assert sum(c.copies for c in plan.cards) == 18


@settings(max_examples=100, deadline=None)
@given(legal_deck_and_swap(), st.sampled_from(sorted(POOL)))
def test_a_swap_across_type_or_rarity_is_always_refused(case, into):
    cards, out, _, _ = case
    s = story(cards, POOL_FACTS)
    if POOL[into] == POOL[out]:
        return
    with pytest.raises(RuleError):
        chest.plan_swap(s, out, chest.card_facts(into, s.cards), 1)


# ------------------------------------------------------------------------ what the party returns


def test_returns_are_every_potion_and_scroll_epic_rare_kept():
    s = story([("Scroll of Incinerate", 2), ("Mystery Draught", 1)], stash=["Potion of Healing"])
    holders = {
        "Andreas": [("Scroll of Incinerate", "consumable"), ("Artisan's Tools", "consumable"),
                    ("Astral Symbol", "spoils")],
        "Nyx": [("Dragon's Breath", "consumable"), ("Mystery Draught", "consumable"), ("Ragged Doll", "adventure")],
        "Vacrem": [("Strange Tonic", "consumable"), ("Treasure Trove", "consumable")],
        "party stash": [("Potion of Healing", "consumable")],
    }
    r = chest.returns(holders, s)
    assert r.by_holder == {"Andreas": ("Scroll of Incinerate",), "Nyx": ("Mystery Draught",),
                           "party stash": ("Potion of Healing",)}
    assert r.unknown == {"Vacrem": ("Strange Tonic",)}
    assert r.count == 3
    # once the player records what Strange Tonic is, nothing is unknown
    s2 = story([("Scroll of Incinerate", 2)], {"Strange Tonic": {"type": "other"}})
    assert chest.returns({"Vacrem": [("Strange Tonic", "consumable")]}, s2) == chest.Returns({}, {})


# ------------------------------------------------------------------------ Commander Attack deck


def test_positions_are_the_ten_rune_positions():
    assert commander.positions() == ("red-top", "red-bottom", "blue-top", "blue-bottom", "green-top",
                                     "green-bottom", "orange-top", "orange-bottom", "gray-top", "gray-bottom")
    assert commander.parse_position("Orange Bottom") == "orange-bottom"
    assert commander.parse_position("grey_top") == "gray-top"
    assert commander.parse_position("purple-top") is None
    assert commander.parse_position("orange") is None


def test_rb_l824_haste_and_life_heat_cannot_be_together():
    s = story(commander_cards=["Haste"])
    with pytest.raises(RuleError) as exc:
        commander.plan_add(s, "life heat", None)
    assert exc.value.message == ("Haste already holds the orange-bottom Rune position, so Life Heat cannot join: "
                                 "no Rune position may be held by two cards (RB L822-824)")
    d = commander.deck(story(commander_cards=["Haste", "Life Heat"]))
    assert [p.message for p in d.problems] == [
        "Haste and Life Heat both hold the orange-bottom Rune position: no position may be held by two cards "
        "(RB L822-824)"]
    assert d.status == "illegal"


def test_rb_l826_haste_with_flame_swipe_replacing_inferno():
    s = story(commander_cards=["Haste", "Inferno"])
    p = commander.plan_add(s, "Flame Swipe", None, replacing="Inferno")
    assert (p.card, p.position, p.source) == ("Flame Swipe", "orange-top", "catalog")
    with pytest.raises(RuleError):
        commander.plan_add(s, "Flame Swipe", None)  # Inferno still holds orange-top


def test_unknown_positions_are_asked_for_and_recorded_positions_used():
    s = story(commander_cards=["Haste"])
    with pytest.raises(UsageError) as exc:
        commander.plan_add(s, "Claw", None)
    assert exc.value.message == ("drunagor does not know which Rune position Claw holds, and no position may be "
                                 "held twice in the deck (RB L822)")
    assert commander.plan_add(s, "Claw", "red-top").position == "red-top"
    s = story(commander_cards=["Haste", "Claw"], facts={"Claw": {"position": "red-top"}})
    d = commander.deck(s)
    assert d.by_position["red-top"] == ["Claw"] and d.unknown == ()
    assert d.text().startswith("being recorded: 2 of 10 cards; free positions: red-bottom, blue-top")
    with pytest.raises(UsageError):
        commander.check_position_fact("Claw", "red")
    with pytest.raises(RuleError) as exc:
        commander.check_position_fact("Haste", "red-top")
    assert exc.value.message == "Haste holds the orange-bottom Rune position (RB L824), not red-top"


def test_a_full_deck_is_legal_and_an_eleventh_card_is_refused():
    names = [f"Card {i}" for i in range(10)]
    facts = {n: {"position": p} for n, p in zip(names, commander.positions(), strict=False)}
    s = story(commander_cards=names, facts=facts)
    d = commander.deck(s)
    assert d.status == "legal" and d.text() == "legal: 10 cards, one for each Rune position"
    with pytest.raises(RuleError) as exc:
        commander.plan_add(s, "Haste", None)
    assert exc.value.message.startswith("Card 7 already holds the orange-bottom Rune position")
    s11 = story(commander_cards=names + ["Card X"], facts={**facts, "Card X": {"position": "red-top"}})
    assert [p.message for p in commander.deck(s11).problems] == [
        "Card 0 and Card X both hold the red-top Rune position: no position may be held by two cards (RB L822-824)",
        "11 cards: the deck holds exactly 10, one for each Rune position (RB L820-822)",
    ]


def test_the_same_card_twice_is_a_problem():
    d = commander.deck(story(commander_cards=["Haste", "haste"]))
    assert [p.message for p in d.problems] == ["Haste is in the deck twice"]


def test_findings_name_the_entry_that_breaks_the_rule_and_the_fix():
    # SPEC 4: `check` says the most precise line and a remedy; the rules give the entry and the remedy
    d = commander.deck(story(commander_cards=["Flame Swipe", "Haste", "Life Heat"]))
    assert [(p.index, p.remedy) for p in d.problems] == [
        (2, 'remove one of them with drunagor commander remove "Life Heat", or swap it for a card of another '
            'position: drunagor commander swap "Life Heat" CARD')]
    d = commander.deck(story(commander_cards=["Haste", "Claw", "haste"]))
    assert [(p.index, p.remedy) for p in d.problems] == [
        (2, 'remove one of them: drunagor commander remove Haste')]
    names = [f"Card {i}" for i in range(12)]
    facts = {n: {"position": p} for n, p in zip(names, commander.positions(), strict=False)}
    d = commander.deck(story(commander_cards=names, facts=facts))
    assert [(p.index, p.remedy) for p in d.problems] == [
        (10, "take 2 cards out with drunagor commander remove CARD")]
    # RB L359: eight Common Potions; the entry that tips the cell over is the last of that cell
    cards = [("Potion of Healing", 4), ("Scroll of Icy Bolts", 3), ("Potion of Strength", 4)]
    g = chest.grid(story(cards, FACTS))
    assert [(p.key_path, p.remedy) for p in g.problems] == [
        (("chest", "cards", 2), "take 4 copies of the Common Potions (Potion of Healing x4, Potion of Strength x4) "
                                "out of the deck, e.g. drunagor chest remove \"Potion of Strength\" --copies 4, or "
                                "correct a rarity recorded wrongly: drunagor card set CARD --rarity "
                                "common|uncommon|rare")]
    g = chest.grid(story([("Potion of Healing", 5), ("Scroll of Beguile", 1), ("Potion of Fortitude", 1)], FACTS))
    assert [(p.key_path, p.remedy) for p in g.problems] == [
        (("chest", "cards", 0), "take 1 copy of the Common Potions (Potion of Healing x5) out of the deck, e.g. "
                                "drunagor chest remove \"Potion of Healing\", or correct a rarity recorded wrongly: "
                                "drunagor card set CARD --rarity common|uncommon|rare")]
    g = chest.grid(story([("Potion of Healing", 9), ("Potion of Strength", 1)]))
    assert [(p.key_path, p.remedy) for p in g.problems] == [
        (("chest", "cards", 1), "take 1 copy of the Potions (Potion of Healing x9, Potion of Strength x1) out of "
                                "the deck, e.g. drunagor chest remove \"Potion of Strength\"")]
    g = chest.grid(story([("Mystery A", 9), ("Mystery B", 9), ("Mystery C", 1)]))
    assert [(p.key_path, p.remedy) for p in g.problems] == [
        (("chest", "cards", 2), "take 1 copy of the Potions and Scrolls (Mystery A x9, Mystery B x9, Mystery C x1) "
                                "out of the deck, e.g. drunagor chest remove \"Mystery C\"")]
    g = chest.grid(story([("Scroll of Beguile", 2)], epic=["Artisan's Tools"]))
    assert [(p.key_path, p.remedy) for p in g.problems] == [
        (("chest", "epic"), "write epic = [\"Artisan's Tools\", \"Treasure Trove\"] under [chest]")]
    g = chest.grid(story([("Wand", 1)], {"Wand": {"type": "other"}}))
    assert [(p.key_path, p.remedy) for p in g.problems] == [
        (("chest", "cards", 0), "take it out: drunagor chest remove Wand, or, if it is a Potion or a Scroll, "
                                "correct its type: drunagor card set Wand --type potion|scroll")]


def test_hero_from_is_unchanged_by_upgrades_parsing():
    h = hero_from({"name": "Nyx", "class": "Assassin", "role": "Striker",
                   "upgrades": [{"item": "Twin-Blades", "to": "improved", "discarded": "Ragged Doll",
                                 "discarded_kind": "adventure", "chapter": "07"}]})
    assert h.upgrades[0].chapter == "07" and h.upgrades[0].discarded_kind == "adventure"

"""Pure hero rules (rules/heroes.py) and reward arithmetic (rules/rewards.py): no files, no terminal."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drunagor_log.errors import RuleError, UsageError
from drunagor_log.model import CHAPTERS, hero_from, story_from
from drunagor_log.rules import heroes as rules
from drunagor_log.rules import rewards
from drunagor_log.rules.rewards import Tally


def hero(name="Nyx", role="Striker", cls="Assassin", joined="01", **extra):
    return hero_from({"name": name, "class": cls, "role": role, "joined": joined, **extra})


def story(track=None, **extra):
    return story_from({"track": track or {}, **extra})


def done(*chapters, skipped=()):
    track = {ch: "completed" for ch in chapters}
    track.update({ch: "skipped" for ch in skipped})
    return track


def spoils(name, **kw):
    return {"name": name, "kind": "spoils", "quality": "standard", "place": "equipped", **kw}


# ------------------------------------------------------------------------------ rewards: golden


def test_chapters_01_to_05_give_two_skills_two_abilities_two_spoils():
    assert rewards.expected("01", done("01", "02", "03", "04", "05")) == Tally(2, 0, 2, 2, 0)


def test_skipping_chapter_02_changes_nothing_owed():
    assert rewards.expected("01", done("01", "03", "04", "05", skipped=("02",))) == \
        rewards.expected("01", done("01", "02", "03", "04", "05"))


def test_skipping_chapter_03_removes_its_class_ability_and_spoils():
    full = rewards.expected("01", done("01", "02", "03", "04", "05"))
    without = rewards.expected("01", done("01", "02", "04", "05", skipped=("03",)))
    assert full - without == Tally(class_abilities=1, spoils=1)


def test_a_hero_joining_before_06_is_owed_exactly_the_recruit_row():
    # RB L1013: 2x Level 1 Hero or Role Skill, 2x Class Ability, 2x Spoil of the Hero (Standard)
    assert rewards.expected("06", done("01", "02", "03", "04", "05")) == Tally(2, 0, 2, 2, 0)


def test_chapter_01_reward_is_one_level_1_skill():
    assert rewards.chapter_reward("01") == Tally(level1_skills=1)  # RB L1082


@pytest.mark.parametrize("joined", CHAPTERS)
def test_recruit_row_is_what_a_founding_hero_has_after_completing_every_earlier_chapter(joined):
    # RB L980: the table is "based on the Rewards that Heroes would receive if they had completed the Adventures"
    earlier = done(*[ch for ch in CHAPTERS if ch < joined])
    assert rewards.expected("01", earlier) == rewards.recruit_row(joined)


def test_recruit_table_rows_as_printed_in_the_rulebook():
    rows = {ch: rewards.recruit_row(ch) for ch in CHAPTERS}
    assert rows["01"] == Tally()
    assert rows["04"] == Tally(1, 0, 1, 1, 0)
    assert rows["07"] == Tally(2, 1, 2, 2, 0)
    assert rows["08"] == Tally(2, 1, 2, 2, 1)
    assert rows["09"] == Tally(3, 1, 2, 2, 1)


@given(st.dictionaries(st.sampled_from(CHAPTERS), st.sampled_from(["completed", "skipped"])),
       st.sampled_from(CHAPTERS), st.sampled_from(CHAPTERS))
def test_skipping_a_chapter_never_adds_a_reward(track, joined, ch):
    skipped = {**track, ch: "skipped"}
    completed = {**track, ch: "completed"}
    diff = rewards.expected(joined, completed) - rewards.expected(joined, skipped)
    assert all(v >= 0 for v in diff.as_dict().values())
    if ch < joined:
        assert diff.is_zero()  # chapters before the hero joined are in the recruit row, not counted again


def test_recorded_counts_skills_by_level_abilities_spoils_and_upgrades():
    h = hero(skills=[{"name": "A", "tree": "melee", "level": 1}, {"name": "B", "tree": "role", "level": 2}],
             class_abilities=["X"],
             equipment=[spoils("Twin-Blades"), {"name": "Potion of Healing", "kind": "consumable"}],
             upgrades=[{"item": "Twin-Blades", "to": "improved", "discarded": "War Bow", "discarded_kind": "spoils"},
                       {"item": "Twin-Blades", "to": "ultimate", "reward": True}])
    assert rewards.recorded(h) == Tally(1, 1, 1, 2, 1)


def test_a_spoils_card_handed_over_counts_for_the_hero_who_earned_it():
    nyx = hero(equipment=[])
    andreas = hero("Andreas", "Support", "Cleric", equipment=[spoils("Twin-Blades", **{"from": "Nyx"})])
    party = [nyx, andreas]
    assert rewards.recorded(nyx, party).spoils == 1
    assert rewards.recorded(andreas, party).spoils == 0


def test_an_upgrade_with_artisans_tools_is_no_reward_and_never_an_excess():
    """RB L980: the recruit table is what heroes receive without special treasure (Artisan's Tools)."""
    h = hero(upgrades=[{"item": "Twin-Blades", "to": "improved", "discarded": "Ragged Doll",
                        "discarded_kind": "adventure"}], equipment=[spoils("Twin-Blades")])
    s = story(done("01", "02", "03"))
    assert rewards.balance(h, s).spoils_upgrades == 0
    assert rewards.excess_for(h, s) == Tally()
    assert rewards.owed_for(h, s) == Tally(level1_skills=1, class_abilities=1)
    s = story(done("01", "02", "03", "04", "05", "06", "07"))
    assert rewards.owed_for(h, s).spoils_upgrades == 1


def test_a_reward_upgrade_counts_as_the_reward_and_an_excess_one_is_not_reported():
    h = hero(upgrades=[{"item": "Twin-Blades", "to": "improved", "reward": True}], equipment=[spoils("Twin-Blades")])
    assert rewards.recorded(h).spoils_upgrades == 1
    assert rewards.owed_for(h, story(done("01", "02", "03", "04", "05", "06", "07"))).spoils_upgrades == 0
    assert rewards.excess_for(h, story(done("01"))).spoils_upgrades == 0


def test_describe():
    assert rewards.describe(Tally(2, 0, 1, 0, 0)) == "2 Level 1 Hero or Role Skills, 1 Class Ability"
    assert rewards.describe(Tally()) == ""


# ------------------------------------------------------------------------------- who is a hero


def test_core_box_heroes_are_refused_with_the_follower_to_recruit():
    f = rules.core_hero_finding("vorn")
    assert f.rule == "core-hero"
    assert f.message == ("Vorn is a core-box hero, and core-box heroes (Elros, Jaheen, Lorelai, Maya, Vorn) "
                         "are not heroes in Awakenings (RB L941-945)")
    assert f.remedy == 'recruit Vorn as a Follower instead: drunagor follower add "Vorn the Warrior"'
    assert rules.core_hero_finding("Jaheen").remedy == (  # RB L941: all five can be Followers
        'recruit Jaheen as a Follower instead: drunagor follower add "Jaheen the Cleric"')
    assert rules.core_hero_finding("Andreas") is None


def test_identity_takes_the_catalog_class_or_the_special_class():
    assert rules.identity("andreas", None) == ("Andreas", "Cleric")
    assert rules.identity("Andreas", "necro") == ("Andreas", "Necromancer")
    assert rules.identity("Vacren", None) == ("Vacrem", "Warrior")  # the app's spelling
    assert rules.identity("Kellan", "Paladin") == ("Kellan", "Paladin")


def test_identity_refuses_another_class_for_a_catalog_hero_and_needs_one_for_others():
    with pytest.raises(RuleError) as exc:
        rules.identity("Andreas", "Warrior")
    assert exc.value.message == "Andreas is a Cleric (or a Necromancer with Hero Pack #1), not a Warrior (RB L947-949)"
    with pytest.raises(RuleError):  # an unknown hero: a name of the game (exit 1)
        rules.identity("Kellan", None)
    with pytest.raises(UsageError):  # said new, but its class is still missing
        rules.identity("Kellan", None, new=True)


def test_party_full_and_role_taken():
    four = [hero("A", "Defender"), hero("B", "Leader"), hero("C", "Controller"), hero("D", "Support")]
    full = rules.party_full(four, 4)
    assert full.rule == "max-heroes" and full.key == ("rules", "max_heroes")
    assert full.message == "the party already has 4 heroes (A, B, C, D) and max_heroes is 4 (RB L943)"
    assert rules.party_full(four, 5) is None
    taken = rules.role_taken("support", four)
    assert taken.hero == "D"
    assert taken.remedy == "choose a free role: Striker"
    assert rules.role_taken("Striker", four) is None


def test_party_findings():
    heroes = [hero("Vorn", "Defender", "Warrior"), hero("Andreas", "Defender", "Mage"), hero("Nyx", "Tank"),
              hero("Old", "Leader", retired=True), hero("New", "Leader")]
    found = [(f.rule, f.hero) for f in rules.party_findings(heroes, 3)]
    assert found == [("core-hero", "Vorn"), ("hero-class", "Andreas"), ("max-heroes", None),
                     ("dungeon-role", "Andreas"), ("dungeon-role", "Nyx")]


def test_joining_chapter_is_the_next_unfilled_one():
    assert rules.joining_chapter(story(done("01", skipped=("02",)))) == "03"
    with pytest.raises(RuleError):
        rules.joining_chapter(story(done(*CHAPTERS)))


# ------------------------------------------------------------------------------------ one hero


def test_log_findings_starting_gear_and_unknown_names():
    h = hero(aura="Bastoin", statuses=["Haunted", "Hauntd"],
             equipment=[{"name": "Blooded Sword", "kind": "starting"}, spoils("Twin Blades")])
    found = [(f.rule, f.severity, f.message, f.remedy) for f in rules.log_findings(h)]
    assert found == [
        ("starting-gear", "warning", "Nyx has 1 of the 2 pieces of Starting Gear a new hero starts with (RB L989)",
         "record them: drunagor hero gain Nyx ITEM --kind starting"),
        ("unknown-name", "warning", "Nyx: unknown aura 'Bastoin'", "did you mean 'Bastion'?"),
        ("unknown-name", "warning", "Nyx: unknown hero status 'Hauntd'", "did you mean 'Haunted'?"),
        ("unknown-name", "warning", "Nyx: unknown Spoils of the Hero card 'Twin Blades'", "did you mean 'Twin-Blades'?"),
    ]


def test_leaving_consumables_to_the_stash_all_else_to_the_box():
    h = hero(equipment=[{"name": "Blooded Sword", "kind": "starting"}, spoils("Twin-Blades"),
                        {"name": "Potion of Healing", "kind": "consumable"},
                        {"name": "Artisan's Tools", "kind": "consumable"}])
    assert rules.leaving(h) == rules.Departure(("Potion of Healing", "Artisan's Tools"),
                                               ("Blooded Sword", "Twin-Blades"))


def test_upgrade_options_need_artisans_tools_and_a_spare_card_in_the_bag():
    bag = {"place": "bag"}
    tools = {"name": "Artisan's Tools", "kind": "consumable", **bag}
    h = hero(equipment=[spoils("Twin-Blades"), spoils("War Bow", quality="ultimate", **bag),
                        {"name": "Ragged Doll", "kind": "adventure", **bag},
                        {"name": "Frozen Tears of Alagast", "kind": "adventure", **bag},  # Epic (RB L417)
                        {"name": "Blooded Sword", "kind": "starting", **bag}, tools])
    assert rules.upgrade_options(h) == [
        rules.UpgradeOption("Twin-Blades", "standard", "improved", ("War Bow", "Ragged Doll"))]
    assert [o.discards for o in rules.upgrade_options(h, epic=["Ragged Doll"])] == [("War Bow",)]
    no_tools = hero(equipment=[spoils("Twin-Blades"), {"name": "Ragged Doll", "kind": "adventure", **bag}])
    assert rules.upgrade_options(no_tools) == []


def test_next_quality_one_step_at_a_time():
    assert rules.next_quality("standard") == "improved"
    assert rules.next_quality("improved") == "ultimate"
    assert rules.next_quality("ultimate") is None


def test_last_completed():
    s = story(done("01", "03", skipped=("02",)))
    assert rules.last_completed(s) == "03"
    assert rules.last_completed(s, since="04") is None

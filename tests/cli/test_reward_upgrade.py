"""The Spoils upgrade owed as a reward (SPEC 10: `spoils upgrade HERO ITEM --reward`; RB L1005-1016,
L415, L431): up one step, nothing disposed of, the reward no longer owed; refused when none is owed."""

from __future__ import annotations

import json

import pytest

from tests.conftest import snapshot, write

STORY = """
schema = 1
campaign = "awakenings"
party = "Safeguard Corporation"
followers = []
stash = []
stored = ["Cosmic Gemstone", "Forgotten Treasure"]

[track]
{track}

[rules]
trauma_limit = 1
max_heroes = 4
"""

NYX = """
schema = 1
name = "Nyx"
class = "Assassin"
role = "Striker"
joined = "01"
equipment = [
  { name = "Blooded Sword", kind = "starting", place = "equipped" },
  { name = "Leather Armor", kind = "starting", place = "equipped" },
  { name = "Twin-Blades", kind = "spoils", quality = "standard", place = "equipped" },
  { name = "Ragged Doll", kind = "adventure", place = "bag" },
  { name = "Artisan's Tools", kind = "consumable", place = "bag" },
]
"""


def track(last: int) -> str:
    return "\n".join(f'"0{n}" = "completed"' for n in range(1, last + 1))


@pytest.fixture
def party(tmp_path):
    root = tmp_path / "campaigns" / "sgc"
    write(root / "story.toml", STORY.format(track=track(7)))
    write(root / "heroes" / "nyx.toml", NYX)
    return root


def owed_upgrades(run) -> int:
    return json.loads(run("hero", "show", "Nyx", "--json").stdout)["owes"]["spoils_upgrades"]


def test_a_reward_upgrade_disposes_of_nothing_and_settles_the_reward(run, party):
    assert owed_upgrades(run) == 1  # chapter 07 completed: the row of 08 has one (RB L1015)
    r = run("spoils", "upgrade", "Nyx", "twin", "--reward")
    assert (r.exit_code, r.stderr) == (0, "")
    assert r.stdout == ("Nyx improved Twin-Blades to Improved, the Spoils upgrade owed as a reward (Rulebook: One-Shot Adventures, L1015-1016; "
                        "nothing disposed of); the Standard Twin-Blades is stored for the rest of the campaign "
                        "(Rulebook: Disposed Equipment, L431)\n")
    log = (party / "heroes" / "nyx.toml").read_text()
    assert log == NYX.lstrip("\n").replace('"Twin-Blades", kind = "spoils", quality = "standard"',
                                           '"Twin-Blades", kind = "spoils", quality = "improved"') + (
        'upgrades = [\n  { item = "Twin-Blades", to = "improved", reward = true, chapter = "07" },\n]\n')
    assert 'stored = [\n  "Cosmic Gemstone",\n  "Forgotten Treasure",\n  "Twin-Blades (Standard)",\n]' in \
        (party / "story.toml").read_text()
    assert owed_upgrades(run) == 0
    shown = run("hero", "show", "Nyx").stdout
    assert "Upgrade: Twin-Blades to improved, a reward (nothing disposed of) (after chapter 07)\n" in shown
    upgrades = json.loads(run("hero", "show", "Nyx", "--json").stdout)["upgrades"]
    assert upgrades == [{"item": "Twin-Blades", "to": "improved", "discarded": None, "chapter": "07", "reward": True}]
    assert "Spoils upgrade" not in run("check").stdout


def test_refused_when_none_is_owed(run, party):
    write(party / "story.toml", STORY.format(track=track(6)))
    before = snapshot(party)
    r = run("spoils", "upgrade", "Nyx", "Twin-Blades", "--reward")
    assert r.exit_code == 1
    assert r.stderr == ("error: campaigns/sgc/heroes/nyx.toml:6: spoils-upgrade: Nyx is owed no Spoils upgrade as a "
                        "reward (the new-recruit table gives one from chapter 08 on, Rulebook: One-Shot Adventures, L1015-1016); an upgrade found "
                        "at the table disposes of Artisan's Tools and another card from the bag: drunagor spoils "
                        "upgrade Nyx Twin-Blades --discard OTHER\n")
    assert snapshot(party) == before


def test_the_second_reward_upgrade_is_refused(run, party):
    assert run("spoils", "upgrade", "Nyx", "Twin-Blades", "--reward").exit_code == 0
    before = snapshot(party)
    r = run("spoils", "upgrade", "Nyx", "Twin-Blades", "--reward")
    assert r.exit_code == 1 and "Nyx is owed no Spoils upgrade as a reward" in r.stderr
    assert snapshot(party) == before


def test_an_upgrade_with_artisans_tools_is_not_the_reward(run, party):
    """RB L980: the table is what heroes receive 'without finding any special treasure along the way'."""
    assert run("spoils", "upgrade", "Nyx", "Twin-Blades", "--discard", "Ragged Doll").exit_code == 0
    assert owed_upgrades(run) == 1
    assert ("campaigns/sgc/heroes/nyx.toml:11: rewards: Nyx is owed 1 Spoils upgrade (by chapters 01, 02, 03, 04, 05, "
            "06, 07 completed); record it with drunagor spoils upgrade Nyx ITEM --reward (warning)") \
        in run("check").stdout.splitlines()
    assert run("spoils", "upgrade", "Nyx", "Twin-Blades", "--reward", "--to", "ultimate").exit_code == 0
    assert owed_upgrades(run) == 0


@pytest.mark.parametrize("args, message", [
    (("--reward", "--discard", "Ragged Doll"),
     "spoils-upgrade: --discard is for an upgrade found at the table; a reward upgrade (--reward) disposes of nothing "
     "(Rulebook: One-Shot Adventures, L1015-1016); leave out --discard, or --reward"),
    (("--reward", "--not-epic"),
     "spoils-upgrade: --epic/--not-epic is for an upgrade found at the table; a reward upgrade (--reward) disposes of "
     "nothing (Rulebook: One-Shot Adventures, L1015-1016); leave out --epic/--not-epic, or --reward"),
    ((), "spoils-upgrade: an upgrade disposes of Artisan's Tools and another card from the bag: name it with --discard "
         "OTHER (Rulebook: Improving Spoils Equipment, L413-419); or, for the reward upgrade a hero is owed (Rulebook: One-Shot Adventures, L1015-1016), give --reward"),
])
def test_usage_slips(run, party, args, message):
    before = snapshot(party)
    r = run("spoils", "upgrade", "Nyx", "Twin-Blades", *args)
    assert (r.exit_code, r.stderr) == (2, f"error: {message}\n")
    assert snapshot(party) == before


def test_a_recruit_before_chapter_08_is_owed_the_upgrade_and_takes_it(run, party):
    assert run("hero", "add", "Kellan", "--role", "Leader", "--class", "Paladin").exit_code == 0
    assert run("hero", "gain", "Kellan", "Buckler", "--kind", "spoils").exit_code == 0
    r = run("spoils", "upgrade", "Kellan", "Buckler", "--reward")
    assert r.exit_code == 0, r
    owes = json.loads(run("hero", "show", "Kellan", "--json").stdout)["owes"]
    assert owes["spoils_upgrades"] == 0


def test_chapter_07_completed_names_the_command_of_the_reward_upgrade(run, party):
    write(party / "story.toml", STORY.format(track=track(6)))
    r = run("chapter", "complete", "07")
    assert r.exit_code == 0
    assert r.stdout.splitlines()[1] == "Chapter 07 rewards each hero: 1 Spoils upgrade (Rulebook: One-Shot Adventures, L1005-1016)."
    assert r.stdout.splitlines()[-1] == ("Record them with drunagor hero learn, hero ability, hero gain and spoils "
                                         "upgrade --reward.")

"""A campaign with every kind of entry the sheets show, written inline (the reader sees the files)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import write

STORY = """
schema = 1
campaign = "awakenings"
party = "The Ashen Vow"
leader = "Aldric"
followers = ["Vorn the Warrior", "Sister Maren"]
outcomes = ["Drinking Pal", "Tidebreaker"]
statuses = ["Imminent Danger", "Marked by the Tide"]
stash = ["Potion of Healing"]
stored = ["Cosmic Gemstone", "Forgotten Treasure", "Rusty Dagger"]
corrections = ["2024-05-01: chapter 03 skipped (recorded by hand)"]

[track]
"01" = "completed"
"02" = "completed"
"03" = "skipped"
"04" = "completed"

[failures]
"02" = 2
"05" = 1

[rules]
trauma_limit = 2
max_heroes = 4
rune_bag = { red = 7, blue = 8, green = 7, orange = 7, gray = 7 }

[chest]
epic = ["Artisan's Tools", "Treasure Trove"]
cards = [
  { name = "Scroll of Incinerate", copies = 3 },
  { name = "Scroll of Beguile", copies = 2 },
  { name = "Potion of Vigor", copies = 1 },
  { name = "Mystery Draught", copies = 1 },
]

[cards]
"Potion of Vigor" = { type = "potion", rarity = "rare" }
"Gloom Strike" = { position = "red-top" }

[commander]
cards = ["Haste", "Flame Swipe", "Gloom Strike", "Unplaced Blow"]
"""

ALDRIC = """
schema = 1
name = "Aldric"
class = "Cleric"
role = "Leader"
player = "Ana"
joined = "01"
aura = "Bastion"
statuses = ["Blessed"]
class_abilities = ["Holy Light", "Divine Shield"]
skills = [
  { name = "Wisdom 1", tree = "wisdom", level = 1, chapter = "01" },
  { name = "Rally", tree = "role", level = 1, chapter = "02" },
  { name = "Wisdom 2", tree = "wisdom", level = 2, chapter = "04" },
]
equipment = [
  { name = "Blooded Sword", kind = "starting", place = "equipped" },
  { name = "Astral Symbol", kind = "spoils", quality = "improved", place = "equipped" },
  { name = "War Bow", kind = "spoils", quality = "standard", place = "bag", from = "Kaelen" },
  { name = "Scroll of Beguile", kind = "consumable", place = "bag" },
  { name = "Captain's Brooch", kind = "adventure", place = "bag" },
]
upgrades = [
  { item = "Astral Symbol", to = "improved", discarded = "Buckler", discarded_kind = "spoils", chapter = "04" },
]
"""

MIRA = """
schema = 1
name = "Mira"
class = "Mage"
role = "Controller"
player = "Bruno"
joined = "04"
equipment = [
  { name = "Wooden Staff", kind = "starting", place = "equipped" },
]
"""

TOM = """
schema = 1
name = "Old Tom"
class = "Warrior"
role = "Defender"
player = "Carla"
joined = "01"
retired = true
left = "04"
equipment = [
  { name = "Jagged Blade Axe", kind = "starting", place = "equipped" },
]
"""

KAELEN = """
schema = 1
name = "Kaelen"
class = "Assassin"
role = "Striker"
joined = "01"
left = "03"
skills = [{ name = "Agility 1", tree = "agility", level = 1, chapter = "01" }]
equipment = [{ name = "Twin-Blades", kind = "spoils", quality = "ultimate", place = "equipped" }]
"""

ADVENTURE = """
schema = 1
chapter = "05"
heroes = 3
bag = { red = 2, blue = 1, green = 0, orange = 4, gray = 3 }
track = { red = 2, blue = 4, green = 4, orange = 3, gray = 4 }
raid = { card = "Dreadful Raid", face = "A", minions = ["Tidehunter"], rank = "Minion", model_limit = 4 }
ranks = {}
piles = [
  { id = "1", runes = { red = 3 } },
  { id = "2", runes = { blue = 3, green = 3, orange = 0 } },
  { id = "3", runes = { green = 0 } },
]
monsters = [
  { name = "Fell Asteris", rank = "Gray", slot = 1 },
  { name = "Tidehunter", rank = "Minion", slot = 2 },
  { name = "Boatswain", rank = "Minion", slot = 7 },
  { name = "Gremlin Horde", rank = "White", slot = 12 },
  { name = "The Tide Queen", boss = true },
]
log = [
  { event = "start", text = "chapter 05, Tempest Island, under way with 3 heroes" },
  { event = "raid", face = "B", rune = "blue", seed = 111, text = "Tidehunter placed (slot 2) by rune blue" },
]
"""

ARCHIVE = """
schema = 1
chapter = "{chapter}"
heroes = 4
outcome = "{outcome}"
bag = {{ red = 1, blue = 3, green = 0, orange = 1, gray = 1 }}
track = {{ red = 5, blue = 4, green = 5, orange = 5, gray = 5 }}
{raid}
ranks = {{}}
piles = []
monsters = []
log = [
  {{ event = "start", text = "started" }},
  {{ event = "draw", runes = "red", seed = 5, text = "drew red (seed 5)" }},
{log}
  {{ event = "end", text = "the adventure ends" }},
]
"""

RAID_CARD = ('raid = { card = "Dreadful Raid", face = "A", minions = ["Dread Knight"], rank = "Scenario", '
             'model_limit = 2 }')
RAIDS = """\
  { event = "raid", face = "A", text = "nothing summoned (face A summons only when no monster is on the board); the card now shows face B" },
  { event = "raid", face = "B", rune = "orange", seed = 4242, text = "2 Dread Knight placed (slots 3, 4) by rune orange; the card now shows face A" },
  { event = "raid", face = "A", rune = "gray", physical = true, text = "no Pile of Runes matches gray: nothing summoned; the card now shows face B" },
"""


@pytest.fixture
def full(tmp_path) -> Path:
    return make_full(tmp_path / "campaigns" / "full")


def make_full(root: Path) -> Path:
    """Chapters 01, 02 (after two failed attempts) and 04 completed, 03 skipped, 05 under way after a
    failed attempt; four Campaign Logs: one with every kind of entry, one who owes rewards, one who
    left the party and one who came back."""
    write(root / "story.toml", STORY)
    write(root / "heroes" / "aldric.toml", ALDRIC)
    write(root / "heroes" / "mira.toml", MIRA)
    write(root / "heroes" / "old-tom.toml", TOM)
    write(root / "heroes" / "kaelen.toml", KAELEN)
    write(root / "adventure.toml", ADVENTURE)
    archives = [("01-1", "01", "won", "", ""), ("02-1", "02", "lost", RAID_CARD, RAIDS),
                ("02-2", "02", "lost", RAID_CARD, ""), ("02-3", "02", "won", RAID_CARD, RAIDS),
                ("04-1", "04", "won", "", ""), ("05-1", "05", "lost", "", "")]
    for name, chapter, outcome, raid, log in archives:
        text = ARCHIVE.format(chapter=chapter, outcome=outcome, raid=raid, log=log)
        write(root / "adventures" / f"{name}.toml", text)
    return root

"""The built-in catalog: data loads, matches game-data.md, and leaves unknown facts absent."""

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from drunagor_log import catalog
from drunagor_log.catalog import Rewards

DATA = Path(catalog.__file__).parent / "data"


def test_every_data_file_parses():
    files = sorted(p.stem for p in DATA.glob("*.toml"))
    assert files == ["chapters", "headings", "heroes", "items", "monsters", "names", "rewards", "runes"]
    for p in DATA.glob("*.toml"):
        tomllib.loads(p.read_text(encoding="utf-8"))


def test_everything_loads_through_the_api():
    assert len(catalog.heroes()) == 4
    assert len(catalog.core_heroes()) == 5
    assert len(catalog.chapters()) == 9
    assert len(catalog.recruit_table()) == 9
    assert catalog.chest_cards() and catalog.spoils_items() and catalog.monsters()
    assert catalog.commander_cards()
    for kind in catalog.NAME_KINDS:
        assert catalog.names(kind)


# --- Heroes ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, cls, special",
    [
        ("Andreas", "Cleric", "Necromancer"),
        ("Catharina", "Mage", "Shaman"),
        ("Nyx", "Assassin", "Swordmage"),
        ("Vacrem", "Warrior", "Warlord"),
    ],
)
def test_heroes(name, cls, special):
    h = catalog.hero(name.upper())
    assert (h.name, h.hero_class, h.special_class) == (name, cls, special)
    assert h.classes == (cls, special)


def test_vacren_is_accepted_and_stored_as_vacrem():
    assert catalog.hero("vacren").name == "Vacrem"
    assert catalog.hero("Elros") is None
    assert catalog.hero("Somebody") is None


def test_core_heroes_and_their_followers():
    got = {h.name: (h.hero_class, h.follower) for h in catalog.core_heroes()}
    assert got == {
        "Elros": ("Assassin", "Elros the Assassin"),
        "Jaheen": ("Cleric", "Jaheen the Cleric"),  # RB L941 (the apps list four)
        "Lorelai": ("Mage", "Lorelai the Mage"),
        "Maya": ("Ranger", "Maya the Ranger"),
        "Vorn": ("Warrior", "Vorn the Warrior"),
    }
    assert catalog.core_hero("maya").name == "Maya"
    assert catalog.core_hero("Andreas") is None
    followers = catalog.names("followers")
    for h in catalog.core_heroes():
        assert h.follower is None or h.follower in followers


def test_roles_and_skill_trees():
    assert catalog.ROLES == ("Defender", "Leader", "Controller", "Support", "Striker")
    assert catalog.SKILL_TREES == ("melee", "ranged", "agility", "wisdom", "role")


# --- Names -------------------------------------------------------------------------------------


def test_name_counts_match_game_data():
    counts = {kind: len(catalog.names(kind)) for kind in catalog.NAME_KINDS}
    assert counts == {
        "followers": 6,  # the apps' five, and Jaheen (RB L941)
        "outcomes": 16,
        "story_statuses": 25,
        "hero_statuses": 9,
        "auras": 32,
    }
    for kind in catalog.NAME_KINDS:
        names = catalog.names(kind)
        assert len(set(names)) == len(names)
        assert list(names) == sorted(names)  # game-data.md lists them alphabetically


def test_names_unknown_kind():
    with pytest.raises(KeyError):
        catalog.names("weapons")
    assert catalog.names("story-statuses") == catalog.names("story_statuses")


def test_canonical_and_closest():
    from drunagor_log.names import closest  # the one near-name rule, over the catalog's names

    outcomes = catalog.names("outcomes")
    assert catalog.canonical("drinking pal", outcomes) == "Drinking Pal"
    assert catalog.canonical("Minerva\u2019s  Diary", outcomes) == "Minerva's Diary"
    assert catalog.canonical("Drinkng Pal", outcomes) is None
    assert closest("Drinkng Pal", outcomes) == "Drinking Pal"
    assert closest("DEFENDER'S FATE", outcomes) == "Defender's Fate"
    assert closest("zzzzzzzz", outcomes) is None
    assert closest("anything", ()) is None


# --- Chapters ----------------------------------------------------------------------------------


def test_chapter_id_normalises():
    assert catalog.chapter_id(3) == "03"
    assert catalog.chapter_id("3") == "03"
    assert catalog.chapter_id("03") == "03"
    assert catalog.chapter_id(" 9 ") == "09"
    for bad in (0, 10, "10", "003", "", "x", "3a", "-1", True, None, 3.0, "\u0663"):
        with pytest.raises(ValueError):
            catalog.chapter_id(bad)


def test_chapter_lookup():
    assert catalog.chapter(3) is catalog.chapter("03") is catalog.chapter("3")
    assert catalog.chapter(3).title == "Run!"
    with pytest.raises(KeyError):
        catalog.chapter("10")
    with pytest.raises(KeyError):
        catalog.chapter("nope")
    assert [c.id for c in catalog.chapters()] == [f"{n:02d}" for n in range(1, 10)]


def test_chapter_table_matches_game_data():
    got = {
        c.id: (c.title, c.stirring_darkness, c.recall_penalty, c.darkness_nodes, c.tie_breaker)
        for c in catalog.chapters()
    }
    assert got == {
        "01": ("Untimely Holidays", 4, 1, False, False),
        "02": ("The Swarm", 6, 1, True, True),
        "03": ("Run!", 6, 1, True, True),
        "04": ("Battle on the High Sea", 5, 1, False, False),
        "05": ("Tempest Island", 6, 2, True, True),
        "06": ("The Sunken Temple", 5, 2, True, False),
        "07": ("Siege of Everedge", None, 2, False, False),
        "08": ("No Regrets", 5, 2, True, True),
        "09": ("The Stand", 6, 2, True, False),
    }


def test_mechanics():
    got = {c.id: c.mechanic for c in catalog.chapters()}
    assert got == {
        "01": None,
        "02": "Nightmare Raid",
        "03": "Soul Hunt",
        "04": "Naval Raid",
        "05": "Monster Raid",
        "06": None,
        "07": "Siege of Everedge",
        "08": "Fell Woodmen Raid",
        "09": "Seeds of Darkness",
    }


def test_raids():
    raids = {c.id: c.raid for c in catalog.chapters() if c.raid}
    assert sorted(raids) == ["02", "04", "05", "08"]
    single = {
        ch: (r.card, r.minion, r.models, r.kind) for ch, r in raids.items() if ch != "04"
    }
    assert single == {
        "02": ("Dreadful Raid", "Nightmare", "Night Stalker", "scenario"),
        "05": ("Dreadful Raid", "Tidehunter", "Nagian Hunter", "minion"),
        "08": ("Dreadful Raid", "Fell Woodman", "Hellspawn Brute", "scenario"),
    }
    naval = raids["04"]
    assert naval.card == "Naval Raid"
    assert naval.minions == ("Tidehunter", "Boatswain")
    assert [(s.minion, s.models, s.kind) for s in naval.summons] == [
        ("Tidehunter", "Nagian Hunter", "minion"),
        ("Boatswain", "Executioner", "minion"),
    ]
    assert naval.minion is None  # two minion cards: no single answer
    for r in raids.values():
        for s in r.summons:
            assert catalog.monster(s.minion)["models"] == s.models


def test_fails_on_last_rune_follows_each_winning_and_losing_text():
    failing = [c.id for c in catalog.chapters() if c.fails_on_last_rune]
    assert failing == ["01", "02", "03", "04", "05", "06"]
    rulebook = Path(__file__).resolve().parents[2] / "shared/rules/awakenings-rulebook.txt"
    if not rulebook.exists():
        pytest.skip("rulebook text not available")
    lines = rulebook.read_text(encoding="utf-8").splitlines()
    for c in catalog.chapters():
        line = int(c.refs["losing"].removeprefix("RB L"))
        text = lines[line - 1]
        assert text.startswith("Winning and Losing the Adventure")
        assert ("the last Rune in the bag is drawn" in text) is c.fails_on_last_rune


def test_chapter_07_and_09_specials():
    seven = catalog.chapter(7)
    assert seven.siege and seven.stirring_darkness is None
    assert seven.camaraderie == (
        "Elros the Assassin", "Lorelai the Mage", "Maya the Ranger", "Vorn the Warrior",
    )
    assert set(seven.scenario_monsters) == {"Vicious Mauler", "Vile Spawn", "Coiled Harridan"}
    assert [c.id for c in catalog.chapters() if c.siege or c.camaraderie] == ["07"]
    boss = catalog.chapter(9).boss
    assert (boss.name, boss.health_per_hero, boss.health(4)) == ("Awakened King", 40, 160)
    assert [c.id for c in catalog.chapters() if c.boss] == ["09"]


def test_chapter_refs_are_rulebook_lines():
    for c in catalog.chapters():
        assert "chapter" in c.refs and "recall_penalty" in c.refs and "losing" in c.refs
        for ref in c.refs.values():
            assert ref.startswith("RB L")


CHAPTER_KEYS = {
    "id", "title", "stirring_darkness", "recall_penalty", "mechanic", "raid", "darkness_nodes",
    "tie_breaker", "fails_on_last_rune", "camaraderie", "siege", "boss", "scenario_monsters",
    "refs", "mechanics",
}


def test_chapters_toml_has_no_stray_keys():
    for entry in tomllib.loads((DATA / "chapters.toml").read_text("utf-8"))["chapter"]:
        assert set(entry) <= CHAPTER_KEYS, entry["id"]


# --- Rewards -----------------------------------------------------------------------------------

RECRUIT_TABLE = {  # game-data.md, RB L1005-1016
    "01": (0, 0, 0, 0, 0),
    "02": (1, 0, 0, 0, 0),
    "03": (1, 0, 0, 0, 0),
    "04": (1, 0, 1, 1, 0),
    "05": (2, 0, 1, 1, 0),
    "06": (2, 0, 2, 2, 0),
    "07": (2, 1, 2, 2, 0),
    "08": (2, 1, 2, 2, 1),
    "09": (3, 1, 2, 2, 1),
}


def test_recruit_rows_match_game_data():
    for ch, row in RECRUIT_TABLE.items():
        assert catalog.recruit_row(ch) == Rewards(*row)
    assert [ch for ch, _ in catalog.recruit_table()] == list(RECRUIT_TABLE)
    assert catalog.recruit_row(4) == catalog.recruit_row("04")


def test_chapter_rewards_are_the_documented_differences():
    expected = {
        "01": Rewards(level1_skills=1),
        "02": Rewards(),
        "03": Rewards(class_abilities=1, spoils=1),
        "04": Rewards(level1_skills=1),
        "05": Rewards(class_abilities=1, spoils=1),
        "06": Rewards(level2_skills=1),
        "07": Rewards(spoils_upgrades=1),
        "08": Rewards(level1_skills=1),
        "09": Rewards(),
    }
    assert {c.id: catalog.chapter_reward(c.id) for c in catalog.chapters()} == expected
    assert catalog.chapter_reward("02").is_zero() and catalog.chapter_reward(9).is_zero()
    assert not catalog.chapter_reward(1).is_zero()


def test_rewards_arithmetic():
    total = Rewards()
    for ch in ("01", "02", "03", "04", "05", "06", "07", "08"):
        total = total + catalog.chapter_reward(ch)
    assert total == catalog.recruit_row("09")
    assert catalog.recruit_row(9) - catalog.recruit_row(4) == Rewards(2, 1, 1, 1, 1)
    assert Rewards() - Rewards(spoils=1) == Rewards(spoils=-1)
    assert Rewards(1, 2, 3, 4, 5).as_dict() == {
        "level1_skills": 1, "level2_skills": 2, "class_abilities": 3, "spoils": 4,
        "spoils_upgrades": 5,
    }


# --- Items -------------------------------------------------------------------------------------


def test_chest_cards_known_types_and_only_implied_rarities():
    assert catalog.chest_card("Combustible Grenade")["type"] == "potion"
    assert catalog.chest_card("scroll of protection")["type"] == "scroll"
    rare = {c["name"]: c["rarity"] for c in catalog.chest_cards() if "rarity" in c}
    assert rare == {
        "Artisan's Tools": "epic rare",
        "Treasure Trove": "epic rare",
        "Cosmic Gemstone": "epic rare",
        "Forgotten Treasure": "epic rare",
        "Scroll of Incinerate": "common",
        "Scroll of Beguile": "common",
        "Scroll of Protection": "common",
    }
    for c in catalog.chest_cards():
        assert c["type"] in ("potion", "scroll", "treasure")
        assert "copies" not in c


def test_epic_rare_pair_and_grid():
    assert catalog.EPIC_RARE_AWAKENINGS == ("Artisan's Tools", "Treasure Trove")
    assert catalog.EPIC_RARE_REPLACED == ("Cosmic Gemstone", "Forgotten Treasure")
    assert catalog.chest_card("Cosmic Gemstone")["retired"] is True
    grid = catalog.CHEST_GRID
    assert grid["epic_rare"] == 2
    for kind in ("potion", "scroll"):
        assert grid[kind] == {"common": 4, "uncommon": 3, "rare": 2}
    grid["potion"]["common"] = 99  # a copy: the catalog is unchanged
    assert catalog.CHEST_GRID["potion"]["common"] == 4


def test_spoils_of_the_hero():
    items = catalog.spoils_items()
    assert len(items) == 20
    slots = {}
    for item in items:
        slots[item["slot"]] = slots.get(item["slot"], 0) + 1
    assert slots == {"weapon": 6, "off hand": 5, "armor": 5, "trinket": 4}
    assert catalog.SPOILS_QUALITIES == ("Standard", "Improved", "Ultimate")
    assert catalog.spoils_item("twin-blades")["qualities"] == catalog.SPOILS_QUALITIES
    assert catalog.is_spoils("War Bow") and not catalog.is_spoils("Potion of Healing")
    assert catalog.spoils_item("Excalibur") is None


def test_adventure_items_and_epic():
    assert catalog.is_known_epic("Frozen Tears of Alagast")
    assert catalog.adventure_item("Ragged Doll")["epic"] is False
    assert not catalog.is_known_epic("Ragged Doll")
    epic_known = [i["name"] for i in catalog_adventure_items() if "epic" in i]
    assert sorted(epic_known) == ["Frozen Tears of Alagast", "Ragged Doll"]
    assert not catalog.is_known_epic("Rancor Blade")
    assert "epic" not in catalog.adventure_item("Rancor Blade")
    assert catalog.adventure_item("Dragon's Breath")["consumable"] is True
    assert catalog.adventure_item("Defender's Buckler")["versatile"] is False
    assert catalog.adventure_item("Nothing Here") is None


def catalog_adventure_items():
    return [
        catalog.adventure_item(e["name"])
        for e in tomllib.loads((DATA / "items.toml").read_text("utf-8"))["adventure_item"]
    ]


def test_starting_gear():
    assert catalog.starting_gear() == (
        "Blooded Sword", "Elvish Bow", "Jagged Blade Axe", "Wooden Staff",
        "Cloth Armor", "Leather Armor", "Plate Armor",
    )
    assert catalog.starting_gear_item("wooden staff")["type"] == "Implement"


def test_item_kind():
    assert catalog.item_kind("Blooded Sword") == "starting"
    assert catalog.item_kind("Cornucopia") == "spoils"
    assert catalog.item_kind("Potion of Healing") == "consumable"
    assert catalog.item_kind("Artisan's Tools") == "consumable"
    assert catalog.item_kind("Dragon's Breath") == "consumable"
    assert catalog.item_kind("Frozen Tears of Alagast") == "epic"
    assert catalog.item_kind("Mind Gem") == "adventure"
    assert catalog.item_kind("Unheard Of") is None


def test_item_names_are_unique_across_tables():
    seen = {}
    for name in (
        [c["name"] for c in catalog.chest_cards()]
        + [s["name"] for s in catalog.spoils_items()]
        + [i["name"] for i in catalog_adventure_items()]
        + list(catalog.starting_gear())
    ):
        assert name.casefold() not in seen, name
        seen[name.casefold()] = name


# --- Unknown facts stay absent -----------------------------------------------------------------


def test_unknown_facts_are_absent():
    assert "rarity" not in catalog.chest_card("Potion of Healing")
    assert "rarity" not in catalog.chest_card("Combustible Grenade")
    assert catalog.chest_card("Potion of Nonsense") is None
    assert catalog.commander_card("Some Unknown") is None
    for h in catalog.heroes():
        assert not hasattr(h, "starting_gear")
    for m in catalog.monsters():
        if m.get("rank") != "Minion":
            assert "model_count" not in m, m["name"]
    assert "rank" not in catalog.monster("Awakened King")


# --- Commander cards, runes, monsters ----------------------------------------------------------


def test_commander_cards():
    assert catalog.commander_card("Haste") == "orange-bottom"
    assert catalog.commander_card("life heat") == "orange-bottom"
    assert catalog.commander_card("Flame Swipe") == "orange-top"
    assert catalog.commander_card("Inferno") == "orange-top"
    inferred = {c["name"] for c in catalog.commander_cards() if c.get("inferred")}
    assert inferred == {"Flame Swipe", "Inferno"}
    assert catalog.COMMANDER_DECK_SIZE == 10
    positions = {f"{c}-{p}" for c in catalog.RUNE_COLOURS for p in catalog.RUNE_POSITIONS}
    assert len(positions) == catalog.COMMANDER_DECK_SIZE
    for c in catalog.commander_cards():
        assert c["position"] in positions


def test_runes():
    assert catalog.RUNE_COLOURS == ("red", "blue", "green", "orange", "gray")
    bag = catalog.DEFAULT_RUNE_BAG
    assert bag == {"red": 7, "blue": 8, "green": 7, "orange": 7, "gray": 7}
    assert sum(bag.values()) == 36
    bag["red"] = 0
    assert catalog.DEFAULT_RUNE_BAG["red"] == 7
    source = tomllib.loads((DATA / "runes.toml").read_text("utf-8"))["default_bag"]["source"]
    assert source == "COMM"


def test_ranks_board_levels():
    assert catalog.RANKS == (
        "Overlord", "Commander", "Black", "Gray", "White", "Scenario", "Minion",
    )
    assert catalog.STATUS_BOARD_COLOURS == (
        "yellow", "dark blue", "pink", "green", "dark red", "black",
        "orange", "gray", "light blue", "blue", "red", "brown",
    )
    assert catalog.LEVELS == ("Rookie", "Fighter", "Veteran", "Champion")
    assert catalog.MINION_MODELS == 4


def test_monsters():
    classes = {}
    for m in catalog.monsters():
        assert m.get("rank") in catalog.RANKS or m.get("boss"), m["name"]
        if m.get("rank") in ("White", "Gray", "Black"):
            classes.setdefault((m["box"], m["rank"]), set()).add(m["name"])
    assert classes == {
        ("core", "White"): {"Skeleton Archer", "Shadow Cultist"},
        ("core", "Gray"): {"Rotten Flesh", "Shadow Vampire", "Executioner"},
        ("core", "Black"): {"Shadow Knight", "Abomination"},
        ("awakenings", "White"): {
            "Gremlin Horde", "Gorgoness Witch", "Grim Doctor", "Nagian Hunter",
        },
        ("awakenings", "Gray"): {
            "Fell Asteris", "Gorgon Hexer", "Hellspawn Brute", "Night Stalker",
        },
    }
    commanders = {
        m["name"]: m["models"] for m in catalog.monsters() if m.get("rank") == "Commander"
    }
    assert commanders == {
        "Doctor": "Grim Doctor", "Flinch": "Night Stalker", "Hexer": "Gorgon Hexer",
        "Horde": "Gremlin Horde", "Hunter": "Nagian Hunter", "Ox": "Fell Asteris",
        "Spawn": "Hellspawn Brute", "Witch": "Gorgoness Witch",
    }
    for model in commanders.values():
        assert catalog.monster(model) is not None
    scenario = {m["name"] for m in catalog.monsters() if m.get("rank") == "Scenario"}
    assert scenario == {
        "Nightmare", "Fell Woodman", "Vicious Mauler", "Vile Spawn", "Coiled Harridan",
        "Flickering Boar",
    }
    assert catalog.monster("TIDEHUNTER")["model_count"] == catalog.MINION_MODELS
    assert catalog.monster("Boatswain")["models"] == "Executioner"
    assert catalog.monster("Nobody") is None


def test_unknown_attribute():
    with pytest.raises(AttributeError):
        catalog.NOT_A_CONSTANT  # noqa: B018


# --- Startup cost ------------------------------------------------------------------------------


@pytest.mark.slow  # starts a Python
def test_catalog_imports_only_the_standard_library():
    code = (
        "import sys\n"
        "import drunagor_log.catalog as c\n"
        "c.hero('Andreas'); c.chapter(3); c.chapter_reward(3); c.chest_card('Scroll of Beguile');\n"
        "c.monster('Ox'); c.RANKS; c.names('auras')\n"
        "heavy = ('tomlkit', 'rich', 'typer', 'click', 'difflib')\n"
        "bad = sorted(m for m in heavy if m in sys.modules)\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == ""


@pytest.mark.slow  # starts a Python
def test_import_reads_no_data_file():
    code = (
        "import builtins, sys\n"
        "opened = []\n"
        "real = builtins.open\n"
        "builtins.open = lambda f, *a, **k: (opened.append(str(f)), real(f, *a, **k))[1]\n"
        "import drunagor_log.catalog as c\n"
        "print(sum(p.endswith('.toml') for p in opened))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "0"

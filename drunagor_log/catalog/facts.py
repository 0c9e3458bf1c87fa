"""The built-in catalog: facts about Chronicles of Drunagor: Awakenings, read from ``data/*.toml``.

One data file per subject, each fact with its source (``RB L<n>`` = rulebook line, ``APP`` = the
publisher's companion app, ``COMM`` = community apps):

    heroes.toml    heroes, core-box heroes, Dungeon Roles, skill trees
    names.toml     followers, outcomes, story statuses, hero statuses, auras
    chapters.toml  chapters 01-09
    rewards.toml   the new-recruit table (RB L1005-1016)
    items.toml     chest deck, Spoils of the Hero, Adventure Items, Starting Gear
    runes.toml     rune colours and the default rune bag
    monsters.toml  ranks, levels, Monster Status board, monster and commander cards

A fact the sources do not give (most card rarities, most commander card positions, which Adventure
Items are Epic, model counts of non-minion monsters, each hero's Starting Gear) is absent: a lookup
returns None or a dict without that key. The player records such facts (SPEC 5).

Values are plain: frozen records (Hero, CoreHero, Chapter, Raid, RaidSummon, Boss, Rewards),
tuples of names, or fresh dicts the caller may keep. Name lookups are case-insensitive and tolerate
curly apostrophes and extra spaces; unknown names give None.

Importing this module reads no file and imports only the standard library (functools, types,
typing, os; tomllib only when a data file is parsed, not read from the disk cache): each data file
is parsed on first use and cached. The constants
below (ROLES, RANKS, ...) are loaded the same way, on first access (module ``__getattr__``).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ..errors import UnknownChapter
from ..values import fields, record
from .diskcache import parsed

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")

# Constants, each loaded from its data file on first access (see __getattr__ at the end).
ROLES: tuple[str, ...]                 # Dungeon Roles (heroes.toml)
SKILL_TREES: tuple[str, ...]           # melee, ranged, agility, wisdom, role (heroes.toml)
NAME_KINDS: tuple[str, ...]            # the kinds names() accepts (names.toml)
RUNE_COLOURS: tuple[str, ...]          # red, blue, green, orange, gray (runes.toml)
RUNE_POSITIONS: tuple[str, ...]        # top, bottom (runes.toml)
DEFAULT_RUNE_BAG: dict[str, int]       # colour -> runes; community data (runes.toml)
RANKS: tuple[str, ...]                 # highest first (monsters.toml)
LEVELS: tuple[str, ...]                # Rookie .. Champion (monsters.toml)
STATUS_BOARD_COLOURS: tuple[str, ...]  # 12 bases, slot 1 first (monsters.toml)
MINION_MODELS: int                     # 4 models per minion type (monsters.toml)
COMMANDER_DECK_SIZE: int               # 10 (monsters.toml)
CHEST_GRID: dict[str, Any]             # {"epic_rare": 2, "potion": {rarity: n}, ...} (items.toml)
EPIC_RARE_AWAKENINGS: tuple[str, ...]  # Artisan's Tools, Treasure Trove (items.toml)
EPIC_RARE_REPLACED: tuple[str, ...]    # Cosmic Gemstone, Forgotten Treasure (items.toml)
SPOILS_QUALITIES: tuple[str, ...]      # Standard, Improved, Ultimate (items.toml)


@functools.cache
def _load(name: str) -> dict[str, Any]:
    """Parse data/<name>.toml once (and across runs, from the disk cache while the file is unchanged:
    parsing all seven files costs about 12 ms a command, reading the cache well under 1 ms)."""
    return parsed(os.path.join(_DATA, f"{name}.toml"), _parse)


def _parse(path: str) -> dict[str, Any]:
    import tomllib  # only on a miss of the disk cache

    with open(path, "rb") as f:
        return tomllib.load(f)


# The data files' shorthand for a source that is not the rulebook, in a reader's words (the rulebook's
# "RB L<n>" is rendered by catalog/headings.py, as every printed line's citations are).
SOURCES = {"APP": "the publisher's companion app", "COMM": "community helper apps"}
_SOURCE_WORD = re.compile(r"\b(" + "|".join(SOURCES) + r")\b")


def source_words(source: str) -> str:
    """A catalog entry's `source` as a reader reads it: "APP; rarity RB L365" -> "the publisher's
    companion app; rarity RB L365". Every message that shows a source goes through it."""
    return _SOURCE_WORD.sub(lambda m: SOURCES[m.group(1)], source)


def _key(name: str) -> str:
    """The form names are compared in: case-folded, straight apostrophes, single spaces."""
    return " ".join(name.replace("\u2019", "'").replace("\u2018", "'").split()).casefold()


def _index(entries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {_key(e["name"]): e for e in entries}


def _plain(entry: dict[str, Any]) -> dict[str, Any]:
    """A fresh copy for the caller, lists turned into tuples."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in entry.items()}


# --- Names ----------------------------------------------------------------------------------------


def names(kind: str) -> tuple[str, ...]:
    """Known names of one kind: followers, outcomes, story_statuses, hero_statuses or auras.

    Raises KeyError for any other kind.
    """
    data = _load("names")
    k = kind.replace("-", "_")
    if k not in data:
        raise KeyError(f"unknown kind of name {kind!r}; known: {', '.join(data)}")
    return tuple(data[k]["names"])


def canonical(name: str, candidates: tuple[str, ...] | list[str]) -> str | None:
    """The candidate equal to name ignoring case, apostrophe style and spacing, else None."""
    wanted = _key(name)
    for c in candidates:
        if _key(c) == wanted:
            return c
    return None


# --- Heroes ---------------------------------------------------------------------------------------


@record
class Hero:
    """An Awakenings hero; special_class is the Hero Pack #1 variant (RB L949)."""

    name: str
    hero_class: str
    special_class: str
    aliases: tuple[str, ...] = ()
    source: str = ""

    @property
    def classes(self) -> tuple[str, str]:
        return (self.hero_class, self.special_class)


@record
class CoreHero:
    """A core-box hero, forbidden as a hero in Awakenings (RB L941); follower is the name it can
    join under as a Follower, None if it has none."""

    name: str
    hero_class: str
    follower: str | None = None
    source: str = ""


@functools.cache
def _heroes() -> tuple[dict[str, Hero], dict[str, CoreHero]]:
    data = _load("heroes")
    heroes: dict[str, Hero] = {}
    for h in data["hero"]:
        aliases = tuple(h.get("aliases", ()))
        hero_ = Hero(h["name"], h["class"], h["special_class"], aliases, h["source"])
        for n in (hero_.name, *hero_.aliases):
            heroes[_key(n)] = hero_
    core = {
        _key(h["name"]): CoreHero(h["name"], h["class"], h.get("follower"), h["source"])
        for h in data["core_hero"]
    }
    return heroes, core


def hero(name: str) -> Hero | None:
    """The Awakenings hero called name (or an alias such as "Vacren"), else None."""
    return _heroes()[0].get(_key(name))


def heroes() -> tuple[Hero, ...]:
    """The four Awakenings heroes, in catalog order."""
    return tuple(dict.fromkeys(_heroes()[0].values()))


def other_heroes() -> tuple[str, ...]:
    """Heroes of other Drunagor products the companion apps list (heroes.toml `other_heroes`)."""
    return tuple(_load("heroes").get("other_heroes", ()))


def core_hero(name: str) -> CoreHero | None:
    """The core-box hero called name, else None."""
    return _heroes()[1].get(_key(name))


def core_heroes() -> tuple[CoreHero, ...]:
    return tuple(_heroes()[1].values())


# --- Chapters -------------------------------------------------------------------------------------


@record
class RaidSummon:
    """What a raid card summons: the card (minion) played with which miniatures (models);
    kind is the card kind, "minion" or "scenario"."""

    minion: str
    models: str
    kind: str


@record
class Raid:
    """A chapter's raid card and its summons (Naval Raid, chapter 04, has two minion cards)."""

    card: str
    summons: tuple[RaidSummon, ...]
    source: str = ""

    @property
    def minions(self) -> tuple[str, ...]:
        return tuple(s.minion for s in self.summons)

    # For the usual single summon; None when the card has several (use summons).
    @property
    def minion(self) -> str | None:
        return self.summons[0].minion if len(self.summons) == 1 else None

    @property
    def models(self) -> str | None:
        return self.summons[0].models if len(self.summons) == 1 else None

    @property
    def kind(self) -> str | None:
        return self.summons[0].kind if len(self.summons) == 1 else None


@record
class Boss:
    name: str
    health_per_hero: int
    source: str = ""

    def health(self, heroes: int) -> int:
        return self.health_per_hero * heroes


@record
class Chapter:
    """One chapter (fields as in chapters.toml). Absent facts are None or empty: stirring_darkness
    (runes of each colour; None for 07), mechanic, raid, boss; camaraderie is the Followers pool
    (empty unless 07); refs maps a fact to its rulebook lines ("chapter": the whole chapter);
    mechanics is the chapter's [chapter.mechanics] table as plain values (rules/chapters.py reads it)."""

    id: str
    title: str
    stirring_darkness: int | None
    recall_penalty: int
    mechanic: str | None
    raid: Raid | None
    darkness_nodes: bool
    tie_breaker: bool
    fails_on_last_rune: bool
    camaraderie: tuple[str, ...]
    siege: bool
    boss: Boss | None
    scenario_monsters: tuple[str, ...]
    refs: Mapping[str, str]
    mechanics: Mapping[str, Any] = MappingProxyType({})

    @property
    def number(self) -> int:
        return int(self.id)


def _chapter(c: dict[str, Any]) -> Chapter:
    raid = c.get("raid")
    boss = c.get("boss")
    return Chapter(
        id=c["id"],
        title=c["title"],
        stirring_darkness=c.get("stirring_darkness"),
        recall_penalty=c["recall_penalty"],
        mechanic=c.get("mechanic"),
        raid=None if raid is None else Raid(
            raid["card"], tuple(RaidSummon(**s) for s in raid["summons"]), raid.get("source", "")
        ),
        darkness_nodes=c["darkness_nodes"],
        tie_breaker=c["tie_breaker"],
        fails_on_last_rune=c["fails_on_last_rune"],
        camaraderie=tuple(c.get("camaraderie", ())),
        siege=c["siege"],
        boss=None if boss is None else Boss(
            boss["name"], boss["health_per_hero"], boss.get("source", "")
        ),
        scenario_monsters=tuple(c.get("scenario_monsters", ())),
        refs=MappingProxyType(dict(c["refs"])),
        mechanics=MappingProxyType(dict(c.get("mechanics", {}))),
    )


@functools.cache
def _chapters() -> dict[str, Chapter]:
    return {c["id"]: _chapter(c) for c in _load("chapters")["chapter"]}


def chapter_id(x: str | int) -> str:
    """Normalise 3, "3" or "03" to "03". Raises ValueError (UnknownChapter) for anything else."""
    n: int | None = None
    if isinstance(x, int) and not isinstance(x, bool):
        n = x
    elif isinstance(x, str):
        s = x.strip()
        if s.isascii() and s.isdigit() and len(s) <= 2:
            n = int(s)
    cid = f"{n:02d}" if n is not None and n >= 0 else None
    if cid not in _chapters():
        raise UnknownChapter(f"no chapter {x!r}: chapters are 01 to {list(_chapters())[-1]}")
    return cid


def chapter(n: str | int) -> Chapter:
    """Chapter n (3, "3" or "03"). Raises KeyError (UnknownChapter) for an unknown chapter."""
    return _chapters()[chapter_id(n)]


def chapters() -> tuple[Chapter, ...]:
    """All chapters, in order."""
    return tuple(_chapters().values())


# --- Rewards --------------------------------------------------------------------------------------


@record
class Rewards:
    """Counts of hero rewards. + and - work field by field; a difference may go negative."""

    level1_skills: int = 0
    level2_skills: int = 0
    class_abilities: int = 0
    spoils: int = 0
    spoils_upgrades: int = 0

    def __add__(self, other: Rewards) -> Rewards:
        return Rewards(*(getattr(self, f) + getattr(other, f) for f in fields(self)))

    def __sub__(self, other: Rewards) -> Rewards:
        return Rewards(*(getattr(self, f) - getattr(other, f) for f in fields(self)))

    def owed(self) -> Rewards:
        """Of a difference (expected - recorded): only what is still missing."""
        return Rewards(*(max(0, getattr(self, f)) for f in fields(self)))

    def excess(self) -> Rewards:
        """Of a difference (expected - recorded): only what is recorded beyond the expected."""
        return Rewards(*(max(0, -getattr(self, f)) for f in fields(self)))

    def is_zero(self) -> bool:
        return all(getattr(self, f) == 0 for f in fields(self))

    def as_dict(self) -> dict[str, int]:
        return {f: getattr(self, f) for f in fields(self)}


@functools.cache
def _recruit() -> dict[str, Rewards]:
    return {ch: Rewards(**row) for ch, row in _load("rewards")["recruit"].items()}


def recruit_row(ch: str | int) -> Rewards:
    """Cumulative rewards a new hero joining before chapter ch receives (RB L1005-1016)."""
    return _recruit()[chapter_id(ch)]


def recruit_table() -> tuple[tuple[str, Rewards], ...]:
    """The whole new-recruit table as (chapter, Rewards) rows, 01 first."""
    return tuple(_recruit().items())


def chapter_reward(ch: str | int) -> Rewards:
    """Rewards each hero owes for completing chapter ch, derived from the recruit table: row[ch+1] -
    row[ch]. The last chapter gives nothing listed (zero Rewards). Skipped chapters give none."""
    cid = chapter_id(ch)
    ids = list(_recruit())
    i = ids.index(cid)
    if i + 1 == len(ids):
        return Rewards()
    return _recruit()[ids[i + 1]] - _recruit()[cid]


# --- Items ----------------------------------------------------------------------------------------


@functools.cache
def _items() -> dict[str, dict[str, dict[str, Any]]]:
    data = _load("items")
    spoils = data["spoils"]
    qualities = tuple(spoils["qualities"])
    return {
        "chest": _index(data["chest_card"]),
        "spoils": {
            _key(s["name"]): {**s, "qualities": qualities, "source": spoils["source"]}
            for s in spoils["items"]
        },
        "adventure": _index(data["adventure_item"]),
        "starting": _index(data["starting_gear"]),
    }


def _item(table: str, name: str) -> dict[str, Any] | None:
    entry = _items()[table].get(_key(name))
    return None if entry is None else _plain(entry)


def chest_card(name: str) -> dict[str, Any] | None:
    """A chest card: name, type ("potion", "scroll", or "treasure" for the Epic Rare pair), box,
    source, and rarity only where known ("common", "epic rare"); retired=True for the core Epic
    Rare pair replaced before the campaign (RB L371). None for a card the catalog does not know."""
    return _item("chest", name)


def chest_cards() -> tuple[dict[str, Any], ...]:
    return tuple(_plain(e) for e in _items()["chest"].values())


def spoils_item(name: str) -> dict[str, Any] | None:
    """A Spoils of the Hero card: name, slot (weapon, off hand, armor, trinket), qualities."""
    return _item("spoils", name)


def is_spoils(name: str) -> bool:
    return _key(name) in _items()["spoils"]


def spoils_items() -> tuple[dict[str, Any], ...]:
    return tuple(_plain(e) for e in _items()["spoils"].values())


def adventure_item(name: str) -> dict[str, Any] | None:
    """An Adventure Item: name, source, box where known, epic only where known (True/False),
    consumable=True for one-use items (Dragon's Breath), and card notes (double_faced, versatile,
    variants) where known."""
    return _item("adventure", name)


def adventure_items() -> tuple[dict[str, Any], ...]:
    return tuple(_plain(e) for e in _items()["adventure"].values())


def is_known_epic(name: str) -> bool:
    """True only for an item a source names Epic (Frozen Tears of Alagast, RB L417)."""
    entry = _items()["adventure"].get(_key(name))
    return bool(entry and entry.get("epic") is True)


def starting_gear() -> tuple[str, ...]:
    """Names of the core-box Starting Gear cards (APP)."""
    return tuple(e["name"] for e in _items()["starting"].values())


def starting_gear_item(name: str) -> dict[str, Any] | None:
    """A Starting Gear card: name, type (e.g. "Light weapon"), source."""
    return _item("starting", name)


def item_kind(name: str) -> str | None:
    """The Campaign Log equipment kind of a known item: "starting", "spoils", "adventure", "epic"
    (only when known to be Epic) or "consumable" (chest cards, one-use Adventure consumables);
    None when the catalog does not know the item."""
    k = _key(name)
    items = _items()
    if k in items["starting"]:
        return "starting"
    if k in items["spoils"]:
        return "spoils"
    if k in items["chest"]:
        return "consumable"
    entry = items["adventure"].get(k)
    if entry is None:
        return None
    if entry.get("consumable"):
        return "consumable"
    return "epic" if entry.get("epic") is True else "adventure"


# --- Monsters and commander cards -----------------------------------------------------------------


@functools.cache
def _monsters() -> dict[str, dict[str, Any]]:
    return _index(_load("monsters")["monster"])


def monster(name: str) -> dict[str, Any] | None:
    """A monster card: name, box, and where known rank (one of RANKS), models (the miniatures, when
    not named like the card), model_count, boss, health_per_hero, source. None if unknown."""
    entry = _monsters().get(_key(name))
    return None if entry is None else _plain(entry)


def monsters() -> tuple[dict[str, Any], ...]:
    return tuple(_plain(e) for e in _monsters().values())


@functools.cache
def _commander_cards() -> dict[str, dict[str, Any]]:
    return _index(_load("monsters")["commander_attack"]["cards"])


def commander_card(name: str) -> str | None:
    """The Rune position ("orange-bottom") of a Commander Attack card, None when unknown."""
    entry = _commander_cards().get(_key(name))
    return None if entry is None else entry["position"]


def commander_cards() -> tuple[dict[str, Any], ...]:
    """The known Commander Attack cards: name, position, source, inferred=True where inferred."""
    return tuple(_plain(e) for e in _commander_cards().values())


# --- Lazily loaded constants ----------------------------------------------------------------------


def _epic_rare(retired: bool) -> tuple[str, ...]:
    return tuple(
        e["name"]
        for e in _items()["chest"].values()
        if e.get("rarity") == "epic rare" and bool(e.get("retired")) is retired
    )


_CONSTANTS = {
    "ROLES": lambda: tuple(_load("heroes")["roles"]),
    "SKILL_TREES": lambda: tuple(_load("heroes")["skill_trees"]),
    "NAME_KINDS": lambda: tuple(_load("names")),
    "RUNE_COLOURS": lambda: tuple(_load("runes")["colours"]),
    "RUNE_POSITIONS": lambda: tuple(_load("runes")["positions"]),
    "DEFAULT_RUNE_BAG": lambda: {
        c: n for c, n in _load("runes")["default_bag"].items() if c != "source"
    },
    "RANKS": lambda: tuple(_load("monsters")["ranks"]),
    "LEVELS": lambda: tuple(_load("monsters")["levels"]),
    "STATUS_BOARD_COLOURS": lambda: tuple(_load("monsters")["status_board"]["colours"]),
    "MINION_MODELS": lambda: _load("monsters")["minion_models"],
    "COMMANDER_DECK_SIZE": lambda: _load("monsters")["commander_attack"]["deck_size"],
    "CHEST_GRID": lambda: {
        k: dict(v) if isinstance(v, dict) else v
        for k, v in _load("items")["chest_grid"].items()
        if k != "source"
    },
    "EPIC_RARE_AWAKENINGS": lambda: _epic_rare(retired=False),
    "EPIC_RARE_REPLACED": lambda: _epic_rare(retired=True),
    "SPOILS_QUALITIES": lambda: tuple(_load("items")["spoils"]["qualities"]),
}


def __getattr__(name: str) -> Any:
    # PEP 562: ROLES, RANKS, ... are read from the data files on first access, not at import.
    # Immutable values are then kept as ordinary module attributes; mutable ones (DEFAULT_RUNE_BAG,
    # CHEST_GRID) are fresh copies on every access, so a caller cannot change the catalog.
    try:
        make = _CONSTANTS[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = make()
    if not isinstance(value, dict):
        globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_CONSTANTS])

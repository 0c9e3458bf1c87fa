"""The campaign as plain, immutable values: what the rules read. No files, no terminal.

`story_from(data)` and `hero_from(data)` turn the plain values of a TOML file into these types and
raise `FieldError` (errors.py: a key path, what is wrong, how to fix it) when a value has the wrong
shape; the file it came from adds its name and line (`store.TomlFile.about`). Keys a user added that
drunagor does not know are ignored here and kept in the file.
"""

from __future__ import annotations

from typing import Any

from ..errors import FieldError
from ..values import field, record, whole

CHAPTERS = tuple(f"{n:02d}" for n in range(1, 10))
TRACK_STATES = ("completed", "skipped")
EQUIPMENT_KINDS = ("starting", "spoils", "adventure", "epic", "consumable")
PLACES = ("equipped", "bag")
QUALITIES = ("standard", "improved", "ultimate")
TREES = ("melee", "ranged", "agility", "wisdom", "role")


def chapter_id(value: Any) -> str:
    """"3", 3, "03" -> "03"; anything else raises ValueError."""
    if isinstance(value, bool):
        raise ValueError(value)
    n = value if isinstance(value, int) else whole(str(value).strip())  # NotANumber is a ValueError
    if not 1 <= n <= 9:
        raise ValueError(value)
    return f"{n:02d}"


# ------------------------------------------------------------------------------- shape checking


def _type_name(t) -> str:
    return {str: "text", int: "a whole number", bool: "true or false", list: "a list",
            dict: "a table"}.get(t, t.__name__)


def _get(data: dict, key: str, t, path: tuple, default=None, required=False):
    if key not in data:
        if required:
            raise FieldError(path + (key,), f"`{key}` is missing",
                             f"add `{key} = ...` ({_type_name(t)})")
        return default
    value = data[key]
    ok = isinstance(value, t) and not (t is int and isinstance(value, bool))
    if not ok:
        raise FieldError(path + (key,), f"{_shown(path, key)} must be {_type_name(t)}, not {value!r}",
                         f"write `{key}` as {_type_name(t)}")
    return value


# How a list's entries are called in messages: entry 0 of `skills` is "skill 1" (people count from 1).
_ENTRY = {"skills": "skill", "equipment": "equipment entry", "upgrades": "upgrade", "cards": "card"}


def _shown(path: tuple, key: str) -> str:
    """A key path as a message names it: "`party`", "`level` of skill 1", "`rules.max_heroes`"."""
    at = max((i for i, p in enumerate(path) if isinstance(p, int)), default=None)
    if at is None:
        return f"`{'.'.join(map(str, path + (key,)))}`"
    owner = str(path[at - 1]) if at else "list"
    return f"`{key}` of {_ENTRY.get(owner, owner + ' entry')} {path[at] + 1}"


def _names(data: dict, key: str, path: tuple = ()) -> tuple[str, ...]:
    values = _get(data, key, list, path, default=[])
    for i, v in enumerate(values):
        if not isinstance(v, str) or not v.strip():
            raise FieldError(path + (key, i), f"`{key}` must list names as text, found {v!r}",
                             'write each as "Name"')
    return tuple(values)


def _count(data: dict, key: str, path: tuple, default: int, low: int = 0, high: int | None = None) -> int:
    value = _get(data, key, int, path, default=default)
    if value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise FieldError(path + (key,), f"`{key}` must be {bound}, not {value}",
                         f"set `{key}` {bound}")
    return value


def _chapter(data: dict, key: str, path: tuple, default=None) -> str | None:
    value = data.get(key, default)
    if value is None:
        return None
    try:
        return chapter_id(value)
    except ValueError:
        raise FieldError(path + (key,), f"`{key}` must be a chapter from \"01\" to \"09\", not {value!r}",
                         f'write `{key} = "01"`') from None


# ----------------------------------------------------------------------------------- the story


@record
class Rules:
    trauma_limit: int = 1
    max_heroes: int = 4
    rune_bag: dict[str, int] = field(factory=dict)


@record
class ChestCard:
    name: str
    copies: int


@record
class Story:
    campaign: str
    party: str
    leader: str | None
    followers: tuple[str, ...]
    outcomes: tuple[str, ...]
    statuses: tuple[str, ...]
    stash: tuple[str, ...]
    stored: tuple[str, ...]
    track: dict[str, str]
    failures: dict[str, int]
    rules: Rules
    chest_epic: tuple[str, ...]
    chest_cards: tuple[ChestCard, ...]
    cards: dict[str, dict]
    commander: tuple[str, ...]
    autocommit: bool
    corrections: tuple[str, ...]
    ending: str | None = None  # chapter 09's ending, once the campaign is finished (RB L1309)

    def finished(self) -> str | None:
        """What every place that would point to the next adventure says of a finished campaign, however
        it was finished: chapter 09's ending when `adventure end` recorded one (RB L1309), else the
        filled slot (`chapter complete 9` with no adventure played); None while a chapter is to play."""
        if self.ending:
            return f"the campaign is finished: {self.ending} (RB L1309)"
        if CHAPTERS[-1] in self.track:
            return "the campaign is finished: chapter 09 is on the Adventure Track"
        return None

    def next_chapter(self) -> str | None:
        """The next unfilled slot of the Adventure Track (RB L961); None when 09 is filled."""
        for ch in CHAPTERS:
            if ch not in self.track:
                return ch
        return None

    def completed(self) -> tuple[str, ...]:
        return tuple(ch for ch in CHAPTERS if self.track.get(ch) == "completed")


def story_from(data: dict) -> Story:
    track = _track(data)
    failures = _failures(data)
    rules = _rules(data)
    chest_raw = _get(data, "chest", dict, (), default={})
    chest_cards = _chest_cards(chest_raw)
    cards = _get(data, "cards", dict, (), default={})
    for name, facts in cards.items():
        if not isinstance(facts, dict):
            raise FieldError(("cards", name), f"the facts about {name!r} must be a table",
                             f'write "{name}" = {{ type = "potion", rarity = "common" }}')
    git = _get(data, "git", dict, (), default={})
    commander = _get(data, "commander", dict, (), default={})
    return Story(
        campaign=_get(data, "campaign", str, (), default="awakenings"),
        party=_get(data, "party", str, (), default=""),
        leader=_get(data, "leader", str, (), default=None),
        followers=_names(data, "followers"),
        outcomes=_names(data, "outcomes"),
        statuses=_names(data, "statuses"),
        stash=_names(data, "stash"),
        stored=_names(data, "stored"),
        track=track,
        failures=failures,
        rules=rules,
        chest_epic=_names(chest_raw, "epic", ("chest",)),
        chest_cards=tuple(chest_cards),
        cards=cards,
        commander=_names(commander, "cards", ("commander",)),
        autocommit=_get(git, "autocommit", bool, ("git",), default=False),
        corrections=_names(data, "corrections"),
        ending=_get(data, "ending", str, (), default=None),
    )


def _track(data: dict) -> dict[str, str]:
    track_raw = _get(data, "track", dict, (), default={})
    track: dict[str, str] = {}
    for key, state in track_raw.items():
        try:
            ch = chapter_id(key)
        except ValueError:
            raise FieldError(("track", key), f"unknown chapter {key!r} on the Adventure Track",
                             'chapters are "01" to "09"') from None
        if state not in TRACK_STATES:
            raise FieldError(("track", key), f"chapter {ch} is {state!r}; it must be "
                             '"completed" or "skipped"', "fix the value, or remove the line to leave the slot open")
        track[ch] = state
    return track


def _failures(data: dict) -> dict[str, int]:
    failures_raw = _get(data, "failures", dict, (), default={})
    failures = {}
    for key in failures_raw:
        try:
            failures[chapter_id(key)] = _count(failures_raw, key, ("failures",), 0)
        except ValueError:
            raise FieldError(("failures", key), f"unknown chapter {key!r}", 'chapters are "01" to "09"') from None
    return failures


def _rules(data: dict) -> Rules:
    rules_raw = _get(data, "rules", dict, (), default={})
    bag_raw = _get(rules_raw, "rune_bag", dict, ("rules",), default=None)
    bag = {}
    if bag_raw is not None:
        for colour in bag_raw:
            bag[colour] = _count(bag_raw, colour, ("rules", "rune_bag"), 0)
    return Rules(
        trauma_limit=_count(rules_raw, "trauma_limit", ("rules",), 1, 0, 9),
        max_heroes=_count(rules_raw, "max_heroes", ("rules",), 4, 1, 5),
        rune_bag=bag,
    )


def _chest_cards(chest_raw: dict) -> list[ChestCard]:
    chest_cards = []
    for i, entry in enumerate(_get(chest_raw, "cards", list, ("chest",), default=[])):
        if isinstance(entry, str):
            chest_cards.append(ChestCard(entry, 1))
            continue
        if not isinstance(entry, dict):
            raise FieldError(("chest", "cards", i), f"a chest card must be {{ name = ..., copies = N }}, "
                             f"not {entry!r}", 'write { name = "Potion of Healing", copies = 2 }')
        name = _get(entry, "name", str, ("chest", "cards", i), required=True)
        chest_cards.append(ChestCard(name, _count(entry, "copies", ("chest", "cards", i), 1, 1, 9)))
    return chest_cards


# ------------------------------------------------------------------------------------- a hero


@record
class Skill:
    name: str
    tree: str
    level: int
    chapter: str | None


@record
class Item:
    name: str
    kind: str
    quality: str | None
    place: str
    given_by: str | None = None  # file key `from`: the hero who earned this Spoils card and gave it


@record
class Upgrade:
    item: str
    to: str  # the quality reached
    discarded: str  # "" for a reward upgrade: nothing was disposed of
    discarded_kind: str | None
    chapter: str | None
    reward: bool = False  # a "Spoil of the Hero Equipment Upgrade" owed as a reward (RB L1015-1016)


@record
class Hero:
    name: str
    cls: str
    role: str
    player: str | None
    joined: str
    aura: str | None
    statuses: tuple[str, ...]
    class_abilities: tuple[str, ...]
    skills: tuple[Skill, ...]
    equipment: tuple[Item, ...]
    upgrades: tuple[Upgrade, ...]
    retired: bool
    left: str | None = None  # the chapter before which the hero (last) left the party
    returned: str | None = None  # the chapter before which a hero who left came back (`hero return`)
    upgrades_before: int = 0  # upgrades recorded before the hero left: their cards went back to the box

    @property
    def active(self) -> bool:
        return not self.retired

    def item(self, name: str) -> Item | None:
        low = name.casefold()
        return next((i for i in self.equipment if i.name.casefold() == low), None)


def _skill(s: Any, path: tuple) -> Skill:
    if not isinstance(s, dict):
        raise FieldError(path, f"a skill must be a table, not {s!r}",
                         'write { name = "...", tree = "melee", level = 1, chapter = "01" }')
    tree = _get(s, "tree", str, path, required=True)
    if tree not in TREES:
        raise FieldError(path + ("tree",), f"unknown skill tree {tree!r}", f"use one of {', '.join(TREES)}")
    level = _get(s, "level", int, path, required=True)
    if level not in (1, 2):
        raise FieldError(path + ("level",), f"skill level must be 1 or 2, not {level}", "fix the level")
    return Skill(_get(s, "name", str, path, required=True), tree, level, _chapter(s, "chapter", path))


def _item(e: Any, path: tuple) -> Item:
    if not isinstance(e, dict):
        raise FieldError(path, f"an equipment entry must be a table, not {e!r}",
                         'write { name = "...", kind = "spoils", quality = "standard", place = "bag" }')
    kind = _get(e, "kind", str, path, required=True)
    if kind not in EQUIPMENT_KINDS:
        raise FieldError(path + ("kind",), f"unknown equipment kind {kind!r}",
                         f"use one of {', '.join(EQUIPMENT_KINDS)}")
    place = _get(e, "place", str, path, default="bag")
    if place not in PLACES:
        raise FieldError(path + ("place",), f"unknown place {place!r}", 'use "equipped" or "bag"')
    quality = _get(e, "quality", str, path, default=None)
    if quality is not None and quality not in QUALITIES:
        raise FieldError(path + ("quality",), f"unknown quality {quality!r}",
                         f"use one of {', '.join(QUALITIES)}")
    if kind == "spoils" and quality is None:
        quality = "standard"
    return Item(_get(e, "name", str, path, required=True), kind, quality, place,
                _get(e, "from", str, path, default=None) or None)


def _upgrade(u: Any, path: tuple) -> Upgrade:
    if not isinstance(u, dict):
        raise FieldError(path, f"an upgrade must be a table, not {u!r}", "see README, file format")
    return Upgrade(_get(u, "item", str, path, required=True), _get(u, "to", str, path, default=""),
                   _get(u, "discarded", str, path, default=""), _get(u, "discarded_kind", str, path, default=None),
                   _chapter(u, "chapter", path), _get(u, "reward", bool, path, default=False))


def _entries(data: dict, key: str, convert) -> tuple:
    return tuple(convert(v, (key, i)) for i, v in enumerate(_get(data, key, list, (), default=[])))


def hero_from(data: dict) -> Hero:
    skills = _entries(data, "skills", _skill)
    items = _entries(data, "equipment", _item)
    upgrades = _entries(data, "upgrades", _upgrade)
    aura = _get(data, "aura", str, (), default=None)
    retired = _get(data, "retired", bool, (), default=False)
    for key in ("left", "returned"):  # written by `hero remove`/`hero return` as text: a number is not theirs
        if key in data and not isinstance(data[key], str):
            raise FieldError((key,), f"`{key}` must be a chapter written as text, not {data[key]!r}",
                             f'write `{key} = "05"` (the chapter, in quotes)')
    return Hero(
        name=_get(data, "name", str, (), required=True),
        cls=_get(data, "class", str, (), required=True),
        role=_get(data, "role", str, (), required=True),
        player=_get(data, "player", str, (), default=None),
        joined=_chapter(data, "joined", (), default="01") or "01",
        aura=aura or None,
        statuses=_names(data, "statuses"),
        class_abilities=_names(data, "class_abilities"),
        skills=skills,
        equipment=items,
        upgrades=upgrades,
        retired=retired,
        left=_chapter(data, "left", ()),
        returned=_chapter(data, "returned", ()),
        upgrades_before=_count(data, "upgrades_before_return", (), 0),
    )


# ------------------------------------------------------------------------------ the party's notes
# story.toml `notes = [ { id, chapter, round, date, by, hero, text } ]` (SPEC 12, issue 45.1): one note a line,
# each named by its `id`, so that the merge driver (store/merge.py) merges two players' new notes as two
# additions to a list, never a conflict. A note is the party's own text: every front end shows it through the
# output rule (text.visible).

@record
class Note:
    """One note: what was written, when (the chapter, the round when an adventure was under way, the
    date), by whom (`by`: the player), and about which hero (None: the party)."""

    id: str
    chapter: str
    date: str
    by: str
    text: str
    round: int | None = None
    hero: str | None = None

    def as_json(self, number: int) -> dict[str, Any]:
        return {"number": number, "id": self.id, "chapter": self.chapter, "round": self.round, "date": self.date,
                "by": self.by, "hero": self.hero, "text": self.text}


_TEXT_KEYS = ("id", "chapter", "date", "by", "text")


def one_line(text: str) -> bool:
    """Whether a note's words are one line: shown one a line (`note list`, the recap), a line break would
    make the next line look like another note."""
    return text.splitlines() in ([text], [])


def notes_from(data: dict) -> tuple[Note, ...]:
    """The notes of story.toml's plain values (none: an empty tuple); FieldError names a bad one."""
    raw = data.get("notes", [])
    if not isinstance(raw, list):
        raise FieldError(("notes",), "`notes` must be a list of notes, one a line",
                         'write notes = [ { id = "...", chapter = "01", date = "...", by = "...", text = "..." } ]')
    notes = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, dict):
            raise FieldError(("notes", i), f"note {i + 1} must be a table, not {entry!r}",
                             "add notes with `drunagor note add TEXT`")
        for key in _TEXT_KEYS:
            if not isinstance(entry.get(key), str):
                raise FieldError(("notes", i, key), f"`{key}` of note {i + 1} must be text, not {entry.get(key)!r}",
                                 f'write {key} = "..."')
        for key in ("by", "text"):
            if not one_line(entry[key]):
                raise FieldError(("notes", i, key), f"`{key}` of note {i + 1} holds a line break: a note is one line",
                                 "write it on one line (two notes for two lines)")
        round_ = entry.get("round")
        if round_ is not None and (isinstance(round_, bool) or not isinstance(round_, int) or round_ < 1):
            raise FieldError(("notes", i, "round"), f"`round` of note {i + 1} must be a round number, not {round_!r}",
                             "write round = 1, or remove it")
        hero = entry.get("hero")
        if hero is not None and not isinstance(hero, str):
            raise FieldError(("notes", i, "hero"), f"`hero` of note {i + 1} must be a hero's name, not {hero!r}",
                             'write hero = "Nyx", or remove it')
        notes.append(Note(id=entry["id"], chapter=entry["chapter"], date=entry["date"], by=entry["by"],
                          text=entry["text"], round=round_, hero=hero))
    return tuple(notes)

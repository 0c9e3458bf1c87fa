"""Checks of the Campaign Logs (SPEC 5.1 and 5.3): hero limitations, Dungeon Roles, the starting
kit, and the rewards each active hero still owes or holds in excess (warnings; errors with --strict)."""

from __future__ import annotations

from .. import catalog
from ..model import CHAPTERS
from ..rules import heroes as hero_rules
from ..rules import rewards
from ..text import shell_word
from .registry import check, problem

REWARD_KEYS = hero_rules.RECORD_WITH


def _file_and_key(c, hero_name: str | None, key: tuple):
    if hero_name is None:
        return c.story_file, key
    s = _slugs(c.heroes).get(hero_name)
    if s is None:
        return c.story_file, ()
    f = c.hero_files[s]
    if key and key[0] not in f.data:
        key = ("name",)
    return f, key


_SLUGS: list = [None, {}]  # the heroes last indexed, and their index: one per check, not one per finding


def _slugs(heroes) -> dict:
    """Each hero's name -> the file stem of its (first) Campaign Log."""
    if _SLUGS[0] is not heroes:
        index: dict = {}
        for s, h in heroes.items():
            index.setdefault(h.name, s)
        _SLUGS[:] = [heroes, index]
    return _SLUGS[1]


@check("heroes")
def hero_rules_check(c):
    """Core-box heroes, classes, max_heroes, one hero per Dungeon Role (RB L939-949)."""
    for f in hero_rules.party_findings(c.heroes.values(), c.story.rules.max_heroes):
        yield _problem(c, f)


@check("hero-log")
def hero_log_check(c):
    """The starting kit (RB L989) and known names, for each active hero."""
    for h in c.active_heroes().values():
        for f in hero_rules.log_findings(h, c.story):
            yield _problem(c, f)
        for f in hero_rules.skill_chapter_findings(h, c.story, rewards.start(h)):
            yield _problem(c, f)
        nxt = c.story.next_chapter()
        if nxt is not None and h.joined > nxt:
            file, key = _file_and_key(c, h.name, ("joined",))
            yield problem(file, key, "hero-joined",
                          f"{h.name} joined before chapter {h.joined}, but the next chapter to play is {nxt}; "
                          f'write joined = "{nxt}"', "warning")


def _problem(c, f: hero_rules.Finding):
    file, key = _file_and_key(c, f.hero, f.key)  # an unknown status or Spoils card: its entry's key
    message = f.message + (f"; {f.remedy}" if f.remedy else "")
    return problem(file, key, f.rule, message, f.severity)


# The command that takes back an entry recorded by mistake, for each kind of reward.
TAKE_BACK = {"level1_skills": "unlearn", "level2_skills": "unlearn", "class_abilities": "forget", "spoils": "drop"}


def _take_back(h, field: str, key: tuple) -> str:
    """"drunagor hero unlearn Andreas Extra": the command that removes the entry at `key`."""
    names = {"skills": [s.name for s in h.skills], "class_abilities": list(h.class_abilities),
             "equipment": [i.name for i in h.equipment]}.get(key[0], [])
    name = names[key[1]] if len(key) > 1 and key[1] < len(names) else "NAME"
    return f"drunagor hero {TAKE_BACK[field]} {shell_word(h.name)} {shell_word(name)}"


def _last_entry(h, field: str) -> tuple:
    """The key path of the last entry counted for a reward field: the likeliest extra one."""
    key, _ = REWARD_KEYS[field]
    if field.startswith("level"):
        level = int(field[5])
        at = [i for i, sk in enumerate(h.skills) if sk.level == level]
    elif field == "class_abilities":
        at = list(range(len(h.class_abilities)))
    elif field == "spoils":
        at = [i for i, item in enumerate(h.equipment) if item.kind == "spoils"]
    else:
        at = [i for i, u in enumerate(h.upgrades) if u.reward]
    return (key, at[-1]) if at else (key,)


def sources(joined: str, track: dict[str, str]) -> str:
    """In words, where a hero's rewards come from: "the new-recruit row for 04, RB L1005-1016, and
    chapters 04, 05 completed"."""
    done = [ch for ch in CHAPTERS if ch >= joined and track.get(ch) == "completed"]
    parts = []
    if joined != "01":
        parts.append(f"the new-recruit row for {joined}, RB L1005-1016,")
    if done:
        parts.append(("chapter " if len(done) == 1 else "chapters ") + ", ".join(done) + " completed")
    return " and ".join(parts).rstrip(",") or f"no chapter completed since joining before {joined}"


@check("rewards")
def rewards_check(c):
    """SPEC 5.3: the rewards recorded match what the chapters completed since joining give."""
    party = list(c.active_heroes().values())
    given = rewards.earned(party)
    for h in party:
        owed = rewards.owed_for(h, c.story, given).as_dict()
        over = rewards.excess_for(h, c.story, given).as_dict()
        where = sources(rewards.start(h), c.story.track)
        for field, n in owed.items():
            if n:
                key, command = REWARD_KEYS[field]
                file, key = _file_and_key(c, h.name, (key,))
                yield problem(file, key, "rewards",
                              f"{h.name} is owed {rewards.describe({field: n})} (by {where}); record "
                              f"{'it' if n == 1 else 'them'} with {command.format(h=shell_word(h.name))}",
                              "warning")
        for field, n in over.items():
            if n:
                entry = _last_entry(h, field)
                file, key = _file_and_key(c, h.name, entry)
                yield problem(file, key, "rewards",
                              f"{h.name} has {rewards.describe({field: n})} more than {where} give; if it was "
                              f"recorded by mistake, take it back: {_take_back(h, field, entry)} (if a chapter "
                              "was skipped, not completed: drunagor chapter skip N --force)", "warning")


@check("starting-gear")
def starting_gear_excess(c):
    """A hero starts with 2 pieces of Starting Gear (RB L989) and finds no more in play."""
    for slug, h in c.active_heroes().items():
        gear = [i for i, item in enumerate(h.equipment) if item.kind == "starting"]
        if len(gear) > hero_rules.STARTING_GEAR:
            yield problem(c.hero_files[slug], ("equipment", gear[hero_rules.STARTING_GEAR]), "starting-gear",
                          f"{h.name} has {len(gear)} pieces of Starting Gear, but a hero starts with "
                          f"{hero_rules.STARTING_GEAR} and finds no more (RB L989); "
                          + _extra_gear_remedy(h, [h.equipment[i].name for i in gear[hero_rules.STARTING_GEAR:]]),
                          "warning")


def _extra_gear_remedy(h, extra: list[str]) -> str:
    """What to do with Starting Gear beyond the 2, as commands (not keys to edit by hand): drop it;
    or, for a card the catalog does not know as Starting Gear, record it again with the kind it has
    (`hero gain --kind` replaces the kind remembered under [cards])."""
    hero, item = shell_word(h.name), shell_word(extra[0])
    drop = f"drunagor hero drop {hero} {item}" + (f" (and {', '.join(extra[1:])})" if len(extra) > 1 else "")
    if catalog.item_kind(extra[0]) == "starting":
        return f"drop {'it' if len(extra) == 1 else 'the extra ones'}: {drop}"
    remedy = (f"if {extra[0]} is not Starting Gear, give it its kind: drunagor hero drop {hero} {item}, then "
              f"drunagor hero gain {hero} {item} --kind spoils|adventure|epic|consumable; else drop it: {drop}")
    return remedy

"""A hero's Skills and Class Abilities (SPEC 4 "Heroes"; RB L985-1003): learn, relearn, and the
corrections unlearn and forget. Each function takes an open `Campaign` for writing, resolves the names
typed, asks rules/heroes.py whether the move is allowed, edits the hero's Campaign Log through the
store and returns a `Change`.

    with Campaign(root) as c:
        change = skills.learn(c, "Nyx", "Quick Strike", tree="melee", level=1)
        c.save()
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import UsageError
from ..model import TREES, Hero, Skill
from ..names import closest
from ..rules import heroes as rules
from ..rules import rewards
from ..store import edit
from ..values import replace
from . import Change
from .heroes import excess_warning, find_entry, owes_now, pick

if TYPE_CHECKING:
    from ..campaign import Campaign
    from ..store import TomlFile


# ---------------------------------------------------------------------- skills and abilities


def learn(c: Campaign, name: str, skill: str, *, tree: str, level: int) -> Change:
    """Record a Hero or Dungeon Role Skill, against the last chapter completed since joining."""
    tree_ = pick(tree, TREES, "skill tree", game=True)
    if level not in (1, 2):
        raise UsageError(f"--level must be 1 or 2, not {level}", remedy="skills have Level 1 and Level 2")
    slug, hero = c.hero(name)
    skill = skill.strip()
    f = c.hero_files[slug]
    if any(s.name.casefold() == skill.casefold() for s in hero.skills):
        raise f.refuse(("skills",), f"{hero.name} already knows {skill!r}", rule="skills",
                       remedy="a skill is learned once; to choose another, use drunagor hero relearn")
    chapter = rules.last_completed(c.story, rewards.start(hero))
    edit.append_entry(f.edit(), "skills", {"name": skill, "tree": tree_, "level": level, "chapter": chapter})
    after = replace(hero, skills=hero.skills + (Skill(skill, tree_, level, chapter),))
    twin = next((s.name for s in hero.skills if s.tree == tree_ and s.level == level), None)
    # said now, as `export` would say it later (interop/apps.py: the apps tick one box per tree and level)
    box = ((f"{hero.name} already has a {tree_} Level {level} skill ({twin}): the companion apps keep one box "
            f"per tree and level, so `drunagor export` leaves {skill} out of the token",) if twin else ())
    return Change(f"{hero.name} learns {skill} ({tree_}, Level {level})",
                  warnings=(*box, *excess_warning(c, slug, after)), data={"hero": hero.name, "skill": skill})


def ability(c: Campaign, name: str, ability_: str) -> Change:
    """Record a Class Ability the hero gained."""
    slug, hero = c.hero(name)
    ability_ = ability_.strip()
    f = c.hero_files[slug]
    if any(a.casefold() == ability_.casefold() for a in hero.class_abilities):
        raise f.refuse(("class_abilities",), f"{hero.name} already has the Class Ability {ability_!r}",
                       rule="class-abilities", remedy="to choose another, use drunagor hero relearn")
    edit.append_entry(f.edit(), "class_abilities", ability_)
    after = replace(hero, class_abilities=hero.class_abilities + (ability_,))
    return Change(f"{hero.name} gains the Class Ability {ability_}", warnings=excess_warning(c, slug, after),
                  data={"hero": hero.name, "ability": ability_})


def _relearn_skill(f: TomlFile, hero: Hero, si: int, new: str, tree: str | None) -> str:
    s = hero.skills[si]
    if any(o.name.casefold() == new.casefold() for j, o in enumerate(hero.skills) if j != si):
        raise f.refuse(("skills",), f"{hero.name} already knows {new!r}", rule="relearn",
                       remedy="choose a skill the hero does not have")
    edit.replace_entry(f.edit(), "skills", si, {"name": new, "tree": tree or s.tree, "level": s.level,
                                                "chapter": s.chapter})
    return f"{s.name} for {new} ({tree or s.tree}, Level {s.level})"


def _relearn_ability(f: TomlFile, hero: Hero, ai: int, new: str) -> str:
    a = hero.class_abilities[ai]
    if any(o.casefold() == new.casefold() for j, o in enumerate(hero.class_abilities) if j != ai):
        raise f.refuse(("class_abilities",), f"{hero.name} already has the Class Ability {new!r}", rule="relearn",
                       remedy="choose a Class Ability the hero does not have")
    edit.replace_entry(f.edit(), "class_abilities", ai, new)
    return f"the Class Ability {a} for {new}"


def relearn(c: Campaign, name: str, old: str, new: str, *, tree: str | None = None) -> Change:
    """Relearning (RB L1034-1040): a skill or Class Ability re-chosen; the counts stay the same. A
    skill keeps its level and chapter."""
    tree_ = pick(tree, TREES, "skill tree", game=True) if tree else None
    slug, hero = c.hero(name)
    f = c.hero_files[slug]
    new = new.strip()
    si = find_entry([s.name for s in hero.skills], old)
    ai = find_entry(list(hero.class_abilities), old)
    if si is not None and ai is not None:
        raise UsageError(f"{old!r} names both a skill and a Class Ability of {hero.name}", remedy="type the full name")
    if si is None and ai is None:
        known = [s.name for s in hero.skills] + list(hero.class_abilities)
        hint = closest(old, known)
        raise f.refuse((), f"{hero.name} has no skill or Class Ability called {old!r}", rule="relearn",
                       remedy=(f"did you mean {hint!r}? " if hint else "") + "known: " + (", ".join(known) or "none"))
    if si is not None:
        what = _relearn_skill(f, hero, si, new, tree_)
    else:
        if tree_:
            raise UsageError("--tree is for skills; a Class Ability has no tree")
        what = _relearn_ability(f, hero, ai, new)  # type: ignore[arg-type]
    return Change(f"{hero.name} relearns: {what} (RB L1034-1040)", data={"hero": hero.name, "new": new})


# ---------------------------------------------------------------------------------- corrections


def _own_entry(f: TomlFile, hero: Hero, names: Sequence[str], query: str, what: str, key: str) -> int:
    """Index of the entry of the hero's list `key` that `query` names, else a refusal with the
    closest one."""
    i = find_entry(names, query)
    if i is not None:
        return i
    hint = closest(query, names)
    plural = {"skill": "skills", "Class Ability": "Class Abilities"}[what]
    remedy = f"did you mean {hint!r}?" if hint else f"{plural}: " + (", ".join(names) or "none")
    raise f.refuse((key,), f"{hero.name} has no {what} called {query!r}", rule=key.replace("_", "-"), remedy=remedy)


def unlearn(c: Campaign, name: str, skill: str) -> Change:
    """Take back a skill recorded by mistake (`hero learn`'s inverse): its entry leaves the log."""
    slug, hero = c.hero(name)
    f = c.hero_files[slug]
    i = _own_entry(f, hero, [s.name for s in hero.skills], skill, "skill", "skills")
    gone = hero.skills[i]
    edit.remove_entry(f.edit(), "skills", i)
    after = replace(hero, skills=hero.skills[:i] + hero.skills[i + 1:])
    return Change(f"{hero.name} unlearns {gone.name} ({gone.tree}, Level {gone.level})", owes_now(c, slug, after),
                  data={"hero": hero.name, "skill": gone.name})


def forget(c: Campaign, name: str, ability_: str) -> Change:
    """Take back a Class Ability recorded by mistake (`hero ability`'s inverse)."""
    slug, hero = c.hero(name)
    f = c.hero_files[slug]
    i = _own_entry(f, hero, hero.class_abilities, ability_, "Class Ability", "class_abilities")
    gone = hero.class_abilities[i]
    edit.remove_entry(f.edit(), "class_abilities", i)
    after = replace(hero, class_abilities=hero.class_abilities[:i] + hero.class_abilities[i + 1:])
    return Change(f"{hero.name} forgets the Class Ability {gone}", owes_now(c, slug, after),
                  data={"hero": hero.name, "ability": gone})



"""Rewards owed (SPEC 5.3; RB L1005-1016, L1082-1084): what each hero's Campaign Log should hold.

A hero who joined before chapter J should have the recruit row for J, plus the rewards of every
chapter from J on that the party completed; skipped chapters give nothing (RB L1084). Per-chapter
rewards are the differences of consecutive recruit rows (the table is "the Rewards that Heroes would
receive if they had completed the Adventures", RB L1001).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..model import CHAPTERS, Hero, Story

FIELDS = ("level1_skills", "level2_skills", "class_abilities", "spoils", "spoils_upgrades")
LABELS = {
    "level1_skills": ("Level 1 Hero or Role Skill", "Level 1 Hero or Role Skills"),
    "level2_skills": ("Level 2 Hero or Role Skill", "Level 2 Hero or Role Skills"),
    "class_abilities": ("Class Ability", "Class Abilities"),
    "spoils": ("Spoils of the Hero (Standard)", "Spoils of the Hero (Standard)"),
    "spoils_upgrades": ("Spoils upgrade", "Spoils upgrades"),
}


@dataclass(frozen=True)
class Tally:
    level1_skills: int = 0
    level2_skills: int = 0
    class_abilities: int = 0
    spoils: int = 0
    spoils_upgrades: int = 0

    @classmethod
    def of(cls, rewards) -> "Tally":
        return cls(**{f: getattr(rewards, f) for f in FIELDS})

    def __add__(self, other: "Tally") -> "Tally":
        return Tally(**{f: getattr(self, f) + getattr(other, f) for f in FIELDS})

    def __sub__(self, other: "Tally") -> "Tally":
        return Tally(**{f: getattr(self, f) - getattr(other, f) for f in FIELDS})

    def owed(self) -> "Tally":
        """Only what is still missing (negative entries, an excess, dropped)."""
        return Tally(**{f: max(0, getattr(self, f)) for f in FIELDS})

    def excess(self) -> "Tally":
        return Tally(**{f: max(0, -getattr(self, f)) for f in FIELDS})

    def is_zero(self) -> bool:
        return all(getattr(self, f) == 0 for f in FIELDS)

    def as_dict(self) -> dict[str, int]:
        return {f: getattr(self, f) for f in FIELDS}


def describe(t: "Tally | dict") -> str:
    """"1 Level 1 Hero or Role Skill, 1 Class Ability"; empty when nothing is counted."""
    d = t.as_dict() if isinstance(t, Tally) else t
    parts = []
    for f in FIELDS:
        n = d.get(f, 0)
        if n:
            one, many = LABELS[f]
            parts.append(f"{n} {one if n == 1 else many}")
    return ", ".join(parts)


def chapter_reward(chapter: str) -> Tally:
    from .. import catalog

    return Tally.of(catalog.chapter_reward(chapter))


def recruit_row(chapter: str) -> Tally:
    from .. import catalog

    return Tally.of(catalog.recruit_row(chapter))


def expected(joined: str, track: dict[str, str]) -> Tally:
    """What a hero who joined before chapter `joined` should have received by now."""
    total = recruit_row(joined)
    for ch in CHAPTERS:
        if ch >= joined and track.get(ch) == "completed":
            total = total + chapter_reward(ch)
    return total


def recorded(hero: Hero) -> Tally:
    """What the Campaign Log records. A Spoils card discarded to upgrade another still counts as
    received (RB L405-441: it was a reward, then spent); each upgrade counts once."""
    spoils = sum(1 for i in hero.equipment if i.kind == "spoils")
    spoils += sum(1 for u in hero.upgrades if u.discarded_kind == "spoils")
    return Tally(
        level1_skills=sum(1 for s in hero.skills if s.level == 1),
        level2_skills=sum(1 for s in hero.skills if s.level == 2),
        class_abilities=len(hero.class_abilities),
        spoils=spoils,
        spoils_upgrades=len(hero.upgrades),
    )


def balance(hero: Hero, story: Story) -> Tally:
    """Expected minus recorded: positive entries are owed, negative ones are in excess."""
    return expected(hero.joined, story.track) - recorded(hero)


def owed_for(hero: Hero, story: Story) -> Tally:
    return balance(hero, story).owed()

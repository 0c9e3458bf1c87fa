"""Rewards owed (SPEC 5.3; RB L1005-1016, L1082-1084): what each hero's Campaign Log should hold.

A hero who joined before chapter J should have the recruit row for J, plus the rewards of every
chapter from J on that the party completed; skipped chapters give nothing (RB L1084). A hero who left
and came back before chapter R is matched to the party as a recruit of R (`start`): their skills and
Class Abilities stay in the Campaign Log and count; the Spoils cards and upgrades they had went back
to the box when they left (RB L972-974), so only those recorded since the return count. Per-chapter
rewards are the differences of consecutive recruit rows (the table is "the Rewards that Heroes would
receive if they had completed the Adventures", RB L980).
"""

from __future__ import annotations

from collections.abc import Iterable

from .. import catalog
from ..catalog import Rewards
from ..model import CHAPTERS, Hero, Story

FIELDS = ("level1_skills", "level2_skills", "class_abilities", "spoils", "spoils_upgrades")
LABELS = {
    "level1_skills": ("Level 1 Hero or Role Skill", "Level 1 Hero or Role Skills"),
    "level2_skills": ("Level 2 Hero or Role Skill", "Level 2 Hero or Role Skills"),
    "class_abilities": ("Class Ability", "Class Abilities"),
    "spoils": ("Spoils of the Hero (Standard)", "Spoils of the Hero (Standard)"),
    "spoils_upgrades": ("Spoils upgrade", "Spoils upgrades"),
}


# The counts of rewards: the catalog's value type (+, -, owed(), excess(), is_zero(), as_dict()).
Tally = Rewards


def describe(t: Tally | dict) -> str:
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
    return catalog.chapter_reward(chapter)


def recruit_row(chapter: str) -> Tally:
    return catalog.recruit_row(chapter)


def start(hero: Hero) -> str:
    """The chapter a hero's rewards are counted from: when they came back, else when they joined."""
    return hero.returned or hero.joined


def expected(joined: str, track: dict[str, str]) -> Tally:
    """What a hero who joined before chapter `joined` should have received by now."""
    total = recruit_row(joined)
    for ch in CHAPTERS:
        if ch >= joined and track.get(ch) == "completed":
            total = total + chapter_reward(ch)
    return total


class Earned(dict[str, int]):
    """Of each hero (by name, casefolded), the Spoils cards they earned that another hero now holds
    (handed over with `hero give`: `from = "Earner"`). One pass over the party (`earned`), so that a view
    or check of every hero's rewards costs in proportion to the campaign, not to its square."""


def earned(party: Iterable[Hero] | Earned) -> Earned:
    if isinstance(party, Earned):
        return party
    given = Earned()
    for other in party:
        holder = other.name.casefold()
        for i in other.equipment:
            if i.kind == "spoils" and i.given_by and i.given_by.casefold() != holder:
                given[i.given_by.casefold()] = given.get(i.given_by.casefold(), 0) + 1
    return given


def recorded(hero: Hero, party: Iterable[Hero] | Earned = ()) -> Tally:
    """What the Campaign Log records. A Spoils card discarded to upgrade another still counts as
    received (RB L405-431: it was a reward, then spent). Only a reward upgrade (`reward = true`,
    `spoils upgrade --reward`) counts as the "Spoil of the Hero Equipment Upgrade" of the table (RB
    L1015-1016): one made with Artisan's Tools found in a Chest is the special treasure the table
    leaves out ("without finding any special treasure along the way", RB L980). A Spoils card
    counts for the hero who earned it: one handed over with `hero give` carries `from = "Earner"`,
    so it counts in the earner's tally (found among `party`, the other logs, or its `earned` index:
    pass that when asking for every hero), not the holder's."""
    me = hero.name.casefold()
    upgrades = hero.upgrades[hero.upgrades_before:]  # those before leaving went back to the box
    spoils = sum(1 for i in hero.equipment if i.kind == "spoils" and not _given(i, me))
    spoils += sum(1 for u in upgrades if u.discarded_kind == "spoils")
    spoils += earned(party).get(me, 0)
    return Tally(
        level1_skills=sum(1 for s in hero.skills if s.level == 1),
        level2_skills=sum(1 for s in hero.skills if s.level == 2),
        class_abilities=len(hero.class_abilities),
        spoils=spoils,
        spoils_upgrades=sum(1 for u in upgrades if u.reward),
    )


def _given(item, me: str) -> bool:
    return bool(item.given_by) and item.given_by.casefold() != me


def balance(hero: Hero, story: Story, party: Iterable[Hero] | Earned = ()) -> Tally:
    """Expected minus recorded: positive entries are owed, negative ones are in excess."""
    return expected(start(hero), story.track) - recorded(hero, party)


def owed_for(hero: Hero, story: Story, party: Iterable[Hero] | Earned = ()) -> Tally:
    return balance(hero, story, party).owed()


# An upgrade made with Artisan's Tools is not counted as a reward at all, so it is never an excess; a
# reward upgrade beyond the rewards comes only from a corrected Adventure Track, and no command takes
# an upgrade back: it is not reported either (only a missing reward upgrade is).
NOT_EXCESS = ("spoils_upgrades",)


def excess_for(hero: Hero, story: Story, party: Iterable[Hero] | Earned = ()) -> Tally:
    over = balance(hero, story, party).excess().as_dict()
    return Tally(**{f: 0 if f in NOT_EXCESS else n for f, n in over.items()})

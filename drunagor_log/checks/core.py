"""Checks every campaign needs whatever else it records: file names match heroes, no hero twice."""

from __future__ import annotations

from ..names import legacy_slug, slug
from .registry import check, problem


@check("hero-file")
def hero_file_names(c):
    seen: dict[str, str] = {}
    for s, hero in c.heroes.items():
        f = c.hero_files[s]
        if s not in (slug(hero.name), legacy_slug(hero.name)):
            yield problem(f, ("name",), "hero-file",
                          f"the log of {hero.name!r} is named {s}.toml; rename it to {slug(hero.name)}.toml")
        key = hero.name.casefold()
        if key in seen:
            yield problem(f, ("name",), "hero-file",
                          f"{hero.name!r} has two Campaign Logs ({seen[key]}.toml and {s}.toml); keep one")
        seen[key] = s


@check("campaign")
def campaign_kind(c):
    if c.story.campaign != "awakenings":
        yield problem(c.story_file, ("campaign",), "campaign",
                      f"campaign is {c.story.campaign!r}; drunagor knows only \"awakenings\"")

"""Checks every campaign needs whatever else it records: file names match heroes, no hero twice."""

from __future__ import annotations

import unicodedata

from ..names import hero_key, legacy_slug, slug
from .registry import check, problem


@check("hero-file")
def hero_file_names(c):
    seen: dict[str, str] = {}
    for s, hero in c.heroes.items():
        f = c.hero_files[s]
        if s not in (slug(hero.name), legacy_slug(hero.name)):
            yield problem(f, ("name",), "hero-file",
                          f"the log of {hero.name!r} is named {s}.toml; rename it to {slug(hero.name)}.toml")
        key = hero_key(hero.name)
        if key in seen:
            other = seen[key]
            two_forms = c.heroes[other].name.casefold() != hero.name.casefold() or (
                other != s and unicodedata.normalize("NFC", other) == unicodedata.normalize("NFC", s))
            spelled = "; one name in two Unicode spellings (NFC, NFD), which print the same" if two_forms else ""
            yield problem(f, ("name",), "hero-file",
                          f"{hero.name!r} has two Campaign Logs ({other}.toml and {s}.toml{spelled}); keep one")
        seen[key] = s


@check("campaign")
def campaign_kind(c):
    if c.story.campaign != "awakenings":
        yield problem(c.story_file, ("campaign",), "campaign",
                      f"campaign is {c.story.campaign!r}; drunagor knows only \"awakenings\"")

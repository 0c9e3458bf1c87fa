"""The example campaign with every field a player types made as long as a file may hold it: one-word
names (a hero's 64 letters, as `hero add` takes), 30-letter classes, roles, skills, monsters and raid
names, and 2,000-letter words where the files allow any length (issue 43: no word pushes a page
sideways, on a phone or a TV)."""

from __future__ import annotations

import re
from pathlib import Path

HERO = "Hildegardisvonwolkensteintrostburg" + "x" * 30  # 64 letters, one word
WORD30 = "Abcdefghijklmnopqrstuvwxyzabcd"
WORD2000 = "Mmmm" * 500


def _set(path: Path, key: str, value: str) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(rf"^{key} = .*$", lambda _: f"{key} = {value}", text, count=1, flags=re.M), encoding="utf-8")


def make_hostile(root: Path) -> None:
    nyx = root / "heroes" / "nyx.toml"
    _set(nyx, "name", f'"{HERO}"')
    _set(nyx, "class", f'"{WORD30}"')
    _set(nyx, "role", f'"{WORD30}"')
    _set(nyx, "player", f'"{WORD2000}"')
    _set(nyx, "class_abilities", f'["{WORD2000}"]')
    text = nyx.read_text(encoding="utf-8").replace('"Agility 1"', f'"{WORD30}"').replace('"Blooded Sword"', f'"{WORD2000}"')
    nyx.write_text(text, encoding="utf-8")
    vacrem = root / "heroes" / "vacrem.toml"
    _set(vacrem, "name", f'"{WORD30}"')
    story = root / "story.toml"
    _set(story, "party", f'"{WORD2000}"')
    _set(story, "followers", f'["{WORD2000}", "{WORD30}"]')
    _set(story, "outcomes", f'["Drinking Pal", "{WORD2000}"]')
    _set(story, "stored", f'["{WORD2000}"]')
    adventure = root / "adventure.toml"
    text = adventure.read_text(encoding="utf-8")
    text = text.replace('"Fell Asteris"', f'"{WORD30}"').replace('"Gremlin Horde"', f'"{WORD30}"')
    text = text.replace('minions = ["Tidehunter"]', f'minions = ["{WORD30}"]')
    text = text.replace('{ name = "Tidehunter", rank = "Minion", slot = 4 },',
                        '{ name = "Tidehunter", rank = "Minion", slot = 4 },\n  { name = "Awakened King", boss = true },')
    text = text.replace('"nothing summoned (face A summons only', f'"{WORD2000} (face A summons only')
    adventure.write_text(text, encoding="utf-8")

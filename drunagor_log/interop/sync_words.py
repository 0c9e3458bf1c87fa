"""What `drunagor sync` says in the game's words: the commit message of the campaign's own changes
(`describe_file`, `summary`) and a conflict between two machines (`describe_conflict`). The procedure
is interop/sync.py; this module only turns a change of values (store/merge.py's `changes`) into phrases."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..campaign import ADVENTURE, ARCHIVE, HEROES, SHEETS, STORY
from ..git.commits import PREFIX
from ..store.merge import ABSENT, changes, label

# How much a phrase matters to the party, first to last: the subject line shows the first that fit.
EVENT, REWARD, OTHER, DETAIL = range(4)  # a chapter's end, a hero joining or leaving; a reward; ...; card facts


class Phrase(str):
    """A phrase of sync's commit message and its rank (EVENT ... DETAIL)."""

    rank = OTHER


def _ranked(text: str, rank: int) -> str:  # a Phrase, read as the str it is
    phrase = Phrase(text)
    phrase.rank = rank
    return phrase


def by_rank(phrases: list[str]) -> list[str]:
    """The phrases, what matters most first (a hero joining, a chapter's end, a reward before card
    facts); in the order the files gave them within a rank."""
    return sorted(phrases, key=lambda p: getattr(p, "rank", OTHER))


def summary(phrases: list[str], width: int = 72 - len(PREFIX)) -> str:
    """A commit subject: as many phrases as fit, then how many more."""
    if not phrases:
        return "campaign files"
    text = phrases[0]
    for n, phrase in enumerate(phrases[1:], 1):
        rest = len(phrases) - n - 1
        more = f" and {rest} more" if rest else ""
        if len(text) + 2 + len(phrase) + len(more) > width:
            return f"{text} and {len(phrases) - n} more"
        text += "; " + phrase
    return text


def file_kind(rel: str) -> str:
    parts = Path(rel).parts
    if parts == (STORY,):
        return "story"
    if len(parts) == 1 and parts[0] in SHEETS:
        return "sheet"
    if parts == (ADVENTURE,):
        return "adventure"
    if len(parts) == 2 and parts[0] in (HEROES, ARCHIVE):
        return "hero" if parts[0] == HEROES else "archive"
    return "other"


def _show(value: Any) -> str:

    if value is ABSENT or value is None:
        return "nothing"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_show(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else str(value)


# story.toml's lists: what one entry is called
STORY_LISTS = {("followers",): "follower", ("outcomes",): "outcome", ("statuses",): "status",
               ("stash",): "stash", ("stored",): "stored", ("chest", "cards"): "chest deck",
               ("chest", "epic"): "Epic Rare", ("commander", "cards"): "commander deck",
               ("corrections",): "correction"}
# a Campaign Log's lists: (added, removed) as phrases with {hero} and {x}
HERO_LISTS = {"equipment": ("{hero} gains {x}", "{hero} loses {x}"),
              "skills": ("{hero} learns {x}", "{hero} unlearns {x}"),
              "class_abilities": ("{hero} gains the Class Ability {x}", "{hero} forgets {x}"),
              "statuses": ("{hero}: status {x}", "{hero}: status {x} removed"),
              "upgrades": ("{hero} upgrades {x}", "{hero}: upgrade of {x} removed")}


def describe_file(rel: str, old: dict | None, new: dict | None) -> list[str]:
    """What changed in one campaign file, in the game's words (for a commit message)."""
    kind = file_kind(rel)
    if kind == "hero":
        hero = str((new or old or {}).get("name") or Path(rel).stem)
        if old is None:
            return [_ranked(f"{hero} joins the party", EVENT)]
        if new is None:
            return [_ranked(f"Campaign Log of {hero} deleted", EVENT)]
        return [p for d in changes(old, new) for p in _hero_phrases(hero, d)]
    if kind == "adventure":
        if old is None:
            return [f"adventure of chapter {(new or {}).get('chapter', '?')} under way"]
        if new is None:
            return ["the adventure under way ended"]
        events = len((new or {}).get("log", [])) - len(old.get("log", []))
        return [f"{events} table event{'s' if events != 1 else ''} of chapter {new.get('chapter', '?')}"
                if events > 0 else "the adventure under way changed"]
    if kind == "archive":
        return [f"adventure {Path(rel).stem} archived" if old is None else f"{rel} changed"]
    if kind == "sheet":
        return [_ranked(f"{rel} made again", DETAIL)]
    if kind == "story":  # the Adventure Track first: what the evening was about
        deltas = sorted(changes(old or {}, new or {}), key=lambda d: d.path[:1] not in (("track",), ("failures",)))
        return [p for d in deltas for p in _story_phrases(d)]
    return [_ranked(f"{rel} (merge driver)", DETAIL) if rel == ".gitattributes" else rel]


def _names(entries: tuple) -> str:

    return ", ".join(str(label(e)) for e in entries)


def _story_phrases(d) -> list[str]:

    p = d.path
    if len(p) == 2 and p[0] == "track":
        return [_ranked(f"chapter {p[1]} cleared" if d.new is ABSENT else f"chapter {p[1]} {d.new}", EVENT)]
    if len(p) == 2 and p[0] == "failures":
        return [_ranked(f"chapter {p[1]}: {_show(d.new)} failed attempts", EVENT)]
    if d.added or d.removed:
        what = STORY_LISTS.get(p, ".".join(map(str, p)))
        rank = DETAIL if p == ("corrections",) else REWARD if p in STORY_LISTS else OTHER
        return ([_ranked(f"{what}: {_names(d.added)}", rank)] if d.added else []) + \
               ([_ranked(f"{what}: {_names(d.removed)} removed", rank)] if d.removed else [])
    if p == ("party",):
        return [_ranked(f"party name: {d.new}", REWARD)]
    if p == ("leader",):
        return [_ranked(f"Party Leader: {_show(d.new)}", REWARD)]
    if p[:1] == ("cards",) and len(p) >= 2:
        return [_ranked(f"card facts: {p[1]}", DETAIL)]
    return [f"{'.'.join(map(str, p))}: {_show(d.new)}"]


def _hero_phrases(hero: str, d) -> list[str]:
    p = d.path
    if len(p) == 1 and p[0] in HERO_LISTS and (d.added or d.removed):
        gain, lose = HERO_LISTS[p[0]]
        return [_ranked(gain.format(hero=hero, x=_names((x,))), REWARD) for x in d.added] + \
               [_ranked(lose.format(hero=hero, x=_names((x,))), REWARD) for x in d.removed]
    if p == ("retired",):
        return [_ranked(f"{hero} leaves the party" if d.new is True else f"{hero} returns to the party", EVENT)]
    if len(p) == 2 and p[0] == "equipment" and isinstance(d.new, dict) and isinstance(d.old, dict):
        moved = [f"{k} {_show(v)}" for k, v in d.new.items() if d.old.get(k) != v]
        return [f"{hero}'s {p[1]}: " + ", ".join(moved)]
    return [f"{hero}: {'.'.join(map(str, p))} {_show(d.new)}"]


def describe_conflict(rel: str, c, who: str, data: dict) -> str:
    """One conflict in the game's words: "chapter 05: you completed it, Ben skipped it (story.toml)"."""
    kind, p = file_kind(rel), c.path
    if kind == "adventure":
        return (f"the adventure under way went on on both machines ({rel}): keep one table state, "
                f"yours or {who}'s")
    if kind == "story" and len(p) == 2 and p[0] == "track":
        def did(v):
            if v is ABSENT:
                return "left it open"
            return f"{v} it" if v in ("completed", "skipped") else f"wrote {_show(v)}"

        return f"chapter {p[1]}: you {did(c.mine)}, {who} {did(c.theirs)} ({rel})"
    thing = ".".join(map(str, p)) or "the file"
    if kind == "hero":
        thing = f"{data.get('name') or Path(rel).stem}'s {thing}"
    elif p == ("party",):
        thing = "party name"
    elif p == ("leader",):
        thing = "Party Leader"
    mine = "removed" if c.mine is ABSENT else _show(c.mine)
    theirs = "removed" if c.theirs is ABSENT else _show(c.theirs)
    return f"{thing}: yours {mine}, {who}'s {theirs} ({rel})"

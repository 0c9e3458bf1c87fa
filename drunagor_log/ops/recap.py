"""`drunagor recap` (SPEC 12, issue 45.3): "previously on...", what happened since the last evening, read from
the campaign's files and its git history: the chapters played with their attempts and how each ended, the
Adventure Track, heroes who joined or left, the rewards each hero took, Followers, Outcomes and statuses gained
or lost, the table's notable moments (Battalions, raids that summoned, heroes defeated, the bag down to its
last rune) and the party's notes. Only the party's own facts and the book's titles: no sentence of the book.

Since when (`--since`): `last` (the default) is the later of the last adventure started or ended (the parent of
the commit that added or removed adventure.toml, so that adventure is told) and the last `sync` (where the
branch's upstream stands); a chapter (from the commit before its first adventure); a date (the last commit
before that day); a commit. The campaign then is read from git (git/past.py), the campaign now from its
files. Without git the recap tells the campaign from its beginning, and says so.

The pages (`serve`'s /chronicle, the sheets) read no git (SPEC 11: git runs only on the user's word): with
`git=False` the recap tells the last adventure (the one under way, else the last archived one) and the
notes since, from the campaign's files only, and says so.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .. import catalog
from ..errors import DataError, FieldError, UsageError
from ..git import past
from ..model import hero_from, story_from
from ..model.campaign import Note, notes_from
from ..text import visible
from . import Change, Line
from .chronicle import notes as party_notes
from .chronicle import summaries
from .story import chapter_arg

if TYPE_CHECKING:
    from ..campaign import Campaign

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
FORMATS = ("text", "md")


def recap(c: Campaign, since: str | None = None, hero: str | None = None, fmt: str = "text", *,
          git: bool = True) -> Change:
    """What happened since `since` (see the module's doc), for the party or for one hero. `git`: whether
    git's history may be read (the user's own `recap`); without it (the pages), since the last adventure."""
    if fmt not in FORMATS:
        raise UsageError(f"--format is text or md, not {fmt!r}", remedy="--format md pastes into a group chat")
    who = c.hero(hero, present=False)[1].name if hero is not None else None
    then, said = _baseline(c, since or "last") if git else _files_only(c)
    data = {"since": said, "hero": who, "party": c.story.party, **_told(c, then, said, who)}
    lines = markdown_lines(data) if fmt == "md" else text_lines(data)
    return Change(notes=tuple(Line(x) for x in lines), data=data)


# ------------------------------------------------------------------------------ since when


def _baseline(c: Campaign, since: str) -> tuple[dict[str, bytes] | None, dict[str, Any]]:
    """The campaign's files at the start of the recap (None: its beginning) and how the recap says it."""
    root = c.root
    if _DATE.fullmatch(since):
        import datetime

        try:
            datetime.date.fromisoformat(since)
        except ValueError:
            raise UsageError(f"--since {since} is not a date", remedy="a day as YYYY-MM-DD, e.g. --since 2026-11-29")\
                from None
    now = past.head(root)
    chapter = _chapter(since, c)
    if now is None:
        if since not in ("last",) and chapter is None:
            raise UsageError(f"--since {since}: the campaign has no git history to find it in",
                             remedy="recap without --since tells the campaign from its beginning")
        said = "since the campaign began (it has no git history)" if chapter is None else \
            f"from chapter {chapter} on (the campaign has no git history: its adventures and notes only)"
        return None, {"kind": "beginning" if chapter is None else "chapter", "commit": None, "date": None,
                      "chapter": chapter, "said": said}
    if since == "last":
        return _last(c, now)
    if chapter is not None:
        return _from_chapter(c, chapter)
    if _DATE.fullmatch(since):
        return _at(c, past.before(root, since), "date", f"since {since}")
    found = past.named(root, since)
    if found is None:
        raise UsageError(f"--since {since!r} is not last, a chapter (01-09), a date (YYYY-MM-DD) or a commit of "
                         "this repository", remedy="e.g. --since last, --since 03, --since 2026-11-29")
    return _at(c, found, "commit", "since")


def _files_only(c: Campaign) -> tuple[None, dict[str, Any]]:
    """Since the last adventure started or ended, as the campaign's files tell it without git: the adventure
    under way, else the last one archived (the Adventure Track is played in order, RB L961)."""
    played = [summary["row"] for summary in summaries(c)]
    if not played:
        return None, {"kind": "beginning", "commit": None, "date": None, "chapter": None,
                      "said": "since the campaign began (told from its files only)"}
    row = played[-1]
    what = "under way" if row["file"] == "adventure.toml" else "last played"
    attempt = f", attempt {row['attempt']}" if row["attempt"] else ""
    return None, {"kind": "adventure", "commit": None, "date": None, "chapter": row["chapter"],
                  "attempt": row["attempt"] or 0,
                  "said": f"since the adventure {what} began (chapter {row['chapter']}{attempt}), told from the "
                          "campaign's files only: its table events and the notes since"}


def _chapter(since: str, c: Campaign) -> str | None:
    if since.isascii() and since.isdigit() and len(since) <= 2:
        return chapter_arg(since, c)  # the one chapter rule: no chapter 10 is refused as everywhere (exit 1)
    return None


def _at(c: Campaign, base: past.Commit | str | None, kind: str, words: str, *, chapter: str | None = None,
        mark: past.Commit | None = None) -> tuple[dict[str, bytes] | None, dict[str, Any]]:
    """The files at `base` (a commit, its sha; None: the campaign's beginning), and the recap's first words:
    `words`, with the commit that marks the start (`mark`, else `base`) and its date."""
    shown = mark if mark is not None else base if not isinstance(base, str) else None
    where = f" (commit {shown[1]}, {shown[3][:10]})" if shown is not None else ""
    sha = base[0] if isinstance(base, tuple) else base
    if kind == "commit" and shown is not None:
        words, where = f"since commit {shown[1]}", f" ({shown[3][:10]})"
    elif shown is None:
        where = " (no commit before it: since the campaign began)"
    elif sha is None:  # the start is the repository's first commit: nothing before it to start from
        where = where[:-1] + ", the repository's first: since the campaign began)"
    said = {"kind": kind, "commit": sha, "date": shown[3][:10] if shown is not None else None, "chapter": chapter,
            "said": words + where}
    return (past.files_at(c.root, sha) if sha is not None else None), said


def _last(c: Campaign, now: past.Commit) -> tuple[dict[str, bytes] | None, dict[str, Any]]:
    """The later of the last adventure started or ended and the last sync."""
    root = c.root
    if past.has(root, now[0], "adventure.toml") != (c.adventure_file is not None):  # since the last commit
        what = "started" if c.adventure_file is not None else "ended"
        return _at(c, now, f"adventure-{what}", f"since the last adventure {what}, not committed yet")
    touched = past.last_touching(root, "adventure.toml")
    synced = past.upstream(root)
    # the later of the two: by the history's order (their dates may be equal, or a clock wrong)
    if touched is not None and (synced is None or not past.is_ancestor(root, touched[1][0], synced[0])):
        what = "started" if touched[0] == "A" else "ended"
        return _at(c, touched[2], f"adventure-{what}", f"since the last adventure {what}", mark=touched[1])
    if synced is not None:
        return _at(c, synced, "sync", "since the last sync")
    return None, {"kind": "beginning", "commit": None, "date": None, "chapter": None,
                  "said": "since the campaign began (no adventure started or ended in its history, no sync)"}


def _from_chapter(c: Campaign, chapter: str) -> tuple[dict[str, bytes] | None, dict[str, Any]]:
    """From the commit before the first one that started (or archived) an adventure of `chapter`."""
    root = c.root
    for commit, names in past.added(root, ["adventure.toml", "adventures"]):
        hit = any(n.startswith(f"adventures/{chapter}-") for n in names)
        if not hit and "adventure.toml" in names:
            raw = past.files_at(root, commit[0]).get("adventure.toml", b"")
            hit = _values(raw).get("chapter") == chapter
        if hit:
            base = past.parent(root, commit[0])
            return _at(c, base[0] if base is not None else None, "chapter", f"from chapter {chapter} on",
                       chapter=chapter, mark=commit)
    raise UsageError(f"--since {chapter}: no adventure of chapter {chapter} in the campaign's git history",
                     remedy="drunagor stats shows the chapters played")


# ------------------------------------------------------------------------------ what happened


def _values(raw: bytes) -> dict[str, Any]:
    import tomllib

    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def _told(c: Campaign, then: dict[str, bytes] | None, said: dict[str, Any], who: str | None) -> dict[str, Any]:
    old = {rel: _values(raw) for rel, raw in (then or {}).items()}
    chapter = said.get("chapter") if then is None else None
    played = _played(c, old, chapter, said.get("attempt", 0))
    # without git, a chapter's start cannot be found in the Story Record and the logs: its adventures only
    whole = not (chapter is not None and said["commit"] is None and said["date"] is None)
    return {
        "adventures": [_adventure(summary["row"]) for summary, _ in played],
        "track": _track(c, old.get("story.toml")) if whole else [],
        "heroes": {k: [h for h in v if who in (None, h)] for k, v in _party(c, old).items()} if whole else
        {"joined": [], "left": []},
        "rewards": _rewards(c, old, who) if whole else {},
        "story": _story(c, old.get("story.toml")) if who is None and whole else {},
        "moments": [m for summary, skip in played for m in _moments(summary, skip, who)],
        "notes": _notes(c, old.get("story.toml"), chapter, who),
    }


def _played(c: Campaign, old: Mapping[str, dict], chapter: str | None,
            attempt: int = 0) -> list[tuple[dict[str, Any], int]]:
    """The adventures since then (summaries: archived since, and the one under way; from `chapter`'s attempt
    `attempt` on); each with how many of its table events were already there then (the adventure that was
    under way then is told from where it stood)."""
    was = old.get("adventure.toml")
    then_chapter, then_events = (was.get("chapter"), len(was.get("log", []))) if was else (None, 0)
    found = []
    for summary in summaries(c, known=old):
        ch = summary["row"]["chapter"]
        if chapter is not None and (ch, summary["row"]["attempt"] or 0) < (chapter, attempt):
            continue
        skip = 0
        if then_chapter == ch:
            skip, then_chapter = then_events, None  # the first one of that chapter since: the one under way then
        found.append((summary, skip))
    return found


def _adventure(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "title": catalog.chapter(row["chapter"]).title}


def _track(c: Campaign, old: dict | None) -> list[dict[str, str]]:
    before = _story_or_none(old)
    was = before.track if before is not None else {}
    return [{"chapter": ch, "state": state} for ch, state in sorted(c.story.track.items()) if was.get(ch) != state]


def _story_or_none(data: dict | None):
    if data is None:
        return None
    try:
        return story_from(data)
    except (FieldError, DataError):
        return None


def _hero_or_none(data: dict | None):
    if data is None:
        return None
    try:
        return hero_from(data)
    except (FieldError, DataError):
        return None


def _party(c: Campaign, old: Mapping[str, dict]) -> dict[str, list[str]]:
    joined, left = [], []
    for slug, hero in sorted(c.heroes.items()):
        was = _hero_or_none(old.get(f"heroes/{slug}.toml"))
        if (was is None or not was.active) and hero.active:
            joined.append(hero.name)
        elif was is not None and was.active and not hero.active:
            left.append(hero.name)
    return {"joined": joined, "left": left}


def _gained(now: Sequence[str], was: Sequence[str]) -> list[str]:
    rest = list(was)
    out = []
    for x in now:
        if x in rest:
            rest.remove(x)
        else:
            out.append(x)
    return out


def _rewards(c: Campaign, old: Mapping[str, dict], who: str | None) -> dict[str, dict[str, Any]]:
    rewards = {}
    for slug, hero in sorted(c.heroes.items()):
        if who is not None and hero.name != who:
            continue
        was = _hero_or_none(old.get(f"heroes/{slug}.toml"))
        skills = [s.name for s in hero.skills]
        items = [i.name for i in hero.equipment]
        ups = [f"{u.item} to {u.to}" for u in hero.upgrades]
        prior = (([s.name for s in was.skills], list(was.class_abilities), [i.name for i in was.equipment],
                  [f"{u.item} to {u.to}" for u in was.upgrades], was.aura, list(was.statuses))
                 if was is not None else ([], [], [], [], None, []))
        got = {"skills": _gained(skills, prior[0]), "class_abilities": _gained(hero.class_abilities, prior[1]),
               "gained": _gained(items, prior[2]), "lost": _gained(prior[2], items),
               "upgrades": _gained(ups, prior[3]), "aura": hero.aura if hero.aura != prior[4] else None,
               "statuses_gained": _gained(hero.statuses, prior[5]), "statuses_lost": _gained(prior[5], hero.statuses)}
        if any(got.values()):
            rewards[hero.name] = got
    return rewards


def _story(c: Campaign, old: dict | None) -> dict[str, list[str]]:
    was = _story_or_none(old)
    now = c.story
    out = {}
    for key in ("followers", "outcomes", "statuses"):
        before = list(getattr(was, key)) if was is not None else []
        after = list(getattr(now, key))
        out[f"{key}_gained"] = _gained(after, before)
        out[f"{key}_lost"] = _gained(before, after)
    return out


def _moments(summary: dict[str, Any], skip: int, who: str | None) -> list[dict[str, Any]]:
    """The notable table events of an adventure (rules.chronicle.moments) since `skip`; with `who`, only the
    hero's own (a defeat)."""
    row = summary["row"]
    return [{"chapter": row["chapter"], "attempt": row["attempt"], "event": event, "text": text}
            for index, event, hero, text in summary["moments"] if index >= skip and (who is None or hero == who)]


def _notes(c: Campaign, old: dict | None, chapter: str | None, who: str | None) -> list[dict[str, Any]]:
    try:
        was = {n.id for n in notes_from(old)} if old is not None else set()
    except FieldError:
        was = set()
    found: list[Note] = [n for n in party_notes(c) if n.id not in was and (chapter is None or n.chapter >= chapter)
                         and (who is None or n.hero == who)]
    return [n.as_json(i) for i, n in enumerate(found, start=1)]


# ------------------------------------------------------------------------------ in words


def _ended(a: dict[str, Any]) -> str:
    attempt = f"attempt {a['attempt']}" if a["attempt"] else a["file"]
    if a["outcome"] == "won":
        how = "won"
    elif a["outcome"] == "lost":
        how = f"lost: {a['lost']}" if a["lost"] else "lost (the losing condition was not recorded)"
    else:
        how = "under way"
    rounds = f" in round {a['rounds']}" if a["rounds"] else ""
    return f"Chapter {a['chapter']}, {a['title']}: {attempt} {how}{rounds}"


def _reward_words(got: dict[str, Any]) -> list[str]:
    words = [f"learned {x}" for x in got["skills"]] + [f"Class Ability {x}" for x in got["class_abilities"]]
    words += [f"gained {x}" for x in got["gained"]] + [f"gave up {x}" for x in got["lost"]]
    words += [f"upgraded {x}" for x in got["upgrades"]]
    words += [f"Aura {got['aura']}"] if got["aura"] else []
    words += [f"status {x}" for x in got["statuses_gained"]] + [f"status {x} gone" for x in got["statuses_lost"]]
    return words


def _story_words(story: dict[str, list[str]]) -> list[str]:
    names = {"followers": "Follower", "outcomes": "Outcome", "statuses": "status"}
    out = []
    for key, name in names.items():
        out += [f"{name} {x} gained" for x in story.get(f"{key}_gained", [])]
        out += [f"{name} {x} lost" for x in story.get(f"{key}_lost", [])]
    return out


def _note_words(n: dict[str, Any]) -> str:
    when = f"chapter {n['chapter']}" + (f", round {n['round']}" if n["round"] else "")
    about = f", about {n['hero']}" if n["hero"] else ""
    return f"{when}, {n['date']}, {n['by']}{about}: {n['text']}"


def sections(data: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The recap's sections, each a title and its lines (empty sections left out)."""
    track = [f"chapter {t['chapter']} {t['state']}" for t in data["track"]]
    party = [f"{h} joined" for h in data["heroes"]["joined"]] + [f"{h} left" for h in data["heroes"]["left"]]
    sections = [
        ("Chapters played", [_ended(a) for a in data["adventures"]]),
        ("Adventure Track", ["; ".join(track)] if track else []),
        ("The party", ["; ".join(party)] if party else []),
        ("Rewards and changes", [f"{h}: {'; '.join(_reward_words(g))}" for h, g in data["rewards"].items()]),
        ("Story Record", ["; ".join(_story_words(data["story"]))] if _story_words(data["story"]) else []),
        ("Notable moments", [f"chapter {m['chapter']}" + (f", attempt {m['attempt']}" if m["attempt"] else "")
                             + f": {m['text']}" for m in data["moments"]]),
        ("Notes", [_note_words(n) for n in data["notes"]]),
    ]
    return [(title, lines) for title, lines in sections if lines]


def heading(data: dict[str, Any]) -> str:
    """The recap's first line: whose, and since when."""
    who = f"{data['hero']} of " if data["hero"] else ""
    return f"Previously on {who}{data['party'] or 'the party'}, {data['since']['said']}"


def text_lines(data: dict[str, Any]) -> list[str]:
    """The recap for the terminal."""
    parts = sections(data)
    lines = [heading(data) + ":"]
    for title, body in parts:
        lines.append(f"{title}:")
        lines += [f"  {x}" for x in body]
    if not parts:
        lines.append("  nothing recorded since")
    return lines


def markdown_lines(data: dict[str, Any]) -> list[str]:
    """The recap as Markdown that pastes into a group chat as it is."""
    parts = sections(data)
    lines = [f"**{_md(heading(data))}**"]
    for title, body in parts:
        lines += ["", f"*{title}*"]
        lines += [f"- {_md(x)}" for x in body]
    if not parts:
        lines += ["", "Nothing recorded since."]
    return lines


def _md(text: str) -> str:
    """The party's words in Markdown, its own marks shown as they are typed."""
    return visible(re.sub(r"([\\`*_\[\]<>#|~])", r"\\\1", text))


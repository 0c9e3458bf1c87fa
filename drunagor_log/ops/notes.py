"""The party's own notes (SPEC 12, issue 45.1): `note add`, `note list`, `note remove`.

A note is kept in story.toml's `notes` list, one a line, named by its `id` (model/campaign.py): two players
who each add a note before `drunagor sync` get both, as the merge driver merges two additions to a list
(store/merge.py). It is stamped with the chapter (the adventure's under way, else the next on the
Adventure Track), the round when an adventure is under way, the date and who wrote it (`--by`, else git's
`user.name`). The text is the party's own: front ends show it through the output rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import UsageError
from ..git.merges import config_value
from ..git.runner import GitFailed
from ..model.campaign import Note, one_line
from ..rules.chapters import round_number
from ..rules.track import next_open
from ..store import edit
from . import Change, Line
from . import story as story_ops
from .chronicle import notes

if TYPE_CHECKING:
    from ..campaign import Campaign

#: Where a first note goes in story.toml: after the Story Record's lists.
PLACE_AFTER = ("stash", "statuses", "outcomes", "followers", "leader", "party", "campaign", "schema")
#: A note is one line of the party's own words, not a file: long enough for an evening's reminder.
MAX_TEXT = 2000


def add(c: Campaign, text: str, *, hero: str | None = None, by: str | None = None) -> Change:
    """Write a note, stamped with the chapter, the round (under way), the date and its author."""
    words = text.strip()
    if not words:
        raise UsageError("a note needs some words", remedy='drunagor note add "the key opens the north gate"')
    if len(words) > MAX_TEXT:
        raise UsageError(f"a note holds at most {MAX_TEXT} characters, not {len(words)}",
                         remedy="write it as two notes, or shorter")
    if not one_line(words):
        raise UsageError("a note is one line: its words hold a line break", remedy="write it as two notes")
    name = c.hero(hero, present=False)[1].name if hero is not None else None
    author = (by if by is not None else _git_user(c)).strip()
    if not author:
        raise UsageError("--by names no one", remedy="--by NAME")
    if not one_line(author):
        source = "--by" if by is not None else "git's user.name"
        raise UsageError(f"{source} holds a line break", remedy="--by NAME, on one line")
    chapter, round_ = _when(c)
    date = story_ops._today()
    import hashlib

    ident = hashlib.sha256("\0".join((date, author, name or "", words)).encode()).hexdigest()[:10]
    if any(n.id == ident for n in notes(c)):
        raise UsageError(f"{author} already wrote this note today", remedy="nothing to do: `drunagor note list`")
    fields: dict[str, object] = {"id": ident, "chapter": chapter}
    if round_ is not None:
        fields["round"] = round_
    fields.update({"date": date, "by": author})
    if name is not None:
        fields["hero"] = name
    fields["text"] = words
    edit.append_entry(c.story_file.edit(), "notes", fields, PLACE_AFTER)
    number = len(notes(c)) + 1
    note = Note(id=ident, chapter=chapter, date=date, by=author, text=words, round=round_, hero=name)
    return Change(summary=f"note {number} written: {stamp(note)}", data=note.as_json(number))


def listing(c: Campaign) -> Change:
    """Every note, numbered as `note remove N` takes them."""
    found = notes(c)
    lines = [Line(f"{i}. {stamp(n)}: {n.text}") for i, n in enumerate(found, start=1)]
    return Change(notes=tuple(lines) or (Line("no notes yet: drunagor note add TEXT"),),
                  data={"notes": [n.as_json(i) for i, n in enumerate(found, start=1)]})


def remove(c: Campaign, number: int) -> Change:
    """Take note N (as `note list` numbers them) out of story.toml."""
    found = notes(c)
    if not 1 <= number <= len(found):
        raise UsageError(f"there is no note {number}: the campaign has {len(found)}",
                         remedy="drunagor note list numbers them")
    edit.remove_entry(c.story_file.edit(), "notes", number - 1)
    gone = found[number - 1]
    return Change(summary=f"note {number} removed ({stamp(gone)}: {gone.text})", data=gone.as_json(number))


def stamp(note: Note) -> str:
    """'chapter 05, round 3, 2026-12-04, Ana, about Nyx'."""
    where = f"chapter {note.chapter}" + (f", round {note.round}" if note.round is not None else "")
    return f"{where}, {note.date}, {note.by}" + (f", about {note.hero}" if note.hero else "")


def _when(c: Campaign) -> tuple[str, int | None]:
    """The chapter under way and its round; between adventures the next chapter to play."""
    if c.adventure_file is not None:
        state = c.adventure()
        return state.chapter, round_number(state)
    return next_open(c.story.track) or "09", None


def _git_user(c: Campaign) -> str:
    """git's `user.name` for the campaign's repository; refused without it (say --by)."""
    try:  # `git config` runs nothing of the repository's (git/runner.py); no git at all: say --by
        name = config_value(c.root, "user.name")
    except (GitFailed, UsageError, OSError):
        name = ""
    if not name:
        raise UsageError("who wrote it? git's user.name is not set for this campaign",
                         remedy="give --by NAME, or set it: git config user.name NAME")
    return name

"""The party's own notes (SPEC 12, issue 45.1): `notes = [ { id, chapter, round, date, by, hero, text } ]`
in story.toml, one note a line, each named by its `id`, so that the merge driver (store/merge.py) merges
two players' new notes as two additions to a list, never a conflict. No files, no terminal.

A note is the party's own text: every front end shows it through the output rule (text.visible)."""

from __future__ import annotations

from typing import Any

from ..errors import FieldError
from ..values import record


@record
class Note:
    """One note: what was written, when (the chapter, the round when an adventure was under way, the
    date), by whom (`by`: the player), and about which hero (None: the party)."""

    id: str
    chapter: str
    date: str
    by: str
    text: str
    round: int | None = None
    hero: str | None = None

    def as_json(self, number: int) -> dict[str, Any]:
        return {"number": number, "id": self.id, "chapter": self.chapter, "round": self.round, "date": self.date,
                "by": self.by, "hero": self.hero, "text": self.text}


_TEXT_KEYS = ("id", "chapter", "date", "by", "text")


def notes_from(data: dict) -> tuple[Note, ...]:
    """The notes of story.toml's plain values (none: an empty tuple); FieldError names a bad one."""
    raw = data.get("notes", [])
    if not isinstance(raw, list):
        raise FieldError(("notes",), "`notes` must be a list of notes, one a line",
                         'write notes = [ { id = "...", chapter = "01", date = "...", by = "...", text = "..." } ]')
    notes = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, dict):
            raise FieldError(("notes", i), f"note {i + 1} must be a table, not {entry!r}",
                             "add notes with `drunagor note add TEXT`")
        for key in _TEXT_KEYS:
            if not isinstance(entry.get(key), str):
                raise FieldError(("notes", i, key), f"`{key}` of note {i + 1} must be text, not {entry.get(key)!r}",
                                 f'write {key} = "..."')
        round_ = entry.get("round")
        if round_ is not None and (isinstance(round_, bool) or not isinstance(round_, int) or round_ < 1):
            raise FieldError(("notes", i, "round"), f"`round` of note {i + 1} must be a round number, not {round_!r}",
                             "write round = 1, or remove it")
        hero = entry.get("hero")
        if hero is not None and not isinstance(hero, str):
            raise FieldError(("notes", i, "hero"), f"`hero` of note {i + 1} must be a hero's name, not {hero!r}",
                             'write hero = "Nyx", or remove it')
        notes.append(Note(id=entry["id"], chapter=entry["chapter"], date=entry["date"], by=entry["by"],
                          text=entry["text"], round=round_, hero=hero))
    return tuple(notes)

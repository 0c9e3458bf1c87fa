"""Checks of the Story Record (RB L951-962): the Adventure Track is filled in order, no name is
written twice, the Party Leader is an active hero, and names drunagor does not know are reported
(warnings: a typo guard; `check --strict` makes them errors)."""

from __future__ import annotations

from .. import catalog
from ..errors import FieldError
from ..model import chapter_id
from ..model.campaign import notes_from
from ..names import closest
from ..rules import track
from .registry import check, problem

# key in story.toml -> (catalog kind, what one entry is called, the command that edits it)
LISTS = {
    "followers": ("followers", "Follower", "follower"),
    "outcomes": ("outcomes", "Outcome", "outcome"),
    "statuses": ("story_statuses", "Story Record status", "status"),
}


def _track_key(f, ch: str):
    """The key path of chapter `ch` in [track] as the file writes it ("05" or "5")."""
    for key in f.data.get("track", {}):
        try:
            if chapter_id(key) == ch:
                return ("track", key)
        except ValueError:
            continue
    return ("track",)


@check("track-order")
def track_order(c):

    story = c.story
    for ch, first_open in track.unexplained_gaps(story.track, story.corrections):
        yield problem(c.story_file, _track_key(c.story_file, ch), "track-order",
                      f"chapter {ch} is {story.track[ch]} but chapter {first_open} before it is still open; the "
                      f"Adventure Track is filled in order (RB L961): fill chapter {first_open} (drunagor chapter "
                      f"complete|skip {int(first_open)}), or write under `corrections` why chapter {ch} was "
                      "filled out of order")


def _same(name: str) -> str:
    """Names compare ignoring case, apostrophe style and spacing."""
    return " ".join(name.replace("\u2019", "'").split()).casefold()


@check("story-duplicate")
def duplicates(c):
    for key, (_, what, cmd) in LISTS.items():
        seen: set[str] = set()
        for name in getattr(c.story, key):
            if _same(name) in seen:
                yield problem(c.story_file, (key,), "story-duplicate",
                              f"{what} {name!r} is written twice on the Story Record; erase one "
                              f"(drunagor {cmd} remove {name!r})")
            seen.add(_same(name))


@check("leader")
def leader_is_active(c):
    name = c.story.leader
    if not name:
        return
    hero = next((h for h in c.heroes.values() if _same(h.name) == _same(name)), None)
    active = ", ".join(h.name for h in c.active_heroes().values()) or "none yet"
    if hero is None:
        yield problem(c.story_file, ("leader",), "leader",
                      f"the Party Leader {name!r} is not a hero of this campaign; choose an active hero "
                      f"(drunagor leader HERO; active: {active})")
    elif not hero.active:
        yield problem(c.story_file, ("leader",), "leader",
                      f"the Party Leader {hero.name} has left the party (retired); choose an active hero "
                      f"(drunagor leader HERO; active: {active})")


@check("unknown-name")
def unknown_names(c):
    for key, (kind, what, _cmd) in LISTS.items():
        known = catalog.names(kind)
        for name in getattr(c.story, key):
            if catalog.canonical(name, known) is None:
                hint = closest(name, known)  # the one rule for names (names.closest)
                fix = f"did you mean {hint!r}? " if hint else ""
                yield problem(c.story_file, (key,), "unknown-name",
                              f"{what} {name!r} is not a name drunagor knows; {fix}fix the spelling, or keep it "
                              "if the book says so", severity="warning")


@check("notes")
def notes_shape(c):
    """The party's notes (story.toml `notes`, SPEC 12): each a table of text with its id, chapter, date and
    author (model/campaign.py), so that `note list`, `recap` and the sheets can show every one."""
    try:
        notes_from(c.story_file.data)
    except FieldError as exc:
        yield problem(c.story_file, exc.key_path, "notes", f"{exc.message}; {exc.remedy}")

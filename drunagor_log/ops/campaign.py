"""Campaign operations: creating a campaign (`drunagor new`) and the campaign at a glance (`show`).

A new campaign is written whole into a hidden temporary folder beside its place, then renamed into
place: a failure at any step (a full disk, a folder that cannot be written, a name too long) leaves
nothing behind, and no other command ever sees half a campaign.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .. import catalog, store
from ..campaign import HEROES, STORY, Campaign, list_campaigns
from ..errors import DataError, UsageError
from ..git.driver_setup import prepare_new_campaign
from ..model import CHAPTERS
from ..names import check_name, slug
from ..rules import chest, rewards
from ..store import display
from ..store.adventure import read
from ..store.tomltext import basic_string as _toml_str
from . import Change
from .commit import commit_tail, committed_line

# The Epic Rare pair after the compulsory replacement (RB L367-371): the replaced pair is stored.
AWAKENINGS_EPIC = ("Artisan's Tools", "Treasure Trove")
REPLACED_EPIC = ("Cosmic Gemstone", "Forgotten Treasure")


def story_template(party: str, max_heroes: int, trauma_limit: int, rune_bag: dict[str, int]) -> str:
    bag = ", ".join(f"{k} = {v}" for k, v in rune_bag.items())
    return f"""\
schema = 1
campaign = "awakenings"
party = {_toml_str(party)}
# leader = "Hero name"          # Party Leader: breaks the ties the rules leave to the party

followers = []
outcomes = []
statuses = []
stash = []                      # consumables left by a hero who left the party, to hand out
# Cards out of the campaign for good: the compulsory replacement (RB L367-371) and upgrades.
stored = [{", ".join(_toml_str(n) for n in REPLACED_EPIC)}]

[track]                         # Adventure Track: "01" = "completed" or "skipped"

[rules]
{f"trauma_limit = {trauma_limit}":<31} # Taking It Easy: 2; harder: 0 (RB L1020-1034)
{f"max_heroes = {max_heroes}":<31} # 5 with extra-hero content (RB L941-943)
rune_bag = {{ {bag} }}   # community data; fix it to your bag

[chest]                         # 2 Epic Rare + 9 Potions + 9 Scrolls (RB L349-371)
epic = [{", ".join(_toml_str(n) for n in AWAKENINGS_EPIC)}]
cards = []                      # record them with `drunagor chest add CARD --copies N`

[cards]                         # facts you recorded once: type, rarity, rune position, epic

[commander]
cards = []                      # the 10-card Commander Attack deck (RB L816-826)

[git]
autocommit = false
"""

def new(parent: Path, name: str, *, party: str | None = None, max_heroes: int = 4, trauma_limit: int = 1,
        commit: bool = False, example: bool = False) -> Change:
    """Create the campaign `parent/<slug of name>` with its Story Record (the compulsory chest
    replacement applied), its heroes/ folder, .gitignore and .gitattributes; commit them if asked.
    `example`: the campaign is a copy of the shipped example instead (SPEC 2), to try every command.
    Every refusal comes before anything is written; every failure after leaves nothing behind."""
    files = (example_files(party, max_heroes, trauma_limit) if example
             else {STORY: _new_story(name, party, max_heroes, trauma_limit)})
    check_name(name, "campaign")  # the party's name is any text (written escaped): not a file name
    folder = parent / slug(name)
    _refuse_inside_a_campaign(parent, folder)
    _refuse_taken(parent, folder)
    message = f"created campaign {slug(name)} ({'a copy of the example' if example else party or name})"
    # a refused commit (no repository) comes before the campaign folder is made
    saved = commit_tail(folder, lambda: _write_into_place(folder, files), message, commit=commit)
    summary = (f"created campaign {store.display(folder)}, a copy of the shipped example campaign" if example else
               f"created campaign {store.display(folder)} (Artisan's Tools and Treasure Trove replace "
               f"Cosmic Gemstone and Forgotten Treasure)")
    data = {"path": str(folder), "files": saved.files, "commit": saved.sha}
    line = committed_line(saved, message)
    return Change(summary=summary, warnings=_ambiguity(parent, folder), data=data,
                  notes=(line,) if line is not None else ())


def _new_story(name: str, party: str | None, max_heroes: int, trauma_limit: int) -> bytes:
    if max_heroes not in (4, 5):
        raise UsageError(f"--max-heroes must be 4 or 5, not {max_heroes}",
                         remedy="4 heroes; 5 only with extra-hero content (RB L941-943)")
    if not 0 <= trauma_limit <= 9:
        raise UsageError(f"--trauma-limit must be from 0 to 9, not {trauma_limit}")
    return story_template(party or name, max_heroes, trauma_limit, dict(catalog.DEFAULT_RUNE_BAG)).encode()


def shipped_example() -> Path:
    """The example campaign that ships with drunagor: drunagor_log/example/ where it was installed
    from the wheel (setup.py copies it there), campaigns/example/ beside the package in a clone (an
    editable install, or run from the source)."""
    package = Path(__file__).resolve().parent.parent
    for folder in (package / "example", package.parent / "campaigns" / "example"):
        if (folder / STORY).is_file():
            return folder
    raise DataError("the example campaign did not come with this drunagor", file=display(package / "example"),
                    rule="file", remedy="reinstall drunagor (pip install --force-reinstall drunagor)")


def example_files(party: str | None = None, max_heroes: int = 4, trauma_limit: int = 1) -> dict[str, bytes]:
    """The shipped example's files (path relative to the campaign -> bytes), read as every campaign
    file is (store.read_bytes). The example's Story Record is copied as it is: the options that shape
    a new one are refused with it."""
    if party is not None or max_heroes != 4 or trauma_limit != 1:
        raise UsageError("--example copies the example's Story Record as it is; --party, --max-heroes and "
                         "--trauma-limit are for a new empty campaign",
                         remedy="leave them out, or leave out --example")
    root = shipped_example()
    return {p.relative_to(root).as_posix(): store.read_bytes(p, root) for p in Campaign(root).files()}


def _refuse_inside_a_campaign(parent: Path, folder: Path) -> None:
    """`new` run from inside a campaign would nest the new one in it (campaigns/x/campaigns/third)."""
    here = Path(os.path.abspath(parent))
    holder = next((d for d in (here, *here.parents) if (d / STORY).is_file()), None)
    if holder is not None:
        raise UsageError(f"{display(folder)} would be inside the campaign {display(holder)}",
                         remedy="run drunagor new from the folder that holds campaigns/ (the repository), "
                                "or give --dir outside the campaign")


def _ambiguity(parent: Path, folder: Path) -> tuple[str, ...]:
    """A warning when the new campaign is a second one where drunagor looks when no -C is given."""
    if os.environ.get("DRUNAGOR_CAMPAIGN") or os.path.abspath(parent) != os.path.abspath("campaigns"):
        return ()
    found = list_campaigns(parent)
    if len(found) < 2:
        return ()
    return (f"{len(found)} campaigns are now under campaigns/, so a command run here must say which: "
            f"drunagor -C {display(folder)} ... (or DRUNAGOR_CAMPAIGN={display(folder)}, or cd into it)",)


def _refuse_taken(parent: Path, folder: Path) -> None:
    """A usage error if `--dir` is not a folder, or the campaign's place is taken."""
    if os.path.exists(parent) and not os.path.isdir(parent):
        raise UsageError(f"--dir {display(parent)} is not a folder", remedy="give the folder where campaigns live")
    if os.path.lexists(folder / STORY):
        raise UsageError(f"{display(folder)} already holds a campaign", remedy="choose another NAME, or --dir")
    if os.path.lexists(folder) and (os.path.islink(folder) or not os.path.isdir(folder)):
        raise UsageError(f"{display(folder)} already exists and is not a folder",
                         remedy="choose another NAME, or --dir, or move it away")
    try:
        taken = os.path.isdir(folder) and bool(os.listdir(folder))
    except OSError:
        taken = True
    if taken:
        raise UsageError(f"{display(folder)} already exists and is not empty",
                         remedy="choose another NAME, or --dir, or move its files away")


def _write_into_place(folder: Path, files: dict[str, bytes]) -> list[str]:
    """Write the campaign into a hidden folder beside `folder`, then rename it into place. Returns
    the files written, relative to the folder. On any failure, removes what it made (the temporary
    folder, and --dir's folders it created) and raises one DataError."""
    import shutil

    parent = folder.parent
    made = [p for p in (parent, *parent.parents) if not os.path.exists(p)]
    tmp = parent / f".{folder.name}.{os.getpid()}{store.TMP_SUFFIX}"
    try:
        os.makedirs(parent, exist_ok=True)
        os.mkdir(tmp)
        os.mkdir(tmp / HEROES)
        for rel, data in files.items():
            store.atomic_write(tmp / rel, data)
        written = [*files, *prepare_new_campaign(tmp)]  # .gitignore, .gitattributes
        _place(tmp, folder)
    except (OSError, DataError) as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        for d in made:  # the deepest first
            try:
                os.rmdir(d)
            except OSError:
                break
        reason = (exc.message if isinstance(exc, DataError)
                  else f"cannot make a folder in {store.display(parent)} ({exc.strerror or exc})")
        raise DataError(f"cannot create the campaign: {reason}", file=store.display(folder), rule="file",
                        remedy="nothing was written; fix the cause (disk space, permissions, --dir) "
                               "and re-run") from None
    store.fsync_dir(parent)
    return written


def _place(tmp: Path, folder: Path) -> None:
    """Rename the finished campaign into place (over an empty folder of that name, if there is one)."""
    try:
        os.rename(tmp, folder)
    except OSError:
        if not os.path.isdir(folder) or os.path.islink(folder) or os.listdir(folder):
            raise
        os.rmdir(folder)  # an empty folder (where rename cannot replace it): the campaign takes its place
        os.rename(tmp, folder)


# ------------------------------------------------------------------------------ drunagor show


def show(c: Any) -> Change:
    """The campaign at a glance (`data` is the `show --json` object)."""
    return Change(data=show_data(c))


def _track_summary(story) -> list[dict]:
    rows = []
    for ch in CHAPTERS:
        state = story.track.get(ch)
        rows.append({"chapter": ch, "title": catalog.chapter(ch).title, "state": state,
                     "failures": story.failures.get(ch, 0)})
    return rows


def show_data(c: Any) -> dict:
    """Everything `drunagor show` prints, as plain values (the `--json` shape)."""
    story = c.story
    nxt = story.next_chapter()
    heroes = []

    party = rewards.earned(c.active_heroes().values())  # a Spoils card handed over counts for its earner
    for _s, h in c.heroes.items():
        owes = rewards.owed_for(h, story, party) if h.active else None
        excess = rewards.excess_for(h, story, party) if h.active else None
        heroes.append({"name": h.name, "class": h.cls, "role": h.role, "player": h.player,
                       "joined": h.joined, "retired": h.retired,
                       "owes": owes.as_dict() if owes is not None else None,
                       "excess": excess.as_dict() if excess is not None else None})
    adv = c.adventure_file
    return {
        "campaign": story.campaign,
        "party": story.party,
        "leader": story.leader,
        "heroes": heroes,
        "followers": list(story.followers),
        "track": {r["chapter"]: r["state"] for r in _track_summary(story) if r["state"]},
        "next_chapter": nxt,
        "finished": nxt is None,
        "ending": story.ending,  # chapter 09's, once the campaign is finished (RB L1309)
        "failures": dict(story.failures),  # failed attempts per chapter (`drunagor chapter fail`)
        "outcomes": list(story.outcomes),
        "statuses": list(story.statuses),
        "stash": list(story.stash),
        "chest": _chest_data(c),
        "adventure": _adventure_data(adv) if adv is not None else None,
    }


def _chest_data(c: Any) -> dict:
    return chest.summary(c.story)


def _adventure_data(f) -> dict:
    """What `show` says about the adventure under way (adventure.toml; `adventure show` has it all):
    chapter, heroes, raid card face, the bag, the track, the Piles of Runes and the monsters."""
    state = read(f)
    return {
        "chapter": state.chapter,
        "heroes": state.heroes,
        "raid_face": state.raid.face if state.raid is not None else None,
        "raid_card": state.raid.card if state.raid is not None else None,
        "bag": dict(state.bag),
        "runes_in_bag": state.runes_in_bag(),
        "track": dict(state.track),
        "piles": [{"id": p.id, "runes": {c: n for c, n in p.runes.items() if n}} for p in state.piles],
        "monsters": [{"name": m.name, "rank": m.rank, "slot": m.slot, "boss": m.boss} for m in state.monsters],
    }

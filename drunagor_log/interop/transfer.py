"""Moving a campaign in and out of the companion apps (SPEC section 9, design/app-token.md): a front end
over the operations, as the command line is.

`import_token` creates a campaign from the apps' token through the same operations as the
commands (`new`, `hero add`, `hero gain`, `hero learn`, `hero aura`, `hero status`), in a hidden
folder beside the destination that is renamed into place only when every step succeeded: nothing
is written on any error. `export_token` reads a campaign and gives the token both apps accept.

What the token lacks is given by flags (Dungeon Roles, which the apps never record, players, the
Party Leader, a class the catalog does not know) or left for `check` to report, never invented.
What drunagor does not model is kept verbatim under `[app]` so that an export gives it back.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from .. import store
from ..campaign import Campaign
from ..errors import DataError, DrunagorError, RuleError, UsageError
from ..model import chapter_id
from ..names import WINDOWS_RESERVED, check_name, slug
from ..ops import Change, equipment, heroes, skills, story
from ..ops import campaign as campaigns
from ..store import edit
from ..text import plural
from . import apps, token
from .token import SHOWN, shown

APP_TABLE = "app"


def _by_hero(values: dict[str, str], hero: str) -> str | None:
    return next((v for k, v in values.items() if k.strip().casefold() == hero.casefold()), None)


def _skill_name(tree: str, level: int) -> str:
    """The name an imported skill is recorded under: the apps keep a tick box per tree and level,
    never which card (app-token 3.6), so the name says so; `hero unlearn` and `hero learn` put the
    card's name in its place."""
    label = "Dungeon Role" if tree == "role" else tree.capitalize()
    return f"{label} Level {level} (from the app)"


MAX_LISTED = 12  # unknown IDs a message lists (the count says how many there are)


def _id_text(ident: str) -> str:
    """An ID of the token as a message shows it: as it is when it looks like one (printable, short),
    else quoted, cut and with its invisible characters spelled out."""
    return ident if ident.isprintable() and len(ident) <= SHOWN else shown(ident)


def _listed(unknown: Any) -> list[str]:
    """'place: id, id' per place, at most MAX_LISTED IDs in all, then how many more."""
    places: dict[str, list[str]] = {}
    for where, ident in list(unknown)[:MAX_LISTED]:
        places.setdefault(where, []).append(_id_text(ident))
    out = [f"{where}: {', '.join(ids)}" for where, ids in places.items()]
    if len(unknown) > MAX_LISTED:
        out.append(f"and {len(unknown) - MAX_LISTED:,} more")
    return out


def _refuse_unknown(plan: Any) -> None:
    listed = "; ".join(_listed(plan.unknown))
    raise RuleError(f"the token holds {len(plan.unknown)} ID(s) that are not in the Awakenings lists "
                    f"({listed})",
                    rule="token",
                    remedy="import without them with --drop-unknown, or correct them in the app and export again")


def import_token(text: str, source: str, parent: Path, *, name: str | None = None, drop_unknown: bool = False,
                 roles: dict[str, str] | None = None, players: dict[str, str] | None = None,
                 classes: dict[str, str] | None = None, leader: str | None = None,
                 track: dict[str, str] | None = None, joined: dict[str, str] | None = None,
                 new: bool = False) -> Change:
    """Create the campaign a token describes under `parent` (made when missing, as `new` does);
    nothing is written on any refusal.

    `track` fills the Adventure Track ({"01": "completed", "02": "skipped"}), which the token lacks:
    the heroes join first (before chapter 01), then the chapters are recorded in order, so the rewards
    they give count against what the token's heroes hold. `joined` ({"Nyx": "04"}) has a hero join
    before a later chapter instead: just before that chapter is recorded, as `hero add` would then.
    `new`: a hero's name the resolver doubts (very like a known one) is meant as typed, as `hero add
    --new` takes it."""
    roles, players, track = roles or {}, players or {}, track or {}
    plan = token.plan(token.decode(text, source), source, classes or {})
    if plan.unknown and not drop_unknown:
        _refuse_unknown(plan)
    _check_flags(plan, roles, leader)
    joining = _joining(plan, joined or {}, track)
    target = _target(parent, _folder_name(name, plan.party))
    made = _make_folders(parent)
    try:
        tmp = Path(tempfile.mkdtemp(prefix=".drunagor-import-", dir=parent))
        try:
            return _build(plan, tmp, target, roles, players, leader, track, joining, new)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    except DrunagorError as exc:  # a step refused: name the token, not the hidden folder that is gone
        _remove_folders(made)
        if exc.file and ".drunagor-import-" in exc.file:
            exc.file, exc.line = source, None
        raise
    except BaseException:
        _remove_folders(made)
        raise


def _check_flags(plan: Any, roles: dict[str, str], leader: str | None) -> None:
    missing = [h.name for h in plan.heroes if _by_hero(roles, h.name) is None]
    if missing:
        raise UsageError(f"the token has no Dungeon Roles (the apps do not record them): {', '.join(missing)} "
                         "need one", remedy="give each hero a role: " + " ".join(
                             f"--role {h.name}=ROLE" for h in plan.heroes) + " (Defender, Leader, Controller, "
                         "Support, Striker)")
    if leader is not None and all(h.name.casefold() != leader.strip().casefold() for h in plan.heroes):
        raise UsageError(f"--leader {leader!r} is not one of the token's heroes",
                         remedy="name one of: " + ", ".join(h.name for h in plan.heroes))


def _joining(plan: Any, joined: dict[str, str], track: dict[str, str]) -> dict[str, str]:
    """The chapter before which each hero joins: 01, or --joined HERO=NN, which can be no later than
    the chapter after the last one --completed or --skipped record (the next one to play)."""
    nxt = f"{max((int(ch) for ch in track), default=0) + 1:02d}"
    out = {h.name: "01" for h in plan.heroes}
    for who, chapter in joined.items():
        hero = next((h.name for h in plan.heroes if h.name.casefold() == who.strip().casefold()), None)
        if hero is None:
            raise UsageError(f"--joined {who}={chapter}: {who!r} is not one of the token's heroes",
                             remedy="name one of: " + ", ".join(h.name for h in plan.heroes))
        try:
            ch = f"{int(chapter_id(chapter.strip())):02d}"
        except ValueError:
            raise UsageError(f"--joined {who}={chapter}: {chapter!r} is not a chapter",
                             remedy=f"write --joined {hero}=04 (the chapter before which {hero} joined)") from None
        if ch > nxt:
            raise UsageError(f"--joined {hero}={ch}: the Adventure Track given ends before chapter {nxt}, so no "
                             f"hero can have joined before chapter {ch}",
                             remedy="record the chapters played before with --completed and --skipped")
        out[hero] = ch
    return out


def _target(parent: Path, name: str) -> Path:
    """The new campaign's folder, refused (before anything is made) as `new` refuses it: --dir not a
    folder, inside a campaign, or the place taken."""
    if os.path.lexists(parent) and not os.path.isdir(parent):
        raise UsageError(f"--dir {store.display(parent)} is not a folder",
                         remedy="name a folder, or a new one to create (default: campaigns/)")
    target = parent / slug(name)
    campaigns._refuse_inside_a_campaign(parent, target)
    if os.path.lexists(target):
        raise UsageError(f"{store.display(target)} already exists",
                         remedy="choose another folder name with --name SLUG, or another --dir")
    return target


def _make_folders(parent: Path) -> list[Path]:
    """Make --dir and the folders above it that are missing; the ones made, deepest first."""
    made = [p for p in (parent, *parent.parents) if not os.path.lexists(p)]
    try:
        os.makedirs(parent, exist_ok=True)
    except OSError as exc:
        _remove_folders(made)
        raise DataError(f"cannot make the folder ({exc.strerror or exc})", file=store.display(parent),
                        rule="file", remedy="nothing was written; fix the cause (permissions, --dir) and "
                                            "re-run") from None
    return made


def _remove_folders(made: list[Path]) -> None:
    for d in made:  # the deepest first; a folder something else was put in meanwhile is left
        try:
            os.rmdir(d)
        except OSError:
            break


def _folder_name(name: str | None, party: str) -> str:
    """The new campaign's name (its folder is its slug), checked as `new` checks a name before
    anything is made: --name as typed, else the token's party name."""
    given = name if name is not None else party
    if slug(given) in WINDOWS_RESERVED:  # names.check_name's rule, said with the flag that fixes it
        flag = "--name" if name is not None else "the party's name"
        raise UsageError(f"{flag} {shown(given)} would make the folder {slug(given)}, a name Windows keeps "
                         "for a device", remedy="choose another name with --name SLUG")
    try:
        check_name(given, "campaign")
    except UsageError as exc:
        if name is not None:
            raise
        what = "has no name" if not party.strip() else f"name {shown(party)} cannot name its folder"
        raise UsageError(f"the token's party {what} ({exc.message})",
                         remedy="give the campaign's folder a name with --name SLUG") from None
    return given


def _build(plan: Any, tmp: Path, target: Path, roles: dict[str, str], players: dict[str, str],
           leader: str | None, track: dict[str, str], joining: dict[str, str], new: bool = False) -> Change:
    campaigns.new(tmp, target.name, party=plan.party or target.name, max_heroes=5 if len(plan.heroes) > 4 else 4)
    built = tmp / target.name
    by_chapter: dict[str, list[Any]] = {}
    for h in plan.heroes:
        by_chapter.setdefault(joining[h.name], []).append(h)
    notes = _join(built, by_chapter.pop("01", []), roles, players, new)
    _apply(built, _fill_story, plan)
    for chapter in sorted(track):
        notes += _join(built, by_chapter.pop(chapter, []), roles, players, new)
        _apply(built, _fill_chapter, chapter, track[chapter])
    for chapter in sorted(by_chapter):  # before the next chapter to play
        notes += _join(built, by_chapter[chapter], roles, players, new)
    if leader:
        _apply(built, _set_leader, leader)
    built.rename(target)
    store.fsync_dir(target.parent)
    return _summary(plan, target, track, notes)


def _join(built: Path, heroes: list[Any], roles: dict[str, str], players: dict[str, str],
          new: bool = False) -> list[str]:
    """Heroes join the party (all of them, then what each holds: a card handed over names a hero)."""
    notes: list[str] = []
    for h in heroes:
        _apply(built, _add_hero, h, _by_hero(roles, h.name) or "", _by_hero(players, h.name), new)
    for h in heroes:
        notes += _apply(built, _fill_hero, h)
        _apply(built, _keep_app_data, h)
    return notes


def _summary(plan: Any, target: Path, track: dict[str, str], notes: list[str]) -> Change:
    lost = [f"{where}: {ident}" for where, ident in plan.unknown]  # the JSON data: every one, as it is
    party = repr(plan.party) if plan.party else "a party with no name"
    summary = (f"imported {party} ({plan.form} token) as {store.display(target)}: "
               f"{plural(len(plan.heroes), 'hero', 'heroes')}, {plural(len(plan.followers), 'Follower')}, "
               f"{plural(len(plan.outcomes), 'Outcome')}, {plural(len(plan.statuses), 'status', 'statuses')}")
    if not plan.party:
        notes.append(f"The token gives the party no name: it is recorded as {target.name!r}; rename it with "
                     "drunagor party NAME.")
    notes.append(("The token has no Class Ability names or Starting Gear" if track else
                  "The token has no Adventure Track (give it with --completed and --skipped), Class Ability "
                  "names or Starting Gear") + ": record them with drunagor hero ability and hero gain --kind "
                 "starting; drunagor check lists what is missing.")
    warnings = tuple(f"left out (not in the Awakenings lists): {x}" for x in _listed(plan.unknown))
    return Change(summary, tuple(notes), warnings, {"path": str(target), "form": plan.form,
                                                    "heroes": [h.name for h in plan.heroes], "dropped": lost})


def _apply(root: Path, step: Any, *args: Any) -> list[str]:
    with Campaign(root) as c:  # a folder nobody else sees yet
        out = step(c, *args)
        c.save()
    return out or []


def _add_hero(c: Any, h: Any, role: str, player: str | None, new: bool = False) -> None:
    heroes.add(c, h.name, role, cls=h.cls, player=player, new=new)


def _fill_hero(c: Any, h: Any) -> list[str]:
    notes = []
    for item in h.items:
        equipment.gain(c, h.name, item.name, kind=item.kind, quality=item.quality, bag=item.place == "bag",
                       imported=True)
        if item.stashed:
            notes.append(f"{h.name}'s {item.name} was in the app's Stash: recorded in the bag")
    for tree, level in h.skills:
        skills.learn(c, h.name, _skill_name(tree, level), tree=tree, level=level)
    if h.aura:
        heroes.aura(c, h.name, h.aura)
    for status in h.statuses:
        heroes.status(c, h.name, "add", status)
    return notes


def _keep_app_data(c: Any, h: Any) -> None:
    """What the token says that drunagor does not model, on the hero's log: a card's own app ID where
    its name does not give it back (one ID per face), the app's Stash, the unmodelled keys."""
    slug, hero = c.hero(h.name)
    doc = c.hero_files[slug].edit()
    pending: dict[tuple[str, str], list[Any]] = {}  # the token's cards by name and place, in their order
    for x in h.items:
        pending.setdefault((x.name, x.place), []).append(x)
    for i, entry in enumerate(hero.equipment):  # in the order gained: a card's two faces, two copies apart
        queue = pending.get((entry.name, entry.place))
        item = queue.pop(0) if queue else None
        if item is not None and _needs_id(item):
            edit.set_entry_field(doc, "equipment", i, "app_id", item.app_id)
        if item is not None and item.stashed:
            edit.set_entry_field(doc, "equipment", i, "app_slot", "stash")
    if h.kept:
        edit.set_value(edit.table(doc, APP_TABLE), "json", json.dumps(h.kept, ensure_ascii=False))


def _needs_id(item: Any) -> bool:
    base = item.app_id.split("-", 1)[1] if item.app_id.startswith(("improved-", "ultimate-")) else item.app_id
    return token.id_tables()["items"].get(item.name) != base


def _fill_story(c: Any, plan: Any) -> None:
    for name in plan.followers:
        story.add_follower(c, name)
    for name in plan.outcomes:
        story.add_outcome(c, name)
    for name in plan.statuses:
        story.add_status(c, name)
    if plan.kept:
        edit.set_value(edit.table(c.story_file.edit(), APP_TABLE), "json", json.dumps(plan.kept, ensure_ascii=False))


def _set_leader(c: Any, leader: str) -> None:
    story.set_leader(c, leader)


def _fill_chapter(c: Any, chapter: str, state: str) -> None:
    story.fill_chapter(c, chapter, state)


def chapters(values: list[str] | None, flag: str) -> list[str]:
    """Chapters given as `04`, `4` or a range `01-04`."""
    out: list[str] = []
    for value in values or []:
        first, _, last = value.partition("-")
        try:
            lo, hi = chapter_id(first.strip()), chapter_id((last or first).strip())
        except ValueError:
            raise UsageError(f"{flag} {value!r} is not a chapter or a range of chapters",
                             remedy=f"write {flag} 04 or {flag} 01-04") from None
        out += [f"{n:02d}" for n in range(int(lo), int(hi) + 1)]
    return out


def export_token(c: Any, *, strict: bool = False) -> Change:
    """The campaign as the apps' token (`data["token"]`, `data["json"]`), and what it cannot carry:
    one warning per hero, card or name the apps' ID tables lack (refused with `strict`), and a note
    of what the token has no place for."""
    heroes = [(h, c.hero_files[slug].data) for slug, h in c.heroes.items()]
    out = apps.export(c.story, c.story_file.data, heroes)
    if strict and out.unknown:
        raise RuleError(f"the apps' ID tables lack {len(out.unknown)} of the campaign's names: "
                        + "; ".join(out.unknown), file=c.story_file.shown, rule="token",
                        remedy="export without --strict to leave them out (each is named on standard error)")
    lost = list(out.lost)
    if c.adventure_file is not None:
        lost.append("the adventure under way (adventure.toml)")
    if (c.root / "adventures").is_dir() and any((c.root / "adventures").glob("*.toml")):
        lost.append("the archived adventures (adventures/)")
    try:
        text = token.encode(out.data)
    except DrunagorError as exc:
        exc.file = exc.file or c.story_file.shown
        raise
    warnings = tuple(f"the apps have no ID for {what}: left out of the token" if "heroId" not in what
                     else f"the apps have no ID for {what}" for what in out.unknown)
    return Change(notes=tuple(lost), warnings=warnings,
                  data={"token": text, "json": out.data, "lost": lost, "unknown": list(out.unknown)})

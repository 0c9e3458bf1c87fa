"""Campaign Logs: what a player does to a hero (SPEC 4 "Heroes", 5.1, 5.3; RB L939-1052).

One TOML file per hero under heroes/. Each function takes an open `Campaign` (for writing, when it
writes), resolves the names typed, asks `rules/heroes.py` and `rules/rewards.py` whether the action
is allowed, edits the files through `store.edit`, and returns a `Change`; a refusal is a
`DrunagorError`. Nothing is on disk until the campaign is saved.

    with Campaign(root) as c:
        change = heroes.learn(c, "Nyx", "Quick Strike", tree="melee", level=1)
        c.save()

The lists a log records (`skills`, `class_abilities`, `equipment`, `statuses`) keep one entry per
line, so two players editing one log merge well in git.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .. import catalog
from ..errors import RuleError, UsageError
from ..model import Hero, chapter_id
from ..names import check_name, closest, known, lookup, match, near_miss, resolve, resolve_known
from ..rules import chest, rewards
from ..rules import heroes as rules
from ..store import edit
from ..store.tomltext import basic_string
from ..text import a, shell_word
from ..values import replace
from . import Change
from .chest import chest_may_change
from .typed import typed_chapter

if TYPE_CHECKING:
    from ..campaign import Campaign
    from ..store import TomlFile


# ------------------------------------------------------------------------------------ finding


def active_hero(c: Campaign, query: str) -> tuple[str, Hero]:
    """Kept for callers written before `Campaign.hero` (issue 40), the one door: use `c.hero(query)`."""
    return c.hero(query)


def find_entry(names: Sequence[str], query: str) -> int | None:
    """Index of the entry `query` names (the resolver's order: exact, any case, a unique prefix);
    None if none."""
    found = match(query, names)
    return None if found is None else list(names).index(found)


def _holder(c: Campaign, hero: Hero, query: str) -> tuple[Hero, str] | None:
    """Another active hero holding the card `query` names, and its name as written in their log."""
    for h in c.active_heroes().values():
        if h is hero:
            continue
        try:
            i = find_entry([e.name for e in h.equipment], query)
        except UsageError:
            continue
        if i is not None:
            return h, h.equipment[i].name
    return None


def held_item(c: Campaign, slug: str, hero: Hero, query: str, doing: str, to: Hero | None = None) -> int:
    """Index in the hero's equipment of the card `query` names, else a refusal that says who has
    it and the command that would do what was meant (one that is not refused itself)."""
    i = find_entry([e.name for e in hero.equipment], query)
    if i is not None:
        return i

    held = _holder(c, hero, query)
    q = shell_word
    if held is not None:
        other, card = held
        if doing == "drop":
            remedy = f"{other.name} has it: drunagor hero drop {q(other.name)} {q(card)}"
        elif to is not None and other is to:
            remedy = f"{other.name} has it already"
        else:
            remedy = f"{other.name} has it: drunagor hero give {q(other.name)} {q((to or hero).name)} {q(card)}"
    else:
        hint = closest(query, [e.name for e in hero.equipment])
        remedy = (f"did you mean {hint!r}?" if hint else
                  f"{hero.name} has: " + (", ".join(e.name for e in hero.equipment) or "nothing"))
    f = c.hero_files[slug]
    raise f.refuse(("equipment",), f"{hero.name} does not have {query!r} to {doing}", rule="equipment",
                   remedy=remedy)


def pick(query: str, options: Iterable[str], what: str, game: bool = False) -> str:
    """One of `options` (exit 1 when they are names of the game, as the skill trees; 2 for drunagor's
    own words, as an action or a fact flag's value)."""
    return lookup(query, {o: o for o in options}, what, game=game)


def _catalog_name(query: str, kind: str, new: bool, warnings: list[str], extra: Sequence[str] = ()) -> str:
    """The catalog's name of `kind` that `query` means (names.resolve_known; `extra`: names the log
    already holds); a name it does not know only with `new` (the user's --new), with a warning when
    it is close to a known one."""
    what = {"auras": "Aura", "hero_statuses": "hero status"}[kind]
    name = resolve_known(query, kind, new=new, extra=extra,
                         new_hint=f"if it is {a(what)} drunagor does not know, add --new to record it")
    names = known(kind)[0]
    hint = near_miss(name, names) if name not in names and name not in extra else None
    if hint:
        warnings.append(f"{name!r} is recorded as a new {what}; drunagor knows {hint!r}")
    return name


def excess_warning(c: Campaign, slug: str, hero: Hero) -> tuple[str, ...]:
    """After recording a reward: a warning if the log (as `hero` now is) holds more than the
    chapters give."""
    party = [hero if s == slug else h for s, h in c.active_heroes().items()]
    over = rewards.describe(rewards.excess_for(hero, c.story, party))
    if not over:
        return ()
    return (f"{hero.name} now has {over} more than the chapters completed since joining give "
            "(drunagor check reports it as rewards)",)


# ----------------------------------------------------------------------------- joining, leaving


def _log_text(name: str, cls: str, role: str, player: str | None, joined: str, gear: Sequence[str]) -> str:
    """A new Campaign Log, as `hero add` writes it."""
    def commented(line: str, comment: str) -> str:
        return f"{line:<31} # {comment}"

    lines = ["schema = 1", f"name = {basic_string(name)}", f"class = {basic_string(cls)}",
             commented(f"role = {basic_string(role)}", "Dungeon Role cards I and II (RB L1051)")]
    if player:
        lines.append(f"player = {basic_string(player)}")
    lines += [commented(f"joined = {basic_string(joined)}", "chapter before which the hero joined"),
              "statuses = []", "class_abilities = []", "skills = []"]
    if gear:
        lines.append("equipment = [")
        lines += [f'  {{ name = {basic_string(g)}, kind = "starting", place = "equipped" }},' for g in gear]
        lines.append("]")
    else:
        lines.append("equipment = []")
    return "\n".join(lines) + "\n"


def _check_room(c: Campaign, role: str) -> None:
    """Room in the party for one more hero (RB L943), and the Dungeon Role free."""
    active = list(c.active_heroes().values())
    full = rules.party_full(active, c.story.rules.max_heroes)
    if full is not None:
        raise c.story_file.refuse(("rules", "max_heroes"), full.message, rule=full.rule, remedy=full.remedy)
    _check_role_free(c, role, active)


def _check_role_free(c: Campaign, role: str, others: Sequence[Hero], how: str = "") -> None:
    """One hero per Dungeon Role among `others` (the active heroes but the one taking `role`);
    `how` says how to choose another ("--role ROLE")."""
    taken = rules.role_taken(role, others)
    if taken is not None:
        slug = next(s for s, h in c.active_heroes().items() if h.name == taken.hero)
        error = c.hero_files[slug].refuse(("role",), taken.message, rule=taken.rule, remedy=taken.remedy)
        if how and error.remedy and error.remedy.startswith("choose a free role"):
            error.remedy += f" ({how})"
        raise error


def _no_log_yet(c: Campaign, hero_name: str) -> None:
    """Refuse a hero who has a Campaign Log already (by name first: a log made before a rule on names
    was added is still its hero's), in the party or gone."""
    existing = next(((s, h) for s, h in c.heroes.items() if h.name.casefold() == hero_name.casefold()), None)
    if existing is None:
        stem = c.hero_path(hero_name).stem
        existing = next(((s, h) for s, h in c.heroes.items() if s == stem), None)
    if existing is None:
        return
    s, h = existing
    if not h.retired:
        raise RuleError(f"{h.name} is already in the party (Campaign Log {c.hero_files[s].shown})", rule="hero-file",
                        remedy="choose another name")
    why = f"left the party before chapter {h.left}" if h.left else "left the party"
    raise RuleError(f"{h.name} already has a Campaign Log ({c.hero_files[s].shown}) and {why}", rule="hero-file",
                    remedy=f"to bring {h.name} back with their Campaign Log: drunagor hero return "
                           f"{shell_word(h.name)}")


def _starting_gear(gear: Sequence[str], new: bool) -> list[str]:
    """The core box's spelling of each piece of --gear; one it does not know only with --new."""
    return [resolve(g, catalog.starting_gear(), "core-box Starting Gear card", game=True, new=new,
                    new_hint="if it is Starting Gear of another product, add --new to keep it as typed")
            for g in gear]


def owed_notes(hero_name: str, owed: rewards.Tally, why: str) -> list[str]:
    """The lines that list rewards a hero is owed and the commands that record them."""
    if owed.is_zero():
        return []
    lines = [f"{hero_name} is owed {why} (RB L1005-1016): {rewards.describe(owed)}", "record them with:"]
    for field, n in owed.as_dict().items():
        if n:
            lines.append("  " + rules.RECORD_WITH[field][1].format(h=shell_word(hero_name)))
    return lines


def add(c: Campaign, name: str, role: str, *, cls: str | None = None, player: str | None = None,
        gear: Sequence[str] = (), new: bool = False) -> Change:
    """A new hero joins the party before the next chapter, with Dungeon Role cards I and II and up
    to 2 pieces of Starting Gear (RB L984-989); one joining after chapter 01 is owed the recruit
    row's rewards (RB L1005-1016)."""
    try:
        check_name(name, "hero")  # a name that cannot name a file is that (exit 2), whatever it resembles
    except UsageError:
        # but a hero whose log an older drunagor made is that hero (_no_log_yet looks by name first;
        # with no such hero it meets this same refusal)
        _no_log_yet(c, name)
        raise
    core = rules.core_hero_finding(name)
    if core is not None:
        raise core.error()
    hero_name, hero_class = rules.identity(name, cls, new)
    role_ = rules.role_name(role)
    if len(gear) > rules.STARTING_GEAR:
        raise UsageError(f"{len(gear)} pieces of --gear; a new hero starts with {rules.STARTING_GEAR} (RB L989)",
                         remedy="give --gear twice at most; record other items with drunagor hero gain")
    gear_names = _starting_gear(gear, new)
    _no_log_yet(c, hero_name)  # before the room: a hero already in a full party is that, not one too many
    _check_room(c, role_)
    joined = rules.joining_chapter(c.story)
    warnings: list[str] = []
    c.create(c.hero_path(hero_name), _log_text(hero_name, hero_class, role_, player, joined, gear_names))
    notes = owed_notes(hero_name, rewards.recruit_row(joined), f"the new-recruit rewards for chapter {joined}")
    if len(gear_names) < rules.STARTING_GEAR:
        notes.append(f"Starting Gear: {len(gear_names)} of {rules.STARTING_GEAR} recorded (RB L989); add the rest "
                     f"with: drunagor hero gain {shell_word(hero_name)} ITEM --kind starting")
    return Change(f"{hero_name} joins the party before chapter {joined}: {hero_class}, {role_}",
                  tuple(notes), tuple(warnings), {"hero": hero_name, "joined": joined})


def remove(c: Campaign, name: str) -> Change:
    """A hero leaves the party (RB L968-974): Consumables go to the party stash, everything else
    returns to the box; the Campaign Log is kept, marked retired = true."""
    slug, hero = c.hero(name)
    out = rules.leaving(hero)
    doc = c.hero_files[slug].edit()
    edit.clear_entries(doc, "equipment")
    edit.set_value(doc, "retired", True, after=("upgrades", "equipment"))
    edit.delete_key(doc, "returned")  # an earlier return; `left` now says when they left
    left = c.story.next_chapter()
    if left:
        edit.set_value(doc, "left", left, after=("retired",))
    if out.to_stash:
        edit.append_entries(c.story_file.edit(), "stash", out.to_stash)
    parts = [f"{hero.name} leaves the party" + (f" before chapter {left}" if left else "")]
    if out.to_stash:
        parts.append("to the party stash: " + ", ".join(out.to_stash))
    if out.to_box:
        parts.append("back to the box: " + ", ".join(out.to_box))
    if c.story.leader and c.story.leader.casefold() == hero.name.casefold():
        edit.delete_key(c.story_file.edit(), "leader")
        parts.append("the party needs a new Leader (drunagor leader HERO)")
    return Change("; ".join(parts), data={"hero": hero.name, "left": left, "stash": list(out.to_stash),
                                          "box": list(out.to_box)})


# ------------------------------------------------------------------------------------ reading


def hero_data(hero: Hero, story: Any, party: Sequence[Hero]) -> dict:
    """One Campaign Log as plain values (the `hero show --json` shape)."""
    data: dict[str, Any] = {
        "name": hero.name, "class": hero.cls, "role": hero.role, "role_cards": list(rules.ROLE_CARDS),
        "player": hero.player, "joined": hero.joined, "retired": hero.retired, "left": hero.left,
        "returned": hero.returned, "aura": hero.aura, "statuses": list(hero.statuses),
        "class_abilities": list(hero.class_abilities),
        "skills": [{"name": s.name, "tree": s.tree, "level": s.level, "chapter": s.chapter} for s in hero.skills],
        "equipment": [{"name": i.name, "kind": i.kind, "quality": i.quality, "place": i.place, "from": i.given_by}
                      for i in hero.equipment],
        "upgrades": [{"item": u.item, "to": u.to, "discarded": u.discarded or None, "chapter": u.chapter,
                      "reward": u.reward} for u in hero.upgrades],
        "expected": None, "recorded": None, "owes": None, "excess": None,
    }
    if hero.active:
        data["expected"] = rewards.expected(rewards.start(hero), story.track).as_dict()
        data["recorded"] = rewards.recorded(hero, party).as_dict()
        data["owes"] = rewards.owed_for(hero, story, party).as_dict()
        data["excess"] = rewards.excess_for(hero, story, party).as_dict()
    return data


def show(c: Campaign, name: str) -> Change:
    """One Campaign Log (`hero show`): `data` is the `--json` shape."""
    _, hero = c.hero(name, present=False)
    return Change(data=hero_data(hero, c.story, list(c.active_heroes().values())))


def list_heroes(c: Campaign) -> Change:
    """Every hero with the rewards each owes, those who left last (`hero list`)."""
    party = rewards.earned(c.active_heroes().values())
    rows: list[dict[str, Any]] = []
    for h in c.heroes.values():
        rows.append({"name": h.name, "class": h.cls, "role": h.role, "player": h.player, "joined": h.joined,
                     "retired": h.retired, "left": h.left, "returned": h.returned,
                     "owes": rewards.owed_for(h, c.story, party).as_dict() if h.active else None,
                     "excess": rewards.excess_for(h, c.story, party).as_dict() if h.active else None})
    rows.sort(key=lambda r: r["retired"])
    return Change(data={"heroes": rows})


def recruit(c: Campaign | None, chapter: str | None = None) -> Change:
    """The new-recruit table (RB L1005-1016), with the row of `chapter` (default: the campaign's
    next chapter; none without a campaign) marked. `data` is the `recruit --json` shape."""
    marked: str | None = None
    if chapter is not None:
        typed_chapter(chapter)
        try:
            marked = chapter_id(chapter)
        except ValueError:
            raise RuleError(f"no chapter {chapter!r}", remedy="chapters are 01 to 09") from None
    elif c is not None:
        marked = c.story.next_chapter()
    rows = [{"chapter": ch, **r.as_dict()} for ch, r in catalog.recruit_table()]
    return Change(data={"rows": rows, "chapter": marked})


# ------------------------------------------------------------------------------ aura, statuses


def aura(c: Campaign, name: str, aura_name: str | None = None, *, clear: bool = False,
         new: bool = False) -> Change:
    """Set the hero's Aura (one at a time: a new one replaces the old), or clear it. An Aura the
    catalog does not know is recorded only with `new` (--new)."""
    if (aura_name is None) == (not clear):
        raise UsageError("give an AURA or --clear (not both)", remedy="e.g. drunagor hero aura Andreas Bastion")
    slug, hero = c.hero(name)
    doc = c.hero_files[slug].edit()
    if clear:
        edit.delete_key(doc, "aura")
        msg = f"{hero.name} loses the Aura {hero.aura}" if hero.aura else f"{hero.name} has no Aura"
        return Change(msg, data={"hero": hero.name, "aura": None})
    warnings: list[str] = []
    aura_ = _catalog_name(aura_name or "", "auras", new, warnings, extra=(hero.aura,) if hero.aura else ())
    msg = f"{hero.name} has the Aura {aura_}"
    if hero.aura != aura_:
        edit.set_value(doc, "aura", aura_)
        msg += f" (it replaces {hero.aura}: one Aura at a time)" if hero.aura else ""
    return Change(msg, warnings=tuple(warnings), data={"hero": hero.name, "aura": aura_})


def status(c: Campaign, name: str, action: str, status_: str, *, new: bool = False) -> Change:
    """Add or remove a Campaign Log status (all are removed in the Camp phase). A status the
    catalog does not know is added only with `new` (--new)."""
    act = pick(action, ("add", "remove"), "action")
    slug, hero = c.hero(name)
    f = c.hero_files[slug]
    if act == "remove":
        i = find_entry(list(hero.statuses), status_)
        if i is None:
            raise f.refuse(("statuses",), f"{hero.name} does not have the status {status_!r}", rule="hero-status",
                           remedy="statuses: " + (", ".join(hero.statuses) or "none"))
        edit.remove_entry(f.edit(), "statuses", i)
        return Change(f"{hero.name} loses the status {hero.statuses[i]}",
                      data={"hero": hero.name, "status": hero.statuses[i]})
    warnings: list[str] = []
    name_ = _catalog_name(status_, "hero_statuses", new, warnings, extra=hero.statuses)
    if any(s.casefold() == name_.casefold() for s in hero.statuses):
        raise f.refuse(("statuses",), f"{hero.name} already has the status {name_}", rule="hero-status")
    edit.append_entry(f.edit(), "statuses", name_)
    return Change(f"{hero.name} gains the status {name_}", warnings=tuple(warnings),
                  data={"hero": hero.name, "status": name_})


# ---------------------------------------------------------------------------------- corrections


def owes_now(c: Campaign, slug: str, hero: Hero) -> tuple[str, ...]:
    """After a correction: what the hero (as `hero` now is) is owed, if anything."""
    party = [hero if s == slug else h for s, h in c.active_heroes().items()]
    owed = rewards.describe(rewards.owed_for(hero, c.story, party))
    return (f"{hero.name} now owes: {owed}",) if owed else ()


def _set_player(f: TomlFile, hero: Hero, player: str) -> str:
    """`player = ...` (an empty text removes it); what changed, in words."""
    new = player.strip() or None
    if new != hero.player:
        if new is None:
            edit.delete_key(f.edit(), "player")
        else:
            edit.set_value(f.edit(), "player", new, after=("role",))
    return f"player {hero.player or 'none'} -> {new or 'none'}" if new != hero.player else f"player {new or 'none'}"


def _set_role(c: Campaign, slug: str, hero: Hero, role: str, warnings: list[str]) -> str:
    """A Dungeon Role no other active hero has (one Initiative Track slot each, RB L941-943)."""
    role_ = rules.role_name(role)
    if role_ == hero.role:
        return f"role {role_}"
    if hero.active:
        others = [h for s, h in c.active_heroes().items() if s != slug]
        _check_role_free(c, role_, others, f"drunagor hero set {shell_word(hero.name)} --role ROLE")
    edit.set_value(c.hero_files[slug].edit(), "role", role_)
    learned = [s.name for s in hero.skills if s.tree == "role"]
    if learned:
        warnings.append(f"{hero.name}'s Dungeon Role skills ({', '.join(learned)}) were recorded as {hero.role}; "
                        f"relearn those of the {hero.role} cards (drunagor hero relearn {shell_word(hero.name)} "
                        "OLD NEW, RB L1034-1040)")
    return f"role {hero.role} -> {role_}"


def _set_class(f: TomlFile, hero: Hero, cls: str) -> str:
    """The hero's class, as `hero add --class` allows it (RB L947-949)."""
    _, new = rules.identity(hero.name, cls)
    if new == hero.cls:
        return f"class {new}"
    edit.set_value(f.edit(), "class", new)
    return f"class {hero.cls} -> {new}"


def set_hero(c: Campaign, name: str, *, player: str | None = None, role: str | None = None,
             cls: str | None = None) -> Change:
    """Correct a hero's player, Dungeon Role or class; the role and class rules of `hero add` apply."""
    if player is None and role is None and cls is None:
        raise UsageError("nothing to change", remedy="give --player, --role or --class "
                                                     "(e.g. drunagor hero set Nyx --player Dana)")
    slug, hero = c.hero(name, present=False)
    f = c.hero_files[slug]
    parts: list[str] = []
    warnings: list[str] = []
    if role is not None:
        parts.append(_set_role(c, slug, hero, role, warnings))
    if cls is not None:
        parts.append(_set_class(f, hero, cls))
    if player is not None:
        parts.append(_set_player(f, hero, player))
    return Change(f"{hero.name}: " + "; ".join(parts), warnings=tuple(warnings), data={"hero": hero.name})


def return_hero(c: Campaign, name: str, *, player: str | None = None, role: str | None = None) -> Change:
    """A hero who left rejoins the party before the next chapter with their Campaign Log: the
    party's limit and the Dungeon Roles apply as for a new hero (RB L941-943), and they are owed
    what a recruit of that chapter takes (RB L1005-1016) less what the log keeps: their skills and
    Class Abilities. Their Spoils and upgrades went back to the box when they left (RB L972-974)."""
    slug, hero = c.hero(name, present=False)
    f = c.hero_files[slug]
    if hero.active:
        raise f.refuse(("name",), f"{hero.name} is in the party", rule="hero-return",
                       remedy="hero return brings back a hero who left (drunagor hero list shows them)")
    role_ = rules.role_name(role) if role else hero.role
    full = rules.party_full(list(c.active_heroes().values()), c.story.rules.max_heroes)
    if full is not None:
        raise c.story_file.refuse(("rules", "max_heroes"), full.message, rule=full.rule, remedy=full.remedy)
    _check_role_free(c, role_, list(c.active_heroes().values()),
                     f"drunagor hero return {shell_word(hero.name)} --role ROLE")
    back = rules.joining_chapter(c.story)
    doc = f.edit()
    edit.delete_key(doc, "retired")
    edit.set_value(doc, "returned", back)
    if hero.upgrades:
        edit.set_value(doc, "upgrades_before_return", len(hero.upgrades))
    if role_ != hero.role:
        edit.set_value(doc, "role", role_)
    if player is not None:
        _set_player(f, hero, player)
    after = replace(hero, retired=False, returned=back, upgrades_before=len(hero.upgrades), role=role_)
    return Change(f"{hero.name} returns to the party before chapter {back}: {hero.cls}, {role_}"
                  + (f" (left before chapter {hero.left})" if hero.left else ""), _return_notes(c, slug, after),
                  data={"hero": hero.name, "returned": back, "role": role_})


def _return_notes(c: Campaign, slug: str, hero: Hero) -> tuple[str, ...]:
    party = [h for s, h in c.active_heroes().items() if s != slug] + [hero]
    owed = rewards.owed_for(hero, c.story, party)
    notes = owed_notes(hero.name, owed, f"what a recruit before chapter {hero.returned} takes, less what the "
                       "Campaign Log keeps")
    gear = rules.starting_gear(hero)
    if gear < rules.STARTING_GEAR:
        notes.append(f"Starting Gear: {gear} of {rules.STARTING_GEAR} recorded (RB L989); record it with: "
                     f"drunagor hero gain {shell_word(hero.name)} ITEM --kind starting")
    return tuple(notes)


# ------------------------------------------------------------------------------------- camp


def camp(c: Campaign, *, dry_run: bool = False) -> Change:
    """The Camp phase, between adventures: every active hero's Campaign Log statuses are removed
    (`data["cleared"]`, what goes; nothing with `dry_run`); `data` says what may be done now (Chest
    deck, RB L361; Spoils upgrades, RB L411-419; rewards owed; the stash). Refused while an
    adventure is under way: its statuses still matter at the table."""
    f = c.adventure_file
    if f is not None:
        raise RuleError(f"the adventure of chapter {f.data.get('chapter')} is under way, and the Camp phase comes "
                        "between adventures", file=f.shown, rule="camp",
                        remedy="end the adventure first (drunagor adventure end --won|--lost)")
    story = c.story
    active = c.active_heroes()
    party = list(active.values())
    cleared = {h.name: list(h.statuses) for h in active.values() if h.statuses}
    if not dry_run:
        for slug, h in active.items():
            if h.statuses:
                edit.clear_entries(c.hero_files[slug].edit(), "statuses")
    epic = [k for k, v in story.cards.items() if isinstance(v, dict) and v.get("epic") is True]
    upgrades = [{"hero": h.name, "item": o.item, "from": o.from_quality, "to": o.to_quality,
                 "discard": list(o.discards)} for h in party for o in rules.upgrade_options(h, epic)]
    given = rewards.earned(party)
    owes = {h.name: rewards.owed_for(h, story, given).as_dict() for h in party}
    summary, notes = _camp_lines(cleared, dry_run)
    return Change(summary, notes=notes,
                  data={"cleared": cleared, "dry_run": dry_run, "chest_deck": chest.summary(story)["text"],
                        "upgrades": upgrades, "owes": owes, "stash": list(story.stash),
                        "finished": story.next_chapter() is None, "chest_blocked": chest_may_change(c)})


def _camp_lines(cleared: dict[str, list[str]], dry_run: bool) -> tuple[str, tuple[str, ...]]:
    """What `camp` says: the statuses it removes, listed first (before they are written away), then
    its line. A dry run saves nothing, so its line is a note too and there is no summary."""
    listing = ("Camp phase: the Campaign Log statuses go:",
               *(f"  {name}: {', '.join(statuses)}" for name, statuses in cleared.items())) if cleared else ()
    n = sum(len(s) for s in cleared.values())
    if not cleared:
        line = "Camp phase: no Campaign Log statuses to remove"
    elif dry_run:
        line = f"dry run: nothing removed; drunagor camp removes {'it' if n == 1 else 'them'}"
    else:
        line = f"Camp phase: {n} Campaign Log status{'' if n == 1 else 'es'} removed"
    return ("", (*listing, line)) if dry_run else (line, listing)

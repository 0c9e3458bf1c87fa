"""Campaign Logs: what a player does to a hero (SPEC 4 "Heroes", 5.1, 5.3; RB L939-1052).

One TOML file per hero under heroes/. Each function takes an open `Campaign` (for writing, when it
writes), resolves the names typed, asks `rules/heroes.py` and `rules/rewards.py` whether the action
is allowed, edits the files through `store.edit`, and returns a `Change`; a refusal is a
`DrunagorError`. Nothing is on disk until the campaign is saved.

    with Campaign(root, write=True) as c:
        change = heroes.learn(c, "Nyx", "Quick Strike", tree="melee", level=1)
        c.save()

The lists a log records (`skills`, `class_abilities`, `equipment`, `statuses`) keep one entry per
line, so two players editing one log merge well in git.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Sequence

from .. import catalog
from ..errors import RuleError, UsageError
from ..model import EQUIPMENT_KINDS, QUALITIES, TREES, Hero, Item, Skill, chapter_id
from ..names import article, check_name, closest, known, lookup, match, near_miss, resolve, resolve_known
from ..rules import chest, rewards
from ..rules import heroes as rules
from ..store import edit
from ..store.tomltext import basic_string
from ..values import replace
from . import Change
from .adventure import chest_may_change

if TYPE_CHECKING:
    from ..campaign import Campaign
    from ..store import TomlFile

STASH = "stash"  # `hero give stash TO ITEM`: the party stash in story.toml


# ------------------------------------------------------------------------------------ finding


def active_hero(c: Campaign, query: str) -> tuple[str, Hero]:
    """The hero `query` names (any case, a unique prefix), refused if they left the party."""
    slug, hero = c.find_hero(query)
    if hero.retired:
        f = c.hero_files[slug]
        raise RuleError(f"{hero.name} has left the party" + (f" (before chapter {hero.left})" if hero.left else ""),
                        file=f.shown, line=f.line(("retired",)), rule="retired",
                        remedy=f"choose an active hero, or bring {hero.name} back: drunagor hero return "
                               f"{rules.quote(hero.name)}")
    return slug, hero


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


def _held_item(c: Campaign, slug: str, hero: Hero, query: str, doing: str, to: Hero | None = None) -> int:
    """Index in the hero's equipment of the card `query` names, else a refusal that says who has
    it and the command that would do what was meant (one that is not refused itself)."""
    i = find_entry([e.name for e in hero.equipment], query)
    if i is not None:
        return i

    held = _holder(c, hero, query)
    q = rules.quote
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
    raise RuleError(f"{hero.name} does not have {query!r} to {doing}", file=f.shown, line=f.line(("equipment",)),
                    rule="equipment", remedy=remedy)


def _refuse(f: TomlFile, key: str | None, message: str, rule: str, remedy: str | None = None) -> RuleError:
    return RuleError(message, file=f.shown, line=f.line((key,)) if key else None, rule=rule, remedy=remedy)


def _pick(query: str, options: Iterable[str], what: str, game: bool = False) -> str:
    """One of `options` (exit 1 when they are names of the game, as the skill trees; 2 for drunagor's
    own words, as an action or a fact flag's value)."""
    return lookup(query, {o: o for o in options}, what, game=game)


def _catalog_name(query: str, kind: str, new: bool, warnings: list[str], extra: Sequence[str] = ()) -> str:
    """The catalog's name of `kind` that `query` means (names.resolve_known; `extra`: names the log
    already holds); a name it does not know only with `new` (the user's --new), with a warning when
    it is close to a known one."""
    what = {"auras": "Aura", "hero_statuses": "hero status"}[kind]
    name = resolve_known(query, kind, new=new, extra=extra,
                         new_hint=f"if it is {article(what)} {what} drunagor does not know, add --new to record it")
    names = known(kind)[0]
    hint = near_miss(name, names) if name not in names and name not in extra else None
    if hint:
        warnings.append(f"{name!r} is recorded as a new {what}; drunagor knows {hint!r}")
    return name


def _excess_warning(c: Campaign, slug: str, hero: Hero) -> tuple[str, ...]:
    """After recording a reward: a warning if the log (as `hero` now is) holds more than the
    chapters give."""
    party = [hero if s == slug else h for s, h in c.active_heroes().items()]
    over = rewards.describe(rewards.excess_for(hero, c.story, party))
    if not over:
        return ()
    return (f"{hero.name} now has {over} more than the chapters completed since joining give "
            "(rewards, SPEC 5.3; drunagor check reports it)",)


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
        raise full.error(c.story_file.shown, c.story_file.line(("rules", "max_heroes")))
    _check_role_free(c, role, active)


def _check_role_free(c: Campaign, role: str, others: Sequence[Hero], how: str = "") -> None:
    """One hero per Dungeon Role among `others` (the active heroes but the one taking `role`);
    `how` says how to choose another ("--role ROLE")."""
    taken = rules.role_taken(role, others)
    if taken is not None:
        slug = next(s for s, h in c.active_heroes().items() if h.name == taken.hero)
        error = taken.error(c.hero_files[slug].shown, c.hero_files[slug].line(("role",)))
        if how and error.remedy and error.remedy.startswith("choose a free role"):
            error.remedy += f" ({how})"
        raise error


def _no_log_yet(c: Campaign, hero_name: str) -> None:
    path = c.hero_path(hero_name)
    existing = next(((s, h) for s, h in c.heroes.items()
                     if s == path.stem or h.name.casefold() == hero_name.casefold()), None)
    if existing is None:
        return
    s, h = existing
    if not h.retired:
        raise RuleError(f"{h.name} is already in the party (Campaign Log {c.hero_files[s].shown})", rule="hero-file",
                        remedy="choose another name")
    why = f"left the party before chapter {h.left}" if h.left else "left the party"
    raise RuleError(f"{h.name} already has a Campaign Log ({c.hero_files[s].shown}) and {why}", rule="hero-file",
                    remedy=f"to bring {h.name} back with their Campaign Log: drunagor hero return "
                           f"{rules.quote(h.name)}")


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
            lines.append("  " + rules.RECORD_WITH[field][1].format(h=rules.quote(hero_name)))
    return lines


def add(c: Campaign, name: str, role: str, *, cls: str | None = None, player: str | None = None,
        gear: Sequence[str] = (), new: bool = False) -> Change:
    """A new hero joins the party before the next chapter, with Dungeon Role cards I and II and up
    to 2 pieces of Starting Gear (RB L984-989); one joining after chapter 01 is owed the recruit
    row's rewards (RB L1005-1016)."""
    check_name(name, "hero")  # a name that cannot name a file is that (exit 2), whatever it resembles
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
                     f"with: drunagor hero gain {rules.quote(hero_name)} ITEM --kind starting")
    return Change(f"{hero_name} joins the party before chapter {joined}: {hero_class}, {role_}",
                  tuple(notes), tuple(warnings), {"hero": hero_name, "joined": joined})


def remove(c: Campaign, name: str) -> Change:
    """A hero leaves the party (RB L968-974): Consumables go to the party stash, everything else
    returns to the box; the Campaign Log is kept, marked retired = true."""
    slug, hero = active_hero(c, name)
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
    _, hero = c.find_hero(name)
    return Change(data=hero_data(hero, c.story, list(c.active_heroes().values())))


def list_heroes(c: Campaign) -> Change:
    """Every hero with the rewards each owes, those who left last (`hero list`)."""
    party = list(c.active_heroes().values())
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
        try:
            marked = chapter_id(chapter)
        except ValueError:
            raise RuleError(f"no chapter {chapter!r}", remedy="chapters are 01 to 09") from None
    elif c is not None:
        marked = c.story.next_chapter()
    rows = [{"chapter": ch, **r.as_dict()} for ch, r in catalog.recruit_table()]
    return Change(data={"rows": rows, "chapter": marked})


# ---------------------------------------------------------------------- skills and abilities


def learn(c: Campaign, name: str, skill: str, *, tree: str, level: int) -> Change:
    """Record a Hero or Dungeon Role Skill, against the last chapter completed since joining."""
    tree_ = _pick(tree, TREES, "skill tree", game=True)
    if level not in (1, 2):
        raise UsageError(f"--level must be 1 or 2, not {level}", remedy="skills have Level 1 and Level 2")
    slug, hero = active_hero(c, name)
    skill = skill.strip()
    f = c.hero_files[slug]
    if any(s.name.casefold() == skill.casefold() for s in hero.skills):
        raise _refuse(f, "skills", f"{hero.name} already knows {skill!r}", "skills",
                      "a skill is learned once; to choose another, use drunagor hero relearn")
    chapter = rules.last_completed(c.story, rewards.start(hero))
    edit.append_entry(f.edit(), "skills", {"name": skill, "tree": tree_, "level": level, "chapter": chapter})
    after = replace(hero, skills=hero.skills + (Skill(skill, tree_, level, chapter),))
    return Change(f"{hero.name} learns {skill} ({tree_}, Level {level})",
                  warnings=_excess_warning(c, slug, after), data={"hero": hero.name, "skill": skill})


def ability(c: Campaign, name: str, ability_: str) -> Change:
    """Record a Class Ability the hero gained."""
    slug, hero = active_hero(c, name)
    ability_ = ability_.strip()
    f = c.hero_files[slug]
    if any(a.casefold() == ability_.casefold() for a in hero.class_abilities):
        raise _refuse(f, "class_abilities", f"{hero.name} already has the Class Ability {ability_!r}",
                      "class-abilities", "to choose another, use drunagor hero relearn")
    edit.append_entry(f.edit(), "class_abilities", ability_)
    after = replace(hero, class_abilities=hero.class_abilities + (ability_,))
    return Change(f"{hero.name} gains the Class Ability {ability_}", warnings=_excess_warning(c, slug, after),
                  data={"hero": hero.name, "ability": ability_})


def _relearn_skill(f: TomlFile, hero: Hero, si: int, new: str, tree: str | None) -> str:
    s = hero.skills[si]
    if any(o.name.casefold() == new.casefold() for j, o in enumerate(hero.skills) if j != si):
        raise _refuse(f, "skills", f"{hero.name} already knows {new!r}", "relearn",
                      "choose a skill the hero does not have")
    edit.replace_entry(f.edit(), "skills", si, {"name": new, "tree": tree or s.tree, "level": s.level,
                                                "chapter": s.chapter})
    return f"{s.name} for {new} ({tree or s.tree}, Level {s.level})"


def _relearn_ability(f: TomlFile, hero: Hero, ai: int, new: str) -> str:
    a = hero.class_abilities[ai]
    if any(o.casefold() == new.casefold() for j, o in enumerate(hero.class_abilities) if j != ai):
        raise _refuse(f, "class_abilities", f"{hero.name} already has the Class Ability {new!r}", "relearn",
                      "choose a Class Ability the hero does not have")
    edit.replace_entry(f.edit(), "class_abilities", ai, new)
    return f"the Class Ability {a} for {new}"


def relearn(c: Campaign, name: str, old: str, new: str, *, tree: str | None = None) -> Change:
    """Relearning (RB L1034-1040): a skill or Class Ability re-chosen; the counts stay the same. A
    skill keeps its level and chapter."""
    tree_ = _pick(tree, TREES, "skill tree", game=True) if tree else None
    slug, hero = active_hero(c, name)
    f = c.hero_files[slug]
    new = new.strip()
    si = find_entry([s.name for s in hero.skills], old)
    ai = find_entry(list(hero.class_abilities), old)
    if si is not None and ai is not None:
        raise UsageError(f"{old!r} names both a skill and a Class Ability of {hero.name}", remedy="type the full name")
    if si is None and ai is None:
        known = [s.name for s in hero.skills] + list(hero.class_abilities)
        hint = closest(old, known)
        raise _refuse(f, None, f"{hero.name} has no skill or Class Ability called {old!r}", "relearn",
                      (f"did you mean {hint!r}? " if hint else "") + "known: " + (", ".join(known) or "none"))
    if si is not None:
        what = _relearn_skill(f, hero, si, new, tree_)
    else:
        if tree_:
            raise UsageError("--tree is for skills; a Class Ability has no tree")
        what = _relearn_ability(f, hero, ai, new)  # type: ignore[arg-type]
    return Change(f"{hero.name} relearns: {what} (RB L1034-1040)", data={"hero": hero.name, "new": new})


# ------------------------------------------------------------------------------------ equipment


def _gained_item(c: Campaign, item: str, kind_given: bool, new: bool) -> str:
    """The name a gained card is written under: the one the catalog or [cards] knows that `item`
    means (the one resolver). A card neither knows is new only when the user says so: --new, or its
    kind given (--kind, the fact flag) for a name that is no near miss of a known card (SPEC 10:
    "Leathr Armor" is refused with "did you mean 'Leather Armor'", nothing written)."""
    remedy = ("if it is a card drunagor does not know, say its kind once with --kind "
              "starting|spoils|adventure|epic|consumable (remembered under [cards] in story.toml)")
    return resolve_known(item, "items", extra=c.story.cards, new=new, facts=kind_given, new_hint=remedy)


def _check_not_held(c: Campaign, slug: str, hero: Hero, item_name: str, kind: str) -> None:
    """One card of each: the hero has none already, nor (for Spoils and Adventure Items) another."""
    if kind == "consumable":
        return
    if hero.item(item_name):
        raise _refuse(c.hero_files[slug], "equipment", f"{hero.name} already has {item_name}", "equipment",
                      "there is one card of each; to move it, use hero equip/unequip")
    if kind in ("spoils", "adventure", "epic"):
        other = next((h for h in c.active_heroes().values() if h is not hero and h.item(item_name)), None)
        if other is not None:
            raise RuleError(f"{other.name} holds {item_name}, and there is one card of it", rule="equipment",
                            remedy=f"hand it over: drunagor hero give {rules.quote(other.name)} "
                                   f"{rules.quote(hero.name)} {rules.quote(item_name)}")


def _check_not_stored(c: Campaign, item_name: str, quality: str | None) -> None:
    stored = rules.stored_entry(c.story, item_name, quality)
    if stored is not None:
        raise RuleError(f"{item_name} is stored ({stored!r} in `stored`): a card disposed of in an upgrade "
                        "or taken out of the campaign can never be gained again this campaign (RB L429-431)",
                        file=c.story_file.shown, line=c.story_file.line(("stored",)), rule="stored",
                        remedy="choose another card")


def gain(c: Campaign, name: str, item: str, *, kind: str | None = None, quality: str | None = None,
         bag: bool = False, new: bool = False) -> Change:
    """The hero gains a card, equipped or in the bag (Consumables always go to the bag). Its kind
    comes from the catalog or [cards]; a card neither knows needs `kind` once, remembered under
    [cards]. A card in `stored` is never gained again (RB L429-431)."""
    kind_ = _pick(kind, EQUIPMENT_KINDS, "equipment kind") if kind else None
    quality_ = _pick(quality, QUALITIES, "quality") if quality else None
    slug, hero = active_hero(c, name)
    warnings: list[str] = []
    item_name = _gained_item(c, item, kind_ is not None, new)
    choice = rules.gained_kind(item_name, kind_, quality_, catalog.item_kind(item_name),
                               rules.recorded_kind(c.story, item_name))
    _check_not_stored(c, item_name, choice.quality)
    _check_not_held(c, slug, hero, item_name, choice.kind)
    place = "bag" if bag or choice.kind == "consumable" else "equipped"
    entry = Item(item_name, choice.kind, choice.quality, place)
    edit.append_entry(c.hero_files[slug].edit(), "equipment", _item_fields(entry))
    notes: tuple[str, ...] = ()
    if choice.remember:
        edit.set_card_facts(c.story_file.edit(), item_name, rules.kind_facts(choice.kind))
        article = "an" if choice.kind[0] in "aeiou" else "a"
        notes = (f"remembered under [cards] in story.toml: {item_name} is {article} {choice.kind} card",)
    if choice.kind == "spoils":
        warnings += _excess_warning(c, slug, replace(hero, equipment=hero.equipment + (entry,)))
    gear = rules.starting_gear(hero) + (choice.kind == "starting")
    if gear > rules.STARTING_GEAR:  # said now, not only by `check` (RB L989)
        warnings.append(f"{hero.name} now has {gear} pieces of Starting Gear, but a hero starts with "
                        f"{rules.STARTING_GEAR} and finds no more (RB L989; drunagor check reports it)")
    where = "in the bag" if place == "bag" else "equipped"
    q = f", {choice.quality}" if choice.kind == "spoils" else ""
    return Change(f"{hero.name} gains {item_name} ({choice.kind}{q}, {where})", notes, tuple(warnings),
                  {"hero": hero.name, "item": item_name, "kind": choice.kind, "quality": choice.quality,
                   "place": place})


def _item_fields(i: Item) -> dict:
    return {"name": i.name, "kind": i.kind, "quality": i.quality, "place": i.place, "from": i.given_by}


def drop(c: Campaign, name: str, item: str) -> Change:
    """A card leaves the hero's Campaign Log (used, discarded, lost)."""
    slug, hero = active_hero(c, name)
    i = _held_item(c, slug, hero, item, "drop")
    edit.remove_entry(c.hero_files[slug].edit(), "equipment", i)
    return Change(f"{hero.name} drops {hero.equipment[i].name}", data={"hero": hero.name,
                                                                       "item": hero.equipment[i].name})


def _from_stash(c: Campaign, item: str) -> Item:
    """Take a card out of the party stash: the Item it becomes in a bag."""
    stash = list(c.story.stash)
    i = find_entry(stash, item)
    if i is None:
        raise RuleError(f"the party stash holds no {item!r}", file=c.story_file.shown,
                        line=c.story_file.line(("stash",)), rule="stash",
                        remedy="the stash holds: " + (", ".join(stash) or "nothing"))
    item_name = stash[i]
    kind = catalog.item_kind(item_name) or rules.recorded_kind(c.story, item_name) or "consumable"
    edit.remove_entry(c.story_file.edit(), "stash", i)
    return Item(item_name, kind, "standard" if kind == "spoils" else None, "bag")


def _from_hero(c: Campaign, giver: str, receiver: Hero, to_slug: str, item: str) -> tuple[Hero, Item]:
    """Take a card out of a hero's log: the Item it becomes in the receiver's bag. A Spoils card
    keeps naming the hero who earned it (`from`), unless it goes back to them."""
    slug, hero = active_hero(c, giver)
    if slug == to_slug:
        raise UsageError(f"{hero.name} cannot give a card to themselves")
    i = _held_item(c, slug, hero, item, "give", to=receiver)
    entry = hero.equipment[i]
    if entry.kind != "consumable" and receiver.item(entry.name):
        raise RuleError(f"{receiver.name} already has {entry.name}", rule="equipment")
    earner = entry.given_by or (hero.name if entry.kind == "spoils" else None)
    if earner and earner.casefold() == receiver.name.casefold():
        earner = None  # back with the hero who earned it
    edit.remove_entry(c.hero_files[slug].edit(), "equipment", i)
    return hero, Item(entry.name, entry.kind, entry.quality, "bag", earner)


def _to_stash(c: Campaign, giver: str, item: str) -> Change:
    """A Consumable back into the party stash (the inverse of `hero give stash HERO ITEM`): the
    stash holds only Consumables (RB L972-974)."""
    slug, hero = active_hero(c, giver)
    i = _held_item(c, slug, hero, item, "give")
    entry = hero.equipment[i]
    if entry.kind != "consumable":
        raise _refuse(c.hero_files[slug], "equipment", f"{entry.name} is not a Consumable Item, and the party "
                      "stash holds only Consumables (RB L972-974)", "stash",
                      f"to take it out of the Campaign Log: drunagor hero drop {rules.quote(hero.name)} "
                      f"{rules.quote(entry.name)}")
    edit.remove_entry(c.hero_files[slug].edit(), "equipment", i)
    edit.append_entry(c.story_file.edit(), "stash", entry.name)
    return Change(f"{hero.name} puts {entry.name} in the party stash",
                  data={"from": hero.name, "to": STASH, "item": entry.name})


def give(c: Campaign, giver: str, to: str, item: str) -> Change:
    """Hand a card to another hero's bag; `giver` "stash" hands one out from the party stash, `to`
    "stash" puts a Consumable back there."""
    from_stash, to_stash = (x.strip().casefold() == STASH for x in (giver, to))
    if from_stash and to_stash:
        raise UsageError("give from the stash to a hero, or from a hero to the stash")
    if to_stash:
        return _to_stash(c, giver, item)
    to_slug, receiver = active_hero(c, to)
    if from_stash:
        moved = _from_stash(c, item)
        summary = f"{receiver.name} takes {moved.name} from the party stash (in the bag)"
        source = STASH
    else:
        hero, moved = _from_hero(c, giver, receiver, to_slug, item)
        summary = f"{hero.name} gives {moved.name} to {receiver.name} (in the bag)"
        source = hero.name
    edit.append_entry(c.hero_files[to_slug].edit(), "equipment", _item_fields(moved))
    return Change(summary, data={"from": source, "to": receiver.name, "item": moved.name})


def place(c: Campaign, name: str, item: str, where: str) -> Change:
    """Move a card the hero has to `where`: "equipped" or "bag" (a Consumable is never equipped)."""
    slug, hero = active_hero(c, name)
    i = _held_item(c, slug, hero, item, "equip" if where == "equipped" else "unequip")
    entry = hero.equipment[i]
    if where == "equipped" and entry.kind == "consumable":
        raise _refuse(c.hero_files[slug], "equipment", f"{entry.name} is a Consumable Item: it is carried in "
                      "the bag and used, never equipped", "equipment")
    if entry.place != where:
        edit.set_entry_field(c.hero_files[slug].edit(), "equipment", i, "place", where)
    done = f"equips {entry.name}" if where == "equipped" else f"puts {entry.name} in the bag"
    return Change(f"{hero.name} {done}", data={"hero": hero.name, "item": entry.name, "place": where})


def equip(c: Campaign, name: str, item: str) -> Change:
    """Equip a card the hero has in the bag."""
    return place(c, name, item, "equipped")


def unequip(c: Campaign, name: str, item: str) -> Change:
    """Put an equipped card in the hero's bag."""
    return place(c, name, item, "bag")


# ------------------------------------------------------------------------------ aura, statuses


def aura(c: Campaign, name: str, aura_name: str | None = None, *, clear: bool = False,
         new: bool = False) -> Change:
    """Set the hero's Aura (one at a time: a new one replaces the old), or clear it. An Aura the
    catalog does not know is recorded only with `new` (--new)."""
    if (aura_name is None) == (not clear):
        raise UsageError("give an AURA or --clear (not both)", remedy="e.g. drunagor hero aura Andreas Bastion")
    slug, hero = active_hero(c, name)
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
    act = _pick(action, ("add", "remove"), "action")
    slug, hero = active_hero(c, name)
    f = c.hero_files[slug]
    if act == "remove":
        i = find_entry(list(hero.statuses), status_)
        if i is None:
            raise _refuse(f, "statuses", f"{hero.name} does not have the status {status_!r}", "hero-status",
                          "statuses: " + (", ".join(hero.statuses) or "none"))
        edit.remove_entry(f.edit(), "statuses", i)
        return Change(f"{hero.name} loses the status {hero.statuses[i]}",
                      data={"hero": hero.name, "status": hero.statuses[i]})
    warnings: list[str] = []
    name_ = _catalog_name(status_, "hero_statuses", new, warnings, extra=hero.statuses)
    if any(s.casefold() == name_.casefold() for s in hero.statuses):
        raise _refuse(f, "statuses", f"{hero.name} already has the status {name_}", "hero-status")
    edit.append_entry(f.edit(), "statuses", name_)
    return Change(f"{hero.name} gains the status {name_}", warnings=tuple(warnings),
                  data={"hero": hero.name, "status": name_})


# ---------------------------------------------------------------------------------- corrections


def _own_entry(f: TomlFile, hero: Hero, names: Sequence[str], query: str, what: str, key: str) -> int:
    """Index of the entry of the hero's list `key` that `query` names, else a refusal with the
    closest one."""
    i = find_entry(names, query)
    if i is not None:
        return i
    hint = closest(query, names)
    plural = {"skill": "skills", "Class Ability": "Class Abilities"}[what]
    remedy = f"did you mean {hint!r}?" if hint else f"{plural}: " + (", ".join(names) or "none")
    raise _refuse(f, key, f"{hero.name} has no {what} called {query!r}", key.replace("_", "-"), remedy)


def _owes_now(c: Campaign, slug: str, hero: Hero) -> tuple[str, ...]:
    """After a correction: what the hero (as `hero` now is) is owed, if anything."""
    party = [hero if s == slug else h for s, h in c.active_heroes().items()]
    owed = rewards.describe(rewards.owed_for(hero, c.story, party))
    return (f"{hero.name} now owes: {owed}",) if owed else ()


def unlearn(c: Campaign, name: str, skill: str) -> Change:
    """Take back a skill recorded by mistake (`hero learn`'s inverse): its entry leaves the log."""
    slug, hero = active_hero(c, name)
    f = c.hero_files[slug]
    i = _own_entry(f, hero, [s.name for s in hero.skills], skill, "skill", "skills")
    gone = hero.skills[i]
    edit.remove_entry(f.edit(), "skills", i)
    after = replace(hero, skills=hero.skills[:i] + hero.skills[i + 1:])
    return Change(f"{hero.name} unlearns {gone.name} ({gone.tree}, Level {gone.level})", _owes_now(c, slug, after),
                  data={"hero": hero.name, "skill": gone.name})


def forget(c: Campaign, name: str, ability_: str) -> Change:
    """Take back a Class Ability recorded by mistake (`hero ability`'s inverse)."""
    slug, hero = active_hero(c, name)
    f = c.hero_files[slug]
    i = _own_entry(f, hero, hero.class_abilities, ability_, "Class Ability", "class_abilities")
    gone = hero.class_abilities[i]
    edit.remove_entry(f.edit(), "class_abilities", i)
    after = replace(hero, class_abilities=hero.class_abilities[:i] + hero.class_abilities[i + 1:])
    return Change(f"{hero.name} forgets the Class Ability {gone}", _owes_now(c, slug, after),
                  data={"hero": hero.name, "ability": gone})


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
        _check_role_free(c, role_, others, f"drunagor hero set {rules.quote(hero.name)} --role ROLE")
    edit.set_value(c.hero_files[slug].edit(), "role", role_)
    learned = [s.name for s in hero.skills if s.tree == "role"]
    if learned:
        warnings.append(f"{hero.name}'s Dungeon Role skills ({', '.join(learned)}) were recorded as {hero.role}; "
                        f"relearn those of the {hero.role} cards (drunagor hero relearn {rules.quote(hero.name)} "
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
    slug, hero = c.find_hero(name)
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
    slug, hero = c.find_hero(name)
    f = c.hero_files[slug]
    if hero.active:
        raise _refuse(f, "name", f"{hero.name} is in the party", "hero-return",
                      "hero return brings back a hero who left (drunagor hero list shows them)")
    role_ = rules.role_name(role) if role else hero.role
    full = rules.party_full(list(c.active_heroes().values()), c.story.rules.max_heroes)
    if full is not None:
        raise full.error(c.story_file.shown, c.story_file.line(("rules", "max_heroes")))
    _check_role_free(c, role_, list(c.active_heroes().values()),
                     f"drunagor hero return {rules.quote(hero.name)} --role ROLE")
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
                     f"drunagor hero gain {rules.quote(hero.name)} ITEM --kind starting")
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
    owes = {h.name: rewards.owed_for(h, story, party).as_dict() for h in party}
    n = sum(len(s) for s in cleared.values())
    if not cleared:
        msg = "Camp phase: no Campaign Log statuses to remove"
    elif dry_run:
        msg = f"dry run: nothing removed; drunagor camp removes {'it' if n == 1 else 'them'}"
    else:
        msg = f"Camp phase: {n} Campaign Log status{'' if n == 1 else 'es'} removed"
    return Change(msg, data={"cleared": cleared, "dry_run": dry_run, "chest_deck": chest.summary(story)["text"],
                             "upgrades": upgrades, "owes": owes, "stash": list(story.stash),
                             "finished": story.next_chapter() is None, "chest_blocked": chest_may_change(c)})

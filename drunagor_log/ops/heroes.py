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

from ..errors import RuleError, UsageError
from ..model import EQUIPMENT_KINDS, QUALITIES, TREES, Hero, Item, Skill
from ..rules import heroes as rules
from ..rules import rewards
from ..store import edit
from ..store.tomltext import basic_string
from ..values import replace
from . import Change

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
                        remedy="their Campaign Log is kept for the record; choose an active hero")
    return slug, hero


def find_entry(names: Sequence[str], query: str) -> int | None:
    """Index of the entry `query` names: exact (any case), else a unique prefix; None if none."""
    q = query.strip().casefold()
    exact = [i for i, n in enumerate(names) if n.casefold() == q]
    if exact:
        return exact[0]
    prefixed = sorted({n for n in names if q and n.casefold().startswith(q)})
    if len(prefixed) == 1:
        return next(i for i, n in enumerate(names) if n == prefixed[0])
    if prefixed:
        raise UsageError(f"{query!r} could be any of: {', '.join(prefixed)}", remedy="type more of the name")
    return None


def _held_item(c: Campaign, slug: str, hero: Hero, query: str, doing: str) -> int:
    """Index in the hero's equipment of the card `query` names, else a refusal saying who has it."""
    i = find_entry([e.name for e in hero.equipment], query)
    if i is not None:
        return i
    from ..names import closest

    holder = next((h for h in c.active_heroes().values() if h is not hero and h.item(query)), None)
    if holder is not None:
        remedy = (f"{holder.name} has it: drunagor hero give {rules.quote(holder.name)} {rules.quote(hero.name)} "
                  f"{rules.quote(query)}")
    else:
        hint = closest(query, [e.name for e in hero.equipment])
        remedy = (f"did you mean {hint!r}?" if hint else
                  f"{hero.name} has: " + (", ".join(e.name for e in hero.equipment) or "nothing"))
    f = c.hero_files[slug]
    raise RuleError(f"{hero.name} does not have {query!r} to {doing}", file=f.shown, line=f.line(("equipment",)),
                    rule="equipment", remedy=remedy)


def _refuse(f: TomlFile, key: str | None, message: str, rule: str, remedy: str | None = None) -> RuleError:
    return RuleError(message, file=f.shown, line=f.line((key,)) if key else None, rule=rule, remedy=remedy)


def _pick(query: str, options: Iterable[str], what: str) -> str:
    from ..names import lookup

    return lookup(query, {o: o for o in options}, what)


def _name_or_warn(name: str, kind: str, what: str, warnings: list[str]) -> str:
    """A catalog name in catalog spelling; an unknown one is kept as typed, with a warning."""
    from .. import catalog

    known = catalog.names(kind)
    exact = catalog.canonical(name, known)
    if exact:
        return exact
    hint = catalog.closest(name, known)
    article = "an" if what[0].lower() in "aeiou" else "a"
    warnings.append(f"{name!r} is not {article} {what} drunagor knows" + (f"; did you mean {hint!r}?" if hint else "")
                    + " (kept as typed)")
    return name.strip()


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


def _check_room(c: Campaign, role: str, *, coming: str | None = None) -> None:
    """Room in the party for one more hero (RB L943), and the Dungeon Role free."""
    active = [h for h in c.active_heroes().values() if h.name != coming]
    full = rules.party_full(active, c.story.rules.max_heroes)
    if full is not None:
        raise full.error(c.story_file.shown, c.story_file.line(("rules", "max_heroes")))
    taken = rules.role_taken(role, active)
    if taken is not None:
        slug = next(s for s, h in c.active_heroes().items() if h.name == taken.hero)
        raise taken.error(c.hero_files[slug].shown, c.hero_files[slug].line(("role",)))


def _no_log_yet(c: Campaign, hero_name: str) -> None:
    path = c.hero_path(hero_name)
    existing = next(((s, h) for s, h in c.heroes.items()
                     if s == path.stem or h.name.casefold() == hero_name.casefold()), None)
    if existing is None:
        return
    s, h = existing
    why = f"left the party before chapter {h.left}" if h.retired and h.left else (
        "left the party" if h.retired else "is in the party")
    raise RuleError(f"{h.name} already has a Campaign Log ({c.hero_files[s].shown}) and {why}",
                    rule="hero-file", remedy="choose another name" + (
                        "; a hero who left keeps the log for the record" if h.retired else ""))


def _starting_gear(gear: Sequence[str], warnings: list[str]) -> list[str]:
    from .. import catalog

    names = []
    for g in gear:
        known = catalog.starting_gear_item(g)
        if known is None:
            hint = catalog.closest(g, catalog.starting_gear())
            warnings.append(f"{g!r} is not a core-box Starting Gear card drunagor knows"
                            + (f"; did you mean {hint!r}?" if hint else "") + " (kept as typed)")
        names.append(known["name"] if known else g.strip())
    return names


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
        gear: Sequence[str] = ()) -> Change:
    """A new hero joins the party before the next chapter, with Dungeon Role cards I and II and up
    to 2 pieces of Starting Gear (RB L984-989); one joining after chapter 01 is owed the recruit
    row's rewards (RB L1005-1016)."""
    core = rules.core_hero_finding(name)
    if core is not None:
        raise core.error()
    hero_name, hero_class = rules.identity(name, cls)
    role_ = rules.role_name(role)
    if len(gear) > rules.STARTING_GEAR:
        raise UsageError(f"{len(gear)} pieces of --gear; a new hero starts with {rules.STARTING_GEAR} (RB L989)",
                         remedy="give --gear twice at most; record other items with drunagor hero gain")
    _check_room(c, role_)
    _no_log_yet(c, hero_name)
    joined = rules.joining_chapter(c.story)
    warnings: list[str] = []
    gear_names = _starting_gear(gear, warnings)
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
    edit.set_value(doc, "retired", True)
    left = c.story.next_chapter()
    if left:
        edit.set_value(doc, "left", left)
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
        "aura": hero.aura, "statuses": list(hero.statuses), "class_abilities": list(hero.class_abilities),
        "skills": [{"name": s.name, "tree": s.tree, "level": s.level, "chapter": s.chapter} for s in hero.skills],
        "equipment": [{"name": i.name, "kind": i.kind, "quality": i.quality, "place": i.place, "from": i.given_by}
                      for i in hero.equipment],
        "upgrades": [{"item": u.item, "to": u.to, "discarded": u.discarded, "chapter": u.chapter}
                     for u in hero.upgrades],
        "expected": None, "recorded": None, "owes": None, "excess": None,
    }
    if hero.active:
        data["expected"] = rewards.expected(hero.joined, story.track).as_dict()
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
                     "retired": h.retired, "left": h.left,
                     "owes": rewards.owed_for(h, c.story, party).as_dict() if h.active else None,
                     "excess": rewards.excess_for(h, c.story, party).as_dict() if h.active else None})
    rows.sort(key=lambda r: r["retired"])
    return Change(data={"heroes": rows})


def recruit(c: Campaign | None, chapter: str | None = None) -> Change:
    """The new-recruit table (RB L1005-1016), with the row of `chapter` (default: the campaign's
    next chapter; none without a campaign) marked. `data` is the `recruit --json` shape."""
    from .. import catalog
    from ..model import chapter_id

    marked: str | None = None
    if chapter is not None:
        try:
            marked = chapter_id(chapter)
        except ValueError:
            raise UsageError(f"no chapter {chapter!r}", remedy="chapters are 01 to 09") from None
    elif c is not None:
        marked = c.story.next_chapter()
    rows = [{"chapter": ch, **r.as_dict()} for ch, r in catalog.recruit_table()]
    return Change(data={"rows": rows, "chapter": marked})


# ---------------------------------------------------------------------- skills and abilities


def learn(c: Campaign, name: str, skill: str, *, tree: str, level: int) -> Change:
    """Record a Hero or Dungeon Role Skill, against the last chapter completed since joining."""
    tree_ = _pick(tree, TREES, "skill tree")
    if level not in (1, 2):
        raise UsageError(f"--level must be 1 or 2, not {level}", remedy="skills have Level 1 and Level 2")
    slug, hero = active_hero(c, name)
    skill = skill.strip()
    f = c.hero_files[slug]
    if any(s.name.casefold() == skill.casefold() for s in hero.skills):
        raise _refuse(f, "skills", f"{hero.name} already knows {skill!r}", "skills",
                      "a skill is learned once; to choose another, use drunagor hero relearn")
    chapter = rules.last_completed(c.story, hero.joined)
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
    tree_ = _pick(tree, TREES, "skill tree") if tree else None
    slug, hero = active_hero(c, name)
    f = c.hero_files[slug]
    new = new.strip()
    si = find_entry([s.name for s in hero.skills], old)
    ai = find_entry(list(hero.class_abilities), old)
    if si is not None and ai is not None:
        raise UsageError(f"{old!r} names both a skill and a Class Ability of {hero.name}", remedy="type the full name")
    if si is None and ai is None:
        known = [s.name for s in hero.skills] + list(hero.class_abilities)
        raise _refuse(f, None, f"{hero.name} has no skill or Class Ability called {old!r}", "relearn",
                      "known: " + (", ".join(known) or "none"))
    if si is not None:
        what = _relearn_skill(f, hero, si, new, tree_)
    else:
        if tree_:
            raise UsageError("--tree is for skills; a Class Ability has no tree")
        what = _relearn_ability(f, hero, ai, new)  # type: ignore[arg-type]
    return Change(f"{hero.name} relearns: {what} (RB L1034-1040)", data={"hero": hero.name, "new": new})


# ------------------------------------------------------------------------------------ equipment


def _catalog_item(name: str) -> str | None:
    """The catalog spelling of an item, chest card or Starting Gear; None when unknown."""
    from .. import catalog

    for find in (catalog.spoils_item, catalog.chest_card, catalog.adventure_item, catalog.starting_gear_item):
        entry = find(name)
        if entry is not None:
            return entry["name"]
    return None


def _gained_item(c: Campaign, item: str) -> str:
    """The name a gained card is written under: the catalog's, else the one recorded under [cards]."""
    return _catalog_item(item) or next((k for k in c.story.cards if k.casefold() == item.strip().casefold()),
                                       item.strip())


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
         bag: bool = False) -> Change:
    """The hero gains a card, equipped or in the bag (Consumables always go to the bag). Its kind
    comes from the catalog or [cards]; a card neither knows needs `kind` once, remembered under
    [cards]. A card in `stored` is never gained again (RB L429-431)."""
    from .. import catalog

    kind_ = _pick(kind, EQUIPMENT_KINDS, "equipment kind") if kind else None
    quality_ = _pick(quality, QUALITIES, "quality") if quality else None
    slug, hero = active_hero(c, name)
    item_name = _gained_item(c, item)
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
    warnings = _excess_warning(c, slug, replace(hero, equipment=hero.equipment + (entry,))) \
        if choice.kind == "spoils" else ()
    where = "in the bag" if place == "bag" else "equipped"
    q = f", {choice.quality}" if choice.kind == "spoils" else ""
    return Change(f"{hero.name} gains {item_name} ({choice.kind}{q}, {where})", notes, warnings,
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
    from .. import catalog

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
    i = _held_item(c, slug, hero, item, "give")
    entry = hero.equipment[i]
    if entry.kind != "consumable" and receiver.item(entry.name):
        raise RuleError(f"{receiver.name} already has {entry.name}", rule="equipment")
    earner = entry.given_by or (hero.name if entry.kind == "spoils" else None)
    if earner and earner.casefold() == receiver.name.casefold():
        earner = None  # back with the hero who earned it
    edit.remove_entry(c.hero_files[slug].edit(), "equipment", i)
    return hero, Item(entry.name, entry.kind, entry.quality, "bag", earner)


def give(c: Campaign, giver: str, to: str, item: str) -> Change:
    """Hand a card to another hero's bag, or one from the party stash (`giver` = "stash")."""
    to_slug, receiver = active_hero(c, to)
    if giver.strip().casefold() == STASH:
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


def aura(c: Campaign, name: str, new: str | None = None, *, clear: bool = False) -> Change:
    """Set the hero's Aura (one at a time: a new one replaces the old), or clear it."""
    if (new is None) == (not clear):
        raise UsageError("give an AURA or --clear (not both)", remedy="e.g. drunagor hero aura Andreas Bastion")
    slug, hero = active_hero(c, name)
    doc = c.hero_files[slug].edit()
    if clear:
        edit.delete_key(doc, "aura")
        msg = f"{hero.name} loses the Aura {hero.aura}" if hero.aura else f"{hero.name} has no Aura"
        return Change(msg, data={"hero": hero.name, "aura": None})
    warnings: list[str] = []
    aura_ = _name_or_warn(new or "", "auras", "Aura", warnings)
    msg = f"{hero.name} has the Aura {aura_}"
    if hero.aura != aura_:
        edit.set_value(doc, "aura", aura_)
        msg += f" (it replaces {hero.aura}: one Aura at a time)" if hero.aura else ""
    return Change(msg, warnings=tuple(warnings), data={"hero": hero.name, "aura": aura_})


def status(c: Campaign, name: str, action: str, status_: str) -> Change:
    """Add or remove a Campaign Log status (all are removed in the Camp phase)."""
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
    held = any(s.casefold() == status_.strip().casefold() for s in hero.statuses)
    new = _name_or_warn(status_, "hero_statuses", "hero status", warnings)
    if held or new in hero.statuses:
        raise _refuse(f, "statuses", f"{hero.name} already has the status {new}", "hero-status")
    edit.append_entry(f.edit(), "statuses", new)
    return Change(f"{hero.name} gains the status {new}", warnings=tuple(warnings),
                  data={"hero": hero.name, "status": new})


# ------------------------------------------------------------------------------------- camp


def camp(c: Campaign) -> Change:
    """The Camp phase: every active hero's Campaign Log statuses are removed; `data` says what may
    be done now (Chest deck, RB L361; Spoils upgrades, RB L411-419; rewards owed; the stash)."""
    from ..rules import chest

    story = c.story
    active = c.active_heroes()
    party = list(active.values())
    cleared = {}
    for slug, h in active.items():
        if h.statuses:
            cleared[h.name] = list(h.statuses)
            edit.clear_entries(c.hero_files[slug].edit(), "statuses")
    epic = [k for k, v in story.cards.items() if isinstance(v, dict) and v.get("epic") is True]
    upgrades = [{"hero": h.name, "item": o.item, "from": o.from_quality, "to": o.to_quality,
                 "discard": list(o.discards)} for h in party for o in rules.upgrade_options(h, epic)]
    owes = {h.name: rewards.owed_for(h, story, party).as_dict() for h in party}
    if cleared:
        msg = "Camp phase: statuses removed: " + "; ".join(f"{n} ({', '.join(s)})" for n, s in cleared.items())
    else:
        msg = "Camp phase: no Campaign Log statuses to remove"
    return Change(msg, data={"cleared": cleared, "chest_deck": chest.summary(story)["text"], "upgrades": upgrades,
                             "owes": owes, "stash": list(story.stash)})

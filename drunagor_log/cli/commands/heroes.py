"""Campaign Logs: `drunagor hero ...`, `drunagor recruit`, `drunagor camp`.

One TOML file per hero under heroes/. Commands parse arguments, call the pure rules
(rules/heroes.py, rules/rewards.py), edit the tomlkit documents in place and finish() the write.
The `skills` and `equipment` arrays keep one entry per line (two players editing one log merge well).
"""

# No `from __future__ import annotations` here: Typer would eval every string annotation of every
# command at each start.
from typing import Annotated, Optional

import typer

from ...store.tomltext import basic_string as _toml_str

from ...errors import RuleError, UsageError
from ...model import EQUIPMENT_KINDS, QUALITIES, TREES, Hero
from ...rules import heroes as rules
from ...rules import rewards
from ..common import CommitOpt, JsonOpt, finish, open_campaign, warn_all
from ..terminal import term

hero_app = typer.Typer(
    help="Campaign Logs: one TOML file per hero under heroes/ (skills, Class Abilities, equipment, aura, "
    "statuses, rewards owed).\n\nExample: drunagor hero show andreas",
    no_args_is_help=True,
)

STASH = "stash"  # `hero give stash TO ITEM`: the party stash in story.toml


# ------------------------------------------------------------------------------- TOML editing




def _inline(fields: dict):
    """An inline table written as `{ name = "...", kind = "..." }` (the files' own style)."""
    import tomlkit

    parts = []
    for k, v in fields.items():
        if v is None:
            continue
        if isinstance(v, bool):
            text = "true" if v else "false"
        elif isinstance(v, int):
            text = str(v)
        else:
            text = _toml_str(v)
        parts.append(f"{k} = {text}")
    # The trailing newline matters when the table goes into a [table]: tomlkit would eat the blank line after it.
    return tomlkit.parse("x = { " + ", ".join(parts) + " }\n")["x"]


def _value(v):
    import tomlkit

    return tomlkit.parse("x = " + _toml_str(v))["x"] if isinstance(v, str) else v


def _append(doc, key: str, value) -> None:
    """Append to the array `key`, one entry per line (a new or single-line array becomes multiline)."""
    import tomlkit

    if key not in doc:
        doc[key] = tomlkit.array()
    arr = doc[key]
    value = _value(value)
    if "\n" in arr.as_string():
        arr.append(value)
        return
    old = list(arr)
    arr.clear()
    for item in old + [value]:
        arr.add_line(item, indent="  ")
    arr.add_line(indent="")


def _delete(doc, key: str, index: int) -> None:
    arr = doc[key]
    del arr[index]
    if len(arr) == 0:
        arr.clear()  # `key = []`, not an empty multiline array


def _commented(line: str, comment: str) -> str:
    return f"{line:<31} # {comment}"


def _item_fields(name: str, kind: str, quality: str | None, place: str, given_by: str | None = None) -> dict:
    return {"name": name, "kind": kind, "quality": quality, "place": place, "from": given_by}


# ------------------------------------------------------------------------------------ lookups


def _hero(c, query: str, *, active: bool = True) -> tuple[str, Hero]:
    slug, hero = c.find_hero(query)
    if active and hero.retired:
        raise RuleError(f"{hero.name} has left the party" + (f" (before chapter {hero.left})" if hero.left else ""),
                        file=c.hero_files[slug].shown, line=c.hero_files[slug].line(("retired",)),
                        rule="retired", remedy="their Campaign Log is kept for the record; choose an active hero")
    return slug, hero


def _find(names: list[str], query: str) -> int | None:
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


def _held_item(c, slug: str, hero: Hero, query: str, doing: str) -> int:
    i = _find([e.name for e in hero.equipment], query)
    if i is not None:
        return i
    from ...names import closest

    holder = next((h for h in c.active_heroes().values() if h is not hero and h.item(query)), None)
    if holder is not None:
        remedy = f"{holder.name} has it: drunagor hero give {rules.quote(holder.name)} {rules.quote(hero.name)} {rules.quote(query)}"
    else:
        hint = closest(query, [e.name for e in hero.equipment])
        remedy = (f"did you mean {hint!r}?" if hint else
                  f"{hero.name} has: " + (", ".join(e.name for e in hero.equipment) or "nothing"))
    f = c.hero_files[slug]
    raise RuleError(f"{hero.name} does not have {query!r} to {doing}", file=f.shown, line=f.line(("equipment",)),
                    rule="equipment", remedy=remedy)


def _catalog_item(name: str) -> str | None:
    """The catalog spelling of an item, chest card or Starting Gear; None when unknown."""
    from ... import catalog

    for find in (catalog.spoils_item, catalog.chest_card, catalog.adventure_item, catalog.starting_gear_item):
        entry = find(name)
        if entry is not None:
            return entry["name"]
    return None


def _recorded_kind(story, name: str) -> str | None:
    """An item kind the party recorded once under [cards] (SPEC "User-recorded facts")."""
    facts = next((v for k, v in story.cards.items() if k.casefold() == name.casefold()), None)
    if not facts:
        return None
    if facts.get("kind") in EQUIPMENT_KINDS:
        return facts["kind"]
    if facts.get("type") in ("potion", "scroll", "treasure"):
        return "consumable"
    if facts.get("epic") is True:
        return "epic"
    return None


def _stored(story, name: str, quality: str | None) -> str | None:
    """The `stored` entry that keeps this card out of the campaign, if any (RB L429-431)."""
    forms = {name.casefold()}
    if quality:
        forms |= {f"{name} ({quality})".casefold(), f"{name} ({quality.capitalize()})".casefold()}
    return next((s for s in story.stored if s.casefold() in forms), None)


def _pick(query: str, options, what: str) -> str:
    from ...names import lookup

    return lookup(query, {o: o for o in options}, what)


def _name_or_warn(name: str, kind: str, what: str) -> str:
    """A catalog name in catalog spelling; an unknown one is kept as typed, with a warning."""
    from ... import catalog

    known = catalog.names(kind)
    exact = catalog.canonical(name, known)
    if exact:
        return exact
    hint = catalog.closest(name, known)
    article = "an" if what[0].lower() in "aeiou" else "a"
    term.warn(f"{name!r} is not {article} {what} drunagor knows" + (f"; did you mean {hint!r}?" if hint else "")
              + " (kept as typed)")
    return name.strip()


# ----------------------------------------------------------------------------------- commands


@hero_app.command("add")
def add(
    name: Annotated[str, typer.Argument(help="The hero: Andreas, Catharina, Nyx, Vacrem, or one from another product.")],
    role: Annotated[str, typer.Option("--role", help="Dungeon Role: Defender, Leader, Controller, Support or Striker.")],
    cls: Annotated[Optional[str], typer.Option("--class", help="Class; for an Awakenings hero only its special class (Hero Pack #1).")] = None,
    player: Annotated[Optional[str], typer.Option("--player", help="Who plays the hero.")] = None,
    gear: Annotated[Optional[list[str]], typer.Option("--gear", help="A piece of Starting Gear (twice: a hero starts with 2).")] = None,
    commit: CommitOpt = False,
) -> None:
    """A new hero joins the party, with Dungeon Role cards I and II and 2 pieces of Starting Gear.

    Joining after chapter 01, the hero is owed the new-recruit rewards of the next chapter
    (RB L1005-1016); the command lists them.

    The example campaign has its 4 heroes (max_heroes = 4, RB L943), so one leaves first.

    Example: drunagor hero remove Vacrem && drunagor hero add Kellan --role Leader --class Paladin --player Eva --gear "Blooded Sword" --gear "Cloth Armor"
    """
    from ... import catalog

    gear = gear or []
    core = rules.core_hero_finding(name)
    if core is not None:
        raise core.error()
    hero_name, hero_class = rules.identity(name, cls)
    role_ = rules.role_name(role)
    if len(gear) > rules.STARTING_GEAR:
        raise UsageError(f"{len(gear)} pieces of --gear; a new hero starts with {rules.STARTING_GEAR} (RB L989)",
                         remedy="give --gear twice at most; record other items with drunagor hero gain")
    with open_campaign(write=True) as c:
        story = c.story
        active = list(c.active_heroes().values())
        full = rules.party_full(active, story.rules.max_heroes)
        if full is not None:
            raise full.error(c.story_file.shown, c.story_file.line(("rules", "max_heroes")))
        taken = rules.role_taken(role_, active)
        if taken is not None:
            slug = next(s for s, h in c.active_heroes().items() if h.name == taken.hero)
            raise taken.error(c.hero_files[slug].shown, c.hero_files[slug].line(("role",)))
        path = c.hero_path(hero_name)
        existing = next(((s, h) for s, h in c.heroes.items() if s == path.stem or h.name.casefold() == hero_name.casefold()), None)
        if existing is not None:
            s, h = existing
            why = f"left the party before chapter {h.left}" if h.retired and h.left else (
                "left the party" if h.retired else "is in the party")
            raise RuleError(f"{h.name} already has a Campaign Log ({c.hero_files[s].shown}) and {why}",
                            rule="hero-file", remedy="choose another name" + (
                                "; a hero who left keeps the log for the record" if h.retired else ""))
        joined = rules.joining_chapter(story)
        gear_names = []
        for g in gear:
            known = catalog.starting_gear_item(g)
            if known is None:
                hint = catalog.closest(g, catalog.starting_gear())
                term.warn(f"{g!r} is not a core-box Starting Gear card drunagor knows"
                          + (f"; did you mean {hint!r}?" if hint else "") + " (kept as typed)")
            gear_names.append(known["name"] if known else g.strip())
        lines = ["schema = 1", f"name = {_toml_str(hero_name)}", f"class = {_toml_str(hero_class)}",
                 _commented(f"role = {_toml_str(role_)}", "Dungeon Role cards I and II (RB L1051)")]
        if player:
            lines.append(f"player = {_toml_str(player)}")
        lines += [_commented(f"joined = {_toml_str(joined)}", "chapter before which the hero joined"),
                  "statuses = []", "class_abilities = []", "skills = []"]
        if gear_names:
            lines.append("equipment = [")
            lines += [f"  {{ name = {_toml_str(g)}, kind = \"starting\", place = \"equipped\" }}," for g in gear_names]
            lines.append("]")
        else:
            lines.append("equipment = []")
        c.create(path, "\n".join(lines) + "\n")
        finish(c, f"{hero_name} joins the party before chapter {joined}: {hero_class}, {role_}", commit)
    owed = rewards.recruit_row(joined)
    if not owed.is_zero():
        term.line(f"{hero_name} is owed the new-recruit rewards for chapter {joined} (RB L1005-1016): "
                  f"{rewards.describe(owed)}")
        term.line("record them with:")
        for field, n in owed.as_dict().items():
            if n:
                term.line("  " + rules.RECORD_WITH[field][1].format(h=rules.quote(hero_name)))
    if len(gear_names) < rules.STARTING_GEAR:
        term.line(f"Starting Gear: {len(gear_names)} of {rules.STARTING_GEAR} recorded (RB L989); add the rest "
                  f"with: drunagor hero gain {rules.quote(hero_name)} ITEM --kind starting")


def hero_data(hero: Hero, story, party) -> dict:
    """One Campaign Log as plain values (the `hero show --json` shape)."""
    data = {
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


@hero_app.command("show")
def show(
    name: Annotated[str, typer.Argument(help="The hero (any case, a unique prefix is enough).")],
    json: JsonOpt = False,
) -> None:
    """One Campaign Log: class, role, skills, Class Abilities, equipment, aura, statuses, rewards owed.

    Example: drunagor hero show cath
    """
    with open_campaign() as c:
        _, hero = c.find_hero(name)
        data = hero_data(hero, c.story, list(c.active_heroes().values()))
        warn_all(c)
    if json:
        term.json(data)
        return
    term.heading(f"{hero.name}: {hero.cls}, {hero.role} (role cards {' and '.join(rules.ROLE_CARDS)})")
    if hero.player:
        term.line(f"Player: {hero.player}")
    term.line(f"Joined before chapter {hero.joined}"
              + (f"; left before chapter {hero.left}" if hero.left else "")
              + ("; retired" if hero.retired else ""))
    term.line(f"Aura: {hero.aura or 'none'}")
    term.line("Statuses: " + (", ".join(hero.statuses) or "none"))
    term.line("Class Abilities: " + (", ".join(hero.class_abilities) or "none"))
    if hero.skills:
        term.table(["Skill", "Tree", "Level", "Chapter"],
                   [[s.name, s.tree, s.level, s.chapter or ""] for s in hero.skills], title="Skills")
    else:
        term.line("Skills: none")
    if hero.equipment:
        term.table(["Item", "Kind", "Quality", "Place"],
                   [[i.name + (f" (from {i.given_by})" if i.given_by else ""), i.kind, i.quality or "", i.place]
                    for i in hero.equipment], title="Equipment")
    else:
        term.line("Equipment: none")
    for u in hero.upgrades:
        term.line(f"Upgrade: {u.item} to {u.to}, discarding {u.discarded}" + (f" (after chapter {u.chapter})" if u.chapter else ""))
    if hero.active:
        term.line("Rewards owed: " + (rewards.describe(data["owes"]) or "nothing"))
        over = rewards.describe(data["excess"])
        if over:
            term.line("More than the chapters give: " + over)


@hero_app.command("list")
def list_(json: JsonOpt = False) -> None:
    """All heroes: class, role, player, when they joined, rewards owed; retired heroes last.

    Example: drunagor hero list
    """
    with open_campaign() as c:
        party = list(c.active_heroes().values())
        rows = []
        for h in c.heroes.values():
            rows.append({"name": h.name, "class": h.cls, "role": h.role, "player": h.player, "joined": h.joined,
                         "retired": h.retired, "left": h.left,
                         "owes": rewards.owed_for(h, c.story, party).as_dict() if h.active else None,
                         "excess": rewards.excess_for(h, c.story, party).as_dict() if h.active else None})
        warn_all(c)
    rows.sort(key=lambda r: r["retired"])
    if json:
        term.json({"heroes": rows})
        return
    if not rows:
        term.line("no heroes yet (drunagor hero add NAME --role ROLE)")
        return
    term.table(["Hero", "Class", "Role", "Player", "Joined", "Owes"],
               [[r["name"], r["class"], r["role"], r["player"] or "", r["joined"],
                 ("left" + (f" before {r['left']}" if r["left"] else "")) if r["retired"]
                 else (rewards.describe(r["owes"]) or "nothing")] for r in rows])


def _warn_excess(c, slug: str) -> None:
    """After recording a reward: say so if the log now holds more than the chapters give."""
    from ...model import hero_from

    f = c.hero_files[slug]
    hero = hero_from(f.edit().unwrap())
    party = [hero if s == slug else h for s, h in c.active_heroes().items()]
    over = rewards.describe(rewards.excess_for(hero, c.story, party))
    if over:
        term.warn(f"{hero.name} now has {over} more than the chapters completed since joining give "
                  "(rewards, SPEC 5.3; drunagor check reports it)")


@hero_app.command("learn")
def learn(
    name: Annotated[str, typer.Argument(help="The hero.")],
    skill: Annotated[str, typer.Argument(help="The skill, as written on the card.")],
    tree: Annotated[str, typer.Option("--tree", help="melee, ranged, agility, wisdom, or role (Dungeon Role skill).")],
    level: Annotated[int, typer.Option("--level", help="1 or 2.")],
    commit: CommitOpt = False,
) -> None:
    """Record a Hero or Dungeon Role Skill the hero learned (a chapter reward, or a recruit's).

    Example: drunagor hero learn Nyx "Shadow Step" --tree agility --level 1
    """
    tree_ = _pick(tree, TREES, "skill tree")
    if level not in (1, 2):
        raise UsageError(f"--level must be 1 or 2, not {level}", remedy="skills have Level 1 and Level 2")
    with open_campaign(write=True) as c:
        slug, hero = _hero(c, name)
        skill = skill.strip()
        if any(s.name.casefold() == skill.casefold() for s in hero.skills):
            f = c.hero_files[slug]
            raise RuleError(f"{hero.name} already knows {skill!r}", file=f.shown, line=f.line(("skills",)),
                            rule="skills", remedy="a skill is learned once; to choose another, use drunagor hero relearn")
        chapter = rules.last_completed(c.story, hero.joined)
        doc = c.hero_files[slug].edit()
        _append(doc, "skills", _inline({"name": skill, "tree": tree_, "level": level, "chapter": chapter}))
        _warn_excess(c, slug)
        finish(c, f"{hero.name} learns {skill} ({tree_}, Level {level})", commit)


@hero_app.command("ability")
def ability(
    name: Annotated[str, typer.Argument(help="The hero.")],
    ability_: Annotated[str, typer.Argument(metavar="ABILITY", help="The Class Ability, as written on the card.")],
    commit: CommitOpt = False,
) -> None:
    """Record a Class Ability the hero gained.

    Example: drunagor hero ability Andreas "Divine Shield"
    """
    with open_campaign(write=True) as c:
        slug, hero = _hero(c, name)
        ability_ = ability_.strip()
        if any(a.casefold() == ability_.casefold() for a in hero.class_abilities):
            f = c.hero_files[slug]
            raise RuleError(f"{hero.name} already has the Class Ability {ability_!r}", file=f.shown,
                            line=f.line(("class_abilities",)), rule="class-abilities",
                            remedy="to choose another, use drunagor hero relearn")
        _append(c.hero_files[slug].edit(), "class_abilities", ability_)
        _warn_excess(c, slug)
        finish(c, f"{hero.name} gains the Class Ability {ability_}", commit)


@hero_app.command("relearn")
def relearn(
    name: Annotated[str, typer.Argument(help="The hero.")],
    old: Annotated[str, typer.Argument(help="The skill or Class Ability to give up.")],
    new: Annotated[str, typer.Argument(help="The one chosen instead.")],
    tree: Annotated[Optional[str], typer.Option("--tree", help="For a skill: the new skill's tree (default: the old one's).")] = None,
    commit: CommitOpt = False,
) -> None:
    """Relearning (RB L1034-1040): re-choose a skill or Class Ability; the counts stay the same.

    A skill stays at its level (and keeps its chapter); a Class Ability is replaced by another.

    Example: drunagor hero relearn Nyx "Agility 1" "Quick Strike" --tree melee
    """
    tree_ = _pick(tree, TREES, "skill tree") if tree else None
    with open_campaign(write=True) as c:
        slug, hero = _hero(c, name)
        f = c.hero_files[slug]
        new = new.strip()
        si = _find([s.name for s in hero.skills], old)
        ai = _find(list(hero.class_abilities), old)
        if si is not None and ai is not None:
            raise UsageError(f"{old!r} names both a skill and a Class Ability of {hero.name}",
                             remedy="type the full name")
        if si is None and ai is None:
            raise RuleError(f"{hero.name} has no skill or Class Ability called {old!r}", file=f.shown,
                            rule="relearn", remedy="known: " + (", ".join([s.name for s in hero.skills]
                                                                        + list(hero.class_abilities)) or "none"))
        doc = f.edit()
        if si is not None:
            s = hero.skills[si]
            if any(o.name.casefold() == new.casefold() for j, o in enumerate(hero.skills) if j != si):
                raise RuleError(f"{hero.name} already knows {new!r}", file=f.shown, line=f.line(("skills",)),
                                rule="relearn", remedy="choose a skill the hero does not have")
            doc["skills"][si] = _inline({"name": new, "tree": tree_ or s.tree, "level": s.level, "chapter": s.chapter})
            what = f"{s.name} for {new} ({tree_ or s.tree}, Level {s.level})"
        else:
            if tree_:
                raise UsageError("--tree is for skills; a Class Ability has no tree")
            a = hero.class_abilities[ai]
            if any(o.casefold() == new.casefold() for j, o in enumerate(hero.class_abilities) if j != ai):
                raise RuleError(f"{hero.name} already has the Class Ability {new!r}", file=f.shown,
                                line=f.line(("class_abilities",)), rule="relearn",
                                remedy="choose a Class Ability the hero does not have")
            doc["class_abilities"][ai] = _value(new)
            what = f"the Class Ability {a} for {new}"
        finish(c, f"{hero.name} relearns: {what} (RB L1034-1040)", commit)


@hero_app.command("gain")
def gain(
    name: Annotated[str, typer.Argument(help="The hero.")],
    item: Annotated[str, typer.Argument(help="The card: Spoils, Adventure Item, Potion, Scroll, Starting Gear...")],
    kind: Annotated[Optional[str], typer.Option("--kind", help="starting, spoils, adventure, epic or consumable (needed once for a card the catalog does not know).")] = None,
    quality: Annotated[Optional[str], typer.Option("--quality", help="For Spoils: standard (default), improved, ultimate.")] = None,
    bag: Annotated[bool, typer.Option("--bag", help="Put it in the bag instead of equipping it.")] = False,
    commit: CommitOpt = False,
) -> None:
    """The hero gains a card: equipped, or in the bag with --bag (Consumables always go to the bag).

    The kind comes from the catalog, or from [cards] in story.toml; for a card neither knows, give
    --kind once and it is remembered there. Cards in `stored` can never be gained again (RB L429-431).

    Example: drunagor hero gain Nyx "Ragged Doll" --bag
    """
    kind_ = _pick(kind, EQUIPMENT_KINDS, "equipment kind") if kind else None
    quality_ = _pick(quality, QUALITIES, "quality") if quality else None
    with open_campaign(write=True) as c:
        from ... import catalog

        slug, hero = _hero(c, name)
        story = c.story
        item_name = _catalog_item(item) or next((k for k in story.cards if k.casefold() == item.strip().casefold()),
                                                 item.strip())
        known_kind = catalog.item_kind(item_name)
        recorded_kind = _recorded_kind(story, item_name)
        remember = False
        if kind_ is None:
            kind_ = known_kind or recorded_kind
            if kind_ is None:
                raise UsageError(f"drunagor does not know the card {item_name!r}, so not its kind",
                                 remedy="say it once with --kind starting|spoils|adventure|epic|consumable "
                                        "(remembered under [cards] in story.toml)")
        elif known_kind is not None and kind_ != known_kind and not (known_kind == "adventure" and kind_ == "epic"):
            raise UsageError(f"{item_name} is a {known_kind} card, not {kind_}",
                             remedy="leave out --kind: the catalog knows this card")
        elif known_kind is None and recorded_kind != kind_:
            remember = True
        if quality_ and kind_ != "spoils":
            raise UsageError("--quality is for Spoils of the Hero cards only")
        if kind_ == "spoils":
            quality_ = quality_ or "standard"  # Spoils are always received Standard (RB L397)
        stored = _stored(story, item_name, quality_)
        if stored is not None:
            raise RuleError(f"{item_name} is stored ({stored!r} in `stored`): a card disposed of in an upgrade "
                            "or taken out of the campaign can never be gained again this campaign (RB L429-431)",
                            file=c.story_file.shown, line=c.story_file.line(("stored",)), rule="stored",
                            remedy="choose another card")
        if kind_ != "consumable":
            if hero.item(item_name):
                f = c.hero_files[slug]
                raise RuleError(f"{hero.name} already has {item_name}", file=f.shown, line=f.line(("equipment",)),
                                rule="equipment", remedy="there is one card of each; to move it, use hero equip/unequip")
            if kind_ in ("spoils", "adventure", "epic"):
                other = next((h for h in c.active_heroes().values() if h is not hero and h.item(item_name)), None)
                if other is not None:
                    raise RuleError(f"{other.name} holds {item_name}, and there is one card of it", rule="equipment",
                                    remedy=f"hand it over: drunagor hero give {rules.quote(other.name)} "
                                           f"{rules.quote(hero.name)} {rules.quote(item_name)}")
        place = "bag" if bag or kind_ == "consumable" else "equipped"
        _append(c.hero_files[slug].edit(), "equipment", _inline(_item_fields(item_name, kind_, quality_, place)))
        if remember:
            _remember_kind(c, item_name, kind_)
        if kind_ == "spoils":
            _warn_excess(c, slug)
        where = "in the bag" if place == "bag" else "equipped"
        q = f", {quality_}" if kind_ == "spoils" else ""
        finish(c, f"{hero.name} gains {item_name} ({kind_}{q}, {where})", commit)
    if remember:
        article = "an" if kind_[0] in "aeiou" else "a"
        term.line(f"remembered under [cards] in story.toml: {item_name} is {article} {kind_} card")


def _remember_kind(c, item_name: str, kind: str) -> None:
    """Record once under [cards] what kind of card an unknown item is (SPEC "User-recorded facts");
    `epic` is written too for Adventure Items, as the Spoils upgrade rule needs it (RB L413-417)."""
    import tomlkit

    doc = c.story_file.edit()
    if "cards" not in doc:
        doc["cards"] = tomlkit.table()
    facts = {"kind": kind}
    if kind in ("adventure", "epic"):
        facts["epic"] = kind == "epic"
    key = next((k for k in doc["cards"] if k.casefold() == item_name.casefold()), item_name)
    if key in doc["cards"]:
        merged = dict(doc["cards"][key].unwrap())
        merged.update(facts)
        facts = merged
    doc["cards"][key] = _inline(facts)


@hero_app.command("drop")
def drop(
    name: Annotated[str, typer.Argument(help="The hero.")],
    item: Annotated[str, typer.Argument(help="The card to remove from the Campaign Log.")],
    commit: CommitOpt = False,
) -> None:
    """Remove a card from the hero's Campaign Log (used, discarded, lost).

    Example: drunagor hero drop Andreas "Scroll of Incinerate"
    """
    with open_campaign(write=True) as c:
        slug, hero = _hero(c, name)
        i = _held_item(c, slug, hero, item, "drop")
        _delete(c.hero_files[slug].edit(), "equipment", i)
        finish(c, f"{hero.name} drops {hero.equipment[i].name}", commit)


@hero_app.command("give")
def give(
    giver: Annotated[str, typer.Argument(metavar="FROM", help="The hero who gives, or `stash` (the party stash).")],
    to: Annotated[str, typer.Argument(help="The hero who receives.")],
    item: Annotated[str, typer.Argument(help="The card.")],
    commit: CommitOpt = False,
) -> None:
    """Hand a card to another hero (it goes to their bag), or hand out one from the party stash.

    A Spoils card keeps counting as the reward of the hero who earned it (`from` in the log).

    The example campaign's stash is empty until a hero leaves with Consumables.

    Example: drunagor hero remove Vacrem && drunagor hero give stash Nyx "Artisan's Tools"
    """
    from ... import catalog

    with open_campaign(write=True) as c:
        to_slug, receiver = _hero(c, to)
        if giver.strip().casefold() == STASH:
            stash = list(c.story.stash)
            i = _find(stash, item)
            if i is None:
                raise RuleError(f"the party stash holds no {item!r}", file=c.story_file.shown,
                                line=c.story_file.line(("stash",)), rule="stash",
                                remedy="the stash holds: " + (", ".join(stash) or "nothing"))
            item_name = stash[i]
            kind = catalog.item_kind(item_name) or _recorded_kind(c.story, item_name) or "consumable"
            fields = _item_fields(item_name, kind, "standard" if kind == "spoils" else None, "bag")
            _delete(c.story_file.edit(), "stash", i)
            source = "the party stash"
        else:
            slug, hero = _hero(c, giver)
            if slug == to_slug:
                raise UsageError(f"{hero.name} cannot give a card to themselves")
            i = _held_item(c, slug, hero, item, "give")
            entry = hero.equipment[i]
            item_name = entry.name
            if entry.kind != "consumable" and receiver.item(item_name):
                raise RuleError(f"{receiver.name} already has {item_name}", rule="equipment")
            earner = entry.given_by or (hero.name if entry.kind == "spoils" else None)
            if earner and earner.casefold() == receiver.name.casefold():
                earner = None  # back with the hero who earned it
            fields = _item_fields(item_name, entry.kind, entry.quality, "bag", earner)
            _delete(c.hero_files[slug].edit(), "equipment", i)
            source = hero.name
        _append(c.hero_files[to_slug].edit(), "equipment", _inline(fields))
        if source == "the party stash":
            msg = f"{receiver.name} takes {item_name} from the party stash (in the bag)"
        else:
            msg = f"{source} gives {item_name} to {receiver.name} (in the bag)"
        finish(c, msg, commit)


def _place(name: str, item: str, place: str, commit: bool) -> None:
    with open_campaign(write=True) as c:
        slug, hero = _hero(c, name)
        doing = "equip" if place == "equipped" else "unequip"
        i = _held_item(c, slug, hero, item, doing)
        entry = hero.equipment[i]
        if place == "equipped" and entry.kind == "consumable":
            f = c.hero_files[slug]
            raise RuleError(f"{entry.name} is a Consumable Item: it is carried in the bag and used, never equipped",
                            file=f.shown, line=f.line(("equipment",)), rule="equipment")
        if entry.place != place:
            c.hero_files[slug].edit()["equipment"][i]["place"] = place
        done = f"equips {entry.name}" if place == "equipped" else f"puts {entry.name} in the bag"
        finish(c, f"{hero.name} {done}", commit)


@hero_app.command("equip")
def equip(
    name: Annotated[str, typer.Argument(help="The hero.")],
    item: Annotated[str, typer.Argument(help="A card the hero has.")],
    commit: CommitOpt = False,
) -> None:
    """Equip a card the hero has in the bag.

    Example: drunagor hero equip Catharina "Chaos Staff"
    """
    _place(name, item, "equipped", commit)


@hero_app.command("unequip")
def unequip(
    name: Annotated[str, typer.Argument(help="The hero.")],
    item: Annotated[str, typer.Argument(help="A card the hero has equipped.")],
    commit: CommitOpt = False,
) -> None:
    """Put an equipped card in the hero's bag.

    Example: drunagor hero unequip Vacrem "Heavy Shield"
    """
    _place(name, item, "bag", commit)


@hero_app.command("aura")
def aura(
    name: Annotated[str, typer.Argument(help="The hero.")],
    aura_: Annotated[Optional[str], typer.Argument(metavar="[AURA]", help="The Aura; it replaces the one the hero has.")] = None,
    clear: Annotated[bool, typer.Option("--clear", help="The hero loses their Aura.")] = False,
    commit: CommitOpt = False,
) -> None:
    """Set the hero's Aura (one at a time: a new one replaces the old), or --clear it.

    Example: drunagor hero aura Andreas Taunt
    """
    if (aura_ is None) == (not clear):
        raise UsageError("give an AURA or --clear (not both)", remedy="e.g. drunagor hero aura Andreas Bastion")
    with open_campaign(write=True) as c:
        slug, hero = _hero(c, name)
        doc = c.hero_files[slug].edit()
        if clear:
            if "aura" in doc:
                del doc["aura"]
            msg = f"{hero.name} loses the Aura {hero.aura}" if hero.aura else f"{hero.name} has no Aura"
        else:
            new = _name_or_warn(aura_, "auras", "Aura")
            if hero.aura == new:
                msg = f"{hero.name} has the Aura {new}"
            else:
                doc["aura"] = new
                msg = f"{hero.name} has the Aura {new}" + (f" (it replaces {hero.aura}: one Aura at a time)"
                                                           if hero.aura else "")
        finish(c, msg, commit)


@hero_app.command("status")
def status(
    name: Annotated[str, typer.Argument(help="The hero.")],
    action: Annotated[str, typer.Argument(metavar="add|remove", help="add or remove.")],
    status_: Annotated[str, typer.Argument(metavar="STATUS", help="The Campaign Log status (removed at Camp).")],
    commit: CommitOpt = False,
) -> None:
    """Add or remove a status on the hero's Campaign Log (all are removed in the Camp phase).

    Example: drunagor hero status Nyx add Haunted
    """
    act = _pick(action, ("add", "remove"), "action")
    with open_campaign(write=True) as c:
        slug, hero = _hero(c, name)
        f = c.hero_files[slug]
        if act == "add":
            i = next((j for j, s in enumerate(hero.statuses) if s.casefold() == status_.strip().casefold()), None)
            new = _name_or_warn(status_, "hero_statuses", "hero status")
            if i is not None or new in hero.statuses:
                raise RuleError(f"{hero.name} already has the status {new}", file=f.shown,
                                line=f.line(("statuses",)), rule="hero-status")
            _append(f.edit(), "statuses", new)
            msg = f"{hero.name} gains the status {new}"
        else:
            i = _find(list(hero.statuses), status_)
            if i is None:
                raise RuleError(f"{hero.name} does not have the status {status_!r}", file=f.shown,
                                line=f.line(("statuses",)), rule="hero-status",
                                remedy="statuses: " + (", ".join(hero.statuses) or "none"))
            _delete(f.edit(), "statuses", i)
            msg = f"{hero.name} loses the status {hero.statuses[i]}"
        finish(c, msg, commit)


@hero_app.command("remove")
def remove(
    name: Annotated[str, typer.Argument(help="The hero who leaves the party.")],
    commit: CommitOpt = False,
) -> None:
    """A hero leaves the party (RB L968-974): Consumables go to the party stash, everything else
    returns to the box; the Campaign Log is kept, marked retired = true.

    Example: drunagor hero remove Vacrem
    """
    with open_campaign(write=True) as c:
        slug, hero = _hero(c, name)
        out = rules.leaving(hero)
        doc = c.hero_files[slug].edit()
        if "equipment" in doc:
            doc["equipment"].clear()
        doc["retired"] = True
        left = c.story.next_chapter()
        if left:
            doc["left"] = left
        story_doc = None
        for item in out.to_stash:
            story_doc = story_doc or c.story_file.edit()
            _append(story_doc, "stash", item)
        parts = [f"{hero.name} leaves the party" + (f" before chapter {left}" if left else "")]
        if out.to_stash:
            parts.append("to the party stash: " + ", ".join(out.to_stash))
        if out.to_box:
            parts.append("back to the box: " + ", ".join(out.to_box))
        if c.story.leader and c.story.leader.casefold() == hero.name.casefold():
            story_doc = story_doc or c.story_file.edit()
            del story_doc["leader"]
            parts.append("the party needs a new Leader (drunagor leader HERO)")
        finish(c, "; ".join(parts), commit)


# ------------------------------------------------------------------------------ recruit, camp


def recruit(
    chapter: Annotated[Optional[str], typer.Option("--chapter", help="The chapter the new hero joins before (default: the next one).")] = None,
    json: JsonOpt = False,
) -> None:
    """The new-recruit table (RB L1005-1016): the rewards a hero joining before chapter N needs.

    The row of the next chapter (or --chapter N) is marked.

    Example: drunagor recruit --chapter 6
    """
    from ... import catalog
    from ...errors import DrunagorError
    from ...model import chapter_id

    if chapter is not None:
        try:
            marked = chapter_id(chapter)
        except ValueError:
            raise UsageError(f"no chapter {chapter!r}", remedy="chapters are 01 to 09") from None
    else:
        try:
            with open_campaign() as c:
                marked = c.story.next_chapter()
        except DrunagorError:
            marked = None  # no campaign here: the table alone
    rows = [{"chapter": ch, **r.as_dict()} for ch, r in catalog.recruit_table()]
    if json:
        term.json({"rows": rows, "chapter": marked})
        return
    term.heading("Matching a New Recruit to Your Party Level (RB L1005-1016)")
    table = []
    for r in rows:
        text = rewards.describe(r) or "only the rewards received for creating the hero"
        table.append(["->" if r["chapter"] == marked else "", r["chapter"], text])
    term.table(["", "Chapter", "Rewards, in addition to the starting kit"], table)
    if marked:
        term.line(f"A hero joining before chapter {marked} takes: "
                  + (rewards.describe(rewards.recruit_row(marked)) or "only the starting kit"))


def camp(json: JsonOpt = False, commit: CommitOpt = False) -> None:
    """The Camp phase: clears every hero's Campaign Log statuses and shows what may be done now.

    Now the Chest deck may be changed (RB L361), Spoils upgraded (RB L411), and owed rewards recorded.

    Example: drunagor camp
    """
    with open_campaign(write=True) as c:
        story = c.story
        active = c.active_heroes()
        party = list(active.values())
        cleared = {}
        for slug, h in active.items():
            if h.statuses:
                cleared[h.name] = list(h.statuses)
                c.hero_files[slug].edit()["statuses"].clear()
        epic = [k for k, v in story.cards.items() if isinstance(v, dict) and v.get("epic") is True]
        upgrades = [{"hero": h.name, "item": o.item, "from": o.from_quality, "to": o.to_quality,
                     "discard": list(o.discards)} for h in party for o in rules.upgrade_options(h, epic)]
        owes = {h.name: rewards.owed_for(h, story, party).as_dict() for h in party}
        from ...rules import chest

        deck = chest.summary(story)
        if cleared:
            msg = "Camp phase: statuses removed: " + "; ".join(f"{n} ({', '.join(s)})" for n, s in cleared.items())
        else:
            msg = "Camp phase: no Campaign Log statuses to remove"
        if json:
            changed = finish(c, msg, commit, quiet=True)
            term.json({"cleared": cleared, "chest_deck": deck["text"], "upgrades": upgrades, "owes": owes,
                       "changed": changed})
            return
        finish(c, msg, commit)
    term.line(f"Chest deck: {deck['text']}")
    term.line("The Chest deck may be changed now (RB L361): drunagor chest swap OUT IN; a change of composition "
              "returns every Potion and Scroll the heroes hold")
    if upgrades:
        for u in upgrades:
            other = rules.quote(u["discard"][0]) if len(u["discard"]) == 1 else "OTHER"
            term.line(f"Spoils upgrade possible: {u['hero']}'s {u['item']} {u['from']} -> {u['to']} with Artisan's "
                      f"Tools and one of {', '.join(u['discard'])} (drunagor spoils upgrade "
                      f"{rules.quote(u['hero'])} {rules.quote(u['item'])} --discard {other})")
    else:
        term.line("Spoils upgrades: none possible now (needs Artisan's Tools and a spare card in the bag, RB L413-419)")
    owing = [(n, rewards.describe(t)) for n, t in owes.items() if rewards.describe(t)]
    for n, text in owing:
        term.line(f"{n} is owed: {text}")
    if not owing:
        term.line("Rewards owed: none")
    if story.stash:
        term.line("Party stash, to hand out (drunagor hero give stash HERO ITEM): " + ", ".join(story.stash))


def register(app: typer.Typer) -> None:
    app.add_typer(hero_app, name="hero")
    app.command()(recruit)
    app.command()(camp)

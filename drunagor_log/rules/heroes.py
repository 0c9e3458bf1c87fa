"""Hero rules (SPEC 5.1): who may be a hero, how many, which Dungeon Roles, what a new hero starts
with, what leaves the party with a hero, and what a hero may do at Camp.

Pure: plain values in (model.Hero, model.Story), values or a RuleError/UsageError out; no files, no
terminal. `ops/heroes.py` refuses with these; `checks/heroes.py` reports them.

Rulebook lines (RB L<n>): hero limitations L939-949, removing a hero L968-974, the starting kit
L984-989 and L1048-1052, the recruit table L1005-1016, Relearning L1034-1040.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .. import catalog
from ..errors import RuleError, UsageError
from ..model import CHAPTERS, EQUIPMENT_KINDS, QUALITIES, Hero, Story
from ..names import closest, hero_key, lookup, match, near_miss, resolve_known
from ..text import a, plural, shell_word
from ..values import record
from .cards import facts_of
from .rewards import chapter_reward

# The command that records each kind of reward (rewards.FIELDS), and where it lives in a log.
RECORD_WITH = {
    "level1_skills": ("skills", "drunagor hero learn {h} SKILL --tree TREE --level 1"),
    "level2_skills": ("skills", "drunagor hero learn {h} SKILL --tree TREE --level 2"),
    "class_abilities": ("class_abilities", "drunagor hero ability {h} ABILITY"),
    "spoils": ("equipment", "drunagor hero gain {h} ITEM"),
    "spoils_upgrades": ("upgrades", "drunagor spoils upgrade {h} ITEM --reward"),
}
ROLE_CARDS = ("I", "II")  # RB L988, L1051: a new hero takes Dungeon Role cards I and II only
STARTING_GEAR = 2  # RB L989: 2 pieces of Starting Gear
ARTISANS_TOOLS = "Artisan's Tools"


@record
class Finding:
    """One broken hero rule. `hero` names the Campaign Log that holds it (None: the Story Record);
    `key` is the key path in that file."""

    rule: str
    message: str
    remedy: str | None = None
    hero: str | None = None
    key: tuple = ()
    severity: str = "error"

    def error(self) -> RuleError:
        """The finding as a refusal of no file (the command that holds the file says `TomlFile.refuse`)."""
        return RuleError(self.message, remedy=self.remedy, rule=self.rule)


# ------------------------------------------------------------------------------- who is a hero


def core_hero_finding(name: str) -> Finding | None:
    """Elros, Jaheen, Lorelai, Maya and Vorn cannot be heroes in Awakenings (RB L941); most of them
    can join as Followers instead."""
    core = catalog.core_hero(name)
    if core is None:
        return None
    if core.follower:
        remedy = f'recruit {core.name} as a Follower instead: drunagor follower add {shell_word(core.follower)}'
    else:
        remedy = ("choose an Awakenings hero (" + ", ".join(h.name for h in catalog.heroes())
                  + "), or a hero from another product with --class")
    return Finding("core-hero", f"{core.name} is a core-box hero, and core-box heroes (Elros, Jaheen, "
                   "Lorelai, Maya, Vorn) are not heroes in Awakenings (RB L941-945)", remedy, key=("name",))


def identity(name: str, requested_class: str | None, new: bool = False) -> tuple[str, str]:
    """(name, class) of a new hero. Awakenings heroes take their class from the catalog, or their
    special class with Hero Pack #1 (RB L947-949); any other hero needs an explicit class (a fact
    flag: it says the hero is new, unless the name is a near miss of an Awakenings hero's, `new`)."""
    known = catalog.hero(name)
    if known is None:
        remedy = (f"if the hero is from another product, which the book welcomes (RB L943), give the class with "
                  f"--class, e.g. drunagor hero add {shell_word(name)} --role ROLE --class Ranger")
        found = resolve_known(name, "heroes", new=new, facts=bool(requested_class and requested_class.strip()),
                              new_hint=remedy)
        known = catalog.hero(found)
    if known is None and not (requested_class and requested_class.strip()):  # --new, and no class
        raise UsageError(f"drunagor does not know the hero {name.strip()!r}, so not their class",
                         remedy=f'give it with --class (e.g. drunagor hero add {shell_word(name.strip())} --role ROLE '
                                "--class Ranger --new)")
    if known is None:
        return name.strip(), (requested_class or "").strip()
    if requested_class is None:
        return known.name, known.hero_class
    try:
        chosen = match(requested_class, known.classes) if requested_class.strip() else None
    except UsageError:
        chosen = None
    if chosen is not None:
        return known.name, chosen
    hint = near_miss(requested_class, known.classes)  # a slip of the hero's own class, not another class
    raise RuleError(f"{known.name} is {a(known.hero_class)} (or {a(known.special_class)} with Hero Pack #1), "
                    f"not {a(requested_class)} (RB L947-949)", rule="hero-class",
                    remedy=f"did you mean {hint!r}?" if hint else
                    f"leave out --class, or use --class {known.special_class}")


def class_finding(hero: Hero) -> Finding | None:

    known = catalog.hero(hero.name)
    if known is None or any(c.casefold() == hero.cls.casefold() for c in known.classes):
        return None
    return Finding("hero-class", f"{known.name} is {a(known.hero_class)} (or {a(known.special_class)} with "
                   f"Hero Pack #1), not {a(hero.cls)} (RB L947-949)",
                   f"correct it: drunagor hero set {shell_word(hero.name)} --class {known.hero_class} (or --class "
                   f"{known.special_class})", hero.name, ("class",))


def role_name(query: str) -> str:
    """The Dungeon Role a command line names (any case, unique prefix), else a refusal (exit 1)."""
    return lookup(query, {r: r for r in catalog.ROLES}, "Dungeon Role", game=True)


# ------------------------------------------------------------------------------------- the party


def party_full(active: Sequence[Hero], max_heroes: int) -> Finding | None:
    """RB L943: four heroes, five only with extra-hero content (rules.max_heroes)."""
    if len(active) < max_heroes:
        return None
    names = ", ".join(h.name for h in active)
    remedy = ("a hero must leave first (drunagor hero remove NAME)" if max_heroes >= 5 else
              "a hero must leave first (drunagor hero remove NAME), or, with extra-hero content such as "
              "Spoils of War or Hero Pack #1, allow five: drunagor rules set --max-heroes 5")
    party = plural(len(active), "hero", "heroes")
    return Finding("max-heroes", f"the party already has {party} ({names}) and max_heroes is {max_heroes} (RB L943)",
                   remedy, None, ("rules", "max_heroes"))


def role_taken(role: str, active: Sequence[Hero]) -> Finding | None:
    """Each Dungeon Role has one slot on the Initiative Track: at most one hero per role."""
    holder = next((h for h in active if h.role.casefold() == role.casefold()), None)
    if holder is None:
        return None
    free = [r for r in catalog.ROLES if all(h.role.casefold() != r.casefold() for h in active)]
    remedy = ("choose a free role: " + ", ".join(free)) if free else "no Dungeon Role is free"
    return Finding("dungeon-role", f"{holder.name} is already the party's {holder.role}: each Dungeon Role "
                   "is taken by one hero only (one slot on the Initiative Track)", remedy, holder.name, ("role",))


def party_findings(heroes: Iterable[Hero], max_heroes: int) -> list[Finding]:
    """Every hero rule that spans the party (SPEC 5.1), for `drunagor check`. Retired heroes count
    for nothing but the core-box and class rules."""
    heroes = list(heroes)
    active = [h for h in heroes if h.active]
    found: list[Finding] = []
    for h in heroes:
        core = core_hero_finding(h.name)
        if core is not None:
            first = (f"take the hero out of the party (drunagor hero remove {shell_word(h.name)})" if h.active
                     else "delete this Campaign Log")
            found.append(Finding(core.rule, core.message, f"{first}; {core.remedy}", h.name, ("name",)))
        cls = class_finding(h)
        if cls is not None:
            found.append(cls)
    if len(active) > max_heroes:
        found.append(Finding("max-heroes", f"{len(active)} active heroes, but max_heroes is {max_heroes} "
                             "(RB L943)", "mark the heroes who left with retired = true (drunagor hero remove "
                             "NAME), or with extra-hero content allow five (drunagor rules set --max-heroes 5)", None,
                             ("rules", "max_heroes")))
    seen: dict[str, Hero] = {}
    taken = {catalog.canonical(o.role, catalog.ROLES) for o in active}  # once: a remedy per pair asks it
    free = [r for r in catalog.ROLES if r not in taken]
    for h in active:
        role = catalog.canonical(h.role, catalog.ROLES)
        if role is None:
            found.append(Finding("dungeon-role", f"{h.name}'s role {h.role!r} is not a Dungeon Role",
                                 f"correct it: drunagor hero set {shell_word(h.name)} --role ROLE (one of "
                                 + ", ".join(catalog.ROLES) + ")", h.name, ("role",)))
            continue
        if role in seen:
            found.append(Finding("dungeon-role", f"{h.name} and {seen[role].name} are both {role}: each "
                                 "Dungeon Role is taken by one hero only (one slot on the Initiative Track)",
                                 _free_role_remedy(h, seen[role], free), h.name, ("role",)))
        else:
            seen[role] = h
    return found


def _free_role_remedy(h: Hero, other: Hero, free: Sequence[str]) -> str:
    """How to give one of two heroes of one role a free role (`free`: the roles no active hero has):
    `hero set` names the hero, so not for two logs of one hero (the hero-file check says which to keep)."""
    if hero_key(h.name) == hero_key(other.name):
        return "give one of them a free role"
    return (f"give one of them a free role: drunagor hero set {shell_word(h.name)} --role "
            + (free[0] if free else "ROLE"))


def joining_chapter(story: Story) -> str:
    """A new hero joins before the next unfilled chapter of the Adventure Track (RB L961, L980)."""
    nxt = story.next_chapter()
    if nxt is None:
        raise RuleError("the campaign is finished: chapter 09 is on the Adventure Track, so there is no "
                        "chapter left to join before", rule="hero-joined",
                        remedy="start a new campaign (drunagor new NAME)")
    return nxt


# ------------------------------------------------------------------------------------ one hero


def starting_gear(hero: Hero) -> int:
    return sum(1 for i in hero.equipment if i.kind == "starting")


def log_findings(hero: Hero, story: Story | None = None) -> list[Finding]:
    """What one active hero's Campaign Log should hold besides rewards: the starting kit (RB L989),
    known aura and status names (a typo guard: unknown names are warnings)."""
    found: list[Finding] = []
    gear = starting_gear(hero)
    if gear < STARTING_GEAR:
        found.append(Finding("starting-gear", f"{hero.name} has {gear} of the {STARTING_GEAR} pieces of Starting "
                             "Gear a new hero starts with (RB L989)",
                             f'record them: drunagor hero gain {shell_word(hero.name)} ITEM --kind starting',
                             hero.name, ("equipment",), "warning"))
    if hero.aura and catalog.canonical(hero.aura, catalog.names("auras")) is None:
        found.append(_unknown(hero, "aura", hero.aura, catalog.names("auras"), ("aura",)))
    statuses = catalog.names("hero_statuses")
    for i, s in enumerate(hero.statuses):  # the key names the entry: its own line (SPEC 4)
        if catalog.canonical(s, statuses) is None:
            found.append(_unknown(hero, "hero status", s, statuses, ("statuses", i)))
    for i, item in enumerate(hero.equipment):
        if item.kind == "spoils" and not catalog.is_spoils(item.name) and not _stated(item.name, "spoils", story):
            found.append(_unknown(hero, "Spoils of the Hero card", item.name,
                                  tuple(s["name"] for s in catalog.spoils_items()), ("equipment", i)))
    return found


def _stated(name: str, kind: str, story: Story | None) -> bool:
    """Whether the party recorded `name` as a card of `kind` under [cards] (`hero gain --kind`, `card
    set --kind`): a name the party stated is a known name, not a slip of the spelling."""
    return story is not None and facts_of(name, story.cards)["kind"] == kind


def _unknown(hero: Hero, what: str, name: str, known, key) -> Finding:

    hint = closest(name, known)
    remedy = f"did you mean {hint!r}?" if hint else "check the spelling on the card"
    return Finding("unknown-name", f"{hero.name}: unknown {what} {name!r}", remedy, hero.name, key, "warning")


@record
class Departure:
    """What happens to a leaving hero's cards (RB L972-974): Consumable Items go to the party stash
    to be handed out; everything else, Spoils included, returns to the box."""

    to_stash: tuple[str, ...]
    to_box: tuple[str, ...]


def leaving(hero: Hero) -> Departure:
    return Departure(tuple(i.name for i in hero.equipment if i.kind == "consumable"),
                     tuple(i.name for i in hero.equipment if i.kind != "consumable"))


@record
class UpgradeOption:
    item: str
    from_quality: str
    to_quality: str
    discards: tuple[str, ...]


def next_quality(quality: str | None) -> str | None:
    """Standard -> Improved -> Ultimate, one step at a time (RB L421-423); None at the top."""
    q = quality or "standard"
    i = QUALITIES.index(q) if q in QUALITIES else 0
    return QUALITIES[i + 1] if i + 1 < len(QUALITIES) else None


def upgrade_options(hero: Hero, epic: Iterable[str] = ()) -> list[UpgradeOption]:
    """The Spoils upgrades this hero could make now (RB L411-419): Artisan's Tools in the bag, and a
    different card in the bag that is not a Consumable, an Epic Item or Starting Gear. `epic` names
    items the party recorded as Epic. A hint for the Camp phase; `spoils upgrade` enforces it."""
    epic_keys = {e.casefold() for e in epic}
    if not any(i.name.casefold() == ARTISANS_TOOLS.casefold() and i.place == "bag" for i in hero.equipment):
        return []
    spare = [i for i in hero.equipment if i.place == "bag" and i.kind in ("spoils", "adventure")
             and i.name.casefold() not in epic_keys and not catalog.is_known_epic(i.name)]
    options = []
    for item in hero.equipment:
        if item.kind != "spoils":
            continue
        to = next_quality(item.quality)
        discards = tuple(s.name for s in spare if s is not item and s.name.casefold() != item.name.casefold())
        if to and discards:
            options.append(UpgradeOption(item.name, item.quality or "standard", to, discards))
    return options


def skill_chapter_findings(hero: Hero, story: Story, since: str) -> list[Finding]:
    """Skills recorded against a chapter past its reward while a later completed chapter lacks its own
    (RB L1082): a skill learned on a machine that had not pulled that later chapter yet (`sync`), so
    `hero learn` recorded the chapter before. Each such skill is paired with the later chapter it
    belongs to, the oldest first; a warning with the fix. `since`: the chapter rewards count from."""
    done = [ch for ch in CHAPTERS if ch >= since and story.track.get(ch) == "completed"]
    found: list[Finding] = []
    for level in (1, 2):
        field = f"level{level}_skills"
        given = {ch: chapter_reward(ch).as_dict().get(field, 0) for ch in done}
        at = {ch: [i for i, s in enumerate(hero.skills) if s.level == level and s.chapter == ch] for ch in done}
        short = [ch for ch in done for _ in range(max(given[ch] - len(at[ch]), 0))]
        for ch in done:
            for i in at[ch][given[ch]:]:
                later = next((d for d in short if d > ch), None)
                if later is None:
                    continue
                short.remove(later)
                s = hero.skills[i]
                who, skill = shell_word(hero.name), shell_word(s.name)
                fix = (f"drunagor hero unlearn {who} {skill}, then drunagor hero learn {who} {skill} --tree {s.tree} "
                       f"--level {level} (recorded against chapter {later})" if later == done[-1]
                       else f'write chapter = "{later}" in its entry')
                gives = plural(given[ch], f"Level {level} skill") if given[ch] else f"no Level {level} skill"
                found.append(Finding(
                    "skill-chapter", f"{hero.name}'s {s.name} is recorded against chapter {ch}, which gives "
                    f"{gives}, while chapter {later}'s is not recorded: it was "
                    f"learned after chapter {later}, on a machine that had not pulled it yet (sync)",
                    fix, hero.name, ("skills", i), "warning"))
    return found


def last_completed(story: Story, since: str = "01") -> str | None:
    """The last chapter completed on the Adventure Track from `since` on: the chapter whose reward a
    skill learned now is recorded against."""
    done = [ch for ch in CHAPTERS if ch >= since and story.track.get(ch) == "completed"]
    return done[-1] if done else None


# ------------------------------------------------------------------------------------- cards


def recorded_kind(story: Story, name: str) -> str | None:
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


def kind_facts(kind: str) -> dict:
    """What [cards] records about an item of `kind` the catalog does not know; `epic` too for an
    Adventure Item, as the Spoils upgrade rule needs it (RB L413-417)."""
    facts: dict = {"kind": kind}
    if kind in ("adventure", "epic"):
        facts["epic"] = kind == "epic"
    return facts


def stored_entry(story: Story, name: str, quality: str | None) -> str | None:
    """The `stored` entry that keeps this card out of the campaign, if any (RB L429-431)."""
    forms = {name.casefold()}
    if quality:
        forms |= {f"{name} ({quality})".casefold(), f"{name} ({quality.capitalize()})".casefold()}
    return next((s for s in story.stored if s.casefold() in forms), None)


@record
class GainedKind:
    """How a gained card is written: its kind, its quality (Spoils only), and whether its kind is
    to be remembered under [cards] (a card the catalog does not know)."""

    kind: str
    quality: str | None
    remember: bool


def gained_kind(name: str, kind: str | None, quality: str | None, known: str | None,
                recorded: str | None) -> GainedKind:
    """The kind of a card a hero gains: `kind` as the user gave it (or None), checked against what
    the catalog knows (`known`) and what the party recorded (`recorded`). Spoils are always received
    Standard (RB L397)."""
    remember = False
    if kind is None:
        kind = known or recorded
        if kind is None:
            raise UsageError(f"drunagor does not know the card {name!r}, so not its kind",
                             remedy="say it once with --kind starting|spoils|adventure|epic|consumable "
                                    "(remembered under [cards] in story.toml)")
    elif known is not None and kind != known and not (known == "adventure" and kind == "epic"):
        raise UsageError(f"{name} is {a(known)} card, not {kind}",
                         remedy="leave out --kind: the catalog knows this card")
    elif known is None and recorded != kind:
        remember = True
    if quality and kind != "spoils":
        raise UsageError("--quality is for Spoils of the Hero cards only")
    if kind == "spoils":
        quality = quality or "standard"
    return GainedKind(kind, quality, remember)

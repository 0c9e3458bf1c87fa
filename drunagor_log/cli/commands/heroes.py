"""Campaign Logs: `drunagor hero ...`, `drunagor recruit`, `drunagor camp`.

Each command parses its options, calls one operation of `ops/heroes.py` (where the rules are
checked and the files edited) and prints what it returns.
"""

# No `from __future__ import annotations` here: Typer would eval every string annotation of every
# command at each start.
from typing import Annotated

import typer

from ..common import CommitOpt, JsonOpt, campaign_root, game, look, open_campaign, perform
from ..terminal import term

hero_app = typer.Typer(
    help="Campaign Logs: one TOML file per hero under heroes/ (skills, Class Abilities, equipment, aura, "
    "statuses, rewards owed).\n\nExample: drunagor hero show andreas",
    no_args_is_help=True,
)


NewOpt = Annotated[bool, typer.Option("--new", help="The name is one drunagor does not know: record it as typed.")]


def _ops():
    from ...ops import heroes

    return heroes


def _equipment():
    from ...ops import equipment

    return equipment


def _skills():
    from ...ops import skills

    return skills


@hero_app.command("add")
def add(
    name: Annotated[str, typer.Argument(click_type=game("hero of the game", records=True),
        help="The hero: Andreas, Catharina, Nyx, Vacrem, or one from another product.")],
    role: Annotated[str, typer.Option("--role", click_type=game("Dungeon Role"),
            help="Dungeon Role: Defender, Leader, Controller, Support or Striker.")],
    cls: Annotated[str | None, typer.Option("--class", click_type=game("class"),
            help="Class; for an Awakenings hero only its special class (Hero Pack #1).")] = None,
    player: Annotated[str | None, typer.Option("--player", help="Who plays the hero.")] = None,
    gear: Annotated[list[str] | None, typer.Option(
        "--gear", click_type=game("Starting Gear card", records=True),
        help="A piece of Starting Gear (twice: a hero starts with 2).")] = None,
    new: NewOpt = False,
    commit: CommitOpt = False,
) -> None:
    """A new hero joins the party, with Dungeon Role cards I and II and 2 pieces of Starting Gear.

    Joining after chapter 01, the hero is owed the new-recruit rewards of the next chapter
    (RB L1005-1016); the command lists them.

    The example campaign has its 4 heroes (max_heroes = 4, RB L943), so one leaves first.

    Example: drunagor hero remove Vacrem && drunagor hero add Kellan --role Leader --class Paladin --player Eva
    """
    gear_ = list(gear or [])
    perform(_ops().add, name, role, cls=cls, player=player, gear=gear_, new=new, commit=commit)


@hero_app.command("show")
def show(
    name: Annotated[str, typer.Argument(click_type=game("hero"),
            help="The hero (any case, a unique prefix is enough).")],
    json: JsonOpt = False,
) -> None:
    """One Campaign Log: class, role, skills, Class Abilities, equipment, aura, statuses, rewards owed.

    Example: drunagor hero show cath
    """
    look(_ops().show, name, json=json, show=_print_hero)


@hero_app.command("list")
def list_(json: JsonOpt = False) -> None:
    """All heroes: class, role, player, when they joined, rewards owed; retired heroes last.

    Example: drunagor hero list
    """
    look(_ops().list_heroes, json=json, show=_print_heroes)


def _print_heroes(data: dict) -> None:
    rows = data["heroes"]
    if not rows:
        term.line("no heroes yet (drunagor hero add NAME --role ROLE)")
        return
    from ...rules import rewards

    term.table(["Hero", "Class", "Role", "Player", "Joined", "Owes"],
               [[r["name"], r["class"], r["role"], r["player"] or "", _joined(r),
                 ("left" + (f" before {r['left']}" if r["left"] else "")) if r["retired"]
                 else (rewards.describe(r["owes"]) or "nothing")] for r in rows])


def _joined(r: dict) -> str:
    """"01", or for a hero who came back "01, left 03, back 05"."""
    if r["retired"] or not r["returned"]:
        return r["joined"]
    left = f", left {r['left']}" if r["left"] else ""
    return f"{r['joined']}{left}, back {r['returned']}"


@hero_app.command("learn")
def learn(
    name: Annotated[str, typer.Argument(click_type=game("hero"), help="The hero.")],
    skill: Annotated[str, typer.Argument(help="The skill, as written on the card.")],
    tree: Annotated[str, typer.Option("--tree", click_type=game("skill tree"),
            help="melee, ranged, agility, wisdom, or role (Dungeon Role skill).")],
    level: Annotated[int, typer.Option("--level", help="1 or 2.")],
    commit: CommitOpt = False,
) -> None:
    """Record a Hero or Dungeon Role Skill the hero learned (a chapter reward, or a recruit's).

    Example: drunagor hero learn Nyx "Shadow Step" --tree agility --level 1
    """
    perform(_skills().learn, name, skill, tree=tree, level=level, commit=commit)


@hero_app.command("ability")
def ability(
    name: Annotated[str, typer.Argument(click_type=game("hero"), help="The hero.")],
    ability_: Annotated[str, typer.Argument(metavar="ABILITY", help="The Class Ability, as written on the card.")],
    commit: CommitOpt = False,
) -> None:
    """Record a Class Ability the hero gained.

    Example: drunagor hero ability Andreas "Divine Shield"
    """
    perform(_skills().ability, name, ability_, commit=commit)


@hero_app.command("relearn")
def relearn(
    name: Annotated[str, typer.Argument(click_type=game("hero"), help="The hero.")],
    old: Annotated[str, typer.Argument(click_type=game("learned skill or ability"),
            help="The skill or Class Ability to give up.")],
    new: Annotated[str, typer.Argument(help="The one chosen instead.")],
    tree: Annotated[str | None, typer.Option("--tree", click_type=game("skill tree"),
            help="For a skill: the new skill's tree (default: the old one's).")] = None,
    commit: CommitOpt = False,
) -> None:
    """Relearning (RB L1034-1040): re-choose a skill or Class Ability; the counts stay the same.

    A skill stays at its level (and keeps its chapter); a Class Ability is replaced by another.

    Example: drunagor hero relearn Nyx "Agility 1" "Quick Strike" --tree melee
    """
    perform(_skills().relearn, name, old, new, tree=tree, commit=commit)


@hero_app.command("gain")
def gain(
    name: Annotated[str, typer.Argument(click_type=game("hero"), help="The hero.")],
    item: Annotated[str, typer.Argument(click_type=game("card", records=True),
            help="The card: Spoils, Adventure Item, Potion, Scroll, Starting Gear...")],
    kind: Annotated[str | None, typer.Option(
        "--kind",
        help="starting, spoils, adventure, epic or consumable (needed once for a card the catalog does not "
             "know).")] = None,
    quality: Annotated[str | None, typer.Option(
        "--quality", help="For Spoils: standard (default), improved, ultimate.")] = None,
    bag: Annotated[bool, typer.Option("--bag", help="Put it in the bag instead of equipping it.")] = False,
    reward: Annotated[bool, typer.Option(
        "--reward", help="A Spoils card an Interaction or Interlude reward gave above Standard (RB L405).")] = False,
    force: Annotated[bool, typer.Option(
        "--force", help="Record a Spoils card above Standard anyway (a correction).")] = False,
    new: NewOpt = False,
    commit: CommitOpt = False,
) -> None:
    """The hero gains a card: equipped, or in the bag with --bag (Consumables always go to the bag).

    The kind comes from the catalog, or from [cards] in story.toml; for a card neither knows, give
    --kind once and it is remembered there. A name very like a known card's ("Leathr Armor") is
    refused with "did you mean" unless --new. Cards in `stored` can never be gained again (RB L429-431).
    Spoils are received Standard (RB L397); --quality improved|ultimate needs --reward or --force,
    recorded under corrections in story.toml.

    Example: drunagor hero gain Nyx "Ragged Doll" --bag
    """
    perform(_equipment().gain, name, item, kind=kind, quality=quality, bag=bag, new=new, reward=reward,
            force=force, commit=commit)


@hero_app.command("drop")
def drop(
    name: Annotated[str, typer.Argument(click_type=game("hero"), help="The hero.")],
    item: Annotated[str, typer.Argument(click_type=game("held card"),
            help="The card to remove from the Campaign Log.")],
    commit: CommitOpt = False,
) -> None:
    """Remove a card from the hero's Campaign Log (used, discarded, lost).

    Example: drunagor hero drop Andreas "Scroll of Incinerate"
    """
    perform(_equipment().drop, name, item, commit=commit)


@hero_app.command("give")
def give(
    giver: Annotated[str, typer.Argument(click_type=game("hero"),
            metavar="FROM", help="The hero who gives, or `stash` (the party stash).")],
    to: Annotated[str, typer.Argument(click_type=game("hero"),
            help="The hero who receives, or `stash` (a Consumable back to the stash).")],
    item: Annotated[str, typer.Argument(click_type=game("held card"), help="The card.")],
    commit: CommitOpt = False,
) -> None:
    """Hand a card to another hero (it goes to their bag), or hand out one from the party stash.

    A Spoils card keeps counting as the reward of the hero who earned it (`from` in the log).
    `hero give HERO stash ITEM` puts a Consumable back in the stash (one taken by mistake).

    The example campaign's stash is empty until a hero leaves with Consumables.

    Example: drunagor hero remove Vacrem && drunagor hero give stash Nyx "Artisan's Tools"
    """
    perform(_equipment().give, giver, to, item, commit=commit)


@hero_app.command("equip")
def equip(
    name: Annotated[str, typer.Argument(click_type=game("hero"), help="The hero.")],
    item: Annotated[str, typer.Argument(click_type=game("held card"), help="A card the hero has.")],
    commit: CommitOpt = False,
) -> None:
    """Equip a card the hero has in the bag.

    Example: drunagor hero equip Catharina "Chaos Staff"
    """
    perform(_equipment().equip, name, item, commit=commit)


@hero_app.command("unequip")
def unequip(
    name: Annotated[str, typer.Argument(click_type=game("hero"), help="The hero.")],
    item: Annotated[str, typer.Argument(click_type=game("held card"), help="A card the hero has equipped.")],
    commit: CommitOpt = False,
) -> None:
    """Put an equipped card in the hero's bag.

    Example: drunagor hero unequip Vacrem "Heavy Shield"
    """
    perform(_equipment().unequip, name, item, commit=commit)


@hero_app.command("aura")
def aura(
    name: Annotated[str, typer.Argument(click_type=game("hero"), help="The hero.")],
    aura_: Annotated[str | None, typer.Argument(click_type=game("Aura", records=True),
        metavar="[AURA]",
        help="The Aura; it replaces the one the hero has.")] = None,
    clear: Annotated[bool, typer.Option("--clear", help="The hero loses their Aura.")] = False,
    new: NewOpt = False,
    commit: CommitOpt = False,
) -> None:
    """Set the hero's Aura (one at a time: a new one replaces the old), or --clear it.

    The name is one drunagor knows (any case, a unique beginning); one it does not know is recorded
    only with --new. To take back an Aura set by mistake, set the old one again, or --clear it.

    Example: drunagor hero aura Andreas Taunt
    """
    perform(_ops().aura, name, aura_, clear=clear, new=new, commit=commit)


@hero_app.command("status")
def status(
    name: Annotated[str, typer.Argument(click_type=game("hero"), help="The hero.")],
    action: Annotated[str, typer.Argument(metavar="add|remove", help="add or remove.")],
    status_: Annotated[str, typer.Argument(click_type=game("hero status", records=True),
            metavar="STATUS", help="The Campaign Log status (removed at Camp).")],
    new: NewOpt = False,
    commit: CommitOpt = False,
) -> None:
    """Add or remove a status on the hero's Campaign Log (all are removed in the Camp phase).

    The name is one drunagor knows (any case, a unique beginning: `add hau` is Haunted); one it
    does not know is added only with --new. `remove` takes back a status added by mistake.

    Example: drunagor hero status Nyx add Haunted
    """
    perform(_ops().status, name, action, status_, new=new, commit=commit)


@hero_app.command("remove")
def remove(
    name: Annotated[str, typer.Argument(click_type=game("hero"), help="The hero who leaves the party.")],
    commit: CommitOpt = False,
) -> None:
    """A hero leaves the party (RB L968-974): Consumables go to the party stash, everything else
    returns to the box; the Campaign Log is kept, marked retired = true.

    Example: drunagor hero remove Vacrem
    """
    perform(_ops().remove, name, commit=commit)


# ---------------------------------------------------------------------------------- corrections


@hero_app.command("unlearn")
def unlearn(
    name: Annotated[str, typer.Argument(click_type=game("hero"), help="The hero.")],
    skill: Annotated[str, typer.Argument(click_type=game("learned skill"),
            help="The skill recorded by mistake (a unique beginning is enough).")],
    commit: CommitOpt = False,
) -> None:
    """Take back a skill recorded by mistake with `hero learn`: its entry leaves the Campaign Log.

    To re-choose a skill the hero did learn, use `hero relearn` (RB L1034-1040) instead.

    Example: drunagor hero unlearn Nyx "Melee 1"
    """
    perform(_skills().unlearn, name, skill, commit=commit)


@hero_app.command("forget")
def forget(
    name: Annotated[str, typer.Argument(click_type=game("hero"), help="The hero.")],
    ability_: Annotated[str, typer.Argument(click_type=game("learned Class Ability"),
            metavar="ABILITY", help="The Class Ability recorded by mistake.")],
    commit: CommitOpt = False,
) -> None:
    """Take back a Class Ability recorded by mistake with `hero ability`.

    Example: drunagor hero forget Nyx "Assassin ability (chapter 03)"
    """
    perform(_skills().forget, name, ability_, commit=commit)


@hero_app.command("set")
def set_(
    name: Annotated[str, typer.Argument(click_type=game("hero"), help="The hero.")],
    player: Annotated[str | None, typer.Option("--player", help="Who plays the hero (\"\" for nobody).")] = None,
    role: Annotated[str | None, typer.Option("--role", click_type=game("Dungeon Role"),
            help="Dungeon Role: one no other hero of the party has.")] = None,
    cls: Annotated[str | None, typer.Option("--class", click_type=game("class"),
            help="Class; for an Awakenings hero its class or special class.")] = None,
    commit: CommitOpt = False,
) -> None:
    """Correct a hero's player, Dungeon Role or class.

    A Dungeon Role is taken by one hero only (RB L941-943, one Initiative Track slot each); an
    Awakenings hero is their class or, with Hero Pack #1, their special class (RB L947-949).

    Example: drunagor hero set Nyx --player Dana
    """
    perform(_ops().set_hero, name, player=player, role=role, cls=cls, commit=commit)


@hero_app.command("return")
def return_(
    name: Annotated[str, typer.Argument(click_type=game("hero who left"), help="A hero who left the party.")],
    player: Annotated[str | None, typer.Option("--player", help="Who plays the hero now.")] = None,
    role: Annotated[str | None, typer.Option("--role", click_type=game("Dungeon Role"),
            help="Another Dungeon Role, if theirs is taken.")] = None,
    commit: CommitOpt = False,
) -> None:
    """A hero who left rejoins the party before the next chapter, with their Campaign Log.

    As for `hero add`: the party's limit and one hero per Dungeon Role (RB L941-943), and the
    rewards a recruit of that chapter takes (RB L1005-1016), less the skills and Class Abilities
    the log keeps; their Spoils went back to the box when they left (RB L972-974). `hero list`
    shows when they left and came back.

    Example: drunagor hero remove Vacrem && drunagor hero return Vacrem --player Davi
    """
    perform(_ops().return_hero, name, player=player, role=role, commit=commit)


# ------------------------------------------------------------------------------ recruit, camp


def recruit(
    chapter: Annotated[str | None, typer.Option("--chapter", click_type=game("chapter"),
            help="The chapter the new hero joins before (default: the next one).")] = None,
    json: JsonOpt = False,
) -> None:
    """The new-recruit table (RB L1005-1016): the rewards a hero joining before chapter N needs.

    The row of the next chapter (or --chapter N) is marked.

    Example: drunagor recruit --chapter 6
    """
    from ...errors import UsageError

    root = None
    if chapter is None:
        try:
            root = campaign_root()
        except UsageError:
            pass  # no campaign here: the table alone (a campaign found but unreadable is refused, exit 3)
    if root is None:
        data = _ops().recruit(None, chapter).data
    else:
        with open_campaign() as c:
            data = _ops().recruit(c).data
    if json:
        term.json(data)
        return
    _print_recruit(data)


def camp(
    dry_run: Annotated[bool, typer.Option("--dry-run",
                                          help="Show what the Camp phase removes; write nothing.")] = False,
    json: JsonOpt = False,
    commit: CommitOpt = False,
) -> None:
    """The Camp phase, between adventures: clears every hero's Campaign Log statuses and shows what may
    be done now.

    It first lists the statuses it removes. Now the Chest deck may be changed (RB L361), Spoils
    upgraded (RB L411), and owed rewards recorded. Refused while an adventure is under way.

    Example: drunagor adventure end --won && drunagor camp --dry-run
    """
    change, changed = perform(_ops().camp, dry_run=dry_run, commit=commit, quiet=json, notes_first=True)
    if json:
        data = {k: v for k, v in change.data.items() if k not in ("stash", "chest_blocked")}
        term.json({**data, "changed": changed})
        return
    _print_camp(change.data)


def _print_hero(d: dict) -> None:
    from ...rules import rewards

    term.heading(f"{d['name']}: {d['class']}, {d['role']} (role cards {' and '.join(d['role_cards'])})")
    if d["player"]:
        term.line(f"Player: {d['player']}")
    term.line(f"Joined before chapter {d['joined']}" + (f"; left before chapter {d['left']}" if d["left"] else "")
              + ("; retired" if d["retired"] else "")
              + (f"; returned before chapter {d['returned']}" if d["returned"] and not d["retired"] else ""))
    term.line(f"Aura: {d['aura'] or 'none'}")
    term.line("Statuses: " + (", ".join(d["statuses"]) or "none"))
    term.line("Class Abilities: " + (", ".join(d["class_abilities"]) or "none"))
    if d["skills"]:
        term.table(["Skill", "Tree", "Level", "Chapter"],
                   [[s["name"], s["tree"], s["level"], s["chapter"] or ""] for s in d["skills"]], title="Skills")
    else:
        term.line("Skills: none")
    if d["equipment"]:
        term.table(["Item", "Kind", "Quality", "Place"],
                   [[i["name"] + (f" (from {i['from']})" if i["from"] else ""), i["kind"], i["quality"] or "",
                     i["place"]] for i in d["equipment"]], title="Equipment")
    else:
        term.line("Equipment: none")
    for u in d["upgrades"]:
        how = "a reward (nothing disposed of)" if u.get("reward") else f"discarding {u['discarded']}"
        term.line(f"Upgrade: {u['item']} to {u['to']}, {how}"
                  + (f" (after chapter {u['chapter']})" if u["chapter"] else ""))
    if d["owes"] is not None:
        term.line("Rewards owed: " + (rewards.describe(d["owes"]) or "nothing"))
        over = rewards.describe(d["excess"])
        if over:
            term.line("More than the chapters give: " + over)


def _print_recruit(data: dict) -> None:
    from ...rules import rewards

    marked = data["chapter"]
    term.heading("Matching a New Recruit to Your Party Level (RB L1005-1016)")
    table = []
    for r in data["rows"]:
        text = rewards.describe(r) or "only the rewards received for creating the hero"
        table.append(["->" if r["chapter"] == marked else "", r["chapter"], text])
    term.table(["", "Chapter", "Rewards, in addition to the starting kit"], table)
    if marked:
        term.line(f"A hero joining before chapter {marked} takes: "
                  + (rewards.describe(rewards.recruit_row(marked)) or "only the starting kit"))


def _print_camp(data: dict) -> None:
    from ...rules import rewards
    from ...text import shell_word

    term.line(f"Chest deck: {data['chest_deck']}")
    if data["finished"]:  # the deck is prepared for an adventure (RB L361, L435): none is left
        term.line("The campaign is finished: no adventure is left to prepare the Chest deck for")
    elif data["chest_blocked"] is None:
        term.line("The Chest deck may be changed now (RB L361): drunagor chest swap OUT IN; a change of composition "
                  "returns every Potion and Scroll the heroes hold")
    else:
        term.line(f"The Chest deck may not be changed now: {data['chest_blocked']}")
    for u in data["upgrades"]:
        other = shell_word(u["discard"][0]) if len(u["discard"]) == 1 else "OTHER"
        term.line(f"Spoils upgrade possible: {u['hero']}'s {u['item']} {u['from']} -> {u['to']} with Artisan's "
                  f"Tools and one of {', '.join(u['discard'])} (drunagor spoils upgrade "
                  f"{shell_word(u['hero'])} {shell_word(u['item'])} --discard {other})")
    if not data["upgrades"]:
        term.line("Spoils upgrades: none possible now (needs Artisan's Tools and a spare card in the bag, RB L413-419)")
    owing = [(n, rewards.describe(t)) for n, t in data["owes"].items() if rewards.describe(t)]
    for n, text in owing:
        term.line(f"{n} is owed: {text}")
    if not owing:
        term.line("Rewards owed: none")
    if data["stash"]:
        term.line("Party stash, to hand out (drunagor hero give stash HERO ITEM): " + ", ".join(data["stash"]))


def register(app: typer.Typer) -> None:
    app.add_typer(hero_app, name="hero")
    app.command()(recruit)
    app.command()(camp)

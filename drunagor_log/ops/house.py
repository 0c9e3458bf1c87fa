"""House rules: the `[rules]` table of story.toml (`drunagor rules show|set`, SPEC 10).

Three settings a party chooses once and may change between adventures:

- the Trauma Cube limit, named by the rulebook's difficulties (RB L1018-1032): each hero holds one
  Trauma Cube as a rule ("normal", RB L1026), two Taking It Easy ("easy", RB L1028), none in the
  harder game ("hard", RB L1032); any other limit is the party's own house rule;
- the party's size: four heroes, five only with extra-hero content (RB L941-943);
- the runes in the bag (community data: the party fixes it to the bag on its table).

Every change is refused where the campaign already contradicts it: five active heroes and
`--max-heroes 4`, an adventure under way that holds another rune bag, a hero in it holding more
Trauma Cubes than the new limit allows. A refusal writes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import catalog
from ..errors import RuleError, UsageError
from ..names import lookup
from ..store import edit
from ..text import plural
from . import Change
from .losing import trauma_bonus
from .typed import typed_number

if TYPE_CHECKING:
    from ..campaign import Campaign
    from ..model import Rules

RULE = "rules"
#: The difficulties of RB L1018-1032 and the Trauma Cubes a hero holds in each.
DIFFICULTIES = {"easy": 2, "normal": 1, "hard": 0}
DIFFICULTY_TEXT = {
    "easy": "Taking It Easy: each hero holds 2 Trauma Cubes, the third defeats them (RB L1028)",
    "normal": "each hero holds 1 Trauma Cube, the second defeats them (RB L1026)",
    "hard": "the harder game: the first Trauma Cube defeats a hero (RB L1032)",
}
MAX_TRAUMA_LIMIT = 9  # as story.toml allows (model.py)
MAX_RUNES = 20  # of one colour: the bag on the table holds 7 or 8 of each
BETWEEN = "change it between adventures (end the adventure first)"


def difficulty(trauma_limit: int) -> str | None:
    """The rulebook's name for a Trauma Cube limit; None for a limit of the party's own."""
    return next((name for name, limit in DIFFICULTIES.items() if limit == trauma_limit), None)


def rune_bag(rules: Rules) -> dict[str, int]:
    """The campaign's rune bag: story.toml's, else drunagor's default (community data)."""
    return dict(rules.rune_bag) or dict(catalog.DEFAULT_RUNE_BAG)


def rules_json(rules: Rules) -> dict[str, Any]:
    return {"difficulty": difficulty(rules.trauma_limit), "trauma_limit": rules.trauma_limit,
            "max_heroes": rules.max_heroes, "rune_bag": rune_bag(rules)}


def show(c: Campaign) -> Change:
    """The house rules now, for `rules show` (data: the --json object; `notes`: the lines)."""
    rules = c.story.rules
    data = rules_json(rules)
    return Change(data=data, notes=_lines(data, bool(rules.rune_bag)))


def _lines(data: dict[str, Any], bag_recorded: bool) -> tuple[str, ...]:
    name = data["difficulty"]
    limit = data["trauma_limit"]
    level = (f"{name}: {DIFFICULTY_TEXT[name]}" if name else
             f"a house rule of the party's own: each hero holds {limit} Trauma Cubes (RB L1026-1032 give 0, 1 "
             "or 2)")
    bag = ", ".join(f"{colour} {n}" for colour, n in data["rune_bag"].items())
    total = sum(data["rune_bag"].values())
    return (f"Difficulty: {level}",
            f"Trauma Cube limit: {limit}",
            f"Heroes: at most {data['max_heroes']} (four as a rule; five only with extra-hero content such as "
            "Spoils of War or Hero Pack #1, RB L941-943)",
            f"Rune bag: {bag} ({total} runes" + ("" if bag_recorded else "; drunagor's default, community data")
            + ")")


# ----------------------------------------------------------------------------------------- set


def set_rules(c: Campaign, *, difficulty_name: str | None = None, trauma_limit: int | None = None,
              max_heroes: int | None = None, bag: str | None = None) -> Change:
    """Change the house rules in story.toml [rules]; each change is checked against the campaign
    first, and nothing is written when one is refused."""
    limit = _trauma_limit(difficulty_name, trauma_limit)
    if limit is None and max_heroes is None and bag is None:
        raise UsageError("nothing to change", rule=RULE,
                         remedy="give --difficulty, --trauma-limit, --max-heroes or --rune-bag "
                                "(drunagor rules show prints the rules now)")
    if max_heroes is not None and max_heroes not in (4, 5):
        raise UsageError(f"--max-heroes must be 4 or 5, not {max_heroes}", rule=RULE,
                         remedy="4 heroes; 5 only with extra-hero content (RB L941-943)")
    rules = c.story.rules
    new_bag = _parse_bag(bag, rune_bag(rules)) if bag is not None else None
    if max_heroes is not None:
        with c.story_file.about(("rules", "max_heroes")):
            _check_party(c, max_heroes)
    state = _adventure(c)
    if state is not None and c.adventure_file is not None:
        with c.adventure_file.about():
            _check_adventure(c, state, max_heroes, limit, new_bag)
    return _write(c, rules, limit, max_heroes, new_bag)


def _write(c: Campaign, rules: Rules, limit: int | None, max_heroes: int | None,
           new_bag: dict[str, int] | None) -> Change:
    tbl = edit.table(c.story_file.edit(), "rules")
    said = []
    after: dict[str, Any] = {"trauma_limit": rules.trauma_limit, "max_heroes": rules.max_heroes,
                             "rune_bag": rune_bag(rules)}
    if limit is not None:
        edit.set_value(tbl, "trauma_limit", limit)
        after["trauma_limit"] = limit
        name = difficulty(limit)
        said.append(f"Trauma Cube limit {limit}" + (f" ({name})" if name else " (a house rule of your own)"))
    if max_heroes is not None:
        edit.set_value(tbl, "max_heroes", max_heroes)
        after["max_heroes"] = max_heroes
        said.append(f"at most {plural(max_heroes, 'hero', 'heroes')}")
    if new_bag is not None:
        edit.set_value(tbl, "rune_bag", new_bag)
        after["rune_bag"] = new_bag
        said.append("rune bag " + ", ".join(f"{colour} {n}" for colour, n in new_bag.items()))
    data = {"difficulty": difficulty(after["trauma_limit"]), **after}
    return Change("house rules: " + "; ".join(said), data=data)


def _trauma_limit(difficulty_name: str | None, trauma_limit: int | None) -> int | None:
    """The limit --difficulty or --trauma-limit asks for (both: they must agree)."""
    if trauma_limit is not None and not 0 <= trauma_limit <= MAX_TRAUMA_LIMIT:
        raise UsageError(f"--trauma-limit must be from 0 to {MAX_TRAUMA_LIMIT}, not {trauma_limit}", rule=RULE,
                         remedy="1 as a rule; 2 Taking It Easy; 0 harder (RB L1026-1032)")
    if difficulty_name is None:
        return trauma_limit
    name = lookup(difficulty_name, {n: n for n in DIFFICULTIES}, "difficulty")
    limit = DIFFICULTIES[name]
    if trauma_limit is not None and trauma_limit != limit:
        raise UsageError(f"--difficulty {name} is a Trauma Cube limit of {limit}, and --trauma-limit says "
                         f"{trauma_limit}", rule=RULE, remedy="give one of them")
    return limit


def _parse_bag(text: str, bag: dict[str, int]) -> dict[str, int]:
    """'red=6,gray=8' -> the bag with those colours changed (the others kept)."""
    new = dict(bag)
    options = {colour: colour for colour in catalog.RUNE_COLOURS}
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        colour, eq, count = part.partition("=")
        n = typed_number(count, what=f"--rune-bag {part.strip()!r}:", example="7") if eq else None
        if n is None or not count.strip().isdigit():
            raise UsageError(f"--rune-bag {part.strip()!r} is not COLOUR=N", rule=RULE,
                             remedy="write the runes of each colour, e.g. --rune-bag red=7,blue=8")
        name = lookup("gray" if colour.strip().casefold() == "grey" else colour, options, "rune colour")
        if n > MAX_RUNES:
            raise UsageError(f"--rune-bag {name}={n}: a bag holds at most {MAX_RUNES} runes of a colour", rule=RULE,
                             remedy="count the runes of that colour in your bag")
        new[name] = n
    if not sum(new.values()):
        raise UsageError("--rune-bag would leave the bag empty", rule=RULE, remedy="count the runes in your bag")
    return {colour: new.get(colour, 0) for colour in (*catalog.RUNE_COLOURS, *(k for k in new if k not in
                                                                              catalog.RUNE_COLOURS))}


def _adventure(c: Campaign):
    """The adventure under way (its state), or None between adventures."""
    return None if c.adventure_file is None else c.adventure()


def _check_party(c: Campaign, most: int) -> None:
    active = [h.name for h in c.active_heroes().values()]
    if len(active) > most:
        raise RuleError(f"the party has {len(active)} heroes ({', '.join(active)}), more than {most} (RB L943)",
                        rule=RULE, remedy="a hero must leave first (drunagor hero remove NAME)")


def _check_adventure(c: Campaign, state, most: int | None, limit: int | None, bag: dict[str, int] | None) -> None:
    """The adventure under way was set up with the rules as they are: a change it contradicts waits."""
    if most is not None and state.heroes > most:
        raise RuleError(f"the adventure of chapter {state.chapter} is played by {state.heroes} heroes, more than "
                        f"{most}", rule=RULE, remedy=BETWEEN)
    if limit is not None:
        _check_trauma_limit(c, state, limit)
    if bag is not None:
        _check_bag(state, bag)


def _check_trauma_limit(c: Campaign, state, limit: int) -> None:
    """A hero of the adventure under way holding more Trauma Cubes than the new limit would have been
    defeated already: the change would rewrite the table."""
    for hero, cubes in sorted(state.cubes.items()):
        held = cubes.get("trauma", 0)
        if held > limit + trauma_bonus(c, hero):
            cubes_text = f"{held} Trauma Cube" + ("" if held == 1 else "s")
            raise RuleError(f"{hero} holds {cubes_text} in the adventure of chapter {state.chapter}: a limit "
                            f"of {limit} would have defeated them", rule=RULE,
                            remedy=BETWEEN)


def _check_bag(state, bag: dict[str, int]) -> None:
    """The runes of the adventure under way (bag, Initiative Track, Piles) are the bag it started with."""
    totals = state.totals()
    if any(totals.get(colour, 0) != bag.get(colour, 0) for colour in {*totals, *bag}):
        held = ", ".join(f"{colour} {n}" for colour, n in totals.items() if n)
        raise RuleError(f"the adventure of chapter {state.chapter} is played with {held} (bag, Initiative Track and "
                        f"Piles of Runes)", rule=RULE,
                        remedy="change the bag between adventures (end the adventure first)")

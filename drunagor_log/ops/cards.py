"""Facts recorded about cards under `[cards]` in story.toml (SPEC "User-recorded facts", section 9):
`card show`, `card set` (record or correct a fact, checked by the rules that use it) and `card forget`
(the inverse: the entry, or some of its facts, goes).

    with Campaign(root) as c:
        ops.cards.set_facts(c, "Elixir of Doom", type_="potion", rarity="rare")
        ops.cards.forget(c, "Elixir of Doom")      # the file is as before
        c.save()
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..errors import RuleError, UsageError
from ..model import EQUIPMENT_KINDS
from ..names import resolve
from ..rules import cards, chest, commander
from ..rules.chest import recorded, same_card
from ..store import edit
from ..text import shell_word
from ..values import replace
from . import Change
from .typed import choice

if TYPE_CHECKING:
    from ..campaign import Campaign
    from ..model import Story

WHAT = "card"


def _same(a: str, b: str) -> bool:
    return same_card(a, b)


def resolve_card(query: str, names: Iterable[str], *, new: bool = False, facts: bool = False,
                 new_hint: str | None = None, what: str = WHAT) -> str:
    """The card `query` means among `names` (the one resolver's order; with `new`, a name nobody
    knows is kept as typed; with `facts`, too, unless a near miss of a known card); else a refusal
    (exit 1) with the closest name."""
    return resolve(query, names, what, game=True, new=new, facts=facts, new_hint=new_hint)


# The facts of a card; [cards] also holds facts of a hero's board (`cube --capacity`) and of a
# chapter's deck (`adventure event swan-hp --deck`), which `card show` leaves out.
CARD_FACTS = {"type", "rarity", "epic", "position", "kind"}


def known_names(story: Story) -> list[str]:
    """Every card name drunagor knows here: the catalog's, those recorded under [cards], the decks'."""
    return list(dict.fromkeys([*cards.catalog_names(), *story.cards, *(x.name for x in story.chest_cards),
                               *story.commander]))


# ------------------------------------------------------------------------------------------ show


def entry(name: str, story: Story) -> dict[str, Any]:
    """One card as `card show --json` prints it: the facts drunagor knows (the catalog's first, else
    the recorded ones; null where unknown), what is recorded under [cards], whether the catalog knows it."""
    key, rec = chest.recorded(story.cards, name)
    shown = cards.catalog_name(name) or key or name
    return {"name": shown, **cards.facts_of(name, story.cards), "recorded": dict(rec),
            "in_catalog": cards.catalog_name(name) is not None}


def show(c: Campaign, name: str | None = None) -> Change:
    """The facts recorded under [cards] (every entry, in the file's order), or those of one card."""
    story = c.story
    if name is None:  # a hero's board or a chapter's deck (curse_capacity, deck_size) is not a card
        return Change(data={"cards": [entry(k, story) for k, facts in story.cards.items()
                                      if not isinstance(facts, dict) or set(facts) & CARD_FACTS]})
    found = resolve_card(name, known_names(story))
    return Change(data={"cards": [entry(found, story)]})


# ------------------------------------------------------------------------------------------- set


def _given(type_: str | None, rarity: str | None, epic: bool | None, position: str | None,
           kind: str | None) -> dict[str, Any]:
    """The facts the flags give, checked for values drunagor understands (usage errors)."""
    facts = {"type": choice(type_, chest.FACT_TYPES, "--type"), "rarity": choice(rarity, chest.RARITIES, "--rarity"),
             "epic": epic, "kind": choice(kind, EQUIPMENT_KINDS, "--kind"), "position": None}
    if position is not None:
        parsed = commander.parse_position(position)
        if parsed is None:
            raise UsageError(f"{position!r} is not a Rune position", rule="card-facts",
                             remedy="write COLOUR-top or COLOUR-bottom, colours: " + ", ".join(commander.colours()))
        facts["position"] = parsed
    given = {k: v for k, v in facts.items() if v is not None}
    if not given:
        raise UsageError("no fact to record", remedy="give one: --type, --rarity, --epic|--not-epic, --position or "
                                                     "--kind")
    return given


def _card_to_set(story: Story, query: str, new: bool) -> str:
    """The card `card set` records facts about: a known name, or (with --new, or its facts given for a
    name that is no near miss of a known one) a new one as typed."""
    return resolve_card(query, known_names(story), new=new, facts=True,
                        new_hint="if it is a card drunagor does not know, add --new to record its facts")


def set_facts(c: Campaign, name: str, type_: str | None = None, rarity: str | None = None,
              epic: bool | None = None, position: str | None = None, kind: str | None = None,
              new: bool = False) -> Change:
    """Record (or correct) facts about a card under [cards]. A fact a source contradicts is refused;
    one the catalog already gives is not recorded (a recorded one that disagrees goes). The facts
    must keep the decks legal: a Chest deck's grid (RB L357-359), one card per Rune position (RB L822)."""
    given = _given(type_, rarity, epic, position, kind)
    story = c.story
    card = _card_to_set(story, name, new)
    wrong = cards.problems(card, given)
    if wrong:
        raise UsageError(wrong[0][1], rule="card-facts", remedy="leave the flag out: drunagor knows this card")
    known = cards.known(card)
    record = {k: v for k, v in given.items() if known[k] is None}
    drop = [k for k, v in given.items() if known[k] is not None]  # the catalog's value holds
    _check_decks(c, card, record)
    key, before = _recorded(story, card)
    doc = c.story_file.edit()
    edit.set_card_facts(doc, key or card, record, match=_same)
    edit.forget_card_facts(doc, key or card, [k for k in drop if k in before], match=_same)
    said = [_said(k, v, before, k in drop) for k, v in given.items()]
    after = {k: v for k, v in {**before, **record}.items() if k not in drop}
    return Change(f"recorded under [cards]: {key or cards.catalog_name(card) or card}: {', '.join(said)}",
                  data=entry(card, story) | {"recorded": after})


def _said(fact: str, value: Any, before: dict, known: bool) -> str:
    """"rarity rare (was common)", "type potion (drunagor knows it; the recorded scroll forgotten)"."""
    text = f"{fact} {_text(value)}"
    if known:
        old = f"; the recorded {_text(before[fact])} forgotten" if fact in before else ""
        return f"{text} (drunagor knows it{old})"
    if fact in before and before[fact] != value:
        return f"{text} (was {_text(before[fact])})"
    return text


def _recorded(story: Story, name: str) -> tuple[str | None, dict]:
    key, rec = recorded(story.cards, name)
    return key, dict(rec)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _check_decks(c: Campaign, card: str, record: dict[str, Any]) -> None:
    """A type or rarity must keep the Chest deck's grid (RB L357-359); a position must not be held by
    another card of the Commander Attack deck (RB L822-824)."""
    story = c.story
    chest_facts = {k: v for k, v in record.items() if k in ("type", "rarity")}
    if chest_facts and any(_same(x.name, card) for x in story.chest_cards):
        with c.story_file.about(("chest", "cards")):
            chest.plan_add(story, card, 0, chest_facts, False)
    present = commander.find_in_deck(story, card)
    if "position" in record and present is not None and _same(present, card):
        with c.story_file.about(("commander", "cards")):
            others = [p.card for p in commander.deck(story).cards
                      if p.position == record["position"] and not _same(p.card, present)]
            if others:
                raise RuleError(f"{others[0]} already holds the {record['position']} Rune position in the Commander "
                                f"Attack deck: no position may be held by two cards (RB L822-824)",
                                rule=commander.RULE, remedy="check both cards")


# ---------------------------------------------------------------------------------------- forget


def forget(c: Campaign, name: str, facts: Iterable[str] = ()) -> Change:
    """Forget what is recorded about a card under [cards]: its whole entry, or only `facts`. What a
    deck then no longer knows is said (warnings): `chest show` and `commander show` ask for it again."""
    story, f = c.story, c.story_file
    recorded = list(story.cards)
    if not recorded:
        raise RuleError("no card facts are recorded under [cards]", file=f.shown, rule="card-facts",
                        remedy="nothing to forget")
    with f.about(("cards",)):
        key = resolve_card(name, recorded)
    facts = list(dict.fromkeys(x.strip().casefold() for x in facts))
    held = dict(story.cards[key]) if isinstance(story.cards[key], dict) else {}
    missing = [x for x in facts if x not in held]
    if missing:
        raise UsageError(f"no {missing[0]} is recorded about {key}", rule="card-facts",
                         remedy=f"recorded: {', '.join(f'{k} {_text(v)}' for k, v in held.items()) or 'nothing'}")
    doc = f.edit()
    if facts:
        gone = edit.forget_card_facts(doc, key, facts, match=_same)
    else:
        gone = list(held)
        edit.forget_card(doc, key, match=_same)
    what = ", ".join(f"{k} {_text(held[k])}" for k in gone) or "an empty entry"
    return Change(f"forgot what was recorded about {key} under [cards]: {what}",
                  warnings=_now_unknown(story, key, {k: v for k, v in held.items() if k not in gone}),
                  data={"card": key, "forgot": {k: held[k] for k in gone}})


def _now_unknown(story: Story, key: str, left: dict[str, Any]) -> tuple[str, ...]:
    """What the decks no longer know once the facts are forgotten."""
    cards = {k: v for k, v in story.cards.items() if k != key}
    if left:
        cards[key] = left
    after = replace(story, cards=cards)
    out = []
    before_missing = dict(chest.grid(story).missing)
    for card, missing in chest.grid(after).missing:
        if tuple(before_missing.get(card, ())) != tuple(missing):
            out.append(f"the {' and '.join(missing)} of {card} in the Chest deck is now unknown; record it again: "
                       f"drunagor card set {shell_word(card)} {chest.flags_for(missing)}")
    unknown_before = set(commander.deck(story).unknown)
    for card in commander.deck(after).unknown:
        if card not in unknown_before:
            out.append(f"the Rune position of {card} in the Commander Attack deck is now unknown; record it again: "
                       f"drunagor card set {shell_word(card)} --position COLOUR-top|bottom")
    return tuple(out)

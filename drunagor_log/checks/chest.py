"""Checks of the Chest deck (RB L345-371), the Commander Attack deck (RB L816-828), the facts the
player recorded under [cards], and the Spoils upgrades in the Campaign Logs (RB L409-435).

A deck not recorded yet (empty) or still being recorded (fewer cards than the rule's count) is not
a problem: `chest show` and `commander show` say what is still to record. What the rules forbid
(a cell of the grid over its count, a Rune position held twice, ...) is an error; a card whose
type, rarity or position nobody knows is a warning, because the rule cannot be checked.
"""

from __future__ import annotations

from ..model import QUALITIES
from ..rules import cards, chest, commander
from ..text import shell_word
from . import copies
from .registry import check, problem


def _with(message: str, remedy: str | None) -> str:
    """SPEC 4: every `check` message ends with what would fix it."""
    return f"{message}; {remedy}" if remedy else message


@check("chest-deck")
def chest_deck(c):

    g = chest.grid(c.story)
    for p in g.problems:
        yield problem(c.story_file, p.key_path, "chest-deck", _with(p.message, p.remedy))
    for name, missing in g.missing:
        flags = " ".join(f"--{m} {'|'.join(chest.TYPES if m == 'type' else chest.RARITIES)}" for m in missing)
        i = next(k for k, card in enumerate(c.story.chest_cards) if card.name == name)
        yield problem(c.story_file, ("chest", "cards", i), "chest-deck",
                      f"the {' and '.join(missing)} of {name} is not known, so the grid (RB L357-359) cannot be "
                      f"checked; record it once: drunagor chest add {shell_word(name)} --copies 0 {flags}", "warning")


@check("commander-deck")
def commander_deck(c):

    d = commander.deck(c.story)
    for p in d.problems:
        at = ("commander", "cards") if p.index is None else ("commander", "cards", p.index)
        yield problem(c.story_file, at, "commander-deck", _with(p.message, p.remedy))
    for i, card in enumerate(d.cards):
        if card.position is not None:
            continue
        name = card.card
        yield problem(c.story_file, ("commander", "cards", i), "commander-deck",
                      f"the Rune position of {name} is not known, so \"no position twice\" (RB L822) cannot be "
                      f"checked; record it once: drunagor commander add {shell_word(name)} "
                      "--position COLOUR-top|bottom", "warning")


@check("card-facts")
def card_facts(c):
    """Facts under [cards] must be values drunagor understands and must not contradict a source
    (rules/cards.py, the rules `card set` applies); each problem says the command that fixes it."""
    f = c.story_file
    for name, facts in c.story.cards.items():
        for fact, said, flag in cards.problems(name, facts):
            forget = f"drunagor card forget {shell_word(name)} --fact {fact}"
            fix = (f"correct it (drunagor card set {shell_word(name)} {flag}) or forget it ({forget})" if flag
                   else f"forget the recorded fact: {forget}")
            yield problem(f, ("cards", name), "card-facts", f"{said}; {fix}")


@check("spoils-upgrade")
def spoils_upgrades(c):
    """Each `upgrades` entry reaches Improved or Ultimate; a Spoils card the log holds is not below
    the quality its upgrades reached (one step at a time, RB L421-423)."""
    for s, hero in c.heroes.items():
        f = c.hero_files[s]
        reached: dict[str, list[tuple[int, str]]] = {}
        for i, u in enumerate(hero.upgrades):
            if u.to not in QUALITIES[1:]:
                yield problem(f, ("upgrades", i), "spoils-upgrade",
                              f"upgrade {i + 1} of {hero.name} ({u.item}) reaches {u.to or 'nothing'!r}; an upgrade "
                              f"reaches \"improved\" or \"ultimate\" (RB L421-423); write one of them, or remove the "
                              f"entry")
                continue
            reached.setdefault(u.item.casefold(), []).append((i, u.to))
        for n, item in enumerate(hero.equipment):
            ups = reached.get(item.name.casefold())
            if item.kind != "spoils" or not ups:
                continue
            tos = [to for _, to in ups]
            again = next((i for k, (i, to) in enumerate(ups) if to in tos[:k]), None)
            if again is not None:
                yield problem(f, ("upgrades", again), "spoils-upgrade",
                              f"{hero.name}'s {item.name} is upgraded to the same quality twice; each upgrade goes "
                              f"one step (RB L421-423); remove the entry recorded twice")
            best = max(QUALITIES.index(t) for t in tos)
            have = QUALITIES.index(item.quality or "standard")
            if have < best:
                yield problem(f, ("equipment", n), "spoils-upgrade",
                              f"{hero.name}'s {item.name} is {QUALITIES[have]}, but an upgrade took it to "
                              f"{QUALITIES[best]}; write quality = \"{QUALITIES[best]}\" in its entry, or remove "
                              f"the upgrade")


@check("spoils-quality")
def spoils_received_standard(c):
    """A Spoils card above Standard came of upgrades (any hero's: a card may be handed over), or is
    recorded under `corrections` as received so (`hero gain --reward|--force`): Spoils are received
    Standard (RB L397, L1011)."""
    reached: dict[str, int] = {}
    for hero in c.heroes.values():
        for u in hero.upgrades:
            if u.to in QUALITIES:
                reached[u.item.casefold()] = max(reached.get(u.item.casefold(), 0), QUALITIES.index(u.to))
    said = " ".join(c.story.corrections).casefold()
    for s, hero in c.heroes.items():
        for n, item in enumerate(hero.equipment):
            have = QUALITIES.index(item.quality) if item.quality in QUALITIES else 0
            if item.kind != "spoils" or have <= reached.get(item.name.casefold(), 0):
                continue
            if f"received {item.name} {item.quality}".casefold() in said:
                continue
            yield problem(c.hero_files[s], ("equipment", n), "spoils-quality",
                          f"{hero.name}'s {item.name} is {item.quality}, but Spoils are received Standard (RB L397, "
                          f"L1011) and no upgrade took it there (RB L421-423); if an Interaction or Interlude reward "
                          f"gave it so (RB L405), say it under `corrections` in story.toml (\"DATE: {hero.name} "
                          f"received {item.name} {item.quality}: ...\"), or record the upgrade", "warning")


@check("chest-copies")
def chest_copies(c):
    """The heroes and the party stash hold no more copies of a Chest card than the deck has, for every
    card whose copies are known (RB L349-359, L371): checks/copies.py."""
    yield from copies.chest_copies(c)

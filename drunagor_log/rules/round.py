"""The end of the round: the Initiative Marker reaches the chapter's card at the end of the Initiative
Track (SPEC 10, "The round"), resolved step by step in the book's order, each step with its line.

- Growing Influence (chapters 01, 02, 03, 05, 06, 08; RB L1062): draw the indicated number of Runes
  one at a time, place them on the Initiative Track, flip the card.
- Naval Battle (chapter 04, RB L1163): advance the vessels, draw, execute each rune's effect (printed
  on the card, which the book does not transcribe), place the runes on the track, flip.
- Darkness Awakening (chapter 09, RB L1285): draw; each rune names its Spawning token (blue: the Party
  Leader chooses) for a Chest or its Darkness tile, as the card shows; the Crush (RB L1287). The book
  says neither where the runes go nor that the card flips: they go on the track as with every other
  Rune card (RB L1062), and the card stays as it is.
- The Siege of Everedge deck (chapter 07, RB L1235): the next of its 10 cards.
Then the chapter's end-of-round rules: the Crumbling Ceiling (06, RB L1223), the Special Event token
(01, RB L1074), the Time Tokens (03, RB L1134); then the round number goes up by one.

How many runes a face draws is printed on the card only: the caller passes it (the party records it
once per face, SPEC "User-recorded facts"). The runes drawn are given (at random by the caller, with its
seed, or drawn at the table). Pure: no files, no terminal; a move the rules refuse raises `Refused`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from drunagor_log import catalog
from drunagor_log.errors import Refused
from drunagor_log.model.adventure import AdventureState
from drunagor_log.rules import chapters, losing
from drunagor_log.rules.adventure import draw
from drunagor_log.text import a, plural
from drunagor_log.values import record

GROWING, NAVAL, AWAKENING, SIEGE = "Growing Influence", "Naval Battle", "Darkness Awakening", "Siege of Everedge"
HUNT = "Harvester's Hunt"
LEADER_CHOOSES = "the Party Leader chooses"


@record
class RoundCard:
    """The card at the end of the Initiative Track: a Rune card, or chapter 07's Siege deck (`cards`)."""

    name: str
    source: str
    cards: int | None = None

    @property
    def draws_runes(self) -> bool:
        return self.name != SIEGE

    @property
    def flips(self) -> bool:
        """RB L1062, L1163: "and then flip the Rune card over"; RB L1285 says no such thing."""
        return self.name in (GROWING, NAVAL)


@record
class RoundStep:
    """One numbered step, with the fact that decided it."""

    number: int
    title: str
    fact: str
    rule: str


@record
class RoundEnd:
    """What an end of round did. `face` is the face up before it (None for the Siege deck), `draws`
    its draw count, `read` the cutscenes to read now, `lost` the losing condition met now, `siege_card`
    the Siege of Everedge card drawn (None: not that deck, or the deck is spent)."""

    chapter: str
    round: int
    card: RoundCard
    face: str | None
    next_face: str | None
    draws: int | None
    drawn: tuple[str, ...]
    steps: tuple[RoundStep, ...]
    read: tuple[str, ...]
    lost: str | None
    state: AdventureState
    siege_card: int | None = None
    next_card: str | None = None  # the card that replaces this one from now on (chapter 03, RB L1142)

    def as_json(self) -> dict[str, Any]:
        return {"chapter": self.chapter, "round": self.round, "next_round": self.round + 1,
                "rune_card": {"name": self.card.name, "face": self.face, "draws": self.draws},
                "next_face": self.next_face, "next_card": self.next_card or self.card.name,
                "drawn": list(self.drawn),
                "steps": [{"number": s.number, "title": s.title, "rule": s.rule, "fact": s.fact} for s in self.steps],
                "read": list(self.read), "lost": self.state.lost, "adventure_fails": self.lost is not None,
                "runes_in_bag": self.state.runes_in_bag(), "counters": chapters.counters_json(self.state)}


def round_card(chapter: str, state: AdventureState | None = None) -> RoundCard:
    """The chapter's card at the end of the Initiative Track (every chapter has one); with the `state`,
    the card the table shows now: in chapter 03, after "Cutscene - Nightmare Come True", the Soul
    Harvester's Harvester's Hunt card (RB L1142-1144)."""
    m = chapters.mechanics(chapter)
    if state is not None and "hunt_card" in m and chapters.counters(state).get("harvesters_hunt"):
        return RoundCard(m["hunt_card"]["name"], m["hunt_card"]["source"])
    if "siege_deck" in m:
        deck = m["siege_deck"]
        return RoundCard(deck["name"], deck["source"], deck["cards"])
    card = m["rune_card"]
    return RoundCard(card["name"], card["source"])


def due_runes(state: AdventureState, draws: int) -> int:
    """How many runes this end of round takes from the bag: the face's count, or what the bag holds."""
    return min(draws, state.runes_in_bag())


# ------------------------------------------------------------------------------- the end of round


def end_round(state: AdventureState, *, draws: int | None = None, drawn: Sequence[str] = ()) -> RoundEnd:
    """Resolve the end of the round on `state`: `draws` is the count the face up draws (None only for the
    Siege deck), `drawn` the runes drawn, as many as `due_runes`."""
    card = round_card(state.chapter, state)
    face = chapters.rune_face(state) if card.draws_runes else None
    drawn = tuple(drawn)
    if card.draws_runes:
        if draws is None or isinstance(draws, bool) or draws < 0:
            raise Refused(f"how many runes face {face} of the {card.name} card draws is not known", "round-end "
                          f"({card.source})", "read it on the card and give --draws N once")
        if len(drawn) != due_runes(state, draws):
            raise Refused(f"face {face} of the {card.name} card draws {draws} rune{'' if draws == 1 else 's'}"
                          + (f" and the bag holds {state.runes_in_bag()}" if state.runes_in_bag() < draws else "")
                          + f": {due_runes(state, draws)} to draw, not {len(drawn)}", f"round-end ({card.source})",
                          f"give {plural(due_runes(state, draws), 'rune')} with --rune, or none to draw at "
                          "random")
    elif drawn:
        raise Refused(f"the {card.name} deck draws a card, not runes", f"round-end ({card.source})", "leave out --rune")
    steps: list[RoundStep] = []
    new, lost = _card_steps(state, card, face, draws, drawn, steps)
    if lost:  # "The Adventure fails immediately" (e.g. RB L1076): no flip, no next round
        return RoundEnd(chapter=state.chapter, round=chapters.round_number(state), card=card, face=face,
                        next_face=face, draws=draws, drawn=drawn, steps=tuple(steps), read=(), lost=lost, state=new)
    new, read = _after_the_card(new, steps)
    changes: dict[str, Any] = {chapters.ROUND: chapters.round_number(state) + 1}
    next_face = face
    replaced = round_card(new.chapter, new)
    if replaced != card:  # chapter 03's cutscene: the Harvester's Hunt card, face A (RB L1142)
        next_face = chapters.rune_face(new)
    elif card.flips:
        next_face = "B" if face == "A" else "A"
        changes[chapters.RUNE_FACE] = next_face
    siege = chapters.counters(new).get("siege_cards_drawn")
    new = chapters.with_counters(new, **changes)
    return RoundEnd(chapter=state.chapter, round=chapters.round_number(state), card=card, face=face,
                    next_face=next_face, draws=draws, drawn=drawn, steps=tuple(steps), read=tuple(read), lost=lost,
                    state=new, siege_card=siege if siege != chapters.counters(state).get("siege_cards_drawn") else None,
                    next_card=None if replaced == card else replaced.name)


def _card_steps(state: AdventureState, card: RoundCard, face: str | None, draws: int | None, drawn: tuple[str, ...],
                steps: list[RoundStep]) -> tuple[AdventureState, str | None]:
    """The card's own steps, in the order its paragraph gives them."""
    if card.name == SIEGE:
        new = _siege_step(state, card, steps)
        return new, None
    if card.name == NAVAL:
        _add(steps, "Advance the vessels", "As the Naval Battle card shows (the card's text and the chapter's Naval "
             "Battle clarifications are not transcribed in the book).", card.source)
    assert draws is not None and face is not None
    _add(steps, "Draw the indicated number of Runes, one at a time", _drawn_fact(state, face, draws, drawn),
         card.source)
    new = draw(state, drawn)
    new, lost = _last_rune(state, new)
    if card.name == NAVAL and not lost:  # the last rune fails the adventure immediately (RB L1177): no effect
        _add(steps, "Execute their respective effects", (f"Each rune's effect is printed on the Naval Battle card (not "
             f"transcribed in the book): resolve {', '.join(drawn)} from the card.") if drawn else
             "No rune drawn: no effect.", card.source)
    if card.name == AWAKENING:
        _awakening_steps(state, card, drawn, steps)
    place = f"{', '.join(drawn) or 'No rune'} on the track; {plural(new.runes_in_bag(), 'rune')} left in the bag."
    if lost:
        place += f" The last rune in the bag was drawn: the adventure fails ({_losing_ref(state.chapter)})."
    elif drawn and not new.runes_in_bag():
        place += f" The bag is empty (chapter {state.chapter} does not fail on the last rune)."
    if card.name == AWAKENING:
        _add(steps, "Place the drawn Runes on the Initiative Track", place + " Placed as in chapter 01 (RB L1062); "
             "the card is not flipped: the book does not say to (RB L1285).", "RB L1062, L1285")
    elif card.name == HUNT and not lost:
        _add(steps, "Place the drawn Runes on the Initiative Track", place + " No Darkness tile is spawned (RB L1144); "
             "the card is not flipped: the book does not say to.", card.source)
        _hunt_step(new, card, drawn, steps)
    elif lost:
        _add(steps, "Place the drawn Runes on the Initiative Track", place, card.source)
    else:
        _add(steps, "Place the drawn Runes on the Initiative Track", place, card.source)
        _add(steps, "Flip the Rune card over", f"Face {face} -> face {'B' if face == 'A' else 'A'}.", card.source)
    return new, lost


def _drawn_fact(state: AdventureState, face: str, draws: int, drawn: tuple[str, ...]) -> str:
    head = f"Face {face} draws {draws}"
    if state.runes_in_bag() >= draws:
        return f"{head}: {', '.join(drawn)}." if drawn else f"{head}: nothing to draw."
    if not drawn:
        return f"{head}, but the bag is empty: none drawn."
    return f"{head}, but the bag held only {len(drawn)}: {', '.join(drawn)}."


def _awakening_steps(state: AdventureState, card: RoundCard, drawn: tuple[str, ...], steps: list[RoundStep]) -> None:
    """RB L1285: each rune's Spawning token is the Spawn Point of a Chest or of its Darkness tile, as the
    card shows (blue: the Party Leader chooses the source); RB L1287: the Crush."""
    tokens = chapters.mechanics(state.chapter).get("spawning_tokens", ())
    effects = []
    for rune in drawn:
        if rune in tokens:
            effects.append(f"{rune}: a Chest or the {rune} Darkness tile, as the card shows, at the {rune} Spawning "
                           "token")
        else:
            effects.append(f"{rune}: a Chest or the {rune} Darkness tile, as the card shows, at the Spawning token "
                           f"{LEADER_CHOOSES}")
    fact = ("; ".join(effects) + ".") if effects else "No rune drawn: no effect."
    _add(steps, "Resolve the effects on the card", fact, card.source)
    crush = chapters.crush_damage(state.chapter, state.heroes)
    if crush is not None:
        _add(steps, "The Crush", f"A Darkness tile that should spawn while every Hero is on top of Darkness is "
             f"skipped: all Heroes take {crush} non-preventable damage ({plural(state.heroes, 'hero', 'heroes')}).",
             "RB L1287")


def _hunt_step(after: AdventureState, card: RoundCard, drawn: tuple[str, ...], steps: list[RoundStep]) -> None:
    """RB L1145-1151: the Soul Harvester advances on the Closest Hero (ties: the Weakest), then swings its
    scythe: as much damage as the Initiative Track holds runes of the colour just drawn (that rune counts,
    and so do the runes of any Pile it removed on the way)."""
    if not drawn:
        _add(steps, "The Soul Harvester's hunt", "No rune drawn: as the card says.", card.source)
        return
    swings = "; ".join(f"{rune}: {plural(after.track.get(rune, 0), 'damage', 'damage')} (the {rune} runes on the "
                       "track)" for rune in drawn)
    _add(steps, "The Soul Harvester advances and swings its scythe",
         "It advances on the Closest Hero (tied: the Weakest), collapsing each Map tile it leaves; then each enemy "
         f"in the Weakest Hero's area within Range 1 takes {swings}, plus a rune of that colour for each one of a "
         "Pile of Runes it removed on the way.", "RB L1145-1151")


def _siege_step(state: AdventureState, card: RoundCard, steps: list[RoundStep]) -> AdventureState:
    """RB L1235: draw the top card of the deck (arranged 1 to 10) and resolve its effects."""
    drawn = chapters.counters(state)["siege_cards_drawn"]
    title = f"Draw the top card of the {card.name} deck"
    if card.cards is not None and drawn >= card.cards:
        _add(steps, title, f"All {card.cards} cards are drawn: the deck is spent (the book says no more).", card.source)
        return state
    _add(steps, title, f"Card {drawn + 1} of {card.cards}: resolve its effects (the cards' text is not transcribed in "
         "the book). A Monster it cannot Spawn activates the first Monster of its kind instead (RB L1237); with "
         "`drunagor battalion --siege`.", card.source)
    return chapters.with_counters(state, siege_cards_drawn=drawn + 1)


def _after_the_card(state: AdventureState, steps: list[RoundStep]) -> tuple[AdventureState, list[str]]:
    """The chapter's rules "after resolving its effects": the Crumbling Ceiling (RB L1223), the tokens on
    the Rune card (RB L1074, L1134)."""
    m = chapters.mechanics(state.chapter)
    read: list[str] = []
    ceiling = m.get("crumbling_ceiling")
    if ceiling is not None:
        _add(steps, "Crumbling Ceiling", f"All Characters inside marked areas take {ceiling['damage']} DMG; then "
             "remove all Special Mechanic tokens from the board.", ceiling["source"])
    token = m.get("token")
    if token is None:
        return state, read
    now = chapters.counters(state)
    scene = f"read \"{token['cutscene']}\" on page {token['page']}"
    if token["placed"] == "event" and now["special_event"]:
        _add(steps, f"Remove the {token['name']}", f"It leaves the Rune card: {scene}.", token["source"])
        return chapters.with_counters(state, special_event=False), [token["cutscene"]]
    if token["placed"] == "start" and now["time_tokens"] > 0:
        left = now["time_tokens"] - 1
        fact = (f"{left} of {token['count']} left on the Rune card." if left else
                f"The last one is removed: {scene}.")
        _add(steps, f"Remove {a(token['name'])}", fact, token["source"])
        if left or "hunt_card" not in m:
            return chapters.with_counters(state, time_tokens=left), ([] if left else [token["cutscene"]])
        hunt = m["hunt_card"]
        # RB L1142 gives the card "procedures that you need to perform until the end of this Adventure" and
        # L1144 draws it as the Growing Influence card; that it takes that card's place is drunagor's reading.
        _add(steps, f"The {hunt['name']} card replaces the {m['rune_card']['name']} card",
             f"From now on the end of the round is the Soul Harvester's {hunt['name']} Rune card, face A, until the "
             "end of the adventure.", f"drunagor's reading of {hunt['source']}")
        switched = chapters.with_counters(state, time_tokens=0, harvesters_hunt=True, rune_face="A")
        return switched, [token["cutscene"]]
    return state, read


def _last_rune(before: AdventureState, after: AdventureState) -> tuple[AdventureState, str | None]:
    """The last rune drawn fails the adventure where the chapter says so (e.g. RB L1076)."""
    if after.runes_in_bag() or before.runes_in_bag() == 0 or not catalog.chapter(before.chapter).fails_on_last_rune:
        return after, None
    return losing.last_rune(after, _losing_ref(before.chapter))


def _losing_ref(chapter: str) -> str:
    return catalog.chapter(chapter).refs.get("losing", "")


def _add(steps: list[RoundStep], title: str, fact: str, rule: str) -> None:
    steps.append(RoundStep(len(steps) + 1, title, fact, rule))


# ------------------------------------------------------------------------------ the next one


def next_round_text(state: AdventureState, draws: int | None) -> str:
    """What the next end of round will do, in one line (`adventure show`)."""
    card = round_card(state.chapter, state)
    head = f"At the end of round {chapters.round_number(state)}: "
    if card.name == SIEGE:
        drawn = chapters.counters(state)["siege_cards_drawn"]
        spent = drawn >= (card.cards or 0)
        parts = [f"the {card.name} deck is spent ({card.source})" if spent else
                 f"card {drawn + 1} of {card.cards} of the {card.name} deck ({card.source})"]
    else:
        face = chapters.rune_face(state)
        count = f"draws {plural(draws, 'rune')}" if draws is not None else "draws its runes (how many: not recorded)"
        parts = [f"the {card.name} card, face {face}, {count}" + (", then flips" if card.flips else "")
                 + f" ({card.source})"]
    parts += _after_text(state)
    return head + "; ".join(parts)


def _after_text(state: AdventureState) -> list[str]:
    m = chapters.mechanics(state.chapter)
    out = []
    if "crumbling_ceiling" in m:
        out.append(f"Crumbling Ceiling ({m['crumbling_ceiling']['source']})")
    token = m.get("token")
    if token is not None:
        now = chapters.counters(state)
        if token["placed"] == "event" and now["special_event"]:
            out.append(f"the {token['name']} leaves: read \"{token['cutscene']}\" ({token['source']})")
        elif token["placed"] == "start" and now["time_tokens"] > 0:
            left = now["time_tokens"] - 1
            read = "" if left else f": read \"{token['cutscene']}\""
            out.append(f"{a(token['name'])} leaves, {left} left{read} ({token['source']})")
    return out

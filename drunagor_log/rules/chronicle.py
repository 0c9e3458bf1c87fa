"""The table's statistics, counted from the facts its table events keep (SPEC 12, issue 45.4): per adventure
its rounds, raids resolved and summoned beside the chance each had (their sum: what the odds predicted),
runes drawn by colour beside what the bag made likely, cubes and defeats per hero, Battalions; and what an
older adventure, archived before drunagor kept a fact, could not give. Pure: plain values in, plain values
out; nothing is read back from an event's sentence.

- A raid summoned when its `placed` names a minion; its `chance` is the fraction `odds` gave before it
  (rules/raid.raid_share), so the expected summons are the sum of the chances (linearity of expectation).
- A draw of k runes from a bag of n, c of one colour, is likely to bring k * c / n of that colour (each rune
  equally likely, RB L292); a draw that did not keep its bag is counted, not predicted.
- Cubes are those received (`delta` > 0) by cube and recall events; a defeat is a cube event that
  defeated its hero.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any


@dataclass
class Tally:
    """What the table events of one or more adventures add up to (filled as they are counted)."""

    events: int = 0
    rounds: int = 0  # ends of round recorded
    raids: int = 0  # raids resolved
    raids_known: int = 0  # of them, those that kept `placed` and `chance`
    tried: int = 0  # raids that manifested a rune a Pile held (of raids_known)
    summoned: int = 0  # raids that placed at least one minion (of raids_known)
    drawn: dict[str, int] = field(default_factory=dict)  # runes drawn from the bag, by colour
    drawn_known: dict[str, int] = field(default_factory=dict)  # runes drawn by the draws that kept their bag
    chances: dict[str, int] = field(default_factory=dict)  # each chance a raid kept -> raids that had it
    shares: dict[int, dict[str, int]] = field(default_factory=dict)  # bag size -> colour -> runes drawn x count

    @property
    def expected(self) -> Fraction:
        """The summons the odds predicted: the sum of the chances of the raids that kept one."""
        return sum((Fraction(chance) * n for chance, n in self.chances.items()), Fraction(0))

    @property
    def likely(self) -> dict[str, Fraction]:
        """What the bags made likely, colour by colour (draws that kept their bag)."""
        out: dict[str, Fraction] = {}
        for total, counts in self.shares.items():
            for colour, n in counts.items():
                out[colour] = out.get(colour, Fraction(0)) + Fraction(n, total)
        return out
    draws: int = 0
    draws_without_bag: int = 0
    cubes: dict[str, dict[str, int]] = field(default_factory=dict)  # hero -> trauma/curse received
    cube_events_without_facts: int = 0
    recalls: dict[str, int] = field(default_factory=dict)
    defeats: dict[str, int] = field(default_factory=dict)
    battalions: int = 0
    battalion_placed: int = 0


def tally(logs: Iterable[Sequence[Mapping[str, Any]]]) -> Tally:
    """The facts of the table events of `logs` (each the `log` of one adventure), added up."""
    t = Tally()
    for log in logs:
        for entry in log:
            t.events += 1
            _count(t, entry)
    return t


def _count(t: Tally, entry: Mapping[str, Any]) -> None:
    event = entry.get("event")
    if event == "raid":
        t.raids += 1
        chance, placed = entry.get("chance"), entry.get("placed")
        if isinstance(chance, str) and isinstance(placed, list):
            t.raids_known += 1
            t.summoned += bool(placed)
            t.tried += _tried(entry)
            t.chances[chance] = t.chances.get(chance, 0) + 1  # added up once per distinct chance (fast)
    elif event in ("draw", "round"):
        t.rounds += event == "round"
        _drawn(t, entry)
    elif event in ("cube", "recall"):
        _cubes(t, entry)
    elif event == "battalion":
        t.battalions += 1
        placed = entry.get("placed")
        t.battalion_placed += len(placed) if isinstance(placed, list) else 0


def _tried(entry: Mapping[str, Any]) -> bool:
    """A raid tried to summon: it manifested a rune that a Pile of Runes held (RB L294-296)."""
    rune, piles = entry.get("rune"), entry.get("piles")
    return isinstance(rune, str) and isinstance(piles, list) and any(
        isinstance(p, dict) and isinstance(p.get("runes"), dict) and p["runes"].get(rune, 0) > 0 for p in piles)


def _drawn(t: Tally, entry: Mapping[str, Any]) -> None:
    runes = entry.get("runes")
    if not isinstance(runes, str) or not runes.strip():
        return
    colours = [r.strip().casefold() for r in runes.split(",") if r.strip()]
    t.draws += 1
    for colour in colours:
        t.drawn[colour] = t.drawn.get(colour, 0) + 1
    bag = entry.get("bag")
    total = sum(bag.values()) if isinstance(bag, dict) else 0
    if not isinstance(bag, dict) or not total:
        t.draws_without_bag += 1
        return
    for colour in colours:
        t.drawn_known[colour] = t.drawn_known.get(colour, 0) + 1
    shares = t.shares.setdefault(total, {})  # runes likely, over a bag of `total`: summed as whole numbers
    for colour, count in bag.items():
        shares[colour] = shares.get(colour, 0) + len(colours) * count


def _cubes(t: Tally, entry: Mapping[str, Any]) -> None:
    hero, kind, delta = entry.get("hero"), entry.get("kind"), entry.get("delta")
    if not isinstance(hero, str) or kind not in ("trauma", "curse") or not isinstance(delta, int):
        t.cube_events_without_facts += 1
        return
    held = t.cubes.setdefault(hero, {"trauma": 0, "curse": 0})
    if delta > 0:
        held[kind] += delta
    if entry.get("event") == "recall":
        t.recalls[hero] = t.recalls.get(hero, 0) + 1
    if entry.get("defeated") is True:
        t.defeats[hero] = t.defeats.get(hero, 0) + 1


def add(tallies: Iterable[Tally]) -> Tally:
    """Several tallies as one (a chapter's attempts, the whole campaign)."""
    total = Tally()
    for t in tallies:
        for name in ("events", "rounds", "raids", "raids_known", "tried", "summoned", "draws", "draws_without_bag",
                     "cube_events_without_facts", "battalions", "battalion_placed"):
            setattr(total, name, getattr(total, name) + getattr(t, name))
        for chance, n in t.chances.items():
            total.chances[chance] = total.chances.get(chance, 0) + n
        for size, counts in t.shares.items():
            mine = total.shares.setdefault(size, {})
            for colour, n in counts.items():
                mine[colour] = mine.get(colour, 0) + n
        for into, source in ((total.drawn, t.drawn), (total.drawn_known, t.drawn_known), (total.recalls, t.recalls),
                             (total.defeats, t.defeats)):
            for key, value in source.items():
                into[key] = into.get(key, 0) + value
        for hero, held in t.cubes.items():
            mine = total.cubes.setdefault(hero, {"trauma": 0, "curse": 0})
            for kind, n in held.items():
                mine[kind] += n
    return total


def moments(log: Sequence[Mapping[str, Any]]) -> list[tuple[int, str, str | None, str]]:
    """The notable table events of an adventure, told from their facts (never from their sentence): (its
    index in the log, its event, the hero it is about or None for the party's, the words). Battalions, raids
    that summoned with the chance the odds gave them, heroes defeated, the bag down to its last rune."""
    out: list[tuple[int, str, str | None, str]] = []
    for i, entry in enumerate(log):
        event = entry.get("event")
        placed = entry.get("placed")
        if event == "battalion":
            out.append((i, event, None, "a Monster Battalion" + (f" placed {_names(placed)}"
                                                                 if isinstance(placed, list) and placed else "")))
        elif event == "raid" and isinstance(placed, list) and placed:
            out.append((i, event, None, f"a Dreadful Raid summoned {_names(placed)} (the odds gave it "
                                        f"{entry.get('chance', '?')})"))
        elif event in ("cube", "recall") and entry.get("defeated") is True:
            cubes = "Trauma Cubes" if entry.get("kind") == "trauma" else "Curse Cubes"
            hero = str(entry.get("hero"))
            out.append((i, event, hero, f"{hero} was defeated: {entry.get('count')} {cubes} held"))
        elif event in ("draw", "round") and entry.get("left") == 1:
            out.append((i, event, None, "the bag down to its last rune"))
    return out


def _names(names: Sequence[str]) -> str:
    """'Tidehunter x2, Nightmare': each name once, with how many."""
    counts: dict[str, int] = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    return ", ".join(f"{k} x{v}" if v > 1 else k for k, v in counts.items())


def uncounted(t: Tally) -> list[str]:
    """What the events could not give, in words (an older archive's events kept their sentence only)."""
    said = []
    if t.raids > t.raids_known:
        n = t.raids - t.raids_known
        said.append(f"{n} raid{'s' if n != 1 else ''} kept no chance and no minions placed: not in raids summoned "
                    "or expected")
    if t.draws_without_bag:
        n = t.draws_without_bag
        said.append(f"{n} draw{'s' if n != 1 else ''} kept no bag: their runes are counted, not what was likely")
    if t.cube_events_without_facts:
        n = t.cube_events_without_facts
        said.append(f"{n} cube or recall event{'s' if n != 1 else ''} kept no hero and count: not in cubes or "
                    "defeats")
    return said


def fraction_text(value: Fraction) -> str:
    """'17/6' (reduced; '0' for nothing, '3' for a whole number)."""
    return str(value)


def decimal_text(value: Fraction | int) -> str:
    """One decimal, as a player says it: 3.4, 4.0 -> '4'; half rounds away from zero."""
    tenths = (Fraction(value) * 10 + Fraction(1, 2)).__floor__()
    whole, rest = divmod(tenths, 10)
    return f"{whole}" if rest == 0 else f"{whole}.{rest}"


def as_json(t: Tally) -> dict[str, Any]:
    """A tally as `stats --json` writes it."""
    expected, likely = t.expected, t.likely
    return {
        "events": t.events, "rounds_ended": t.rounds,
        "raids": {"resolved": t.raids, "with_facts": t.raids_known, "tried": t.tried, "summoned": t.summoned,
                  "expected": fraction_text(expected), "expected_value": round(float(expected), 3)},
        "runes": {"draws": t.draws, "drawn": dict(sorted(t.drawn.items())),
                  "drawn_with_bag": {c: t.drawn_known.get(c, 0) for c in sorted(likely)},
                  "likely": {c: fraction_text(v) for c, v in sorted(likely.items())},
                  "likely_value": {c: round(float(v), 3) for c, v in sorted(likely.items())},
                  "draws_without_bag": t.draws_without_bag},
        "cubes": {h: dict(v) for h, v in sorted(t.cubes.items())},
        "recalls": dict(sorted(t.recalls.items())),
        "defeats": dict(sorted(t.defeats.items())),
        "battalions": t.battalions,
        "uncounted": uncounted(t),
    }

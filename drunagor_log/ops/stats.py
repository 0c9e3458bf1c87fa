"""`drunagor stats` (SPEC 12, issue 45.4): the statistics no companion keeps, counted from the facts the
table events of every archived adventure (and the one under way) keep (rules/chronicle.py): per chapter its
attempts, rounds, raids resolved and summoned beside the summons the odds predicted, runes drawn by colour
beside what the bag made likely, cubes and defeats per hero, Battalions; per hero over the campaign. An
archive older than those facts is counted for what it kept, and the output says what it could not count.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .. import catalog
from ..rules import chronicle
from . import Change, Line
from .chronicle import tallies
from .story import chapter_arg
from .words import plural

if TYPE_CHECKING:
    from ..campaign import Campaign

def stats(c: Campaign, chapter: str | None = None) -> Change:
    """The statistics of the campaign (of one chapter with `chapter`)."""
    only = chapter_arg(chapter, c) if chapter is not None else None
    played = [(row, t) for row, t in tallies(c) if only is None or row["chapter"] == only]
    chapters = []
    counted = []
    for ch in sorted({row["chapter"] for row, _ in played}):
        rows = [(row, t) for row, t in played if row["chapter"] == ch]
        t = chronicle.add(t for _, t in rows)
        counted.append(t)
        chapters.append({"chapter": ch, "title": catalog.chapter(ch).title, "attempts": len(rows),
                         "adventures": [row for row, _ in rows], **chronicle.as_json(t)})
    total = chronicle.add(counted)
    heroes = _heroes(total)
    data = {"chapter": only, "chapters": chapters, "heroes": heroes, "campaign": chronicle.as_json(total)}
    return Change(notes=tuple(stats_lines(data)), data=data)


def _heroes(t: chronicle.Tally) -> dict[str, dict[str, int]]:
    names = sorted(set(t.cubes) | set(t.defeats) | set(t.recalls))
    return {h: {"trauma": t.cubes.get(h, {}).get("trauma", 0), "curse": t.cubes.get(h, {}).get("curse", 0),
                "recalls": t.recalls.get(h, 0), "defeats": t.defeats.get(h, 0)} for h in names}


def stats_lines(data: dict[str, Any]) -> list[Line]:
    """`stats` as a person reads it."""
    if not data["chapters"]:
        which = f"chapter {data['chapter']}" if data["chapter"] else "this campaign"
        return [Line(f"no adventure of {which} yet: statistics come with the first `drunagor adventure start`")]
    lines: list[Line] = []
    for ch in data["chapters"]:
        lines.append(Line(f"Chapter {ch['chapter']}, {ch['title']}: {plural(ch['attempts'], 'attempt')} "
                          f"({', '.join(_how(a) for a in ch['adventures'])})", "bold"))
        lines += [Line("  " + text) for text in tally_lines(ch)]
    heroes = data["heroes"]
    if heroes:
        lines.append(Line("Heroes" + (" over the campaign" if data["chapter"] is None else "") + ":", "bold"))
        for name, h in heroes.items():
            lines.append(Line(f"  {name}: {plural(h['trauma'], 'Trauma Cube')}, {plural(h['curse'], 'Curse Cube')}"
                              f" received; {plural(h['recalls'], 'Recall Action')}; "
                              f"{'never defeated' if not h['defeats'] else 'defeated ' + _times(h['defeats'])}"))
    return lines


def _how(a: dict[str, Any]) -> str:
    how = a["outcome"] or "not ended"
    return f"{how}" + (f" in round {a['rounds']}" if a["rounds"] else "")


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def tally_lines(t: dict[str, Any]) -> list[str]:
    """A tally (`as_json`) in words: raids, runes, cubes, defeats, Battalions, and what was not counted."""
    raids, runes = t["raids"], t["runes"]
    said = f"expected {chronicle.decimal_text(_fraction(raids['expected']))}, happened {raids['summoned']}"
    if raids["with_facts"] == raids["resolved"]:
        lines = [f"raids: {raids['resolved']} resolved, {raids['tried']} tried, {raids['summoned']} summoned: {said}"]
    else:
        lines = [f"raids: {raids['resolved']} resolved; of the {raids['with_facts']} that kept their chance, "
                 f"{raids['tried']} tried, {raids['summoned']} summoned: {said}"]
    drawn = ", ".join(f"{colour} {n}" for colour, n in runes["drawn"].items()) or "none"
    likely = ", ".join(f"{colour} {runes['drawn_with_bag'][colour]} (likely "
                       f"{chronicle.decimal_text(_fraction(v))})" for colour, v in runes["likely"].items())
    if not runes["draws"]:
        lines.append("runes drawn: none")
    elif not runes["draws_without_bag"] and likely:
        lines.append(f"runes drawn in {plural(runes['draws'], 'draw')}: {likely}")
    else:
        lines.append(f"runes drawn in {plural(runes['draws'], 'draw')}: {drawn}")
        if likely:
            kept = runes["draws"] - runes["draws_without_bag"]
            lines.append(f"of the {plural(kept, 'draw')} that kept the bag: {likely}")
    cubes = [f"{h} {plural(v['trauma'], 'Trauma Cube')}, {plural(v['curse'], 'Curse Cube')}"
             for h, v in t["cubes"].items()]
    lines.append("cubes received: " + ("; ".join(cubes) if cubes else "none"))
    lines.append("defeats: " + (", ".join(f"{h} {_times(n)}" for h, n in t["defeats"].items()) or "none"))
    lines.append(f"Battalions: {t['battalions']}")
    lines += [f"not counted: {u}" for u in t["uncounted"]]
    return lines


def _fraction(text: str) -> Fraction:
    return Fraction(text)

"""The status toolbar under the prompt: the table at a glance, from `adventure show`'s own data.

Chapter and title, the round (when the adventure state keeps one), the rune bag by colour, the raid
card's face, the monsters on the board by slot, the heroes one cube or less from defeat, and LOST when
a losing condition is met. It is read again whenever a campaign file changed on disk (watch.stamp):
after a command that wrote, and while the prompt waits when another program (a second terminal, an
editor, `git pull`) changes the campaign. Each read takes the campaign's shared lock for a moment, as
`drunagor adventure show` does, and never keeps it.

Fragments are (style, text) pairs, as prompt_toolkit draws them; without colour (NO_COLOR, --no-color)
every style is empty and the rune marks are left out: the words say everything the colours say.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..rules.losing import near_defeat
from ..text import visible
from .watch import Busy, stamp, without_waiting

Fragment = tuple[str, str]
Item = list[Fragment]

MARK = "\u25cf"  # ●, the rune's colour, as the one-shot output marks it
SEPARATOR = "  "
# prompt_toolkit style classes of the toolbar (session.py builds the Style from it).
STYLE = {
    "bottom-toolbar": "noreverse bg:#303030 #e4e4e4",
    "status.head": "bold",
    "status.lost": "bold #ff5f5f",
    "status.warn": "#ffd75f",
    "status.dim": "#a8a8a8",
    "rune.red": "bold #ff5f5f", "rune.blue": "bold #5f87ff", "rune.green": "bold #5fd75f",
    "rune.orange": "bold #ff8700", "rune.gray": "bold #a8a8a8",
}
PLAIN_STYLE = {"bottom-toolbar": "noreverse"}
COLOURS = ("red", "blue", "green", "orange", "gray")
MAX_ROWS = 3  # the toolbar's rows at most on a 24-row screen
MAX_ROWS_LOST = 4  # with the losing condition's rows among them
WHOLE = ("LOST:", "ENDING:")  # rows never cut: the rule line and the remedy are the point
WAY_OUT = "adventure end --lost, or adventure undo"  # the LOST row's remedy, as typed here


class Status:
    """The toolbar of one campaign, read again only when its files changed."""

    def __init__(self, root: Path, *, colour: bool):
        self.root = root
        self.colour = colour
        self._stamp: tuple | None = None
        self._items: list[list[Item]] = []
        self._busy = False

    def refresh(self) -> bool:
        """Read the board again if a campaign file changed (a stat of each); whether it changed. Called
        between commands and by the session's watcher, never on a keypress: drawing the toolbar reads
        no file."""
        now = stamp(self.root)
        if now == self._stamp and not self._busy:
            return False
        try:
            self._items, self._stamp, self._busy = self.read(), now, False
        except Busy:  # another drunagor is writing: the last board, read again at the next refresh
            self._busy = True
        return True

    def fragments(self, width: int) -> list[Fragment]:
        """The toolbar's text, wrapped to `width` columns: at most 3 rows; with the losing condition,
        at most 4, its rows (LOST, wrapped whole, its rule line and remedy kept) under the others."""
        if self._stamp is None:
            self.refresh()
        rows: list[list[Item]] = []
        last: list[list[Fragment]] = []
        for row in self._items + ([[self._text("(another drunagor is writing)", "status.warn")]]
                                  if self._busy else []):
            if _label(row) in WHOLE:
                last += wrap(row, width, " ")
            else:
                rows.append(row)
        limit = max(MAX_ROWS_LOST - len(last), 1) if last else MAX_ROWS
        out: list[Fragment] = []
        for line in [line for row in fit(rows, width, limit, lost=bool(last)) for line in row] + last:
            if out:
                out.append(("", "\n"))
            out.extend(line)
        return out

    def read(self) -> list[list[Item]]:
        """The toolbar's rows of items, from the campaign as it is on disk now, each citation in the
        reader's form (catalog/headings.py), and every text through the output rule (`text.visible`: a
        bidi override in a monster's name shows as <U+202E>), as the one-shot output prints them."""
        from ..cli.terminal import cited
        from ..errors import DrunagorError

        try:  # the Campaign is opened without `announce`: nothing is printed into the prompt
            data, warnings = _table(self.root)
        except Busy:
            raise
        except DrunagorError as exc:
            rows = [[self._text(self.root.name, "status.head"), self._text(cited(_short(self.root, exc)))]]
        except Exception as exc:  # the toolbar never takes the session down
            rows = [[self._text(f"status unavailable: {type(exc).__name__}", "status.warn")]]
        else:
            rows = board_rows(data, self.root.name, colour=self.colour)
            rows += [[self._text(f"warning: {w}", "status.warn")] for w in warnings[:1]]
        return [[[(style, visible(cited(text))) for style, text in item] for item in row] for row in rows]

    def _text(self, text: str, style: str = "") -> Item:
        return [(f"class:{style}" if style and self.colour else "", text)]


def _table(root: Path) -> tuple[dict[str, Any], list[str]]:
    from ..campaign import Campaign
    from ..ops import adventure as ops

    with without_waiting(root), Campaign(root) as c:  # the Campaign takes the same lock again, at once
        change = ops.show(c)
        return change.data, [*c.warnings, *change.warnings]


def _short(root: Path, exc: Any) -> str:
    """An error in a line of the toolbar: what is wrong, without the remedy's detail."""
    from ..campaign import ADVENTURE

    if not os.path.lexists(root / ADVENTURE):
        return _finished(root) or "no adventure under way (adventure start begins the next chapter)"
    if not exc.file:
        return str(exc.message)
    line = f":{exc.line}" if exc.line else ""
    return f"{Path(exc.file).name}{line}: {exc.message}"


def fit(rows: list[list[Item]], width: int, limit: int = MAX_ROWS, *,
        lost: bool = False) -> list[list[list[Fragment]]]:
    """The rows wrapped to `width`, within `limit` lines. Lines are given up in this order: the rows
    under the first (the board, mostly) give up their tail, the longest first, each keeping one line
    ending in "…"; then the first row gives up its tail but never the rune bag, the adventure's clock
    in chapters 01-06 (RB L1177); then whole rows go, the last first (with LOST, the cubes row first:
    LOST names the hero), the first row never."""
    wrapped = [wrap(row, width) for row in rows]
    kept = list(range(len(rows)))

    def total() -> int:
        return sum(len(wrapped[k]) for k in kept)

    while total() > limit:
        longest = max((k for k in kept if k and len(wrapped[k]) > 1), key=lambda k: (len(wrapped[k]), k),
                      default=None)
        if longest is None:
            break
        wrapped[longest].pop()
        wrapped[longest][-1] = _cut(wrapped[longest][-1] + [("", SEPARATOR + "\u2026")], width)
    if kept and total() > limit and len(wrapped[0]) > 1:
        wrapped[0] = _squeeze(rows[0], width, max(limit - (len(kept) - 1), 1))
    while total() > limit and len(kept) > 1:
        cubes = [k for k in kept if k and _label(rows[k]) == "cubes:"]
        kept.remove(cubes[0] if lost and cubes else kept[-1])
    return [wrapped[k] for k in kept]


def _squeeze(items: list[Item], width: int, lines: int) -> list[list[Fragment]]:
    """The first row within `lines` lines: its items after the first give up from the tail, the rune
    bag last, "…" saying so; when the title and the bag alone do not fit, one line where the title
    gives way to the bag."""
    more: Item = [("", "\u2026")]
    bag = next((k for k, item in enumerate(items) if "".join(t for _, t in item).startswith("bag ")), None)
    keep = list(items)
    for k in [k for k in range(len(items) - 1, 0, -1) if k != bag]:
        keep.remove(items[k])
        out = wrap([*keep, more], width)
        if len(out) <= lines:
            return out
    if bag is None:
        return [_cut(keep[0] + [("", SEPARATOR + "\u2026")], width)]
    size = sum(len(t) for _, t in items[bag]) + len(SEPARATOR)
    title = _cut(keep[0], width - size) if width - size >= 8 else keep[0]  # the title gives way to the bag
    return [_cut([*title, ("", SEPARATOR), *items[bag]], width)]


def _finished(root: Path) -> str | None:
    """What a finished campaign says of itself (Campaign.finished), however it was finished."""
    from ..campaign import Campaign

    try:
        with Campaign(root) as c:
            return c.finished()
    except Exception:  # the toolbar never takes the session down
        return None


def _label(row: list[Item]) -> str:
    return "".join(text for _, text in row[0]) if row and row[0] else ""


def board_rows(d: dict[str, Any], campaign: str, *, colour: bool) -> list[list[Item]]:
    """The toolbar's rows: the chapter line, the monsters, the cubes and LOST (its citations in the
    reader's form: the row is one item a word, so Status.read's rendering of each item would miss them)."""
    from ..cli.terminal import cited

    def st(style: str) -> str:
        return f"class:{style}" if colour else ""

    head: list[Item] = [[(st("status.head"), f"{campaign}: {d['chapter']} {d['title']}")]]
    if d.get("round") is not None:
        head.append([("", f"round {d['round']}")])
    if (d.get("counters") or {}).get("harvesters_hunt"):  # chapter 03 after its cutscene (RB L1142)
        head.append([("", str(d["rune_card"]["name"]))])
    bag: Item = [("", f"bag {d['runes_in_bag']}:")]
    for name in COLOURS:
        bag += [("", " "), (st(f"rune.{name}"), MARK)] if colour else [("", " ")]
        bag.append(("", f"{name} {d['bag'].get(name, 0)}"))
    head.append(bag)
    if d.get("raid"):
        head.append([("", "raid face "), (st("status.head"), str(d["raid"]["face"]))])
    monsters: list[Item] = [[(st("status.dim"), "board:")]]
    monsters += [[("", f"{m['slot']}: {m['name']}" if m.get("slot") else f"boss: {m['name']}")]
                 for m in d.get("monsters", [])] or [[("", "empty")]]
    rows = [head, monsters]
    near = near_limit(d.get("cubes", {}))
    if near:
        rows.append([[(st("status.dim"), "cubes:")], *[[(st("status.warn"), text)] for text in near]])
    if d.get("lost"):  # after the Endgame Trigger a defeat is the ending, not a failure (RB L1309)
        ending = (d.get("counters") or {}).get("endgame") and d.get("chapter") == "09"
        label = "ENDING:" if ending else "LOST:"
        text = f"A Hero Undone (RB L1309): {d['lost']}" if ending else str(d["lost"])
        text = f"{text.rstrip('.')}; {WAY_OUT}"
        text = cited(text)  # before the words are parted: "RB" and "L1026" alone are no citation
        rows.append([[(st("status.lost"), label)], *[[(st("status.lost"), w)] for w in text.split()]])
    return rows


def near_limit(cubes: dict[str, Any]) -> list[str]:
    """"Nyx trauma 1/1" for each hero one cube or less from defeat: holding the limit (one more defeats
    them) or over it; a capacity not recorded yet shows as ?."""
    out = []
    for hero, c in cubes.items():
        for kind, limit in (("trauma", c.get("trauma_limit")), ("curse", c.get("curse_capacity"))):
            held = c.get(kind) or 0
            if near_defeat(held, limit):  # one more defeats them, or it did
                out.append(f"{hero} {kind} {held}/{'?' if limit is None else limit}")
    return out


def wrap(items: list[Item], width: int, sep: str = SEPARATOR) -> list[list[Fragment]]:
    """Items joined by `sep` on lines of at most `width` columns; a row that starts with its label
    ("board:") continues under the text after the label; a last line of one item takes the item
    before it along when that fits (no item alone on a row); an item wider than a line is cut."""
    label = items[0] if items and "".join(t for _, t in items[0]).endswith(":") else None
    hang = sum(len(t) for _, t in label) + len(sep) if label is not None and len(items) > 1 else 0
    if hang > width // 2:
        hang = 0
    groups: list[list[Item]] = [[]]
    used = 0
    for item in items:
        size = sum(len(text) for _, text in item)
        if groups[-1] and used + len(sep) + size > width:
            groups.append([])
            used = hang
        used += (len(sep) if groups[-1] else 0) + size
        groups[-1].append(item)
    if len(groups) > 1 and len(groups[-1]) == 1 and len(groups[-2]) > 2:
        moved = groups[-2][-1]
        size = sum(len(t) for _, t in moved) + len(sep) + sum(len(t) for _, t in groups[-1][0])
        if hang + size <= width:
            groups[-1].insert(0, groups[-2].pop())
    lines: list[list[Fragment]] = []
    for n, group in enumerate(groups):
        line: list[Fragment] = [("", " " * hang)] if n and hang else []
        used = hang if n else 0
        for k, item in enumerate(group):
            if k:
                line.append(("", sep))
                used += len(sep)
            size = sum(len(text) for _, text in item)
            if size > width - used:
                item = _cut(item, max(width - used, 1))
                size = sum(len(text) for _, text in item)
            line.extend(item)
            used += size
        lines.append(line)
    return [line for line in lines if line]


def _cut(item: Item, room: int) -> Item:
    out: Item = []
    for style, text in item:
        if room <= 0:
            break
        if len(text) > room:
            text = text[:room - 1] + "\u2026"
        out.append((style, text))
        room -= len(text)
    return out

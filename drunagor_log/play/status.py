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


class Status:
    """The toolbar of one campaign, read again only when its files changed."""

    def __init__(self, root: Path, *, colour: bool):
        self.root = root
        self.colour = colour
        self._stamp: tuple | None = None
        self._items: list[list[Item]] = []

    def fragments(self, width: int) -> list[Fragment]:
        """The toolbar's text, wrapped to `width` columns."""
        now = stamp(self.root)
        busy = False
        if now != self._stamp:
            try:
                self._items, self._stamp = self.read(), now
            except Busy:  # another drunagor is writing: the last board, read again at the next redraw
                busy = True
        out: list[Fragment] = []
        rows = self._items + ([[self._text("(another drunagor is writing)", "status.warn")]] if busy else [])
        for row in rows:
            for line in wrap(row, width):
                if out:
                    out.append(("", "\n"))
                out.extend(line)
        return out

    def read(self) -> list[list[Item]]:
        """The toolbar's rows of items, from the campaign as it is on disk now."""
        from ..errors import DrunagorError

        try:  # the Campaign is opened without `announce`: nothing is printed into the prompt
            data, warnings = _table(self.root)
        except Busy:
            raise
        except DrunagorError as exc:
            return [[self._text(self.root.name, "status.head"), self._text(_short(self.root, exc))]]
        except Exception as exc:  # the toolbar never takes the session down
            return [[self._text(f"status unavailable: {type(exc).__name__}", "status.warn")]]
        rows = board_rows(data, self.root.name, colour=self.colour)
        rows += [[self._text(f"warning: {w}", "status.warn")] for w in warnings[:1]]
        return rows

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
        return "no adventure under way (adventure start begins the next chapter)"
    if not exc.file:
        return str(exc.message)
    line = f":{exc.line}" if exc.line else ""
    return f"{Path(exc.file).name}{line}: {exc.message}"


def board_rows(d: dict[str, Any], campaign: str, *, colour: bool) -> list[list[Item]]:
    """The toolbar's rows: the chapter line, the monsters, the cubes and LOST."""
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
    if d.get("lost"):
        rows.append([[(st("status.lost"), f"LOST: {d['lost']}")]])
    return rows


def near_limit(cubes: dict[str, Any]) -> list[str]:
    """"Nyx trauma 1/1" for each hero one cube or less from defeat (one more than they hold defeats
    them; a capacity not recorded yet shows as ?)."""
    out = []
    for hero, c in cubes.items():
        for kind, limit in (("trauma", c.get("trauma_limit")), ("curse", c.get("curse_capacity"))):
            held = c.get(kind) or 0
            if held and (limit is None or limit - held <= 1):
                out.append(f"{hero} {kind} {held}/{'?' if limit is None else limit}")
    return out


def wrap(items: list[Item], width: int) -> list[list[Fragment]]:
    """Items joined on lines of at most `width` columns; an item wider than a line is cut."""
    lines: list[list[Fragment]] = []
    line: list[Fragment] = []
    used = 0
    for item in items:
        size = sum(len(text) for _, text in item)
        if line and used + len(SEPARATOR) + size > width:
            lines.append(line)
            line, used = [], 0
        if line:
            line.append(("", SEPARATOR))
            used += len(SEPARATOR)
        if size > width - used:
            item = _cut(item, max(width - used, 1))
            size = sum(len(text) for _, text in item)
        line.extend(item)
        used += size
    if line:
        lines.append(line)
    return lines


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

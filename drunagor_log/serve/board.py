"""What the table's screen shows, read once per change and shared by every viewer.

`read(root)` opens the campaign as a reading command does (the shared lock, for as long as the read
takes, then released) and gathers one plain dict from the same operations and `--json` data the
commands have: the sheets' view (`sheet.view`: the Story Record, the Campaign Logs, the decks, the
adventure as a picture), `adventure show --json` (cubes against their limits, counters, the losing
condition, the table events), `odds` and, between adventures, the next chapter's briefing
(`chapter show`). A campaign that cannot be read gives the message `check` prints for it instead
(at the start, `Board.load` raises it: `serve` stops there as every command does).

`Board` keeps the latest read and its version: a change on disk makes one re-read (never one per
viewer), and a viewer waits for a version newer than the one it has.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from .. import sheet
from ..campaign import Campaign
from ..errors import DrunagorError
from ..ops import adventure, odds, story
from ..rules import rewards
from ..store import display


def read(root: Path) -> dict[str, Any]:
    """The campaign as the pages show it; `{"error": message}` when a file cannot be read."""
    try:
        return gather(root)
    except DrunagorError as exc:
        return {"error": exc.render()}
    except OSError as exc:  # the folder itself gone or unreadable (a `git checkout` under way)
        return {"error": f"{display(root)}: cannot read the campaign: {exc.strerror or exc}"}


def gather(root: Path) -> dict[str, Any]:
    """The campaign as the pages show it; raises what a reading command would (DrunagorError)."""
    with Campaign(root) as c:
        data = sheet.view(c)
        data["warnings"] = list(c.warnings)
        data["table"] = adventure.show(c).data if c.adventure_file is not None else None
        data["odds"] = [str(line) for line in odds.odds(c).notes] if data["table"] else []
        data["briefing"] = _briefing(c) if data["table"] is None else []
        data["owed"] = _owed(c)
    return data


def _owed(c: Campaign) -> dict[str, dict[str, int]]:
    """Each hero of the party's rewards owed, counted (`rules.rewards`, as the Campaign Log shows them
    in words): which reward forms a hero's phone is offered between adventures."""
    party = [h for h in c.heroes.values() if h.active]
    return {slug: rewards.owed_for(h, c.story, party).as_dict() for slug, h in c.heroes.items() if h.active}


def _briefing(c: Campaign) -> list[str]:
    """The next chapter's briefing as `chapter show` prints it; none when the campaign is finished or
    the party's numbers cannot be filled in (no hero yet): the page says why in words."""
    if c.story.next_chapter() is None:
        return []
    try:
        return [str(line) for line in story.briefing(c).notes]
    except DrunagorError as exc:
        return [exc.render()]


class Board:
    """The latest read of one campaign, its version, and the viewers waiting for the next one."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.version = 0
        self.data: dict[str, Any] = {}
        self.closed = False  # the server stops: no version comes any more
        self.reads = 0  # re-reads of the campaign so far (one per change seen, whatever the viewers)
        self._changed = asyncio.Condition()
        self._pending = asyncio.Event()
        # (version, page) -> its HTML, drawn once per version: pages that exist only (the table, the
        # campaign, each hero's), or the one page of a broken campaign
        self.rendered: dict[tuple[int, str], str] = {}

    def load(self) -> None:
        """The first read, before the server listens. A campaign file broken on disk, now or later, is
        shown on the pages as `check`'s message until it is fixed (SPEC 11), where every other reading
        command stops at it (exit 3): the table keeps its screen through a half-done merge."""
        self.reads += 1
        self.data = read(self.root)
        self.version = 1

    def changed(self) -> None:
        """A campaign file changed: the refresher re-reads it (several changes at once: one read)."""
        self._pending.set()

    async def refresher(self) -> None:
        """Re-read after each change, in a worker thread (the server keeps answering meanwhile); a new
        version only when what the pages show is different."""
        while True:
            await self._pending.wait()
            self._pending.clear()
            await self.reread()

    async def reread(self) -> None:
        """Read the campaign now (in a worker thread); a new version when what the pages show changed.
        A hero's action awaits it, so that its answer and its page show what it wrote."""
        self.reads += 1
        data = await asyncio.to_thread(read, self.root)
        if data != self.data:
            async with self._changed:
                self.data, self.version = data, self.version + 1
                self.rendered = {}  # drawn again at the new version, once per page
                self._changed.notify_all()

    async def newer(self, version: int) -> int | None:
        """Wait until the board is newer than `version`; its version then, or None once the server
        stops (the live streams end then, each as a finished answer)."""
        async with self._changed:
            await self._changed.wait_for(lambda: self.closed or self.version > version)
            return None if self.closed else self.version

    async def close(self) -> None:
        """The server stops: every viewer waiting for a new version is let go."""
        async with self._changed:
            self.closed = True
            self._changed.notify_all()

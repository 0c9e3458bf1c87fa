"""The connections of the table's screen, guarded before any request is read (issue 43).

uvicorn counts every open connection against its limit, also one that never sends a whole request,
and it times out only the connections that have had an answer: a neighbour's 127 idle sockets would
answer every page with 503. So every connection goes through `Doors` first:

- a connection that has not sent a whole request within REQUEST_SECONDS (from its start, or from its
  last answer) is closed: a viewer's browser sends its request at once, and its live stream is a
  request being answered, never closed for this;
- one address holds at most PER_ADDRESS connections waiting for a request: its oldest beyond that
  are closed at the next connection, or GRACE_SECONDS after it went beyond (those of the last
  GRACE_SECONDS are spared: a browser, or a room of viewers on one machine, opens several at once);
- when the server holds MAX_CONNECTIONS, a new connection closes the oldest waiting one of the address
  holding the most: a viewer with the key gets its page while someone holds every socket they can.

What the scribe should know of it (a server kept full) is one line a minute at most (`Notices`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

REQUEST_SECONDS = 5.0  # a whole request within this, or the connection is closed
PER_ADDRESS = 32  # connections one address may hold waiting for a request (a quarter of the server)
GRACE_SECONDS = 1.0  # a connection younger than this is not counted in its address's share
MAX_CONNECTIONS = 128  # connections at once, live streams included
NOTICE_SECONDS = 60.0  # at most one line to the scribe in this long


class Notices:
    """What the server tells the scribe: one line at most per NOTICE_SECONDS, in drunagor's words
    (a stranger's request prints nothing more; uvicorn's own log is silenced in server.py)."""

    def __init__(self, say: Callable[[str], None] | None, clock: Callable[[], float] = time.monotonic) -> None:
        self.say, self.clock = say, clock
        self.last: float | None = None

    def __call__(self, text: str) -> None:
        now = self.clock()
        if self.say is None or (self.last is not None and now - self.last < NOTICE_SECONDS):
            return
        self.last = now
        try:
            self.say(text)
        except (OSError, ValueError):  # the terminal gone: nothing to tell
            pass


def to_stderr(text: str) -> None:
    print(f"drunagor serve: {text}", file=sys.stderr, flush=True)


class Doors:
    """Every connection of one server, and those waiting for a request, by address."""

    def __init__(self, notice: Callable[[str], None]) -> None:
        self.notice = notice
        self.open: set[Any] = set()
        self.waiting: dict[str, dict[Any, float]] = {}  # address -> {connection: waiting since}
        self.trimming: set[str] = set()  # addresses whose share is looked at again after the grace

    def arrive(self, conn: Any, now: float) -> None:
        address = conn.address
        self._trim(address, now)
        if len(self.open) >= MAX_CONNECTIONS:
            heaviest = max(self.waiting.values(), key=len, default={})
            if heaviest:
                self._close(next(iter(heaviest)))
                self.notice("the server was full of connections that ask for nothing: the oldest was closed "
                            "to let a viewer in")
        self.open.add(conn)
        self.wait(conn, now)
        if len(self.waiting[address]) > PER_ADDRESS and address not in self.trimming:
            self.trimming.add(address)  # its share, once its newest are past the grace
            conn.loop.call_later(GRACE_SECONDS, self._trim_later, address, conn.loop)

    def _trim(self, address: str, now: float) -> None:
        """Close the oldest connections `address` holds waiting beyond its share (not its newest)."""
        mine = self.waiting.get(address, {})
        settled = [c for c, since in mine.items() if now - since >= GRACE_SECONDS]
        extra = settled[:max(0, len(mine) - PER_ADDRESS)]
        for old in extra:
            self._close(old)
        if extra:
            self.notice(f"{address} opened more connections than a table's screens need without asking for a "
                        "page: the extra ones are closed")

    def _trim_later(self, address: str, loop: Any) -> None:
        self.trimming.discard(address)
        self._trim(address, loop.time())
        if len(self.waiting.get(address, {})) > PER_ADDRESS:
            self.trimming.add(address)
            loop.call_later(GRACE_SECONDS, self._trim_later, address, loop)

    def wait(self, conn: Any, now: float) -> None:
        """`conn` waits for its next request (from its start, or from its last answer)."""
        mine = self.waiting.setdefault(conn.address, {})
        mine.pop(conn, None)
        mine[conn] = now  # the newest last

    def busy(self, conn: Any) -> None:
        """`conn` sent a whole request: it is being answered (a live stream, for as long as it lasts)."""
        mine = self.waiting.get(conn.address)
        if mine is not None:
            mine.pop(conn, None)
            if not mine:
                del self.waiting[conn.address]

    def leave(self, conn: Any) -> None:
        self.open.discard(conn)
        self.busy(conn)

    def _close(self, conn: Any) -> None:
        self.leave(conn)
        conn.transport.close()


class Guarded:
    """What the doors add to uvicorn's h11 protocol (one per connection; `protocol` makes the class)."""

    doors: Doors
    address = ""
    timer: Any = None
    # uvicorn's H11Protocol gives these
    loop: Any
    client: Any
    cycle: Any
    transport: Any

    def connection_made(self, transport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self.address = self.client[0] if self.client else ""
        self.doors.arrive(self, self.loop.time())
        self._wait()

    def _wait(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.doors.wait(self, self.loop.time())
        self.timer = self.loop.call_later(REQUEST_SECONDS, self._waited)

    def _waited(self) -> None:
        self.timer = None
        if self.cycle is not None and not self.cycle.response_complete:
            return  # being answered: _wait starts again with its answer done
        self.doors.leave(self)
        self.transport.close()

    def handle_events(self) -> None:
        super().handle_events()  # type: ignore[misc]
        if self.cycle is not None and not self.cycle.response_complete:  # a whole request came
            self.doors.busy(self)
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None

    def on_response_complete(self) -> None:
        if not self.transport.is_closing():
            self._wait()  # before the pipelined request the parent may start now
        super().on_response_complete()  # type: ignore[misc]

    def connection_lost(self, exc) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.doors.leave(self)
        super().connection_lost(exc)  # type: ignore[misc]


def protocol(doors: Doors) -> type:
    """uvicorn's h11 protocol with the doors in front (uvicorn makes one per connection)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    return type("GuardedH11Protocol", (Guarded, H11Protocol), {"doors": doors})

"""Running the table's screen: the socket, the access key, the printed URL and QR code, the watch on
the campaign's files, and uvicorn serving the app until Ctrl-C (or, inside `play --serve`, until the
session ends). Every connection passes the doors first (doors.py: a whole request within seconds,
one address's share); uvicorn's own log says nothing, the scribe hears the server's notices only;
the live streams end as finished answers when the server stops.

The socket is bound here, before uvicorn starts: a port taken is one message naming a free port
(exit 2), and `--port 0` takes any free one (the URL printed says which).
"""

from __future__ import annotations

import asyncio
import errno
import os
import secrets
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..errors import UsageError
from ..git.programs import open_url
from ..store.session import ARCHIVE, HEROES
from .app import Act, build
from .board import Board
from .doors import MAX_CONNECTIONS, Doors, Notices, protocol, to_stderr

LOCAL = "127.0.0.1"
DEFAULT_PORT = 8765
# Where --lan listens: every interface of the machine. Tests set it to 127.0.0.1, so that nothing
# they start is reachable from another machine.
LAN_BIND = "DRUNAGOR_SERVE_LAN_BIND"
WATCH_STEP_MS = 20  # a change is reported once the files are quiet this long...
WATCH_DEBOUNCE_MS = 200  # ...or at the latest after this long (a `git pull` of many files)
SHUTDOWN_SECONDS = 1  # open live streams are closed after this at Ctrl-C
FOLDERS = frozenset({HEROES, ARCHIVE})  # the campaign's folders of files, watched beside the campaign folder


@dataclass
class Served:
    url: str  # what a viewer opens (with the access key under --lan)
    host: str
    port: int
    key: str | None
    qr: str | None  # the URL as a QR code drawn in text, under --lan
    board: Board  # what it serves (its `reads`: the re-reads of the campaign so far)
    heroes: dict[str, str] = field(default_factory=dict)  # each hero's URL with their key (file stem -> URL)

    def hero_qr(self, query: str) -> tuple[str, str] | None:
        """(the hero's file stem, their URL as a QR code drawn in text) for a hero named by file stem or
        name (any case), or None. Shown only on the scribe's terminal, on request."""
        wanted = query.strip().casefold()
        names = {h["slug"]: h["name"] for h in self.board.data.get("heroes", ())}
        for stem, url in self.heroes.items():
            if wanted in (stem.casefold(), str(names.get(stem, "")).casefold()):
                return stem, _qr(url)
        return None


def watched(change: Any, path: str) -> bool:
    """A campaign file: a .toml file not hidden (the store's journal, lock and temp files are all
    named .drunagor*, and a re-read for them would be one per read); or one of the campaign's own
    folders coming or going (`mv heroes.new heroes`: the watch moves to the new folder)."""
    name = os.path.basename(path)
    return (name.endswith(".toml") and not name.startswith(".")) or name in FOLDERS


def folders(root: Path) -> list[tuple[str, int, int]]:
    """What the watch looks at: the campaign folder and its own folders of files (heroes/, adventures/),
    each with the identity it has now; never a link (a link inside the campaign to /usr, or to /, would
    watch the machine), never a folder further down."""
    found = [(str(root), *_identity(root))]
    for name in sorted(FOLDERS):
        path = root / name
        if path.is_dir() and not path.is_symlink():
            found.append((str(path), *_identity(path)))
    return found


def _identity(path: Path) -> tuple[int, int]:
    try:
        st = path.stat()
    except OSError:
        return (0, 0)
    return (st.st_dev, st.st_ino)


async def watch(board: Board, stop: Any) -> None:
    """Tell the board of every change of the campaign's files, whoever made it (a command, `play`,
    `git pull`, `sync`, an editor). Each folder is watched on its own (not recursively, no link
    followed); when the folders change (one renamed in, made or removed), the watch starts again on
    the folders there are now, and the campaign is read again."""
    from contextlib import aclosing

    import watchfiles

    while not stop.is_set():
        looked = folders(board.root)
        try:
            async with aclosing(watchfiles.awatch(*(path for path, _, _ in looked), watch_filter=watched,
                                                  debounce=WATCH_DEBOUNCE_MS, step=WATCH_STEP_MS, stop_event=stop,
                                                  recursive=False, ignore_permission_denied=True)) as changes:
                async for _ in changes:
                    board.changed()
                    if folders(board.root) != looked:
                        break
        except OSError:  # a folder gone between the look and the watch (a checkout under way): look again
            board.changed()
            await asyncio.sleep(WATCH_DEBOUNCE_MS / 1000)


def lan_address() -> str:
    """This machine's address on the local network: the one a packet to a private address would leave
    from (a UDP socket's connect sends nothing)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            return str(s.getsockname()[0])
        except OSError:
            return LOCAL


def bind(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            free = _free_port(host, port)
            raise UsageError(f"port {port} is taken on {host}",
                             remedy=f"port {free} is free: drunagor serve --port {free}") from None
        raise UsageError(f"cannot listen on {host} port {port}: {exc.strerror or exc}",
                         remedy="give another --port (1024 to 65535), or --port 0 for any free one") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def _free_port(host: str, taken: int) -> int:
    """A port free now: one of the next few after the one taken (easy to remember), else any."""
    for port in [*range(taken + 1, min(taken + 20, 65536)), 0]:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            try:
                probe.bind((host, port))
            except OSError:
                continue
            return int(probe.getsockname()[1])
    raise AssertionError("binding port 0 always succeeds")  # pragma: no cover


def prepare(root: Path, port: int, lan: bool, said: Callable[[Served], None] | None = None,
            notice: Callable[[str], None] | None = to_stderr, act: Act | None = None
            ) -> tuple[Any, socket.socket, Served]:
    """The server, its bound socket and what to print, for the campaign at `root`; nothing served yet.
    `said(served)` is called once the server runs (its Ctrl-C handler in place), to print the URL;
    `notice(text)` tells the scribe what they should know (a refused key, a full server), one line a
    minute at most; None: nothing is said. `act` runs a hero's action as its command (cli/phone.py),
    with one new key per hero of the party."""
    import sse_starlette  # noqa: F401 (before uvicorn's signal handlers: it closes the live streams at Ctrl-C)
    import uvicorn

    board = Board(root)
    board.load()
    host = os.environ.get(LAN_BIND, "0.0.0.0") if lan else LOCAL
    sock = bind(host, port)
    port = int(sock.getsockname()[1])
    key = secrets.token_urlsafe(18) if lan else None
    shown = lan_address() if lan and host == "0.0.0.0" else host
    url = f"http://{shown}:{port}/" + (f"?key={key}" if key else "")
    heroes = {h["slug"]: secrets.token_urlsafe(18) for h in board.data.get("heroes", ()) if h["active"]}
    if act is None:
        heroes = {}
    urls = {stem: f"http://{shown}:{port}/heroes/{quote(stem, safe='')}?key={k}" for stem, k in heroes.items()}
    served = Served(url, host, port, key, _qr(url) if lan else None, board, urls)
    hosts = None if lan else frozenset({f"{LOCAL}:{port}", f"localhost:{port}"})
    ready = None if said is None else (lambda: said(served))
    told = Notices(notice)
    app = build(board, hosts=hosts, key=key, watch=watch, ready=ready, port=port, notice=told, heroes=heroes,
                act=act)
    _silence()
    # the doors close what sends no request (see doors.py); uvicorn's own limit stays behind them, for a
    # server whose every connection is answering
    config = uvicorn.Config(app, log_config=None, access_log=False, lifespan="on", server_header=False,
                            timeout_graceful_shutdown=SHUTDOWN_SECONDS, limit_concurrency=MAX_CONNECTIONS + 1,
                            h11_max_incomplete_event_size=16 * 1024, http=protocol(Doors(told)), ws="none")
    server = _server_class()(config)
    server.board = board
    return server, sock, served


def _silence() -> None:
    """uvicorn says nothing in the scribe's terminal: a stranger's request (garbage, an upgrade, a
    refused key) would print its warnings and tracebacks there, over `play`'s toolbar too. What the
    scribe should know is said by the server's notices, in drunagor's words."""
    import logging

    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi", "sse_starlette"):
        logger = logging.getLogger(name)
        logger.handlers = [logging.NullHandler()]
        logger.propagate = False


def _server_class() -> type:
    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn's server that ends the live streams itself when it stops: each phone's stream ends as
        a finished answer, within the shutdown's time, Ctrl-C or the end of `play --serve` alike."""

        board: Board

        async def shutdown(self, sockets=None) -> None:
            await self.board.close()
            await super().shutdown(sockets)

    return Server


def _qr(url: str) -> str:
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def run(root: Path, port: int, lan: bool, said: Callable[[Served], None],
        open_browser: bool = False, act: Act | None = None) -> None:
    """Serve until Ctrl-C; `said(served)` prints the URL (and the QR code) once the socket listens."""
    server, sock, served = prepare(root, port, lan, said, act=act)
    if open_browser:
        threading.Timer(0.2, open_url, (served.url,)).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # the Ctrl-C that stopped it: uvicorn raises it again once it has shut down
    finally:
        sock.close()


@contextmanager
def running(root: Path, port: int = 0, lan: bool = False,
            notice: Callable[[str], None] | None = None, act: Act | None = None) -> Iterator[Served]:
    """The server in a thread beside the caller (`play --serve`), stopped when the block ends. Nothing
    is said unless `notice` is given (a line printed from this thread would land over the session's
    toolbar)."""
    server, sock, served = prepare(root, port, lan, notice=notice, act=act)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="drunagor-serve", daemon=True)
    thread.start()
    try:
        yield served
    finally:
        server.should_exit = True
        thread.join(SHUTDOWN_SECONDS + 4)
        sock.close()

"""The web application of the table's screen: a Starlette app behind one guard.

Routes: `/` (the table now), `/campaign`, `/heroes/<hero>` (pages drawn from the board's read),
`/events?page=...` (the live stream of one page: its board now, then each new version), and
`/static/serve.css`, `/static/serve.js`, `/static/icon.svg` (the package's own three files, read when the app is built:
no URL reaches the file system).

The guard, before any route: GET only (405 otherwise, and 413 for a request that sends a body); on
127.0.0.1 a Host header that is not the server's own is refused (DNS rebinding); under `--lan` the
run's access key, in the URL once (then a cookie), or 403. Every answer carries a strict
Content-Security-Policy (the package's own script and stylesheet, nothing else), no referrer (the
key is in the URL), no framing, no sniffing. Live streams are bounded (503 beyond MAX_STREAMS).
"""

from __future__ import annotations

import asyncio
import hmac
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from .board import Board
from .pages import Pages, exists, page_of, title_of, url_of

STATIC = Path(__file__).parent / "static"
STATIC_TYPES = {"serve.css": "text/css; charset=utf-8", "serve.js": "text/javascript; charset=utf-8",
                "icon.svg": "image/svg+xml"}
MAX_STREAMS = 64  # live viewers at once: a table is a handful of screens; the benchmark holds 50
KEY_COOKIE = "drunagor_key_{port}"  # one per server: two servers on one address never see each other's key
PING_SECONDS = 15  # a comment on an idle stream: a dropped connection is noticed, proxies keep it open
SEND_TIMEOUT = 10  # a viewer that takes no data for this long is dropped (it reconnects by itself)
RETRY_MS = 1000  # how soon a browser reconnects after a dropped stream
SECURITY = [
    (b"content-security-policy", b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                                 b"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
]

Send = Callable[[dict], Awaitable[None]]


def build(board: Board, *, hosts: frozenset[str] | None, key: str | None,
          watch: Callable[[Board, Any], Coroutine[Any, Any, None]] | None = None,
          ready: Callable[[], None] | None = None, port: int = 0,
          notice: Callable[[str], None] | None = None):
    """The app for `board`. `hosts`: the Host headers accepted (None: any, under --lan); `key`: the
    run's access key (None: no key, on 127.0.0.1); `watch(board, stop)`: the task that tells the
    board of changes on disk, started with the app and stopped with it; `ready()`: called once the
    app has started; `port`: the server's own (its key cookie's name carries it); `notice(text)`: what
    the scribe is told (a refused key), already limited to one line a minute."""
    from starlette.applications import Starlette
    from starlette.routing import Route

    screen = Screen(board, watch, ready)
    screen.notice = notice or screen.notice
    routes = [Route("/", screen.page), Route("/campaign", screen.page), Route("/heroes/{hero}", screen.page),
              Route("/events", screen.events), Route("/static/{name}", screen.asset)]
    return Guard(Starlette(routes=routes, lifespan=screen.lifespan), hosts=hosts, key=key, port=port,
                 notice=notice)


class Screen:
    """The routes over one board: each page drawn once per version, for every viewer."""

    def __init__(self, board: Board, watch: Callable[[Board, Any], Coroutine[Any, Any, None]] | None,
                 ready: Callable[[], None] | None = None) -> None:
        self.board, self.watch, self.ready = board, watch, ready
        self.pages = Pages()
        self.static = {name: (STATIC / name).read_bytes() for name in STATIC_TYPES}
        self.streams = 0  # live streams open now
        self.notice: Callable[[str], None] = lambda text: None  # what the scribe is told (one line a minute)

    def drawn(self, page: str) -> tuple[int, str]:
        """The board of `page` at the latest version, and that version."""
        board = self.board
        version = board.version
        key = (version, "broken" if "error" in board.data else page)  # a broken campaign: one page for all
        html = board.rendered.get(key)
        if html is None:
            html = board.rendered[key] = self.pages.board(board.data, page)
        return version, html

    async def page(self, request):
        from starlette.responses import HTMLResponse

        # the path as uvicorn decoded it: request.url re-reads it as a URL, where a hero file named with
        # '#' or '?' would end the path there
        data, name = self.board.data, page_of(request.scope["path"])
        if name is None or not exists(data, name):
            missing = self.pages.board(data, "missing")
            title = "drunagor: no such page"
            return HTMLResponse(self.pages.page(missing, None, self.board.version, False, title), status_code=404)
        version, html = self.drawn(name)
        tv = "tv" in request.query_params
        return HTMLResponse(self.pages.page(html, name, version, tv, title_of(data, name)))

    async def events(self, request):
        from sse_starlette import EventSourceResponse
        from starlette.responses import PlainTextResponse

        name = request.query_params.get("page", "")
        if page_of(url_of(name)) != name or not exists(self.board.data, name):
            return PlainTextResponse("no such page", status_code=404)
        if self.streams >= MAX_STREAMS:
            self.notice(f"{MAX_STREAMS} pages follow the campaign already: one more was told to try again")
            return PlainTextResponse("too many live viewers", status_code=503, headers={"retry-after": "5"})
        self.streams += 1
        return EventSourceResponse(self._stream(name), ping=PING_SECONDS, send_timeout=SEND_TIMEOUT)

    async def _stream(self, name: str) -> AsyncIterator[dict]:
        try:
            seen = 0
            while await self.board.newer(seen) is not None:
                seen, html = self.drawn(name)
                yield {"event": "page", "id": str(seen), "data": html, "retry": RETRY_MS}
        finally:
            self.streams -= 1

    async def asset(self, request):
        from starlette.responses import PlainTextResponse, Response

        name = request.path_params["name"]
        if name not in self.static:
            return PlainTextResponse("not found", status_code=404)
        return Response(self.static[name], media_type=STATIC_TYPES[name])

    @asynccontextmanager
    async def lifespan(self, app):
        stop = asyncio.Event()
        tasks = [asyncio.create_task(self.board.refresher())]
        if self.watch is not None:
            tasks.append(asyncio.create_task(self.watch(self.board, stop)))
        if self.ready is not None:
            self.ready()
        try:
            yield
        finally:
            stop.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


class Guard:
    """The ASGI middleware every request passes first (see the module's docstring)."""

    def __init__(self, app, *, hosts: frozenset[str] | None, key: str | None, port: int = 0,
                 notice: Callable[[str], None] | None = None) -> None:
        self.app, self.hosts, self.key = app, hosts, key
        self.cookie_name = KEY_COOKIE.format(port=port)
        self.notice = notice or (lambda text: None)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            if scope["type"] == "lifespan":
                await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            status, text, extra = refusal
            await _answer(send, status, text, extra)
            return
        cookie = self._cookie(scope, headers)

        async def secured(message: dict) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY, *cookie]}
            await send(message)

        await self.app(scope, receive, secured)

    def _refusal(self, scope, headers: dict[str, str]) -> tuple[int, str, list] | None:
        if scope["method"] != "GET":
            return 405, "drunagor serve only shows the campaign: GET only", [(b"allow", b"GET")]
        if headers.get("content-length", "0") != "0" or "transfer-encoding" in headers:
            return 413, "a request to drunagor serve sends no body", []
        if self.hosts is not None and headers.get("host", "").lower() not in self.hosts:
            return 403, "not this server's own address (Host header refused)", []
        if self.access(scope, headers) is None:
            client = scope.get("client") or ("", 0)
            self.notice(f"refused a request from {client[0]} without this run's access key")
            return 403, "this page needs the access key: open the URL drunagor serve printed", []
        return None

    def access(self, scope, headers: dict[str, str]) -> str | None:
        """Who a request is, by the key it carries (in the URL, else in this server's cookie): "table"
        (the run's key, or no key needed on 127.0.0.1), or None (no key, or a wrong one: 403). The one
        place a key is compared: as bytes, in constant time, whatever characters were sent."""
        if self.key is None:
            return "table"
        return "table" if same_key(self._given_key(scope, headers), self.key) else None

    def _given_key(self, scope, headers: dict[str, str]) -> str:
        query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("key")
        if query:
            return query[0]
        jar = SimpleCookie()
        try:
            jar.load(headers.get("cookie", ""))
        except Exception:  # a malformed Cookie header is no key
            return ""
        return jar[self.cookie_name].value if self.cookie_name in jar else ""

    def _cookie(self, scope, headers: dict[str, str]) -> list[tuple[bytes, bytes]]:
        """The key as a cookie, when it came in the URL: the pages' links and the stream carry it then.
        Its name carries the port: cookies are shared by every port of an address, and two servers
        (two `serve --lan` runs) never read, replace or log out each other's."""
        if self.key is None or b"key=" not in scope.get("query_string", b""):
            return []
        return [(b"set-cookie", f"{self.cookie_name}={self.key}; Path=/; HttpOnly; SameSite=Strict".encode())]


def same_key(given: str, key: str) -> bool:
    """`given` is `key`: compared as UTF-8 bytes in constant time (hmac.compare_digest refuses a str
    that is not ASCII: a key of `é` is a wrong key, not an error)."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), key.encode("utf-8"))


async def _answer(send: Send, status: int, text: str, extra: list) -> None:
    body = (text + "\n").encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()), *extra, *SECURITY]})
    await send({"type": "http.response.body", "body": body})

"""The web application of the table's screen: a Starlette app behind one guard.

Routes: `/` (the table now), `/campaign`, `/heroes/<hero>` (pages drawn from the board's read),
`/events?page=...` (the live stream of one page: its board now, then each new version), and
`/static/serve.css`, `/static/serve.js`, `/static/icon.svg` (the package's own three files, read when the app is built:
no URL reaches the file system), and `POST /heroes/<hero>/act`, the one way a page writes (SPEC 12): a
hero's phone recording for its own hero, through the command's own code (`act`, handed in by the
command line: cli/phone.py; actions.py reads the form as the command's words).

The guard, before any route: GET only (405 otherwise, and 413 for a request that sends a body) but
for a hero's action; on 127.0.0.1 a Host header that is not the server's own is refused (DNS
rebinding); under `--lan` the run's access key (the table's, or a hero's), in the URL once (then a
cookie), or 403. A hero's action passes more: that hero's own key (403 for none, the table's,
another hero's, another run's), an Origin and Sec-Fetch-Site of the server's own (a page of any
other origin, another port of 127.0.0.1 included, cannot make a phone act), a body of at most
MAX_BODY bytes (413), form-encoded (415), at most RATE actions a second per key (429), and the
page's token (`csrf`, derived from the hero's key: 403 when missing or wrong). Every answer carries a strict
Content-Security-Policy (the package's own script and stylesheet, nothing else), no referrer (the
key is in the URL), no framing, no sniffing. Live streams are bounded (503 beyond MAX_STREAMS).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, parse_qsl

from ..text import json_escaped
from . import actions
from .board import Board
from .pages import HERO, Pages, exists, page_of, title_of, url_of

STATIC = Path(__file__).parent / "static"
STATIC_TYPES = {"serve.css": "text/css; charset=utf-8", "serve.js": "text/javascript; charset=utf-8",
                "icon.svg": "image/svg+xml"}
MAX_STREAMS = 64  # live viewers at once: a table is a handful of screens; the benchmark holds 50
KEY_COOKIE = "drunagor_key_{port}"  # one per server: two servers on one address never see each other's key
PING_SECONDS = 15  # a comment on an idle stream: a dropped connection is noticed, proxies keep it open
SEND_TIMEOUT = 10  # a viewer that takes no data for this long is dropped (it reconnects by itself)
RETRY_MS = 1000  # how soon a browser reconnects after a dropped stream
MAX_BODY = 4096  # bytes of a hero's action (a form of a few short fields)
RATE = 5  # actions a second from one key at most
FORM = "application/x-www-form-urlencoded"
#: Who a request is when it carries the table's key (a hero is their file stem): a name no file stem can
#: be (a stem holds no "/"), so that the table's key is never a hero's, whatever the party names a hero.
TABLE_KEY = "/"
#: The HTTP status of a hero's action by the command's exit code (SPEC 12); another code: refused.
STATUS = {0: 200, 1: 409, 2: 400, 4: 503}
Act = Callable[[str, str, str, list[str]], dict[str, Any]]
SECURITY = [
    (b"content-security-policy", b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                                 b"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
]

Send = Callable[[dict], Awaitable[None]]


def build(board: Board, *, hosts: frozenset[str] | None, key: str | None,
          watch: Callable[[Board, Any], Coroutine[Any, Any, None]] | None = None,
          ready: Callable[[], None] | None = None, port: int = 0,
          notice: Callable[[str], None] | None = None, heroes: dict[str, str] | None = None,
          act: Act | None = None):
    """The app for `board`. `hosts`: the Host headers accepted (None: any, under --lan); `key`: the
    run's access key (None: no key, on 127.0.0.1); `watch(board, stop)`: the task that tells the
    board of changes on disk, started with the app and stopped with it; `ready()`: called once the
    app has started; `port`: the server's own (its key cookie's name carries it); `notice(text)`: what
    the scribe is told (a refused key), already limited to one line a minute; `heroes`: each hero's
    key for this run (file stem -> key); `act(stem, name, label, words)`: runs a hero's action as the
    command (none: the pages show no action)."""
    from starlette.applications import Starlette
    from starlette.routing import Route

    heroes = heroes if act is not None else {}
    screen = Screen(board, watch, ready, heroes=heroes or {}, act=act)
    screen.notice = notice or screen.notice
    routes = [Route("/", screen.page), Route("/campaign", screen.page), Route("/chronicle", screen.page),
              Route("/heroes/{hero}", screen.page),
              Route("/heroes/{hero}/act", screen.act, methods=["POST"]),
              Route("/events", screen.events), Route("/static/{name}", screen.asset)]
    return Guard(Starlette(routes=routes, lifespan=screen.lifespan), hosts=hosts, key=key, port=port,
                 notice=notice, heroes=heroes or {})


def csrf_of(key: str) -> str:
    """The page token of a hero's key: what only a page served with that key holds (derived, so
    nothing is stored, and new each run with the key)."""
    return hmac.new(key.encode(), b"drunagor serve: a hero's action", hashlib.sha256).hexdigest()[:32]


class Screen:
    """The routes over one board: each page drawn once per version, for every viewer."""

    def __init__(self, board: Board, watch: Callable[[Board, Any], Coroutine[Any, Any, None]] | None,
                 ready: Callable[[], None] | None = None, *, heroes: dict[str, str] | None = None,
                 act: Act | None = None) -> None:
        self.board, self.watch, self.ready = board, watch, ready
        self.heroes, self._act = heroes or {}, act
        self.answers: dict[str, dict[str, Any]] = {}  # each hero's last answer, shown on their page
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
        panel = self._panel(name, request.scope.get("drunagor.who"))
        return HTMLResponse(self.pages.page(html, name, version, tv, title_of(data, name), panel))

    def _panel(self, name: str, who: str | None) -> str:
        """The hero's actions, on their own page opened with their own key (else nothing)."""
        if self._act is None or who is None or name != HERO + who or who not in self.heroes:
            return ""
        return self.pages.actions(self.board.data, who, csrf_of(self.heroes[who]), self.answers.get(who))

    async def act(self, request):
        """A hero's action (the guard has checked the key, the origin, the body and the token): run
        as its command, in a worker thread (it may wait for the campaign's lock); the answer as JSON,
        or 303 back to the hero's page, which shows it."""
        from starlette.responses import RedirectResponse, Response

        stem = request.path_params["hero"]
        form = request.scope["drunagor.form"]
        if "error" in self.board.data:  # a file broken, or the lock busy, at the last read: read it again
            await self.board.reread()
        hero = next((h["name"] for h in self.board.data.get("heroes", ()) if h["slug"] == stem), None)
        try:
            if hero is None:
                raise actions.Refusal("this hero's Campaign Log cannot be read now: the page says why")
            label, words = actions.words(hero, form)
        except actions.Refusal as exc:
            answer = {"ok": False, "exit": 2, "message": str(exc), "lines": [f"error: {exc}"]}
        else:
            assert self._act is not None
            answer = await asyncio.to_thread(self._act, stem, hero, label, words)
            if answer["exit"] != 4:  # (4: another command holds the campaign, and nothing was written)
                await self.board.reread()  # now, not once the watcher's quiet time has passed: the page shows it
        self.answers[stem] = answer
        if "application/json" in request.headers.get("accept", ""):
            code = answer["exit"]
            status = STATUS.get(code, 409) if isinstance(code, int) else 409
            body = json_escaped(json.dumps(answer, ensure_ascii=False))
            return Response(body, status_code=status, media_type="application/json",
                            headers={"retry-after": "1"} if status == 503 else None)
        return RedirectResponse(f"/heroes/{stem}#act", status_code=303)

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
                 notice: Callable[[str], None] | None = None, heroes: dict[str, str] | None = None) -> None:
        self.app, self.hosts, self.key = app, hosts, key
        self.cookie_name = KEY_COOKIE.format(port=port)
        self.notice = notice or (lambda text: None)
        self.heroes = heroes or {}
        self._recent: dict[str, deque[float]] = {}  # each hero's last actions (monotonic times)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            if scope["type"] == "lifespan":
                await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        who = self._who(scope, headers)
        scope = {**scope, "drunagor.who": who}
        stem = _acting(scope["path"])
        if stem is None:
            refusal = self._refusal(scope, headers, who)
        else:
            refusal = self._act_refusal(scope, headers, stem, who)
            if refusal is None:
                form, refusal = await self._form(receive, headers, stem)
                scope["drunagor.form"] = form
        if refusal is not None:
            status, text, extra = refusal
            if stem is not None and status == 400 and "application/json" in headers.get("accept", ""):
                # a form that cannot be read is a usage slip: answered as the command's are (SPEC 12)
                answer = {"ok": False, "exit": 2, "message": text, "lines": [f"error: {text}"]}
                await _answer(send, status, json_escaped(json.dumps(answer, ensure_ascii=False)), extra,
                              b"application/json")
                return
            await _answer(send, status, text, extra)
            return
        cookie = self._cookie(scope, who)

        async def secured(message: dict) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY, *cookie]}
            await send(message)

        await self.app(scope, receive, secured)

    def _refusal(self, scope, headers: dict[str, str], who: str | None) -> tuple[int, str, list] | None:
        if scope["method"] != "GET":
            return 405, "drunagor serve only shows the campaign: GET only", [(b"allow", b"GET")]
        if headers.get("content-length", "0") != "0" or "transfer-encoding" in headers:
            return 413, "a request to drunagor serve sends no body", []
        if self.hosts is not None and headers.get("host", "").lower() not in self.hosts:
            return 403, "not this server's own address (Host header refused)", []
        if self.key is not None and who is None:
            client = scope.get("client") or ("", 0)
            self.notice(f"refused a request from {client[0]} without this run's access key")
            return 403, "this page needs the access key: open the URL drunagor serve printed", []
        return None

    def _who(self, scope, headers: dict[str, str]) -> str | None:
        """Whose key the request carries (in the URL, else in this server's cookie): TABLE_KEY, a hero's
        file stem, or None (none, or a key of no one this run). The one place a key is compared: as
        bytes, in constant time, whatever characters were sent."""
        given = self._given_key(scope, headers)
        if not given:
            return None
        who = None
        if self.key is not None and same_key(given, self.key):
            who = TABLE_KEY
        for stem, key in self.heroes.items():  # every key compared, whichever matches
            if same_key(given, key):
                who = stem
        return who

    def _act_refusal(self, scope, headers: dict[str, str], stem: str, who: str | None) -> tuple[int, str, list] | None:
        """A hero's action before its body is read: what SPEC 12 refuses, writing nothing."""
        if scope["method"] != "POST":
            return 405, "a hero's action is posted by the hero's page: POST only", [(b"allow", b"POST")]
        if self.hosts is not None and headers.get("host", "").lower() not in self.hosts:
            return 403, "not this server's own address (Host header refused)", []
        if who != stem:
            return 403, ("acting needs this hero's own key: open the URL drunagor serve printed for the hero"
                         if who is None else "the table's key shows the pages; only a hero's own key acts, for that "
                         "hero" if who == TABLE_KEY else "a hero's key acts for that hero only, not for another"), []
        if not _own_origin(headers):
            return 403, "a page of another origin cannot act here: use the hero's own page", []
        length = headers.get("content-length", "0")
        if length.isascii() and length.isdigit() and int(length) > MAX_BODY:
            return 413, f"a hero's action is at most {MAX_BODY} bytes", []
        if headers.get("content-type", "").split(";")[0].strip().lower() != FORM:
            return 415, f"a hero's action is a form ({FORM})", []
        recent = self._recent.setdefault(stem, deque())
        now = time.monotonic()
        while recent and now - recent[0] >= 1.0:
            recent.popleft()
        if len(recent) >= RATE:
            return 429, f"at most {RATE} actions a second from one phone: wait a moment", [(b"retry-after", b"1")]
        recent.append(now)
        return None

    async def _form(self, receive, headers: dict[str, str], stem: str) -> tuple[dict[str, str], tuple | None]:
        """The posted form, at most MAX_BODY bytes, its token checked."""
        body = b""
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return {}, (400, "the request ended before its body", [])
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > MAX_BODY:
                return {}, (413, f"a hero's action is at most {MAX_BODY} bytes", [])
        try:
            pairs = parse_qsl(body.decode("ascii"), keep_blank_values=True, errors="strict",
                              max_num_fields=actions.MAX_FIELDS + 2)
            form = actions.read(pairs)
        except (UnicodeDecodeError, ValueError, actions.Refusal) as exc:
            what = "its bytes are not percent-encoded UTF-8" if isinstance(exc, UnicodeDecodeError) else str(exc)
            return {}, (400, f"the form cannot be read: {what}", [])
        if not same_key(form.get("csrf", ""), csrf_of(self.heroes[stem])):
            return {}, (403, "the page's token is missing or wrong: reload the hero's page", [])
        return form, None

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

    def _cookie(self, scope, who: str | None) -> list[tuple[bytes, bytes]]:
        """The key as a cookie, when it came in the URL: the pages' links and the stream carry it then.
        Its name carries the port: cookies are shared by every port of an address, and two servers
        (two `serve --lan` runs) never read, replace or log out each other's."""
        if who is None or b"key=" not in scope.get("query_string", b""):
            return []
        key = self.key if who == TABLE_KEY else self.heroes[who]
        return [(b"set-cookie", f"{self.cookie_name}={key}; Path=/; HttpOnly; SameSite=Strict".encode())]


def same_key(given: str, key: str) -> bool:
    """`given` is `key`: compared as UTF-8 bytes in constant time (hmac.compare_digest refuses a str
    that is not ASCII: a key of `é` is a wrong key, not an error)."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), key.encode("utf-8"))


def _acting(path: str) -> str | None:
    """The hero whose action a path names (`/heroes/<hero>/act`), else None."""
    parts = path.split("/")
    if len(parts) == 4 and parts[0] == "" and parts[1] == "heroes" and parts[2] and parts[3] == "act":
        return parts[2]
    return None


def _own_origin(headers: dict[str, str]) -> bool:
    """The request comes from a page of this server: its Origin (when sent) is the server's own, and
    its Sec-Fetch-Site (when sent) says same-origin. A browser sends both with a form or a fetch;
    curl sends neither (and has no page token unless it read the page with the key)."""
    origin = headers.get("origin")
    if origin is not None and origin.lower() != f"http://{headers.get('host', '')}".lower():
        return False
    site = headers.get("sec-fetch-site")
    return site is None or site == "same-origin"


async def _answer(send: Send, status: int, text: str, extra: list, media: bytes = b"text/plain") -> None:
    body = (text + "\n").encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", media + b"; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()), *extra, *SECURITY]})
    await send({"type": "http.response.body", "body": body})

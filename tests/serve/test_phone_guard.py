"""The guard of a hero's action (serve/app.Guard, SPEC 12), in this process: what it answers before
the command runs."""

from __future__ import annotations

import asyncio
import json

from drunagor_log.serve.app import Guard, csrf_of

KEY = "nyx-key"


def _post(body: bytes, accept: str | None, *, stem: str = "nyx", heroes: dict[str, str] | None = None,
          table: str | None = None, key: str = KEY,
          method: str = "POST") -> tuple[int, dict[bytes, bytes], bytes, list[str | None]]:
    reached: list[str | None] = []

    async def app(scope, receive, send) -> None:  # the routes: never reached by a refused form
        reached.append(scope["drunagor.who"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    guard = Guard(app, hosts=None, key=table, port=1, heroes=heroes or {"nyx": KEY})
    headers = [(b"host", b"127.0.0.1:1"), (b"cookie", f"drunagor_key_1={key}".encode()),
               (b"content-type", b"application/x-www-form-urlencoded"),
               (b"content-length", str(len(body)).encode())]
    if accept is not None:
        headers.append((b"accept", accept.encode()))
    path = f"/heroes/{stem}/act" if method == "POST" else f"/heroes/{stem}"
    scope = {"type": "http", "method": method, "path": path, "query_string": b"", "headers": headers,
             "client": ("127.0.0.1", 5)}
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(guard(scope, receive, send))
    return sent[0]["status"], dict(sent[0]["headers"]), sent[1]["body"], reached


def test_the_tables_key_never_acts_for_a_hero_named_table():
    """A hero named "Table" (file stem `table`): the table's key (on the TV, in its QR code) shows their
    page without the actions and cannot act for them; their own key acts."""
    heroes = {"table": "hero-key"}
    body = b"action=recall&csrf=" + csrf_of("hero-key").encode()
    status, _, reply, reached = _post(body, None, stem="table", heroes=heroes, table="table-key", key="table-key")
    assert (status, reply, reached) == (
        403, b"the table's key shows the pages; only a hero's own key acts, for that hero\n", [])
    assert _post(b"", None, stem="table", heroes=heroes, table="table-key", key="table-key",
                 method="GET")[3] == ["/"]  # the table's, not the hero's: the page draws no action
    assert _post(body, None, stem="table", heroes=heroes, table="table-key", key="hero-key")[::3] == (200, ["table"])


def test_a_form_that_cannot_be_read_is_a_usage_slip_answered_in_json_when_asked():
    token = csrf_of(KEY).encode()
    for body, message in ((b"action=cube&action=recall&csrf=" + token, "the field 'action' is given twice"),
                          (b"action=recall&csrf=" + token + b"&x=%ff",
                           "its bytes are not percent-encoded UTF-8")):
        status, headers, reply, reached = _post(body, "application/json")
        assert (status, headers[b"content-type"], reached) == (400, b"application/json; charset=utf-8", [])
        said = f"the form cannot be read: {message}"
        assert json.loads(reply) == {"ok": False, "exit": 2, "message": said, "lines": [f"error: {said}"]}
        # without asking for JSON: the words as text, as every refusal before the command
        status, headers, reply, reached = _post(body, None)
        assert (status, headers[b"content-type"], reply, reached) == (
            400, b"text/plain; charset=utf-8", f"{said}\n".encode(), [])

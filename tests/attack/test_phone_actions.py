"""The writing path of `drunagor serve` attacked (SPEC 12): POST /heroes/<hero>/act against a real
server (the installed script on 127.0.0.1, bounded in CPU) and a copy of the example campaign.

Refused with nothing written: a form on a page of another loopback port (in a real Chromium that holds
the hero's cookie, and even with the right page token), a foreign Origin or Sec-Fetch-Site, another
hero's key, the table's key, a previous run's key, no or a wrong token, a body over 4 KiB, a body not
form-encoded, more than 5 actions a second. Hostile bytes in every field go through the command and
come back through the output rule (JSON, the page, the session). Two phones and one-shot writers at
once: nothing lost, nothing doubled. Each test bounded in count and time."""

from __future__ import annotations

import http.server
import json
import re
import socketserver
import subprocess
import threading
import time
from collections.abc import Iterator
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.attack import bounded
from tests.attack.hostile import HOSTILE
from tests.conftest import snapshot
from tests.serve.live import Server
from tests.serve.phones import FORM, Phone, hero_urls
from tests.sheet.browser import find

RAW = ("\x1b", "\x9b", "\u202e", "\x07", "\x7f")  # what must never come back as it is


def drunagor(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([bounded.drunagor_script(), *args], capture_output=True, text=True, timeout=60)


@pytest.fixture
def server(example) -> Iterator[Server]:
    s = Server(example, "--no-qr")
    try:
        yield s
    finally:
        s.stop()


def _refused(phone: Phone, status: int, reply: bytes, expected: int, words: str) -> None:
    assert status == expected, (status, reply)
    assert words in reply.decode(), reply


# -------------------------------------------------------------------------------- who may act


def test_a_foreign_origin_or_fetch_site_is_refused_even_with_the_right_token(server, example):
    nyx = Phone(hero_urls(server.stdout)["nyx"])
    before = snapshot(example)
    act = {"action": "cube", "kind": "trauma", "delta": "+1"}
    for headers in ({"Origin": "http://127.0.0.1:1"}, {"Origin": "null"}, {"Origin": f"http://localhost:{nyx.port}"},
                    {"Origin": f"https://127.0.0.1:{nyx.port}"},
                    {"Origin": None, "Sec-Fetch-Site": "same-site"}, {"Origin": None, "Sec-Fetch-Site": "cross-site"},
                    {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "none"}):
        status, _, reply = nyx.post(act, headers=headers)
        _refused(nyx, status, reply, 403, "a page of another origin cannot act here")
    assert snapshot(example) == before
    assert nyx.act(**act)[0] == 200  # the phone's own page, the same fields: it acts


def test_another_heros_key_the_table_key_and_no_key_are_refused(example):
    server = Server(example, "--no-qr", "--lan")
    try:
        urls = hero_urls(server.stdout)
        nyx, vacrem = Phone(urls["nyx"]), Phone(urls["vacrem"])
        for path in ("/", "/campaign", "/heroes/vacrem"):  # a hero's key opens every page, as the table's does
            assert "<h1>" in nyx.get(path)
        before = snapshot(example)
        act = {"action": "recall", "capacity": "4"}
        # Nyx's phone for Vacrem, with Nyx's token or Vacrem's
        for token in (nyx.csrf, vacrem.csrf):
            status, _, reply = nyx.post([*act.items(), ("csrf", token)], hero="vacrem", csrf=False)
            _refused(nyx, status, reply, 403, "a hero's key acts for that hero only, not for another")
        # the table's key, which opens every page
        status, headers, _ = nyx.request("GET", f"/?{server.query}")
        table = headers["set-cookie"].split(";")[0]
        status, _, reply = nyx.post(act, headers={"Cookie": table})
        _refused(nyx, status, reply, 403, "the table's key shows the pages; only a hero's own key acts")
        assert "<form" not in nyx.request("GET", "/heroes/nyx", headers={"Cookie": table})[2].decode()
        # no key at all; a key in the URL instead of the cookie is the same key (and works), a wrong one is none
        status, _, reply = nyx.post(act, headers={"Cookie": None})
        _refused(nyx, status, reply, 403, "acting needs this hero's own key")
        status, _, reply = nyx.post(act, headers={"Cookie": "drunagor_key=" + "A" * 24})
        _refused(nyx, status, reply, 403, "acting needs this hero's own key")
        status, _, reply = nyx.post(act, headers={"Cookie": "drunagor_key=\u00e9\u00e9"})
        assert status == 403
        assert snapshot(example) == before
    finally:
        server.stop()


def test_a_previous_runs_key_and_token_are_refused(example):
    first = Server(example, "--no-qr")
    old = Phone(hero_urls(first.stdout)["nyx"])
    first.stop()
    second = Server(example, "--no-qr")
    try:
        before = snapshot(example)
        old.port, old.origin = second.port, f"http://127.0.0.1:{second.port}"
        status, _, reply = old.post({"action": "cube", "kind": "trauma", "delta": "+1"})
        _refused(old, status, reply, 403, "acting needs this hero's own key")
        new = Phone(hero_urls(second.stdout)["nyx"])
        status, _, reply = new.post([("action", "recall"), ("csrf", old.csrf)], csrf=False)  # the old page's token
        _refused(new, status, reply, 403, "the page's token is missing or wrong")
        assert snapshot(example) == before
    finally:
        second.stop()


def test_no_token_or_a_wrong_one_is_refused(server, example):
    urls = hero_urls(server.stdout)
    nyx, vacrem = Phone(urls["nyx"]), Phone(urls["vacrem"])
    before = snapshot(example)
    act = [("action", "cube"), ("kind", "trauma"), ("delta", "+1")]
    for token in ([], [("csrf", "")], [("csrf", "0" * 32)], [("csrf", vacrem.csrf)], [("csrf", nyx.csrf[:-1])],
                  [("csrf", nyx.csrf + "0")], [("csrf", nyx.csrf.upper())], [("csrf", "\u00e9" * 32)]):
        status, _, reply = nyx.post(act + token, csrf=False)
        _refused(nyx, status, reply, 403, "the page's token is missing or wrong")
        time.sleep(0.25)  # under the rate limit
    status, _, reply = nyx.post(act + [("csrf", nyx.csrf), ("csrf", nyx.csrf)], csrf=False)
    _refused(nyx, status, reply, 400, "the field 'csrf' is given twice")
    assert snapshot(example) == before


def test_a_form_posted_from_a_page_on_another_loopback_port_writes_nothing(server, example):
    chromium = find()
    if chromium is None:
        pytest.skip("no chromium: .ci/run installs Debian's")
    sync_api = pytest.importorskip("playwright.sync_api")
    nyx = Phone(hero_urls(server.stdout)["nyx"])
    target = f"http://127.0.0.1:{server.port}/heroes/nyx/act"
    # the attacker even knows the page's token: the Origin alone refuses it
    fields = "".join(f'<input name="{k}" value="{v}">' for k, v in
                     (("action", "cube"), ("kind", "trauma"), ("delta", "+1"), ("csrf", nyx.csrf)))
    evil = (f'<!DOCTYPE html><form method="post" action="{target}">{fields}</form>'
            f'<script>fetch("{target}", {{method: "POST", mode: "no-cors", credentials: "include", '
            f'body: new URLSearchParams(new FormData(document.forms[0]))}}).finally(function () {{'
            f'document.forms[0].submit(); }});</script>').encode()

    class Evil(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(evil)

        def log_message(self, *args) -> None:
            pass

    site = socketserver.TCPServer(("127.0.0.1", 0), Evil)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    before = snapshot(example)
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
            try:
                context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
                page = context.new_page()
                page.goto(hero_urls(server.stdout)["nyx"])  # the phone holds Nyx's key as a cookie
                assert page.get_by_role("button", name="Trauma Cube +1").count() == 1
                with page.expect_navigation(url=target, timeout=15_000):
                    page.goto(f"http://127.0.0.1:{site.server_address[1]}/")
                assert "a page of another origin cannot act here" in page.content()
            finally:
                browser.close()
    finally:
        site.shutdown()
        site.server_close()
    assert snapshot(example) == before


# -------------------------------------------------------------------------------- what is sent


def test_methods_sizes_and_types(server, example):
    nyx = Phone(hero_urls(server.stdout)["nyx"])
    before = snapshot(example)
    for method in ("GET", "PUT", "DELETE", "PATCH"):
        status, headers, _ = nyx.request(method, "/heroes/nyx/act", headers={"Cookie": nyx.cookie})
        assert (status, headers.get("allow")) == (405, "POST")
    for path in ("/", "/campaign", "/heroes/nyx", "/heroes/nyx/act/more", "/events", "/heroes/nyx/acts"):
        status, _, reply = nyx.request("POST", path, b"action=recall", {"Cookie": nyx.cookie, "Content-Type": FORM})
        assert status == 405, (path, status)
    big = urlencode({"action": "gain", "card": "x" * 4096, "csrf": nyx.csrf}).encode()
    status, _, reply = nyx.request("POST", "/heroes/nyx/act", big, {"Cookie": nyx.cookie, "Content-Type": FORM})
    assert (status, reply) == (413, b"a hero's action is at most 4096 bytes\n")
    # the same without a length: read no further than the limit
    conn = __import__("http.client").client.HTTPConnection("127.0.0.1", nyx.port, timeout=30)
    conn.putrequest("POST", "/heroes/nyx/act")
    for k, v in (("Cookie", nyx.cookie), ("Content-Type", FORM), ("Transfer-Encoding", "chunked")):
        conn.putheader(k, v)
    conn.endheaders()
    for _ in range(5):
        conn.send(b"400\r\n" + b"a" * 1024 + b"\r\n")
    conn.send(b"0\r\n\r\n")
    assert conn.getresponse().status == 413
    conn.close()
    time.sleep(1.0)  # under the rate limit
    body = urlencode({"action": "recall", "csrf": nyx.csrf}).encode()
    for kind in ("text/plain", "multipart/form-data; boundary=x", "application/json", "", "application/x-www-form"):
        status, _, reply = nyx.request("POST", "/heroes/nyx/act", body, {"Cookie": nyx.cookie, "Content-Type": kind})
        assert (status, reply) == (415, b"a hero's action is a form (application/x-www-form-urlencoded)\n"), kind
    time.sleep(1.0)
    for raw in (b"action=recall&csrf=" + nyx.csrf.encode() + b"&x=%ff", b"\xff\xfe=1", b"a=" + b"&a=" * 40):
        status, _, reply = nyx.request("POST", "/heroes/nyx/act", raw, {"Cookie": nyx.cookie, "Content-Type": FORM})
        assert status in (400, 403), (raw, status, reply)
        time.sleep(0.25)
    assert snapshot(example) == before


def test_more_than_five_actions_a_second_from_one_key(server, example):
    urls = hero_urls(server.stdout)
    nyx, vacrem = Phone(urls["nyx"]), Phone(urls["vacrem"])
    before = snapshot(example)
    # a wrong token writes nothing, and each try counts: the limit comes first
    statuses = []
    for _ in range(10):
        status, headers, _ = nyx.post([("action", "recall"), ("csrf", "0" * 32)], csrf=False)
        statuses.append((status, headers.get("retry-after")))
    assert statuses[:5] == [(403, None)] * 5
    assert (429, "1") in statuses[5:]
    assert vacrem.post([("action", "recall"), ("csrf", "0" * 32)], csrf=False)[0] == 403  # each key its own
    assert snapshot(example) == before
    time.sleep(1.1)
    assert nyx.act(action="cube", kind="trauma", delta="+1")[0] == 200


# -------------------------------------------------------------------------------- what the fields hold


def _clean(reply: bytes) -> str:
    text = reply.decode()
    for ch in RAW:
        assert ch not in text, (ch, text)
    assert "Traceback" not in text and "internal error" not in text, text
    return text


ADVENTURE_FIELDS = [("cube", {"kind": "trauma", "delta": "+1"}, ("kind", "delta", "capacity", "trauma_limit_bonus")),
                    ("recall", {}, ("capacity",))]
BETWEEN_FIELDS = [("learn", {"skill": "Shadow Step", "tree": "agility", "level": "1"}, ("skill", "tree", "level")),
                  ("ability", {"ability": "Shadow Dance"}, ("ability",)),
                  ("gain", {"card": "Buckler"}, ("card", "kind", "quality", "bag", "new")),
                  ("aura", {"aura": "Taunt"}, ("aura", "op", "new")),
                  ("status", {"status": "Haunted", "op": "add"}, ("status", "op", "new")),
                  ("upgrade", {"item": "Twin-Blades"}, ("item", "discard", "to"))]


def _hostile_in_every_field(example, actions) -> None:
    server = Server(example, "--no-qr")
    try:
        nyx = Phone(hero_urls(server.stdout)["nyx"])
        for action, valid, fields in actions:
            for field in fields:
                for value in (HOSTILE, "--campaign=/etc", "../../../etc/passwd", "-C", "Vacrem", "9" * 30, "\x00"):
                    status, _, reply = nyx.post({"action": action, **valid, field: value})
                    text = _clean(reply)
                    answer = json.loads(text)
                    assert status in (200, 400, 409), (action, field, value, status, answer)
                    assert status == {0: 200, 1: 409, 2: 400}[answer["exit"]]
                    time.sleep(0.21)  # under the rate limit
        # the page that shows the last answer (no script) shows it as text
        nyx.post({"action": "aura", "aura": HOSTILE}, json_=False)
        page = _clean(nyx.request("GET", "/heroes/nyx", headers={"Cookie": nyx.cookie})[2])
        assert "no Aura called &#39;\\x1b]0;PWNED" in page and "\\u202edecoy" in page  # the command's own quoting
        # no other hero, no other campaign, no file outside was touched; the campaign still reads
        assert drunagor("-C", str(example), "show").returncode == 0
    finally:
        server.stop()
    for stem in ("andreas", "catharina", "vacrem"):
        assert f'by = "{stem}"' not in (example / "adventure.toml").read_text() if (example / "adventure.toml").exists() \
            else True


def test_hostile_bytes_in_every_field_during_an_adventure(example):
    others = {p: (example / "heroes" / p).read_bytes() for p in ("andreas.toml", "catharina.toml", "vacrem.toml")}
    _hostile_in_every_field(example, ADVENTURE_FIELDS)
    assert {p: (example / "heroes" / p).read_bytes() for p in others} == others


def test_hostile_bytes_in_every_field_between_adventures(example):
    assert drunagor("-C", str(example), "adventure", "end", "--won").returncode == 0
    others = {p: (example / "heroes" / p).read_bytes() for p in ("andreas.toml", "catharina.toml", "vacrem.toml")}
    _hostile_in_every_field(example, BETWEEN_FIELDS)
    assert {p: (example / "heroes" / p).read_bytes() for p in others} == others


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(value=st.text(max_size=40), field=st.sampled_from(["kind", "delta", "capacity"]))
def test_any_text_in_a_cube_field_is_answered_never_a_crash(served_once, value, field):
    nyx, example = served_once
    status, _, reply = nyx.post({"action": "cube", "kind": "trauma", "delta": "+1", field: value})
    if status == 400 and not reply.startswith(b"{"):  # the form itself unreadable
        return
    answer = json.loads(_clean(reply))
    assert status == {0: 200, 1: 409, 2: 400}[answer["exit"]], (status, answer)
    time.sleep(0.21)


@pytest.fixture(scope="module")
def served_once(tmp_path_factory) -> Iterator[tuple[Phone, object]]:
    import shutil

    from tests.conftest import EXAMPLE

    root = tmp_path_factory.mktemp("phones") / "campaigns" / "example"
    shutil.copytree(EXAMPLE, root)
    assert drunagor("-C", str(root), "cube", "Nyx", "trauma", "+0", "--trauma-limit-bonus", "99").returncode in (0, 1, 2)
    server = Server(root, "--no-qr")
    try:
        yield Phone(hero_urls(server.stdout)["nyx"]), root
    finally:
        server.stop()


# -------------------------------------------------------------------------------- at once


def test_two_phones_and_one_shot_writers_at_once_lose_nothing_and_double_nothing(server, example):
    urls = hero_urls(server.stdout)
    nyx, vacrem = Phone(urls["nyx"]), Phone(urls["vacrem"])
    for phone in (nyx, vacrem):  # each board holds 20 Curse Cubes (asked once)
        assert phone.act(action="cube", kind="curse", delta="+0", capacity="20")[0] in (200, 400)
    log_before = (example / "adventure.toml").read_text().count("\n  { event = ")
    results: dict[str, list[int]] = {"nyx": [], "vacrem": [], "shell": []}

    def tap(name: str, phone: Phone) -> None:
        for _ in range(4):
            results[name].append(phone.act(action="cube", kind="curse", delta="+1")[0])
            time.sleep(0.25)  # a thumb, under the rate limit

    def shell() -> None:
        for _ in range(3):
            results["shell"].append(drunagor("-C", str(example), "cube", "Andreas", "curse", "+1",
                                             "--capacity", "20").returncode)

    threads = [threading.Thread(target=tap, args=("nyx", nyx)), threading.Thread(target=tap, args=("vacrem", vacrem)),
               threading.Thread(target=shell)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert results == {"nyx": [200] * 4, "vacrem": [200] * 4, "shell": [0] * 3}
    shown = json.loads(drunagor("-C", str(example), "adventure", "show", "--json").stdout)
    assert {h: shown["cubes"][h]["curse"] for h in ("Nyx", "Vacrem", "Andreas")} == {"Nyx": 4, "Vacrem": 4, "Andreas": 3}
    text = (example / "adventure.toml").read_text()
    assert text.count("\n  { event = ") - log_before == 11 + 11  # 11 log lines and 11 undo entries
    assert len(re.findall(r'event = "cube", by = "nyx"', text)) == 4
    assert len(re.findall(r'event = "cube", by = "vacrem"', text)) == 4
    assert len(re.findall(r'event = "cube", hero = "Andreas"', text)) == 3  # the scribe's: no by

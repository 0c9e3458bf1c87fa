"""`drunagor serve` over HTTP: the real server (the installed script) on 127.0.0.1, a copy of the
example campaign, plain requests and live streams (tests/serve/live.py)."""

from __future__ import annotations

import re
import socket
import subprocess
import time
from urllib.parse import urlsplit

import pytest
from markupsafe import escape

from tests.attack.bounded import drunagor_script
from tests.serve.live import Server

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def drunagor(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([drunagor_script(), *args], capture_output=True, text=True, timeout=60)


def test_it_prints_where_it_serves_and_stops_cleanly_on_ctrl_c(example):
    server = Server(example)
    assert server.stop() == 0
    url = f"http://127.0.0.1:{server.port}/"
    phones = "".join(f"{name}'s phone: {url}heroes/{stem}?key=KEY\n"
                     for stem, name in (("andreas", "Andreas"), ("catharina", "Catharina"), ("nyx", "Nyx"),
                                        ("vacrem", "Vacrem")))
    assert re.sub(r"key=[\w-]{24}\n", "key=KEY\n", server.stdout.decode()) == (
        f"serving campaigns/example on this computer only: {url}\n{phones}"
        "type a hero's name and Enter to show their QR code here\nCtrl-C stops it\nstopped\n")
    assert server.stderr == b""


def test_the_table_now(served):
    status, headers, body = served.request("/")
    page = body.decode()
    assert status == 200
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert headers["content-security-policy"] == CSP
    assert (headers["x-content-type-options"], headers["referrer-policy"]) == ("nosniff", "no-referrer")
    assert "<h1>Tempest Island</h1>" in page
    assert 'Round <b class="round">1</b> &middot; 4 heroes &middot; 7 runes in the bag' in page
    # the bag by colour, each with its name in words (the example's bag: red 2, blue 1, green 1, orange 0, gray 3)
    bag = re.findall(r'<span class="label">(\w+)</span> <b class="count">(\d+)</b>', page)
    assert bag[:5] == [("red", "2"), ("blue", "1"), ("green", "1"), ("orange", "0"), ("gray", "3")]
    slots = re.findall(r'data-slot="(\d+)">\n<div class="base base-([\w-]+)"><span>\d+</span><span>([\w ]+)</span>', page)
    assert [s[0] for s in slots] == [str(n) for n in range(1, 13)]
    assert slots[0] == ("1", "yellow", "yellow") and slots[1] == ("2", "dark-blue", "dark blue")
    assert '<div class="who"><span class="name">Fell Asteris</span><small>Gray</small></div>' in page
    assert "<b>Dreadful Raid</b>, face B<br>summons Tidehunter (Minion, 4 models)" in page
    assert "<li class=\"chance\">Chance it summons: 2/7 (28.6%)</li>" in page
    # citations as a player reads them (SPEC 11), as the terminal prints them
    assert ('drawn<span class="cite"> (Rulebook: Chapter 05 \u203a Winning and Losing the Adventure, L1203)</span>.'
            in page and "RB L" not in page)
    assert page.count("(capacity not recorded)") == 1  # said once, not on every row (issue 43)
    assert '<p class="meta unknown-capacity">Curse (capacity not recorded)</p>' in page
    assert '<script src="/static/serve.js" defer></script>' in page and "<script>" not in page
    assert 'style="' not in page  # the CSP allows no inline style


def test_a_campaign_log_and_the_campaign(served):
    status, _, body = served.request("/heroes/nyx")
    assert status == 200 and "<h1>Nyx</h1>" in body.decode()
    status, _, body = served.request("/campaign")
    assert status == 200
    assert "<h2>Chest deck</h2>" in body.decode() and "<h2>Commander Attack deck</h2>" in body.decode()
    status, _, body = served.request("/heroes/nobody")
    assert status == 404 and "<h1>No such page</h1>" in body.decode()
    assert served.request("/events?page=heroes/nobody")[0] == 404  # no stream (and nothing drawn) for it
    assert served.request("/events?page=../story.toml")[0] == 404


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"])
def test_get_only(served, method):
    status, headers, _ = served.request("/", method=method)
    assert (status, headers["allow"]) == (405, "GET")


def test_a_request_with_a_body_is_refused(served):
    status, _, body = served.request("/", body=b"x" * 10)
    assert status == 413 and body == b"a request to drunagor serve sends no body\n"


def test_a_host_that_is_not_its_own_is_refused(served):
    status, _, body = served.request("/", headers={"Host": f"rebind.example:{served.port}"})
    assert status == 403 and b"Host header refused" in body
    assert served.request("/", headers={"Host": f"localhost:{served.port}"})[0] == 200


@pytest.mark.parametrize("path", ["/story.toml", "/static/../story.toml", "/static/%2e%2e/story.toml",
                                  "/static/..%2fstory.toml", "/heroes/..%2f..%2fstory.toml", "/heroes/nyx.toml",
                                  "/static/serve.py", "/events/../story.toml"])
def test_no_url_reaches_the_files(served, path):
    status, _, body = served.request(path)
    assert status == 404
    assert b"schema = 1" not in body


def test_a_change_on_disk_reaches_the_stream_and_one_read_serves_every_viewer(served, example):
    viewers = [served.stream("table"), served.stream("table"), served.stream("heroes/nyx")]
    try:
        assert [v.next()[0] for v in viewers] == ["1", "1", "1"]
        r = drunagor("-C", str(example), "raid", "--seed", "12")
        assert r.returncode == 0, r.stderr
        events = [v.next() for v in viewers]
        assert [e[0] for e in events] == ["2", "2", "2"]
        assert '<span class="face" title="face">A</span>' in events[0][1]
        # the raid's log line, the newest of the table events: the first
        assert ("<ol class=\"recent\" reversed><li><span class=\"event\">raid</span> nothing summoned (no Pile of Runes "
                "holds a gray rune: a breathing space); the card now shows face A</li>") in events[0][1]
        assert "<h1>Nyx</h1>" in events[2][1]
    finally:
        for v in viewers:
            v.close()


def test_a_broken_file_shows_checks_message_and_the_page_recovers(served, example):
    nyx = example / "heroes" / "nyx.toml"
    good = nyx.read_bytes()
    stream = served.stream("table")
    try:
        stream.next()
        nyx.write_bytes(good + b"name = [\n")
        check = drunagor("-C", str(example), "check")
        message = check.stdout.strip()
        assert check.returncode == 3 and message.startswith("campaigns/example/heroes/nyx.toml:18: toml-syntax: ")
        _, board = stream.next()
        assert "<h1>The campaign cannot be read</h1>" in board
        assert f'<p class="message">{escape(message)}</p>' in board
        nyx.write_bytes(good)
        _, board = stream.next()
        assert "<h1>Tempest Island</h1>" in board
    finally:
        stream.close()


def test_between_adventures_the_next_chapters_briefing(example):
    (example / "adventure.toml").unlink()
    server = Server(example, "--no-qr")
    try:
        page = server.request("/")[2].decode()
    finally:
        server.stop()
    assert '<div class="kicker">Between adventures</div>' in page
    assert "<li>Chapter 05: Tempest Island, for 4 heroes</li>" in page


def test_lan_needs_the_runs_key(example):
    server = Server(example, "--lan", "--no-qr")
    try:
        key = server.query.removeprefix("key=")
        assert len(key) == 24
        assert server.request("/")[0] == 403
        assert server.request("/?key=wrong")[0] == 403
        assert server.request("/events?page=table")[0] == 403
        status, headers, _ = server.request(f"/?key={key}")
        assert status == 200
        cookie = f"drunagor_key_{server.port}"  # one per server: the port in its name
        assert headers["set-cookie"] == f"{cookie}={key}; Path=/; HttpOnly; SameSite=Strict"
        assert server.request("/campaign", headers={"Cookie": f"{cookie}={key}"})[0] == 200
        assert server.request("/", method="POST", headers={"Cookie": f"{cookie}={key}"})[0] == 405
    finally:
        server.stop()
    out = server.stdout.decode()
    assert f"on the local network: http://127.0.0.1:{server.port}/?key={key}\n" in out
    assert "a phone on the same Wi-Fi joins by this URL (or the QR code)" in out


def test_lan_prints_a_qr_code(example):
    server = Server(example, "--lan")
    server.stop()
    lines = server.stdout.decode().splitlines()
    qr = lines[1:lines.index("a phone on the same Wi-Fi joins by this URL (or the QR code); the key changes each run")]
    assert len(qr) > 10 and all(set(line) <= set("█▀▄ ") for line in qr)


def test_a_taken_port_names_a_free_one(example):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        r = drunagor("-C", str(example), "serve", "--port", str(port))
    assert r.returncode == 2 and r.stdout == ""
    found = re.fullmatch(rf"error: port {port} is taken on 127\.0\.0\.1; port (\d+) is free: "
                         rf"drunagor serve --port (\d+)\n", r.stderr)
    assert found and found.group(1) == found.group(2) and int(found.group(1)) != port


def test_live_streams_are_bounded(served):
    streams = [served.stream("table") for _ in range(64)]
    try:
        assert {s.status for s in streams} == {200}
        for _ in range(3):
            status, headers, _ = served.request("/events?page=table")
            assert (status, headers["retry-after"]) == (503, "5")
    finally:
        for s in streams:
            s.close()
    assert served.request("/")[0] == 200
    served.stop()
    # what the scribe is told: one line (a minute), in drunagor's words
    assert served.stderr == b"drunagor serve: 64 pages follow the campaign already: one more was told to try again\n"


def test_a_campaign_unreadable_from_the_start_is_served_as_its_message(example):
    # every other reading command stops at it (exit 3, tests/store/test_every_command.py); the server
    # shows it on the page instead, and the page comes back once the file is fixed
    story = example / "story.toml"
    good = story.read_bytes()
    story.write_bytes(b"<<<<<<< HEAD\n" + good)
    check = drunagor("-C", str(example), "check")
    assert check.returncode == 3
    server = Server(example, "--no-qr")
    try:
        page = server.request("/")[2].decode()
        assert "<h1>The campaign cannot be read</h1>" in page
        message = (check.stdout + check.stderr).strip().removeprefix("error: ")
        assert f'<p class="message">{escape(message)}</p>' in page
        stream = server.stream("table")
        stream.next()
        story.write_bytes(good)
        assert "<h1>Tempest Island</h1>" in stream.next()[1]
        stream.close()
    finally:
        server.stop()
    assert story.read_bytes() == good


@pytest.mark.parametrize("args", [(), ("--lan", "--no-qr")])
def test_open_opens_the_served_url_in_the_browser(example, tmp_path, args):
    # a browser that writes down what it was asked to open (webbrowser takes $BROWSER before any other)
    opened = tmp_path / "opened"
    browser = tmp_path / "browser"
    browser.write_text(f'#!/bin/sh\nprintf "%s\\n" "$1" >> "{opened}"\n')
    browser.chmod(0o755)
    server = Server(example, "--open", *args, env={"BROWSER": str(browser)})
    try:
        deadline = time.monotonic() + 20
        while not opened.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        [url] = opened.read_text().splitlines()
        assert url == server.url
        parts = urlsplit(url)
        assert (parts.hostname, parts.port) == ("127.0.0.1", server.port)
        status, _, page = server.request(parts.path + (f"?{parts.query}" if parts.query else ""))
        assert status == 200 and "<h1>Tempest Island</h1>" in page.decode()  # the page it serves, key and all
    finally:
        assert server.stop() == 0
    assert opened.read_text() == url + "\n"  # opened once

"""A real Chromium (Playwright, on the Debian chromium that .ci/run installs; never a browser of
Playwright's own) against a real `drunagor serve` on 127.0.0.1: the page follows the campaign without
a reload, fits a phone, shows hostile names as text with no script run, says "reconnecting" and comes
back after a restart, and shows a broken file's message until the file is fixed.
(The layouts and docs/serve.md's screenshots: test_layout.py.)"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.attack.bounded import drunagor_script
from tests.conftest import REPO
from tests.serve.live import Server
from tests.sheet.browser import find

CHROMIUM = find()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium: .ci/run installs Debian's")
WAIT_MS = 10_000  # the page changes within 0.5 s (tests/benchmarks/serve_latency.py); a loaded machine is slower
PHONE = {"width": 360, "height": 740}
TV = {"width": 1920, "height": 1080}
SHOTS = REPO / "docs" / "images"


class Watched:
    """A page with everything that would mean a script ran or broke: errors, dialogs, console errors."""

    def __init__(self, browser, viewport: dict[str, int] = PHONE, scheme: str = "light") -> None:
        self.context = browser.new_context(viewport=viewport, color_scheme=scheme)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.console: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}") if m.type == "error" else None)

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def watched(chromium) -> Iterator[Watched]:
    w = Watched(chromium)
    try:
        yield w
    finally:
        w.close()


def drunagor(*args: str) -> None:
    r = subprocess.run([drunagor_script(), *args], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_raid_shows_on_the_page_without_a_reload(served, example, watched):
    page = watched.page
    page.goto(served.url)
    assert page.text_content(".face") == "B"
    assert page.text_content("#live") == "live"
    page.evaluate("window.sameDocument = true")
    drunagor("-C", str(example), "raid", "--seed", "12")
    page.wait_for_function("() => document.querySelector('.face').textContent === 'A'", timeout=WAIT_MS)
    assert page.evaluate("window.sameDocument") is True  # not reloaded
    assert page.evaluate("document.body.dataset.version") == "2"
    monsters = page.locator(".track-slot:not(.free) .who").all_text_contents()
    assert monsters == ["Fell AsterisGray", "TidehunterMinion", "Gremlin HordeWhite", "TidehunterMinion"]
    assert (watched.errors, watched.dialogs, watched.console) == ([], [], [])


@pytest.mark.parametrize("path", ["/", "/?tv", "/campaign", "/heroes/nyx", "/heroes/catharina"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_phone_never_scrolls_sideways(served, chromium, path, scheme):
    w = Watched(chromium, PHONE, scheme)
    try:
        w.page.goto(served.url.rstrip("/") + path)
        assert no_sideways_scroll(w.page), w.page.evaluate("document.documentElement.scrollWidth")
        assert (w.errors, w.console) == ([], [])
    finally:
        w.close()


HOSTILE_HERO = "<script>alert(1)</script>\u202e \"Nyx' <img src=x onerror=alert(2)>"
HOSTILE_PARTY = "</title><script>alert(3)</script>\u0007"


def _rename(path: Path, key: str, value: str) -> None:
    text = path.read_text(encoding="utf-8")
    quoted = '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\u0007", "\\u0007") + '"'
    path.write_text(re.sub(rf"^{key} = \".*\"$", lambda _: f"{key} = {quoted}", text, count=1, flags=re.M),
                    encoding="utf-8")


def test_hostile_names_are_text_and_no_script_runs(example, watched):
    _rename(example / "heroes" / "nyx.toml", "name", HOSTILE_HERO)
    _rename(example / "story.toml", "party", HOSTILE_PARTY)
    server = Server(example, "--no-qr")
    try:
        page = watched.page
        for path in ("/", "/campaign", "/heroes/nyx"):
            page.goto(server.url.rstrip("/") + path)
            assert page.locator("script").count() == 1  # only drunagor's own
            assert page.locator("img").count() == 0
        assert page.text_content("h1") == "<script>alert(1)</script><U+202E> \"Nyx' <img src=x onerror=alert(2)>"
        assert page.title() == f"</title><script>alert(3)</script><U+0007>: {page.text_content('h1')}"
        page.goto(server.url + "campaign")
        assert page.text_content("h1") == "</title><script>alert(3)</script><U+0007>"
        # and through the live stream too
        drunagor("-C", str(example), "raid", "--seed", "12")
        page.goto(server.url)
        page.wait_for_function("() => document.body.dataset.version === '2'", timeout=WAIT_MS)
        assert "<script>alert(1)</script><U+202E>" in page.text_content("nav")
        assert (watched.errors, watched.dialogs, watched.console) == ([], [], [])
    finally:
        server.stop()


def test_the_stream_says_reconnecting_and_comes_back_after_a_restart(example, watched):
    server = Server(example, "--no-qr")
    port = server.port
    page = watched.page
    try:
        page.goto(server.url)
        assert page.text_content("#live") == "live"
        assert server.stop() == 0
        page.wait_for_function("() => document.getElementById('live').textContent === 'reconnecting\u2026'",
                               timeout=WAIT_MS)
        page.evaluate("window.sameDocument = true")
        drunagor("-C", str(example), "raid", "--seed", "12")  # while no server runs
        server = Server(example, "--no-qr", port=port)
        page.wait_for_function("() => document.querySelector('.face').textContent === 'A'", timeout=WAIT_MS)
        assert page.text_content("#live") == "live"
        assert page.evaluate("window.sameDocument") is True
        assert (watched.errors, watched.dialogs) == ([], [])
    finally:
        server.stop()


def test_a_broken_file_shows_checks_message_and_the_page_recovers(served, example, watched):
    nyx = example / "heroes" / "nyx.toml"
    good = nyx.read_bytes()
    page = watched.page
    page.goto(served.url)
    nyx.write_bytes(good + b"name = [\n")
    page.wait_for_function("() => document.querySelector('h1').textContent === 'The campaign cannot be read'",
                           timeout=WAIT_MS)
    assert page.text_content(".message") == ("campaigns/example/heroes/nyx.toml:18: toml-syntax: not valid TOML: Invalid "
                                             "value: the file ends inside a value; fix the syntax at that line (quotes, "
                                             "brackets, one key = value)")
    nyx.write_bytes(good)
    page.wait_for_function("() => document.querySelector('h1').textContent === 'Tempest Island'", timeout=WAIT_MS)
    assert (watched.errors, watched.dialogs, watched.console) == ([], [], [])

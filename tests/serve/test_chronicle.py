"""`serve`'s /chronicle (issue 45.5): the recap and the statistics with charts drawn as inline SVG (no script
library, no CDN), text labels a screen reader reads and colours named in words, on a phone and on the TV
without sideways scrolling; the table links it between adventures.

DRUNAGOR_DOCS_SHOTS=1 also writes the screenshots docs/serve.md shows (docs/images/chronicle-*.png)."""

from __future__ import annotations

import os

import pytest

from tests.serve.live import Server
from tests.serve.test_browser import CHROMIUM, PHONE, SHOTS, TV, Watched, no_sideways_scroll

browser = pytest.mark.skipif(CHROMIUM is None, reason="no chromium: .ci/run installs Debian's")


def fetch(server: Server, path: str) -> str:
    status, _, body = server.request(path)
    assert status == 200, status
    return body.decode("utf-8")


def test_the_chronicle_page_draws_its_charts_as_inline_svg_with_words(served):
    html = fetch(served, "/chronicle")
    assert "<title>Safeguard Corporation: the chronicle</title>" in html
    assert '<a href="/chronicle" aria-current="page">Chronicle</a>' in html
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg" role="img"') == 2  # runes and raids: no cube yet
    assert '<title id="runes-t">Runes drawn by colour, per chapter</title>' in html
    assert "<title>Chapter 05: red: 1 drawn</title>" in html  # each bar says its colour in words
    assert "expected 0" in html and "not counted: 3 raids kept no chance" in html
    assert "<h3>Chapters played</h3>" in html and "Chapter 05, Tempest Island: attempt 1 under way" in html
    assert "Chapter 03, Run!: attempt 1 won" not in html  # since the last adventure only: a page reads no git
    assert "http" not in html.split("<body", 1)[1].replace("http://www.w3.org/2000/svg", "")  # no CDN, no link out


def test_the_table_links_the_chronicle_between_adventures(served, example):
    assert 'href="/chronicle">Previously on' not in fetch(served, "/")  # an adventure under way: the table first
    served.stop()
    (example / "adventure.toml").unlink()
    between = Server(example, "--no-qr")
    try:
        assert '<a href="/chronicle">Previously on Safeguard Corporation: the recap and the statistics</a>' in fetch(
            between, "/")
    finally:
        between.stop()


@browser
@pytest.mark.parametrize(("viewport", "scheme", "name"), [(PHONE, "light", "phone"), (TV, "dark", "tv")])
def test_chronicle_fits_a_phone_and_a_tv(served, chromium, tmp_path, viewport, scheme, name):
    w = Watched(chromium, viewport, scheme)
    try:
        w.page.goto(served.url.rstrip("/") + "/chronicle" + ("?tv" if name == "tv" else ""))
        assert no_sideways_scroll(w.page), w.page.evaluate("document.documentElement.scrollWidth")
        assert (w.errors, w.console) == ([], [])
        labels = w.page.locator("svg[role=img]").evaluate_all("svgs => svgs.map(s => s.getAttribute('aria-labelledby'))")
        assert labels == ["runes-t runes-d", "raids-t raids-d"]
        assert "red: 1 drawn" in w.page.locator("#chart-runes").inner_text()
        folder = SHOTS if os.environ.get("DRUNAGOR_DOCS_SHOTS") else tmp_path
        w.page.screenshot(path=str(folder / f"chronicle-{name}.png"), full_page=True)
        assert (folder / f"chronicle-{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    finally:
        w.close()

"""The table's screen laid out in a real Chromium (Debian's, as test_browser.py launches it) at a phone's
360x740 and a TV's 1280x720 and 1920x1080, with the shipped example and with every field as long as
the files allow (tests/serve/hostile.py): no page scrolls sideways and nothing is out of view; the TV
page fits its screen with no scrolling, what it leaves out left out on purpose (issue 43).

DRUNAGOR_DOCS_SHOTS=1 also writes docs/serve.md's screenshots (docs/images/serve-*.png)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator

import pytest

from tests.attack.bounded import drunagor_script
from tests.conftest import EXAMPLE, REPO
from tests.serve.hostile import HERO, make_hostile
from tests.serve.live import Server
from tests.sheet.browser import find

CHROMIUM = find()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium: .ci/run installs Debian's")
PHONE = {"width": 360, "height": 740}
SCREENS = [PHONE, {"width": 1280, "height": 720}, {"width": 1920, "height": 1080}]
SHOTS = REPO / "docs" / "images"

# Everything out of view: an element past the left or right edge, a box that scrolls sideways (one
# that ends its line with an ellipsis does so on purpose), the page wider than the screen; on the TV
# also a card whose content does not fit it, or past the bottom, and a page taller than the screen. An
# element shortened on purpose (two lines and an ellipsis) is inside its card: its card fits.
OUT_OF_VIEW = """() => {
  const W = innerWidth, H = innerHeight, tv = document.body.classList.contains('tv');
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '');
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    if (!el.getClientRects().length) continue;
    const cs = getComputedStyle(el), r = el.getBoundingClientRect();
    if (r.right > W + 1 || r.left < -1) out.push('past the side: ' + name(el));
    if (cs.overflowX !== 'visible' && cs.textOverflow !== 'ellipsis' && el.scrollWidth > el.clientWidth + 1) out.push('scrolls sideways: ' + name(el));
    if (tv && el.matches('main > *') && (el.scrollHeight > el.clientHeight + 1 || r.bottom > H + 1))
      out.push('cut: ' + name(el));
  }
  if (document.documentElement.scrollWidth > W) out.push('page width ' + document.documentElement.scrollWidth);
  if (tv && document.documentElement.scrollHeight > H) out.push('page height ' + document.documentElement.scrollHeight);
  return out;
}"""


def _campaign(tmp_path_factory, name: str, hostile: bool = False, between: bool = False, lost: bool = False):
    root = tmp_path_factory.mktemp(name) / "example"
    shutil.copytree(EXAMPLE, root)
    if hostile:
        make_hostile(root)
    if between:
        (root / "adventure.toml").unlink()
    if lost:  # a hero defeated: the adventure is lost
        r = subprocess.run([drunagor_script(), "-C", str(root), "cube", "Nyx", "trauma", "+2"],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
    return root


@pytest.fixture(scope="module", params=["example", "hostile", "between", "hostile-between", "lost"])
def served(request, tmp_path_factory) -> Iterator[Server]:
    root = _campaign(tmp_path_factory, request.param, "hostile" in request.param, "between" in request.param,
                     request.param == "lost")
    server = Server(root, "--no-qr")
    try:
        yield server
    finally:
        server.stop()


def _look(browser, server: Server, path: str, screen: dict, scheme: str = "light"):
    context = browser.new_context(viewport=screen, color_scheme=scheme)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url.rstrip("/") + path)
    return context, page, errors


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s['width']}x{s['height']}")
def test_nothing_is_out_of_view(served, chromium, screen):
    paths = ["/", "/campaign", "/heroes/nyx", "/heroes/vacrem"] + (["/?tv"] if screen is not PHONE else [])
    tall = ["/campaign?tv", "/heroes/nyx?tv"]  # the other pages on a TV: large type, and they scroll
    for path in paths:
        context, page, errors = _look(chromium, served, path, screen)
        try:
            assert page.evaluate(OUT_OF_VIEW) == [], path
            assert errors == []
        finally:
            context.close()
    for path in tall:
        context, page, errors = _look(chromium, served, path, screen)
        try:
            height = page.evaluate("document.documentElement.scrollHeight")
            page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
            assert page.evaluate("window.scrollY + innerHeight") == max(height, screen["height"]), path
            assert page.evaluate("document.documentElement.scrollWidth") <= screen["width"]
        finally:
            context.close()


@pytest.mark.parametrize("screen", SCREENS[1:], ids=lambda s: f"{s['width']}x{s['height']}")
def test_the_tv_page_is_one_screen_with_what_the_table_needs(served, chromium, screen):
    context, page, _ = _look(chromium, served, "/?tv", screen, "dark")
    try:
        assert page.evaluate("document.documentElement.scrollHeight") == screen["height"]
        shown = page.evaluate("[...document.querySelectorAll('main > section')]"
                              ".filter(s => s.getClientRects().length).map(s => s.id)")
        if page.locator("main.table").count():
            lost = ["lost"] if page.locator("main.lost").count() else ["raid"]  # lost: no raid comes any more
            assert sorted(shown) == sorted(["bag", "cubes", "events", "piles", "round", "status-board", *lost])
            # the three newest events, the chance of the raid; the citations and the repeated bag left out
            assert page.evaluate("[...document.querySelectorAll('ol.recent li')].filter(l => l.getClientRects()"
                                 ".length).length") == 3
            assert page.locator(".odds .chance").is_visible() != bool(page.locator("main.lost").count())
            assert not page.locator(".cite").first.is_visible() and not page.locator(".odds .echo").is_visible()
        else:
            assert shown == ["track", "briefing", "party"]
            assert page.locator("#party td").first.is_visible()  # what each hero is owed, on screen
        # readable across a room: the same share of the screen's height at either size
        size = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
        assert size == pytest.approx(screen["height"] * 0.022, abs=0.5)
    finally:
        context.close()


def test_the_phones_first_screen_holds_the_raid_and_its_odds(chromium, tmp_path_factory):
    root = _campaign(tmp_path_factory, "first-screen")
    server = Server(root, "--no-qr")
    try:
        context, page, _ = _look(chromium, server, "/", PHONE)
        order = page.evaluate("[...document.querySelectorAll('main > *')].map(s => s.id || s.tagName.toLowerCase())")
        assert order == ["header", "raid", "bag", "events", "status-board", "cubes", "piles", "round"]
        bottom = page.evaluate("document.querySelector('.odds .chance').getBoundingClientRect().bottom")
        assert bottom < PHONE["height"]
        first = page.text_content("ol.recent li")
        assert first is not None and first.startswith("tiebreak Tie Breaker: 2 runes (gray, red) from Pile 2")
        context.close()
    finally:
        server.stop()


def test_the_badge_never_covers_a_link_on_a_phone(chromium, tmp_path_factory):
    root = _campaign(tmp_path_factory, "badge", hostile=True)
    server = Server(root, "--no-qr")
    try:
        for path in ("/", "/campaign"):
            context, page, _ = _look(chromium, server, path, PHONE)
            page.evaluate("(() => { const l = document.getElementById('live'); l.textContent = 'reconnecting\u2026';"
                          " l.className = 'reconnecting'; })()")
            overlaps = page.evaluate("""() => {
              const b = document.getElementById('live').getBoundingClientRect();
              return [...document.querySelectorAll('nav a')].map(a => a.getBoundingClientRect())
                .filter(r => r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom).length;
            }""")
            assert overlaps == 0, path
            context.close()
    finally:
        server.stop()


def test_a_page_that_does_not_exist_opens_no_stream(chromium, tmp_path_factory):
    root = _campaign(tmp_path_factory, "missing")
    server = Server(root, "--no-qr")
    try:
        context = chromium.new_context(viewport=PHONE)
        page = context.new_page()
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url))
        response = page.goto(server.url + "heroes/nobody")
        assert response is not None and response.status == 404
        page.wait_for_timeout(2500)  # the old page's script asked again every 2 s
        assert [u for u in asked if "/events" in u] == []
        assert page.locator("#live").count() == 0
        context.close()
    finally:
        server.stop()


def test_the_shared_pages_speak_the_games_words(chromium, tmp_path_factory):
    for state in ("adventure", "between", "lost"):
        root = _campaign(tmp_path_factory, "words", between=state == "between", lost=state == "lost")
        server = Server(root, "--no-qr")
        try:
            for path in ("/", "/?tv", "/campaign", "/heroes/nyx"):
                context, page, _ = _look(chromium, server, path, SCREENS[2])
                text = page.evaluate("document.getElementById('board').innerText")
                assert "`" not in text and "drunagor " not in text, (path, text)
                if state == "lost" and path in ("/", "/?tv"):
                    assert page.locator("#lost").is_visible()
                    assert page.text_content("#lost p") == ("Nyx receives a 2nd Trauma Cube and is defeated: the "
                                                            "adventure fails (Rulebook: Increasing Trauma Cube "
                                                            "Limits, L1026)")
                context.close()
        finally:
            server.stop()


def test_a_hero_one_cube_from_defeat_is_marked(chromium, tmp_path_factory):
    root = _campaign(tmp_path_factory, "danger")
    r = subprocess.run([drunagor_script(), "-C", str(root), "cube", "Nyx", "trauma", "+1"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    server = Server(root, "--no-qr")
    try:
        page = server.request("/")[2].decode()
        assert ('<p class="danger" id="danger"><b>At the limit of their cubes:</b> Nyx: Trauma 1 of 1, one more '
                'defeats</p>') in page
        assert ('<tr class="near"><td>Nyx <span class="badge bad">one more defeats</span></td>\n'
                '<td class="n at-limit">1 <span class="of">of 1</span></td>') in page
        assert page.count("one more defeats") == 2 and page.count("(capacity not recorded)") == 1  # the line, the row
    finally:
        server.stop()


def test_a_boss_without_a_rank_and_the_longest_names(tmp_path_factory):
    root = _campaign(tmp_path_factory, "boss", hostile=True)
    server = Server(root, "--no-qr")
    try:
        page = server.request("/")[2].decode()
        assert '<p class="bosses">On the board without a track: Awakened King</p>' in page and "None" not in page
        assert HERO in page
    finally:
        server.stop()


def test_the_screenshots_of_docs_serve(chromium, tmp_path_factory, tmp_path):
    root = _campaign(tmp_path_factory, "shots")
    server = Server(root, "--no-qr")
    folder = SHOTS if os.environ.get("DRUNAGOR_DOCS_SHOTS") else tmp_path
    try:
        for name, path, screen, scheme in (("serve-phone.png", "/", PHONE, "light"),
                                           ("serve-tv.png", "/?tv", SCREENS[2], "dark"),
                                           ("serve-campaign.png", "/campaign", PHONE, "light")):
            context, page, _ = _look(chromium, server, path, screen, scheme)
            if path == "/campaign":  # the Story Record and the Chest deck's grid, on a phone
                page.evaluate("window.scrollTo(0, document.getElementById('story').offsetTop - 8)")
            page.screenshot(path=str(folder / name))
            context.close()
            assert (folder / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    finally:
        server.stop()


def test_two_lan_servers_in_one_browser_keep_their_own_keys(chromium, tmp_path_factory):
    # issue 43: the key cookie was one for every port, so each run logged the other out
    first = Server(_campaign(tmp_path_factory, "lan-one"), "--lan", "--no-qr")
    second = Server(_campaign(tmp_path_factory, "lan-two"), "--lan", "--no-qr")
    try:
        context = chromium.new_context(viewport=PHONE)
        page = context.new_page()
        for server in (first, second):
            assert page.goto(server.url).status == 200
        for server in (first, second):  # the key in neither URL now: each server's own cookie
            response = page.goto(f"http://127.0.0.1:{server.port}/campaign")
            assert response is not None and response.status == 200
        names = sorted(c["name"] for c in context.cookies())
        assert names == sorted([f"drunagor_key_{first.port}", f"drunagor_key_{second.port}"])
        context.close()
    finally:
        first.stop()
        second.stop()


def _chapter_under_way(root, chapter: str) -> None:
    """The example with `chapter` started (the chapters before it on the Adventure Track), a few rounds in."""
    import re

    story = root / "story.toml"
    track = "".join(f'"{n:02d}" = "completed"\n' for n in range(1, int(chapter)))
    story.write_text(re.sub(r'(\[track\][^\n]*\n)(?:"\d\d" = "[a-z]+"\n)*', lambda m: m.group(1) + track,
                            story.read_text(encoding="utf-8")), encoding="utf-8")
    (root / "adventure.toml").unlink()

    def run(*args: str) -> int:
        return subprocess.run([drunagor_script(), "-C", str(root), *args], capture_output=True, timeout=60).returncode

    if run("adventure", "start", chapter):  # a Scenario Monster whose models the catalog does not count
        assert run("adventure", "start", chapter, "--models", "4") == 0
    for _ in range(3):
        run("monster", "add", "Gremlin Horde")
        run("draw")
        run("raid")


@pytest.mark.parametrize("chapter", ["01", "02", "03", "04", "06", "07", "08", "09"])
def test_every_chapter_fits_the_tv(chromium, tmp_path_factory, chapter):
    root = _campaign(tmp_path_factory, f"chapter{chapter}")
    _chapter_under_way(root, chapter)
    server = Server(root, "--no-qr")
    try:
        assert f'<div class="kicker">Chapter {chapter} under way</div>' in server.request("/")[2].decode()
        for screen in SCREENS[1:]:
            context, page, _ = _look(chromium, server, "/?tv", screen)
            assert page.evaluate(OUT_OF_VIEW) == []
            context.close()
    finally:
        server.stop()

"""Two phones and the scribe at one table (SPEC 12), in a real Chromium (Playwright on Debian's
chromium) and a real pseudo-terminal: the scribe's `drunagor play --serve`, two phone pages (360 x 740,
touch) joined as Nyx and Vacrem by the URLs the session printed, and the TV page. Each tap is asserted
in the campaign's files, in the session's line above the prompt (the line being typed kept) and its
toolbar, and on the TV page; "Take back my last" and the scribe's `undo` restore adventure.toml byte
for byte; between adventures the rewards owed are taken from a phone and drop."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterator

import pytest

from tests.attack.bounded import drunagor_script
from tests.attack.hostile import HOSTILE
from tests.play.terminal import Session
from tests.serve.phones import Phone
from tests.sheet.browser import find

CHROMIUM = find()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium: .ci/run installs Debian's")
WAIT_MS = 15_000
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}


@pytest.fixture
def scribe(example) -> Iterator[Session]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
    env["TERM"] = "xterm-256color"
    s = Session(example, env=env, cols=220, rows=40, after=("--serve", "--port", "0"))
    try:
        s.expect("board:")
        yield s
    finally:
        s.close()


class Device:
    def __init__(self, browser, url: str, **options) -> None:
        self.context = browser.new_context(**options)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        # a refusal's status (400, 409) is Chromium's "Failed to load resource" line: an answer, not a broken script
        self.page.on("console", lambda m: self.errors.append(m.text)
                     if m.type == "error" and not m.text.startswith("Failed to load resource") else None)
        self.page.goto(url)
        self.page.evaluate("window.sameDocument = true")

    def tap(self, name: str) -> None:
        self.page.get_by_role("button", name=name, exact=True).tap()

    def answered(self, text: str) -> None:
        self.page.wait_for_function("t => document.getElementById('answer').textContent === t", arg=text,
                                    timeout=WAIT_MS)

    def shows(self, text: str) -> None:
        self.page.wait_for_function("t => document.body.innerText.includes(t)", arg=text, timeout=WAIT_MS)


def test_two_phones_and_the_scribe_act_in_one_adventure(scribe, chromium, example):
    found = re.search(r"the table's screen: (http://127\.0\.0\.1:\d+/) ", scribe.text)
    assert found, scribe.text
    table = found.group(1)
    urls = dict(re.findall(r"(\w+)'s phone: (http://\S+)", scribe.text))
    assert sorted(urls) == ["Andreas", "Catharina", "Nyx", "Vacrem"]
    scribe.line("qr Nyx")  # the scribe shows Nyx's QR code on the terminal
    scribe.expect("\u2584")
    scribe.expect(f"nyx: {urls['Nyx']}")
    nyx, vacrem = Device(chromium, urls["Nyx"], **PHONE), Device(chromium, urls["Vacrem"], **PHONE)
    tv = Device(chromium, table + "?tv", viewport={"width": 1920, "height": 1080})
    adventure = example / "adventure.toml"
    original = adventure.read_bytes()

    sideways = "document.documentElement.scrollWidth <= window.innerWidth"
    assert nyx.page.evaluate(sideways) and vacrem.page.evaluate(sideways)  # the forms fit a phone

    # Nyx's first Curse Cube, while the scribe is typing a line: the board's capacity asked once
    assert nyx.page.get_by_role("button", name="Curse Cube +1").bounding_box()["height"] >= 44  # a thumb's target
    nyx.tap("Curse Cube +1")  # without the capacity: the command's own refusal, in view, nothing written
    nyx.page.wait_for_function("() => document.getElementById('answer').textContent.startsWith("
                               "\"how many Curse Cubes does Nyx's board hold?\")", timeout=WAIT_MS)
    assert nyx.page.get_attribute("#answer", "class") == "answer refused"
    assert nyx.page.evaluate("(() => { const r = document.getElementById('answer').getBoundingClientRect(); "
                             "return r.bottom <= window.innerHeight && r.top >= 0; })()")  # where the thumb is
    assert adventure.read_bytes() == original
    scribe.expect("Nyx (phone): Curse Cube +1: refused: how many Curse Cubes does Nyx's board hold?")
    scribe.send("odds --js")
    scribe.settle(0.3)
    nyx.page.get_by_label("Curse Cubes the board holds (asked once)").first.fill("5")
    nyx.tap("Curse Cube +1")
    said = "Nyx's Curse Cube capacity 5 recorded under [cards]; Nyx receives 1 Curse Cube: 1 held, 5 can be held"
    nyx.answered(said)
    assert ('{ event = "cube", by = "nyx", hero = "Nyx", kind = "curse", delta = 1, count = 1, '
            'recorded = "Nyx: curse_capacity", text = "' + said + '" }') in adventure.read_text()
    nyx.page.get_by_role("button", name="Take back my last").wait_for(timeout=WAIT_MS)  # Nyx's own, now
    scribe.expect(f"Nyx (phone): Curse Cube +1: {said}")
    scribe.expect("drunagor> odds --js")  # the typed line, drawn again under it
    scribe.send("on\r")
    scribe.expect('"summon_chance": "2/7"')  # the line typed before the phone's went on whole
    tv.shows(f"Nyx's phone: {said}")

    # Vacrem's Trauma Cube: one more would defeat Vacrem, the toolbar says so
    before_vacrem = adventure.read_bytes()
    vacrem.tap("Trauma Cube +1")
    said = "Vacrem receives 1 Trauma Cube: 1 held, 1 can be held"
    vacrem.answered(said)
    assert ('{ event = "cube", by = "vacrem", hero = "Vacrem", kind = "trauma", delta = 1, count = 1, '
            'text = "' + said + '" }') in adventure.read_text()
    scribe.expect(f"Vacrem (phone): Trauma Cube +1: {said}")
    scribe.expect("Vacrem trauma 1/1")
    tv.shows(f"Vacrem's phone: {said}")
    # Nyx's page follows the table: the last event is Vacrem's now, not Nyx's to take back
    nyx.page.get_by_role("button", name="Take back my last").wait_for(state="detached", timeout=WAIT_MS)

    # Vacrem takes it back: the file as it was before the tap
    vacrem.tap("Take back my last")
    vacrem.answered(f"took back 1 table event: cube: {said}")
    assert adventure.read_bytes() == before_vacrem
    scribe.expect(f"Vacrem (phone): take back my last: took back 1 table event: cube: {said}")
    tv.page.wait_for_function("() => !document.body.innerText.includes(\"Vacrem's phone\")", timeout=WAIT_MS)

    # the scribe's undo takes Nyx's phone's event back like any other
    scribe.line("undo")
    scribe.expect("took back 1 table event: cube: Nyx's Curse Cube capacity 5")
    assert adventure.read_bytes() == original
    tv.page.wait_for_function("() => !document.body.innerText.includes(\"Nyx's phone\")", timeout=WAIT_MS)

    # hostile bytes from a phone reach the scribe's terminal as visible text only
    Phone(urls["Vacrem"]).act(action="cube", kind=HOSTILE, delta="+1")
    scribe.expect("Vacrem (phone): ")
    scribe.settle(0.3)
    assert b"\x1b]0;PWNED" not in scribe.raw and b"\x1b]52;" not in scribe.raw and "\u202e" not in scribe.text
    assert adventure.read_bytes() == original

    # between adventures: Nyx's rewards owed, taken from the phone
    scribe.line("adventure end --won")
    scribe.expect("Nyx now owes: 1 Class Ability, 1 Spoils of the Hero (Standard)")
    nyx.page.get_by_role("button", name="Gain the Class Ability").wait_for(timeout=WAIT_MS)
    assert nyx.page.evaluate(sideways)
    nyx.page.get_by_label("Class Ability", exact=True).fill("Shadow Dance")
    nyx.tap("Gain the Class Ability")
    nyx.answered("Nyx gains the Class Ability Shadow Dance")
    scribe.expect("Nyx (phone): Class Ability Shadow Dance: Nyx gains the Class Ability Shadow Dance")
    nyx.shows("1 Spoils of the Hero (Standard)")
    nyx.page.get_by_role("button", name="Gain the Class Ability").wait_for(state="detached", timeout=WAIT_MS)
    nyx.page.get_by_label("Card", exact=True).fill("Buckler")
    nyx.tap("Gain the card")
    nyx.answered("Nyx gains Buckler (spoils, standard, equipped)")
    nyx.shows("nothing: the Campaign Log holds every reward of the chapters played")
    hero = json.loads(subprocess.run([drunagor_script(), "-C", str(example), "hero", "show", "Nyx", "--json"],
                                     capture_output=True, text=True, timeout=60).stdout)
    assert "Shadow Dance" in hero["class_abilities"] and not any(hero["owes"].values())
    assert nyx.page.evaluate("window.sameDocument") is True  # no reload, from the first tap to the last
    assert (nyx.errors, vacrem.errors, tv.errors) == ([], [], [])
    for device in (nyx, vacrem, tv):
        device.context.close()

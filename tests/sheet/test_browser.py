"""The sheets in a real browser: headless Chromium (Debian's `chromium`; `.ci/run` installs it with
poppler-utils when it is missing). The page loads with no console message, no error and no request
but itself; a screenshot and a printed PDF are made; the PDF has one page per sheet, on Letter (the
`--print-to-pdf` default) and on A4 (printed over the DevTools protocol), counted with `pdfinfo`."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from tests.sheet import browser
from tests.sheet.dom import parse

CHROMIUM = browser.find()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium on this machine (apt-get install chromium poppler-utils; CI installs it)")


def write_sheet(run, root: Path, out: Path) -> int:
    """Write the campaign's HTML sheet to `out`; the number of sheets it holds."""
    r = run("-C", str(root), "sheet", "--out", str(out))
    assert r.exit_code == 0, r
    return len(parse(out.read_text()).find_all("section", "sheet"))


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])  # the IHDR chunk: width, height


def test_the_example_sheet_in_chromium(run, example, tmp_path):
    page = tmp_path / "sheet.html"
    assert write_sheet(run, example, page) == 9
    url = page.resolve().as_uri()
    report = browser.devtools(CHROMIUM, url, tmp_path / "profile-devtools")
    assert report.problems() == []
    assert report.requests == [url]  # nothing fetched: no network, no other file
    assert pages(report, tmp_path) == {"A4": 9, "Letter": 9}

    png, pdf = tmp_path / "sheet.png", tmp_path / "sheet.pdf"
    browser.screenshot_and_pdf(CHROMIUM, url, png, pdf, tmp_path / "profile-cli", size=(1000, 1400))
    assert png_size(png) == (1000, 1400)
    assert png.stat().st_size > 20_000  # a drawn page, not a blank one
    assert browser.pdf_pages(pdf) == 9


@pytest.mark.parametrize("which,sheets", [("full", 9), ("camp", 3)])
def test_other_campaigns_load_clean_one_page_per_sheet(run, request, tmp_path, which, sheets):
    page = tmp_path / "sheet.html"
    assert write_sheet(run, request.getfixturevalue(which), page) == sheets
    report = browser.devtools(CHROMIUM, page.resolve().as_uri(), tmp_path / "profile")
    assert report.problems() == [] and report.requests == [page.resolve().as_uri()]
    assert pages(report, tmp_path) == {"A4": sheets, "Letter": sheets}


def pages(report: browser.Report, folder: Path) -> dict[str, int]:
    """Pages of each PDF the DevTools session printed, counted by pdfinfo."""
    counts = {}
    for paper, data in report.pdf.items():
        path = folder / f"{paper}.pdf"
        path.write_bytes(data)
        counts[paper] = browser.pdf_pages(path)
    return counts


def test_the_harness_sees_what_a_broken_page_does(tmp_path):
    # The check above can fail: a page with a console error, a script error and a missing image is
    # reported on all three counts.
    page = tmp_path / "broken.html"
    page.write_text('<!DOCTYPE html><html><body><img src="missing.png">'
                    '<script>console.error("boom"); undefinedFunction();</script></body></html>')
    report = browser.devtools(CHROMIUM, page.resolve().as_uri(), tmp_path / "profile")
    assert report.console == ["error: boom"]
    assert len(report.exceptions) == 1 and "undefinedFunction" in report.exceptions[0]
    assert any("missing.png" in line and line.startswith("error network") for line in report.log)
    assert report.requests == [page.resolve().as_uri(), (tmp_path / "missing.png").resolve().as_uri()]


def test_a_sheet_too_long_for_one_page_shows_in_the_page_count(run, example, tmp_path):
    # The page count can fail too: 40 more Class Abilities push one Campaign Log over its page.
    nyx = example / "heroes" / "nyx.toml"
    many = ", ".join(f'"Ability {n}"' for n in range(40))
    nyx.write_text(nyx.read_text().replace('class_abilities = ["Assassin ability (chapter 03)"]',
                                           f"class_abilities = [{many}]"))
    page = tmp_path / "sheet.html"
    assert write_sheet(run, example, page) == 9
    report = browser.devtools(CHROMIUM, page.resolve().as_uri(), tmp_path / "profile")
    # Nyx's log takes two pages (the chronicle's recap, told from the files since the last adventure, does
    # not list the abilities)
    assert pages(report, tmp_path) == {"A4": 10, "Letter": 10}

"""The sheets' last corners (issue 24): the list of sheets as links in Markdown, the Curse Cube capacity
recorded under [cards], why an attempt was lost, runes drawn counted as runes, and the Adventure Track's
COMPLETED labels clear of their boxes' borders in a real browser."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.sheet import browser
from tests.sheet.dom import parse


def sheet(run, fmt: str = "md") -> str:
    r = run("sheet", "--format", fmt, "--out", "-")
    assert r.exit_code == 0, r
    return r.stdout


def test_the_markdown_list_of_sheets_links_to_each_heading(run, example):
    md = sheet(run)
    assert md.splitlines()[2] == (
        "[Story Record](#story-record) · [Campaign Log: Andreas](#campaign-log-andreas) · [Campaign Log: Catharina]"
        "(#campaign-log-catharina) · [Campaign Log: Nyx](#campaign-log-nyx) · [Campaign Log: Vacrem]"
        "(#campaign-log-vacrem) · [Chest and Commander decks](#chest-and-commander-decks) · [Chapter 05 under way]"
        "(#chapter-05-under-way-tempest-island) · [Timeline of adventures](#timeline-of-adventures) · [Chronicle](#chronicle)")
    for heading in ("## Story Record", "## Campaign Log: Nyx", "## Chapter 05 under way: Tempest Island"):
        assert f"\n{heading}\n" in md


def test_the_cubes_show_the_curse_capacity_recorded(run, example):
    assert run("recall", "Andreas", "--capacity", "5").exit_code == 0
    assert "| Andreas | 0 of 1 | 2 of 5 |\n" in sheet(run)
    cells = [td.text() for td in parse(sheet(run, "html")).find("section", "sheet", id="adventure").find_all("td")]
    assert ["Andreas", "0 of 1", "2 of 5"] == cells[cells.index("Andreas"):cells.index("Andreas") + 3]


def test_the_timeline_says_why_an_attempt_was_lost_and_counts_runes(run, example):
    assert run("draw", "2", "--seed", "1").exit_code == 0
    assert run("cube", "Nyx", "trauma", "+2").exit_code == 0
    assert run("adventure", "end", "--lost").exit_code == 0
    md = sheet(run)
    assert ("- **05 Tempest Island**, attempt 1: **lost** · 4 heroes · 5 runes drawn · Dreadful Raid card · lost: Nyx "
            "receives a 2nd Trauma Cube and is defeated: the adventure fails (Rulebook: Increasing Trauma Cube Limits, L1026)\n") in md
    html = parse(sheet(run, "html"))
    entry = next(e for e in html.find_all("div", "entry") if e.get("data-file") == "adventures/05-1.toml")
    assert entry.find("div", "lost").text() == ("lost: Nyx receives a 2nd Trauma Cube and is defeated: the adventure "
                                                "fails (Rulebook: Increasing Trauma Cube Limits, L1026)")


# Where each label's text lies inside its slot, in CSS pixels: [text, gap left, gap right].
LABEL_GAPS = """Array.from(document.querySelectorAll('.slot .state')).map(e => {
  const slot = e.closest('.slot'), range = document.createRange(); range.selectNodeContents(e);
  const t = range.getBoundingClientRect(), b = slot.getBoundingClientRect(), s = getComputedStyle(slot);
  return [e.textContent, t.left - b.left - parseFloat(s.borderLeftWidth),
          b.right - parseFloat(s.borderRightWidth) - t.right];
})"""


@pytest.mark.skipif(browser.find() is None, reason="no Chromium on this machine (CI installs it)")
def test_the_completed_labels_stay_clear_of_their_borders(run, example, tmp_path):
    page = tmp_path / "sheet.html"
    assert run("sheet", "--out", str(page)).exit_code == 0
    report = browser.devtools(browser.find(), Path(page).resolve().as_uri(), tmp_path / "profile",
                              evaluate=LABEL_GAPS)
    gaps = [g for g in report.value if g[0] == "completed"]
    assert len(gaps) == 4  # chapters 01-04 of the example
    assert all(left >= 2 and right >= 2 for _, left, right in gaps), gaps

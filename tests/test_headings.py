"""The rulebook's heading index (catalog/data/headings.toml) and `drunagor rules cite` (issue 35.7): the
committed index is the generator's output on the rulebook text (when the text is present, as
tests/test_catalog.py checks the catalog), it holds titles only, and every line drunagor cites stands
under a heading."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from drunagor_log.catalog import headings
from tests.tools import rulebook_headings

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "drunagor_log" / "catalog" / "data" / "headings.toml"
RULEBOOK = Path(__file__).resolve().parents[2] / "shared/rules/awakenings-rulebook.txt"


def rulebook() -> str:
    if not RULEBOOK.exists():
        pytest.skip("rulebook text not available")
    return RULEBOOK.read_text(encoding="utf-8")


def test_the_index_is_the_generators_output_on_the_rulebook():
    found = rulebook_headings.toml(rulebook_headings.headings(rulebook()), RULEBOOK.name)
    assert DATA.read_text(encoding="utf-8") == found, (
        "regenerate: python -m tests.tools.rulebook_headings RULEBOOK > drunagor_log/catalog/data/headings.toml")


def test_the_index_holds_titles_only_each_a_heading_of_the_book():
    lines = rulebook().splitlines()
    for h in headings._headings():
        start, end = h["lines"]
        assert start <= end and len(h["title"]) <= 80, h
        line = lines[start - 1]
        assert line == h["title"] or line.startswith(h["title"] + ": "), h  # a heading, or a paragraph's title


@pytest.mark.parametrize(("line", "path"), [
    (285, ("Dreadful Raid",)),
    (1203, ("Chapter 05 \u2013 Tempest Island", "Winning and Losing the Adventure")),
    (1309, ("Chapter 09 \u2013 The Stand", "Endgame Trigger")),
    (411, ("Equipment", "Spoils Equipment (Camp Items)", "Improving Spoils Equipment")),
    (5, ("Table of Contents",)),
    (0, ()),
])
def test_a_line_has_the_path_of_the_headings_above_it(line, path):
    assert headings.path(line) == path


def test_every_line_drunagor_cites_stands_under_a_heading():
    cited = set()
    for path in (REPO / "drunagor_log").rglob("*"):
        if path.suffix in (".py", ".toml", ".j2"):
            text = path.read_text(encoding="utf-8")
            cited |= {int(n) for n in re.findall(r"RB L(\d+)", text)}
            cited |= {int(n) for ref in re.findall(r"RB L\d+(?:, L\d+)+", text) for n in re.findall(r"L(\d+)", ref)}
    assert len(cited) > 100
    assert [n for n in sorted(cited) if headings.path(n) in ((), (headings.FRONT,))] == []


@pytest.mark.parametrize(("text", "lines"), [
    ("L1203", [(1203, 1203)]), ("1203", [(1203, 1203)]), ("RB L1203", [(1203, 1203)]), ("l1203", [(1203, 1203)]),
    ("L1203-1205", [(1203, 1205)]), ("RB L1020-L1034", [(1020, 1034)]), ("L1210-L1200", [(1210, 1200)]),
    ("L1177, L1179", [(1177, 1177), (1179, 1179)]), ("RB L941-943, L986-989", [(941, 943), (986, 989)]),
    (" L0 ", [(0, 0)]), ("x", None), ("L", None), ("L12a", None), ("", None), ("L1177,", None),
    ("1" * 10, None)])
def test_a_citation_is_read_as_drunagor_writes_it(text, lines):
    assert headings.cited_lines(text) == lines


def test_rules_cite_prints_the_heading_path(run):
    r = run("rules", "cite", "L1203")
    assert (r.exit_code, r.stdout, r.stderr) == (
        0, "Rulebook L1203: Chapter 05 \u2013 Tempest Island \u203a Winning and Losing the Adventure\n", "")
    r = run("rules", "cite", "285", "--json")
    assert r.exit_code == 0
    assert json.loads(r.stdout) == {"line": 285, "last": 285, "path": ["Dreadful Raid"], "section": "Dreadful Raid"}


def test_rules_cite_reads_a_range_and_a_list_as_drunagor_prints_them(run):
    r = run("rules", "cite", "RB L1203-1205")
    assert (r.exit_code, r.stdout) == (
        0, "Rulebook L1203-1205: Chapter 05 \u2013 Tempest Island \u203a Winning and Losing the Adventure\n")
    listed = ("Rulebook L1177: Chapter 04 \u2013 Battle on the High Sea \u203a Winning and Losing the Adventure\n"
              "Rulebook L1179: Chapter 04 \u2013 Battle on the High Sea \u203a Endgame Trigger\n")
    assert (run("rules", "cite", "L1177, L1179").stdout, run("rules", "cite", "L1177,", "L1179").stdout) == (
        listed, listed)  # quoted, or as the shell splits it
    r = run("rules", "cite", "L1177, L1179", "--json")
    assert json.loads(r.stdout) == [
        {"line": 1177, "last": 1177, "path": ["Chapter 04 \u2013 Battle on the High Sea",
                                              "Winning and Losing the Adventure"],
         "section": "Chapter 04 \u203a Winning and Losing the Adventure"},  # named as a citation names it
        {"line": 1179, "last": 1179, "path": ["Chapter 04 \u2013 Battle on the High Sea", "Endgame Trigger"],
         "section": "Chapter 04 \u203a Endgame Trigger"}]
    assert json.loads(run("rules", "cite", "L1203-1205", "--json").stdout)["last"] == 1205


@pytest.mark.parametrize(("line", "message"), [
    ("Dreadful", "'Dreadful' is not a rulebook line; give it as drunagor cites it: L1203, L1203-1205 or L1177, L1179"),
    ("L1210-L1200", "L1210-1200 runs backwards; give its first line first: L1200-1210"),
    ("L0", "the rulebook has lines 1 to 1345, not 0"),
    ("L1346", "the rulebook has lines 1 to 1345, not 1346"),
    ("L2000", "the rulebook has lines 1 to 1345, not 2000"),
    ("L1340-1350", "the rulebook has lines 1 to 1345, not 1350"),
    ("99999999", "the rulebook has lines 1 to 1345, not 99999999"),
])
def test_rules_cite_needs_no_campaign_and_refuses_what_is_not_a_line_of_the_book_as_a_usage_slip(run, line, message):
    assert headings.last_line() == 1345
    r = run("rules", "cite", line)
    assert (r.exit_code, r.stdout, r.stderr) == (2, "", f"error: {message}\n")


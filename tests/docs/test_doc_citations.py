"""Every citation a reader of the manual meets names its section (SPEC 11, issue 35.7): the prose and the
tables of README.md and docs/*.md (the generated reference too), and the output of each console block.
Kept as they are, since they show what a program or a user writes: a `code span`, a console block's `$`
line and the output of its `--json` commands, and every other fenced block (python, json, toml)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import REPO
from tests.helpers import citation_problems, cited_problems
from tests.tools import rewrite_citations

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def read(text: str) -> str:
    """What a reader reads of a page as prose and output (the kept parts blanked)."""
    out, fence, json = [], None, False
    for line in text.split("\n"):
        stripped = line.strip()
        if fence is None and stripped.startswith("```"):
            fence, json = stripped, False
            out.append("")
        elif fence is not None and stripped == "```":
            fence = None
            out.append("")
        elif fence == "```console":
            if stripped.startswith("$ "):
                json = "--json" in stripped
                out.append("")
            else:
                out.append("" if json else line)
        else:
            out.append("" if fence else line)
    return "\n".join(out)


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_no_page_cites_short_and_each_citation_names_its_lines_section(page):
    assert citation_problems(read(page.read_text(encoding="utf-8"))) == []


def rulebook_cells() -> list[str]:
    cells = []
    for page in PAGES:
        column = None
        for line in read(page.read_text(encoding="utf-8")).split("\n"):
            row = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]] if line.startswith("|") else None
            if row is None:
                column = None
            elif column is None:
                column = row.index("Rulebook") if "Rulebook" in row else -1
            elif column >= 0 and not set(row[column]) <= set("-:"):
                cells.append(row[column])
    return cells


def test_a_column_headed_rulebook_holds_sections_and_lines_alone():
    cells = rulebook_cells()
    assert len(cells) == 17  # docs/rules.md's table of rules
    assert "Dreadful Raid, L267-317" in cells
    assert {cell: found for cell in cells if (found := cited_problems(cell, require=True, whole=True))} == {}


def test_the_reader_keeps_code_spans_commands_and_json_and_reads_the_rest():
    page = ("a (RB L285) `RB L1`\n```console\n$ drunagor x RB L2\nRB L3\n$ drunagor x --json\nRB L4\n```\n"  # short citation
            "```json\nRB L5\n```\nRB L6")
    assert [p.split("'")[1] for p in citation_problems(read(page))] == ["RB L285", "RB L3", "RB L6"]  # short citation


def test_the_pages_are_as_the_rewrite_leaves_them():
    stale = [p.name for p in PAGES if p.name != "reference.md" and rewrite_citations.rewrite(p) != p.read_text(
        encoding="utf-8")]
    assert stale == [], f"run python -m tests.tools.rewrite_citations: {stale}"

"""The sheet files `sync` commits (store.session.SHEETS) are the ones `drunagor sheet` writes by default."""

from __future__ import annotations

from pathlib import Path

from drunagor_log import sheet
from drunagor_log.campaign import SHEETS
from drunagor_log.interop.sync import own_file
from drunagor_log.interop.sync_words import describe_file, file_kind


def test_the_default_sheets_are_the_ones_sync_takes_for_drunagors():
    root = Path("campaigns/ours")
    assert {sheet.output_path(root, fmt, None).name: fmt for fmt in sheet.FORMATS} == SHEETS
    assert own_file("sheet.html") and own_file("sheet.md")
    assert not own_file("evening.html") and not own_file("heroes/sheet.html") and not own_file("sheet.htm")
    assert file_kind("sheet.md") == "sheet"
    assert describe_file("sheet.html", None, None) == ["sheet.html made again"]

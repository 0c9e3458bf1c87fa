"""cli/common.perform, the one body of a writing command: what it prints when the write changes
something, when it changes nothing, and with --json."""

from __future__ import annotations

import json

import pytest

from drunagor_log.cli import common
from drunagor_log.ops import Change
from tests.conftest import snapshot


@pytest.fixture
def chosen(camp, monkeypatch):
    monkeypatch.setattr(common.state, "campaign_option", str(camp))
    return camp


def rename(c, party: str) -> Change:
    """An operation that sets the party's name (a change only when the name is new)."""
    doc = c.story_file.edit()
    if doc["party"] != party:
        doc["party"] = party
    return Change(summary=f"party name: {party}", notes=("a note after the write",), warnings=("careful",),
                  data={"party": party})


def test_a_write_prints_its_warning_line_and_notes(chosen, capsys):
    change, changed = common.perform(rename, "Dawn Watch")
    out, err = capsys.readouterr()
    assert (changed, out, err) == (["story.toml"], "party name: Dawn Watch\na note after the write\n",
                                   "warning: careful\n")


def test_a_write_that_changes_nothing_prints_no_notes(chosen, capsys):
    before = snapshot(chosen)
    change, changed = common.perform(rename, "Test Party")
    out, err = capsys.readouterr()
    assert (changed, out, err) == ([], "no change: party name: Test Party\n", "warning: careful\n")
    assert snapshot(chosen) == before


def test_json_prints_the_data_alone(chosen, capsys):
    common.perform(rename, "Dawn Watch", json=True)
    out, err = capsys.readouterr()
    assert (json.loads(out), err) == ({"party": "Dawn Watch"}, "warning: careful\n")


def test_notes_first_prints_the_notes_before_the_line_of_the_write(chosen, capsys):
    common.perform(rename, "Dawn Watch", notes_first=True)
    assert capsys.readouterr().out == "a note after the write\nparty name: Dawn Watch\n"

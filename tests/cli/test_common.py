"""cli/common.perform, the one body of a writing command: what it prints when the write changes
something, when it changes nothing, and with --json; cli/common.look, the one body of a reading
command: its notes, --json, the command's own drawing, and nothing written."""

from __future__ import annotations

import json

import pytest

from drunagor_log.cli import common
from drunagor_log.ops import Change
from tests.conftest import snapshot


@pytest.fixture
def chosen(camp):
    """The campaign chosen as -C chooses it: the global options of a command line being run."""
    from typer.core import TyperCommand

    from drunagor_log.cli import click

    with click.Context(TyperCommand("drunagor"), obj=common.Options(campaign=str(camp))):
        yield camp


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


# ------------------------------------------------------------------------- look, a reading command


def party_card(c, heading: str) -> Change:
    """A reading operation: the party's name as data, a line of notes, a warning."""
    return Change(notes=(f"{heading}: {c.story.party}",), warnings=("careful",), data={"party": c.story.party})


def test_look_prints_the_notes_and_the_warnings_and_writes_nothing(chosen, capsys):
    before = snapshot(chosen)
    change, root = common.look(party_card, "Party")
    assert (change.data, root) == ({"party": "Test Party"}, chosen)
    assert capsys.readouterr() == ("Party: Test Party\n", "warning: careful\n")
    assert snapshot(chosen) == before


def test_look_json_prints_the_data_alone(chosen, capsys):
    common.look(party_card, "Party", json=True, show=lambda data: common.term.line("drawn"))
    out, err = capsys.readouterr()
    assert (json.loads(out), err) == ({"party": "Test Party"}, "warning: careful\n")


def test_look_show_draws_the_data_after_the_campaign_is_closed(chosen, capsys):
    from drunagor_log.store import lock

    def draw(data: dict) -> None:
        assert not lock._HELD  # the campaign's lock is released: a slow reader of the output holds no writer up
        common.term.line(f"drawn: {data['party']}")

    common.look(party_card, "Party", show=draw)
    assert capsys.readouterr() == ("drawn: Test Party\n", "warning: careful\n")

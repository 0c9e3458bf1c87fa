"""`drunagor --help` for a newcomer (issue 35.6): the 41 commands in panels by when they are used, each
one-liner whole (never cut with "...") and within 80 columns, and an example line that works for someone
who installed the wheel (tests/packaging runs it there)."""

from __future__ import annotations

import re
import subprocess

import pytest
import typer

from drunagor_log.cli.app import COMMANDS, PANELS, build_app
from tests.play.runner import script


def help_at(columns: int) -> str:
    import os

    env = {**os.environ, "COLUMNS": str(columns), "NO_COLOR": "1"}
    proc = subprocess.run([script(), "--help"], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_every_command_is_in_exactly_one_panel_in_the_order_of_the_issue():
    names = [name for panel in PANELS.values() for name in panel]
    assert sorted(names) == sorted(COMMANDS)
    assert len(names) == len(set(names)) == 44
    assert list(PANELS) == ["The campaign", "The Story Record", "Heroes", "Between adventures", "At the table",
                            "Sharing", "The chronicle", "Maintenance"]


# The one-liners that cite the rulebook, as `drunagor --help` prints them (issue 35.7): the citation with its
# section where the line still fits its row at 80 columns, else left to the command's own help.
CITING = {
    "party": "Set the party's name (Rulebook: Story Record, L959).",
    "leader": "Set the Party Leader, who breaks the party's ties.",
    "follower": "Followers on the Story Record.",
    "outcome": "Outcomes on the Story Record (Rulebook: Story Record, L962).",
    "chapter": "The Adventure Track and the chapter briefings.",
    "recruit": "What a hero joining before chapter N is owed.",
    "spoils": "Improve Spoils Equipment one quality step.",
}


def shown(name: str, line: str) -> str:
    return CITING.get(name, line)


def test_the_one_liners_that_cite_are_those_of_citing():
    assert sorted(name for panel in PANELS.values() for name, line in panel.items() if "RB L" in line) == sorted(
        CITING)


@pytest.mark.slow  # starts the installed script
def test_the_help_lists_the_panels_each_command_on_one_whole_line_within_80_columns():
    text = help_at(80)
    commands = text.split("Options:", 1)[1].split("\n\n", 1)[1]
    sections = [block.splitlines() for block in commands.strip("\n").split("\n\n")]
    assert [lines[0] for lines in sections] == [f"{title}:" for title in PANELS]
    for lines, panel in zip(sections, PANELS.values(), strict=True):
        assert lines[1:] == [f"  {name.ljust(10)}  {shown(name, line)}" for name, line in panel.items()]
    assert max(len(line) for line in text.splitlines()) < 80
    assert "..." not in commands


@pytest.mark.slow  # starts the installed script
def test_a_wide_terminal_shows_the_same_lines():
    assert help_at(200).split("Options:", 1)[1].split("\n\n", 1)[1] == help_at(80).split("Options:", 1)[1].split(
        "\n\n", 1)[1]


def test_the_panels_are_typers_rich_help_panel_and_the_one_liner_its_short_help():
    group = typer.main.get_command(build_app())
    for title, panel in PANELS.items():
        for name, line in panel.items():
            assert (group.commands[name].rich_help_panel, group.commands[name].short_help) == (title, line)


def test_the_example_line_starts_from_nothing():
    group = typer.main.get_command(build_app())
    example = re.findall(r"Example: (.+)", group.help or "")
    assert example == ["drunagor new demo --example && drunagor -C campaigns/demo show"]


def test_one_command_built_alone_keeps_its_panel():
    group = typer.main.get_command(build_app("odds"))
    assert group.commands["odds"].rich_help_panel == "At the table"

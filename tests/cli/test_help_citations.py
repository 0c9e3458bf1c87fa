"""Every citation `--help` prints names its section (SPEC 11, issue 35.7): the whole command tree's help,
every command and group and the top-level panels, read as a player reads it at 80 columns; a one-liner
that cannot hold its citation leaves it to the command's own help (issue 35.6: each one-liner whole)."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from drunagor_log.catalog.headings import uncited
from drunagor_log.cli import reference
from drunagor_log.cli.app import PANELS, build_app, one_liner
from tests.helpers import citation_problems

PATHS = [path[1:] for path, _, _ in reference.commands()]


@pytest.fixture(scope="module")
def helps() -> dict[str, str]:
    app = build_app()
    runner = CliRunner()
    found = {}
    for path in PATHS:
        r = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "80", "NO_COLOR": "1"})
        assert r.exit_code == 0, (path, r.output)
        found[" ".join(path)] = r.output
    return found


def test_the_tree_is_walked_whole(helps):
    assert len(helps) == 105  # the root, 44 commands and groups, and the subcommands
    assert "party" in helps and "rules cite" in helps and "hero add" in helps


def test_no_help_cites_short_and_each_citation_names_its_lines_section(helps):
    problems = {path: found for path, text in helps.items() if (found := citation_problems(text, wrapped=True))}
    assert problems == {}
    cited = [path for path, text in helps.items() if "Rulebook: " in text]
    assert len(cited) >= 40, len(cited)  # the test reads real citations, not an empty tree


def test_a_citation_in_a_help_text_an_option_and_an_argument(helps):
    assert "Set the party's name on the Story Record (Rulebook: Story Record, L959)." in helps["party"]
    assert ("--max-heroes <int>    4, or 5 with extra-hero content (Rulebook: Hero\n"
            "                        Limitations, L941-943).  [default: 4]") in helps["new"]
    # what the user types stays as typed: a `code span`
    assert "LINE...  A rulebook line as drunagor cites it: `L1203`, `RB L1203`, a range" in helps["rules cite"]


def test_a_one_liner_keeps_its_citation_only_whole_within_its_row(helps):
    top = helps[""]
    assert "  party       Set the party's name (Rulebook: Story Record, L959).\n" in top
    assert "  recruit     What a hero joining before chapter N is owed.\n" in top
    # a group's list: the first sentence without its citation, rather than cut in it
    assert "  remove  Erase a Follower who was defeated or dismissed, or was written by...\n" in helps["follower"]
    assert "  add     Write an Outcome on the Story Record when the book says so.\n" in helps["outcome"]


def test_a_citation_left_out_of_a_one_liner_is_in_the_commands_own_help(helps):
    left = 0
    for panel in PANELS.values():
        for name, line in panel.items():
            for part in re.findall(r"L\d+(?:-\d+)?", line):
                if part not in helps[""].split(f"\n  {name} ", 1)[1].split("\n", 1)[0]:
                    left += 1
                    own = " ".join(helps[name].split())
                    assert re.search(rf"Rulebook: [^)]*\b{part}\b", own), (name, part)
    assert left == 5  # leader, follower, chapter, recruit, spoils


@pytest.mark.parametrize(("text", "left"), [  # short citation: what the help texts hold
    ("Set the party's name (RB L959).", "Set the party's name."),
    ("The Adventure Track (RB L961) and the chapter briefings.", "The Adventure Track and the chapter briefings."),
    ("Chapters skipped (RB L1084: no rewards).", "Chapters skipped (no rewards)."),
    ("1 in chapters 01-04 (e.g. RB L1066), 2 after", "1 in chapters 01-04, 2 after"),
    ("the adventure fails, RB L1026, L1028.", "the adventure fails."),
])
def test_uncited_leaves_the_sentence_whole(text, left):
    assert uncited(text) == left


class _Command:
    def __init__(self, help=None, short_help=None):
        self.help, self.short_help = help, short_help

    def get_short_help_str(self, limit):
        return f"Click's own, {limit}"


@pytest.mark.parametrize(("command", "limit", "line"), [  # short citation: what the help texts hold
    (_Command(short_help="Name it (RB L959)."), 64, "Name it (Rulebook: Story Record, L959)."),
    (_Command(short_help="Name it (RB L959)."), 30, "Name it."),
    (_Command(help="Erase one (RB L459), or more of them.\n\nMore."), 45, "Erase one, or more of them."),
    (_Command(help="No citation here."), 45, "Click's own, 45"),
])
def test_one_liner_renders_what_fits_and_leaves_out_what_does_not(command, limit, line):
    assert one_liner(command, limit) == line

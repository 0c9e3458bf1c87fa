"""Citations as a player reads them (SPEC 11, issue 35.7): `RB L285` is printed `(Rulebook: Dreadful Raid,
L285)` wherever a person reads it, the line kept; `--json` keeps the short form."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from drunagor_log.catalog import headings
from tests.tools import rewrite_citations


@pytest.mark.parametrize(("short", "read"), [
    ("a raid (RB L285)", "a raid (Rulebook: Dreadful Raid, L285)"),
    ("the adventure fails, RB L1026.", "the adventure fails (Rulebook: Increasing Trauma Cube Limits, L1026)."),
    ("a party (RB L305-315)", "a party (Rulebook: Dreadful Raid, L305-315)"),
    ("(chapter 04, RB L1161)", "(chapter 04, Rulebook: Chapter 04 \u2013 Battle on the High Sea, L1161)"),
    ("(RB L1147, L1149)", "(Rulebook: Clarifications \u2013 Soul Hunt, L1147, L1149)"),
    ("(RB L1066, L1191)", "(Rulebook: Chapter 01 \u203a Recall Action Curse Penalty \u2013 Single, L1066; "
                          "Chapter 05 \u203a Recall Action Curse Penalty \u2013 Double, L1191)"),
    ("fails (RB L1203; drunagor draw)",
     "fails (Rulebook: Chapter 05 \u203a Winning and Losing the Adventure, L1203; drunagor draw)"),
    ("A Hero Undone (RB L1309): x", "A Hero Undone (Rulebook: Chapter 09 \u203a Endgame Trigger, L1309): x"),
    ("(x) then RB L285\n(RB L286", "(x) then (Rulebook: Dreadful Raid, L285)\n(Rulebook: Dreadful Raid, L286"),
    ("past the end (RB L99999)", "past the end (RB L99999)"),  # no section to name: kept
    ("no citation, RB, L12", "no citation, RB, L12"),
])
def test_a_short_citation_is_rendered_with_its_section_and_line(short, read):
    assert headings.rendered(short) == read
    assert headings.rendered(read) == read  # idempotent: the golden-output rewrite relies on it


def test_every_lines_section_is_its_innermost_heading_a_repeated_title_with_its_chapter():
    repeated = {t for t, n in Counter(h["title"] for h in headings._headings()).items() if n > 1}
    assert len(repeated) == 14  # the chapters' paragraph titles, not only "Winning and Losing the Adventure"
    for line in range(0, headings.last_line() + 3):
        path = headings.path(line)
        name = headings.cited_section(line)
        if not path:
            assert name is None, line
        elif path[-1] in repeated:
            assert path[0].startswith("Chapter ") and len(path) > 1, line
            assert name == path[0].split(" \u2013 ")[0] + headings.JOIN + path[-1], line
        else:
            assert name == path[-1], line


@pytest.mark.parametrize(("line", "name"), [
    (1076, "Chapter 01 \u203a Winning and Losing the Adventure"),
    (1305, "Chapter 09 \u203a Winning and Losing the Adventure"),
    (1179, "Chapter 04 \u203a Endgame Trigger"),
    (1205, "Chapter 05 \u203a Endgame Trigger"),
    (1309, "Chapter 09 \u203a Endgame Trigger"),
    (1068, "Chapter 01 \u203a Special Preparation \u2013 Stirring Darkness"),
    (1291, "Chapter 09 \u203a Special Preparation \u2013 Stirring Darkness"),
    (1195, "Chapter 05 \u203a Special Preparation \u2013 Darkness Nodes"),
    (1062, "Chapter 01 \u203a Darkness Spawning Rule \u2013 Growing Influence"),
    (1239, "Chapter 07 \u203a Darkness Behavior \u2013 No Darkness"),
    (1167, "Chapter 04 \u203a Recall Action Curse Penalty \u2013 Single"),
    (1241, "Chapter 07 \u203a Recall Action Curse Penalty \u2013 Double"),
    (1229, "Chapter 06 \u203a Special Rule \u2013 Locked Doors"),
    (1253, "Chapter 07 \u203a Interaction Trigger"),
    (1134, "Chapter 03 \u203a Cutscene Trigger"),
    (1279, "Chapter 08 \u203a Startgame Trigger"),
    (1269, "Chapter 08 \u203a Special Mechanics \u2013 Tie Breaker"),
    (1307, "Chapter 09 \u203a Start the Adventure"),
    (1243, "Special Preparation \u2013 Barricade"),  # once in the book: no chapter
    (1235, "Special Scenario Rule \u2013 Tower Defense"),
    (1161, "Chapter 04 \u2013 Battle on the High Sea"),  # a chapter's own lines: its whole title
    (285, "Dreadful Raid"),
    (1, "Table of Contents"),
])
def test_a_repeated_title_is_named_with_its_chapter(line, name):
    assert headings.cited_section(line) == name


def test_the_terminal_prints_the_rendered_form_and_json_keeps_the_short_one(run, example):
    r = run("-C", str(example), "odds")
    assert r.exit_code == 0
    assert ("The adventure fails when the last rune in the bag is drawn (Rulebook: Chapter 05 \u203a Winning and "
            "Losing the Adventure, L1203).\n") in r.stdout
    assert "RB L" not in r.stdout
    r = run("-C", str(example), "cube", "Nyx", "trauma", "+2", "--json")
    assert r.exit_code == 0
    assert "the adventure fails, RB L1026" in json.loads(r.stdout)["lost"]
    r = run("-C", str(example), "cube", "Nyx", "trauma", "+1")
    assert r.exit_code == 1
    assert "the adventure fails (Rulebook: Increasing Trauma Cube Limits, L1026)" in r.stderr


def test_the_rewrite_keeps_commands_json_output_docstrings_and_marked_lines():
    page = ("```console\n$ drunagor odds (RB L1)\n(RB L285)\n$ drunagor odds --json\n\"RB L285\"\n```\n"
            "```json\n{\"rule\": \"RB L285\"}\n```\n(RB L285)\n")
    assert rewrite_citations.markdown(page) == (
        "```console\n$ drunagor odds (RB L1)\n(Rulebook: Dreadful Raid, L285)\n$ drunagor odds --json\n"
        "\"RB L285\"\n```\n```json\n{\"rule\": \"RB L285\"}\n```\n(Rulebook: Dreadful Raid, L285)\n")
    module = ('"""RB L285"""\n'
              'A = "(RB L285)"\n'
              'B = data["lost"] == "RB L285"\n'
              'C = "RB L285"  # short citation\n')
    assert rewrite_citations.python(module) == module.replace('A = "(RB L285)"',
                                                              'A = "(Rulebook: Dreadful Raid, L285)"')


def test_the_rewrite_of_prose_keeps_code_spans_and_wraps_what_it_changed():
    page = ("Untouched (`RB L1`), a line\nof its own.\n"
            "\n"
            "- A raid (RB L285; `drunagor rules cite RB L285`) and the party of\n"
            "  RB L305-308, which\n"
            "  stays.\n"
            "\n"
            "| rule | Rulebook |\n|---|---|\n| the raid (RB L286) | RB L285, L1203 |\n"
            "## A heading (RB L285)\n")
    assert rewrite_citations.markdown(page) == (
        "Untouched (`RB L1`), a line\nof its own.\n"
        "\n"
        "- A raid (Rulebook: Dreadful Raid, L285; `drunagor rules cite RB L285`) and the party of (Rulebook: Dreadful\n"
        "  Raid, L305-308), which stays.\n"
        "\n"
        "| rule | Rulebook |\n|---|---|\n"
        "| the raid (Rulebook: Dreadful Raid, L286) | Dreadful Raid, L285; Chapter 05 \u203a Winning and Losing the "
        "Adventure, L1203 |\n"
        "## A heading (RB L285)\n")  # a heading is its anchor: rewritten by hand
    again = rewrite_citations.markdown(page)
    assert rewrite_citations.markdown(again) == again


def test_a_wrapped_line_never_starts_a_list_or_a_heading():
    words = "x" * 107 + " (6 - heroes) and"  # "-" would begin the next line: it stays
    assert rewrite_citations._wrapped(["y"], words) == ["x" * 107 + " (6 -", "heroes) and"]
    assert rewrite_citations._wrapped(["- y", "  z"], "- a `b c d` e") == ["- a `b c d` e"]


@pytest.mark.parametrize("chapter", [str(n) for n in range(1, 10)])
def test_chapter_show_keeps_the_commands_outside_the_citations_parentheses(run, example, chapter):
    r = run("-C", str(example), "chapter", "show", chapter, "--heroes", "3")
    assert r.exit_code == 0, r
    assert "(Rulebook: " in r.stdout
    inside = re.findall(r"\(Rulebook: [^()]*\)", r.stdout)
    assert inside and not [c for c in inside if "drunagor" in c or "`" in c], inside


def test_a_citation_in_a_hint_in_parentheses_brings_no_second_closing_one(run, example):
    r = run("-C", str(example), "hero", "add", "Andreas2", "--role", "Leader")
    assert r.exit_code == 1
    assert r.stderr.endswith("(if the hero is from another product, which the book welcomes (Rulebook: Hero "
                             "Limitations, L943), give the class with --class, e.g. drunagor hero add Andreas2 "
                             "--role ROLE --class Ranger)\n")
    assert "))" not in r.stderr and "((" not in r.stderr


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_a_completion_menus_description_drops_the_short_citation(shell):
    from drunagor_log.cli.completion_shells import Request, answer

    req = Request([], "", lambda value: value)
    items = [("party", "Set the party's name (RB L959)."), ("--max-heroes", "4, or 5 with extra-hero content "
             "(RB L941-943)."), ("chapter", "The Adventure Track (RB L961) and the chapter briefings.")]
    assert answer(shell, req, items) == ("party\tSet the party's name.\n--max-heroes\t4, or 5 with extra-hero "
                                         "content.\nchapter\tThe Adventure Track and the chapter briefings.\n")

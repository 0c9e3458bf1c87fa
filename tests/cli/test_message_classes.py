"""Issue 42 item 18: messages fixed by their class, each with a guard over the whole class."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from drunagor_log import catalog
from tests.conftest import snapshot

PACKAGE = Path(__file__).resolve().parents[2] / "drunagor_log"


def _strings(node_filter=None):
    """(file, line, text) of every string constant of the package that is not a docstring."""
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.body
                and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for n in ast.walk(tree):
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs:
                yield path.relative_to(PACKAGE).as_posix(), n.lineno, n.value


def test_no_message_carries_the_maintainers_shorthand():
    """"SPEC 5.3" is the design's section, "APP" the data files' shorthand for a source: neither is a
    reader's word. No string of the package names a SPEC section; every catalog source a message shows
    goes through catalog.source_words."""
    assert [s for s in _strings() if re.search(r"\bSPEC\s*\d", s[2])] == []
    sources = [str(e.get("source", "")) for e in (*catalog.chest_cards(), *catalog.adventure_items())]
    assert any("APP" in s for s in sources)  # the shorthand is in the data...
    assert [s for s in map(catalog.source_words, sources) if re.search(r"\b(APP|COMM)\b", s)] == []  # ...not shown
    assert catalog.source_words("APP; rarity RB L365") == "the publisher's companion app; rarity RB L365"


def test_the_reproductions_read_in_the_readers_words(example, run):
    r = run("chest", "add", "Scroll of Beguile", "--rarity", "rare", "--copies", "0")
    assert r.exit_code != 0 and "(the publisher's companion app; rarity" in r.stderr and "APP" not in r.stderr
    r = run("hero", "learn", "Nyx", "Quick Strike", "--tree", "melee", "--level", "1")
    assert "SPEC" not in r.stderr and "(drunagor check reports it as rewards)" in r.stderr


def test_a_question_asked_once_ends_with_the_command_typed_and_the_answer(example, run):
    """`round end --rune blue,gray` without --draws proposed `drunagor round end --draws N`, dropping the
    runes given; the question now proposes the line typed with the answer after it."""
    before = snapshot(example)
    r = run("round", "end", "--rune", "blue,gray")
    assert r.exit_code == 2
    assert r.stderr.endswith("drunagor remembers it for that face under [cards] in story.toml (drunagor round end "
                             "--rune blue,gray --draws N)\n")
    assert snapshot(example) == before


def test_every_question_asked_once_names_the_command_to_copy():
    """The class: a remedy that says drunagor "remembers it under [cards]" is a question asked once; its
    error carries `ask=` (the answer's flag: the command line adds the words typed) or builds the
    command itself (`{ask}` in the text)."""
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for n in ast.walk(tree):
            if not (isinstance(n, ast.Call) and getattr(n.func, "id", "") in ("UsageError", "RuleError")):
                continue
            remedy = next((k.value for k in n.keywords if k.arg == "remedy"), None)
            text = ast.unparse(remedy) if remedy is not None else ""
            if "remembers it" in text and "once" in text and not any(k.arg == "ask" for k in n.keywords) \
                    and "{ask}" not in text:
                missing.append(f"{path.relative_to(PACKAGE)}:{n.lineno}")
    assert missing == []


def test_an_unquoted_name_of_several_words_is_told_to_quote_it(example, run):
    before = snapshot(example)
    r = run("monster", "add", "Shadow", "Knight")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.endswith("Error: Got unexpected extra argument(s) (Knight); a name of several words is one "
                             'argument: quote it whole, e.g. monster add "Shadow Knight"\n')
    r = run("hero", "gain", "Nyx", "Heavy", "Shield")
    assert r.stderr.endswith('quote it whole, e.g. hero gain "Heavy Shield"\n')
    assert snapshot(example) == before


def test_an_empty_list_says_it_is_empty(example, run):
    """`monster remove X` on an empty board said "known: none yet"."""
    adventure = example / "adventure.toml"
    adventure.write_text(adventure.read_text().split("monsters = [")[0] + "monsters = []\n"
                         + adventure.read_text().split("monsters = [")[1].split("]\n", 1)[1])
    r = run("monster", "remove", "Tidehunter")
    assert r.exit_code in (1, 2)
    assert r.stderr.endswith("no monster on the board called 'Tidehunter'; there is no monster on the board yet\n")
    assert "none yet" not in r.stderr


def test_champion_is_said_to_be_no_rank(example, run):
    r = run("monster", "add", "Abomination", "--rank", "Champion", "--new")
    assert r.exit_code == 2
    assert "Champion is not a rank of the Monster Status board: chapter 08's \"Champion-rank Monsters\"" in r.stderr
    assert r.stderr.endswith("give the rank of the monster's letter: --rank Gray (G) or --rank White (W)\n")


def test_the_replay_hint_is_not_given_to_a_party_already_taking_it_easy(example, run):
    r = run("adventure", "end", "--lost")
    assert "The rulebook suggests Taking It Easy" in r.stdout
    run("adventure", "start")
    run("rules", "set", "--difficulty", "easy")
    r = run("adventure", "end", "--lost")
    assert "suggests Taking It Easy" not in r.stdout
    assert "Replaying Taking It Easy already: each hero holds 2 Trauma Cubes" in r.stdout


def test_a_card_that_is_no_reward_says_the_spoils_still_owed(example, run):
    run("adventure", "end", "--won")
    r = run("hero", "gain", "Nyx", "Scroll of Charm", "--bag")
    assert r.exit_code == 0
    assert r.stdout.splitlines()[1] == ("Scroll of Charm is a consumable card, not a Spoils of the Hero reward; Nyx "
                                        "now owes: 1 Class Ability, 1 Spoils of the Hero (Standard)")


def test_stored_cards_of_two_qualities_are_told_apart(example, run):
    story = example / "story.toml"
    r = run("spoils", "upgrade", "Vacrem", "Heavy Shield", "--discard", "Captain's Brooch", "--not-epic")
    assert r.exit_code == 0, r
    assert '"Heavy Shield (Standard)"' in story.read_text()
    r = run("hero", "gain", "Nyx", "Heavy Shield", "--kind", "spoils")  # the stored Standard one: refused
    assert r.exit_code == 1 and "is stored" in r.stderr


def test_a_second_skill_of_one_tree_and_level_says_what_export_will(example, run):
    r = run("hero", "learn", "Nyx", "Deep Cut", "--tree", "melee", "--level", "1")
    assert r.exit_code == 0
    assert r.stderr.splitlines()[0] == (
        "warning: Nyx already has a melee Level 1 skill (Melee 1): the companion apps keep one box per tree and "
        "level, so `drunagor export` leaves Deep Cut out of the token")

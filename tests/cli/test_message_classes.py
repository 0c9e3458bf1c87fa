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

"""store/tomlkit_adapter.py, the one door to tomlkit (issue 40): what each of its functions does to a
file's text, on the tomlkit installed (the suite runs on the oldest tomlkit pyproject.toml allows and on
the newest, CI's newest-dependencies job), and that no other module of the package imports tomlkit or
names one of its private attributes."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import tomlkit

from drunagor_log.store import tomlkit_adapter as tk

PACKAGE = Path(__file__).resolve().parents[2] / "drunagor_log"
ADAPTER = PACKAGE / "store" / "tomlkit_adapter.py"


def tomlkit_private_names() -> set[str]:
    """Every private name tomlkit's own source defines or sets on `self` (not dunders): read from the
    tomlkit installed, so a name a new release adds is covered too."""
    names: set[str] = set()
    for path in Path(tomlkit.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
                names.add(node.attr)
    return {n for n in names if n.startswith("_") and not n.endswith("__")}


def test_tomlkit_names_the_private_attributes_drunagor_needs():
    """The scan below reads tomlkit's source: it must see the names the adapter uses."""
    assert {"_insert_at", "_map", "_body", "_table_keys", "_replace"} <= tomlkit_private_names()


def test_only_the_adapter_imports_tomlkit_or_touches_its_private_names():
    private = tomlkit_private_names()
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == ADAPTER:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.relative_to(PACKAGE.parent)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Import):
                found += [f"{where}: import {a.name}" for a in node.names if a.name.split(".")[0] == "tomlkit"]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "tomlkit":
                found.append(f"{where}: from {node.module} import ...")
            elif (isinstance(node, ast.Attribute) and node.attr in private
                  and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
                found.append(f"{where}: .{node.attr}")
    assert found == []


def test_the_adapter_does_not_load_tomlkit_when_imported():
    tree = ast.parse(ADAPTER.read_text(encoding="utf-8"))
    top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert all("tomlkit" not in ast.unparse(n) for n in top)


DOC = '''schema = 1
party = "Safeguard"  # the party's name

[track]
"01" = "completed"
"03" = "failed"

[cards]
Buckler = { copies = 2 }
'''


def test_insert_after_a_key_in_the_middle_of_a_document():
    doc = tk.parse(DOC)
    tk.insert_after(doc, "party", "leader", tk.value('"Nyx"'))
    assert tk.dumps(doc) == DOC.replace("# the party's name\n", "# the party's name\nleader = \"Nyx\"\n")
    assert doc["leader"] == "Nyx"


def test_insert_after_a_plain_value_and_after_the_last_entry():
    doc = tk.parse("a = 1\nb = 2")  # no newline at the end: the line is ended first
    tk.insert_after(doc, "b", "c", True)
    assert tk.dumps(doc) == "a = 1\nb = 2\nc = true\n"
    assert doc["c"] is True and list(doc) == ["a", "b", "c"]


def test_insert_after_in_a_table_keeps_chapter_order_and_quoting():
    doc = tk.parse(DOC)
    tk.insert_after(doc["track"], "01", tk.quoted_key("02"), tk.value('"skipped"'))
    assert tk.dumps(doc) == DOC.replace('"01" = "completed"\n', '"01" = "completed"\n"02" = "skipped"\n')
    assert doc["track"]["02"] == "skipped"


def test_insert_after_a_table_puts_a_table_between_two():
    doc = tk.parse(DOC)
    new = tk.table()
    new.add("x", 1)
    new.add(tk.nl())
    tk.insert_after(doc, "track", "failures", new)
    assert tk.dumps(doc) == DOC.replace("\n[cards]", "\n[failures]\nx = 1\n\n[cards]")


def test_insert_at_index_of_and_body():
    doc = tk.parse(DOC)
    track = doc["track"]
    at = tk.index_of(track, "03")
    assert isinstance(at, int) and tk.body(track)[at][0].key == "03"
    tk.insert_at(track, at, tk.quoted_key("02"), tk.value('"completed"'))
    assert tk.dumps(doc) == DOC.replace('"03"', '"02" = "completed"\n"03"')
    assert tk.index_of(track, "nothing") is None


def test_replace_keeps_the_place_and_the_comment():
    doc = tk.parse(DOC)
    tk.replace(doc, "party", tk.value('"Ravens"'))
    assert tk.dumps(doc) == DOC.replace('"Safeguard"', '"Ravens"')
    tk.replace(doc["cards"], "Buckler", tk.value("{ copies = 3 }"))
    assert tk.dumps(doc).endswith("Buckler = { copies = 3 }\n")
    assert doc["cards"]["Buckler"]["copies"] == 3


def test_set_body_rebuilds_the_indexes_in_one_pass():
    doc = tk.parse(DOC)
    track = tk.container_of(doc["track"])
    entries = list(tk.body(track))
    key, item = tk.quoted_key("05"), tk.value('"completed"')
    entries.insert(1, (key, item))
    tk.set_body(track, entries)
    dict.__setitem__(track, "05", item.value)
    dict.__setitem__(doc["track"], "05", item)
    assert tk.dumps(doc) == DOC.replace('"01" = "completed"\n', '"01" = "completed"\n"05" = "completed"\n')
    assert tk.index_of(doc["track"], "03") == 2
    doc["track"]["03"] = "completed"  # tomlkit's own assignment finds the key where set_body put it
    assert '"03" = "completed"' in tk.dumps(doc)


@pytest.mark.parametrize(("text", "kinds"), [
    ("[t]\na = 1\n", {"table", "table_or_aot"}),
    ("[[t]]\na = 1\n", {"table_or_aot"}),
    ("t = [1, 2]\n", {"array"}),
    ("t = { a = 1 }\n", set()),
])
def test_what_an_item_is(text, kinds):
    item = tk.parse(text)["t"] if "[[" not in text else tk.parse(text).item("t")
    got = {name for name, test in (("table", tk.is_table), ("table_or_aot", tk.is_table_or_aot),
                                   ("array", tk.is_array)) if test(item)}
    assert got == kinds


def test_blank_lines_removed_entries_and_tables_ending_blank():
    doc = tk.parse("a = 1\n\n[t]\nb = 2\n\n[u]\n")
    body = tk.body(doc)
    assert [tk.is_whitespace(v) for _, v in body] == [False, True, False, False]
    assert tk.ends_with_whitespace(doc["t"]) and not tk.ends_with_whitespace(doc["u"])
    del doc["a"]
    assert tk.is_null(tk.body(doc)[0][1])
    assert tk.is_document(doc) and not tk.is_document(doc["t"]) and tk.is_document(tk.container_of(doc["t"]))


def test_value_array_document_and_a_new_file():
    assert tk.value('[\n  "a",\n]').as_string() == '[\n  "a",\n]'
    assert tk.array().as_string() == "[]"
    doc = tk.document()
    doc["schema"] = 1
    assert tk.dumps(doc) == "schema = 1\n"
    assert tk.bare_key("name").as_string() == "name" and tk.quoted_key("05").as_string() == '"05"'


# ------------------------------------------------------------------ a long comment (issue 40, item 7)

TRICKY = [  # (text, a comment is long enough to hide)
    ('a = "x # y"  # ' + "c" * 100 + "\n", True),
    ('b = """q\\""" # not a comment\nstill""""" # ' + "d" * 90 + "\n", True),
    ("c = '''lit # " + "e" * 100 + "'''''\n", False),
    ("d = 'it\"s#' # " + "f" * 80 + "\n", True),
    ("e = \"\\\"# \\\\\" # " + "g" * 200 + "\r\n", True),
    ("[t] # " + "h" * 300 + "\n# " + "i" * 1000 + "\nk = [\n  1, # " + "j" * 120 + "\n]\n", True),
    ("# short\nx = 1\n", False),
    ("x = 1\n", False),
]


@pytest.mark.parametrize(("text", "hides"), TRICKY)
def test_editable_hides_long_comments_only_and_gives_them_back_byte_for_byte(text, hides, monkeypatch):
    import tomllib

    read = []
    real = tk.parse
    monkeypatch.setattr(tk, "parse", lambda t: read.append(t) or real(t))
    doc, back = tk.editable(text)
    assert back(tk.dumps(doc)) == text
    assert doc.unwrap() == tomllib.loads(text)  # no string was mistaken for a comment
    assert (len(read[0]) < len(text)) == hides
    if "[t]" not in text:  # a new key at the end: as tomlkit writes it in the whole text
        doc.add("zz", 1)
        assert back(tk.dumps(doc)) == tk.dumps(real(text + "zz = 1\n"))


def test_a_write_beside_a_one_megabyte_comment_reads_a_small_text_and_keeps_the_line(example, run, monkeypatch):
    """The issue's reproduction: a 1 MB comment line in story.toml. The write hands tomlkit the file
    without it (a few KB: its cost no longer grows with the comment), and writes the line back as it was."""
    story = example / "story.toml"
    big = "# " + "x" * 1_000_000 + "\n"
    before = story.read_text() + big
    story.write_text(before)
    read = []
    real = tk.parse
    monkeypatch.setattr(tk, "parse", lambda t: read.append(len(t)) or real(t))
    r = run("-C", str(example), "leader", "Nyx")
    assert (r.exit_code, r.stdout) == (0, "Party Leader: Nyx\n")
    assert read and max(read) < 4096
    after = story.read_text()
    assert after == before.replace('leader = "Andreas"', 'leader = "Nyx"', 1)

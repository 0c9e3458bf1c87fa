"""docs/library.md: its Python example runs on a copy of the example campaign and prints what the
page says it prints."""

from __future__ import annotations

import contextlib
import io
import re

import pytest

from tests.conftest import REPO, snapshot


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", (REPO / "docs" / "library.md").read_text(encoding="utf-8"), re.S)


def test_the_library_example_runs_and_prints_its_summary(example):
    pytest.importorskip("drunagor_log.ops.heroes", reason="the heroes operations are not in this branch yet")
    code = python_blocks()[0]
    printed = re.search(r"print\(change\.summary\)\s+# (.+)", code).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/library.md", "exec"), {})
    assert out.getvalue() == printed + "\n"
    assert "Buckler" in (example / "heroes" / "nyx.toml").read_text()


def test_apply_writes_the_same_change(example):
    pytest.importorskip("drunagor_log.ops.heroes", reason="the heroes operations are not in this branch yet")
    before = snapshot(example)
    scope: dict = {}
    exec("from pathlib import Path\nfrom drunagor_log import ops\n" + python_blocks()[1], scope)
    assert scope["written"] == ["heroes/nyx.toml"]
    assert snapshot(example).keys() == before.keys() and snapshot(example) != before


def test_writing_runs_its_body_and_saves(example):
    """The page's `writing` example: the body's change saved, as `ops.apply` saves it."""
    before = snapshot(example)
    scope: dict = {}
    exec(compile(python_blocks()[3], "docs/library.md", "exec"), scope)
    assert scope["written"] == ["heroes/nyx.toml"]
    assert scope["change"].summary == "Nyx gains Buckler (spoils, standard, equipped)"
    assert {k for k in before if snapshot(example)[k] != before[k]} == {"heroes/nyx.toml"}


def test_open_all_gives_the_campaign_and_every_problem(example, capsys, monkeypatch):
    """The page's `open_all` example: a hero's log broken, its problem printed, the others read."""
    monkeypatch.chdir(example.parent.parent)
    (example / "heroes" / "nyx.toml").write_text("schema = 1\nname = [\n")
    exec(compile(python_blocks()[4], "docs/library.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("campaigns/example/heroes/nyx.toml:")
    assert ": toml-syntax: " in lines[0]
    assert lines[1:] == ["['andreas', 'catharina', 'vacrem']"]

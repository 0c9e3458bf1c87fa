"""git/runner.py is the one place that starts a program: every other module reaches git through it."""

from __future__ import annotations

import ast
from pathlib import Path

import drunagor_log

PACKAGE = Path(drunagor_log.__file__).parent
RUNNER = PACKAGE / "git" / "runner.py"


def test_only_the_git_runner_starts_a_program():
    starters = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n.split(".")[0] == "subprocess" for n in names) or (
                    isinstance(node, ast.Attribute) and node.attr in ("system", "popen", "execv", "spawnv")
                    and isinstance(node.value, ast.Name) and node.value.id == "os"):
                starters.append(path.relative_to(PACKAGE).as_posix())
    assert sorted(set(starters)) == ["git/runner.py"]

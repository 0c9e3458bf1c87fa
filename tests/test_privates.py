"""No module outside store/ and campaign.py touches a private attribute of the campaign's session
(store/session.py) or of the campaign (campaign.py) (issue 33): what a caller needs is a method
(`Campaign.open_all` for a load that reports every bad file). Read with `ast`: every `X._name` where
`_name` is one of theirs and X is not `self` or `cls`."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "drunagor_log"
OWNERS = {PACKAGE / "store" / "session.py": "Session", PACKAGE / "campaign.py": "Campaign"}


def private_names() -> set[str]:
    """The private attributes and methods the two classes define (not dunders)."""
    names: set[str] = set()
    for path, cls in OWNERS.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
        for node in ast.walk(body):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
                names.add(node.attr)
    return {n for n in names if n.startswith("_") and not n.endswith("__")}


PRIVATE = private_names()


def uses(source: str, name: str) -> list[str]:
    return [f"{name}:{node.lineno}: .{node.attr}" for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and node.attr in PRIVATE
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))]


def test_the_walk_knows_their_privates():
    assert {"_lock", "_acquire", "_load", "_typed", "_hero_files", "_adventure", "_open"} <= PRIVATE


def test_the_walk_sees_a_private_use_and_not_the_classes_own():
    source = "c = Campaign(root)\nc._hero_files = {}\nx = c.heroes\nself._lock = None\nlock._key\n"
    assert uses(source, "m.py") == ["m.py:2: ._hero_files"]


def test_no_module_outside_store_and_campaign_uses_their_privates():
    found = [use for path in sorted(PACKAGE.rglob("*.py"))
             if path.parent != PACKAGE / "store" and path != PACKAGE / "campaign.py"
             for use in uses(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE.parent)))]
    assert not found, "use a method of Campaign or of its session:\n" + "\n".join(found)

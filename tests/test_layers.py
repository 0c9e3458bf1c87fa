"""The layers of the package (docs/library.md, "The layers"): every import of every module, at module
level and inside functions, read with `ast` (nothing is imported), goes down the stack, never up and
never sideways into another area of the same layer; no two modules import each other, directly or
round a cycle; and an import inside a function is for the command line's boundary (cli/, play/) only.

A library (the standard one, tomlkit, Jinja2, Rich, prompt_toolkit) may be imported inside the
function that needs it: that keeps the heavy ones off the commands that do not use them. The
package's own modules are imported at the top of a module, so that its first lines say where it
stands; a cycle hidden inside functions is still a cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "drunagor_log"

#: Top to bottom. An area imports only from the layers below its own (and from its own modules); the
#: areas of one layer never import each other. "" is the package itself (drunagor_log/__init__.py,
#: its version).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("__main__",),  # `python -m drunagor_log`
    ("play",),  # the table session: runs the command line's own tree in process, line by line
    ("cli",),  # the command line: the one command tree (it registers `play` by name, never importing it)
    ("serve",),  # the table's screen: the live web view (`drunagor serve`, `play --serve`)
    ("sheet", "interop"),  # the front ends the command line calls: the sheets; the apps' token and sync
    ("ops",),  # campaign operations: one function per thing a player does
    ("checks",),  # `drunagor check`: one small registered check per rule
    ("campaign",),  # find the campaign, load it lazily, lock, save
    ("git",),  # the only caller of the git program (used by ops, checks and the campaign's open)
    ("store",),  # the only file layer
    ("rules",),  # pure game rules over plain values
    ("names",),  # slugs and the one name resolver, over the catalog
    ("catalog", "model"),  # the game's facts; the campaign as immutable values
    ("errors",),  # the one error tree
    ("text",),  # text shown to a person (the output rule's sanitizer) and the words (plurals, quoting)
    ("values", ""),  # the one value base; the package's version
)
#: May import a module of the package inside a function: the command line builds only the command typed,
#: and the table session's command module costs nothing until `drunagor play` runs.
LAZY_AT = ("__main__", "play", "cli")

RANK = {area: rank for rank, areas in enumerate(reversed(LAYERS)) for area in areas}


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ["drunagor_log", *path.relative_to(PACKAGE).with_suffix("").parts]
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = modules()


def area(module: str) -> str:
    """The part of the package a module belongs to: 'ops' for drunagor_log.ops.board."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


class Import:
    def __init__(self, source: str, target: str, line: int, in_function: bool, typing_only: bool):
        self.source, self.target, self.line = source, target, line
        self.in_function, self.typing_only = in_function, typing_only

    def __repr__(self) -> str:
        where = "in a function" if self.in_function else "type checking" if self.typing_only else "module level"
        return f"{MODULES[self.source].relative_to(PACKAGE.parent)}:{self.line}: {self.target} ({where})"


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    """The package's modules an import statement names (the deepest module that exists)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = module.split(".") if is_package else module.split(".")[:-1]
        if node.level:
            base = base[: len(base) - node.level + 1]
            stem = ".".join(base + ([node.module] if node.module else []))
        else:
            stem = node.module or ""
        names = [f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in MODULES else stem for alias in node.names]
    found = []
    for name in names:
        while name not in MODULES and "." in name:
            name = name.rsplit(".", 1)[0]
        if name in MODULES and name != module:
            found.append(name)
    return found


def imports_of(module: str) -> Iterator[Import]:
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    typing_only = {id(n) for node in ast.walk(tree)
                   if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
    scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    module_level = {id(n) for node in tree.body if not isinstance(node, scopes) for n in ast.walk(node)}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for target in _targets(node, module, path.name == "__init__.py"):
                yield Import(module, target, node.lineno, id(node) not in module_level, id(node) in typing_only)


IMPORTS = [imp for module in MODULES for imp in imports_of(module)]


def test_every_area_has_its_layer():
    unplaced = sorted({area(m) for m in MODULES} - set(RANK))
    assert not unplaced, f"put {unplaced} in a layer of LAYERS (tests/test_layers.py) and docs/library.md"


def test_no_import_goes_up_or_sideways():
    wrong = []
    for imp in IMPORTS:
        here, there = area(imp.source), area(imp.target)
        if here == there or here not in RANK or there not in RANK:
            continue
        if RANK[there] >= RANK[here]:
            how = "sideways" if RANK[there] == RANK[here] else "up"
            wrong.append(f"{imp} goes {how}: {here} -> {there}")
    assert not wrong, "\n".join(wrong)


def test_the_package_is_imported_at_module_level_outside_the_command_line():
    lazy = [repr(imp) for imp in IMPORTS if imp.in_function and not imp.typing_only and area(imp.source) not in LAZY_AT]
    assert not lazy, "import these at the top of the module:\n" + "\n".join(lazy)


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm; the package has
    about a hundred modules, so recursion is safe)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for child in sorted(edges[node]):
            if child not in index:
                visit(child)
                low[node] = min(low[node], low[child])
            elif child in stack:
                low[node] = min(low[node], index[child])
        if low[node] == index[node]:
            component = stack[stack.index(node):]
            del stack[stack.index(node):]
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle():
    edges: dict[str, set[str]] = {m: set() for m in MODULES}
    for imp in IMPORTS:
        if not imp.typing_only:
            edges[imp.source].add(imp.target)
    cycles = _cycles(edges)
    assert not cycles, "\n".join(" <-> ".join(c) for c in cycles)


@pytest.mark.parametrize("edges, cycles", [
    ({"a": {"b"}, "b": {"a"}, "c": set()}, [["a", "b"]]),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b", "c"}, "b": {"c"}, "c": set()}, []),
])
def test_the_cycle_finder_finds_cycles(edges, cycles):
    assert _cycles(edges) == cycles


def test_the_walk_sees_imports_inside_functions_and_relative_ones():
    seen = {(imp.source, imp.target) for imp in IMPORTS}
    assert ("drunagor_log.store.adventure", "drunagor_log.model.adventure") in seen
    assert any(imp.in_function for imp in IMPORTS if area(imp.source) == "cli")

"""The command reference (docs/reference.md), generated from the command tree.

    python -m drunagor_log.cli.reference > docs/reference.md

Walks the Click command tree of `build_app()` in the order `--help` lists it and writes, for every
command and subcommand: its usage line, its help text, each argument and option with its help, and
its `Example:` lines. tests/docs/test_reference.py fails when docs/reference.md is not this output.
Never imported by `drunagor` itself.
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Iterator
from typing import Any

REGENERATE = "python -m drunagor_log.cli.reference > docs/reference.md"
EXAMPLE = re.compile(r"^Example: (.+)$", re.M)
SPECIAL = re.compile(r"([\\*_<>\[\]|])")


def commands() -> Iterator[tuple[list[str], Any, Any]]:
    """(path, command, context) for the root and every command below it, depth first."""
    import typer.main

    from . import click
    from .app import build_app

    root = typer.main.get_command(build_app())

    def walk(cmd, path, parent):
        ctx = click.Context(cmd, info_name=path[-1], parent=parent)
        yield path, cmd, ctx
        for name in getattr(cmd, "list_commands", lambda _ctx: [])(ctx):
            yield from walk(cmd.get_command(ctx, name), path + [name], ctx)

    yield from walk(root, ["drunagor"], None)


def text(s: str) -> str:
    """Help text as Markdown: special characters escaped outside `code spans`."""
    parts = s.split("`")
    return "`".join(p if i % 2 else SPECIAL.sub(r"\\\1", p) for i, p in enumerate(parts))


def anchor(path: list[str]) -> str:
    return "-".join(path)


def section(path: list[str], cmd, ctx) -> list[str]:
    from .app import _prose

    help_text = inspect.cleandoc(cmd.help or "")
    examples = EXAMPLE.findall(help_text)
    body = _prose(EXAMPLE.sub("", help_text).strip())  # its citations as `--help` prints them
    usage = " ".join(["Usage:", ctx.command_path, *cmd.collect_usage_pieces(ctx)])  # never wrapped
    out = [f"## {' '.join(path)}", "", "```text", usage, "```", ""]
    if body:
        out += [text(body), ""]
    params = [(p, p.get_help_record(ctx)) for p in cmd.get_params(ctx)]
    for title, kind in (("Arguments", "argument"), ("Options", "option")):
        rows = [rec for p, rec in params if rec and p.param_type_name == kind and p.name != "help"]
        if rows:
            out += [f"{title}:", ""]
            out += [f"- `{name}`" + (f": {text(' '.join(_prose(h).split()))}" if h else "") for name, h in rows]
            out.append("")
    subs: list[str] = getattr(cmd, "list_commands", lambda _ctx: [])(ctx)
    if subs:
        out += ["Commands: " + ", ".join(f"[{name}](#{anchor(path + [name])})" for name in subs), ""]
    if examples:
        out += ["Example:" if len(examples) == 1 else "Examples:", "", "```sh", *examples, "```", ""]
    return out


def panel_order(name: str) -> int:
    """Where a top-level command stands in `drunagor --help`: its panel's place, then its own in it."""
    from .app import PANELS

    names = [n for panel in PANELS.values() for n in panel]
    return names.index(name) if name in names else len(names)


def render() -> str:
    from .app import one_liner

    found = list(commands())
    limit = found[0][1].panel_limit([path[1] for path, _, _ in found if len(path) == 2])
    out = [
        "# Command reference",
        "",
        "<!-- Generated from the command tree; do not edit. Regenerate with:",
        f"     {REGENERATE} -->",
        "",
        "Every command and subcommand with its usage, arguments, options and example, as `--help`",
        "prints them, in the panels of `drunagor --help`. The guides ([index.md](index.md)) explain what",
        "they do at the table.",
        "",
    ]
    panel = None
    for path, cmd, _ in sorted(found[1:], key=lambda f: panel_order(f[0][1])):  # stable: subcommands follow
        if len(path) == 2 and cmd.rich_help_panel != panel:
            panel = cmd.rich_help_panel
            out += ([""] if out[-1] else []) + [f"**{panel or 'Commands'}**", ""]
        line = f": {text(one_liner(cmd, limit))}" if len(path) == 2 and cmd.short_help else ""
        out.append(f"{'  ' * (len(path) - 2)}- [{' '.join(path)}](#{anchor(path)}){line}")
    out.append("")
    for path, cmd, ctx in found:
        out += section(path, cmd, ctx)
    return "\n".join(out).rstrip("\n") + "\n"


def main() -> None:
    sys.stdout.write(render())


if __name__ == "__main__":
    main()

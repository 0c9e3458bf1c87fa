"""Docs agree with the program (after sqlite-utils): every command has help with an example, a
section in a guide of docs/, and its entry in the generated reference; the README's Quickstart is
the two commands CI runs."""

from __future__ import annotations

import re

import pytest
import typer.main

from drunagor_log.cli import reference
from drunagor_log.cli.app import build_app
from tests.conftest import REPO

DOCS = REPO / "docs"
GUIDES = sorted(p for p in DOCS.glob("*.md") if p.name != "reference.md")


def command_paths():
    group = typer.main.get_command(build_app())

    def walk(cmd, path):
        subs = getattr(cmd, "commands", None)
        if subs:
            for name, sub in subs.items():
                yield from walk(sub, path + [name])
        else:
            yield path, cmd

    yield from walk(group, [])


def test_the_reference_is_generated_from_the_command_tree():
    current = (DOCS / "reference.md").read_text(encoding="utf-8")
    assert current == reference.render(), (
        f"docs/reference.md is stale (a command or its --help changed); regenerate it: {reference.REGENERATE}")


def test_the_reference_has_every_command_its_usage_and_options():
    text = (DOCS / "reference.md").read_text(encoding="utf-8")
    for path, cmd in command_paths():
        section = text.split(f"\n## drunagor {' '.join(path)}\n", 1)[1].split("\n## ", 1)[0]
        assert f"Usage: drunagor {' '.join(path)} " in section
        for p in cmd.params:
            if p.name != "help" and p.param_type_name == "option":
                assert f"`{p.opts[0]}" in section or f", {p.opts[0]}" in section, (path, p.opts)


def test_every_command_has_a_section_in_a_guide():
    guides = "\n".join(p.read_text(encoding="utf-8") for p in GUIDES)
    missing = []
    for path, _cmd in command_paths():
        words = " ".join(path)
        # a table row may document alternatives together: `drunagor outcome add\|remove NAME`
        if f"drunagor {words}" not in guides and not any(
                f"drunagor {' '.join(path[:-1])} " in line and path[-1] in line for line in guides.splitlines()):
            missing.append(words)
    assert missing == []


def test_every_command_has_an_example_in_its_help():
    assert [" ".join(path) for path, cmd in command_paths() if "Example" not in (cmd.help or "")] == []


def test_every_page_is_linked_from_the_index_and_every_link_resolves():
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    assert [p.name for p in DOCS.glob("*.md") if p.name != "index.md" and f"]({p.name})" not in index] == []
    broken = []
    for page in [REPO / "README.md", *DOCS.glob("*.md")]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if "://" not in target and not (page.parent / target).exists() and target != "install.md" \
                    and target != "docs/install.md":  # docs/install.md: written in another branch
                broken.append(f"{page.name}: {target}")
    assert broken == []


def test_every_anchor_link_names_a_heading():
    def anchors(page):
        heads = re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), re.M)
        return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in heads}

    broken = []
    for page in [REPO / "README.md", *DOCS.glob("*.md")]:
        for target, anchor in re.findall(r"\]\(([^)#\s]*)#([^)\s]+)\)", page.read_text(encoding="utf-8")):
            dest = page if not target else page.parent / target
            if dest.exists() and anchor not in anchors(dest):
                broken.append(f"{page.name}: {target}#{anchor}")
    assert broken == []


def test_the_readme_is_the_front_door():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 200
    assert "](docs/index.md)" in readme and "](docs/reference.md)" in readme


def test_quickstart_is_exactly_two_commands_and_ci_runs_the_second():
    readme = (REPO / "README.md").read_text()
    block = readme.split("## Quickstart", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    lines = [line for line in block.splitlines() if line.strip()]
    assert len(lines) == 2
    assert lines[0].endswith("drunagor show")
    assert lines[1] in (REPO / ".ci" / "run").read_text()


# Examples that need more than a copy of the example campaign; tested where that is set up.
NEEDS_GIT = {"history", "undo",  # a git repository with drunagor commits: tests/cli/test_git.py
             "sync", "git", "git setup",  # a repository shared through a remote: tests/sync/test_sync.py
             "import",  # a token file, made by `export`: tests/interop/test_import_export.py and docs/apps.md
             "serve"}  # runs until Ctrl-C: tests/serve runs the real server and stops it


def help_examples():
    """(command path, example line) for every `Example: drunagor ...` of every command and group."""
    group = typer.main.get_command(build_app())
    found = []

    def walk(cmd, path):
        for line in re.findall(r"Example: drunagor (.+)", cmd.help or ""):
            found.append((" ".join(path) or "drunagor", line.strip()))
        for name, sub in (getattr(cmd, "commands", None) or {}).items():
            walk(sub, path + [name])

    walk(group, [])
    return found


@pytest.mark.parametrize("where,example_line", [e for e in help_examples() if e[0] not in NEEDS_GIT])
def test_every_help_example_runs_on_the_shipped_example(run, tmp_path, where, example_line):
    # SPEC 2: every command can be tried at once on campaigns/example; each `Example:` line of --help is
    # run as written (steps joined by &&) on a fresh copy.
    import shlex
    import shutil

    from tests.conftest import EXAMPLE

    root = tmp_path / "campaigns" / "example"
    shutil.copytree(EXAMPLE, root)
    for step in f"drunagor {example_line}".split(" && "):
        program, *args = shlex.split(step)
        assert program == "drunagor", step
        if args[:1] != ["-C"]:
            args = ["-C", str(root), *args]
        r = run(*args)
        assert r.exit_code == 0, (step, r)


def test_the_examples_cover_every_command():
    covered = {where for where, _ in help_examples()}
    assert {" ".join(p) for p, _ in command_paths()} <= covered

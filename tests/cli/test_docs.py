"""Docs agree with the program (after sqlite-utils): every command has help with an example and is
shown in the README."""

from __future__ import annotations

import pytest
import typer.main

from drunagor_log.cli.app import build_app
from tests.conftest import REPO


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


def test_every_command_is_in_the_readme_and_its_help_has_an_example():
    readme = (REPO / "README.md").read_text()
    missing_docs, missing_example = [], []
    for path, cmd in command_paths():
        words = " ".join(path)
        # a table row may document alternatives together: `drunagor outcome add\|remove NAME`
        if f"drunagor {words}" not in readme and not any(
                f"drunagor {' '.join(path[:-1])} " in line and path[-1] in line for line in readme.splitlines()):
            missing_docs.append(words)
        if "Example" not in (cmd.help or ""):
            missing_example.append(words)
    assert missing_docs == []
    assert missing_example == []


def test_quickstart_is_exactly_two_commands_and_ci_runs_the_second():
    readme = (REPO / "README.md").read_text()
    block = readme.split("## Quickstart", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    lines = [line for line in block.splitlines() if line.strip()]
    assert len(lines) == 2
    assert lines[0].endswith("drunagor show")
    assert lines[1] in (REPO / ".ci" / "run").read_text()


# Examples that need more than a copy of the example campaign; tested where that is set up.
NEEDS_GIT = {"history", "undo"}  # a git repository with drunagor commits: tests/cli/test_git.py


def help_examples():
    """(command path, example line) for every `Example: drunagor ...` of every command and group."""
    import re

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

"""Every ```console block of README.md and docs/*.md is real output: this test replays it.

The convention (also in docs/index.md, "Examples in these pages"):

- Each page starts on its own fresh copy of `campaigns/example`, in an empty folder that holds it as
  `campaigns/example` (the current folder of every command); the blocks of a page run in order on that
  copy, so a page reads as one session. `-C campaigns/...` paths resolve in that folder.
- A `$ drunagor ...` line runs in process (the app of `drunagor_log.cli.app`), with NO_COLOR=1 and
  COLUMNS=120; the lines after it, up to the next `$` line, are what it prints, stdout and stderr
  together as a terminal shows them. `# ...` after a command is a comment; `| grep TEXT` keeps the
  lines holding TEXT. Exit codes are not shown, so not compared; a traceback always fails.
- In the expected output, a line `...` stands for any number of lines (none included).
- HTML comments on the lines just before a block (blank lines between them allowed):
  `<!-- console: fresh -->` starts the block on a fresh copy;
  `<!-- console: setup CMD -->` runs the shell command CMD first, in that folder (several run in
  order; `drunagor` there is this checkout's), its output not shown;
  `<!-- console: skip (reason) -->` does not replay the block; say why (another process holding the
  lock, a git hook, timings).
"""

from __future__ import annotations

import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from tests.conftest import EXAMPLE, REPO, matches, transcript

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
DIRECTIVE = re.compile(r"<!--\s*console:\s*(fresh|skip|setup)\b\s*(.*?)\s*-->")


class Block:
    def __init__(self, line: int, lines: list[str], directives: list[tuple[str, str]]):
        self.line = line  # 1-based line of the opening fence
        self.lines = lines
        self.directives = directives

    def steps(self) -> list[tuple[str, list[str]]]:
        """[(command line, expected output lines)]."""
        return transcript(self.lines, f"line {self.line}: ")


def blocks(text: str) -> list[Block]:
    found: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```console":
            directives = []
            j = i - 1
            while j >= 0 and (not lines[j].strip() or DIRECTIVE.search(lines[j])):
                m = DIRECTIVE.search(lines[j])
                if m:
                    directives.insert(0, (m.group(1), m.group(2)))
                j -= 1
            indent = len(lines[i]) - len(lines[i].lstrip())
            end = i + 1
            while lines[end].strip() != "```":
                end += 1
            found.append(Block(i + 1, [ln[indent:] for ln in lines[i + 1:end]], directives))
            i = end
        i += 1
    return found


def drunagor(args: list[str]) -> str:
    """Run the CLI in process; stdout and stderr in the order they were written."""
    from drunagor_log.cli.app import app

    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(out):
        try:
            app(args=args, prog_name="drunagor")
        except SystemExit:
            pass
    return out.getvalue()


def run_line(command: str) -> list[str]:
    words = shlex.split(command, comments=True)
    pipes = [[]]
    for w in words:
        if w == "|":
            pipes.append([])
        else:
            pipes[-1].append(w)
    program, *args = pipes[0]
    assert program == "drunagor", f"only drunagor commands are replayed, not {command!r}"
    lines = drunagor(args).splitlines()
    for filt in pipes[1:]:
        assert filt[:1] == ["grep"] and len(filt) == 2, f"only `| grep TEXT` is understood: {command!r}"
        lines = [ln for ln in lines if filt[1] in ln]
    return lines


def setup(command: str, folder: Path) -> None:
    env = dict(os.environ, PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]))
    r = subprocess.run(command, shell=True, cwd=folder, env=env, capture_output=True, text=True)
    assert r.returncode == 0, f"setup {command!r} failed:\n{r.stdout}{r.stderr}"


def fresh(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    shutil.copytree(EXAMPLE, folder / "campaigns" / "example")
    os.chdir(folder)


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(REPO).as_posix() for p in PAGES])
def test_every_console_block_is_real_output(page, tmp_path, monkeypatch):
    for var, value in (("GIT_AUTHOR_NAME", "Ana"), ("GIT_COMMITTER_NAME", "Ana"),
                       ("GIT_AUTHOR_EMAIL", "ana@example.org"), ("GIT_COMMITTER_EMAIL", "ana@example.org")):
        monkeypatch.setenv(var, value)
    folder = tmp_path / "page"
    fresh(folder)
    failures = []
    for block in blocks(page.read_text(encoding="utf-8")):
        kinds = [kind for kind, _ in block.directives]
        if "skip" in kinds:
            reason = dict(block.directives)["skip"]
            assert reason.startswith("(") and reason.endswith(")") and len(reason) > 2, \
                f"{page.name}:{block.line}: `console: skip` needs a (reason)"
            continue
        if "fresh" in kinds:
            fresh(folder)
        for kind, arg in block.directives:
            if kind == "setup":
                setup(arg, folder)
        for command, expected in block.steps():
            got = run_line(command)
            if not matches(expected, got):
                failures.append(f"{page.name}:{block.line}: $ {command}\n--- expected\n" + "\n".join(expected)
                                + "\n--- got\n" + "\n".join(got))
    assert not failures, "\n\n".join(failures)


def test_the_matcher():
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "d"], ["a", "d"])
    assert matches(["..."], [])
    assert not matches(["a", "...", "d"], ["a", "b", "c"])
    assert not matches(["a"], ["a", "b"])


def test_the_parser_reads_directives_and_indented_blocks():
    text = "<!-- console: fresh -->\n<!-- console: setup touch x -->\n\n```console\n$ drunagor show\nout\n```\n" \
           "- item:\n\n  ```console\n  $ drunagor leader Nyx\n  error: x\n  ```\n"
    first, second = blocks(text)
    assert first.directives == [("fresh", ""), ("setup", "touch x")]
    assert first.steps() == [("drunagor show", ["out"])]
    assert second.directives == [] and second.steps() == [("drunagor leader Nyx", ["error: x"])]

"""Every command of the command tree stops at an unreadable campaign (exit 3, the file named, nothing
written): one place decides it (Campaign opens the campaign: the journal, then one look at every
campaign file), so a command added later cannot miss it.

The commands are not a hand list: the test walks the Typer command tree as docs/reference.md does
(drunagor_log.cli.reference.commands) and runs each leaf command by the last step of its own help's
`Example:` line, and also bare when it takes no required parameter (`recruit`, `raid`), and each of
those with `--dry-run` when it has one (a writer's read-only path takes another lock).

Excluded, by one rule: a command line that opens no file or folder of the campaign when it runs on
the intact example campaign (seen by an audit hook on `open`, `os.scandir` and `os.listdir`) does not
read the campaign: `new`, `list`, `completion`, `import`, `recruit --chapter N`, `history` (git's log).

The four layouts are those of the last hostile-campaign refusals: a git conflict marker in story.toml,
a file where adventures/ should be, a dangling symbolic link as adventure.toml, and a journal that
came with the repository (committed by someone else).
"""

from __future__ import annotations

import inspect
import os
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from drunagor_log import store
from drunagor_log.cli.reference import EXAMPLE as EXAMPLE_LINE
from drunagor_log.cli.reference import commands
from tests.conftest import EXAMPLE, snapshot
from tests.store.conftest import git, shared

# --------------------------------------------------------------------------- the command lines


def command_lines() -> list[list[str]]:
    """For every leaf command: its example's last step, its bare form when it needs no parameter, and
    each of them with --dry-run when the command has that option."""
    lines: list[list[str]] = []
    for path, cmd, ctx in commands():
        if hasattr(cmd, "list_commands"):
            continue
        words = path[1:]
        if words == ["serve"]:  # runs until Ctrl-C: tests/serve runs the real server on an unreadable campaign
            continue
        params = cmd.get_params(ctx)
        found = [_last_step(example, words) for example in EXAMPLE_LINE.findall(inspect.cleandoc(cmd.help or ""))]
        forms = [f for f in found[:1] if f]
        assert forms, f"{' '.join(words)}: its help has no Example: line that runs it"
        if not any(p.required for p in params) and words not in forms:
            forms.append(list(words))
        if any("--dry-run" in getattr(p, "opts", ()) for p in params):
            forms += [f + ["--dry-run"] for f in forms if "--dry-run" not in f]
        lines += forms
    return lines


def _last_step(example: str, words: list[str]) -> list[str] | None:
    """`drunagor hero remove Vacrem && drunagor hero add Kellan ...`: the step that runs `words`."""
    for step in reversed(example.split("&&")):
        argv = shlex.split(step)
        if argv[1:1 + len(words)] == words:
            return argv[1:]
    return None


# ----------------------------------------------------------------- what a command line opens

_watched: list[str] = []  # [campaign folder] while a command runs under watch
_touched: list[str] = []


def _audit(event: str, args: tuple) -> None:
    if not _watched or event not in ("open", "os.scandir", "os.listdir") or not args:
        return
    target = args[0]
    if isinstance(target, (str, bytes, os.PathLike)):
        full = os.path.abspath(os.fsdecode(target))
        if full == _watched[0] or full.startswith(_watched[0] + os.sep):
            _touched.append(full)


_hook: list[bool] = []


def _watch(root: Path) -> None:
    if not _hook:  # an audit hook cannot be removed: one for the session, idle unless watching
        sys.addaudithook(_audit)
        _hook.append(True)
    _watched[:] = [os.path.abspath(root)]
    _touched.clear()


def _unwatch() -> bool:
    """Whether the command run since _watch opened anything of the campaign."""
    _watched.clear()
    return bool(_touched)


# ------------------------------------------------------------------------------- the layouts


def campaign(root: Path) -> dict[str, bytes]:
    """The campaign's files and their bytes (git's own files aside: git may refresh its index)."""
    return {k: v for k, v in snapshot(root).items() if not k.startswith(".git/")}


def markers(root: Path) -> Path:
    with open(root / "story.toml", "ab") as f:
        f.write(b"<<<<<<< HEAD\n")
    return root / "story.toml"


def adventures_file(root: Path) -> Path:
    shutil.rmtree(root / "adventures")
    (root / "adventures").write_text("schema = 1\n")
    return root / "adventures"


def dangling_adventure(root: Path) -> Path:
    (root / "adventure.toml").unlink()
    (root / "adventure.toml").symlink_to("/nonexistent/x.toml")
    return root / "adventure.toml"


def planted_journal(origin: Path) -> None:
    (origin / store.JOURNAL).write_text('{"ops":[{"delete":"story.toml"}]}')


LAYOUTS = {"conflict-markers": markers, "adventures-is-a-file": adventures_file,
           "dangling-adventure-link": dangling_adventure, "journal-from-the-repository": None}


@pytest.fixture(scope="module")
def reading_lines(tmp_path_factory) -> list[list[str]]:
    """The command lines that open the campaign when it is intact (the others are excluded)."""
    from typer.testing import CliRunner

    from drunagor_log.cli.app import app

    base = tmp_path_factory.mktemp("intact")
    template = base / "template"
    shutil.copytree(EXAMPLE, template)
    with pytest.MonkeyPatch.context() as mp:
        for name, value in (("NO_COLOR", "1"), ("COLUMNS", "120"), ("GIT_CONFIG_NOSYSTEM", "1"),
                            ("GIT_CONFIG_GLOBAL", os.devnull), ("GIT_AUTHOR_NAME", "A"), ("GIT_COMMITTER_NAME", "A"),
                            ("GIT_AUTHOR_EMAIL", "a@example.org"), ("GIT_COMMITTER_EMAIL", "a@example.org"),
                            ("XDG_CACHE_HOME", str(base / "cache"))):
            mp.setenv(name, value)
        mp.delenv("DRUNAGOR_CAMPAIGN", raising=False)
        git(template, "init", "-q")
        git(template, "add", "-A")
        git(template, "commit", "-q", "-m", "start")
        found = []
        for i, line in enumerate(command_lines()):
            root, elsewhere = base / f"c{i}", base / f"cwd{i}"
            shutil.copytree(template, root)
            elsewhere.mkdir()
            mp.chdir(elsewhere)
            _watch(root)
            try:
                CliRunner().invoke(app, ["-C", str(root), *line])
            finally:
                opened = _unwatch()
            if opened:
                found.append(line)
            shutil.rmtree(root)
    return found


def test_the_rule_excludes_only_commands_that_never_read_the_campaign(reading_lines):
    """The audit hook sees what the commands read: most of the tree reads the campaign, and the few
    left out are the ones that do not (if the hook saw nothing, every command would be excluded)."""
    left_out = {" ".join(line) for line in command_lines() if line not in reading_lines}
    assert len(reading_lines) > 80
    assert {"show", "recruit", "raid", "raid --dry-run", "check", "migrate", "sync"} <= {
        " ".join(line) for line in reading_lines}
    assert "completion bash" in left_out and "list" in left_out


@pytest.mark.posix  # a symbolic link in the layouts
@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_command_that_reads_the_campaign_refuses_an_unreadable_one(tmp_path, git_env, run, reading_lines,
                                                                           layout):
    damage = LAYOUTS[layout]
    if damage is None:
        root = shared(tmp_path, planted_journal)
        bad = root / store.JOURNAL
    else:
        root = shared(tmp_path)
        bad = damage(root)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.chdir(elsewhere)
    before = campaign(root)
    named = (f"error: {store.display(bad)}:", f"{store.display(bad)}:")  # check reports on stdout
    wrong = []
    for line in reading_lines:
        r = run("-C", str(root), *line)
        said = any(told.startswith(named) for told in (r.stderr + r.stdout).splitlines())
        if r.exit_code != 3 or not said or campaign(root) != before:
            wrong.append((" ".join(line), r))
            before = campaign(root)
    assert not wrong, "\n".join(f"{line}: {r!r}" for line, r in wrong)

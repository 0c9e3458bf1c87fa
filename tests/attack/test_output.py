"""The output rule (issue 32, docs/errors.md "The output rule"), over the whole command tree: every command
line of tests/store/test_every_command.py (each leaf command by its help's example, bare, and with
--dry-run; with --json too when it has that option), run on the hostile campaign (tests/attack/hostile.py)
piped, on a colour terminal, and inside `play`. A command added later is walked without touching this file.

What no output may hold: a control character but newline and tab, a bidi or format character, a
separator, a lone surrogate (a byte of a name that is not UTF-8, unescaped), anything that is not UTF-8;
no traceback; only the exit codes docs/errors.md gives (0-4); `--json` is one JSON value.

The in-process runs (CliRunner, whose streams are strict UTF-8, as under en_US.UTF-8) cover the tree; the
installed script, bounded (tests/attack/bounded.py), runs it again on a pseudo-terminal and piped under
C.UTF-8, where Python would write a name's raw bytes (surrogateescape): those runs are marked slow.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.attack import bounded, hostile
from tests.attack.terminal import on_a_terminal
from tests.store.test_every_command import command_lines

EXITS = {0, 1, 2, 3, 4}  # docs/errors.md


def json_commands() -> set[tuple[str, ...]]:
    """The words of every leaf command that has a --json option."""
    from drunagor_log.cli.reference import commands

    return {tuple(path[1:]) for path, cmd, ctx in commands() if not hasattr(cmd, "list_commands")
            and any("--json" in getattr(p, "opts", ()) for p in cmd.get_params(ctx))}


def walk_lines() -> list[list[str]]:
    """Every command line of the walk: test_every_command's, and each with --json when it has it."""
    lines = command_lines()
    with_json = json_commands()
    extra = [line + ["--json"] for line in lines if "--json" not in line
             and any(tuple(line[:len(w)]) == w for w in with_json)]
    return lines + extra


def is_json(line: list[str]) -> bool:
    return "--json" in line


@pytest.fixture(scope="module")
def lines() -> list[list[str]]:
    return walk_lines()


@pytest.fixture(scope="module")
def templates(tmp_path_factory) -> dict[str, Path]:
    """A hostile campaign per layout, built once; each command line runs on a fresh copy."""
    base = tmp_path_factory.mktemp("hostile")
    built = {}
    for layout in hostile.LAYOUTS:
        (base / layout).mkdir()
        built[layout] = hostile.build(base / layout, layout)
    return built


def fresh(template: Path, where: Path) -> Path:
    where.mkdir()
    root = where / template.name
    shutil.copytree(template, root, symlinks=True)
    return root


def layouts() -> list:
    """Every layout of the hostile campaign."""
    return list(hostile.LAYOUTS)


def wrong_output(line: list[str], code: int, out: bytes, err: bytes, *, terminal: bool = False) -> str | None:
    """What breaks the output rule in one run, or None."""
    if code not in EXITS:
        return f"exit {code}"
    try:
        text_out, text_err = out.decode("utf-8"), err.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not UTF-8: {exc}"
    if "Traceback (most recent call last)" in text_out + text_err:
        return "a traceback"
    bad = hostile.raw_controls(text_out + text_err, terminal=terminal)
    if bad:
        return f"raw {', '.join(bad)}"
    if is_json(line) and code == 0 and text_out.strip():
        try:
            json.loads(text_out)
        except ValueError as exc:
            return f"--json is not JSON: {exc}"
    return None


@pytest.fixture
def in_process(monkeypatch):
    """A runner of `drunagor ARGS` in this process, with git's environment the hostile one's."""
    from typer.testing import CliRunner

    from drunagor_log.cli.app import app

    for name, value in hostile.GIT_ENV.items():
        monkeypatch.setenv(name, value)

    def invoke(args: list[str], input: str | None = None):
        r = CliRunner().invoke(app, args, input=input)
        code = r.exit_code
        if r.exception is not None and not isinstance(r.exception, SystemExit):
            code = 99  # an exception the command line let through: a traceback for a user
        return code, r.stdout_bytes, r.stderr_bytes or b"", r

    return invoke


def colour_terminal(monkeypatch) -> None:
    """The facade as on a colour terminal: Rich, with its colours, in place of the plain lines."""
    from rich.console import Console

    from drunagor_log.cli import terminal

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(terminal.Terminal, "rich", property(lambda self: not self.no_color))
    monkeypatch.setattr(terminal.Terminal, "_err_rich", lambda self: not self.no_color)
    monkeypatch.setattr(terminal.term, "_console", Console(force_terminal=True, color_system="standard", width=100,
                                                           highlight=False))
    monkeypatch.setattr(terminal.term, "_stderr_console", Console(stderr=True, force_terminal=True,
                                                                  color_system="standard", width=100,
                                                                  highlight=False))


def walks() -> list:
    """(layout, mode): every layout piped; the fields on a colour terminal too (the other layouts are
    refused the same way whatever the terminal, or differ from the fields only in what they refuse)."""
    return [*((layout, "piped") for layout in layouts()), ("fields", "colour")]


@pytest.mark.posix  # file and folder names that are not UTF-8
@pytest.mark.parametrize(("layout", "mode"), walks())
def test_no_command_writes_a_campaign_byte_a_terminal_acts_on(tmp_path, monkeypatch, in_process, templates, lines,
                                                               layout, mode):
    if mode == "colour":
        colour_terminal(monkeypatch)
    wrong = []
    for i, line in enumerate(lines):
        root = fresh(templates[layout], tmp_path / f"c{i}")
        os.chdir(root.parent)
        code, out, err, r = in_process(["-C", str(root), *line])
        why = wrong_output(line, code, out, err, terminal=mode == "colour")
        if why:
            wrong.append(f"{' '.join(line)}: {why}\n{r.exception!r}\n{out[-400:]!r}\n{err[-400:]!r}")
    assert not wrong, "\n\n".join(wrong)


@pytest.mark.posix
def test_a_log_whose_file_name_is_not_utf8_is_a_file_error_naming_it_escaped(tmp_path, in_process, templates):
    root = fresh(templates["log-name"], tmp_path / "c")
    os.chdir(root.parent)
    for args in (["show"], ["hero", "list"], ["raid", "--dry-run"], ["check"]):
        code, out, err, r = in_process(["-C", str(root), *args])
        said = (out + err).decode("utf-8")
        assert code == 3, (args, r)
        assert "heroes/h\\xffro.toml: file: the file name h\\xffro.toml is not UTF-8 text; rename" in said, said
    code, out, _, _ = in_process(["-C", str(root), "check", "--json"])
    errors = json.loads(out)["errors"]
    assert code == 3 and [e["rule"] for e in errors] == ["file"]
    assert errors[0]["file"].endswith("/heroes/h\\xffro.toml")


@pytest.mark.posix
def test_json_escapes_c1_and_bidi_and_keeps_the_value(tmp_path, in_process, templates):
    root = fresh(templates["fields"], tmp_path / "c")
    os.chdir(root.parent)
    code, out, _, _ = in_process(["-C", str(root), "show", "--json"])
    assert code == 0
    text = out.decode("utf-8")
    assert "\\u009b2J" in text and "\\u202edecoy" in text and "\\u001b]0;PWNED" in text
    assert json.loads(text)["party"] == hostile.HOSTILE  # escaped, not changed


@pytest.mark.posix
@pytest.mark.parametrize("layout", layouts())
def test_play_writes_no_campaign_byte_a_terminal_acts_on(tmp_path, in_process, templates, lines, layout):
    """Every command line of the walk as one `play` script, then the session's own refusals of a line
    holding the hostile text (a quote not closed, `play` inside `play`)."""
    root = fresh(templates[layout], tmp_path / "c")
    os.chdir(root.parent)
    script = [" ".join(_quoted(w) for w in line) for line in lines if line[:1] != ["play"]]
    script += [f'hero show "{hostile.HOSTILE}', f"play {hostile.HOSTILE}", f"monster add '{hostile.HOSTILE}'"]
    code, out, err, r = in_process(["-C", str(root), "play"], input="\n".join(script) + "\n")
    assert wrong_output(["play"], code, out, err) is None, (wrong_output(["play"], code, out, err), r)
    if layout == "log-name":  # the session opens the campaign as every command does, and stops there
        assert code == 3 and "h\\xffro.toml: file: the file name h\\xffro.toml is not UTF-8" in err.decode()
    else:
        assert "a quote is not closed: hero show \"<U+001B>]0;PWNED<U+0007>" in err.decode()


def _quoted(word: str) -> str:
    import shlex

    return shlex.quote(word)


# --------------------------------------------------------------- the installed script, bounded (slow)

def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "XDG_CACHE_HOME": str(home / "cache"), "COLUMNS": "100",
           **hostile.GIT_ENV, **extra}
    return env


@pytest.mark.slow
@pytest.mark.posix
def test_on_a_pseudo_terminal_no_command_writes_a_campaign_byte_a_terminal_acts_on(tmp_path, templates, lines):
    wrong = []
    env = _env(tmp_path, TERM="xterm-256color", LC_ALL="C.UTF-8")
    for i, line in enumerate(line for line in lines if line[:1] != ["play"]):  # play: below
        root = fresh(templates["fields"], tmp_path / f"c{i}")
        seen = on_a_terminal([bounded.drunagor_script(), "-C", str(root), *line], env=env, cwd=root.parent,
                             surface="output (terminal)")
        why = "timed out" if seen.timed_out else wrong_output(line, seen.returncode, seen.output, b"", terminal=True)
        if why and not (is_json(line) and why.startswith("--json")):  # a terminal's JSON is Rich-free but \r\n
            wrong.append(f"{' '.join(line)}: {why}\n{seen.output[-400:]!r}")
    assert not wrong, "\n\n".join(wrong)


@pytest.mark.slow
@pytest.mark.posix
def test_play_on_a_pseudo_terminal_shows_the_campaign_as_text(tmp_path, templates):
    """The table session as a player has it: prompt_toolkit's prompt and toolbar (the party's name, the
    adventure), lines typed ahead, the session's own refusal, then exit. The line editor writes its own
    escape sequences, so the hostile ones are looked for by their bytes."""
    root = fresh(templates["fields"], tmp_path / "c")
    typed = ["show", "hero show Nyx", "adventure show", "history", f'hero show "{hostile.HOSTILE[:8]}', "exit"]
    seen = on_a_terminal([bounded.drunagor_script(), "-C", str(root), "play"], cwd=root.parent,
                         env=_env(tmp_path, TERM="xterm-256color", LC_ALL="C.UTF-8"), surface="output (play)",
                         keys="".join(t + "\r" for t in typed).encode())
    assert not seen.timed_out and seen.returncode == 0, seen.output[-2000:]
    assert b"<U+001B>]0;PWNED<U+0007>" in seen.output  # the commands ran and showed the party
    assert b"a quote is not closed" in seen.output
    assert not hostile.raw_pieces(seen.output), (hostile.raw_pieces(seen.output), seen.output[-2000:])
    assert b"Traceback" not in seen.output


@pytest.mark.slow
@pytest.mark.posix
@pytest.mark.parametrize("layout", ["fields", "log-name"])
def test_piped_under_c_utf8_every_name_is_escaped_never_raw_bytes(tmp_path, templates, layout):
    """Under C.UTF-8 Python writes a name's undecodable bytes back as they were (surrogateescape): only
    the facade's escaping keeps stdout valid UTF-8."""
    wrong = []
    env = _env(tmp_path, LC_ALL="C.UTF-8", NO_COLOR="1")
    for i, line in enumerate([["show"], ["show", "--json"], ["check"], ["check", "--json"], ["hero", "list"],
                              ["history"], ["undo", "--dry-run"], ["adventure", "show"], ["sheet", "--out", "-"]]):
        root = fresh(templates[layout], tmp_path / f"c{i}")
        r = bounded.run([bounded.drunagor_script(), "-C", str(root), *line], env=env, cwd=root.parent,
                        surface="output (piped, C.UTF-8)")
        why = "timed out" if r.timed_out else wrong_output(line, r.returncode, r.stdout_bytes, r.stderr_bytes)
        if why:
            wrong.append(f"{' '.join(line)}: {why}\n{r.stdout[-400:]!r}\n{r.stderr[-400:]!r}")
    assert not wrong, "\n\n".join(wrong)

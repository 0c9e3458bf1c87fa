"""What the user types, whole (issue 41; docs/errors.md "Limits"): every text and path parameter of the
command tree, found by walking it from the app (a parameter added later is attacked the day it is
added), given hostile values, and the one rule held:

- a text that is not UTF-8, or longer than the longest text a campaign file holds (MAX_TEXT), is
  refused before the command runs: exit 2, one message, the campaign byte for byte as before;
- a path the system refuses as too long is exit 2 with the system's message;
- any other value (empty, just under the limit, a stranger's control characters, another script) ends
  without a traceback in 0, 1 or 2; on a refusal nothing is written, and after every write `check` still
  reads the campaign (no exit 3): the store refuses a write its own reader would refuse (NotWritten).

In process (CliRunner), with a bounded few through the installed script (bounded.py)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import typer.main
from typer import _click as click
from typer.models import TyperPath

from drunagor_log.store import MAX_TEXT
from tests.attack import bounded, hostile
from tests.conftest import EXAMPLE, snapshot
from tests.store.test_every_command import command_lines

NOT_UTF8 = os.fsdecode(b"Band\xff\xfe")
OVER = "A" * (MAX_TEXT + 1)
TOO_LONG_NAME = "x" * 300  # one folder name past every file system's 255 bytes
REFUSED_TEXTS = {"not UTF-8": NOT_UTF8, "over the limit": OVER}
# "just under the limit": accepted by the command line, and longer once a command writes it in a sentence.
OTHER_TEXTS = {"empty": "", "just under the limit": "A" * (MAX_TEXT - 5), "hostile": hostile.HOSTILE,
               "another script": "Łucja ☃ 😀"}
# Never run with a value they take: they run until stopped (serve) or read a session from stdin (play).
LONG_RUNNING = {("serve",), ("play",)}


def _is_path(param: click.Parameter) -> bool:
    return isinstance(param.type, TyperPath) or any(w in (param.metavar or "") for w in ("PATH", "FILE"))


def typed_parameters() -> list[tuple[tuple[str, ...], click.Parameter]]:
    """Every text and path parameter of the command tree (the global -C at ()), with the words of its command."""
    from drunagor_log.cli.app import build_app

    found = []

    def walk(command, path):
        found.extend((path, p) for p in command.params
                     if isinstance(p.type, (click.types.StringParamType, TyperPath)))
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*path, name))

    walk(typer.main.get_command(build_app()), ())
    return found


PARAMETERS = typed_parameters()
TEXTS = [(path, p) for path, p in PARAMETERS if not _is_path(p)]
PATHS = [(path, p) for path, p in PARAMETERS if _is_path(p)]
LINES = command_lines()


def _id(path: tuple[str, ...], param: click.Parameter) -> str:
    return f"{' '.join(path) or 'drunagor'} {param.name}"


def _command(path: tuple[str, ...]):
    from drunagor_log.cli.app import build_app

    cmd = typer.main.get_command(build_app())
    for word in path:
        cmd = cmd.commands[word]
    return cmd


def typed_line(path: tuple[str, ...], param: click.Parameter, value: str) -> list[str]:
    """The command line that gives `value` to `param` before anything else (click converts the
    parameters in the order they are typed, so the refusal comes first)."""
    if not path:  # the global option
        return [param.opts[0], value, "show"]
    if param.param_type_name == "argument":
        return [*path, "--", value]
    return [*path, param.opts[0], value]


def full_line(path: tuple[str, ...], param: click.Parameter, value: str) -> list[str] | None:
    """The command's own example line (its help's, as test_every_command runs it) with `value` in the
    place of `param`'s; None when the example does not give that argument."""
    if not path:
        return [param.opts[0], value, "show"]
    example = next((line for line in LINES if tuple(line[:len(path)]) == path), None)
    if example is None:
        return None
    words, rest = list(path), list(example[len(path):])
    if param.param_type_name == "option":
        for i, word in enumerate(rest):
            if word in param.opts and i + 1 < len(rest):
                return [*words, *rest[:i + 1], value, *rest[i + 2:]]
            if any(word.startswith(f"{opt}=") for opt in param.opts):
                return [*words, *rest[:i], f"{word.partition('=')[0]}={value}", *rest[i + 1:]]
        return [*words, *rest, param.opts[0], value]
    ctx = _command(path).make_context(path[-1], list(rest), resilient_parsing=True)
    given = ctx.params.get(param.name)
    given = given[0] if isinstance(given, tuple) and given else given
    if not isinstance(given, str):
        return None
    for i, word in enumerate(rest):
        if word == given:  # no hostile value starts with "-": it stays an argument where it stands
            return [*words, *rest[:i], value, *rest[i + 1:]]
    return None


# ------------------------------------------------------------------------------------------ running


@pytest.fixture
def invoke(monkeypatch):
    """`drunagor ARGS` in this process: (exit code, stdout, stderr); 99 for an exception let through."""
    from typer.testing import CliRunner

    from drunagor_log.cli.app import app

    for name, value in hostile.GIT_ENV.items():
        monkeypatch.setenv(name, value)

    def run(args: list[str]) -> tuple[int, str, str]:
        r = CliRunner().invoke(app, args)
        code = r.exit_code
        if r.exception is not None and not isinstance(r.exception, SystemExit):
            code = 99
        return code, r.stdout, r.stderr

    return run


def fresh(where: Path) -> Path:
    if where.exists():
        shutil.rmtree(where)
    shutil.copytree(EXAMPLE, where)
    return where


def prepare(path: tuple[str, ...], root: Path, invoke) -> None:
    """What a command's example line needs beside the campaign: `import`'s token.txt (its example)."""
    if path == ("import",):  # the token of a party of Nyx alone, as the example imports it
        solo = root.parent.parent / "solo"
        shutil.copytree(root, solo)
        for name in ("heroes/andreas.toml", "heroes/catharina.toml", "heroes/vacrem.toml", "adventure.toml"):
            (solo / name).unlink()
        code, out, _ = invoke(["-C", str(solo), "export"])
        assert code == 0
        Path("token.txt").write_text(out)
        shutil.rmtree(solo)


def campaign(root: Path) -> dict[str, bytes]:
    return {k: v for k, v in snapshot(root).items() if not k.startswith(".git/")}


def test_the_walk_finds_every_text_and_path_parameter_and_each_has_the_rule():
    from drunagor_log.cli.common import Text

    names = {_id(path, p) for path, p in PARAMETERS}
    assert {"party name", "hero learn skill", "hero ability ability_", "hero relearn new", "hero set player",
            "chest add card", "card set name", "battalion near", "new party", "drunagor campaign", "new dir",
            "list dir", "sheet out"} <= names, sorted(names)
    assert len(TEXTS) >= 120 and len(PATHS) >= 5
    assert all(isinstance(p.type, Text) for _, p in TEXTS), [_id(path, p) for path, p in TEXTS
                                                             if not isinstance(p.type, Text)]


# ------------------------------------------------------------------------------------ refused: exit 2


@pytest.mark.parametrize(("path", "param"), TEXTS, ids=[_id(p, q) for p, q in TEXTS])
def test_every_text_parameter_refuses_what_no_campaign_file_holds(tmp_path, invoke, path, param):
    root = fresh(tmp_path / "campaigns" / "ex")
    before = campaign(root)
    for what, value in REFUSED_TEXTS.items():
        code, out, err = invoke(["-C", str(root), *typed_line(path, param, value)])
        assert code == 2, (what, code, out, err[-500:])
        assert "Traceback" not in out + err
        says = "is not UTF-8 text" if value is NOT_UTF8 else f"longer than the {MAX_TEXT} characters"
        assert "Invalid value for" in err and says in err, (what, err[-500:])
        assert "\udcff" not in err and "\\xff\\xfe" in err if value is NOT_UTF8 else True
        assert campaign(root) == before, what


@pytest.mark.parametrize(("path", "param"), PATHS, ids=[_id(p, q) for p, q in PATHS])
def test_a_path_too_long_for_the_file_system_is_exit_2_with_its_message(tmp_path, invoke, path, param):
    if "TOKEN" in (param.metavar or ""):
        pytest.skip("a token or its file: a long word that names no file is read as a token (exit 3, tests/interop)")
    root = fresh(tmp_path / "campaigns" / "ex")
    prepare(path, root, invoke)
    before = campaign(root)
    line = full_line(path, param, TOO_LONG_NAME)
    assert line is not None
    code, out, err = invoke(["-C", str(root), *line] if path else line)
    assert code == 2, (line[:4], code, out, err)
    assert "Traceback" not in out + err
    assert "File name too long" in err or "holds no story.toml" in err, err
    assert campaign(root) == before


# ----------------------------------------------------------------- any other value: the reader's rule


def _other_values(param: click.Parameter) -> dict[str, str]:
    if _is_path(param):
        return {"not UTF-8": os.fsdecode(b"camp-\xff"), "empty": ""}
    return OTHER_TEXTS


@pytest.mark.parametrize(("path", "param"), PARAMETERS, ids=[_id(p, q) for p, q in PARAMETERS])
def test_no_typed_value_makes_a_campaign_drunagor_cannot_read(tmp_path, invoke, path, param):
    if path in LONG_RUNNING:
        pytest.skip("runs until stopped: its values are refused above, before it starts")
    root = tmp_path / "campaigns" / "ex"
    fresh(root)
    prepare(path, root, invoke)
    before = campaign(root)
    ran = 0
    for what, value in _other_values(param).items():
        line = full_line(path, param, value)
        if line is None:
            continue
        ran += 1
        code, out, err = invoke(["-C", str(root), *line] if path else line)
        assert code in (0, 1, 2), (what, line[:3], code, out[-300:], err[-500:])
        assert "Traceback" not in out + err
        after = campaign(root)
        if code != 0:
            assert after == before, (what, line[:3], "written on a refusal", err[-300:])
        elif after != before:
            checked, out, err = invoke(["-C", str(root), "check"])
            assert checked != 3, (what, line[:3], "check cannot read what was written", out[-500:])
            fresh(root)
    assert ran or param.param_type_name == "argument", "no line gives this option a value"


def test_most_arguments_are_reached_by_the_examples():
    """The example lines give almost every argument a value to replace: the walk above is not empty."""
    missing = [_id(path, p) for path, p in PARAMETERS
               if path and path not in LONG_RUNNING and full_line(path, p, "x") is None]
    assert len(missing) <= 12, missing


# --------------------------------------------------------------- the reproductions of the issue, exact


@pytest.mark.parametrize("line, file, says", [
    (["battalion", "Vile Spawn", "--near", "A" * (MAX_TEXT - 5)], "adventure.toml", "a text longer than 10000"),
    (["hero", "ability", "Nyx", ""], "heroes/nyx.toml", "`class_abilities` must list names as text, found ''"),
])
def test_the_store_refuses_a_write_its_reader_would_refuse(tmp_path, invoke, line, file, says):
    root = fresh(tmp_path / "campaigns" / "ex")
    before = campaign(root)
    code, out, err = invoke(["-C", str(root), *line])
    assert code == 2, err
    assert err.startswith(f"error: {root.relative_to(tmp_path).as_posix()}/{file}: ") or f"/{file}: " in err
    assert "not written, as drunagor could not read the file back: " in err and says in err, err
    assert "nothing was written" in err
    assert campaign(root) == before


@pytest.mark.parametrize("line", [
    ["party", OVER], ["hero", "learn", "Nyx", OVER], ["hero", "ability", "Nyx", OVER],
    ["hero", "relearn", "Nyx", "Agility 1", OVER], ["hero", "set", "Nyx", "--player", OVER],
    ["chest", "add", OVER, "--type", "potion", "--rarity", "rare"],
    ["card", "set", OVER, "--type", "potion", "--rarity", "rare"], ["battalion", "Vile Spawn", "--near", OVER],
    ["party", NOT_UTF8], ["hero", "learn", "Nyx", NOT_UTF8], ["hero", "set", "Nyx", "--player", NOT_UTF8],
    ["chest", "add", NOT_UTF8], ["card", "set", NOT_UTF8, "--type", "potion"],
    ["battalion", "Vile Spawn", "--near", NOT_UTF8],
], ids=lambda line: " ".join(w[:12] for w in line))
def test_the_issues_lines_are_refused_and_the_campaign_still_opens(tmp_path, invoke, line):
    root = fresh(tmp_path / "campaigns" / "ex")
    before = campaign(root)
    code, out, err = invoke(["-C", str(root), *line])
    assert code == 2 and "Invalid value for" in err, err[-400:]
    assert campaign(root) == before
    assert invoke(["-C", str(root), "show"])[0] == 0


def test_new_party_not_utf8_writes_no_folder(tmp_path, invoke):
    code, out, err = invoke(["new", "x", "--party", NOT_UTF8, "--dir", str(tmp_path / "here")])
    assert code == 2 and "'Band\\xff\\xfe' is not UTF-8 text" in err
    assert not (tmp_path / "here").exists()


# ------------------------------------------------------------------- through the installed script


@pytest.mark.posix
@pytest.mark.parametrize("args", [
    ["party", NOT_UTF8], ["party", OVER], ["-C", TOO_LONG_NAME, "show"], ["new", "x", "--dir", TOO_LONG_NAME],
    ["list", "--dir", TOO_LONG_NAME], ["sheet", "--out", TOO_LONG_NAME],
], ids=["party not UTF-8", "party over the limit", "-C too long", "new --dir too long", "list --dir too long",
        "sheet --out too long"])
def test_the_installed_script_refuses_with_exit_2(tmp_path, args):
    root = fresh(tmp_path / "campaigns" / "ex")
    before = campaign(root)
    env = {**os.environ, "NO_COLOR": "1", "LC_ALL": "C.UTF-8", "XDG_CACHE_HOME": str(tmp_path / "cache")}
    argv = [os.fsencode(a) for a in (args if args[0] == "-C" else ["-C", str(root), *args])]
    outcome = bounded.run([os.fsencode(bounded.drunagor_script()), *argv], surface="typed values", cwd=tmp_path,
                          env=env)
    assert not outcome.timed_out
    assert outcome.returncode == 2, outcome.stderr
    assert "Traceback" not in outcome.stderr
    assert outcome.stderr_bytes.decode("utf-8")  # one clear message, in UTF-8
    assert campaign(root) == before

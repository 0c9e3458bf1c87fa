"""The check corpus (after hledger's test/errors/): one small broken campaign per `check` rule and per
kind of unreadable file, with the exact output of `drunagor check` and its exit code.

Each folder under tests/errors/ is one case, a fresh copy of campaigns/example changed as it says:

    case.toml      rule = "the rule the output shows"; then what differs from the example:
                   [[replace]] file, old, new (text replaced once; `old` must be there),
                   delete = [paths], mkdir = [paths], [[write]] file, text (a whole file, made
                   here: one git cannot hold, such as .git/config), args = [...] (default ["check"])
    files/...      whole files laid over the copy, byte for byte (bad encodings, a BOM)
    expected.txt   line 1: the exit code; then exactly what `drunagor check` prints, stdout and
                   stderr together as a terminal shows them

A case named after a registered check (drunagor_log/checks, REGISTRY) must exist for every one.
"""

from __future__ import annotations

import io
import shutil
import tomllib
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from tests.conftest import EXAMPLE, command

HERE = Path(__file__).parent
CASES = sorted(p for p in HERE.iterdir() if (p / "case.toml").is_file())


def build(case: Path, dest: Path) -> dict:
    """A copy of the example at dest/campaigns/example, changed as case.toml says."""
    spec = tomllib.loads((case / "case.toml").read_text(encoding="utf-8"))
    root = dest / "campaigns" / "example"
    shutil.copytree(EXAMPLE, root)
    for edit in spec.get("replace", []):
        path = root / edit["file"]
        text = path.read_text(encoding="utf-8")
        assert edit["old"] in text, f"{case.name}: {edit['old']!r} is no longer in campaigns/example/{edit['file']}"
        path.write_text(text.replace(edit["old"], edit["new"], 1), encoding="utf-8")
    for rel in spec.get("delete", []):
        path = root / rel
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    for rel in spec.get("mkdir", []):
        (root / rel).mkdir(parents=True)
    for made in spec.get("write", []):
        (root / made["file"]).parent.mkdir(parents=True, exist_ok=True)
        (root / made["file"]).write_text(made["text"], encoding="utf-8")
    files = case / "files"
    if files.is_dir():
        for src in sorted(files.rglob("*")):
            if src.is_file():
                target = root / src.relative_to(files)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(src.read_bytes())
    return spec


def drunagor(args: list[str]) -> tuple[int, str]:
    """Run the CLI in process: the exit code, and stdout and stderr in the order they were written."""
    from drunagor_log.cli.app import app

    out, code = io.StringIO(), 0
    with redirect_stdout(out), redirect_stderr(out):
        try:
            command(app)(args=args, prog_name="drunagor")
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return code, out.getvalue()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_check_prints_exactly_the_expected_output(case, tmp_path, monkeypatch):
    spec = build(case, tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out = drunagor(spec.get("args", ["check"]))
    expected = (case / "expected.txt").read_text(encoding="utf-8")
    want_code, _, want_out = expected.partition("\n")
    assert (code, out) == (int(want_code), want_out)
    assert f": {spec['rule']}: " in want_out, f"{case.name}: the output should show the rule {spec['rule']!r}"


def test_every_registered_check_has_a_case():
    from drunagor_log.checks.registry import REGISTRY, _load_registry

    _load_registry()
    names = {c.name for c in CASES}
    assert sorted({chk.name for chk in REGISTRY} - names) == []


def test_every_case_has_its_expected_output():
    folders = [p for p in HERE.iterdir() if p.is_dir() and p.name != "__pycache__"]
    assert [p.name for p in folders if not (p / "case.toml").is_file() or not (p / "expected.txt").is_file()] == []

"""The pre-commit configuration loads: it is YAML, and its hooks say what .ci/run runs (issue 35: an
unquoted `entry:` holding ': ' kept `pre-commit run` from starting). .ci/run also has pre-commit itself
validate it."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / ".pre-commit-config.yaml"


def hooks() -> dict[str, dict]:
    data = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    return {hook["id"]: hook for repo in data["repos"] for hook in repo["hooks"]}


def test_the_config_is_yaml_with_the_two_local_hooks():
    found = hooks()
    assert sorted(found) == ["reference", "ruff"]
    assert found["ruff"]["entry"] == "ruff check --force-exclude"
    assert all(hook["language"] == "system" for hook in found.values())


def test_the_reference_hook_passes_on_the_committed_reference_and_fails_on_a_stale_one(tmp_path):
    words = shlex.split(hooks()["reference"]["entry"])
    assert words[:2] == ["bash", "-c"]
    script = words[2]
    venv = str(Path(__import__("sys").executable).parent)
    env = {"PATH": f"{venv}:/usr/bin:/bin"}
    ok = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert (ok.returncode, ok.stdout) == (0, "")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "reference.md").write_text("stale\n", encoding="utf-8")
    env["PYTHONPATH"] = str(ROOT)
    stale = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=60)
    assert stale.returncode == 1
    assert stale.stdout == ("docs/reference.md is stale: python -m drunagor_log.cli.reference > "
                            "docs/reference.md\n")

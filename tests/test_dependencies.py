"""The dependencies' bounds (issue 40): an upper bound only where a newer release is known to break
drunagor, with that reason written beside it; and the hosted workflow's job that installs the newest
release of every dependency and runs the fast tests, so that a break is seen the week it ships."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def test_every_upper_bound_of_a_dependency_gives_its_reason():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    deps = tomllib.loads(text)["project"]["dependencies"]
    comments = "\n".join(line for line in text[:text.index("dependencies = [")].splitlines() if line.startswith("#"))
    bounded = {re.match(r"[A-Za-z0-9_.-]+", d).group(0): d for d in deps if "<" in d}
    assert sorted(bounded) == ["typer"]  # each one measured: see the comment
    for name, spec in bounded.items():
        upper = re.search(r"<\s*([0-9.]+)", spec).group(1)
        assert re.search(rf"(?i){name} <{re.escape(upper)}, measured", comments), spec


def test_the_workflow_runs_the_fast_tests_on_the_newest_dependencies():
    flow = yaml.safe_load((ROOT / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8"))
    job = flow["jobs"]["newest"]
    script = "\n".join(step.get("run", "") for step in job["steps"])
    assert "pip install -q --upgrade --upgrade-strategy eager -e '.[test]'" in script
    assert ".venv/bin/pip check" in script
    assert '.venv/bin/python -m pytest -m "not slow"' in script
    on = flow[True] if True in flow else flow["on"]  # YAML 1.1 reads the key `on` as true
    assert on["schedule"] == [{"cron": "17 5 * * 1"}]

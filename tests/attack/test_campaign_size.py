"""A campaign within its limits answers in seconds (issue 46 item 2), through the installed script,
each run bounded (tests/attack/bounded.py: a quadratic blow-up fails the run, not the machine): `check`
on a log of 3,000 unknown statuses (each a finding with its own line: 27 s when each finding re-read
the list and re-split the file), `show` and `check` on 500 Campaign Logs that each hold a Spoils card
another hero earned, and the limit past which no command reads the folder at all. The figures are
tests/benchmarks/campaign_size.py's."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from drunagor_log import store
from tests.attack import bounded
from tests.benchmarks.campaign_size import logs_campaign, statuses_campaign
from tests.conftest import snapshot

pytestmark = pytest.mark.slow

SURFACE = "campaign size"


def drunagor(root: Path, *args: str) -> bounded.Outcome:
    out = bounded.drunagor("-C", str(root), *args, surface=SURFACE, cwd=root.parent)
    assert not out.timed_out, out
    assert "Traceback" not in out.stderr, out.stderr
    return out


def test_check_names_the_line_of_each_of_3000_unknown_statuses(tmp_path):
    root = statuses_campaign(tmp_path, 3000)
    out = drunagor(root, "check", "--json")
    problems = [p for p in json.loads(out.stdout)["warnings"] if p["rule"] == "unknown-name"]
    assert [(p["line"], p["message"].split("'")[1]) for p in problems] == [
        (8 + i, f"Status {i:04d}") for i in range(3000)]


def test_500_campaign_logs_count_each_handed_spoils_card_for_its_earner(tmp_path):
    root = logs_campaign(tmp_path, 500)
    # each holds a card the next one earned: Hero 0000 gives back the one Hero 0001 earned, who owes it
    first = root / "heroes" / "hero-0000.toml"
    first.write_text("\n".join(ln for ln in first.read_text().split("\n") if "Astral Symbol" not in ln))
    out = drunagor(root, "show", "--json")
    heroes = json.loads(out.stdout)["heroes"]
    assert len(heroes) == 500
    assert [h["name"] for h in heroes if h["owes"]["spoils"]] == ["Hero 0001"]
    assert not any(h["excess"]["spoils"] for h in heroes)
    assert drunagor(root, "check").returncode == 1  # 500 active heroes: max_heroes and the roles


def test_past_500_campaign_logs_no_command_reads_them(tmp_path):
    root = logs_campaign(tmp_path, 500)
    shutil.copy(root / "heroes" / "hero-0000.toml", root / "heroes" / "one-more.toml")
    before = {p.name: p.read_bytes() for p in (root / "heroes").iterdir()}
    for args in (["show"], ["check"], ["hero", "list"], ["party", "Too Many"]):
        out = drunagor(root, *args)
        assert (out.returncode, out.stdout, out.stderr) == (3, "", (
            f"error: {store.display(root / 'heroes')}: limits: more than 500 .toml files in heroes/ (the Campaign "
            "Logs); a campaign holds at most 500; move the files that are not this campaign's out of the "
            "folder\n")), args
    assert {p.name: p.read_bytes() for p in (root / "heroes").iterdir()} == before


def test_a_501st_campaign_log_is_refused_before_it_is_written(tmp_path):
    root = logs_campaign(tmp_path, 500)
    for log in (root / "heroes").iterdir():  # all left the party: the rules would let one more join
        log.write_text(log.read_text().replace('joined = "01"\n', 'joined = "01"\nretired = true\n'))
    before = snapshot(root)
    out = drunagor(root, "hero", "add", "One More", "--class", "Mage", "--role", "Controller")
    assert (out.returncode, out.stdout, out.stderr) == (3, "", (
        f"error: {store.display(root / 'heroes')}: limits: more than 500 .toml files in heroes/ (the Campaign Logs); "
        "a campaign holds at most 500; nothing was written; move the files that are not this campaign's out of "
        "the folder\n"))
    assert snapshot(root) == before

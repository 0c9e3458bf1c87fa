"""Waiting is visible (issue 35.4): a command that waits for the campaign's lock says so after half a
second, one-shot and in the session, and then runs as it would have."""

from __future__ import annotations

import subprocess
import sys

from tests.play.runner import script

HOLD = ("import sys, time\nfrom pathlib import Path\nfrom drunagor_log.store import CampaignLock\n"
        "with CampaignLock(Path(sys.argv[1])):\n    print('held', flush=True)\n    time.sleep(1.5)\n")


def waited(example, args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess:
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(example)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        return subprocess.run([script(), "-C", str(example), *args], input=stdin, capture_output=True, text=True,
                              timeout=60)
    finally:
        holder.wait(timeout=20)


def test_a_one_shot_command_says_it_waits_for_a_writer(example, run):
    alone = run("-C", str(example), "odds")
    got = waited(example, ["odds"])
    assert (got.returncode, got.stdout) == (0, alone.stdout)
    assert got.stderr == "waiting for another drunagor command to finish writing campaigns/example (at most 10 s) ...\n"


def test_a_writer_says_it_waits_too(example):
    got = waited(example, ["monster", "add", "Horde"])
    assert got.returncode == 0, got.stderr
    # it reads first (a shared lock, which only a writer keeps out), and says it once
    assert got.stderr == "waiting for another drunagor command to finish writing campaigns/example (at most 10 s) ...\n"


def test_a_line_of_the_session_says_it_waits(example, run):
    alone = run("-C", str(example), "odds")
    got = waited(example, ["play"], stdin="odds\n")
    assert (got.returncode, got.stdout) == (0, alone.stdout)  # odds printed as the one-shot command prints it
    assert got.stderr == "waiting for another drunagor command to finish writing campaigns/example (at most 10 s) ...\n"


def test_no_wait_says_nothing(example):
    got = subprocess.run([script(), "-C", str(example), "odds"], capture_output=True, text=True, timeout=60)
    assert (got.returncode, got.stderr) == (0, "")

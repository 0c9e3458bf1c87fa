"""The `slow` marker's promise (tests/conftest.py): a test without it starts no process, so that
`pytest -m "not slow"` runs in a minute; one that does fails, saying to mark it."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_a_quick_test_that_starts_a_process_fails_saying_so():
    with pytest.raises(AssertionError, match=r"this test starts a process: mark it @pytest\.mark\.slow"):
        subprocess.run([sys.executable, "-c", "pass"], check=True)


@pytest.mark.slow
def test_a_slow_test_may_start_one():
    assert subprocess.run([sys.executable, "-c", "print('started')"], capture_output=True,
                          text=True, check=True).stdout == "started\n"

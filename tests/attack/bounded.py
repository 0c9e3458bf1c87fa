"""Run a program under time and memory limits, as the attack suites need: the installed `drunagor`
script (or git, or a shell) in a subprocess with an address-space cap, a CPU cap and a wall-clock
timeout, and report what it cost (wall time, peak resident memory of the child).

Every attack suite asserts through this module that a hostile input ends in bounded time and memory;
`worst()` keeps the worst figures seen per front end, and `tests/attack/conftest.py` prints them at the
end of the run (the figures the closing notes quote)."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

# Generous for one command of a board-game tool, tight enough that a quadratic blow-up or an
# unbounded read fails the test instead of the machine.
WALL_SECONDS = 20.0
CPU_SECONDS = 15
ADDRESS_SPACE = 1024 * 1024 * 1024  # 1 GiB of virtual memory


@dataclass
class Outcome:
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    peak_kib: int  # peak resident set of the child, KiB (Linux ru_maxrss)
    timed_out: bool
    stdout_bytes: bytes = b""  # as written, for a test of the bytes themselves (valid UTF-8)
    stderr_bytes: bytes = b""


_WORST: dict[str, tuple[float, int, int]] = {}


def drunagor_script() -> str:
    """The installed console script beside this interpreter (the venv's), as a user runs it."""
    here = Path(sys.executable).parent
    for name in ("drunagor", "drunagor.exe"):
        if (here / name).exists():
            return str(here / name)
    found = shutil.which("drunagor")
    assert found, "the drunagor script is not installed in this environment"
    return found


def _limits(cpu: int, address_space: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
        os.setsid()  # its own process group, so a timeout kills everything it started

    return apply


def run(args: list[str], *, surface: str, cwd: Path | str | None = None, env: dict[str, str] | None = None,
        input: bytes | str | None = None, wall: float = WALL_SECONDS, cpu: int = CPU_SECONDS,
        address_space: int = ADDRESS_SPACE) -> Outcome:
    """Run args bounded; record its cost under `surface` (e.g. "import", "sheet", "merge driver")."""
    data = input.encode() if isinstance(input, str) else input
    start = time.perf_counter()
    proc = subprocess.Popen(args, cwd=cwd, env=env, stdin=subprocess.PIPE if data is not None else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_limits(cpu, address_space))
    timed_out = False
    try:
        out, err = proc.communicate(data, timeout=wall)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, 9)
        out, err = proc.communicate()
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # an upper bound over children so far
    outcome = Outcome(proc.returncode, out.decode(errors="replace"), err.decode(errors="replace"),
                      seconds, peak, timed_out, out, err)
    record(surface, seconds, peak)
    return outcome


def record(surface: str, seconds: float, peak_kib: int, runs: int = 1) -> None:
    """Count bounded runs of `surface` that did not go through run() (a shell in a pseudo-terminal)."""
    worst = _WORST.get(surface, (0.0, 0, 0))
    _WORST[surface] = (max(worst[0], seconds), max(worst[1], peak_kib), worst[2] + runs)


def drunagor(*args: str, surface: str, **kw) -> Outcome:
    return run([drunagor_script(), *args], surface=surface, **kw)


def worst() -> dict[str, tuple[float, int, int]]:
    """surface -> (worst wall seconds, peak KiB bound, runs)."""
    return dict(_WORST)

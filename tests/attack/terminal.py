"""One command on a pseudo-terminal, as a player runs it in a terminal window: stdout and stderr are the
terminal (so Rich draws its colours), under the same limits as bounded.py's runs, with a deadline."""

from __future__ import annotations

import os
import resource
import select
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from . import bounded
from .ptyshell import fork_bounded


@dataclass
class Seen:
    returncode: int
    output: bytes  # what the terminal received, stdout and stderr together
    timed_out: bool


def on_a_terminal(argv: list[str], *, env: dict[str, str], cwd: Path, surface: str, keys: bytes = b"",
                  wall: float = bounded.WALL_SECONDS) -> Seen:
    """Run argv on a new pseudo-terminal of 100 x 50, typing `keys` at it (as typed ahead), until it ends
    or `wall` seconds pass (then it is killed)."""
    start = time.perf_counter()
    pid, fd = fork_bounded(argv, env, cwd, rows=50, columns=100)
    if keys:
        os.write(fd, keys)
    output, timed_out = b"", False
    try:
        while True:
            left = wall - (time.perf_counter() - start)
            if left <= 0:
                timed_out = True
                os.kill(pid, signal.SIGKILL)
                break
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: the program ended and closed the terminal
                break
            if not chunk:
                break
            output += chunk
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    bounded.record(surface, time.perf_counter() - start, peak)
    return Seen(os.waitstatus_to_exitcode(status), output, timed_out)

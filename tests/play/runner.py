"""The installed `drunagor` run as a subprocess, bounded: through tests/attack/bounded.py (time, CPU and
memory limits) where the system has them, else with a wall-clock timeout alone (Windows)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

try:
    from tests.attack import bounded
except ImportError:  # no `resource` module (Windows)
    bounded = None  # type: ignore[assignment]

WALL_SECONDS = 20.0


def script() -> str:
    here = Path(sys.executable).parent
    for name in ("drunagor", "drunagor.exe"):
        if (here / name).exists():
            return str(here / name)
    raise AssertionError("the drunagor script is not installed in this environment")


def run(args: list[str], *, input: str | bytes | None = None, **kw: Any) -> Any:
    """returncode, stdout, stderr (text) of a bounded run of `args`."""
    if bounded is not None:
        return bounded.run(args, surface="play", input=input, **kw)
    data = input.encode() if isinstance(input, str) else input
    proc = subprocess.run(args, input=data, capture_output=True, timeout=WALL_SECONDS,
                          stdin=None if data is not None else subprocess.DEVNULL, **kw)
    def text(raw: bytes) -> str:
        return raw.decode(errors="replace").replace("\r\n", "\n")

    return SimpleNamespace(returncode=proc.returncode, stdout=text(proc.stdout), stderr=text(proc.stderr))


def drunagor(*args: str, **kw: Any) -> Any:
    return run([script(), *args], **kw)

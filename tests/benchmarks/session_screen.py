"""Enter to the next prompt in the table session, as a player sees it (issue 35.5): `drunagor play` in a
24x80 pseudo-terminal on a copy of campaigns/example, its output read by a screen emulator (pyte); a
line is typed, and the time runs from its Enter to the screen showing the next empty prompt with the
toolbar drawn under it.

    python tests/benchmarks/session_screen.py [--runs N] [--before PATH/TO/drunagor]

`--before` also times another installed drunagor script (e.g. main's: /work/main/.venv/bin/drunagor)
in the same run, line by line in turn with this tree's, each in a session of its own on its own copy:
the before/after table. Target: at most 30 ms median for `odds`, `raid --dry-run --seed 1`,
`adventure show` and `monster add Horde` (the last one's adventure.toml put back between runs, by
`undo`, outside the timing). Not a test: nothing here asserts, it measures and prints.
"""

from __future__ import annotations

import argparse
import os
import select
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyte

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "campaigns" / "example"
PROMPT = "drunagor> "
COLS, ROWS = 80, 24
LINES = ["# x", "odds", "raid --dry-run --seed 1", "adventure show", "monster add Horde"]
TAKE_BACK = {"monster add Horde": "undo"}
CPR_REQUEST = b"\x1b[6n"


class Screen:
    """One session in a pty, its screen kept by pyte."""

    def __init__(self, script: str, campaign: Path, env: dict[str, str] | None = None):
        import fcntl
        import pty
        import termios

        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        env = {**os.environ, "TERM": "xterm", "COLUMNS": str(COLS), "LINES": str(ROWS),
               "XDG_CACHE_HOME": str(campaign.parent / "cache"), **(env or {})}
        if not (env or {}).get("NO_COLOR"):
            env.pop("NO_COLOR", None)
        self.proc = subprocess.Popen([script, "-C", str(campaign), "play"], stdin=slave, stdout=slave,
                                     stderr=slave, env=env, close_fds=True, start_new_session=True)
        os.close(slave)
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.wait_ready(30.0)

    def pump(self, wait: float) -> None:
        ready, _, _ = select.select([self.master], [], [], wait)
        if ready:
            chunk = os.read(self.master, 65536)
            for n, part in enumerate(chunk.split(CPR_REQUEST)):  # where the cursor is, as a terminal answers
                if n:
                    y, x = self.screen.cursor.y + 1, self.screen.cursor.x + 1
                    os.write(self.master, f"\x1b[{y};{x}R".encode())
                self.stream.feed(part)

    def ready(self) -> bool:
        """The empty prompt at the cursor, and a toolbar row drawn under it."""
        row = self.screen.display[self.screen.cursor.y]
        below = self.screen.display[self.screen.cursor.y + 1:]
        return row.rstrip() == PROMPT.rstrip() and self.screen.cursor.x == len(PROMPT) and any(
            line.strip() for line in below)

    def wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not self.ready():
            if time.monotonic() > deadline:
                raise SystemExit("the session's prompt never came back:\n" + "\n".join(self.screen.display))
            self.pump(0.05)

    def enter(self, line: str) -> float:
        """Type `line`, let the screen settle, then time Enter to the next prompt drawn."""
        os.write(self.master, line.encode())
        settle = time.monotonic() + 0.3
        while time.monotonic() < settle:  # completion and the suggestion drawn while typing, not timed
            self.pump(0.02)
        self.screen.dirty.clear()
        self.screen.cursor.x = 0  # the prompt row is drawn again: ready() waits for it
        start = time.perf_counter()
        os.write(self.master, b"\r")
        self.pump(0.05)
        self.wait_ready(30.0)
        return (time.perf_counter() - start) * 1000

    def close(self) -> None:
        os.write(self.master, b"\x04")
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        os.close(self.master)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--before", metavar="SCRIPT", help="another installed drunagor to time beside this one")
    args = ap.parse_args()
    mine = str(Path(sys.executable).parent / "drunagor")
    versions = {"after": mine} if not args.before else {"before": args.before, "after": mine}
    base = Path(tempfile.mkdtemp(prefix="session-screen-"))
    screens = {}
    for name, script in versions.items():
        shutil.copytree(EXAMPLE, base / name / "example")
        screens[name] = Screen(script, base / name / "example")
    times: dict[tuple[str, str], list[float]] = {}
    try:
        for line in LINES:
            for s in screens.values():
                s.enter(line)  # warm-up, not counted
                if line in TAKE_BACK:
                    s.enter(TAKE_BACK[line])
            for _ in range(args.runs):
                for name, s in screens.items():
                    times.setdefault((name, line), []).append(s.enter(line))
                    if line in TAKE_BACK:
                        s.enter(TAKE_BACK[line])
    finally:
        for s in screens.values():
            s.close()
        shutil.rmtree(base, ignore_errors=True)
    print(f"Enter to the next prompt with its toolbar, {COLS}x{ROWS} pty read by pyte, {args.runs} runs each")
    head = "".join(f"{n + ' median':>16}{n + ' p95':>14}" for n in versions)
    print(f"{'line':<26}{head}")
    for line in LINES:
        cells = ""
        for name in versions:
            got = sorted(times[(name, line)])
            cells += f"{statistics.median(got):>13.1f} ms{got[int(len(got) * 0.95) - 1]:>11.1f} ms"
        print(f"{line:<26}{cells}")


if __name__ == "__main__":
    main()

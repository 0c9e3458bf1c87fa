"""`drunagor play` in a real pseudo-terminal, as a player's terminal runs it: keys go in, the screen's
text comes out (escape sequences taken off), every read bounded by a timeout.

The session asks the terminal where its cursor is (a cursor position request, as prompt_toolkit does
on every real terminal); this stands in for the terminal and answers it."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import time
from pathlib import Path

from tests.play.runner import script as drunagor_script

ESCAPES = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]"  # CSI: colours, cursor moves, modes
                     r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78cDEHM]")
FORWARD = re.compile(r"\x1b\[(\d*)C")  # the cursor moved right over cells left as they were: spaces here
CPR_REQUEST = b"\x1b[6n"
TIMEOUT = 20.0


class Session:
    def __init__(self, campaign: Path, *, env: dict[str, str], cols: int = 100, rows: int = 30,
                 extra: tuple[str, ...] = (), after: tuple[str, ...] = ()):
        import fcntl
        import pty
        import struct
        import termios

        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.proc = subprocess.Popen([drunagor_script(), "-C", str(campaign), *extra, "play", *after], stdin=slave,
                                     stdout=slave, stderr=slave, env=env, close_fds=True, start_new_session=True)
        os.close(slave)
        self.raw = b""
        self.seen = 0  # how much of the text earlier expects consumed

    @property
    def text(self) -> str:
        """Everything shown so far, as text."""
        shown = FORWARD.sub(lambda m: " " * int(m.group(1) or 1), self.raw.decode("utf-8", "replace"))
        return ESCAPES.sub("", shown).replace("\r", "")

    def _pump(self, wait: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], wait)
        if not ready:
            return True
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # the session closed the terminal
            return False
        if not chunk:
            return False
        for _ in range(chunk.count(CPR_REQUEST)):
            os.write(self.master, b"\x1b[1;1R")
        self.raw += chunk
        return True

    def expect(self, needle: str, timeout: float = TIMEOUT) -> str:
        """Wait until `needle` shows after what earlier expects saw; the text up to it."""
        deadline = time.monotonic() + timeout
        while True:
            at = self.text.find(needle, self.seen)
            if at >= 0:
                before = self.text[self.seen:at + len(needle)]
                self.seen = at + len(needle)
                return before
            left = deadline - time.monotonic()
            if left <= 0 or not self._pump(min(left, 0.2)):
                if self.text.find(needle, self.seen) >= 0:
                    continue
                raise AssertionError(f"{needle!r} not shown within {timeout}s; the screen after the last "
                                     f"match:\n{self.text[self.seen:][-3000:]}")

    def settle(self, quiet: float = 0.5, timeout: float = TIMEOUT) -> None:
        """Read until the terminal has been quiet for `quiet` seconds."""
        deadline = time.monotonic() + timeout
        last = len(self.raw)
        calm_since = time.monotonic()
        while time.monotonic() < deadline:
            if not self._pump(0.05):
                return
            if len(self.raw) != last:
                last, calm_since = len(self.raw), time.monotonic()
            elif time.monotonic() - calm_since >= quiet:
                return

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def line(self, text: str) -> None:
        self.send(text + "\r")

    def wait(self, timeout: float = TIMEOUT) -> int:
        """The session's exit code, once it ended by itself (reading what it still prints)."""
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            self._pump(0.05)
        code = self.proc.poll()
        assert code is not None, f"the session did not end within {timeout}s:\n{self.text[-2000:]}"
        return code

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=TIMEOUT)
        try:
            os.close(self.master)
        except OSError:
            pass

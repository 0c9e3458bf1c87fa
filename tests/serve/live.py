"""A real `drunagor serve` for the tests: the installed script in a subprocess on 127.0.0.1 (a free
port), bounded in CPU and wall time, always stopped; plain HTTP requests and a Server-Sent Events
reader over http.client (only loopback is ever reached)."""

from __future__ import annotations

import http.client
import os
import re
import resource
import select
import signal
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

from tests.attack.bounded import drunagor_script

START_SECONDS = 20.0  # the URL is printed well under a second after the start; a loaded machine is slow
CPU_SECONDS = 120
URL = re.compile(r"(http://[^\s\"]+)")


def _bounded() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))
    os.setsid()  # its own process group: a stop reaches everything it started


class Server:
    """`drunagor -C ROOT serve --port PORT ...` until stop(); `url` is the one it printed."""

    def __init__(self, root: Path, *args: str, port: int = 0, env: dict[str, str] | None = None) -> None:
        full = {**os.environ, "NO_COLOR": "1", "DRUNAGOR_SERVE_LAN_BIND": "127.0.0.1", **(env or {})}
        self.proc = subprocess.Popen([drunagor_script(), "-C", str(root), "serve", "--port", str(port), *args],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=full, preexec_fn=_bounded)
        self.stdout = b""
        self.json = "--json" in args  # the first line on stdout is the JSON object, and it comes once listening
        self.url = self._url()
        parts = urlsplit(self.url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.query = parts.query

    def _url(self) -> str:
        deadline = time.monotonic() + START_SECONDS
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.2)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                if not chunk:
                    break
                self.stdout += chunk
                found = URL.search(self.stdout.decode(errors="replace"))
                if found and (b"Ctrl-C" in self.stdout or (self.json and b"\n" in self.stdout)):
                    return found.group(1)
        self.stop()
        raise AssertionError(f"no URL printed: {self.stdout!r} {self.stderr!r}")

    def request(self, path: str, method: str = "GET", headers: dict[str, str] | None = None,
                body: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=10)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            r = conn.getresponse()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
        finally:
            conn.close()

    def stream(self, page: str = "table", headers: dict[str, str] | None = None) -> Stream:
        return Stream(self, page, headers or {})

    def stop(self, sig: int = signal.SIGINT) -> int:
        """Ctrl-C (SIGINT), as a user stops it; killed if it does not stop in 10 s (the test fails)."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
                raise AssertionError("drunagor serve did not stop within 10 s of Ctrl-C") from None
        out, err = self.proc.communicate()
        self.stdout += out
        self.stderr = err
        return self.proc.returncode

    stderr = b""


class Stream:
    """One viewer's live stream (`/events?page=...`), read event by event."""

    def __init__(self, server: Server, page: str, headers: dict[str, str]) -> None:
        self.conn = http.client.HTTPConnection(server.host, server.port, timeout=10)
        self.conn.request("GET", f"/events?page={page}", headers=headers)
        self.response = self.conn.getresponse()
        self.status = self.response.status

    def next(self, timeout: float = 5.0) -> tuple[str, str]:
        """The next `page` event: (its id, the board's HTML)."""
        assert self.conn.sock is not None
        self.conn.sock.settimeout(timeout)
        event, ident, data = "", "", []
        while True:
            line = self.response.readline().decode()
            if not line:
                raise AssertionError("the stream ended")
            line = line.rstrip("\r\n")
            if line == "":
                if event == "page":
                    return ident, "\n".join(data)
                event, data = "", []
            elif line.startswith("event: "):
                event = line[7:]
            elif line.startswith("id: "):
                ident = line[4:]
            elif line.startswith("data: ") or line == "data:":
                data.append(line[6:])

    def close(self) -> None:
        self.conn.close()

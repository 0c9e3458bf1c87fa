"""Headless Chromium for the sheet tests, driven two ways:

- `devtools(url)`: the DevTools protocol over `--remote-debugging-pipe` (JSON messages on file
  descriptors 3 and 4, no port, no network). It reports every console message, uncaught exception,
  browser log entry (a resource that failed to load, a blocked request) and network request of the
  page, and prints it to PDF on A4. This is the reliable way to see console errors: the
  `--enable-logging=stderr` output mixes the browser's own noise (D-Bus, GPU) with the page's lines
  and drops a failed resource load, while the protocol reports each as a structured event. The
  page's own `@page` margins apply; the paper sizes are given, as a user's print dialog would.
- `screenshot_and_pdf(url, png, pdf)`: the command-line flags `--screenshot` and `--print-to-pdf`
  (the paper size is Chromium's default, Letter), as a user would run them.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path

TIMEOUT = 60.0
A4 = {"paperWidth": 8.27, "paperHeight": 11.69}  # inches
LETTER = {"paperWidth": 8.5, "paperHeight": 11.0}


def find() -> str | None:
    """Debian's package installs `chromium`; other systems name it differently."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _flags(profile: Path) -> list[str]:
    # --no-sandbox: the tests may run as root in a container (Chromium refuses to sandbox there).
    return ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--hide-scrollbars", "--disable-extensions", "--disable-background-networking",
            f"--user-data-dir={profile}"]


def screenshot_and_pdf(chromium: str, url: str, png: Path, pdf: Path, profile: Path,
                       size: tuple[int, int] = (1000, 1400)) -> None:
    """`--screenshot` and `--print-to-pdf` in one run of the browser (each is a headless command)."""
    subprocess.run([chromium, *_flags(profile), f"--window-size={size[0]},{size[1]}", f"--screenshot={png}",
                    "--no-pdf-header-footer", f"--print-to-pdf={pdf}", url],
                   capture_output=True, timeout=TIMEOUT, check=True)


def pdf_pages(pdf: Path) -> int:
    pdfinfo = shutil.which("pdfinfo")
    assert pdfinfo, "pdfinfo is missing: install poppler-utils (.ci/run installs it with chromium)"
    out = subprocess.run([pdfinfo, str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(next(line.split()[1] for line in out.splitlines() if line.startswith("Pages:")))


class Report:
    def __init__(self) -> None:
        self.console: list[str] = []     # console.log/.error/... calls: "error: text"
        self.exceptions: list[str] = []  # uncaught script errors
        self.log: list[str] = []         # browser log entries: "error network: Failed to load resource ..."
        self.requests: list[str] = []    # every URL the page asked for
        self.pdf: dict[str, bytes] = {}  # "A4", "Letter": the page printed on that paper
        self.value: object = None        # what `evaluate` gave, on the loaded page

    def problems(self) -> list[str]:
        """Everything a page with no script and no resource should never produce."""
        return self.console + self.exceptions + [e for e in self.log if e.split()[0] in ("error", "warning")]


class _Pipe:
    def __init__(self, chromium: str, profile: Path) -> None:
        to_browser_r, self._write = os.pipe()
        self._read, from_browser_w = os.pipe()
        # Chromium reads commands on fd 3 and writes on fd 4: move our ends there in the child (from
        # fds above 10 first, so neither dup2 overwrites the other).
        high_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
        high_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)

        def child_fds() -> None:
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.proc = subprocess.Popen([chromium, *_flags(profile), "--remote-debugging-pipe", "about:blank"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, pass_fds=(3, 4),
                                     preexec_fn=child_fds)  # noqa: PLW1509 (dup2 only; no lock taken)
        for fd in (to_browser_r, from_browser_w, high_r, high_w):
            os.close(fd)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict] = []

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._receive()
            if reply.get("id") == self._next_id:
                assert "error" not in reply, (method, reply["error"])
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str) -> dict:
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                return self.events.pop(i)
        while True:
            message = self._receive()
            if message.get("method") == method:
                return message
            self.events.append(message)

    def _receive(self) -> dict:
        deadline = time.monotonic() + TIMEOUT
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._read], [], [], max(left, 0))
            assert ready, "Chromium did not answer within a minute"
            chunk = os.read(self._read, 1 << 16)
            assert chunk, "Chromium closed the DevTools pipe"
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(raw)

    def close(self) -> None:
        try:
            os.write(self._write, json.dumps({"id": 0, "method": "Browser.close"}).encode() + b"\0")
        except OSError:
            pass
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._write)
        os.close(self._read)


def devtools(chromium: str, url: str, profile: Path, evaluate: str | None = None) -> Report:
    """Load `url` in a fresh tab, report what it logged and requested, and print it on A4 and Letter;
    `evaluate`: a JavaScript expression run on the loaded page, its JSON value in `report.value`."""
    pipe = _Pipe(chromium, profile)
    report = Report()
    try:
        target = pipe.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = pipe.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Runtime", "Log", "Network", "Page"):
            pipe.send(f"{domain}.enable", session=session)
        pipe.events.clear()  # what about:blank did is not the page's
        pipe.send("Page.navigate", {"url": url}, session=session)
        pipe.wait_for("Page.loadEventFired")
        pipe.send("Runtime.evaluate", {"expression": "document.readyState"}, session=session)  # flush events
        if evaluate is not None:
            result = pipe.send("Runtime.evaluate", {"expression": evaluate, "returnByValue": True}, session=session)
            report.value = result.get("result", {}).get("value")
        for paper, size in (("A4", A4), ("Letter", LETTER)):
            printed = pipe.send("Page.printToPDF", {**size, "marginTop": 0.4, "marginBottom": 0.4}, session=session)
            report.pdf[paper] = base64.b64decode(printed["data"])
        for e in pipe.events:
            p = e.get("params", {})
            method = e.get("method")
            if method == "Runtime.consoleAPICalled":
                text = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
                report.console.append(f"{p.get('type')}: {text}")
            elif method == "Runtime.exceptionThrown":
                details = p.get("exceptionDetails", {})
                report.exceptions.append(details.get("exception", {}).get("description") or details.get("text", ""))
            elif method == "Log.entryAdded":
                entry = p.get("entry", {})
                report.log.append(f"{entry.get('level')} {entry.get('source')}: {entry.get('text')} "
                                  f"{entry.get('url', '')}")
            elif method == "Network.requestWillBeSent":
                report.requests.append(p.get("request", {}).get("url", ""))
    finally:
        pipe.close()
    return report

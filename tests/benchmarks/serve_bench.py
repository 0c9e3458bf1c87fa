"""The table's screen (issue 36): how fast `drunagor serve` starts, how soon a save reaches a connected
page, and 50 viewers while the scribe records 100 table events. Not a test: it measures and prints.

    python tests/benchmarks/serve_bench.py [--runs N] [--viewers N] [--events N]

- start: `drunagor -C <copy of the example> serve --port 0` as a fresh process, from its start to the
  first 200 answer of `/` (target: at most 1 s), median of N runs.
- save to page: one viewer holds `/events?page=table`; the scribe adds or removes a monster (ops.apply,
  the same write as `drunagor monster add`); the time from the save's return to the new version's
  event read by the viewer (targets: median at most 300 ms, p95 at most 500 ms).
- load: V viewers (asyncio, raw HTTP on 127.0.0.1) hold the stream while the scribe records E table
  events (a monster added, then removed, ...) at a scribe's fast pace (one every 50 ms): every viewer
  must end on the final version with the final board, no error; the server's peak memory (VmHWM of
  its process: at most 100 MiB) and its re-reads of the campaign (one per change seen, not one per
  viewer) are printed. The server runs in a child process of its own (this file with --child), which
  prints its re-reads when stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO))

from tests.attack.bounded import drunagor_script  # noqa: E402

URL = re.compile(rb"http://127\.0\.0\.1:(\d+)/")


def child(root: str) -> None:
    """The server, as `drunagor serve --port 0` runs it, printing its port and, when stopped, its reads."""
    from drunagor_log.serve.server import run

    seen = []

    def said(served) -> None:
        seen.append(served)
        print(f"{served.url}", flush=True)

    run(Path(root), 0, False, said)
    print(f"reads {seen[0].board.reads} version {seen[0].board.version}", flush=True)


def start_server(root: Path, *args: str) -> tuple[subprocess.Popen, int]:
    cmd = args or (sys.executable, __file__, "--child", str(root))
    proc = subprocess.Popen(list(cmd), stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=root.parent)
    line = b""
    while not URL.search(line):
        chunk = proc.stdout.readline()  # type: ignore[union-attr]
        if not chunk:
            raise SystemExit(f"the server did not start: {proc.stderr.read()!r}")  # type: ignore[union-attr]
        line += chunk
    return proc, int(URL.search(line).group(1))  # type: ignore[union-attr]


def stop(proc: subprocess.Popen) -> str:
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=20)
    return out.decode()


def peak_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def measure_start(root: Path, runs: int) -> tuple[list[float], list[float]]:
    times: list[float] = []
    cpu: list[float] = []
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.Popen([drunagor_script(), "-C", str(root), "serve", "--port", "0"], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
        port = None
        buf = b""
        while port is None:
            buf += proc.stdout.read1(4096)  # type: ignore[union-attr]
            found = URL.search(buf)
            port = int(found.group(1)) if found else None
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.005)
        times.append(time.perf_counter() - t0)
        cpu.append(cpu_seconds(proc.pid))
        stop(proc)
    return times, cpu


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a running process so far (what its start cost, however loaded the
    machine: the wall time of a start on a shared machine is mostly waiting for a core)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Viewer:
    """One viewer's stream, read with asyncio: the id and board of the last `page` event."""

    def __init__(self, port: int) -> None:
        self.port, self.last, self.board, self.errors, self.times = port, 0, "", [], {}

    async def hold(self, until: asyncio.Event) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            writer.write(f"GET /events?page=table HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n\r\n".encode())
            await writer.drain()
            status = await reader.readline()
            if b" 200 " not in status:
                self.errors.append(status.decode().strip())
                return
            ident, data = 0, []
            while not until.is_set():
                line = (await reader.readline()).decode()
                if not line:
                    self.errors.append("stream ended")
                    return
                line = line.rstrip("\r\n")
                if line.startswith("id: "):
                    ident = int(line[4:])
                elif line.startswith("data: "):
                    data.append(line[6:])
                elif line == "" and data:
                    self.last, self.board = ident, "\n".join(data)
                    self.times[ident] = time.perf_counter()
                    data = []
            writer.close()
        except Exception as exc:  # noqa: BLE001 (a benchmark reports every failure)
            self.errors.append(repr(exc))


def scribe_step(root: Path, i: int) -> None:
    from drunagor_log import ops

    if i % 2 == 0:
        ops.apply(root, ops.board.add_monster, "Gremlin Horde")
    else:
        ops.apply(root, ops.board.remove_monster, "5")  # the one just added (the example fills slots 1-4)


async def measure_latency(root: Path, port: int, changes: int) -> list[float]:
    viewer = Viewer(port)
    done = asyncio.Event()
    task = asyncio.create_task(viewer.hold(done))
    while viewer.last == 0:
        await asyncio.sleep(0.01)
    delays = []
    for i in range(changes):
        before = viewer.last
        await asyncio.to_thread(scribe_step, root, i)
        saved = time.perf_counter()
        while viewer.last == before:
            await asyncio.sleep(0.001)
        delays.append(viewer.times[viewer.last] - saved)
        await asyncio.sleep(0.05)
    done.set()
    task.cancel()
    return delays


async def measure_load(root: Path, port: int, viewers: int, events: int) -> tuple[list[Viewer], float]:
    crowd = [Viewer(port) for _ in range(viewers)]
    done = asyncio.Event()
    tasks = [asyncio.create_task(v.hold(done)) for v in crowd]
    while any(v.last == 0 and not v.errors for v in crowd):
        await asyncio.sleep(0.01)
    t0 = time.perf_counter()
    for i in range(events):
        await asyncio.to_thread(scribe_step, root, i)
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.5)  # the last change reaches everyone
    elapsed = time.perf_counter() - t0
    done.set()
    for t in tasks:
        t.cancel()
    return crowd, elapsed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--viewers", type=int, default=50)
    ap.add_argument("--events", type=int, default=100)
    ap.add_argument("--child")
    a = ap.parse_args()
    if a.child:
        child(a.child)
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "example"
        shutil.copytree(REPO / "campaigns" / "example", root)
        starts, cpu = measure_start(root, a.runs)
        print(f"start (to the first page): median {statistics.median(starts) * 1000:.0f} ms, "
              f"max {max(starts) * 1000:.0f} ms over {a.runs} runs (target: at most 1000 ms); CPU time of the "
              f"server by then: median {statistics.median(cpu) * 1000:.0f} ms; load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

        proc, port = start_server(root)
        delays = asyncio.run(measure_latency(root, port, max(a.runs * 4, 20)))
        stop(proc)
        q = statistics.quantiles(delays, n=20)
        print(f"save to page: median {statistics.median(delays) * 1000:.0f} ms, p95 {q[18] * 1000:.0f} ms, "
              f"max {max(delays) * 1000:.0f} ms over {len(delays)} saves (targets: 300 ms, 500 ms)")

        proc, port = start_server(root)
        crowd, elapsed = asyncio.run(measure_load(root, port, a.viewers, a.events))
        peak = peak_mib(proc.pid)
        said = stop(proc)
        reads = re.search(r"reads (\d+) version (\d+)", said)
        last = {v.last for v in crowd}
        boards = {v.board for v in crowd}
        errors = [e for v in crowd for e in v.errors]
        final = int(reads.group(2)) if reads else None
        print(f"load: {a.viewers} viewers, {a.events} table events in {elapsed:.1f} s: every viewer on the "
              f"server's final version {final}: {last == {final}}; viewers' final version(s) {sorted(last)}, "
              f"{len(boards)} distinct final board(s), {len(errors)} error(s){': ' + errors[0] if errors else ''}")
        print(f"      server peak memory {peak:.1f} MiB (target: at most 100 MiB); re-reads of the campaign "
              f"{reads.group(1) if reads else '?'} for {a.events} changes, {reads.group(2) if reads else '?'} versions "
              "(one read per change seen, whatever the viewers)")


if __name__ == "__main__":
    os.environ.setdefault("NO_COLOR", "1")
    main()

"""A phone's tap to the TV page showing it (issue 44): `drunagor serve --json` on a copy of the example
campaign, 10 viewers holding the table's live stream (the TV among them), and Nyx's phone tapping
"Trauma Cube +1" 50 times (POST /heroes/nyx/act with the page's token, as the page's script posts it).
Not a test: it measures and prints.

    python tests/benchmarks/phone_tap.py [--taps N] [--viewers N]

For each tap: the time from the POST's first byte to the phone's JSON answer, to the TV's stream event
holding the new count ("Nyx receives 1 Trauma Cube: K held"), and to the last of the viewers holding
it. Median and p95 of each (targets: tap to TV median <= 150 ms, p95 <= 300 ms). Taps come every
250 ms (a thumb; the server allows 5 a second per key). Nyx's Skills are given 1000 Trauma Cubes so
that no tap defeats the hero.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO))

from tests.attack.bounded import drunagor_script  # noqa: E402


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(round(0.95 * len(ordered))) - 1)]


async def viewer(port: int, seen: dict[int, float], ready: asyncio.Event) -> None:
    """One live stream of the table page: when each count first shows (K -> the time)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /events?page=table HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    await writer.drain()
    ready.set()
    pattern = re.compile(rb"Nyx receives 1 Trauma Cube: (\d+) held")
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"data:"):
                for m in pattern.finditer(line):
                    seen.setdefault(int(m.group(1)), time.perf_counter())
    finally:
        writer.close()


async def post(port: int, path: str, cookie: str, body: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write((f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n"
                  f"Origin: http://127.0.0.1:{port}\r\nSec-Fetch-Site: same-origin\r\nAccept: application/json\r\n"
                  f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n"
                  f"Connection: close\r\n\r\n").encode() + body)
    await writer.drain()
    answer = await reader.read()
    writer.close()
    return answer


async def get(port: int, path: str) -> tuple[str, str]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    raw = (await reader.read()).decode()
    writer.close()
    cookie = re.search(r"set-cookie: ([^;]+);", raw, re.I)
    return raw, cookie.group(1) if cookie else ""


async def measure(port: int, hero_url: str, taps: int, viewers: int) -> dict[str, list[float]]:
    parts = urlsplit(hero_url)
    page, cookie = await get(port, f"{parts.path}?{parts.query}")
    csrf = re.search(r'name="csrf" value="(\w+)"', page).group(1)  # type: ignore[union-attr]
    seen: list[dict[int, float]] = [{} for _ in range(viewers)]
    readies = [asyncio.Event() for _ in range(viewers)]
    tasks = [asyncio.create_task(viewer(port, seen[i], readies[i])) for i in range(viewers)]
    for r in readies:
        await r.wait()
    await asyncio.sleep(0.5)
    out: dict[str, list[float]] = {"answer": [], "tv": [], "all": []}
    body = urlencode({"action": "cube", "kind": "trauma", "delta": "+1", "csrf": csrf}).encode()
    for k in range(1, taps + 1):
        start = time.perf_counter()
        answer = await post(port, f"{parts.path}/act", cookie, body)
        answered = time.perf_counter()
        if b" 200 " not in answer.split(b"\r\n", 1)[0]:
            raise SystemExit(f"tap {k} refused: {answer[-400:]!r}")
        deadline = time.perf_counter() + 10
        while not all(k in s for s in seen) and time.perf_counter() < deadline:
            await asyncio.sleep(0.001)
        if not all(k in s for s in seen):
            raise SystemExit(f"tap {k}: not every viewer saw it within 10 s")
        out["answer"].append(answered - start)
        out["tv"].append(seen[0][k] - start)
        out["all"].append(max(s[k] for s in seen) - start)
        await asyncio.sleep(max(0.0, 0.25 - (time.perf_counter() - start)))
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--taps", type=int, default=50)
    parser.add_argument("--viewers", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "example"
        shutil.copytree(REPO / "campaigns" / "example", root)
        subprocess.run([drunagor_script(), "-C", str(root), "cube", "Nyx", "trauma", "+0", "--trauma-limit-bonus",
                        "1000"], check=True, capture_output=True)
        proc = subprocess.Popen([drunagor_script(), "-C", str(root), "serve", "--port", "0", "--json"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"})
        try:
            first = json.loads(proc.stdout.readline())  # type: ignore[union-attr]
            port = urlsplit(first["url"]).port
            out = asyncio.run(measure(port, first["heroes"]["nyx"], args.taps, args.viewers))  # type: ignore[arg-type]
        finally:
            proc.send_signal(signal.SIGINT)
            proc.communicate(timeout=20)
    print(f"phone tap, {args.taps} taps (one every 250 ms), {args.viewers} viewers of the table's stream, "
          f"{os.cpu_count()} CPUs")
    for name, label in (("answer", "tap to the phone's answer"), ("tv", "tap to the TV page showing it"),
                        ("all", "tap to the last of the viewers showing it")):
        ms = [v * 1000 for v in out[name]]
        print(f"  {label}: median {statistics.median(ms):.1f} ms, p95 {p95(ms):.1f} ms, max {max(ms):.1f} ms")


if __name__ == "__main__":
    main()

"""`drunagor play --serve`: the table's screen inside the session, one terminal for the scribe; the
session's lines change the page, and the server stops with the session."""

from __future__ import annotations

import http.client
import os
import re
import select
import subprocess
import time

from tests.attack.bounded import drunagor_script


def _first_line(proc: subprocess.Popen, timeout: float = 20.0) -> str:
    assert proc.stdout is not None
    buf = b""
    deadline = time.monotonic() + timeout
    while b"\n" not in buf and time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 0.2)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            buf += chunk
    return buf.decode().split("\n")[0]


def test_the_session_serves_the_table_and_stops_with_it(example):
    proc = subprocess.Popen([drunagor_script(), "-C", str(example), "play", "--serve", "--port", "0"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        line = _first_line(proc)
        found = re.fullmatch(r"the table's screen: http://127\.0\.0\.1:(\d+)/ \(until the session ends\)", line)
        assert found, line
        port = int(found.group(1))
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/events?page=table")
        stream = conn.getresponse()
        assert stream.status == 200
        first = b""
        while b'<span class="face" title="face">B</span>' not in first:
            first += stream.readline()
        assert proc.stdin is not None
        proc.stdin.write(b"raid --seed 12\n")
        proc.stdin.flush()
        after = b""
        while b'<span class="face" title="face">A</span>' not in after:
            after += stream.readline()
        conn.close()
        out, err = proc.communicate(b"", timeout=30)  # end of input: the session ends
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "1. Check the face of the Dreadful Raid card" in out.decode()
    assert err == b""
    refused = None
    try:
        http.client.HTTPConnection("127.0.0.1", port, timeout=5).request("GET", "/")
    except OSError as exc:
        refused = exc
    assert isinstance(refused, ConnectionRefusedError)


def test_a_broken_hero_file_leaves_the_session_and_its_page_to_say_so(example):
    # the session starts on it, as `play` does, and its page shows the message until the file is
    # fixed, as `drunagor serve`'s does (SPEC 11, tests/serve/test_http.py)
    (example / "heroes" / "nyx.toml").write_bytes((example / "heroes" / "nyx.toml").read_bytes() + b"name = [\n")
    proc = subprocess.Popen([drunagor_script(), "-C", str(example), "play", "--serve", "--port", "0"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "NO_COLOR": "1"})
    try:
        line = _first_line(proc)
        found = re.fullmatch(r"the table's screen: http://127\.0\.0\.1:(\d+)/ \(until the session ends\)", line)
        assert found, line
        conn = http.client.HTTPConnection("127.0.0.1", int(found.group(1)), timeout=10)
        conn.request("GET", "/")
        page = conn.getresponse().read().decode()
        conn.close()
        out, err = proc.communicate(b"", timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "<h1>The campaign cannot be read</h1>" in page
    assert "heroes/nyx.toml:18: toml-syntax: " in page
    assert (proc.returncode, err) == (0, b"")

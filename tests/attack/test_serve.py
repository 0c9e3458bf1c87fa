"""`drunagor serve` attacked: hostile hero and party names arriving through the live stream of a real
server (the installed script, bounded in CPU; its peak memory checked), and hostile requests.

Each board must parse with the hostile text as text only: the same elements and attributes as the
board of the same campaign with a plain name, and the name shown as a reader must see it (controls
and bidi characters as <U+XXXX>)."""

from __future__ import annotations

import re
import time
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.attack import bounded
from tests.attack.test_sheet import PIECES, expected_visible, structure
from tests.conftest import EXAMPLE
from tests.serve.live import Server
from tests.sheet.dom import parse

PEAK_MIB = 200  # the server's resident memory at its worst (the load benchmark's target is 100 MiB)


def toml_string(text: str) -> str:
    """`text` as a TOML basic string, every character but printable ASCII written as an escape."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif " " <= ch <= "~":
            out.append(ch)
        else:
            out.append(f"\\U{ord(ch):08X}")
    return '"' + "".join(out) + '"'


def set_name(root: Path, hero: str, party: str) -> None:
    nyx = root / "heroes" / "nyx.toml"
    nyx.write_text(re.sub(r'^name = .*$', lambda _: f"name = {toml_string(hero)}", nyx.read_text(encoding="utf-8"),
                          count=1, flags=re.M), encoding="utf-8")
    story = root / "story.toml"
    story.write_text(re.sub(r'^party = .*$', lambda _: f"party = {toml_string(party)}",
                            story.read_text(encoding="utf-8"), count=1, flags=re.M), encoding="utf-8")


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    import shutil

    root = tmp_path_factory.mktemp("serve") / "example"
    shutil.copytree(EXAMPLE, root)
    started = time.perf_counter()
    server = Server(root, "--no-qr")
    stream = server.stream("heroes/nyx")
    stream.next()
    plain = {}
    try:
        yield root, server, stream, plain
    finally:
        stream.close()
        peak = _peak_kib(server.proc.pid)
        bounded.record("serve", time.perf_counter() - started, peak)  # the server's whole life, every example
        server.stop()
        assert peak // 1024 <= PEAK_MIB, f"the server held {peak // 1024} MiB"


def _peak_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


NAMES = st.one_of(st.sampled_from(PIECES), st.text(min_size=1, max_size=30),
                  st.lists(st.sampled_from([*PIECES, "\u202e", "\u0007", "\u2028", "&amp;", "{{ 7*7 }}"]),
                           min_size=1, max_size=4).map("".join))
COUNTER = iter(range(10**9))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hero=NAMES, party=NAMES)
def test_hostile_names_reach_the_page_as_text(live, hero, party):
    root, server, stream, plain = live
    n = next(COUNTER)
    hero, party = f"{hero} {n}", f"{party} {n}"  # a new name every time: every example is a new version
    if "structure" not in plain:
        set_name(root, f"Plain Name {n}", f"Plain Party {n}")
        plain["structure"] = structure(parse(stream.next(timeout=20)[1]))
        n = next(COUNTER)
        hero, party = f"{hero} {n}", f"{party} {n}"
    set_name(root, hero, party)
    board = stream.next(timeout=20)[1]
    if "<h1>The campaign cannot be read</h1>" in board:  # a name the store refuses: its message, as text
        assert structure(parse(board))[:3] == [("nav", ("aria-label",)), ("a", ("href",)), ("a", ("href",))]
        return
    tree = parse(board)
    assert structure(tree) == plain["structure"]
    assert " ".join(tree.find("h1").text().split()) == expected_visible(hero)
    hidden = [ch for ch in board if ch not in "\n\t" and unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp")]
    assert hidden == [], "an invisible character reached the page"


@pytest.mark.parametrize("request_line", [
    b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Big: " + b"b" * 40000 + b"\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999\r\n\r\n",
    b"GARBAGE\r\n\r\n",
    b"GET /events?page=" + b"%2e%2e%2f" * 500 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
])
def test_hostile_requests_get_an_answer_and_the_server_goes_on(live, request_line):
    import socket

    _, server, _, _ = live
    with socket.create_connection((server.host, server.port), timeout=10) as s:
        s.sendall(request_line)
        answer = s.recv(200)
    assert answer.startswith(b"HTTP/1.1 4"), answer
    assert server.request("/")[0] == 200

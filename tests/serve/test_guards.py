"""`drunagor serve`'s guards (issue 43), over real HTTP on 127.0.0.1 against the installed script: the
key compared whatever its characters, the key cookie bound to its server, hero files with any name
reachable, nothing printed for a stranger's request, the live streams closed cleanly when `play --serve`
ends, and the watch kept inside the campaign folder."""

from __future__ import annotations

import html
import http.client
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

from tests.attack.bounded import drunagor_script
from tests.serve.live import Server


def _key(server: Server) -> str:
    return server.query.removeprefix("key=")


def test_a_key_that_is_not_ascii_is_a_wrong_key(example):
    server = Server(example, "--lan", "--no-qr")
    try:
        cookie = f"drunagor_key_{server.port}"
        assert server.request("/?key=%C3%A9")[0] == 403
        assert server.request("/?key=%FF%FE")[0] == 403
        assert server.request("/", headers={"Cookie": f'{cookie}="\u00e9"'})[0] == 403
        assert server.request("/", headers={"Cookie": f"{cookie}=\u00e9\u00ff"})[0] == 403
        assert server.request(f"/?key={_key(server)}")[0] == 200
    finally:
        assert server.stop() == 0
    # one line for the scribe, in drunagor's words: no traceback
    assert server.stderr == b"drunagor serve: refused a request from 127.0.0.1 without this run's access key\n"


def test_each_server_has_its_own_key_cookie(example, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(example, other)
    first, second = Server(example, "--lan", "--no-qr"), Server(other, "--lan", "--no-qr")
    try:
        status, headers, _ = first.request(f"/?key={_key(first)}")
        one = headers["set-cookie"].split(";")[0]
        status2, headers2, _ = second.request(f"/?key={_key(second)}")
        two = headers2["set-cookie"].split(";")[0]
        assert (status, status2) == (200, 200)
        assert one == f"drunagor_key_{first.port}={_key(first)}" and two == f"drunagor_key_{second.port}={_key(second)}"
        # one browser sends both cookies to both servers (cookies know no port): each reads its own
        both = f"{one}; {two}"
        assert first.request("/campaign", headers={"Cookie": both})[0] == 200
        assert second.request("/campaign", headers={"Cookie": both})[0] == 200
        # the first's key never opens the second, by its cookie or under the second's name
        assert second.request("/", headers={"Cookie": one})[0] == 403
        assert second.request("/", headers={"Cookie": f"drunagor_key_{second.port}={_key(first)}"})[0] == 403
    finally:
        first.stop()
        second.stop()


ODD_NAMES = ["a#b", "c?d", "e\\f", "g\th", "i\rj", "k\nl", "m%20n", "o&p=q+r"]


def test_hero_files_with_any_name_have_links_that_open(example):
    src = (example / "heroes" / "nyx.toml").read_text(encoding="utf-8")
    for i, stem in enumerate(ODD_NAMES):
        text = re.sub(r"^name = .*$", f'name = "Odd {i}"', src, count=1, flags=re.M)
        (example / "heroes" / f"{stem}.toml").write_text(text, encoding="utf-8")
    server = Server(example, "--no-qr")
    try:
        roster = server.request("/campaign")[2].decode()
        links = dict((html.unescape(name), html.unescape(href))
                     for href, name in re.findall(r'<a href="(/heroes/[^"]*)">([^<]*)</a>', roster))
        for i, stem in enumerate(ODD_NAMES):
            href = links[f"Odd {i}"]
            status, _, body = server.request(href)
            page = body.decode()
            assert status == 200, (stem, href)
            assert f"<h1>Odd {i}</h1>" in page
            # the page's own stream, as its script asks for it
            page_attr = html.unescape(re.search(r'data-page="([^"]*)"', page).group(1))
            stream = server.stream(page_attr)
            try:
                assert stream.status == 200
                assert f"<h1>Odd {i}</h1>" in stream.next()[1]
            finally:
                stream.close()
    finally:
        server.stop()


STRANGE_REQUESTS = [
    b"GARBAGE\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n",
    b"GET /?key=%C3%A9 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \xff\xfe=\"\r\n\r\n",
    b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"GET / HTTP/9.9\r\n\r\n",
    b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" + b"\x00" * 40,  # a TLS hello
]


def test_a_strangers_requests_print_nothing_but_one_line(example):
    import socket

    server = Server(example, "--lan", "--no-qr")
    try:
        for request in STRANGE_REQUESTS * 3:
            with socket.create_connection((server.host, server.port), timeout=10) as s:
                s.sendall(request)
                try:
                    s.recv(200)
                except OSError:
                    pass
        assert server.request(f"/?key={_key(server)}")[0] == 200
    finally:
        assert server.stop() == 0
    assert server.stderr == b"drunagor serve: refused a request from 127.0.0.1 without this run's access key\n"
    assert server.stdout.decode().endswith("Ctrl-C stops it\nstopped\n")


def _first_line(proc: subprocess.Popen, timeout: float = 20.0) -> str:
    import select

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


def test_play_serve_ends_with_phones_connected_and_prints_nothing_for_strangers(example):
    proc = subprocess.Popen([drunagor_script(), "-C", str(example), "play", "--serve", "--port", "0"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    phones = []
    try:
        found = re.fullmatch(r"the table's screen: http://127\.0\.0\.1:(\d+)/ \(until the session ends\)",
                             _first_line(proc))
        assert found
        for page in ("table", "table", "campaign", "heroes/nyx"):
            conn = http.client.HTTPConnection("127.0.0.1", int(found.group(1)), timeout=20)
            conn.request("GET", f"/events?page={page}")
            response = conn.getresponse()
            assert response.status == 200
            assert response.readline() == b"id: 1\r\n"
            phones.append((conn, response))
        import socket

        for request in STRANGE_REQUESTS:  # a stranger's requests print nothing over the session either
            with socket.create_connection(("127.0.0.1", int(found.group(1))), timeout=10) as s:
                s.sendall(request)
                try:
                    s.recv(200)
                except OSError:
                    pass
        out, err = proc.communicate(b"exit\n", timeout=30)
        # each phone's stream ended as a finished answer (the chunked body's end), not cut
        for _, response in phones:
            response.read()
            assert response.isclosed()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for conn, _ in phones:
            conn.close()
    assert (proc.returncode, err) == (0, b"")
    assert b"Traceback" not in out and b"Cancel" not in out


def _inotify_watches(pid: int) -> int:
    count = 0
    for fd in Path(f"/proc/{pid}/fdinfo").iterdir():
        try:
            count += sum(1 for line in fd.read_text().splitlines() if line.startswith("inotify wd:"))
        except OSError:
            continue
    return count


def test_the_watch_never_leaves_the_campaign(example):
    (example / "junk").symlink_to("/usr")
    (example / "heroes" / "up").symlink_to("/")
    server = Server(example, "--no-qr")
    try:
        stream = server.stream("heroes/nyx")
        stream.next()
        # the campaign folder, heroes/ and adventures/: nothing through the links
        assert _inotify_watches(server.proc.pid) == 3
        stream.close()
    finally:
        server.stop()


def test_a_folder_renamed_in_is_followed(example):
    server = Server(example, "--no-qr")
    stream = server.stream("heroes/nyx")
    try:
        assert "<h1>Nyx</h1>" in stream.next()[1]
        new = example / "heroes.new"
        shutil.copytree(example / "heroes", new)
        nyx = new / "nyx.toml"
        nyx.write_text(nyx.read_text(encoding="utf-8").replace('name = "Nyx"', 'name = "Nyx Renamed"'),
                       encoding="utf-8")
        os.rename(example / "heroes", example / "heroes.old")
        os.rename(new, example / "heroes")
        board = stream.next(timeout=20)[1]
        while "<h1>Nyx Renamed</h1>" not in board:
            board = stream.next(timeout=20)[1]
        # and the new folder is the one watched now
        nyx = example / "heroes" / "nyx.toml"
        nyx.write_text(nyx.read_text(encoding="utf-8").replace('name = "Nyx Renamed"', 'name = "Nyx Again"'),
                       encoding="utf-8")
        board = stream.next(timeout=20)[1]
        while "<h1>Nyx Again</h1>" not in board:
            board = stream.next(timeout=20)[1]
    finally:
        stream.close()
        server.stop()


def test_ctrl_c_with_phones_connected_stays_clean(example):
    server = Server(example, "--no-qr")
    streams = [server.stream("table"), server.stream("heroes/nyx")]
    try:
        for s in streams:
            s.next()
        assert server.stop() == 0
        for s in streams:  # each stream ended as a finished answer
            s.response.read()
            assert s.response.isclosed()
    finally:
        for s in streams:
            s.close()
    assert server.stderr == b""
    assert server.stdout.decode().endswith("Ctrl-C stops it\nstopped\n")


def test_a_folder_moved_away_and_back_is_watched_again(example):
    server = Server(example, "--no-qr")
    stream = server.stream("table")
    try:
        board = stream.next()[1]
        assert "/heroes/nyx" in board
        os.rename(example / "heroes", example / "heroes.away")
        while "/heroes/nyx" in board:
            board = stream.next(timeout=20)[1]
        os.rename(example / "heroes.away", example / "heroes")
        while "/heroes/nyx" not in board:
            board = stream.next(timeout=20)[1]
        nyx = example / "heroes" / "nyx.toml"  # and the folder back is the one watched
        nyx.write_text(nyx.read_text(encoding="utf-8").replace('name = "Nyx"', 'name = "Nyx Back"'), encoding="utf-8")
        while "Nyx Back" not in board:
            board = stream.next(timeout=20)[1]
    finally:
        stream.close()
        server.stop()

"""A phone is its hero's (SPEC 12): the real `drunagor serve` on 127.0.0.1 and a copy of the example
campaign, hero keys printed per run, POST /heroes/<hero>/act running the command's own code, with
its words and exit code, the table event saying who, and undo from the phone (tests/serve/phones.py).
The refusals of the writing path are tests/attack/test_phone_actions.py."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import threading
import time

from drunagor_log.store import CampaignLock
from tests.attack.bounded import drunagor_script
from tests.conftest import snapshot
from tests.serve.live import Server
from tests.serve.phones import Phone, hero_urls


def drunagor(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([drunagor_script(), *args], capture_output=True, text=True, timeout=60)


def test_serve_json_prints_one_object_with_each_heros_url_and_nothing_else(example):
    server = Server(example, "--json")
    try:
        first = server.stdout.decode().split("\n")[0]
        data = json.loads(first)
        assert list(data) == ["url", "heroes"]
        assert data["url"] == f"http://127.0.0.1:{server.port}/"
        assert sorted(data["heroes"]) == ["andreas", "catharina", "nyx", "vacrem"]
        for stem, url in data["heroes"].items():
            assert re.fullmatch(rf"http://127\.0\.0\.1:{server.port}/heroes/{stem}\?key=[\w-]{{24}}", url)
        assert len(set(data["heroes"].values())) == 4
    finally:
        assert server.stop() == 0
    assert server.stdout.decode() == first + "\n"  # nothing else on stdout
    err = server.stderr.decode()
    assert f"serving campaigns/example on this computer only: http://127.0.0.1:{server.port}/\n" in err
    assert "Nyx's phone: " + data["heroes"]["nyx"] in err and err.endswith("Ctrl-C stops it\nstopped\n")


def test_each_run_makes_new_keys(example):
    urls = []
    for _ in range(2):
        server = Server(example, "--json")
        urls.append(json.loads(server.stdout.decode().split("\n")[0])["heroes"]["nyx"])
        server.stop()
    assert urls[0] != urls[1]


def test_the_heros_page_acts_only_with_the_heros_key(served):
    urls = hero_urls(served.stdout)
    nyx = Phone(urls["nyx"])
    buttons = re.findall(r"<button type=\"submit\">([^<]+)</button>", nyx.page)
    assert buttons == ["Trauma Cube +1", "Trauma Cube -1", "Curse Cube +1", "Curse Cube -1", "Recall Action"]
    assert nyx.page.count('<form method="post" action="/heroes/nyx/act"') == 5
    assert nyx.page.count(f'<input type="hidden" name="csrf" value="{nyx.csrf}">') == 5
    # every other page, and the hero's page without its key or with another hero's: no action
    for path in ("/", "/campaign", "/heroes/vacrem"):
        assert "<form" not in nyx.get(path)
    assert "<form" not in served.request("/heroes/nyx")[2].decode()
    vacrem = Phone(urls["vacrem"])
    assert "<form" not in vacrem.get("/heroes/nyx") and vacrem.csrf != nyx.csrf
    assert urls["nyx"].split("key=")[1] not in nyx.get("/heroes/nyx")  # the key is never on a page


def test_a_cube_from_the_phone_is_the_commands_own_write_with_who_did_it(served, example, tmp_path):
    nyx = Phone(hero_urls(served.stdout)["nyx"])
    twin = tmp_path / "twin"
    shutil.copytree(example, twin)
    status, answer = nyx.act(action="cube", kind="curse", delta="+1", capacity="5")
    line = "Nyx's Curse Cube capacity 5 recorded under [cards]; Nyx receives 1 Curse Cube: 1 held, 5 can be held"
    assert (status, answer) == (200, {"ok": True, "exit": 0, "message": line, "lines": [line]})
    # byte for byte what the command writes, but for who did it
    r = drunagor("-C", str(twin), "cube", "Nyx", "curse", "+1", "--capacity", "5")
    assert (r.returncode, r.stdout) == (0, line + "\n")
    by_command = (twin / "adventure.toml").read_text()
    assert '{ event = "cube", hero = "Nyx", ' in by_command  # the cube's facts (issue 45), then its text
    assert (example / "adventure.toml").read_text() == by_command.replace('{ event = "cube", hero = "Nyx", ',
                                                                          '{ event = "cube", by = "nyx", hero = "Nyx", ')
    assert (example / "story.toml").read_bytes() == (twin / "story.toml").read_bytes()
    # the same as the command: a second +1 says 2 held
    status, answer = nyx.act(action="cube", kind="curse", delta="+1")
    assert (status, answer["message"]) == (200, "Nyx receives 1 Curse Cube: 2 held, 5 can be held")
    shown = drunagor("-C", str(example), "adventure", "show", "--json")
    assert json.loads(shown.stdout)["cubes"]["Nyx"]["curse"] == 2
    # the pages say who did it
    shown_by = '<span class="by">Nyx\'s phone:</span> Nyx receives 1 Curse Cube: 2 held, 5 can be held'
    deadline = time.monotonic() + 10
    while shown_by not in (page := served.request("/")[2].decode()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert shown_by in page


def test_take_back_my_last_restores_the_file_and_only_the_heros_own(served, example):
    urls = hero_urls(served.stdout)
    nyx, vacrem = Phone(urls["nyx"]), Phone(urls["vacrem"])
    before = (example / "adventure.toml").read_bytes()
    assert nyx.act(action="cube", kind="trauma", delta="+1")[0] == 200
    after_nyx = (example / "adventure.toml").read_bytes()
    assert "Take back my last" in nyx.get()
    assert "Take back my last" not in vacrem.get()
    status, answer = vacrem.act(action="undo")  # not Vacrem's to take back
    assert status == 409 and answer["exit"] == 1
    assert answer["message"] == ("campaigns/example/adventure.toml: undo: the last table event is not this hero's to "
                                 "take back (it is Nyx's, from their phone: Nyx receives 1 Trauma Cube: 1 held, 1 can be held); the scribe takes "
                                 "it back with `drunagor adventure undo`")
    assert (example / "adventure.toml").read_bytes() == after_nyx
    status, answer = nyx.act(action="undo")
    assert (status, answer["message"]) == (200, "took back 1 table event: cube: Nyx receives 1 Trauma Cube: 1 held, "
                                                "1 can be held")
    assert (example / "adventure.toml").read_bytes() == before


def test_the_scribes_undo_takes_a_phones_event_back(served, example):
    nyx = Phone(hero_urls(served.stdout)["nyx"])
    before = (example / "adventure.toml").read_bytes()
    assert nyx.act(action="recall", capacity="4")[0] == 200
    r = drunagor("-C", str(example), "adventure", "undo")
    assert r.returncode == 0 and r.stdout.startswith("took back 1 table event: recall: Nyx's Curse Cube capacity 4 recorded under [cards]; "
                                                 "Nyx takes a Recall Action")
    assert (example / "adventure.toml").read_bytes() == before


def test_without_javascript_the_answer_is_a_303_back_to_the_page_which_shows_it(served):
    nyx = Phone(hero_urls(served.stdout)["nyx"])
    status, headers, body = nyx.post({"action": "cube", "kind": "trauma", "delta": "+1"}, json_=False)
    assert (status, headers["location"], body) == (303, "/heroes/nyx#act", b"")
    page = nyx.get()
    assert ('<p id="answer" class="answer done" role="status" aria-live="polite">Nyx receives 1 Trauma Cube: 1 '
            'held, 1 can be held</p>') in page


def test_a_refusal_is_the_commands_own_with_its_exit_code(served, example):
    nyx = Phone(hero_urls(served.stdout)["nyx"])
    before = snapshot(example)
    status, answer = nyx.act(action="cube", kind="curse", delta="+1")  # the board's capacity is asked once
    assert (status, answer["ok"], answer["exit"]) == (400, False, 2)
    assert answer["message"].startswith("how many Curse Cubes does Nyx's board hold?")
    assert answer["lines"] == ["error: " + answer["message"]]
    status, answer = nyx.act(action="status", op="remove", status="Haunted")
    assert (status, answer["exit"]) == (409, 1)  # the command's own rule: Nyx has no such status
    r = drunagor("-C", str(example), "hero", "status", "Nyx", "remove", "Haunted")
    assert (r.returncode, r.stderr) == (1, "error: " + answer["message"] + "\n")  # its very words
    status, answer = nyx.act(action="cube", kind="rage", delta="+1")
    assert (status, answer["exit"]) == (400, 2)
    status, answer = nyx.act(action="fly")
    assert (status, answer) == (400, {"ok": False, "exit": 2, "lines": [
        "error: no action 'fly'; a hero's phone does cube, recall, undo, learn, ability, gain, aura, status, upgrade"],
        "message": "no action 'fly'; a hero's phone does cube, recall, undo, learn, ability, gain, aura, status, upgrade"})
    assert snapshot(example) == before


def test_a_phone_waits_for_a_writer_then_applies(example):
    server = Server(example, "--no-qr")
    try:
        nyx = Phone(hero_urls(server.stdout)["nyx"])
        held = threading.Event()

        def writer() -> None:  # another drunagor writing for a moment
            with CampaignLock(example):
                held.set()
                time.sleep(0.5)

        t = threading.Thread(target=writer)
        t.start()
        held.wait(5)
        status, answer = nyx.act(action="cube", kind="trauma", delta="+1")
        t.join()
        assert (status, answer["message"]) == (200, "Nyx receives 1 Trauma Cube: 1 held, 1 can be held")
    finally:
        server.stop()


def test_a_phone_answers_503_with_retry_after_while_another_command_keeps_writing(example):
    server = Server(example, "--no-qr", env={"DRUNAGOR_LOCK_TIMEOUT": "0.3"})
    try:
        nyx = Phone(hero_urls(server.stdout)["nyx"])
        before = snapshot(example)
        with CampaignLock(example):
            status, headers, body = nyx.post({"action": "cube", "kind": "trauma", "delta": "+1"})
        answer = json.loads(body)
        assert (status, headers["retry-after"], answer["exit"], answer["ok"]) == (503, "1", 4, False)
        assert answer["message"] == ("campaigns/example: lock: another drunagor command is still writing this campaign "
                                     "(waited 0.3 s); nothing was written; wait for it to finish, then re-run")
        assert snapshot(example) == before
        assert nyx.act(action="cube", kind="trauma", delta="+1")[0] == 200  # once it is free
    finally:
        server.stop()


def test_between_adventures_the_rewards_owed_are_taken_from_the_phone(example):
    assert drunagor("-C", str(example), "adventure", "end", "--won").returncode == 0
    server = Server(example, "--no-qr")
    try:
        nyx = Phone(hero_urls(server.stdout)["nyx"])
        buttons = re.findall(r"<button type=\"submit\">([^<]+)</button>", nyx.page)
        assert buttons == ["Gain the Class Ability", "Gain the card", "Set the Aura", "Add the status"]
        assert '<p class="owed alert">1 Class Ability, 1 Spoils of the Hero (Standard)</p>' in nyx.page
        assert nyx.act(action="ability", ability="Shadow Dance") == (200, {
            "ok": True, "exit": 0, "message": "Nyx gains the Class Ability Shadow Dance",
            "lines": ["Nyx gains the Class Ability Shadow Dance"]})
        status, answer = nyx.act(action="gain", card="Buckler")
        assert status == 200 and answer["message"] == "Nyx gains Buckler (spoils, standard, equipped)"
        assert nyx.act(action="aura", aura="Taunt")[0] == 200
        assert nyx.act(action="status", op="add", status="Haunted")[0] == 200
        deadline = time.monotonic() + 10
        while "nothing: the Campaign Log holds every reward" not in (page := nyx.get()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert '<p class="owed">nothing: the Campaign Log holds every reward of the chapters played</p>' in page
        buttons = re.findall(r"<button type=\"submit\">([^<]+)</button>", page)
        assert buttons == ["Set the Aura", "Clear the Aura", "Add the status", "Remove Haunted"]
        status, answer = nyx.act(action="upgrade", item="Twin-Blades")  # spoils upgrade --reward: none owed
        r = drunagor("-C", str(example), "spoils", "upgrade", "Nyx", "Twin-Blades", "--reward")
        assert (status, answer["exit"], r.returncode, r.stderr) == (409, 1, 1, "error: " + answer["message"] + "\n")
        hero = json.loads(drunagor("-C", str(example), "hero", "show", "Nyx", "--json").stdout)
        assert hero["aura"] == "Taunt" and hero["statuses"] == ["Haunted"]
        assert "Shadow Dance" in hero["class_abilities"]
    finally:
        server.stop()


def test_the_scribe_shows_a_heros_qr_code_on_request(example):
    import os
    import pty
    import select
    import signal

    master, slave = pty.openpty()
    proc = subprocess.Popen([drunagor_script(), "-C", str(example), "serve", "--port", "0"], stdin=slave,
                            stdout=slave, stderr=slave, env={**os.environ, "NO_COLOR": "1"}, start_new_session=True)
    os.close(slave)
    seen = b""

    def until(needle: bytes) -> None:
        nonlocal seen
        deadline = time.monotonic() + 20
        while needle not in seen and time.monotonic() < deadline:
            if select.select([master], [], [], 0.2)[0]:
                seen += os.read(master, 65536)
        assert needle in seen, seen

    try:
        until(b"Ctrl-C stops it")
        nyx = hero_urls(seen)["nyx"]
        assert "\u2584".encode() not in seen  # no QR code until asked
        os.write(master, b"Nyx\r")
        until(f"nyx: {nyx}".encode())
        assert seen.count("\u2584".encode()) > 20  # the QR code, on the scribe's terminal only
        os.write(master, b"Gandalf\r")
        until(b"no hero 'Gandalf': andreas, catharina, nyx, vacrem")
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(20)
        os.close(master)

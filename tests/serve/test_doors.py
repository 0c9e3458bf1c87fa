"""The doors' rule (drunagor_log/serve/doors.py) on connections of its own making: who is closed, when
(the real server under attack: tests/attack/test_serve.py), and the notices' one line a minute."""

from __future__ import annotations

from drunagor_log.serve.doors import GRACE_SECONDS, MAX_CONNECTIONS, NOTICE_SECONDS, PER_ADDRESS, Doors, Notices


class Transport:
    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        self.closed = True


class Loop:
    def __init__(self) -> None:
        self.later: list[tuple[float, object, tuple]] = []

    def call_later(self, delay, callback, *args) -> None:
        self.later.append((delay, callback, args))

    def time(self) -> float:
        return self.now

    now = 0.0


class Conn:
    def __init__(self, address: str, loop: Loop) -> None:
        self.address, self.loop, self.transport = address, loop, Transport()


def test_an_address_keeps_its_share_of_waiting_connections_and_its_newest():
    said: list[str] = []
    doors, loop = Doors(said.append), Loop()
    hoard = [Conn("10.0.0.9", loop) for _ in range(PER_ADDRESS + 10)]
    for c in hoard:
        doors.arrive(c, 0.0)
    assert not any(c.transport.closed for c in hoard)  # a burst within the grace: all let in
    [(delay, trim, args)] = loop.later  # its share looked at again after the grace
    assert delay == GRACE_SECONDS
    loop.now = GRACE_SECONDS
    trim(*args)
    assert [c.transport.closed for c in hoard] == [True] * 10 + [False] * PER_ADDRESS  # the oldest closed
    assert len(said) == 1 and said[0].startswith("10.0.0.9 opened more connections")


def test_a_busy_connection_is_not_waiting_and_a_full_server_lets_a_viewer_in():
    doors, loop = Doors(lambda text: None), Loop()
    streams = [Conn("10.0.0.2", loop) for _ in range(40)]
    for c in streams:
        doors.arrive(c, 0.0)
        doors.busy(c)  # a live stream: a request being answered
    idle = [Conn(f"10.0.1.{n % 4}", loop) for n in range(MAX_CONNECTIONS - 40)]
    for c in idle:
        doors.arrive(c, 0.5)
    viewer = Conn("10.0.0.3", loop)
    doors.arrive(viewer, 0.6)
    assert not viewer.transport.closed and not any(c.transport.closed for c in streams)
    assert sum(c.transport.closed for c in idle) == 1 and len(doors.open) == MAX_CONNECTIONS
    doors.leave(viewer)
    assert viewer not in doors.open and "10.0.0.3" not in doors.waiting


def test_notices_say_one_line_a_minute():
    said: list[str] = []
    now = [0.0]
    notice = Notices(said.append, clock=lambda: now[0])
    for t in (0.0, 1.0, NOTICE_SECONDS - 0.1, NOTICE_SECONDS, NOTICE_SECONDS + 5):
        now[0] = t
        notice(f"at {t}")
    assert said == ["at 0.0", f"at {NOTICE_SECONDS}"]
    Notices(None)("nothing said, nothing raised")

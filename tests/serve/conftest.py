"""A running `drunagor serve` on a copy of the example campaign, stopped after each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.serve.live import Server


@pytest.fixture
def served(example) -> Iterator[Server]:
    server = Server(example, "--no-qr")
    try:
        yield server
    finally:
        server.stop()

"""A running `drunagor serve` on a copy of the example campaign, stopped after each test; the one headless
Debian chromium of a browser test module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.serve.live import Server
from tests.sheet.browser import find


@pytest.fixture
def served(example) -> Iterator[Server]:
    server = Server(example, "--no-qr")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def chromium() -> Iterator:
    """Debian's chromium driven by Playwright (never a browser of its own), one per module."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find(), args=["--no-sandbox", "--disable-gpu"])
        try:
            yield browser
        finally:
            browser.close()

"""A hero's phone for the tests, over plain HTTP (http.client, loopback only): it opens the hero's URL
with its key once (the cookie it gets back is the key from then on), reads the page's token, and
posts the hero's actions as the page's forms post them."""

from __future__ import annotations

import http.client
import json
import re
from urllib.parse import urlencode, urlsplit

FORM = "application/x-www-form-urlencoded"
CSRF = re.compile(r'name="csrf" value="([0-9a-f]+)"')


def hero_urls(stdout: bytes) -> dict[str, str]:
    """Each hero's URL as `serve` printed it (file stem -> URL)."""
    return {m.group(2): m.group(1) for m in re.finditer(r"(http://\S+/heroes/([^?\s]+)\?key=[\w-]+)", stdout.decode())}


class Phone:
    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.path = parts.path
        self.origin = f"http://{self.host}:{self.port}"
        status, headers, body = self.request("GET", f"{parts.path}?{parts.query}")
        assert status == 200, (status, body)
        self.cookie = headers["set-cookie"].split(";")[0]
        self.page = body.decode()
        found = CSRF.search(self.page)
        assert found, "no action on the hero's page"
        self.csrf = found.group(1)

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            r = conn.getresponse()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
        finally:
            conn.close()

    def get(self, path: str | None = None) -> str:
        status, _, body = self.request("GET", path or self.path, headers={"Cookie": self.cookie})
        assert status == 200, status
        return body.decode()

    def post(self, fields: dict[str, str] | list[tuple[str, str]], *, hero: str | None = None, json_: bool = True,
             headers: dict[str, str] | None = None, csrf: bool = True) -> tuple[int, dict[str, str], bytes]:
        """POST the fields (with the page's token unless `csrf` is False) to the hero's /act, as the
        page's script does (`json_`: asking for JSON), from the page's own origin."""
        pairs = list(fields.items()) if isinstance(fields, dict) else list(fields)
        if csrf:
            pairs.append(("csrf", self.csrf))
        sent = {"Content-Type": FORM, "Cookie": self.cookie, "Origin": self.origin, "Sec-Fetch-Site": "same-origin"}
        if json_:
            sent["Accept"] = "application/json"
        sent.update(headers or {})
        sent = {k: v for k, v in sent.items() if v is not None}
        act = f"/heroes/{hero}/act" if hero else f"{self.path}/act"
        return self.request("POST", act, urlencode(pairs).encode(), sent)

    def act(self, **fields: str) -> tuple[int, dict]:
        """One action, its status and JSON answer."""
        status, _, body = self.post(fields)
        return status, json.loads(body)

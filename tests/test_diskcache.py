"""The cache outside the campaign: a changed source is parsed again; a broken cache costs nothing."""

from __future__ import annotations

import os

from drunagor_log.catalog import diskcache


def test_parsed_is_remembered_until_the_source_changes(tmp_path):
    src = tmp_path / "data.toml"
    src.write_text("a = 1\n")
    calls = []

    def parse(path):
        calls.append(path)
        return {"text": open(path).read()}

    assert diskcache.parsed(str(src), parse) == {"text": "a = 1\n"}
    assert diskcache.parsed(str(src), parse) == {"text": "a = 1\n"}
    assert len(calls) == 1
    src.write_text("a = 22\n")
    assert diskcache.parsed(str(src), parse) == {"text": "a = 22\n"}
    assert len(calls) == 2


def test_a_damaged_cache_is_made_again(tmp_path):
    src = tmp_path / "data.toml"
    src.write_text("x\n")
    diskcache.parsed(str(src), lambda p: 1)
    (entry,) = [p for p in os.listdir(diskcache.folder()) if p.startswith("parsed-")]
    with open(os.path.join(diskcache.folder(), entry), "wb") as f:
        f.write(b"\x00garbage")
    assert diskcache.parsed(str(src), lambda p: 2) == 2

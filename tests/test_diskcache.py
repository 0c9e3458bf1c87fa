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


def test_remembered_is_keyed_on_the_bytes_not_on_size_or_time(tmp_path):
    calls = []

    def make(value):
        def made():
            calls.append(value)
            return {"party": value}
        return made

    key = str(tmp_path / "story.toml")
    assert diskcache.remembered(key, b'party = "Dusk"\n', make("Dusk")) == {"party": "Dusk"}
    assert diskcache.remembered(key, b'party = "Dusk"\n', make("never")) == {"party": "Dusk"}
    # the same size, another text: a hand edit that kept the length (and, for all the cache knows, the time)
    assert diskcache.remembered(key, b'party = "Dawn"\n', make("Dawn")) == {"party": "Dawn"}
    assert calls == ["Dusk", "Dawn"]
    assert len([p for p in os.listdir(diskcache.folder()) if p.startswith("file-")]) == 1  # one entry a path


def test_remembered_gives_a_fresh_value_each_time(tmp_path):
    key = str(tmp_path / "story.toml")
    diskcache.remembered(key, b"x", lambda: {"followers": ["Vorn"]})
    first = diskcache.remembered(key, b"x", lambda: {})
    first["followers"].append("Gil")  # a caller that changes what it was given changes nothing kept
    assert diskcache.remembered(key, b"x", lambda: {}) == {"followers": ["Vorn"]}


def test_a_value_marshal_cannot_write_is_made_each_time(tmp_path):
    import datetime

    calls = []

    def made():
        calls.append(1)
        return {"day": datetime.date(2026, 12, 1)}  # a TOML date: marshal has no such type

    key = str(tmp_path / "story.toml")
    assert diskcache.remembered(key, b"day = 2026-12-01", made) == {"day": datetime.date(2026, 12, 1)}
    assert diskcache.remembered(key, b"day = 2026-12-01", made) == {"day": datetime.date(2026, 12, 1)}
    assert len(calls) == 2


def test_entries_not_written_for_a_month_are_pruned_once_a_day(tmp_path):
    old_key, new_key = str(tmp_path / "gone" / "story.toml"), str(tmp_path / "kept" / "story.toml")
    diskcache.remembered(old_key, b"a", lambda: {"a": 1})
    (old,) = [p for p in os.listdir(diskcache.folder()) if p.startswith("file-") and p.endswith(".marshal")]
    month = diskcache.UNUSED + 60
    os.utime(os.path.join(diskcache.folder(), old), (0, os.stat(os.path.join(diskcache.folder(), old)).st_mtime - month))
    diskcache.remembered(new_key, b"b", lambda: {"b": 2})  # a day has not passed since the first look
    assert old in os.listdir(diskcache.folder())
    os.utime(os.path.join(diskcache.folder(), "pruned-files"), (0, 0))  # the last look, long ago
    diskcache.remembered(str(tmp_path / "third.toml"), b"c", lambda: {"c": 3})
    left = sorted(p for p in os.listdir(diskcache.folder()) if p.endswith(".marshal"))
    assert old not in left and len(left) == 2
    assert diskcache.remembered(new_key, b"b", lambda: {"never": 0}) == {"b": 2}


def test_only_an_entry_tagged_under_the_user_s_key_is_decoded(tmp_path):
    key = str(tmp_path / "story.toml")
    diskcache.remembered(key, b"x", lambda: {"party": "Dusk"})
    (entry,) = [os.path.join(diskcache.folder(), p) for p in os.listdir(diskcache.folder()) if p.startswith("file-")]
    with open(entry, "rb") as f:
        raw = f.read()
    assert raw.startswith(diskcache._MAGIC)
    with open(entry, "wb") as f:  # the same value under another key: a forgery
        f.write(raw[:len(diskcache._MAGIC)] + bytes(diskcache._TAG) + raw[len(diskcache._MAGIC) + diskcache._TAG:])
    assert diskcache.remembered(key, b"x", lambda: {"party": "made again"}) == {"party": "made again"}
    with open(entry, "wb") as f:  # 5 bytes of marshal asking for 16 GiB, after a header
        f.write(diskcache._MAGIC + bytes(diskcache._TAG) + b"[\xff\xff\xff\x7f")
    assert diskcache.remembered(key, b"x", lambda: {"party": "again"}) == {"party": "again"}


def test_a_relative_xdg_cache_home_is_ignored(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", "cache")
    assert diskcache.folder() == os.path.join(str(tmp_path), ".cache", "drunagor")

"""The environment through the one number rule (issue 41.4; docs/errors.md "Limits"), in process: the
pseudo-terminal runs of every variable are tests/attack/test_environment.py."""

from __future__ import annotations

import io
import json

import pytest

from drunagor_log.cli.terminal import _ascii_json, settle_environment
from drunagor_log.store import lock
from drunagor_log.values import setting


@pytest.mark.parametrize("text, expected", [
    ("80", 80), (" 80\t", 80), ("0", 7), ("-1", 7), ("", 7), (None, 7), ("nan", 7), ("inf", 7), ("1e3", 7),
    ("٣", 7), ("３", 7), ("1_0", 7), ("9" * 100_000, 7), ("100001", 7), ("0.5", 7),
])
def test_a_whole_setting(text, expected):
    assert setting(text, 7, low=1, high=100_000) == expected


@pytest.mark.parametrize("text, expected", [("0.2", 0.2), ("120", 120), ("0", 0), ("nan", 10.0), ("-1", 10.0),
                                            ("1e9", 10.0), ("86401", 10.0), (".5", 10.0), ("5.", 10.0)])
def test_the_lock_timeout(monkeypatch, text, expected):
    monkeypatch.setenv("DRUNAGOR_LOCK_TIMEOUT", text)
    assert lock._lock_timeout() == expected


def test_settle_takes_out_a_size_that_is_none():
    environ = {"COLUMNS": "0", "LINES": "9" * 100_000, "TERM": "xterm"}
    settle_environment(environ)
    assert environ == {"TERM": "xterm"}
    environ = {"COLUMNS": "120", "LINES": " 40 "}
    settle_environment(environ)
    assert environ == {"COLUMNS": "120", "LINES": " 40 "}


def test_json_for_a_stream_that_cannot_write_every_character_is_the_same_value():
    value = {"party": "Łucja ☃ \U0001f409", "file": "h\\xffro"}
    text = json.dumps(value, ensure_ascii=False)
    escaped = _ascii_json(text)
    assert escaped.isascii() and json.loads(escaped) == value
    assert "\\ud83d\\udc09" in escaped  # past the BMP: its UTF-16 pair, as JSON writes it


def test_a_latin1_stream_escapes_instead_of_a_traceback(monkeypatch):
    stream = io.TextIOWrapper(io.BytesIO(), encoding="latin-1")
    monkeypatch.setattr("sys.stdout", stream)
    settle_environment({})
    stream.write("Łucja é")
    stream.flush()
    assert stream.buffer.getvalue() == "\\u0141ucja é".encode("latin-1")

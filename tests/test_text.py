"""drunagor_log.text, the output rule's one sanitizer (docs/errors.md, "The output rule")."""

from __future__ import annotations

import json
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from drunagor_log.text import is_os_name_utf8, json_escaped, os_name, visible

SHOWN = ("Cc", "Cf", "Zl", "Zp", "Cs")


def raw(text: str) -> set[str]:
    return {ch for ch in text if ch not in "\n\t" and unicodedata.category(ch) in SHOWN}


def test_visible_writes_out_what_a_terminal_acts_on_and_keeps_layout():
    assert visible("a\x1b]0;T\x07\x9b2J\u202eb\u2066\x7f\r\u200b\n\tc") == (
        "a<U+001B>]0;T<U+0007><U+009B>2J<U+202E>b<U+2066><U+007F><U+000D><U+200B>\n\tc")
    assert visible("Ярослава, Zoë [bold] ● \u00a0") == "Ярослава, Zoë [bold] ● \u00a0"  # printable: as it is
    assert visible("\U000e0001") == "<U+E0001>"  # a tag character, past the BMP


def test_a_name_that_is_not_utf8_is_shown_by_its_bytes():
    assert os_name(b"h\xffro.toml") == "h\\xffro.toml"
    assert os_name("h\udcffro.toml") == "h\\xffro.toml"  # os.listdir's str of the same name
    assert os_name("Ярослава.toml") == "Ярослава.toml"
    assert visible("camp\udcff") == "camp\\xff"
    assert not is_os_name_utf8("h\udcffro") and is_os_name_utf8("héro") and is_os_name_utf8("hero")


def test_json_escapes_c1_bidi_and_del_and_a_name_that_is_not_utf8():
    dumped = json_escaped(json.dumps({"a": "x\x9b\u202e\x7f\x1b", "n": "h\udcffro"}, ensure_ascii=False))
    assert dumped == '{"a": "x\\u009b\\u202e\\u007f\\u001b", "n": "h\\\\xffro"}'
    assert json.loads(dumped) == {"a": "x\x9b\u202e\x7f\x1b", "n": "h\\xffro"}


@given(st.recursive(st.text() | st.integers() | st.none() | st.booleans(),
                    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
                    max_leaves=12))
def test_json_stays_the_same_value_with_nothing_raw(value):
    dumped = json_escaped(json.dumps(value, ensure_ascii=False, indent=2))
    assert not raw(dumped)
    assert json.loads(dumped) == json.loads(json.dumps(value))  # surrogates aside (st.text has none)


@given(st.text())
def test_visible_leaves_nothing_raw_and_changes_nothing_printable(text):
    shown = visible(text)
    assert not raw(shown)
    if not raw(text):
        assert shown == text

"""TOML text for values drunagor writes itself (new files, inline tables, the adventure state).

JSON's string escapes are not TOML's: TOML forbids a raw DEL (U+007F) in a basic string, which
json.dumps leaves as it is. One function, used everywhere a string is written as TOML text.
"""

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def basic_string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped (DEL included)."""
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch < " " or ch == "\x7f":
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'

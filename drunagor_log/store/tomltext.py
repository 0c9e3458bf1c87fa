"""TOML text for values drunagor writes itself (new files, inline tables, the adventure state).

JSON's string escapes are not TOML's: TOML forbids a raw DEL (U+007F) in a basic string, which
json.dumps leaves as it is. One function, used everywhere a string is written as TOML text; and one
for a whole number, which TOML holds in 64 bits (docs/errors.md "Numbers").
"""

from ..errors import DataError
from ..values import INT64_MAX, INT64_MIN, fits_toml


def integer(value: int) -> str:
    """A whole number as TOML text; refused (exit 3, nothing written) past TOML's 64-bit integers,
    which no other tool reads back (tomllib alone takes them)."""
    if not fits_toml(value):
        raise not_written(value)
    return str(value)


def not_written(value: int) -> DataError:
    shown = str(value) if len(str(value)) <= 40 else f"a number of {len(str(value))} digits"
    return DataError(f"{shown} is past TOML's 64-bit integers ({INT64_MIN} to {INT64_MAX}), which no other "
                     "tool reads back", rule="limits", remedy="nothing was written; give a smaller number")

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

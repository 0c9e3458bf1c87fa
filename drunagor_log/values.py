"""`@record`: immutable value types, like `@dataclass(frozen=True)` but cheap to define.

A frozen dataclass generates and compiles its methods when the module is imported (about 1.5 ms a
class on the machines drunagor runs on), and the commands must start in about the framework's own
time (SPEC section 7). A record reads its fields from the class annotations and shares one generic
`__init__`, `__eq__`, `__hash__` and `__repr__`: nothing is compiled.

    @record
    class Skill:
        name: str
        level: int = 1
        tags: tuple = ()
        extra: dict = field(factory=dict)   # a fresh dict for each value

Values support `replace(value, **changes)` and `fields(value)` (names, in order). A class may define
`__post_init__(self)` to check or normalise its fields (it sets them with `object.__setattr__`), as
a dataclass does, and its own `__hash__` (e.g. `__hash__ = None` for a value that holds a dict).

Below the records, the one way in for numbers (`whole`, `NotANumber`): every layer may import it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")


class Factory:
    """A default made fresh for each value (like dataclasses.field(default_factory=...))."""

    __slots__ = ("make",)

    def __init__(self, factory: Callable[[], Any]):
        self.make = factory


def field(*, factory: Callable[[], T]) -> T:
    """A field whose default is made fresh for each value: `tags: dict = field(factory=dict)`.
    Type checkers (PEP 681) read it as a default of the field's own type."""
    return Factory(factory)  # type: ignore[return-value]


def _init(self, *args, **kwargs) -> None:
    cls = type(self)
    names = cls.__record_fields__
    if len(args) > len(names):
        raise TypeError(f"{cls.__name__} takes {len(names)} values, got {len(args)}")
    values = dict(zip(names, args, strict=False))
    for key, value in kwargs.items():
        if key not in cls.__record_index__:
            raise TypeError(f"{cls.__name__} has no field {key!r}")
        if key in values:
            raise TypeError(f"{cls.__name__} got {key!r} twice")
        values[key] = value
    defaults = cls.__record_defaults__
    for name in names:
        if name in values:
            value = values[name]
        elif name in defaults:
            value = defaults[name]
            if type(value) is Factory:
                value = value.make()
        else:
            raise TypeError(f"{cls.__name__} needs {name!r}")
        object.__setattr__(self, name, value)
    post = cls.__record_post__
    if post is not None:
        post(self)


def _values(self) -> tuple:
    return tuple(getattr(self, n) for n in self.__record_fields__)


def _eq(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self):
    return hash((self.__class__.__name__,) + _values(self))


def _repr(self):
    inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__record_fields__)
    return f"{self.__class__.__name__}({inner})"


def _frozen(self, name, value):
    raise AttributeError(f"{self.__class__.__name__} is immutable: cannot set {name!r}")


def _delete(self, name):
    raise AttributeError(f"{self.__class__.__name__} is immutable: cannot delete {name!r}")


@dataclass_transform(frozen_default=True, field_specifiers=(field, Factory))
def record(cls: Any = None, /, **_options: Any) -> Any:
    """Make `cls` an immutable value type; `@record` and `@record(frozen=True)` both work.

    `dataclass_transform` tells type checkers that a record has a dataclass-like `__init__` over
    its annotated fields (mypy then checks every construction)."""

    def wrap(cls: Any) -> Any:
        names: list[str] = []
        defaults: dict[str, Any] = {}
        for klass in reversed(cls.__mro__):
            for name, kind in klass.__dict__.get("__annotations__", {}).items():
                if "ClassVar" in str(kind):
                    continue
                if name not in names:
                    names.append(name)
                if name in klass.__dict__:
                    defaults[name] = klass.__dict__[name]
        for name in defaults:  # defaults live in the record, not as class attributes
            if name in cls.__dict__:
                delattr(cls, name)
        cls.__record_fields__ = tuple(names)
        cls.__record_index__ = frozenset(names)
        cls.__record_defaults__ = defaults
        cls.__record_post__ = getattr(cls, "__post_init__", None)
        cls.__init__ = _init
        cls.__eq__ = _eq
        if "__hash__" not in cls.__dict__:
            cls.__hash__ = _hash
        cls.__repr__ = _repr
        cls.__setattr__ = _frozen
        cls.__delattr__ = _delete
        return cls

    return wrap if cls is None else wrap(cls)


def replace(value, **changes):
    """A copy of a record with some fields changed (like dataclasses.replace)."""
    current = {n: getattr(value, n) for n in value.__record_fields__}
    current.update(changes)
    return value.__class__(**current)


def fields(value) -> tuple[str, ...]:
    """Field names of a record (or record class), in order."""
    return value.__record_fields__


def as_dict(value) -> dict[str, Any]:
    return {n: getattr(value, n) for n in value.__record_fields__}


# ---------------------------------------------------------------------------------------- Numbers
#
# One way in for numbers: every whole number a person types or a campaign file, a file name or a token
# holds is read here, by one rule (docs/errors.md, "Numbers").
#
# - ASCII digits only, with an optional sign where the value takes one: `²`, `①`, `٣`, `３`, `1_000`, `1e3`
#   are not numbers (Python's `int()` takes `٣` and `1_000`, and raises on `²`). Spaces and tabs around
#   the digits are left out; any other character is refused.
# - Within the value's own domain (`low`, `high`), and never past TOML's 64-bit integers, the most any
#   tool reads back from a campaign file. A number of more than 19 digits is refused from its length,
#   never converted (Python refuses past 4,300 digits with a ValueError of its own).
#
# A refusal is a `NotANumber` (a ValueError) carrying the message and the remedy in one wording; the
# caller says whose mistake it is: a usage error (exit 2) for what was typed, a data error (exit 3) for
# what a file holds.

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
DIGITS = 19  # the digits of INT64_MAX: a longer number (leading zeros left out) is past it

_WHOLE = re.compile(r"([+-]?)([0-9]+)", re.ASCII)
_ASCII_DIGITS = re.compile(r"[0-9]+", re.ASCII)
_SHOWN = 40  # characters of the refused text a message quotes


class NotANumber(ValueError):
    """Text that is not a whole number of the value's domain: `message` and `remedy`, in one wording."""

    def __init__(self, message: str, remedy: str):
        super().__init__(f"{message}; {remedy}")
        self.message = message
        self.remedy = remedy


def shown(text: str) -> str:
    """The refused text as a message quotes it: cut to 40 characters, quoted, control and invisible
    characters escaped (repr)."""
    return repr(text[:_SHOWN] + ("…" if len(text) > _SHOWN else ""))


def _bounds(low: int | None, high: int | None) -> tuple[int, int]:
    return (INT64_MIN if low is None else max(low, INT64_MIN)), (INT64_MAX if high is None else min(high, INT64_MAX))


def domain(low: int | None = None, high: int | None = None) -> str:
    """'from 1 to 5', '0 or more', '12 or less': the bounds given, else TOML's."""
    lo, hi = _bounds(low, high)
    if low is not None and high is None and lo >= 0:
        return f"{lo} or more"
    if high is not None and low is None and hi <= 0:
        return f"{hi} or less"
    return f"from {lo} to {hi}"


def whole(text: str, *, low: int | None = None, high: int | None = None, signed: bool = True,
          what: str = "", example: str = "3") -> int:
    """`text` as a whole number from `low` to `high` (each at most TOML's 64-bit bound), or NotANumber.
    `signed=False`: no sign may be written (a count in `red=2`). `what` names the value in the message
    ('--rune-bag red'), `example` is what the remedy shows."""
    lead = f"{what} " if what else ""
    m = _WHOLE.fullmatch(text.strip(" \t"))
    if m is None or (m.group(1) and not signed):
        raise NotANumber(f"{lead}{shown(text)} is not a number", f"write it in the digits 0-9, e.g. {example}")
    sign, digits = m.groups()
    lo, hi = _bounds(low, high)
    significant = digits.lstrip("0") or "0"
    if len(significant) > DIGITS:
        n = None
    else:
        n = int(significant) * (-1 if sign == "-" else 1)
    if n is None or not lo <= n <= hi:
        said = sign + significant if len(significant) <= _SHOWN else shown(sign + significant)
        side = "too small" if (n is None and sign == "-") or (n is not None and n < lo) else "too large"
        raise NotANumber(f"{lead}{said} is {side}", f"give a whole number {domain(low, high)}")
    return n


def looks_like_number(text: str) -> bool:
    """True when `text` is written as a number of some kind (digits of any script, signs, underscores,
    spaces: `²`, `٣`, `+①`, `1_000`), so that a command which also takes a word there (a slot or a
    colour, a name) refuses it as a number, not as an unknown word."""
    t = text.strip()
    return any(ch.isnumeric() for ch in t) and all(ch.isnumeric() or ch in "+-_.," or ch.isspace() for ch in t)


def is_digits(text: str) -> bool:
    """True when `text` is ASCII digits only (an archive's `05-2`, a Pile's id): `str.isdigit` is true
    of `²` and `٣` too, which `int()` then refuses or reads as 3."""
    return _ASCII_DIGITS.fullmatch(text) is not None


def fits_toml(value: int) -> bool:
    """A whole number TOML holds (64-bit): what every writer of a campaign file checks."""
    return INT64_MIN <= value <= INT64_MAX


def json_int(text: str) -> int:
    """A JSON integer of a token (json.loads' parse_int): within TOML's 64-bit bound, never converted
    past 19 digits (NotANumber, a ValueError)."""
    return whole(text, what="the JSON number")


def json_float(text: str) -> float:
    """A JSON number with a fraction or an exponent (parse_float): finite (`1e999` is infinity)."""
    value = float(text)
    if not math.isfinite(value):
        raise NotANumber(f"the JSON number {shown(text)} is past what a number holds", "write a finite number")
    return value


def json_constant(text: str) -> float:
    """NaN, Infinity and -Infinity (parse_constant): not JSON, never read (Python's json takes them)."""
    raise NotANumber(f"{text} is not a number JSON allows", "write a finite number")


def json_loads(text: str) -> Any:
    """json.loads with its numbers read by the rule above: a token, and what a file kept of one, is a
    stranger's text (NaN, Infinity, 1e999 and integers past 64 bits are refused: a ValueError)."""
    import json  # here: most commands read no JSON

    return json.loads(text, parse_int=json_int, parse_float=json_float, parse_constant=json_constant)


_SETTING = re.compile(r"([0-9]{1,9})(?:\.([0-9]{1,9}))?", re.ASCII)


def setting(text: str | None, default: float, *, low: float, high: float, fraction: bool = False) -> float:
    """A number the environment gives (DRUNAGOR_LOCK_TIMEOUT, COLUMNS, LINES) read by the rule above: ASCII
    digits (with `fraction`, a decimal point and more digits: `0.2`), spaces and tabs around them left out,
    from `low` to `high`; anything else (empty, `nan`, `inf`, `٣`, `0` where `low` is 1, 100,000 digits) is
    `default`. Never an error: a variable set wrong is as good as one not set (docs/errors.md "Limits")."""
    m = _SETTING.fullmatch((text or "").strip(" \t"))
    if m is None or (m.group(2) is not None and not fraction):
        return default
    value = float(m.group(0)) if m.group(2) is not None else int(m.group(1))
    return value if low <= value <= high else default

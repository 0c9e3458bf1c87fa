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
"""

from __future__ import annotations

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

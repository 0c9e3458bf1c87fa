"""A campaign file as read: `TomlFile`, its bytes, its plain values, its schema, and its tomlkit
document once a command edits it (parsed a second time only then: tomlkit is slow to import).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..errors import DataError, DrunagorError, RuleError, located
from ..values import fits_toml
from . import schema as schemas
from . import tomlkit_adapter
from .lines import line_of
from .paths import display
from .read import parse, read_bytes, written
from .schema import check_schema, newer_refusal
from .tomltext import not_written


class TomlFile:
    """One campaign file as read: its bytes, its plain values, and (on demand) an editable tomlkit
    document. `new_bytes()` is None while nothing changed, so an unchanged file is never written.

    `migrating=True` (for `drunagor migrate` only) accepts a file of an older schema."""

    def __init__(self, path: Path, raw: bytes | None = None, *, data: dict | None = None,
                 migrating: bool = False):
        self.path = path
        self.shown = display(path)
        self.migrating = migrating
        self._doc: Any = None
        self._restore: Callable[[str], str] = str  # the long comments back (tomlkit_adapter.editable)
        self._text: str | None = None
        if raw is None:  # a new file, created by this command
            self.raw = None
            self.data = data if data is not None else {}
            return
        self.raw = raw
        self.data = parse(raw, path, cache=True)
        check_schema(self.data, self, migrating=migrating)

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = (self.raw or b"").decode("utf-8")
        return self._text

    @property
    def schema(self) -> int | None:
        schema = self.data.get("schema")
        return schema if isinstance(schema, int) and not isinstance(schema, bool) else None

    @property
    def read_only(self) -> bool:
        """A newer schema than this drunagor knows: read with a warning, never written (SPEC 2)."""
        return self.schema is not None and self.schema > schemas.SCHEMA

    def edit(self):
        """The tomlkit document to mutate in place (parsed once, lazily: tomlkit is slow to import)."""
        if self.read_only:
            raise newer_refusal(self.schema, self.shown)
        if self._doc is None:
            if self.raw is None:
                self._doc = tomlkit_adapter.document()
            else:
                try:
                    self._doc, self._restore = tomlkit_adapter.editable(self.text)
                except Exception as exc:  # tomlkit's own errors on a file tomllib accepted
                    raise DataError(f"the file cannot be edited ({exc})", file=self.shown,
                                    rule="toml-syntax", remedy="simplify the TOML around that place") from None
        return self._doc

    def new_bytes(self) -> bytes | None:
        if self._doc is None:
            return None
        out = self._restore(tomlkit_adapter.dumps(self._doc)).encode("utf-8")
        if out != self.raw and _LONG_DIGITS.search(out):  # maybe an integer past TOML's 64 bits: never written
            too_big = _past_64_bits(out)
            if too_big is not None:
                raise located(not_written(too_big), self.shown)
        return None if out == self.raw else out

    def line(self, key_path: tuple) -> int | None:
        return line_of(self.text, key_path) if self.raw is not None else None

    @contextlib.contextmanager
    def about(self, key_path: tuple = ()) -> Iterator[None]:
        """Errors raised inside are about this file: a DrunagorError without a file gets this one,
        and the line of its own key path (a FieldError's) or of `key_path`. The pure layers (model,
        rules) know no files; this is where their refusals learn where they point."""
        try:
            yield
        except DrunagorError as exc:
            if exc.file is None:
                path = getattr(exc, "key_path", None) or key_path
                located(exc, self.shown, self.line(path) if path else None)
            raise

    def refuse(self, key_path: tuple, message: str, *, rule: str | None = None, remedy: str | None = None,
               error: type[DrunagorError] = RuleError) -> DrunagorError:
        """The refusal `error(message)` about this file, at the line of `key_path` (no line for `()`): the
        one way a caller that holds the file says FILE:LINE."""
        return error(message, file=self.shown, line=self.line(key_path) if key_path else None, rule=rule,
                     remedy=remedy)

    def _written(self, data: bytes) -> None:
        """The file now holds `data` (after a save): a second save compares with these bytes."""
        self.raw = data
        self._text = None
        values = written(data, self.path)
        if values is not None:
            self.data = values


_LONG_DIGITS = re.compile(rb"[0-9]{20}")


def _past_64_bits(out: bytes) -> int | None:
    """The first whole number past TOML's 64 bits in the TOML text `out` (tomlkit writes any int)."""
    import tomllib

    try:
        stack: list[Any] = [tomllib.loads(out.decode("utf-8"))]
    except ValueError:  # past Python's 4,300 digits
        return 10 ** 4300
    while stack:
        value = stack.pop()
        for v in value.values() if isinstance(value, dict) else value:
            if isinstance(v, (dict, list)):
                stack.append(v)
            elif isinstance(v, int) and not isinstance(v, bool) and not fits_toml(v):
                return v
    return None


def load(path: Path, *, migrating: bool = False, root: Path | None = None) -> TomlFile:
    """Read and parse one campaign file. `migrating=True` accepts older schemas (migrate only);
    `root`, the campaign folder, refuses a file reached through a symbolic link (read_bytes)."""
    return TomlFile(path, read_bytes(path, root), migrating=migrating)

"""The schema of a campaign file (SPEC section 2): every file starts with `schema = N`; this drunagor
reads and writes SCHEMA. A file of a newer schema is read with a warning and never written; a file of
an older one is refused by every command but `drunagor migrate`, when a chain of migration steps
leads from it to SCHEMA (else the refusal says what to do by hand). The wording of both lives here,
once.

STEPS is the table of migrations: `STEPS[n]` turns a file at schema n into schema n + 1, in place, on
its tomlkit document (comments, key order and unknown keys survive); `step(doc, kind)` does nothing
else, no files, no terminal; `kind` says which file it is ("story", "hero", "adventure", "archive").
Add one per schema bump; never edit a released step. Schema 1 is the first, so STEPS is empty today
(the tests inject a synthetic 0 -> 1 step). The runner is the `migrate` operation (ops/migrate.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import DataError
from ..values import INT64_MAX, NotANumber, whole

if TYPE_CHECKING:
    from .tomlfile import TomlFile

SCHEMA = 1
Step = Callable[[Any, str], None]
STEPS: dict[int, Step] = {}
RUN_MIGRATE = "run `drunagor migrate`"
UPGRADE = "upgrade drunagor (pip install -U drunagor)"

_SCHEMA_LINE = re.compile(rb"^\s*schema\s*=\s*(\d+)\s*(?:#.*)?$", re.M)


def schema_of(raw: bytes) -> int | None:
    """The `schema = N` of a file's bytes, without parsing it (None if there is none)."""
    m = _SCHEMA_LINE.search(raw)
    if m is None:
        return None
    try:
        return whole(m.group(1).decode("ascii"))
    except NotANumber:  # past 64 bits (int() raised past 4,300 digits): newer than any drunagor
        return INT64_MAX


def newer(schema: object) -> str:
    """What a file of a newer schema is: 'schema 2 is newer than this drunagor knows (1)'."""
    return f"schema {schema} is newer than this drunagor knows ({SCHEMA})"


def newer_refusal(schema: object, shown: str, line: int | None = 1) -> DataError:
    """The refusal to write a file of a newer schema (SPEC section 2): it is read-only here."""
    return DataError(f"{newer(schema)}; the file is read-only", file=shown, line=line, rule="schema",
                     remedy=UPGRADE)


def older(schema: int, steps: dict[int, Step] | None = None) -> tuple[str, str]:
    """(message, remedy) for a file at an older `schema`, honest about whether `drunagor migrate` can
    bring it to SCHEMA: only then does the remedy name migrate (SPEC 6: the remedy must work). A schema
    below the first one the table knows was not written by drunagor: no command sends it to migrate."""
    steps = STEPS if steps is None else steps
    first = min(steps, default=SCHEMA)  # the first schema drunagor wrote (1 while STEPS is empty)
    if schema < first:
        return (f"schema {schema} was not written by drunagor (its first schema is {first})",
                f"if the file follows the format in README, set `schema = {SCHEMA}`, then run `drunagor check`")
    if all(n in steps for n in range(schema, SCHEMA)):
        return f"schema {schema} is older than this drunagor's ({SCHEMA})", RUN_MIGRATE
    return (f"schema {schema} is older than this drunagor's ({SCHEMA}) and no migration from it is known",
            f"bring the file to the format in README by hand and set `schema = {SCHEMA}`")


def check_schema(data: dict, f: TomlFile, *, migrating: bool = False) -> None:
    """A file's `schema`: present, a whole number, not older than SCHEMA (unless migrating)."""
    schema = data.get("schema")
    if schema is None:
        raise DataError("no `schema` key", file=f.shown, line=1, rule="schema",
                        remedy=f"add `schema = {SCHEMA}` as the first line")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 0:
        raise f.refuse(("schema",), f"`schema` must be a whole number, not {schema!r}", rule="schema",
                       remedy=f"write `schema = {SCHEMA}`", error=DataError)
    if schema < SCHEMA and not migrating:
        message, remedy = older(schema)
        raise f.refuse(("schema",), message, rule="schema", remedy=remedy, error=DataError)

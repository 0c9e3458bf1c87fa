"""The TOML editing layer: every change drunagor makes inside a campaign file, in one place.

Operations (drunagor_log/ops/) get a file's tomlkit document from `TomlFile.edit()` and change it
only through these functions, so the files keep one layout everywhere:

- a list the tool records (followers, skills, equipment, chest cards...) holds one entry per line,
  so two players adding to it in git merge cleanly;
- a new top-level key goes beside its neighbours, before the file's first table;
- a new key in a table goes after the table's entries, before the blank line that closes it;
- comments, key order and keys a user added survive.

tomlkit itself is reached through store/tomlkit_adapter.py, the one module that imports it (its
private names included); nothing here loads it before a command edits a file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from . import tomlkit_adapter as tk
from .tomltext import basic_string, integer


def _casefold_match(a: str, b: str) -> bool:
    return a.casefold() == b.casefold()


def value_text(value: Any) -> str:
    """A scalar as TOML text: true/false, a whole number, or a basic string."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return integer(value)
    return basic_string(value)


def inline(fields: dict[str, Any]) -> Any:
    """An inline table as the files write them: `{ name = "...", copies = 2 }` (None fields left out)."""
    body = ", ".join(f"{k} = {value_text(v)}" for k, v in fields.items() if v is not None)
    return tk.value(f"{{ {body} }}")


def item(value: Any) -> Any:
    """A tomlkit item for a plain value (a dict becomes an inline table)."""
    if isinstance(value, dict):
        return inline(value)
    if isinstance(value, str):
        return tk.parse("x = " + basic_string(value))["x"]
    if isinstance(value, int) and not isinstance(value, bool):
        integer(value)  # refused past TOML's 64 bits
    return value


def _entry_text(value: Any) -> str:
    return inline(value).as_string() if isinstance(value, dict) else value_text(value)


def _array_lines(lines: list[str]) -> Any:
    return tk.value("[\n" + "".join(f"  {line},\n" for line in lines) + "]")


def append_entries(container: Any, key: str, values: Iterable[Any], after: Iterable[str] = ()) -> None:
    """Append to the array `container[key]`, one entry per line (merge-friendly).

    A missing array is created: after the first key of `after` the container has, else (at the top
    level) before the first table; a one-line array is rewritten as a multi-line one, keeping its
    trailing comment."""
    values = list(values)
    if not values:
        return
    if key not in container:
        new = _array_lines([_entry_text(v) for v in values])
        new.trivia.trail = "\n"
        insert_top(container, key, new, after)
        return
    arr = container[key]
    if "\n" in arr.as_string():
        for v in values:
            arr.append(item(v))
        return
    lines = [e.as_string().strip() for e in arr] + [_entry_text(v) for v in values]
    container[key] = _array_lines(lines)  # tomlkit keeps the key's place and trailing comment


def append_entry(container: Any, key: str, value: Any, after: Iterable[str] = ()) -> None:
    """Append one entry to the array `container[key]` (see append_entries)."""
    append_entries(container, key, [value], after)


def entry_index(container: Any, key: str, name: str, match: Callable[[str, str], bool] = _casefold_match,
                field: str = "name") -> int | None:
    """The index of the first entry of the array `container[key]` that names `name` (by `match`): a
    string entry, or an inline table's `field`; None when there is none (or no array)."""
    if key not in container:
        return None
    for i, entry in enumerate(container[key]):
        value = entry.get(field, "") if hasattr(entry, "get") else entry
        if match(str(value), name):
            return i
    return None


def remove_entry(container: Any, key: str, index: int) -> None:
    """Remove entry `index` of the array `container[key]`; an emptied array is written `[]`."""
    arr = container[key]
    del arr[index]
    if len(arr) == 0:
        container[key] = tk.array()  # `[]`, not an empty multiline bracket; keeps the comment


def replace_entry(container: Any, key: str, index: int, value: Any) -> None:
    """Replace entry `index` of the array `container[key]` in place (its line stays where it is)."""
    container[key][index] = item(value)


def set_in_entry(container: Any, key: str, index: int, field: str, value: Any,
                 after_field: str | None = None) -> None:
    """Set `field` of the inline-table entry `index` of the array `container[key]`.

    A field the entry has is changed in place (the entry's own spacing kept); a new one goes after
    `after_field` (else last), the entry being rewritten as the files write inline tables. A plain
    string entry ("Potion of Healing") becomes `{ name = "...", FIELD = ... }`."""
    entry = container[key][index]
    if isinstance(entry, str):
        replace_entry(container, key, index, {"name": str(entry), field: value})
        return
    if field in entry:
        entry[field] = value
        return
    values: dict[str, Any] = {}
    for k, v in entry.unwrap().items():
        values[k] = v
        if k == after_field:
            values[field] = value
    values.setdefault(field, value)
    replace_entry(container, key, index, values)


def add_key(container: Any, key: str, value: Any) -> None:
    """A new key; at the top level of a document it goes before the first table."""
    if tk.is_document(container):  # a document
        body = tk.body(container)
        for i, (k, entry) in enumerate(body):
            if k is not None and tk.is_table_or_aot(entry):
                while i > 0 and body[i - 1][0] is None and tk.is_whitespace(body[i - 1][1]):
                    i -= 1  # before the blank line that sets the table off
                tk.insert_at(container, i, key, value)
                return
    container[key] = value


def insert_top(doc: Any, key: str, value: Any, after: Iterable[str] = ()) -> None:
    """Add a top-level key after the first of `after` the document has, else as add_key does."""
    for prev in after:
        if prev in doc:
            tk.insert_after(doc, prev, key, value)  # keeps everything else as is
            return
    add_key(doc, key, value)


def table(doc: Any, key: str) -> Any:
    """The table `doc[key]`, created (empty) when missing."""
    if key not in doc:
        doc[key] = tk.table()
    return doc[key]


def add_to_table(tbl: Any, key: str, value: Any) -> None:
    """A new key at the end of a table's entries, before the blank lines that close it (tomlkit
    would put it after them, gluing the next table header to it)."""
    if "\n" not in value.trivia.trail:
        value.trivia.trail = "\n"
    body = tk.body(tbl)
    idx = len(body)
    while idx > 0 and body[idx - 1][0] is None and tk.is_whitespace(body[idx - 1][1]):
        idx -= 1
    if idx == len(body):
        tbl[key] = value
    else:
        tk.insert_at(tbl, idx, key, value)


def find_key(tbl: Any, name: str, match: Callable[[str, str], bool] = _casefold_match) -> str | None:
    """The key of `tbl` that names `name` (by `match`), or None."""
    return next((k for k in tbl.keys() if match(k, name)), None)


def set_card_facts(doc: Any, name: str, facts: dict[str, Any],
                   match: Callable[[str, str], bool] = _casefold_match) -> None:
    """Record facts about a card under [cards] (SPEC "User-recorded facts"), in the card's own entry.

    Facts that are None are left out; an entry the file already has (by `match`) keeps its other
    facts and its place."""
    facts = {k: v for k, v in facts.items() if v is not None}
    if not facts:
        return
    cards = table(doc, "cards")
    key = find_key(cards, name, match)
    if key is not None and hasattr(cards[key], "keys"):
        entry = cards[key]
        if all(k in entry for k in facts):
            for k, v in facts.items():
                entry[k] = v  # in place: the entry's own spacing kept
        else:  # a new fact: the entry written as the files write inline tables (tomlkit would pad it)
            cards[key] = inline({**entry.unwrap(), **facts})
        return
    add_to_table(cards, name, inline(facts))


def forget_card_facts(doc: Any, name: str, facts: Iterable[str],
                      match: Callable[[str, str], bool] = _casefold_match) -> list[str]:
    """Remove some facts of a card's entry under [cards] (the entry goes when none is left); the
    facts removed, in the entry's order."""
    if "cards" not in doc:
        return []
    cards = doc["cards"]
    key = find_key(cards, name, match)
    if key is None or not hasattr(cards[key], "keys"):
        return []
    wanted = set(facts)
    values = cards[key].unwrap()
    gone = [k for k in values if k in wanted]
    left = {k: v for k, v in values.items() if k not in wanted}
    if not gone:
        return []
    if left:
        cards[key] = inline(left)
    else:
        del cards[key]
    return gone


def forget_card(doc: Any, name: str, match: Callable[[str, str], bool] = _casefold_match) -> bool:
    """Remove a card's entry from [cards]; False when there is none."""
    if "cards" not in doc:
        return False
    key = find_key(doc["cards"], name, match)
    if key is None:
        return False
    del doc["cards"][key]
    return True


def chapter_key(tbl: Any, ch: str, chapter_id: Callable[[Any], str]) -> str | None:
    """The key the file uses for chapter `ch` in a table ("03", or "3" as a user may write it)."""
    for key in tbl:
        try:
            if chapter_id(key) == ch:
                return key
        except ValueError:
            continue
    return None


def put_chapter(tbl: Any, ch: str, value: Any, chapter_id: Callable[[Any], str]) -> None:
    """Set chapter `ch` in a [track]-like table, a new key going in chapter order."""
    key = chapter_key(tbl, ch, chapter_id)
    if key is not None:
        tbl[key] = value  # keeps the line's comment
        return
    present = {}
    for k in tbl:
        try:
            present[chapter_id(k)] = k
        except ValueError:
            continue
    new = tk.quoted_key(ch)  # "05", quoted like the rest of the track
    before = [c for c in present if c < ch]
    later = [c for c in present if c > ch]
    if before:
        tk.insert_after(tbl, present[max(before)], new, value)
    elif later:
        at = tk.index_of(tbl, present[min(later)])
        assert at is not None  # a key the table has
        tk.insert_at(tbl, min(at) if isinstance(at, tuple) else at, new, value)
    else:
        tbl.add(new, value)


def put_in_chapter_table(doc: Any, name: str, ch: str, value: Any, chapter_id: Callable[[Any], str],
                         after: str | None = None) -> None:
    """Set chapter `ch` in table `name`, creating the table (after table `after`) if missing."""
    if name in doc:
        put_chapter(doc[name], ch, value, chapter_id)
        return
    tbl = tk.table()
    put_chapter(tbl, ch, value, chapter_id)
    tbl.add(tk.nl())  # a blank line before the next table
    if after is not None and after in doc:
        tk.insert_after(doc, after, name, tbl)
    else:
        doc[name] = tbl


def new_document(text: str) -> Any:
    """A tomlkit document parsed from text drunagor wrote itself (a new campaign file)."""
    return tk.parse(text)


def dumps(doc: Any) -> str:
    return tk.dumps(doc)


def set_value(container: Any, key: str, value: Any, after: Iterable[str] = ()) -> None:
    """Set a scalar key: an existing one is replaced on its own line (its comment kept; left untouched
    when it already holds `value`, so its bytes stay); a new one goes after the first of the keys
    `after` the container has, else where add_key puts it."""
    if key in container and _holds(container[key], value):
        return
    new = tk.value(value_text(value)) if isinstance(value, (str, bool, int)) else item(value)
    if key in container:
        container[key] = new  # tomlkit keeps the line's comment
    elif tk.is_document(container):
        insert_top(container, key, new, after)
    else:
        add_key(container, key, new)


def delete_key(container: Any, key: str) -> bool:
    """Remove a key (and its line); False when there is none."""
    if key not in container:
        return False
    del container[key]
    return True


def clear_entries(container: Any, key: str) -> None:
    """Empty the array `container[key]`: written `[]`, its trailing comment kept."""
    if key in container and len(container[key]):
        container[key] = tk.array()


def _holds(current: Any, value: Any) -> bool:
    plain = current.unwrap() if hasattr(current, "unwrap") else current
    return type(plain) is type(value) and plain == value


def set_entry_field(container: Any, key: str, index: int, field: str, value: Any) -> None:
    """Set one field of the inline table at entry `index` of `container[key]`, the entry's other
    fields and its line kept as they are (a new field: see set_in_entry)."""
    set_in_entry(container, key, index, field, value)

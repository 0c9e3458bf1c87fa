"""The bottom text module: how drunagor words things, for every layer that words (rules, the store,
the operations, the sheets, the command line). Plain strings in, plain strings out; nothing of the game,
no files, no terminal."""

from __future__ import annotations

import shlex
from collections.abc import Sequence

# Words


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 rune', '2 runes', '3 Heavy Armors'; `many` where adding an s is wrong ('2 copies')."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def article(word: str) -> str:
    """"a" or "an" before `word` ("an Outcome", "a hero status")."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def joined(items: Sequence[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c' (no Oxford comma, as every line of drunagor writes it)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def shell_word(text: str) -> str:
    """`text` as one word of a POSIX shell's command line, for a command printed in a remedy for the
    user to copy: as it is when it needs no quoting, else in single quotes (a quote, a `$`, a backquote
    or a backslash inside stays literal)."""
    return shlex.quote(text)

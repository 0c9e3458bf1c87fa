"""Text for a person to read: the bottom text module, below the error tree (it imports nothing of the package).
Plain strings in, plain strings out; nothing of the game, no files, no terminal.

How drunagor words things, for every layer that words (rules, the store, the operations, the sheets, the
command line): plurals, articles, joined lists, and one shell quoting for names printed in remedies.

The output rule (docs/errors.md, "The output rule"): every string that came from outside drunagor (a
campaign file, a file or folder name, a git commit message or author, a token, the cache) is shown with
its invisible characters written out, so that nothing a stranger wrote reaches a terminal as a control
sequence or reorders what a player reads. The terminal facade (cli/terminal.py) passes everything it
writes through `visible`, and `--json` through `json_escaped`; the sheets use `visible` for their values.
"""

from __future__ import annotations

import re
import shlex
import unicodedata
from collections.abc import Sequence

# ----------------------------------------------------------------------------- Shown to a person

# Characters a reader does not see, or that reorder what they see: control characters (C0, DEL, C1),
# the bidi controls (U+202A-U+202E, U+2066-U+2069, U+200E/F, U+061C), zero-width and the other format
# characters, line and paragraph separators. Each is shown as its code point, <U+202E>, so a name looks
# like what its file holds. Tabs and line breaks are layout, kept.
INVISIBLE = frozenset({"Cc", "Cf", "Zl", "Zp"})
LAYOUT = "\n\t"
# A name from the operating system that is not UTF-8 comes as a str with each undecodable byte as a
# lone surrogate U+DC80-U+DCFF (Python's surrogateescape): shown as the byte, \xff.
_ESCAPED_BYTE = range(0xDC80, 0xDD00)


def visible(text: str, left: str = "<", right: str = ">") -> str:
    """`text` with every invisible character written as <U+XXXX> (the markers given), and every byte of
    a name that was not UTF-8 as \\xff."""
    if text.isprintable() or text.replace("\n", "").replace("\t", "").isprintable():  # the usual case: C scans
        return text
    return "".join(_shown(ch, left, right) for ch in text)


def _shown(ch: str, left: str, right: str) -> str:
    if ch in LAYOUT:
        return ch
    category = unicodedata.category(ch)
    if category in INVISIBLE:
        return f"{left}U+{ord(ch):04X}{right}"
    if category == "Cs":
        code = ord(ch)
        return f"\\x{code - 0xDC00:02x}" if code in _ESCAPED_BYTE else f"{left}U+{code:04X}{right}"
    return ch


def os_name(name: str | bytes) -> str:
    """A file or folder name as the operating system gave it (bytes, or a str holding surrogate escapes),
    as text that is valid UTF-8: each byte that is not UTF-8 written as \\xff (`b"h\\xffro.toml"` is
    `h\\xffro.toml`). A name that is UTF-8 is returned as it is."""
    if isinstance(name, bytes):
        return name.decode("utf-8", "backslashreplace")
    if name.isascii():
        return name
    return "".join(_shown(ch, "<", ">") if unicodedata.category(ch) == "Cs" else ch for ch in name)


def is_os_name_utf8(name: str) -> bool:
    """Whether a name the operating system gave (os.listdir's str) was valid UTF-8."""
    return name.isascii() or not any(0xD800 <= ord(ch) <= 0xDFFF for ch in name)


# What json.dumps(ensure_ascii=False) leaves as it is (it escapes C0 itself) and `visible` writes out:
# DEL, C1, the bidi and format characters, the separators; and a name's bytes that were not UTF-8.
_NOT_ASCII = re.compile(r"[^\x00-\x7e]")


def json_escaped(dumped: str) -> str:
    """A JSON text of json.dumps(..., ensure_ascii=False) with every character `visible` writes out escaped
    instead (`\\u009b`, `\\u202e`), and a byte of a name that was not UTF-8 as the text `\\xff` (the JSON
    string `"\\\\xff"`). The same JSON value otherwise: outside ASCII, json.dumps writes only strings."""
    if dumped.isascii() and "\x7f" not in dumped:  # DEL is ASCII, and json.dumps keeps it
        return dumped
    return _NOT_ASCII.sub(_json_char, dumped)


def _json_char(match: re.Match[str]) -> str:
    ch = match.group()
    category = unicodedata.category(ch)
    if category not in INVISIBLE and category != "Cs":
        return ch
    code = ord(ch)
    if code in _ESCAPED_BYTE:
        return f"\\\\x{code - 0xDC00:02x}"
    if code > 0xFFFF:  # JSON writes a character past the BMP as its UTF-16 pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


# ----------------------------------------------------------------------------- Words


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 rune', '2 runes', '3 Heavy Armors'; `many` where adding an s is wrong ('2 copies')."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def article(word: str) -> str:
    """"a" or "an" before `word`, as it is said: "an Outcome", "a hero status", "an 8th", "an 11th",
    "a 2nd", "a unique"; the one rule of the article (`a` puts it before the word)."""
    digits = re.match(r"[0-9]+", word)
    if digits:  # said as a number: eight, eleven and eighteen (and 8..., 80..., 800...) begin with a vowel
        n = digits.group(0)
        return "an" if n.startswith("8") or (len(n) % 3 == 2 and n[:2] in ("11", "18")) else "a"
    low = word.lower()
    if low.startswith(("uni", "use", "usu", "one", "eu")):  # said with a y or w: a unique, a one-handed
        return "a"
    if low.startswith(("hour", "honest", "honor", "honour", "heir")):
        return "an"
    return "an" if low[:1] in ("a", "e", "i", "o", "u") else "a"


def a(words: str) -> str:
    """`words` after their article: "an Assassin", "a Mage", "an Uncommon Potion", "an 8th Trauma Cube"."""
    return f"{article(words)} {words}"


def joined(items: Sequence[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c' (no Oxford comma, as every line of drunagor writes it)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


_PLAIN_WORD = re.compile(r"[\w@%+=:,./-]+", re.ASCII)  # what shlex.quote leaves as it is
_NOT_IN_DOUBLE_QUOTES = re.compile(r'["$`\\!]')  # what a shell reads inside "..." (`!`: bash's and zsh's history)


def shell_word(text: str) -> str:
    """`text` as one word of a shell's command line, for a command printed in a remedy for the user
    to copy: as it is when it needs no quoting (Nyx); in double quotes when nothing inside means
    anything there, as a player would type it ("Artisan's Tools"); else in single quotes, where a
    `"`, a `$`, a backquote or a backslash stays literal (shlex.quote)."""
    if _PLAIN_WORD.fullmatch(text):
        return text
    if not _NOT_IN_DOUBLE_QUOTES.search(text):
        return f'"{text}"'
    return shlex.quote(text)

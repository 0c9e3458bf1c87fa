"""What a player typed at the table, read: rune colours (`red,blue` / `red=2`), a number inside a word
(`+1`, a slot) by the one number rule, a rank, a chapter, a slot, a flag's value among its choices.
Each is a usage error (exit 2) when it is not what the flag takes. How the table writes them back is
ops/words.py. No campaign, no files.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import UsageError
from ..model.adventure import SLOT_COLOURS, canonical_rank
from ..names import lookup
from ..values import NotANumber, is_digits, looks_like_number, whole

#: Ranks as `--rank` takes them (RB L314).
RANK_HINT = "Overlord, Commander, Black, Gray, White, Scenario, Minion"


def colours(values: Sequence[str] | str | None, known: Sequence[str], what: str = "rune colour") -> list[str]:
    """'red,blue,red' / 'red=2,blue' / ['red', 'blue'] -> ['red', 'blue', 'red'] (a unique prefix is
    enough; 'grey' is 'gray')."""
    if values is None:
        return []
    options = {c: c for c in known}
    out: list[str] = []
    for part in [values] if isinstance(values, str) else list(values):
        for item in part.replace(";", ",").split(","):
            item, count = _counted(item.strip(), part)
            if item:
                out += [lookup("gray" if item.casefold() == "grey" else item, options, what, game=True)] * count
    return out


def _counted(item: str, part: str) -> tuple[str, int]:
    """'red=2' -> ('red', 2); 'red' -> ('red', 1)."""
    if "=" not in item:
        return item, 1
    name, _, number = item.partition("=")
    n = typed_number(number, what=f"{part!r}:", example="2")
    if n == 0 and number.strip().isdigit():  # a whole number, but it names no rune
        raise UsageError(f"{part!r}: {item.strip()} names no rune: give each colour at least 1 (COLOUR=N), or leave "
                         "the colour out", remedy="e.g. --runes red=2,blue")
    if n is None or n < 1 or not number.strip().isdigit():
        raise UsageError(f"{part!r}: write COLOUR=N with N a whole number of runes", remedy="e.g. --runes red=2,blue")
    return name.strip(), n


def typed_number(text: str, *, what: str = "", example: str = "3") -> int | None:
    """A number typed inside a word of the table (`red=2`, a slot, `+1`) by the one number rule
    (numbers.whole): None when the text is no number at all (a word: the caller says what it wants
    there), the usage error of the rule when it is written as one and is not (`²`, `٣`, 20 digits)."""
    if not looks_like_number(text):
        return None
    try:
        return whole(text, what=what, example=example)
    except NotANumber as exc:
        raise UsageError(exc.message, remedy=exc.remedy) from None


# Words of the book a player may give as a rank, which are not a rank of the status board: what they are.
NOT_RANKS = {"champion": "Champion is not a rank of the Monster Status board: chapter 08's \"Champion-rank "
                         "Monsters\" (RB L1279) are its Gray and White monsters (G1, W2, G3, W4, G5 on the setup "
                         "diagram) on their Champion side, drunagor's reading of the letters"}


def canonical(rank: str | None) -> str | None:
    """A --rank as the rulebook spells it (a usage error when it is no rank)."""
    if rank is None:
        return None
    try:
        return canonical_rank(rank)
    except ValueError as exc:
        word = rank.strip().casefold().removesuffix("-rank")
        if word in NOT_RANKS:
            raise UsageError(NOT_RANKS[word], remedy="give the rank of the monster's letter: --rank Gray (G) or "
                             "--rank White (W)") from None
        raise UsageError(str(exc)) from None


def typed_chapter(value: object) -> None:
    """A chapter typed in characters that are not ASCII digits (`٣`, `²`) is refused as not a number
    (exit 2), before the chapter is looked for: `int()` took `٣` for chapter 03. A number of no chapter
    (`10`) is still the caller's "no chapter" (exit 1, docs/errors.md "Names")."""
    if isinstance(value, str) and looks_like_number(value) and not is_digits(value.strip(" \t").lstrip("+")):
        typed_number(value, what="chapter", example="5")


def parse_slot(text: str | int) -> int | None:
    """'3' -> 3; 'pink' -> 3 (a base colour); anything else None."""
    t = str(text).strip().casefold()
    if t[:1] not in ("+", "-") and looks_like_number(t):
        return typed_number(str(text).strip(" \t"), what="slot", example="3")
    if t in SLOT_COLOURS:
        return SLOT_COLOURS.index(t) + 1
    return None


def choice(value: str | None, choices: tuple[str, ...], flag: str) -> str | None:
    """A flag's value among `choices` (any case), or the usage error that lists them."""
    if value is None:
        return None
    v = value.strip().casefold()
    if v not in choices:
        raise UsageError(f"{flag} must be one of {', '.join(choices)}, not {value!r}")
    return v

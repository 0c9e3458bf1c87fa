"""The words of the table: how the operations at the table (ops/adventure.py, ops/board.py,
ops/summon.py, ops/losing.py) and the commands write counts, runes, slots and chances. What a player
typed (rune colours, a rank, a slot, a number, a flag's value) is read by ops/typed.py. No campaign, no files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .. import catalog
from ..model.adventure import slot_label
from ..text import joined, plural, shell_word

__all__ = ["plural"]  # the operations' modules take it from here

def forget_command(card: str, fact: str) -> str:
    """The command that takes back a fact recorded under [cards] (never a hand edit of story.toml)."""
    return f"drunagor card forget {shell_word(card)} --fact {fact}"


def forget_note(recorded: str) -> str | None:
    """What `adventure undo` says of an event that recorded facts ("CARD: fact; CARD: fact" in its log
    entry): they stay under [cards], and how to forget each."""
    facts = [part.rpartition(": ") for part in recorded.split("; ") if ": " in part]
    if not facts:
        return None
    how = "; ".join(forget_command(card, fact) for card, _, fact in facts)
    many = len(facts) > 1
    return (f"the fact{'s' if many else ''} it recorded under [cards] stay{'' if many else 's'} (undo takes back the "
            f"table, not what a card or board says); if {'they were' if many else 'it was'} a slip: {how}")


def runes_text(counts: Mapping[str, int]) -> str:
    """'red 5, blue 6, green 0' (every colour), or 'none'."""
    return ", ".join(f"{c} {n}" for c, n in counts.items()) or "none"


def pile_runes(runes: Mapping[str, int]) -> str:
    """'red, blue, 2 gray' (only the colours the Pile holds)."""
    return ", ".join(c if n == 1 else f"{n} {c}" for c, n in runes.items() if n) or "empty"


def slot_text(slots: Sequence[int | None]) -> str:
    if len(slots) == 1:
        return slot_label(slots[0])
    return "slots " + ", ".join(str(s) for s in slots)


def chapter_list(has) -> str:
    """'02, 05 and 08': the chapters with a feature, from the catalog."""
    return joined([ch.id for ch in catalog.chapters() if has(ch)])


def chapter_ref(chapter, fact: str) -> str:
    ref = chapter.refs.get(fact)
    return f" ({ref})" if ref else ""


def chance_text(fraction: str, probability: float) -> str:
    """An exact chance as a person reads it: '2/7 (28.6%)', but 'none' and 'certain' for 0 and 1 (not
    '0/1 (0.0%)'; the --json keys keep the fraction)."""
    if probability == 0:
        return "none"
    if probability == 1:
        return "certain"
    return f"{fraction} ({probability * 100:.1f}%)"

"""Exact chance that the next Dreadful Raid summons (SPEC 4 `drunagor odds`, SPEC 9 `try_probability`).

The raid tries to summon when the face allows it (RB L284-285), a Pile of Runes is on the board (RB
L297) and the manifested rune's colour is held by some pile (RB L294-296). Every rune in the bag is
equally likely (RB L292), so the chance it tries is the share of the bag whose colour some pile holds.
It summons when, besides, at least one minion can be placed: a free Health Track and a model left in
the box (RB L311); one that cannot be placed "fails to be summoned" (RB L311-313). Which rune is drawn
does not change that, so the chance it summons is the chance it tries, or 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from drunagor_log.model.adventure import Pile
from drunagor_log.rules.raid import raid_share
from drunagor_log.values import record


@record
class Odds:
    """The chance that the next raid summons (places a minion), that it tries, and the bag it comes from."""

    chance: Fraction
    runes_in_bag: int
    by_colour: dict[str, int]  # runes of each colour in the bag
    matching_colours: tuple[str, ...]  # colours held by some pile, sorted
    reason: str | None  # why the chance is 0 whatever is drawn, else None
    try_chance: Fraction = Fraction(0)  # a rune that a Pile holds is manifested: the raid tries

    def __hash__(self) -> int:
        return hash((self.chance, self.runes_in_bag, self.matching_colours, self.reason))

    @property
    def summon_chance(self) -> str:
        """Always 'n/d' ("7/36", "0/1", "1/1"), reduced."""
        return f"{self.chance.numerator}/{self.chance.denominator}"

    @property
    def summon_probability(self) -> float:
        return float(self.chance)

    def as_json(self) -> dict[str, Any]:
        """The SPEC 8 `odds --json` object."""
        return {
            "summon_chance": self.summon_chance,
            "summon_probability": self.summon_probability,
            "runes_in_bag": self.runes_in_bag,
            "by_colour": dict(self.by_colour),
            "try_chance": f"{self.try_chance.numerator}/{self.try_chance.denominator}",
            "try_probability": float(self.try_chance),
        }


def summon_odds(
    *, face: str, monsters_on_board: int | bool, piles: Sequence[Pile], bag: Mapping[str, int],
    no_room: str | None = None,
) -> Odds:
    """P(next raid tries) = sum over colours c held by any pile of bag[c] / runes in the bag; 0 for face
    A with monsters on the board, no Pile of Runes, or an empty bag. P(it summons) is the same, or 0 when
    `no_room` says why no minion can be placed (raid.no_room_reason). The counting is raid_share's."""
    share = raid_share(face=face, monsters_on_board=monsters_on_board, piles=piles, bag=bag, no_room=no_room)
    tries = Fraction(share.tries, share.total) if share.tries else Fraction(0)
    chance = Fraction(share.summons, share.total) if share.summons else Fraction(0)
    return Odds(chance=chance, runes_in_bag=share.total, by_colour=share.counts, matching_colours=share.matching,
                reason=share.reason, try_chance=tries)

"""A battalion's model counts (SPEC "User-recorded facts"): in chapter 07 each Siege Monster's models are
asked once, as `monster add` asks them (`--models N`, or `--models NAME=N` for a battalion of several
kinds; remembered under [cards]), because one that cannot spawn with all its models on the board
activates the first of its kind instead (RB L1237, L1245). The book gives no count; the catalog never
guesses one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .. import catalog
from ..errors import UsageError
from ..store.edit import set_card_facts
from ..text import plural, shell_word
from .board import recorded_models
from .words import forget_command, typed_number

if TYPE_CHECKING:
    from ..campaign import Campaign
    from ..model.adventure import AdventureState

MOST_MODELS = 12  # the Monster Status board's tracks (RB L311): no kind has more models on the board


def battalion_models(c: Campaign, state: AdventureState | None, names: Sequence[str], limits: dict[str, int],
                     values: Sequence[str], *, siege: bool, dry_run: bool) -> list[str]:
    """Fill `limits` with the model counts `values` give (--models), recorded under [cards] unless a
    dry run; in a siege chapter refuse a Siege Monster whose count is still unknown. The lines said
    ("Vile Spawn: 2 models recorded under [cards]")."""
    kinds = list(dict.fromkeys(names))
    if values and state is None:
        raise UsageError("no adventure under way: --models has no board to count the models on",
                         remedy="leave out --models; it is asked once an adventure is under way")
    given = _given(values, kinds, [k for k in kinds if k not in limits])
    said: list[str] = []
    for name, models in given.items():
        recorded = recorded_models(c, name)
        if recorded is not None and recorded != models:
            raise UsageError(f"{name} has {recorded} models on record", file=c.story_file.shown,
                             remedy="leave out --models; if the record is a slip: "
                                    + forget_command(name, "model_count"))
        if recorded is None and name in limits:
            raise UsageError(f"{name} has {limits[name]} models (RB L311): --models has nothing to record",
                             remedy="leave out --models")
        if recorded is None:
            if not dry_run:
                set_card_facts(c.story_file.edit(), name, {"model_count": models})
                said.append(f"{name}: {plural(models, 'model')} recorded under [cards]")
            limits[name] = models
    if siege and state is not None and catalog.chapter(state.chapter).siege:
        lacking = [k for k in kinds if k not in limits and not (catalog.monster(k) or {}).get("boss")]
        if lacking:
            one = len(lacking) == 1 and len(kinds) == 1
            flags = "--models N" if one else " ".join(f"--models {shell_word(f'{k}=N')}" for k in lacking)
            raise UsageError(f"how many {' and '.join(lacking)} models are there? The book does not say, and one "
                             "that cannot spawn because all its models are on the board activates the first of "
                             "its kind instead (RB L1237)",
                             remedy=f"count them and give {flags} once; drunagor remembers it under [cards] in "
                                    "story.toml")
    return said


def _given(values: Sequence[str], kinds: list[str], lacking: list[str]) -> dict[str, int]:
    """--models N (the battalion's one kind, or the one whose count is unknown) or NAME=N, repeated."""
    out: dict[str, int] = {}
    for value in values:
        name, sep, number = value.rpartition("=")
        if sep:
            kind = next((k for k in kinds if k.casefold() == name.strip().casefold()), None)
            if kind is None:
                raise UsageError(f"--models {value!r}: {name.strip()!r} is not in the battalion",
                                 remedy="name one of: " + ", ".join(kinds))
        else:
            pool = kinds if len(kinds) == 1 else lacking
            if len(pool) != 1:
                raise UsageError(f"--models {value}: the battalion summons {' and '.join(kinds)}; say whose",
                                 remedy="write --models NAME=N, once for each")
            kind = pool[0]
        out[kind] = _count(number.strip(), value)
    return out


def _count(text: str, value: str) -> int:
    """The N of --models: a whole number (the one number rule), from 1 to 12."""
    n = typed_number(text, what="--models", example="2")
    if n is None:
        raise UsageError(f"--models {value!r}: write N or NAME=N, N the monster's models",
                         remedy='e.g. --models 2, or --models "Vile Spawn=2"')
    if not 1 <= n <= MOST_MODELS:
        raise UsageError(f"--models must be from 1 to {MOST_MODELS}, not {n}: a monster has at least one model, and "
                         "the Monster Status board 12 tracks (RB L311)")
    return n

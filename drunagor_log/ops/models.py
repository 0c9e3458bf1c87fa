"""A monster's model count where the book gives none (SPEC "User-recorded facts"): asked once with
`--models N` and remembered under [cards] in story.toml, by `adventure start` (a Scenario Monster raid's
models, chapters 02 and 08), `monster add` and `battalion` (in chapter 07 each Siege Monster's models, as
`--models NAME=N` for a battalion of several kinds), because one that cannot spawn with all its models on
the board activates the first of its kind instead (RB L1237, L1245). The book gives no count; the
catalog never guesses one. One range, one record, one refusal of a count that contradicts it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .. import catalog
from ..errors import UsageError
from ..store.edit import set_card_facts
from ..text import plural, shell_word
from .typed import typed_number
from .words import forget_command

if TYPE_CHECKING:
    from ..campaign import Campaign
    from ..model.adventure import AdventureState

MOST_MODELS = 12  # the Monster Status board's tracks (RB L311): no kind has more models on the board


def recorded_models(c: Campaign, name: str) -> int | None:
    """A model count the party recorded under [cards] (SPEC "User-recorded facts")."""
    facts = c.story.cards.get(name) or {}
    return facts["model_count"] if isinstance(facts.get("model_count"), int) else None


def in_range(n: int) -> int:
    """A model count drunagor records: from 1 to 12, as a card of the game can have."""
    if not 1 <= n <= MOST_MODELS:
        raise UsageError(f"--models must be from 1 to {MOST_MODELS}, not {n}: a monster has at least one model, and "
                         f"the Monster Status board has {MOST_MODELS} tracks (RB L311)")
    return n


def record_models(c: Campaign, name: str, models: int, known: int | None, limit: int | None = None, *,
                  dry_run: bool = False, match: Callable[[str, str], bool] | None = None) -> tuple[int, list[str]]:
    """`--models N` for `name`: refused when it contradicts the count on record (`known`) or the
    catalog's (`limit`); else recorded under [cards] unless a dry run. The count, and the line said."""
    if known is not None and known != models:
        raise UsageError(f"{name} has {plural(known, 'model')} on record", file=c.story_file.shown,
                         remedy="leave out --models; if the record is a slip: " + forget_command(name, "model_count"))
    if known is None and limit is not None:
        raise UsageError(f"{name} has {plural(limit, 'model')} (RB L311): --models has nothing to record",
                         remedy="leave out --models")
    if known is not None:
        return known, []
    if not dry_run:
        set_card_facts(c.story_file.edit(), name, {"model_count": models}, *([match] if match else []))
    return models, [] if dry_run else [f"{name}: {plural(models, 'model')} recorded under [cards]"]


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
        limits[name], lines = record_models(c, name, models, recorded_models(c, name), limits.get(name),
                                            dry_run=dry_run)
        said += lines
    if siege and state is not None and catalog.chapter(state.chapter).siege:
        lacking = [k for k in kinds if k not in limits and not (catalog.monster(k) or {}).get("boss")]
        if lacking:
            one = len(lacking) == 1 and len(kinds) == 1
            flags = "--models N" if one else " ".join(f"--models {shell_word(f'{k}=N')}" for k in lacking)
            raise UsageError(f"how many {' and '.join(lacking)} models are there? The book does not say, and one "
                             "that cannot spawn because all its models are on the board activates the first of "
                             "its kind instead (RB L1237)",
                             remedy=f"count them and give {flags} once; drunagor remembers it under [cards] in "
                                    "story.toml", ask=flags)
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
        n = _count(number.strip(), value)
        if out.get(kind, n) != n:
            raise UsageError(f"--models gives {kind} {out[kind]} and {n} models", remedy=f"give {kind}'s count once")
        out[kind] = n
    return out


def _count(text: str, value: str) -> int:
    """The N of --models: a whole number (the one number rule), from 1 to 12."""
    n = typed_number(text, what="--models", example="2")
    if n is None:
        raise UsageError(f"--models {value!r}: write N or NAME=N, N the monster's models",
                         remedy='e.g. --models 2, or --models "Vile Spawn=2"')
    return in_range(n)

"""Names typed at the command line: slugs for file names, and the one resolver every command uses
for a name the user types (SPEC 9, "name resolution"; docs/errors.md, "Names").

`resolve(query, names, what)` tries, in this order:

1. the exact name;
2. the name in any case (apostrophes ’ and ' alike, runs of spaces as one, commas left out);
3. a known alias (only those a source gives, e.g. the app's "Vacren" for the rulebook's Vacrem);
4. the only name `query` is the beginning of.

Otherwise it refuses with the closest name ("did you mean"): exit 1 for a name of the game (`game=True`:
anything a player reads on the game's components or the campaign's sheets: a hero, class, Dungeon
Role, skill, Class Ability, skill tree, card, Follower, Outcome, status, Aura, monster, rune colour,
chapter), exit 2 for a usage slip (one of drunagor's own words: an action, a kind of cube, an event, a
fact flag's value). Several names beginning with `query` is always a usage slip ("type more").

A name nobody knows is kept as typed only when the user says so: `new=True` (the command's `--new`), or
`facts=True` (a fact flag given: `--type`, `--kind`, `--rank`...), which says so for any name but a
near miss of a known one (`near_miss`: at most two edits away (one for a short name), or the same
letters in another case or punctuation), refused with "did you mean" unless `--new`. Either way the
beginning of a known name is not taken for it.

`resolve_known(query, kind)` does the same against the catalog's names of one kind (KINDS).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import TypeVar

from . import catalog
from .errors import RuleError, UsageError
from .text import a

T = TypeVar("T")


LISTED = 12  # a refusal lists the names known up to this many (the rune colours, the roles), not the cards
MAX_NAME = 64  # characters of a hero's or a campaign's name: its slug must fit a file name


def slug(name: str) -> str:
    """"Andreas" -> "andreas"; "Vorn the Warrior" -> "vorn-the-warrior"; "Zoë" -> "zoe" (a Latin
    letter loses its accent); letters of other scripts are kept: "Ярослава" -> "ярослава",
    "鈴木" -> "鈴木". "" when the name has no letter or digit (check_name refuses it)."""
    out = []
    for ch in unicodedata.normalize("NFC", name):
        if ch.isascii():
            out.append(ch.lower() if ch.isalnum() else "-")
            continue
        base = unicodedata.normalize("NFKD", ch)
        if base[0].isascii() and base[0].isalnum():  # é -> e, ﬁ -> fi: as before
            out.append("".join(c for c in base if c.isascii()).lower())
        elif ch.isalnum() or unicodedata.category(ch).startswith("M"):  # a mark of a script kept
            out.append(ch.casefold())
        else:
            out.append("-")
    return re.sub(r"-+", "-", "".join(out)).strip("-")


def legacy_slug(name: str) -> str:
    """The slug drunagor gave before it kept non-Latin letters (ASCII only; "x" when nothing was
    left): a Campaign Log named so is still its hero's."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


# Names Windows keeps for devices, whatever the suffix ("nul.toml" is the device too): a folder or
# Campaign Log so named cannot be checked out there, and a campaign travels through git to every
# player's system.
WINDOWS_RESERVED = frozenset({"con", "prn", "aux", "nul", *(f"com{n}" for n in range(10)),
                              *(f"lpt{n}" for n in range(10))})


def check_name(name: str, what: str) -> str:
    """`name` if it can name a hero or a campaign, else a UsageError saying why: not empty, at
    most MAX_NAME characters, no newline or other control character, at least one letter or digit
    (so that its slug names a file), and not a slug Windows keeps for a device (WINDOWS_RESERVED).
    The one rule, for a name typed (`new`, `hero add`) and one read from a token (`import`)."""
    bad = next((ch for ch in name if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")), None)
    if not name.strip():
        raise UsageError(f"a {what}'s name cannot be empty", remedy=f"give the {what} a name")
    if bad is not None:
        raise UsageError(f"a {what}'s name cannot hold {unicodedata.name(bad, repr(bad)).lower()} "
                         f"({bad!r}): {name!r}", remedy="type the name on one line, printable characters only")
    if len(name) > MAX_NAME or len(slug(name).encode()) > 4 * MAX_NAME:
        size = f"not {len(name)}" if len(name) > MAX_NAME else "and its file name at most 256 bytes"
        raise UsageError(f"a {what}'s name is at most {MAX_NAME} characters, {size}",
                         remedy="choose a shorter name")
    if not slug(name):
        raise UsageError(f"{name!r} cannot name a {what}: it has no letter or digit",
                         remedy="choose a name with letters (its file is named after them)")
    if slug(name) in WINDOWS_RESERVED:
        made = f"the folder {slug(name)}" if what == "campaign" else f"the file {slug(name)}.toml"
        raise UsageError(f"{name!r} cannot name a {what}: it would make {made}, a name Windows keeps for a "
                         "device (a campaign travels through git to every player's system)",
                         remedy=f"choose another name for the {what}")
    return name


def hero_key(name: str) -> str:
    """The form in which two heroes' names are one hero's: case-folded, and in one Unicode spelling (NFC:
    "Zoë" typed as one letter or as "e" and a combining diaeresis, which print the same)."""
    return unicodedata.normalize("NFC", name).casefold()


def key(name: str) -> str:
    """The form names are compared in: case-folded, straight apostrophes, single spaces, no commas (the
    rulebook writes "Vorn, the Warrior" (RB L457) where the Story Record and the apps write "Vorn the
    Warrior")."""
    return " ".join(name.replace("\u2019", "'").replace("\u2018", "'").replace(",", " ").split()).casefold()


def match(query: str, names: Iterable[str], aliases: Mapping[str, str] | None = None, *,
          prefix: bool = True) -> str | None:
    """The name `query` means by the resolver's order, None when none; several names beginning
    with `query` are refused (UsageError: "type more")."""
    pool = list(dict.fromkeys(names))
    q = query.strip()
    if q in pool:
        return q
    k = key(q)
    same = next((n for n in pool if key(n) == k), None)
    if same is not None:
        return same
    if aliases:
        found = next((target for alias, target in aliases.items() if key(alias) == k), None)
        if found is not None:
            return found
    if not prefix or not k:
        return None
    begins = sorted({n for n in pool if key(n).startswith(k)} |
                    {t for a, t in (aliases or {}).items() if key(a).startswith(k)})
    if len(begins) == 1:
        return begins[0]
    if begins:
        raise UsageError(f"{query!r} could be any of: {', '.join(begins)}", remedy="type more of the name")
    return None


def resolve(query: str, names: Iterable[str], what: str, *, aliases: Mapping[str, str] | None = None,
            game: bool = False, new: bool = False, facts: bool = False, new_hint: str | None = None) -> str:
    """The name `query` means among `names` (see the module's docstring); with `new`, a name
    nobody knows is returned as typed; with `facts`, too, unless it is a near miss of a known name.
    `what` names the kind in messages ("hero status"); `new_hint` says how to record a name nobody
    knows (added to the refusal)."""
    names = list(names)
    try:
        found = match(query, names, aliases, prefix=not (new or facts))
    except UsageError as exc:  # several names begin so
        exc.remedy = f"type more of the {what}'s name"
        raise
    if found is not None:
        return found
    typed = query.strip()
    if new and typed:
        return typed
    if facts and typed:
        near = near_miss(typed, [*names, *(aliases or {})])
        if near is None:
            return typed
        near = (aliases or {}).get(near, near)
        raise (RuleError if game else UsageError)(
            f"{typed!r} is not {a(what)} drunagor knows, and it is very like {near!r}",
            remedy=f"did you mean {near!r}? If {typed!r} is new, add --new to record it as typed")
    raise refusal(query, names, what, game=game, new_hint=new_hint)


def refusal(query: str, names: Iterable[str], what: str, *, game: bool = False,
            new_hint: str | None = None) -> UsageError | RuleError:
    """"no hero status called 'Hauntd'; did you mean 'Haunted'?" (RuleError when `game`); with no
    close name, the names known (when they are few enough to read)."""
    names = sorted(set(names))
    hint = closest(query, names)
    if hint:
        remedy = f"did you mean {hint!r}?"
    elif len(names) > LISTED:
        remedy = "check the spelling"
    else:
        remedy = f"known: {', '.join(names)}" if names else f"there is no {what} yet"
    if new_hint:
        remedy += f" ({new_hint})"
    error = RuleError if game else UsageError
    return error(f"no {what} called {query!r}", remedy=remedy)


def lookup(query: str, options: dict[str, T], what: str, *, aliases: Mapping[str, str] | None = None,
           game: bool = False) -> T:
    """The option whose name `query` means (resolve's order), else a refusal (exit 1 when `game`)."""
    q = query.strip()
    if not q:
        raise refusal(query, options, what)
    try:
        found = match(q, options, aliases)
    except UsageError as exc:
        exc.remedy = f"type more of the {what}'s name"
        raise
    if found is None:
        raise refusal(query, options, what, game=game)
    return options[found]


def closest(query: str, candidates: Iterable[str]) -> str | None:
    """The candidate most like `query`, None when none is close: compared whole and with the
    candidate's beginning, so that "Mya" finds "Maya the Ranger" and "Vorm" "Vorn the Warrior"; the
    words both begin with are left out ("Scroll of Protection" is not like "Scroll of Incinerate"),
    unless two edits or fewer tell them apart ("Shadow Stab", "Shadow Step")."""
    import difflib

    best, score = None, 0.0
    for name in dict.fromkeys(candidates):
        whole = (key(query), key(name))
        q, k = whole if edits(*whole) <= 2 else _unshared(*whole)
        pairs = [(q, k, 0.0)]
        if len(q) >= 3 and len(k) > len(q):
            pairs += [(q, k[:len(q) + 1], 0.05), (q, k[:len(q)], 0.05)]
        # quick_ratio bounds ratio from above: a candidate that can neither reach 0.6 nor beat the best so
        # far is passed without the full comparison (the same answer, a fraction of the cost)
        bound = max(difflib.SequenceMatcher(None, a, b).quick_ratio() - less for a, b, less in pairs)
        if bound < 0.6 or bound <= score:
            continue
        s = max(difflib.SequenceMatcher(None, a, b).ratio() - less for a, b, less in pairs)
        if s > score:
            best, score = name, s
    return best if score >= 0.6 else None


def _unshared(a: str, b: str) -> tuple[str, str]:
    """`a` and `b` without the whole words they both begin with (while both keep a word)."""
    wa, wb = a.split(" "), b.split(" ")
    n = 0
    while n < min(len(wa), len(wb)) - 1 and wa[n] == wb[n]:
        n += 1
    return " ".join(wa[n:]), " ".join(wb[n:])


def near_miss(query: str, candidates: Iterable[str]) -> str | None:
    """The known name `query` is a near miss of (SPEC 10): the same letters in another case or
    punctuation ("leather-armor"), or at most two edits away ("Leathr Armor"; one for a name of
    fewer than five letters, so that a hero "Max" of another product is no near miss of "Nyx");
    None when none is."""
    bare = _letters(query)
    best: tuple[int, str] | None = None
    for name in dict.fromkeys(candidates):
        if bare and _letters(name) == bare:
            return name
        limit = 1 if min(len(bare), len(_letters(name))) < 5 else 2  # "Max" is no near miss of "Nyx"
        d = edits(key(query), key(name), limit=limit)
        if d <= limit and (best is None or d < best[0]):
            best = (d, name)
    return best[1] if best else None


def _letters(name: str) -> str:
    return "".join(ch for ch in key(name) if ch.isalnum())


def edits(a: str, b: str, limit: int = 2) -> int:
    """Edits (insert, delete, replace, swap two neighbours) from `a` to `b`; `limit + 1` once over."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], prev2[j - 2] + 1)
        if min(row) > limit:
            return limit + 1
        prev2, prev = prev, row
    return min(prev[-1], limit + 1)


def canonical(query: str, candidates: Iterable[str]) -> str | None:
    """The candidate equal to `query` in any case, else None."""
    k = key(query)
    return next((c for c in candidates if key(c) == k), None)


# ------------------------------------------------------------------------ the catalog's names

# kind: (what a message calls it, a name of the game: refused with exit 1; all of them are)
KINDS = {
    "heroes": ("hero", True),
    "classes": ("class", True),
    "roles": ("Dungeon Role", True),
    "trees": ("skill tree", True),
    "chapters": ("chapter", True),
    "colours": ("rune colour", True),
    "followers": ("Follower", True),
    "outcomes": ("Outcome", True),
    "story_statuses": ("status", True),
    "hero_statuses": ("hero status", True),
    "auras": ("Aura", True),
    "items": ("card", True),
    "commander_cards": ("Commander card", True),
    "monsters": ("monster", True),
}


def known(kind: str) -> tuple[tuple[str, ...], dict[str, str]]:
    """The catalog's names of one kind (KINDS) and their aliases (alias -> name)."""
    aliases: dict[str, str] = {}
    if kind == "heroes":
        names = tuple(h.name for h in catalog.heroes())
        aliases = hero_aliases(names)
    elif kind == "classes":
        names = tuple(c for h in catalog.heroes() for c in h.classes)
    elif kind == "roles":
        names = tuple(catalog.ROLES)
    elif kind == "trees":
        names = tuple(catalog.SKILL_TREES)
    elif kind == "chapters":
        names = tuple(ch.id for ch in catalog.chapters())
        aliases = {str(int(ch.id)): ch.id for ch in catalog.chapters()}
    elif kind == "colours":
        names = tuple(catalog.RUNE_COLOURS)
    else:
        names = _card_names(kind)
    return names, aliases


def _card_names(kind: str) -> tuple[str, ...]:

    if kind == "items":
        return (tuple(c["name"] for c in catalog.chest_cards()) + tuple(s["name"] for s in catalog.spoils_items())
                + tuple(a["name"] for a in catalog.adventure_items()) + catalog.starting_gear())
    if kind == "commander_cards":
        return tuple(c["name"] for c in catalog.commander_cards())
    if kind == "monsters":
        return tuple(m["name"] for m in catalog.monsters())
    return catalog.names(kind)  # followers, outcomes, statuses, auras; KeyError for any other


def hero_aliases(names: Iterable[str]) -> dict[str, str]:
    """The catalog's aliases of these hero names ("Vacren" -> "Vacrem")."""
    out = {}
    for name in names:
        h = catalog.hero(name)
        if h is not None and h.name == name:
            out.update({a: name for a in h.aliases})
    return out


def resolve_known(query: str, kind: str, *, extra: Iterable[str] = (), new: bool = False, facts: bool = False,
                  new_hint: str | None = None) -> str:
    """The catalog name of one kind (KINDS) that `query` means; `extra` adds names the campaign
    knows (e.g. cards recorded under [cards]). See resolve()."""
    what, game = KINDS[kind]
    names, aliases = known(kind)
    if kind == "heroes":  # a hero of another product the apps list is known as typed (Katarina: no near
        # miss of Catharina); only the exact name, so that those names are no near misses of others
        other = catalog.canonical(query.strip(), catalog.other_heroes())
        if other is not None:
            return other
    return resolve(query, (*names, *extra), what, aliases=aliases, game=game, new=new, facts=facts,
                   new_hint=new_hint)

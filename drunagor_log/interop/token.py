"""The companion apps' campaign token (design/app-token.md): decode, map to drunagor's names, encode.

A token is base64 of the JSON text of `{"campaignData": {...}, "heroes": [...]}`, the bytes Latin-1
(the browsers' `btoa`), in a current and two legacy forms. Nothing here touches a file: `decode`
and `plan` turn text into an `ImportPlan` of drunagor names (what the import operation records),
`export_json` and `encode` turn a campaign's values back into a token.

What drunagor does not model (the Apocalypse Legacy Trail, the Sequential Adventure state, the
official app's extra keys...) is kept verbatim as JSON text, so that an export gives it back.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import unicodedata
from typing import Any

from ..errors import DataError, RuleError, UsageError
from ..names import check_name
from ..store import MAX_DEPTH, MAX_TEXT, check_limits
from ..values import json_loads, record

MAX_TOKEN_CHARS = 256 * 1024  # a real party of 5 is ~3 KB; the apps' 4-hero example is 2,396 characters
SLOTS = ("weaponId", "offHandId", "armorId", "trinketId")  # equipped
BAG_SLOTS = ("bagOneId", "bagTwoId")
SLOT_OF = {"weapon": "weaponId", "off hand": "offHandId", "armor": "armorId", "trinket": "trinketId"}
QUALITY_PREFIXES = {"improved-": "improved", "ultimate-": "ultimate"}
# campaignData keys drunagor models; everything else is kept verbatim (app-token section 5).
MODELLED_CAMPAIGN = ("campaignId", "campaign", "name", "statusIds", "outcomeIds", "followerIds", "heroes")
MODELLED_HERO = ("heroId", "campaignId", "equipment", "stashedCardIds", "skillIds", "auraId", "statusIds")
_B64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")
_NESTING = re.compile(r'[\[\]{}"\\]')  # what the depth scan looks at: brackets, and what makes strings
INVISIBLE = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")  # what a name may not hold (names.check_name)
SHOWN = 40  # characters of the token's own text quoted in a message


@record
class ImportedItem:
    name: str
    kind: str
    quality: str | None
    place: str  # "equipped" or "bag"
    app_id: str  # the ID the token used (kept when the name alone does not give it back)
    stashed: bool = False  # in the app's Stash (stashedCardIds): no drunagor place fits


@record
class ImportedHero:
    name: str
    cls: str
    items: tuple[ImportedItem, ...]
    skills: tuple[tuple[str, int], ...]  # (tree, level), in ticking order
    aura: str | None
    statuses: tuple[str, ...]
    kept: dict  # the hero's keys drunagor does not model, verbatim (JSON values)


@record
class ImportPlan:
    form: str  # "current" or "legacy"
    party: str
    followers: tuple[str, ...]
    outcomes: tuple[str, ...]
    statuses: tuple[str, ...]
    heroes: tuple[ImportedHero, ...]
    unknown: tuple[tuple[str, str], ...]  # (where, id) of every ID not in the Awakenings lists
    kept: dict  # campaignData keys drunagor does not model, verbatim


def _ids() -> dict[str, Any]:
    import tomllib
    from importlib import resources

    return tomllib.loads(resources.files(__package__).joinpath("app_ids.toml").read_text(encoding="utf-8"))


# ------------------------------------------------------------------------------------ decoding


#: The source of a token typed on the command line: it has no file to name in a message.
TYPED = "the token"


def _file(source: str) -> str | None:
    """The file an error names: none for a typed token ("error: token: the token holds ...", not
    "error: the token: token: the token holds ...")."""
    return None if source == TYPED else source


def decode(text: str, source: str = TYPED) -> dict[str, Any]:
    """The token's JSON object, read as the apps read it (app-token section 1, Import steps 1-3)."""
    if len(text) > MAX_TOKEN_CHARS:
        raise DataError(f"{len(text):,} characters is far more than a campaign token holds "
                        f"(at most {MAX_TOKEN_CHARS:,})", file=_file(source), rule="token",
                        remedy="paste the token the app's Export shows, nothing else")
    compact = "".join(text.split())  # the WHATWG forgiving base64: ASCII whitespace is ignored
    if not compact:
        raise DataError("the token is empty", file=_file(source), rule="token",
                        remedy="paste the token the app's Export shows")
    if not _B64.fullmatch(compact) or len(compact.rstrip("=")) % 4 == 1:
        bad = next((ch for ch in compact if not (ch.isascii() and (ch.isalnum() or ch in "+/="))), None)
        what = f"it holds {bad!r}, which base64 does not use" if bad else "its length cannot be base64 (cut short?)"
        raise DataError(f"not a campaign token: {what}", file=_file(source), rule="token",
                        remedy="copy the whole token again from the app's Export")
    raw = base64.b64decode(compact.rstrip("=") + "=" * (-len(compact.rstrip("=")) % 4))
    text = raw.decode("latin-1")  # btoa's bytes are Latin-1, not UTF-8
    _refuse_deep(text, source)
    try:
        data = json_loads(text)  # NaN, Infinity and numbers past 64 bits: not a token's
    except (ValueError, binascii.Error) as exc:
        raise DataError(f"not a campaign token: the decoded text is not JSON ({exc})", file=_file(source),
                        rule="token", remedy="copy the whole token again from the app's Export") from None
    _refuse_beyond_limits(data, source)
    if not isinstance(data, dict) or not ({"campaign", "name", "campaignData"} & data.keys()):
        raise DataError("not a campaign token: no campaignData, campaign or name in it", file=_file(source),
                        rule="token", remedy="paste a campaign token (the app's Campaign > Export)")
    return data


def _refuse_deep(text: str, source: str) -> None:
    """Refuse JSON nested deeper than a campaign file may be (the store's MAX_DEPTH), before
    json.loads, whose recursion a token of a few thousand brackets would exhaust. One pass over the
    brackets, quotes and backslashes (brackets inside a string do not nest): linear in the size."""
    depth, in_string, escaped = 0, False, -1
    for m in _NESTING.finditer(text):
        ch, at = m.group(), m.start()
        if at == escaped:
            continue
        if in_string:
            if ch == "\\":
                escaped = at + 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise DataError(f"not a campaign token: values nested more than {MAX_DEPTH} levels deep "
                                "(an app's token holds 5 at most)", file=_file(source), rule="token",
                                remedy="copy the whole token again from the app's Export")
        elif ch in "]}":
            depth -= 1


def _refuse_beyond_limits(data: Any, source: str) -> None:
    """The store's limits on a campaign file (MAX_TEXT characters of one text, MAX_ENTRIES of one
    list): a token is a campaign, and what it holds is written into campaign files."""
    if not isinstance(data, dict):
        return  # not a token at all: decode says so
    try:
        check_limits(data, b"", _file(source) or TYPED)
    except DataError as exc:
        raise DataError(f"not a campaign token: {exc.message}", file=_file(source), rule="token",
                        remedy="copy the whole token again from the app's Export") from None


def shown(value: Any) -> str:
    """The token's own text as a message quotes it: at most SHOWN characters, control and
    invisible characters written as U+XXXX (never sent to the terminal as they are)."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    cut = text[:SHOWN]
    out = "".join(ch if ch.isprintable() else f"U+{ord(ch):04X}" for ch in cut)
    return repr(out + ("…" if len(text) > SHOWN else ""))


def form_of(data: dict[str, Any]) -> str:
    """'legacy' when the top level has `campaign` or `name` (the apps' own order), else 'current'."""
    return "legacy" if ("campaign" in data or "name" in data) else "current"


def _campaign_data(data: dict[str, Any], source: str) -> dict[str, Any]:
    if form_of(data) == "legacy":
        return {"campaign": data.get("campaign"), "name": data.get("name", "")}
    cd = data["campaignData"]
    if not isinstance(cd, dict):
        raise DataError("campaignData is not an object", file=_file(source), rule="token",
                        remedy="copy the whole token again from the app's Export")
    return cd


def _strings(value: Any, where: str, source: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DataError(f"{where} must be a list of IDs, not {shown(value)}", file=_file(source),
                        rule="token", remedy="the token was changed by hand or cut: export it again")
    return value


def plan(data: dict[str, Any], source: str = TYPED, classes: dict[str, str] | None = None) -> ImportPlan:
    """The campaign a token describes, in drunagor's names; refuses another box's campaign.

    `classes` gives the class of a hero of another product (the catalog knows only Awakenings')."""
    classes = classes or {}
    ids = _ids()
    cd = _campaign_data(data, source)
    kind = cd.get("campaign")
    if kind != "awakenings":
        what = f"the {shown(kind)} box" if kind else "no box (no campaign type)"
        raise RuleError(f"the token's campaign is of {what}, not an Awakenings campaign",
                        file=_file(source), rule="token",
                        remedy="drunagor keeps Awakenings campaigns only; import it into the app of that box")
    unknown: list[tuple[str, str]] = []

    def names(key: str, table: str, where: str) -> tuple[str, ...]:
        out = []
        for ident in _strings(cd.get(key), f"campaignData.{key}", source):
            if ident in ids[table]:
                out.append(ids[table][ident])
            else:
                unknown.append((f"{where} ({key})", ident))
        return tuple(out)

    followers = names("followerIds", "followers", "Followers")
    statuses = names("statusIds", "story_statuses", "Story Record statuses")
    outcomes = names("outcomeIds", "outcomes", "Outcomes")
    heroes_data = _hero_list(data, cd, source)
    heroes = tuple(_hero(h, i, ids, unknown, source, classes) for i, h in enumerate(heroes_data))
    seen: dict[str, str] = {}
    for h in heroes:
        if h.name in seen:
            raise RuleError(f"the token holds {h.name} twice ({seen[h.name]} and {h.cls})", file=_file(source),
                            rule="token", remedy="a hero plays once in a party: remove one in the app, export again")
        seen[h.name] = h.cls
    kept = {k: v for k, v in cd.items() if k not in MODELLED_CAMPAIGN}
    _refuse_too_much_kept(kept, "campaignData", source)
    return ImportPlan(form=form_of(data), party=_party(cd, source),
                      followers=followers, outcomes=outcomes, statuses=statuses,
                      heroes=heroes, unknown=tuple(unknown), kept=kept)


def _party(cd: dict[str, Any], source: str) -> str:
    """The party's name: a text, of printable characters (shown on every sheet and message)."""
    party = cd.get("name")
    if party is None:
        return ""
    if not isinstance(party, str):
        raise DataError(f"the party's name must be a text, not {shown(party)}", file=_file(source), rule="token",
                        remedy="the token was changed by hand or cut: export it again")
    bad = next((ch for ch in party if unicodedata.category(ch) in INVISIBLE), None)
    if bad is not None:
        raise DataError(f"the party's name {shown(party)} holds U+{ord(bad):04X}, a control or invisible "
                        "character", file=_file(source), rule="token",
                        remedy="rename the party in the app (printable characters only), then export again")
    return party


def _refuse_bad_name(name: str, what: str, where: str, source: str) -> None:
    """A name from the token checked as `new` and `hero add` check a name typed (names.check_name:
    length, characters, a letter or digit for its file name, no device name), before any folder is made."""
    try:
        check_name(name, what)
    except UsageError as exc:
        # the check's own "'X' cannot name a hero: " would say it twice
        reason = exc.message.replace(repr(name), shown(name)).removeprefix(f"{shown(name)} cannot name a {what}: ")
        raise DataError(f"{where} cannot name a {what}: {reason}", file=_file(source), rule="token",
                        remedy="the token was changed by hand or cut: export it again") from None


def _refuse_too_much_kept(kept: dict[str, Any], where: str, source: str) -> None:
    """What drunagor keeps verbatim is one text in a campaign file: within the store's MAX_TEXT,
    so that the campaign made can be read again."""
    size = len(json.dumps(kept, ensure_ascii=False))
    if size > MAX_TEXT:
        raise DataError(f"{where} holds {size:,} characters of data drunagor does not model, more than a "
                        f"campaign file keeps in one text ({MAX_TEXT:,})", file=_file(source), rule="token",
                        remedy="the token was changed by hand: export it again from the app")


def _hero_list(data: dict[str, Any], cd: dict[str, Any], source: str) -> list[dict[str, Any]]:
    heroes = data.get("heroes")
    if heroes is None and isinstance(cd.get("heroes"), list):
        heroes = cd["heroes"]  # the official app's nested copy, when the top-level list is missing
    if not isinstance(heroes, list) or not all(isinstance(h, dict) for h in heroes):
        raise DataError("the token has no list of heroes", file=_file(source), rule="token",
                        remedy="copy the whole token again from the app's Export")
    return heroes


def _identity(h: dict[str, Any], where: str, ids: dict[str, Any], source: str,
              classes: dict[str, str]) -> dict[str, str]:
    """{"name", "class"} of a token's hero; a core-box hero is refused (RB L939-945)."""
    hero_id = h.get("heroId")
    if isinstance(hero_id, str) and hero_id in ids["core_heroes"]:
        raise RuleError(f"{where}: {ids['core_heroes'][hero_id]} is a core-box hero, not an Awakenings hero "
                        "(RB L939-945)", file=_file(source), rule="token",
                        remedy="remove that hero in the app (a core-box hero can be a Follower), then export again")
    if not isinstance(hero_id, str) or not hero_id.strip():
        raise DataError(f"{where} has no heroId", file=_file(source), rule="token",
                        remedy="the token was changed by hand or cut: export it again")
    who = ids["heroes"].get(hero_id)
    if who is not None:
        return who
    name = hero_id[:1].upper() + hero_id[1:]  # another product's hero: named by its ID, capitalised (3.1)
    _refuse_bad_name(name, "hero", f"{where}: its heroId", source)
    cls = next((c for n, c in classes.items() if n.casefold() == name.casefold()), None)
    if cls is None:
        raise RuleError(f"{where}: drunagor's catalog does not know {name}'s class (a hero of another "
                        "product)", file=_file(source), rule="token",
                        remedy=f"say it once: --class {name}=CLASS (game-data: any other hero with an "
                               "explicit class)")
    return {"name": name, "class": cls}


def _mapped(values: list[str], table: dict[str, str], where: str, unknown: list) -> list[str]:
    """The drunagor names of IDs; the IDs the table lacks go to `unknown` with their place."""
    out = []
    for ident in values:
        if ident in table:
            out.append(table[ident])
        else:
            unknown.append((where, ident))
    return out


def _hero(h: dict[str, Any], i: int, ids: dict[str, Any], unknown: list, source: str,
          classes: dict[str, str]) -> ImportedHero:
    where = f"hero {i + 1} ({shown(h.get('heroId'))})"
    who = _identity(h, where, ids, source, classes)
    items = _items(h, who["name"], ids, unknown, source)
    skills = []
    for sid in _strings(h.get("skillIds"), f"{where} skillIds", source):
        tree, _, level = sid.rpartition("-")
        if tree in ids["skill_trees"] and level in ("1", "2"):
            skills.append((ids["skill_trees"][tree], int(level)))
        else:
            unknown.append((f"{who['name']}'s skills", sid))
    aura_id = h.get("auraId")
    if aura_id is not None and not isinstance(aura_id, str):
        raise DataError(f"{where} auraId must be an ID or null, not {shown(aura_id)}", file=_file(source),
                        rule="token", remedy="the token was changed by hand or cut: export it again")
    aura = _mapped([aura_id] if isinstance(aura_id, str) and aura_id else [], ids["auras"],
                   f"{who['name']}'s aura", unknown)
    statuses = _mapped(_strings(h.get("statusIds"), f"{where} statusIds", source), ids["hero_statuses"],
                       f"{who['name']}'s statuses", unknown)
    kept = {k: v for k, v in h.items() if k not in MODELLED_HERO}
    equipment = h.get("equipment")
    if isinstance(equipment, dict):  # how each empty slot was written ("", null, or left out)
        kept["_emptySlots"] = {s: equipment[s] for s in SLOTS + BAG_SLOTS if s in equipment and not equipment[s]}
    if aura_id == "":
        kept["_emptyAura"] = ""  # an Aura the app cleared: given back as "", not null
    kept["_order"] = i  # the heroes' order in the apps ("in the order added"); keys with _ are drunagor's
    _refuse_too_much_kept(kept, where, source)
    return ImportedHero(name=who["name"], cls=who["class"], items=tuple(items), skills=tuple(skills),
                        aura=aura[0] if aura else None, statuses=tuple(statuses), kept=kept)


def _items(h: dict[str, Any], hero: str, ids: dict[str, Any], unknown: list, source: str) -> list[ImportedItem]:
    equipment = h.get("equipment") or {}
    if not isinstance(equipment, dict):
        raise DataError(f"{hero}'s equipment is not an object", file=_file(source), rule="token",
                        remedy="the token was changed by hand or cut: export it again")
    placed = [(equipment.get(s), "equipped", False) for s in SLOTS]
    placed += [(equipment.get(s), "bag", False) for s in BAG_SLOTS]
    placed += [(x, "bag", True) for x in _strings(h.get("stashedCardIds"), f"{hero}'s stashedCardIds", source)]
    out = []
    for ident, place, stashed in placed:
        if not ident:
            continue
        if not isinstance(ident, str):
            raise DataError(f"{hero}'s equipment holds {shown(ident)}, not an item ID", file=_file(source),
                            rule="token", remedy="the token was changed by hand or cut: export it again")
        item = item_of(ident, ids)
        if item is None:
            unknown.append((f"{hero}'s equipment", ident))
            continue
        name, kind, quality = item
        out.append(ImportedItem(name, kind, quality, place, ident, stashed))
    return out


def item_of(ident: str, ids: dict[str, Any] | None = None) -> tuple[str, str, str | None] | None:
    """(name, kind, quality) of an item ID; Spoils carry their quality as a prefix (app-token 3.7)."""
    ids = ids or _ids()
    quality = None
    base = ident
    for prefix, q in QUALITY_PREFIXES.items():
        if ident.startswith(prefix):
            base, quality = ident[len(prefix):], q
    entry = ids["items"].get(base)
    if entry is None or (quality is not None and entry["kind"] != "spoils"):
        return None
    if entry["kind"] == "spoils":
        quality = quality or "standard"
    return entry["name"], entry["kind"], quality


# ------------------------------------------------------------------------------------ encoding


def encode(data: dict[str, Any]) -> str:
    """The token of a JSON object, as the apps write it: compact JSON, Latin-1 bytes, base64.

    A character the apps cannot encode (above U+00FF: a curly apostrophe, an emoji) is refused by
    name, since the apps' `btoa` would fail on it (app-token section 1)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    try:
        raw = text.encode("latin-1")
    except UnicodeEncodeError as exc:
        ch = text[exc.start]
        context = text[max(0, exc.start - 20):exc.start + 20]
        raise RuleError(f"the apps cannot carry the character {ch!r} (U+{ord(ch):04X}) in {context!r}",
                        rule="token", remedy=f"rename what holds it without {ch!r} (e.g. a straight ' for ’), "
                        "then export again") from None
    return base64.b64encode(raw).decode("ascii")


def id_tables() -> dict[str, dict[Any, str]]:
    """name -> ID for each list (the reverse of the import tables)."""
    ids = _ids()
    out = {t: {v: k for k, v in ids[t].items()} for t in
           ("followers", "story_statuses", "outcomes", "hero_statuses", "auras", "skill_trees")}
    out["heroes"] = {(v["name"], v["class"]): k for k, v in ids["heroes"].items()}
    items: dict[str, str] = {}
    for k, v in ids["items"].items():
        items.setdefault(v["name"], k)  # a card with two faces: the first face, unless the entry kept its ID
    out["items"] = items
    out["item_slots"] = {k: v["slot"] for k, v in ids["items"].items()}
    out["other_heroes"] = {k: k for k in ids["other_heroes"]["ids"]}
    return out

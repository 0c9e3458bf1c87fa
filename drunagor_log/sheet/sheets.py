"""The campaign as sheets to look at: a self-contained HTML page or Markdown (`drunagor sheet`).

A front end over the campaign model, like the command line: `view(campaign)` reads the open
`Campaign` (the Story Record, the Campaign Logs, adventure.toml and the archived adventures under
adventures/) and asks `rules/` what the rules say about it (rewards owed, the chest grid, the
Commander deck by Rune position, the Monster Status board), giving one plain dict; `render(view, fmt)`
fills a Jinja2 template with it. Nothing here reads a TOML file itself, and nothing is guessed: what
the files do not record is shown as not recorded.

The sheets, in order: the Story Record; one Campaign Log per hero; the Chest and Commander Attack
decks; the adventure under way (when there is one); the timeline of archived adventures (when there
are any). Each is one printed page (print CSS: a page break before each sheet, no row cut in two).
The output holds no date, so a sheet made again from unchanged files is the same bytes.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

from .. import __version__, catalog, store
from ..campaign import ADVENTURE, ARCHIVE, HEROES, STORY, Campaign
from ..catalog import diskcache
from ..catalog.headings import rendered
from ..errors import DataError, UsageError
from ..git.programs import open_url
from ..model import CHAPTERS, Hero, Item, Story
from ..model.adventure import SLOT_COLOURS, STATUS_BOARD_TRACKS
from ..ops.round import counter_lines, round_json
from ..rules import chest, commander, rewards
from ..store import display
from ..store.adventure import read
from ..text import plural, visible
from ..values import DIGITS, is_digits
from . import chronicle

FORMATS = ("html", "md")
SUFFIX = {"html": ".html", "md": ".md"}
DEFAULT_NAME = "sheet"  # campaigns/<slug>/sheet.html (or sheet.md)
TEMPLATES = Path(__file__).parent / "templates"
RECENT_EVENTS = 6  # table events of the adventure under way shown on its sheet
MAX_DOTS = 20  # runes drawn of one colour (the number beside them says how many there are)
RAID_SEED = re.compile(r"\s*\(seed \d+\)")


# ------------------------------------------------------------------------------------ the view


def view(c: Campaign) -> dict[str, Any]:
    """Everything the sheets show, as plain values (str, int, bool, None, lists and dicts)."""
    story = c.story
    heroes = _ordered(story, c.heroes)
    adventure = _adventure(c)
    timeline = _timeline(c)
    sheets = [{"id": "story", "title": "Story Record"}]
    sheets += [{"id": f"hero-{h['slug']}", "title": f"Campaign Log: {h['name']}"} for h in heroes]
    sheets.append({"id": "decks", "title": "Chest and Commander decks"})
    if adventure is not None:
        sheets.append({"id": "adventure", "title": f"Chapter {adventure['chapter']} under way",
                       "heading": f"Chapter {adventure['chapter']} under way: {adventure['title']}"})
    if timeline:
        sheets.append({"id": "timeline", "title": "Timeline of adventures"})
    told = chronicle.view(c)  # the recap since the last evening and the statistics (issue 45)
    sheets.append({"id": "chronicle", "title": "Chronicle"})
    for s in sheets:  # the Markdown heading each sheet has (its anchor links the list of sheets to it)
        s.setdefault("heading", s["title"])
    return {
        "folder": c.root.name,
        "version": __version__,
        "party": story.party,
        "sheets": sheets,
        "story": _story(story, c.heroes, adventure),
        "heroes": heroes,
        "chest": _chest(story),
        "commander": _commander(story),
        "adventure": adventure,
        "timeline": timeline,
        "chronicle": told,
    }


def _ordered(story: Story, heroes: dict[str, Hero]) -> list[dict[str, Any]]:
    """The Campaign Logs: heroes in the party first, then those who left (each by file name)."""
    party = [h for h in heroes.values() if h.active]
    rows = [(s, h) for s, h in heroes.items() if h.active] + [(s, h) for s, h in heroes.items() if not h.active]
    return [_hero(slug, h, story, party) for slug, h in rows]


def _story(story: Story, heroes: dict[str, Hero], adventure: dict | None) -> dict[str, Any]:

    nxt = story.next_chapter()
    under_way = adventure["chapter"] if adventure else None
    track = [{"chapter": ch, "title": catalog.chapter(ch).title, "state": story.track.get(ch),
              "failures": story.failures.get(ch, 0), "next": ch == nxt, "under_way": ch == under_way}
             for ch in CHAPTERS]
    leader = (story.leader or "").casefold()
    return {
        "party": story.party,
        "leader": story.leader,
        # The ending is recorded when chapter 09 ends (SPEC 9); shown once the model holds it.
        "ending": getattr(story, "ending", None),
        "finished": nxt is None,
        "next_chapter": nxt,
        "next_title": catalog.chapter(nxt).title if nxt else None,
        "track": track,
        "followers": list(story.followers),
        "outcomes": list(story.outcomes),
        "statuses": list(story.statuses),
        "stored": list(story.stored),
        "stash": list(story.stash),
        "corrections": list(story.corrections),
        "roster": [{"name": h.name, "class": h.cls, "role": h.role, "player": h.player, "active": h.active,
                    "leader": bool(leader) and h.name.casefold() == leader} for h in heroes.values()],
        "max_heroes": story.rules.max_heroes,
        "trauma_limit": story.rules.trauma_limit,
    }


def _hero(slug: str, h: Hero, story: Story, party: list[Hero]) -> dict[str, Any]:

    owed = rewards.describe(rewards.owed_for(h, story, party)) if h.active else ""
    excess = rewards.describe(rewards.excess_for(h, story, party)) if h.active else ""
    return {
        "slug": slug,
        "name": h.name,
        "class": h.cls,
        "role": h.role,
        "player": h.player,
        "joined": h.joined,
        "active": h.active,
        # `left` is the chapter before which the hero left; a hero in the party who has one came back.
        "left": h.left,
        "returned": h.active and h.left is not None,
        "aura": h.aura,
        "statuses": list(h.statuses),
        "class_abilities": list(h.class_abilities),
        "skills": [{"name": s.name, "tree": s.tree, "level": s.level, "chapter": s.chapter} for s in h.skills],
        "equipped": [_item(i) for i in h.equipment if i.place == "equipped"],
        "bag": [_item(i) for i in h.equipment if i.place == "bag"],
        "upgrades": [{"item": u.item, "to": u.to, "discarded": u.discarded, "chapter": u.chapter}
                     for u in h.upgrades],
        "owed": owed,
        "excess": excess,
    }


def _item(i: Item) -> dict[str, Any]:
    return {"name": i.name, "kind": i.kind, "quality": i.quality, "given_by": i.given_by}


# --------------------------------------------------------------------------------- the two decks


def _chest(story: Story) -> dict[str, Any]:

    g = chest.grid(story)
    rows = []
    for t in chest.TYPES:
        cells = []
        for r in chest.RARITIES:
            cards = [{"name": card.name, "copies": card.copies} for card, f in g.cards
                     if (f.type, f.rarity) == (t, r)]
            cells.append({"rarity": r, "count": g.counts[t][r], "target": g.target[t][r], "cards": cards})
        rows.append({"type": t, "label": chest.PLURAL[t], "cells": cells,
                     "count": g.type_totals[t], "target": sum(g.target[t].values())})
    unplaced = [{"name": card.name, "copies": card.copies, "type": f.type, "rarity": f.rarity}
                for card, f in g.cards if f.type not in chest.TYPES or f.rarity is None]
    return {
        "status": g.status,
        "text": g.text(),
        "epic": list(g.epic),
        "epic_pair": list(chest.epic_pair()),
        "epic_ok": g.epic_ok,
        "rarities": list(chest.RARITIES),
        "rows": rows,
        "count": g.total,
        "size": chest.DECK_SIZE,
        "unplaced": unplaced,
        "problems": [p.message for p in g.problems],
    }


def _commander(story: Story) -> dict[str, Any]:

    d = commander.deck(story)
    held = d.by_position
    return {
        "status": d.status,
        "text": d.text(),
        "count": len(d.cards),
        "size": commander.deck_size(),
        "colours": [{"colour": colour, "css": _rune_css(colour),
                     "top": held[f"{colour}-top"], "bottom": held[f"{colour}-bottom"]}
                    for colour in commander.colours()],
        "unknown": list(d.unknown),
        "problems": [p.message for p in d.problems],
    }


# ------------------------------------------------------------------------------ the adventures


def _state(c: Campaign, f):
    """An adventure file (adventure.toml, or an archive) as the adventure state, through the one
    codec every command reads it with; a file of the wrong shape is reported as `show` reports it."""
    return read(f)


def _adventure(c: Campaign) -> dict[str, Any] | None:

    f = c.adventure_file
    if f is None:
        return None
    state = _state(c, f)
    by_slot = {m.slot: m for m in state.monsters if m.slot is not None}
    slots = []
    for n in range(1, STATUS_BOARD_TRACKS + 1):
        m = by_slot.get(n)
        slots.append({"slot": n, "colour": SLOT_COLOURS[n - 1], "css": SLOT_COLOURS[n - 1].replace(" ", "-"),
                      "board": 1 if n <= STATUS_BOARD_TRACKS // 2 else 2,
                      "monster": m.name if m else None, "rank": m.rank if m else None})
    raid = state.raid
    return {
        "chapter": state.chapter,
        "title": catalog.chapter(state.chapter).title,
        "heroes": state.heroes,
        "raid": None if raid is None else {"card": raid.card, "face": raid.face, "minions": list(raid.minions),
                                           "rank": raid.rank, "model_limit": raid.model_limit},
        "boards": [[s for s in slots if s["board"] == b] for b in (1, 2)],
        "taken": len(by_slot),
        "tracks": STATUS_BOARD_TRACKS,
        "bosses": [{"name": m.name, "rank": m.rank} for m in state.monsters if m.slot is None],
        "bag": _runes(state.bag),
        "runes_in_bag": state.runes_in_bag(),
        "track": _runes(state.track),
        "runes_on_track": sum(state.track.values()),
        "piles": [{"id": p.id, "runes": _rune_list(p.runes),
                   "counts": [r for r in _runes(p.runes) if r["count"]]} for p in state.piles],
        "cubes": _cubes(state, c.story.rules.trauma_limit, c.story.cards),
        **_round(c, state),
        "recent": [{"event": str(e.get("event", "")), "text": str(e["text"]), "by": _by(c, e.get("by"))}
                   for e in state.log if e.get("text")][-RECENT_EVENTS:],
    }


def _by(c: Campaign, stem: Any) -> str | None:
    """Who recorded a table event from their phone: the hero's name (`by` is their file's stem); None
    for the scribe at the keyboard."""
    if not isinstance(stem, str) or not stem:
        return None
    hero = c.heroes.get(stem)
    return hero.name if hero is not None else stem


def _round(c: Campaign, state) -> dict[str, Any]:
    """The round, what its end will do, and the chapter's counters and tokens, in words (SPEC 10)."""
    now = round_json(c, state)
    return {"round": now["round"], "next_round": now["next_round"], "counters": counter_lines(now["counters"])}


def _cubes(state, trauma_limit: int, cards: dict | None = None) -> list[dict[str, Any]]:
    """The heroes' Trauma and Curse Cubes, where adventure.toml tracks them (`drunagor cube`); an
    adventure file without them shows none. Each entry is a table or a value with those fields. A
    hero's Curse Cube capacity and Skills' extra Trauma Cubes are facts recorded under [cards]."""
    cubes = getattr(state, "cubes", None) or {}
    rows = []
    for hero, entry in dict(cubes).items():
        fields = entry if isinstance(entry, dict) else {k: getattr(entry, k) for k in
                                                        ("trauma", "curse", "trauma_limit", "curse_capacity")
                                                        if hasattr(entry, k)}
        facts = (cards or {}).get(hero)
        facts = facts if isinstance(facts, dict) else {}
        rows.append({"hero": str(hero), "trauma": fields.get("trauma", 0), "curse": fields.get("curse", 0),
                     "trauma_limit": fields.get("trauma_limit", trauma_limit + _count(facts, "trauma_limit_bonus")),
                     "curse_capacity": fields.get("curse_capacity", _count(facts, "curse_capacity") or None)})
    return rows


def _count(facts: dict, key: str) -> int:
    value = facts.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _rune_css(colour: str) -> str:
    """The CSS class of a rune colour; a colour the catalog does not know gets a plain one (the
    colours come from story.toml: never written into the page's CSS)."""
    return colour if colour in catalog.RUNE_COLOURS else "other"


def _runes(counts: dict[str, int]) -> list[dict[str, Any]]:
    return [{"colour": colour, "css": _rune_css(colour), "count": n, "dots": min(n, MAX_DOTS)}
            for colour, n in counts.items()]


def _rune_list(counts: dict[str, int]) -> list[dict[str, Any]]:
    """One entry per rune: a Pile drawn as its runes."""
    return [{"colour": colour, "css": _rune_css(colour)} for colour, n in counts.items()
            for _ in range(min(n, MAX_DOTS))]


def _runes_drawn(event: dict) -> int:
    """Runes one `draw` put on the track (`runes = "red, blue"`); 1 for an entry that does not say."""
    runes = [r for r in str(event.get("runes") or "").split(",") if r.strip()]
    return len(runes) or 1


def _archive_order(path: Path) -> tuple:
    """adventures/05-2.toml: chapter 05, attempt 2; other names after, by name."""
    chapter, _, attempt = path.stem.partition("-")
    if is_digits(chapter) and is_digits(attempt) and len(chapter + attempt) <= DIGITS:  # not '0³' (isdigit)
        return (0, int(chapter), int(attempt), path.name)
    return (1, 0, 0, path.name)


def _timeline(c: Campaign) -> list[dict[str, Any]]:

    folder = c.root / ARCHIVE
    if not folder.is_dir():
        return []
    rows = []
    for path in sorted((p for p in folder.glob("*.toml") if not p.name.startswith(".")), key=_archive_order):
        state = _state(c, c.file(path))
        attempt = _archive_order(path)[2]
        raids = [{"face": str(e.get("face", "")), "rune": str(e["rune"]) if e.get("rune") else None,
                  "css": _rune_css(str(e.get("rune"))), "text": RAID_SEED.sub("", str(e.get("text", "")))}
                 for e in state.log if e.get("event") == "raid"]
        rows.append({
            "file": f"{ARCHIVE}/{path.name}",
            "chapter": state.chapter,
            "title": catalog.chapter(state.chapter).title,
            "attempt": attempt or None,
            "outcome": state.outcome,
            "heroes": state.heroes,
            "raid_card": state.raid.card if state.raid is not None else None,
            "raids": raids,
            "draws": sum(_runes_drawn(e) for e in state.log if e.get("event") == "draw"),
            "lost": state.lost,  # the losing condition met, in words with its rule line
        })
    return rows


# ----------------------------------------------------------------------------------- rendering


def render(data: dict[str, Any], fmt: str = "html") -> str:
    """The sheets as one HTML page or one Markdown document. Jinja2 is imported here, and only
    `drunagor sheet` calls this (tests/cli/test_import_budget.py keeps it so)."""
    import jinja2

    common: dict[str, Any] = {"loader": jinja2.FileSystemLoader(TEMPLATES), "trim_blocks": True,
                              "lstrip_blocks": True, "undefined": jinja2.StrictUndefined,
                              "bytecode_cache": _bytecode_cache(jinja2)}
    if fmt == "html":
        env = jinja2.Environment(autoescape=True, finalize=html_visible, **common)
    else:
        # Markdown has no autoescape of its own: every value goes through md_escape (finalize), so a
        # name like `<script>` or `*Bold*` is text, and a `|` does not break a table row.
        env = jinja2.Environment(autoescape=False, finalize=md_escape, **common)
        env.filters["names"] = md_names
        env.filters["anchor"] = md_anchor
    env.filters["plural"] = plural
    return rendered(env.get_template(f"sheet.{fmt}.j2").render(**data))  # citations as a player reads them


def md_anchor(heading: str) -> Any:
    """The anchor GitHub gives a Markdown heading: lower case, spaces as hyphens, punctuation dropped
    (letters and digits of any script kept), so the list of sheets links to each."""
    from markupsafe import Markup

    text = "".join(ch for ch in heading.strip().lower() if ch.isalnum() or ch in " -_")
    return Markup(text.replace(" ", "-"))


def md_escape(value: Any) -> Any:
    """A value as Markdown text: characters Markdown would read as markup are escaped, `<` and `&`
    become entities (GitHub renders them as the characters), a line break becomes a space."""
    if value is None:
        return ""
    if not isinstance(value, str) or hasattr(value, "__html__"):  # a number, or text already escaped
        return value
    text = " ".join(visible(value).split())
    out = "".join(_md_code(part) if _LINKABLE.search(part) else _md_text(part) for part in _MD_WORD.split(text))
    start = _MD_LINE_START.match(out)  # a value may begin a line: it starts no list, rule or heading
    return out if start is None else f"{out[:start.end()]}\\{out[start.end():]}"


def _md_text(text: str) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", text)


def _md_code(word: str) -> str:
    """A word a renderer would make a link of (`https://…`, `www.…`, `a@b.c`), as a code span: GitHub
    links bare URLs twice, when it parses and again in the rendered HTML, where a backslash escape
    is gone already; no renderer links inside code. The word holds no backtick, `|` or space
    (_MD_WORD), and nothing is markup inside a code span, so it goes in as it is."""
    return f"`{word}`"


# A word of a value: what lies between spaces, `|` (a table cell's end) and backticks (a code span's).
_MD_WORD = re.compile(r"([^\s|`]+)")
# What GitHub's and other renderers' autolinking starts from (GFM "autolinks (extension)", and the
# e-mail addresses, mailto: and xmpp: it links the same way).
_LINKABLE = re.compile(r"(?i)://|www\.|mailto:|xmpp:|@[^@]*\.")


# In running text and table cells only these start markup: emphasis, code, links, a cell's end.
def _bytecode_cache(jinja2):
    """The compiled templates, kept in drunagor's cache (diskcache.load_bytes: authenticated before
    jinja2 decodes them, as every entry is; keyed by the template's text, so an upgraded template is
    compiled again): compiling them is most of a sheet's time."""
    from jinja2 import BytecodeCache

    class Kept(BytecodeCache):
        def load_bytecode(self, bucket):
            raw = diskcache.load_bytes(f"template-{bucket.key}")
            if raw is not None:
                bucket.bytecode_from_string(raw)

        def dump_bytecode(self, bucket):
            diskcache.save_bytes(f"template-{bucket.key}", bucket.bytecode_to_string())

    return Kept()


_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~#])")  # and `#`: a heading, or the end of one
# What starts a block at the beginning of a line (a list item, a rule, a setext heading's line).
_MD_LINE_START = re.compile(r"\d+(?=[.)])|(?=[-+=])")


def html_visible(value: Any) -> Any:
    """The HTML environment's finalize: every value shown with its invisible characters spelled
    out, before autoescape; a value escaped already (a macro's, a join's) gets the markers as
    entities, so that it stays escaped."""
    if not isinstance(value, str):
        return value
    if hasattr(value, "__html__"):
        from markupsafe import Markup

        return value if value.isprintable() else Markup(visible(str(value), "&lt;", "&gt;"))
    return visible(value)


def md_names(items: list, empty: str = "none") -> Any:
    """"A, B" for the Markdown sheet: each name escaped, the result marked as escaped already."""
    from markupsafe import Markup

    return Markup(", ".join(md_escape(str(i)) for i in items) if items else md_escape(empty))


# ------------------------------------------------------------------------------------- writing


def format_for(fmt: str | None, out: str | None, open_: bool = False) -> str:
    """--format as given; else the suffix of --out (.md or .markdown: Markdown); else HTML.
    Refuses an unknown format, and --open with --out - (nothing is written to open)."""
    if open_ and out == "-":
        raise UsageError("--open opens the written file, and --out - writes none", remedy="leave out one of them")
    if fmt is not None:
        if fmt.casefold() in ("markdown", "md"):
            return "md"
        if fmt.casefold() == "html":
            return "html"
        raise UsageError(f"--format {fmt!r}: a sheet is html or md", remedy="give --format html or --format md")
    if out and out != "-" and Path(out).suffix.casefold() in (".md", ".markdown"):
        return "md"
    return "html"


def output_path(root: Path, fmt: str, out: str | None) -> Path:
    """Where the sheet goes: --out PATH (a folder gets sheet.html or sheet.md in it), else
    sheet.html (sheet.md) in the campaign folder."""
    name = f"{DEFAULT_NAME}{SUFFIX[fmt]}"
    if out is None:
        return root / name
    path = Path(out).expanduser()
    return path / name if path.is_dir() else path


# The files of a campaign folder a sheet never replaces (beside these: all of heroes/ and adventures/,
# and the store's own journal, lock and temp files, all named .drunagor*).
CAMPAIGN_FILES = (STORY, ADVENTURE, ".gitignore", ".gitattributes")


def check_out(path: Path) -> None:
    """Refuse a place the sheet must not be written to, before anything is: a file of a campaign
    (this one or another: a folder holding story.toml), or anything but a regular file or a new path
    (a symbolic link is never followed, a FIFO or a device never replaced by a file)."""
    shown = display(path)
    if _campaign_file(path):
        raise UsageError(f"--out {shown} is a file of a campaign: a sheet never replaces one",
                         remedy="give --out a path outside the campaign's files (the default is sheet.html "
                                "beside story.toml)")
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return  # a new path (or one the write will say it cannot use)
    if stat.S_ISREG(mode):
        return
    if stat.S_ISLNK(mode):
        what = "a symbolic link stands where the sheet would go (a sheet is never written through a link)"
    elif stat.S_ISDIR(mode):
        what = "a folder stands where the sheet would go"
    else:
        what = "not a regular file (a FIFO, a device or a socket stands where the sheet would go)"
    raise DataError(what, file=shown, rule="file",
                    remedy="nothing was written; move it away, or give --out a new path or a regular file")


def _campaign_file(path: Path) -> bool:
    full = Path(os.path.abspath(path))
    if full.name in (STORY, ADVENTURE):
        return True
    folder = Path(os.path.realpath(full.parent))  # a campaign reached through a link is one too
    if os.path.lexists(folder / STORY) and (full.name in CAMPAIGN_FILES or full.name.startswith(".drunagor")):
        return True
    return folder.name in (HEROES, ARCHIVE) and os.path.lexists(folder.parent / STORY)


def write(path: Path, text: str) -> bool:
    """Write the sheet atomically (a temp file beside it, renamed over it: never through a link);
    an unchanged sheet is left as it is. True when written."""
    check_out(path)
    data = text.encode("utf-8")
    if store.peek(path) == data:  # a regular file, not a link: read without following one
        return False
    store.atomic_write(path, data)
    return True


def open_in_browser(path: Path) -> bool:
    """Open the written sheet in the user's web browser; False when there is none."""
    return open_url(path.resolve().as_uri())

"""The pages of the table's screen, drawn from the board's read with Jinja2 templates (templates/).

A page is its frame (page.html.j2: the head, the stylesheet and the script from static/, the "live"
line) around its board: the part the live stream replaces when the campaign changes. The board of
each page is drawn once per version of the read, whatever the number of viewers.

Every value is autoescaped, and shown with its invisible characters spelled out (`<U+202E>`) as the
sheets show them (sheet.html_visible); the CSS classes come from fixed lists (sheet's rune and slot
colours), never from the campaign's text. Nothing here reads a file of the campaign: a hero's page
is found in the read by its file name, never looked up on disk.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from .. import __version__
from ..catalog.headings import rendered
from ..names import known
from ..rules.chapters import without_commands
from ..rules.losing import near_defeat
from ..sheet import html_visible
from ..text import plural

TEMPLATES = Path(__file__).parent / "templates"
TABLE, CAMPAIGN, HERO = "table", "campaign", "heroes/"
CHRONICLE = "chronicle"  # the recap and the statistics with their charts (issue 45)


def page_of(path: str) -> str | None:
    """The page a URL path names ("table", "campaign", "heroes/<slug>"), or None for any other path."""
    if path == "/":
        return TABLE
    if path.rstrip("/") == "/campaign":
        return CAMPAIGN
    if path.rstrip("/") == "/chronicle":
        return CHRONICLE
    parts = path.strip("/").split("/")
    if len(parts) == 2 and parts[0] == "heroes" and parts[1]:
        return HERO + parts[1]
    return None


def url_of(page: str) -> str:
    return "/" if page == TABLE else f"/{page}"


def exists(data: dict[str, Any], page: str) -> bool:
    """A hero's page exists while the read holds a Campaign Log of that file name (a broken campaign
    keeps every page: it shows the message, and the page comes back when the file is fixed)."""
    if not page.startswith(HERO) or "error" in data:
        return True
    return any(h["slug"] == page[len(HERO):] for h in data["heroes"])


class Pages:
    def __init__(self) -> None:
        import jinja2

        self.env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                                      finalize=html_visible, trim_blocks=True, lstrip_blocks=True,
                                      undefined=jinja2.StrictUndefined, extensions=["jinja2.ext.do"])
        self.env.filters["plural"] = plural
        self.env.filters["cites"] = cites
        self.env.globals["near_defeat"] = near_defeat

    def board(self, data: dict[str, Any], page: str) -> str:
        """The live part of `page`: the navigation and the page's own content."""
        if "error" in data:
            return rendered(self.env.get_template("broken.html.j2").render(error=data["error"], page=page))
        hero = None
        if page.startswith(HERO):
            slug = page[len(HERO):]
            hero = next((h for h in data["heroes"] if h["slug"] == slug), None)
        name = "hero" if hero is not None else "missing" if page.startswith(HERO) else page
        return rendered(self.env.get_template(f"{name}.html.j2").render(page=page, hero=hero, **data))

    def page(self, board: str, page: str | None, version: int, tv: bool, title: str, panel: str = "") -> str:
        return self.env.get_template("page.html.j2").render(board=_markup(board), page=page, version=version, tv=tv,
                                                             title=title, drunagor=__version__, panel=_markup(panel))

    def actions(self, data: dict[str, Any], slug: str, csrf: str, answer: dict[str, Any] | None) -> str:
        """The forms of a hero's phone (SPEC 12) on their own page: what the hero records now (during
        an adventure their cubes, a Recall Action, taking back their own last event; between
        adventures the rewards owed, the Aura, the statuses, a Spoils upgrade), and the last answer."""
        if "error" in data:
            return ""
        hero = next((h for h in data["heroes"] if h["slug"] == slug and h["active"]), None)
        if hero is None:
            return ""
        table = data.get("table")
        log = table["log"] if table else []
        mine = bool(table and table["events"] and log and log[-1].get("by") == slug)
        held = [i for i in hero["equipped"] + hero["bag"] if i["kind"] == "spoils"]
        return rendered(self.env.get_template("act.html.j2").render(
            hero=hero, slug=slug, csrf=csrf, answer=answer, table=table, mine=mine, last=log[-1] if mine else None,
            owed=data.get("owed", {}).get(slug, {}), held=held, known=_known()))


def title_of(data: dict[str, Any], page: str) -> str:
    party = "drunagor" if "error" in data else data.get("party") or data.get("folder") or "drunagor"
    if page == CAMPAIGN:
        return f"{party}: the campaign"
    if page == CHRONICLE:
        return f"{party}: the chronicle"
    if page.startswith(HERO):
        slug = page[len(HERO):]
        return f"{party}: " + next((h["name"] for h in data.get("heroes", ()) if h["slug"] == slug), slug)
    return f"{party}: the table"


# a citation in parentheses: "(RB L1203)", "(chapter 04, RB L1161)"
CITATION = r"\s?\([^()]*(?:\bRB L\d|Rulebook: )[^()]*\)"
COMMAND = r"\s?\(`?drunagor [^()]*\)"  # "(drunagor adventure end --lost)": the scribe's, not the table's


def cites(line: str) -> Any:
    """A line of drunagor's own words (a briefing's, the odds', an event's) as the shared pages show
    it: without the scribe's commands, each citation in its own span (the TV leaves them out: the
    table reads the game from across the room, the book's lines are on every phone)."""
    import re

    from markupsafe import Markup, escape

    text = str(escape(re.sub(COMMAND, "", without_commands(str(line)))))
    return Markup(re.sub(CITATION, lambda m: f'<span class="cite">{m.group(0)}</span>', text))


@functools.lru_cache(maxsize=1)
def _known() -> dict[str, tuple[str, ...]]:
    """The names drunagor knows, offered as a phone's player types (cards, Auras, statuses, trees)."""
    return {kind: known(kind)[0] for kind in ("items", "auras", "hero_statuses", "trees")}


def _markup(html: str) -> Any:
    from markupsafe import Markup

    return Markup(html)

"""The chronicle's section of the pages (SPEC 12, issue 45.5): the recap since the last evening and the
statistics, with three charts drawn here as inline SVG (no script library, no CDN): runes drawn by colour
per chapter beside what the bag made likely, raids summoned beside the summons expected, cubes received per
hero. `serve`'s /chronicle and the HTML sheet show the same section; the Markdown sheet the recap as text.
The pages run no git (SPEC 11): their recap is the last adventure's, told from the campaign's files.

Each chart is an `<svg role="img">` with a title and a description a screen reader reads, and every bar
carries its number and its colour's name in text (the colour-blind read the words, not the hues); the SVG
scales to its box (viewBox, width 100%), so it never scrolls sideways on a phone. Its text is the party's
own or the book's titles, escaped and with invisible characters spelled out (the output rule).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..ops import recap as recap_ops
from ..ops import stats as stats_ops
from ..ops.chronicle import notes
from ..ops.notes import stamp
from ..rules.chronicle import decimal_text
from ..text import visible

if TYPE_CHECKING:
    from ..campaign import Campaign

#: Fill of each rune colour (with its name always written beside it).
RUNE_FILL = {"red": "#c62828", "blue": "#1e63b5", "green": "#2e7d32", "orange": "#ef6c00", "gray": "#757575"}
CUBE_FILL = {"trauma": "#6a1b9a", "curse": "#37474f"}
BAR, GAP, LABEL, WIDTH, WORDS = 18, 6, 88, 420, 200  # sized for a phone: 420 units across 330 pixels


def view(c: Campaign) -> dict[str, Any]:
    """The chronicle as the pages show it: the recap's lines, the statistics' lines and the charts."""
    recap = recap_ops.recap(c, git=False)  # a page runs no git (SPEC 11): since the last adventure, from the files
    stats = stats_ops.stats(c)
    return {"recap": [{"title": title, "lines": lines} for title, lines in recap_ops.sections(recap.data)],
            "heading": recap_ops.heading(recap.data),
            "since": recap.data["since"]["said"], "stats": [str(line) for line in stats.notes],
            "charts": charts(stats.data), "notes": [f"{stamp(n)}: {n.text}" for n in notes(c)]}


def charts(stats: dict[str, Any]) -> list[dict[str, str]]:
    """The three charts: [{"id", "title", "svg"}] (svg: markup, escaped here)."""
    return [chart for chart in (_runes(stats), _raids(stats), _cubes(stats)) if chart is not None]


def _esc(text: object) -> str:
    from markupsafe import escape

    return str(escape(visible(str(text))))


def _svg(ident: str, title: str, desc: str, rows: list[tuple[str, list[tuple[float, str, str]]]],
         scale: float) -> dict[str, str]:
    """A horizontal bar chart: rows of (label, bars), each bar (value, fill, the words written after it)."""
    height = sum(max(1, len(bars)) * (BAR + 2) + GAP for _, bars in rows) + GAP
    width = WIDTH
    span = width - LABEL - WORDS
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" viewBox="0 0 {width} {height}" width="100%" '
           f'preserveAspectRatio="xMinYMin meet" aria-labelledby="{ident}-t {ident}-d" class="chart">',
           f'<title id="{ident}-t">{_esc(title)}</title><desc id="{ident}-d">{_esc(desc)}</desc>']
    y = GAP
    for label, bars in rows:
        out.append(f'<g><text x="0" y="{y + BAR - 4}" font-size="13" fill="currentColor">{_esc(label)}</text>')
        for value, fill, words in bars:
            w = 0 if scale <= 0 else max(1.0, span * value / scale) if value > 0 else 0
            out.append(f'<rect x="{LABEL}" y="{y}" width="{w:.1f}" height="{BAR}" fill="{fill}" stroke="currentColor" '
                       f'stroke-width="0.5"><title>{_esc(label)}: {_esc(words)}</title></rect>'
                       f'<text x="{LABEL + w + 4:.1f}" y="{y + BAR - 4}" font-size="12" fill="currentColor">'
                       f'{_esc(words)}</text>')
            y += BAR + 2
        if not bars:
            y += BAR + 2
        out.append("</g>")
        y += GAP
    out.append("</svg>")
    return {"id": ident, "title": title, "svg": "".join(out)}


def _value(text: str) -> float:
    return float(Fraction(text))


def _runes(stats: dict[str, Any]) -> dict[str, str] | None:
    rows = []
    top = 1.0
    for ch in stats["chapters"]:
        runes = ch["runes"]
        bars = []
        for colour in sorted(set(runes["drawn"]) | set(runes["likely"])):
            drawn = runes["drawn"].get(colour, 0)
            likely = runes["likely"].get(colour)
            words = f"{colour}: {drawn} drawn" + (f", likely {decimal_text(Fraction(likely))}" if likely else "")
            top = max(top, drawn, _value(likely) if likely else 0)
            bars.append((float(drawn), RUNE_FILL.get(colour, "#9e9e9e"), words))
        rows.append((f"Chapter {ch['chapter']}", bars))
    if not rows:
        return None
    return _svg("runes", "Runes drawn by colour, per chapter",
                "For each chapter, one bar per rune colour: the runes drawn, with what the bag made likely.",
                rows, top)


def _raids(stats: dict[str, Any]) -> dict[str, str] | None:
    rows = []
    top = 1.0
    for ch in stats["chapters"]:
        raids = ch["raids"]
        expected = _value(raids["expected"])
        top = max(top, raids["summoned"], expected)
        rows.append((f"Chapter {ch['chapter']}", [
            (float(raids["summoned"]), "#455a64", f"happened {raids['summoned']} of {raids['resolved']} raids"),
            (expected, "#b0bec5", f"expected {decimal_text(Fraction(raids['expected']))}")]))
    if not rows:
        return None
    return _svg("raids", "Raids that summoned, beside the summons the odds predicted",
                "For each chapter, two bars: the raids that placed a minion (dark), and the sum of the chances "
                "odds gave them (light).", rows, top)


def _cubes(stats: dict[str, Any]) -> dict[str, str] | None:
    rows = []
    top = 1.0
    for hero, held in stats["heroes"].items():
        top = max(top, held["trauma"], held["curse"])
        rows.append((hero, [(float(held["trauma"]), CUBE_FILL["trauma"], f"Trauma Cubes {held['trauma']}"),
                            (float(held["curse"]), CUBE_FILL["curse"], f"Curse Cubes {held['curse']}")]))
    if not rows:
        return None
    return _svg("cubes", "Cubes received per hero over the campaign",
                "For each hero, two bars: the Trauma Cubes and the Curse Cubes received.", rows, top)

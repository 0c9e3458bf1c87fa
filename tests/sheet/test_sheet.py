"""`drunagor sheet`: the campaign as HTML and Markdown sheets. The HTML is read back with the standard
library's html.parser (tests/sheet/dom.py), so the tests ask for sections, rows and cells, not for
fragments of markup."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from drunagor_log.catalog.headings import rendered
from tests.conftest import snapshot, write
from tests.sheet.dom import parse

EXAMPLE_SHEETS = ["story", "hero-andreas", "hero-catharina", "hero-nyx", "hero-vacrem", "decks", "adventure",
                  "timeline", "chronicle"]


def sheet_of(run, root: Path, *args: str):
    r = run("-C", str(root), "sheet", "--out", "-", *args)
    assert r.exit_code == 0, r
    return r.stdout


def sections(doc) -> dict:
    return {s.get("id"): s for s in doc.find_all("section", "sheet")}


def rows(table) -> list[list[str]]:
    return [[c.text() for c in tr.children if not isinstance(c, str) and c.tag in ("td", "th")]
            for tr in table.find("tbody").find_all("tr")]


def md_text(md: str) -> str:
    """The Markdown as a reader of the rendered page sees its words: escapes and entities undone,
    emphasis and table bars gone, whitespace collapsed."""
    spans: list[str] = []

    def code(m: re.Match) -> str:  # a code span's text is as written: nothing in it is an escape
        spans.append(m.group(1))
        return f"\1{len(spans) - 1}\1"

    text = re.sub(r"(?<!\\)`([^`]+)`", code, md)
    text = re.sub(r"\\([\\`*_\[\]|~#.)+=-])", lambda m: "\0" + m.group(1), text)  # escaped: kept as text
    text = text.replace("**", "").replace("|", " ").replace("<br>", " ")
    text = html.unescape(text.replace("\0", ""))
    text = re.sub("\1(\\d+)\1", lambda m: spans[int(m.group(1))], text)
    return " ".join(text.split())


# ---------------------------------------------------------------------------- the example campaign


def test_the_example_as_html_has_every_sheet_in_order(run, example):
    doc = parse(sheet_of(run, example))
    assert list(sections(doc)) == EXAMPLE_SHEETS
    assert [a.get("href") for a in doc.find("nav").find_all("a")] == [f"#{s}" for s in EXAMPLE_SHEETS]
    assert doc.find("title").text() == "Safeguard Corporation: campaign sheets"


def test_the_example_story_record(run, example):
    story = sections(parse(sheet_of(run, example)))["story"]
    assert story.find("h1").text() == "Safeguard Corporation"
    assert story.find("div", "meta").text() == "Party Leader: Andreas · Next: chapter 05, Tempest Island"
    slots = {s.get("data-chapter"): s for s in story.find_all("div", "slot")}
    assert list(slots) == [f"{n:02d}" for n in range(1, 10)]
    assert [slots[c].find("span", "state").text() for c in slots] == ["completed"] * 4 + ["under way"] + [""] * 4
    assert slots["04"].find("span", "title").text() == "Battle on the High Sea"
    assert "next" in slots["05"].classes and "completed" in slots["01"].classes
    assert not story.find_all("span", "fails")  # no failed attempt in the example
    assert rows(story.find("table", "roster")) == [
        ["Andreas", "Cleric", "Support", "Ana", "Party Leader"], ["Catharina", "Mage", "Controller", "Bruno", ""],
        ["Nyx", "Assassin", "Striker", "Carla", ""], ["Vacrem", "Warrior", "Defender", "Davi", ""]]
    assert story.find("p", "followers").text() == "Vorn the Warrior"
    assert story.find("p", "outcomes").text() == "Drinking Pal"
    assert story.find("p", "statuses").text() == "Imminent Danger"
    assert story.find("p", "stored").text() == "Cosmic Gemstone, Forgotten Treasure"
    assert not story.find_all("p", "stash")  # the example's stash is empty: not shown


def test_the_example_campaign_log(run, example):
    vacrem = sections(parse(sheet_of(run, example)))["hero-vacrem"]
    assert vacrem.find("h1").text() == "Vacrem"
    assert vacrem.find("div", "meta").text() == "Warrior · Defender · played by Davi · joined before chapter 01"
    assert rows(vacrem.find("table", "skills")) == [["Melee 1", "melee", "1", "01"], ["Defender 1", "role", "1", "04"]]
    assert [li.text() for li in vacrem.find("ul", "abilities").find_all("li")] == ["Warrior ability (chapter 03)"]
    assert rows(vacrem.find("table", "equipment")) == [
        ["Jagged Blade Axe", "equipped", "starting", "", ""], ["Plate Armor", "equipped", "starting", "", ""],
        ["Heavy Shield", "equipped", "spoils", "standard", ""], ["Captain's Brooch", "in the bag", "adventure", "", ""],
        ["Artisan's Tools", "in the bag", "consumable", "", ""]]
    assert vacrem.find("dd", "aura").text() == "none"
    assert vacrem.find("div", "owed").text().startswith("nothing")
    andreas = sections(parse(sheet_of(run, example)))["hero-andreas"]
    assert andreas.find("dd", "aura").text() == "Bastion"


def test_the_example_decks(run, example):
    decks = sections(parse(sheet_of(run, example)))["decks"]
    grid = decks.find("table", "grid")
    scrolls = grid.find("tr", data_type="scroll")
    common = scrolls.find("td", data_rarity="common")
    assert common.find("span", "n").text() == "4" and common.find("span", "of").text() == "of 4"
    assert "full" in common.classes
    assert [c.text() for c in common.find_all("span", "cards")] == ["Scroll of Incinerate ×2", "Scroll of Beguile ×2"]
    assert grid.find("tr", data_type="potion").find("td", data_rarity="rare").find("span", "n").text() == "0"
    assert [c.text() for c in decks.find_all("div", "card")] == ["Epic Rare Artisan's Tools",
                                                                  "Epic Rare Treasure Trove"]
    assert decks.find("p", "chest-status").text().startswith("being recorded: 4 of 18 Potions and Scrolls")
    commander = decks.find("table", "commander")
    held = {td.get("data-position"): td.text() for td in commander.find_all("td")}
    assert held["orange-top"] == "Flame Swipe" and held["orange-bottom"] == "Haste"
    assert held["red-top"] == "—" and len(held) == 10


def test_the_example_adventure_as_a_picture(run, example):
    adventure = sections(parse(sheet_of(run, example)))["adventure"]
    assert adventure.find("h1").text() == "Chapter 05: Tempest Island"
    assert adventure.find("div", "face").text() == "B"
    assert adventure.find("b", "raid-name").text() == "Dreadful Raid"
    board = {int(s.get("data-slot")): s for s in adventure.find_all("div", "track-slot")}
    assert sorted(board) == list(range(1, 13))
    assert [board[n].find("div", "who").text() for n in (1, 2, 3, 4, 5, 12)] == [
        "Fell Asteris Gray", "Tidehunter Minion", "Gremlin Horde White", "Tidehunter Minion", "free", "free"]
    assert board[9].find("div", "base").text() == "9 light blue"
    piles = {p.get("data-pile"): [r.get("title") for r in p.find_all("span", "rune")]
             for p in adventure.find_all("div", "pile")}
    assert piles == {"1": ["blue", "green", "orange"], "2": ["blue", "green", "orange"]}
    bag = {tr.get("data-colour"): (tr.find("td", "count").text(), len(tr.find_all("span", "rune")))
           for tr in adventure.find("table", "bag").find_all("tr")}
    assert bag == {"red": ("2", 2), "blue": ("1", 1), "green": ("1", 1), "orange": ("0", 0), "gray": ("3", 3)}
    assert not adventure.find_all("table", "cubes")  # the example's adventure.toml tracks no cubes
    recent = [li.text() for li in adventure.find("ul", "recent").find_all("li")]
    assert recent[-1].startswith("tiebreak: Tie Breaker: 2 runes (gray, red) from Pile 2")
    assert "round 1" in adventure.find("div", "meta").text()  # SPEC 10: the round, its end, the counters
    assert adventure.find("p", "next-round").text() == (
        "At the end of round 1: the Growing Influence card, face A, draws its runes (how many: not recorded), then "
        "flips (Rulebook: Chapter 05 › Darkness Spawning Rule – Growing Influence, L1187)")
    assert [li.text() for li in adventure.find("ul", "counters").find_all("li")] == [
        "Mending Rope collected: 0 (Rulebook: Chapter 05 › Endgame Trigger, L1205)", "Plenty of Provisions collected: 0 (Rulebook: Chapter 05 › Endgame Trigger, L1205)",
        "Spare Wood collected: 0 (Rulebook: Chapter 05 › Endgame Trigger, L1205)"]


def test_the_example_timeline(run, example):
    timeline = sections(parse(sheet_of(run, example)))["timeline"]
    entries = timeline.find_all("div", "entry")
    assert [e.get("data-file") for e in entries] == ["adventures/03-1.toml", "adventures/04-1.toml"]
    assert [e.find("span", "outcome").text() for e in entries] == ["won", "won"]
    assert entries[1].text().startswith(
        "04 attempt 1 Battle on the High Sea · won · 4 heroes · 6 runes drawn · Naval Raid card")  # 3 draws of 2


# ---------------------------------------------------------------- a campaign with every kind of entry


def test_every_kind_of_entry_in_the_story_record(run, full):
    doc = parse(sheet_of(run, full))
    assert list(sections(doc)) == ["story", "hero-aldric", "hero-kaelen", "hero-mira", "hero-old-tom", "decks",
                                   "adventure", "timeline", "chronicle"]
    story = sections(doc)["story"]
    slots = {s.get("data-chapter"): s for s in story.find_all("div", "slot")}
    assert "skipped" in slots["03"].classes and slots["03"].find("span", "state").text() == "skipped"
    assert slots["02"].find("span", "fails").text() == "2 failed attempts"
    assert slots["05"].find("span", "fails").text() == "1 failed attempt"
    assert story.find("p", "stash").text() == "Potion of Healing"
    assert story.find("p", "stored").text() == "Cosmic Gemstone, Forgotten Treasure, Rusty Dagger"
    assert [li.text() for li in story.find("ul", "corrections").find_all("li")] == [
        "2024-05-01: chapter 03 skipped (recorded by hand)"]
    roster = rows(story.find("table", "roster"))
    assert roster[0][-1] == "Party Leader"
    assert roster[3] == ["Old Tom", "Warrior", "Defender", "Carla", "left the party"]


def test_every_kind_of_entry_in_the_campaign_logs(run, full):
    logs = sections(parse(sheet_of(run, full)))
    aldric = logs["hero-aldric"]
    assert rows(aldric.find("table", "skills"))[2] == ["Wisdom 2", "wisdom", "2", "04"]
    equipment = rows(aldric.find("table", "equipment"))
    assert equipment[1] == ["Astral Symbol", "equipped", "spoils", "improved", ""]
    assert equipment[2] == ["War Bow", "in the bag", "spoils", "standard", "Kaelen"]
    assert rows(aldric.find("table", "upgrades")) == [["Astral Symbol", "improved", "Buckler", "04"]]
    assert aldric.find("dd", "statuses").text() == "Blessed"
    assert aldric.find("p", "excess").text() == ("More than the chapters give: 1 Level 2 Hero or Role Skill, "
                                                 "2 Class Abilities, 2 Spoils of the Hero (Standard)")
    mira = logs["hero-mira"]
    owed = mira.find("div", "owed")
    assert "alert" in owed.classes
    assert owed.text() == "2 Level 1 Hero or Role Skills, 1 Class Ability, 1 Spoils of the Hero (Standard)"
    assert mira.find("div", "meta").text().endswith("joined before chapter 04")
    assert logs["hero-old-tom"].find("span", "badge").text() == "left the party before chapter 04"
    assert logs["hero-old-tom"].find("p", "none").text() != ""  # rewards are not counted for him
    assert logs["hero-kaelen"].find("span", "badge").text() == "left before chapter 03, returned"
    assert "played by" not in logs["hero-kaelen"].find("div", "meta").text()  # no player recorded
    assert rows(logs["hero-kaelen"].find("table", "equipment")) == [
        ["Twin-Blades", "equipped", "spoils", "ultimate", ""]]


def test_every_kind_of_entry_in_the_decks(run, full):
    decks = sections(parse(sheet_of(run, full)))["decks"]
    common = decks.find("tr", data_type="scroll").find("td", data_rarity="common")
    assert "over" in common.classes and common.find("span", "n").text() == "5"
    rare_potions = decks.find("tr", data_type="potion").find("td", data_rarity="rare")
    assert rare_potions.find("span", "cards").text() == "Potion of Vigor"
    assert [li.text() for li in decks.find("ul", "unplaced").find_all("li")] == [
        "Mystery Draught: type unknown, rarity unknown"]
    assert [li.text() for li in decks.find("ul", "problems").find_all("li")] == [
        "5 Common Scrolls: the grid holds 4 (Rulebook: Preparing the Chest Deck, L357-359)"]
    held = {td.get("data-position"): td.text() for td in decks.find("table", "commander").find_all("td")}
    assert held["red-top"] == "Gloom Strike"  # a position recorded under [cards]
    assert decks.find("p", "unknown").text() == "Position not recorded: Unplaced Blow"


def test_every_kind_of_entry_on_the_table(run, full):
    adventure = sections(parse(sheet_of(run, full)))["adventure"]
    board = {int(s.get("data-slot")): s.find("div", "who").text() for s in adventure.find_all("div", "track-slot")}
    assert board[7] == "Boatswain Minion" and board[12] == "Gremlin Horde White" and board[3] == "free"
    assert adventure.find("p", "bosses").text() == "On the board without a track: The Tide Queen"
    piles = {p.get("data-pile"): p for p in adventure.find_all("div", "pile")}
    assert [r.get("title") for r in piles["1"].find_all("span", "rune")] == ["red"] * 3
    assert piles["3"].find("span", "none").text() == "empty"
    assert adventure.find("div", "face").text() == "A"


def test_every_kind_of_entry_in_the_timeline(run, full):
    timeline = sections(parse(sheet_of(run, full)))["timeline"]
    entries = timeline.find_all("div", "entry")
    assert [(e.find("div", "ch").text(), e.find("span", "outcome").text()) for e in entries] == [
        ("01 attempt 1", "won"), ("02 attempt 1", "lost"), ("02 attempt 2", "lost"), ("02 attempt 3", "won"),
        ("04 attempt 1", "won"), ("05 attempt 1", "lost")]
    raids = [li.text() for li in entries[1].find("ul", "raids").find_all("li")]
    assert raids == [
        "raid, face A: nothing summoned (face A summons only when no monster is on the board); "
        "the card now shows face B",
        "raid, face B, rune orange: 2 Dread Knight placed (slots 3, 4) by rune orange; the card now shows face A",
        "raid, face A, rune gray: no Pile of Runes matches gray: nothing summoned; the card now shows face B"]
    assert [r.get("title") for r in entries[1].find_all("span", "rune")] == ["orange", "gray"]
    assert not entries[0].find_all("ul", "raids")


def test_the_ending_and_the_cubes_show_when_the_files_hold_them(example):
    # The ending (story.toml) and the cubes (adventure.toml) come with other work (SPEC 9); the sheet
    # shows them as soon as the campaign model holds them.
    from drunagor_log import sheet
    from drunagor_log.campaign import Campaign

    with Campaign(example) as c:
        data = sheet.view(c)
    data["story"]["ending"] = "Baptism of Fire"
    data["adventure"]["cubes"] = [
        {"hero": "Nyx", "trauma": 1, "curse": 2, "trauma_limit": 1, "curse_capacity": 4},
        {"hero": "Vacrem", "trauma": 0, "curse": 0, "trauma_limit": 1, "curse_capacity": None}]
    s = sections(parse(sheet.render(data, "html")))
    assert s["story"].find("div", "meta").text() == "Party Leader: Andreas · Ending: Baptism of Fire"
    assert rows(s["adventure"].find("table", "cubes")) == [["Nyx", "1 of 1", "2 of 4"], ["Vacrem", "0 of 1", "0"]]
    md = md_text(sheet.render(data, "md"))
    assert "Ending: Baptism of Fire" in md and "Nyx 1 of 1 2 of 4" in md


def test_cubes_are_read_from_the_adventure_state_when_it_has_them():
    from types import SimpleNamespace

    from drunagor_log.sheet.sheets import _cubes

    state = SimpleNamespace(cubes={"Nyx": {"trauma": 1, "curse": 3, "curse_capacity": 5}})
    assert _cubes(state, 2) == [{"hero": "Nyx", "trauma": 1, "curse": 3, "trauma_limit": 2, "curse_capacity": 5}]
    cube = SimpleNamespace(trauma=0, curse=1, trauma_limit=1, curse_capacity=None)  # a value, not a table
    assert _cubes(SimpleNamespace(cubes={"Vacrem": cube}), 2) == [
        {"hero": "Vacrem", "trauma": 0, "curse": 1, "trauma_limit": 1, "curse_capacity": None}]
    assert _cubes(object(), 2) == []


def test_a_campaign_with_nothing_yet(run, camp):
    doc = parse(sheet_of(run, camp))
    assert list(sections(doc)) == ["story", "decks", "chronicle"]
    story = sections(doc)["story"]
    assert story.find("p", "none").text() == "No hero yet."
    assert story.find("div", "meta").text() == "Party Leader: none chosen · Next: chapter 01, Untimely Holidays"
    assert sections(doc)["decks"].find("p", "chest-status").text().startswith("not recorded yet")


# -------------------------------------------------------------------------------- hostile names

HOSTILE = '<script>alert("x")</script>'


def test_hostile_names_come_out_as_text(run, example):
    story = example / "story.toml"
    story.write_text(story.read_text()
                     .replace('party = "Safeguard Corporation"', 'party = "Tom & Jerry <b>bold</b>"')
                     .replace('followers = ["Vorn the Warrior"]', 'followers = ["[link](http://evil.example) *x*"]')
                     .replace('{ name = "Scroll of Beguile", copies = 2 }',
                              '{ name = "Potion | of *Doom*", copies = 1 }'))
    nyx = example / "heroes" / "nyx.toml"
    nyx.write_text(nyx.read_text().replace('name = "Nyx"', f"name = '{HOSTILE}'"))
    adventure = example / "adventure.toml"
    adventure.write_text(adventure.read_text().replace('"Fell Asteris"', '"<img src=x onerror=alert(1)>"'))
    page = sheet_of(run, example)
    doc = parse(page)
    assert not doc.find_all("script") and not doc.find_all("img")
    assert [b.text() for b in doc.find_all("b") if b.text() == "bold"] == []
    assert sections(doc)["story"].find("h1").text() == "Tom & Jerry <b>bold</b>"
    assert sections(doc)["hero-nyx"].find("h1").text() == HOSTILE
    assert sections(doc)["story"].find("p", "followers").text() == "[link](http://evil.example) *x*"
    assert sections(doc)["adventure"].find("div", "track-slot", data_slot="1").find("div", "who").text() == \
        "<img src=x onerror=alert(1)> Gray"
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in page  # what autoescape wrote

    md = sheet_of(run, example, "--format", "md")
    assert "<script>" not in md and "<img" not in md and "<b>" not in md
    assert "## Campaign Log: &lt;script&gt;alert(\"x\")&lt;/script&gt;" in md
    assert "`[link](http://evil.example)` \\*x\\*" in md  # no link (a URL is code), no emphasis
    assert "Potion \\| of \\*Doom\\*" in md  # a `|` does not end the table cell
    assert "Tom &amp; Jerry &lt;b&gt;bold&lt;/b&gt;" in md
    assert md_text(md).count(HOSTILE) >= 2  # the reader sees the name as typed


def test_the_page_is_self_contained(run, full):
    page = sheet_of(run, full)
    doc = parse(page)
    assert not doc.find_all("script") and not doc.find_all("link") and not doc.find_all("img")
    assert not doc.find_all("iframe") and not doc.find_all("object")
    hrefs = [a.get("href") for a in doc.find_all("a")]
    assert hrefs and all(h.startswith("#") for h in hrefs)  # links only within the page
    style = doc.find("style").text()
    assert "url(" not in style and "@import" not in style
    # print: one sheet per page, no row cut in two
    assert re.search(r"@media print \{.*\.sheet \{[^}]*break-before: page", style, re.DOTALL)
    assert re.search(r"tr, li[^{]*\{ break-inside: avoid; \}", style)


# ------------------------------------------------------------------------- the Markdown sheet


def facts(data: dict) -> list[str]:
    """The words both formats must show: every name and fact the view holds."""
    out = [data["party"]]
    story = data["story"]
    out += [t["title"] for t in story["track"]] + story["followers"] + story["outcomes"] + story["statuses"]
    out += story["stored"] + story["stash"] + story["corrections"] + ([story["leader"]] if story["leader"] else [])
    for h in data["heroes"]:
        out += [h["name"], h["class"], h["role"], *h["class_abilities"], *h["statuses"]]
        out += [h["player"]] if h["player"] else []
        out += [h["aura"]] if h["aura"] else []
        out += [h["owed"], h["excess"]] if h["owed"] or h["excess"] else []
        out += [s["name"] for s in h["skills"]] + [i["name"] for i in h["equipped"] + h["bag"]]
        out += [f"{u['item']} {u['to']} {u['discarded']}" for u in h["upgrades"]]
    chest = data["chest"]
    out += [chest["text"], *chest["epic"], *chest["problems"]]
    out += [card["name"] for row in chest["rows"] for cell in row["cells"] for card in cell["cards"]]
    out += [card["name"] for card in chest["unplaced"]]
    out += [data["commander"]["text"], *data["commander"]["unknown"]]
    out += [n for c in data["commander"]["colours"] for n in c["top"] + c["bottom"]]
    a = data["adventure"]
    if a:
        out += [a["title"], *(a["raid"]["minions"] if a["raid"] else []), *(b["name"] for b in a["bosses"])]
        out += [s["monster"] for board in a["boards"] for s in board if s["monster"]]
        out += [f"Pile {p['id']}" for p in a["piles"]] + [e["text"] for e in a["recent"]]
    for t in data["timeline"]:
        out += [t["title"], *(r["text"] for r in t["raids"])]
    return out


@pytest.mark.parametrize("which", ["example", "full"])
def test_the_markdown_shows_the_same_facts(run, request, which):
    from drunagor_log import sheet
    from drunagor_log.campaign import Campaign

    root = request.getfixturevalue(which)
    with Campaign(root) as c:
        data = sheet.view(c)
    page = " ".join(parse(sheet_of(run, root)).text().split())
    md = md_text(sheet_of(run, root, "--format", "md"))
    wanted = [rendered(f) for f in facts(data) if f]  # the view's words cite short; the pages as a player reads
    assert len(wanted) > 40
    assert [f for f in wanted if f not in page] == []
    assert [f for f in wanted if f not in md] == []
    for s in data["sheets"]:  # the same sheets, as headings
        assert s["title"] in md


def test_the_markdown_of_the_example(run, example):
    md = sheet_of(run, example, "--format", "md")
    assert md.startswith("# Safeguard Corporation: campaign sheets\n")
    assert "| 05 | Tempest Island | under way |  |\n" in md
    assert "| 2 | dark blue | Tidehunter | Minion |\n" in md
    assert "- **Piles of Runes:** Pile 1 (1 blue, 1 green, 1 orange); Pile 2 (1 blue, 1 green, 1 orange)\n" in md
    assert ("- **Round 1:** At the end of round 1: the Growing Influence card, face A, draws its runes (how many: not "
            "recorded), then flips (Rulebook: Chapter 05 › Darkness Spawning Rule – Growing Influence, L1187)\n- Mending Rope collected: 0 (Rulebook: Chapter 05 › Endgame Trigger, L1205)\n") in md
    assert "| **top** | — | — | — | Flame Swipe | — |\n" in md
    assert "- **04 Battle on the High Sea**, attempt 1: **won** · 4 heroes · 6 runes drawn · Naval Raid card\n" in md
    assert md.count("\n## ") == 9


# --------------------------------------------------------------------------------- the command


def test_default_output_in_the_campaign_folder_and_unchanged_bytes_left_alone(run, example):
    before = snapshot(example)
    r = run("-C", str(example), "sheet")
    assert r.exit_code == 0, r
    assert r.stdout == "wrote campaigns/example/sheet.html (9 sheets)\n"
    path = example / "sheet.html"
    first = path.read_bytes()
    assert first.startswith(b"<!DOCTYPE html>")
    after = snapshot(example)
    assert after.pop("sheet.html") == first and after == before  # no campaign file touched
    stamp = path.stat().st_mtime_ns
    r = run("-C", str(example), "sheet")
    assert r.stdout == "no change: campaigns/example/sheet.html is up to date (9 sheets)\n"
    assert path.stat().st_mtime_ns == stamp and path.read_bytes() == first
    assert run("-C", str(example), "check", "--strict").exit_code == 0  # a sheet is not a campaign file


def test_markdown_by_flag_or_by_suffix_and_a_folder_as_out(run, example, tmp_path):
    r = run("-C", str(example), "sheet", "--format", "md")
    assert r.stdout == "wrote campaigns/example/sheet.md (9 sheets)\n"
    r = run("-C", str(example), "sheet", "--out", "shared/party.md")
    assert r.exit_code == 0 and r.stdout == "wrote shared/party.md (9 sheets)\n"
    assert (tmp_path / "shared" / "party.md").read_text() == (example / "sheet.md").read_text()
    (tmp_path / "out").mkdir()
    r = run("-C", str(example), "sheet", "--out", "out")
    assert r.stdout == "wrote out/sheet.html (9 sheets)\n"
    r = run("-C", str(example), "sheet", "--out", "out/x.md", "--format", "html")
    assert (tmp_path / "out" / "x.md").read_text().startswith("<!DOCTYPE html>")


def test_refusals(run, example):
    r = run("-C", str(example), "sheet", "--format", "pdf")
    assert r.exit_code == 2
    assert r.stderr == "error: --format 'pdf': a sheet is html or md; give --format html or --format md\n"
    r = run("-C", str(example), "sheet", "--out", "-", "--open")
    assert r.exit_code == 2
    assert r.stderr == "error: --open opens the written file, and --out - writes none; leave out one of them\n"
    (example / "blocked").write_text("a file where a folder should be")
    r = run("-C", str(example), "sheet", "--out", str(example / "blocked" / "sheet.html"))
    assert r.exit_code == 3 and "cannot write the file" in r.stderr


def test_a_broken_archive_is_reported_with_its_line_and_nothing_is_written(run, example):
    write(example / "adventures" / "05-1.toml", """
        schema = 1
        chapter = "05"
        heroes = 9
        bag = { red = 1 }
        """)
    r = run("-C", str(example), "sheet")
    assert r.exit_code == 3
    assert r.stderr.startswith("error: campaigns/example/adventures/05-1.toml:3: adventure-state: ")
    assert not (example / "sheet.html").exists()


def test_open_hands_the_written_file_to_the_browser(run, example, monkeypatch):
    import webbrowser

    opened = []
    monkeypatch.setattr(webbrowser, "open", lambda url: opened.append(url) or True)
    r = run("-C", str(example), "sheet", "--open")
    assert r.exit_code == 0, r
    assert opened == [(example / "sheet.html").resolve().as_uri()]
    monkeypatch.setattr(webbrowser, "open", lambda url: False)
    r = run("-C", str(example), "sheet", "--open")
    assert r.stderr == "warning: no web browser found; open campaigns/example/sheet.html yourself\n"

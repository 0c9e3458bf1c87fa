"""The last dead ends at the table (issue 42, items 1-8, 19 and 20): an adventure announced won stays
won, a party no larger than its Story Record, chapter 04's last rune, Spoils at Standard, Jaheen as a
Follower, the Trauma Cube and the Aura, the Curse Cube capacity, citations, the briefing as the setup
checklist and `adventure show` at 80x24. Through the command line: exit codes, words and files."""

import json
import tomllib
from pathlib import Path

import pytest

from drunagor_log.catalog.headings import rendered
from tests.cli.test_losing import party, started, table
from tests.conftest import snapshot
from tests.helpers import ok


@pytest.fixture
def root(tmp_path) -> Path:
    return tmp_path / "campaigns" / "test"


# ------------------------------------------------------------- 6. an adventure announced won stays won

ENDED = ("error: campaigns/test/adventure.toml: adventure: the adventure has ended: drunagor adventure end --won; "
         "ended by: {}; if that was a slip, take it back: drunagor adventure undo\n")


def _refused_after_the_ending(run, root, ending: str) -> None:
    """Every table event is refused, nothing written; `adventure end --lost` too."""
    before = snapshot(root)
    for args in (("draw",), ("cube", "Nyx", "trauma", "+1"), ("round", "end", "--draws", "2"),
                 ("monster", "add", "Tidehunter"), ("pile", "add"), ("recall", "Nyx", "--capacity", "5")):
        r = run(*args)
        assert (r.exit_code, r.stdout, r.stderr) == (1, "", rendered(ENDED.format(ending))), args
    r = run("adventure", "end", "--lost")
    assert r.exit_code == 1 and r.stderr == rendered(
        f"error: campaigns/test/adventure.toml: adventure: the adventure has ended: {ending}; end it with "
        "`drunagor adventure end --won`, or take back the event that ended it with `drunagor adventure undo`\n")
    assert snapshot(root) == before
    d = table(run)
    assert (d["won"], d["lost"]) == (ending, None)
    assert d["next_round"] == "No next end of round: the adventure has ended (drunagor adventure end --won)"
    assert rendered(f"The adventure has ended: {ending}. Record it with `drunagor adventure end --won`.") in ok(
        run("adventure", "show")).stdout


def test_chapter_05_mending_broken_wings_stays_won(run, root):
    started(run, root, "05")
    for name in ("mending-rope", "plenty-of-provisions", "spare-wood"):
        ok(run("adventure", "event", name))
    ok(run("monster", "add", "Tidehunter"))
    r = ok(run("monster", "remove", "Tidehunter"))
    said = ('the last enemy is defeated with the three resources collected: read "End of the Adventure – Mending '
            'Broken Wings" on page 88 (RB L1205)')
    assert r.stdout == rendered(f"Tidehunter off the board; slot 1 (yellow) is free; {said}, then drunagor "
                                "adventure end --won\n")
    assert tomllib.loads((root / "adventure.toml").read_text())["won"] == said  # the file keeps the short form
    _refused_after_the_ending(run, root, said)
    r = ok(run("adventure", "end", "--won"))
    assert r.stdout.startswith("chapter 05 completed; adventure archived as adventures/05-1.toml\n")
    archived = tomllib.loads((root / "adventures" / "05-1.toml").read_text())
    assert (archived["outcome"], archived["won"]) == ("won", said)


def test_chapter_04_the_last_vessel_card_then_undo_reopens_the_table(run, root):
    started(run, root, "04")
    ok(run("adventure", "event", "vessel-hp", "--deck", "1"))
    said = ('the last Corrupted Vessel\'s HP card is drawn: read "End of the Adventure – A Day For the Prey" on page '
            '76 (RB L1179)')
    _refused_after_the_ending(run, root, said)
    ok(run("adventure", "undo"))  # a slip: the table is open again
    assert table(run)["won"] is None
    assert ok(run("draw", "--rune", "red")).stdout.startswith("drew red (drawn at the table)")


def test_chapter_09_the_awakened_king_defeated(run, root):
    started(run, root, "09")
    ok(run("adventure", "event", "king-health", "--count", "80"))
    said = 'the Awakened King is defeated: read "End of the Adventure – Baptism of Fire" on page 50 (RB L1309)'
    _refused_after_the_ending(run, root, said)
    r = ok(run("adventure", "end", "--won"))
    assert r.stdout.startswith('chapter 09 completed with the ending "Baptism of Fire"')


# ------------------------------------------------------------------- 2. at most the party's heroes


def test_heroes_at_the_table_are_at_most_the_party(run, root):
    party(root, "05")  # Andreas and Nyx
    ok(run("rules", "set", "--max-heroes", "5"))
    before = snapshot(root)
    r = run("adventure", "start", "--heroes", "5")
    assert (r.exit_code, r.stdout) == (1, "")
    assert r.stderr == rendered(
        "error: campaigns/test/story.toml: heroes (RB L941-943): 5 heroes, but the party has 2 active heroes on the "
        "Story Record (Andreas, Nyx): the raid party, the Tie Breaker and the cubes count the heroes at the table "
        "(RB L305-308, L1100); give --heroes from 1 to 2 (fewer: a hero absent tonight), or add the hero first: "
        "drunagor hero add NAME\n")
    assert snapshot(root) == before
    ok(run("adventure", "start", "--heroes", "1"))  # a hero absent tonight
    assert table(run)["heroes"] == 1
    # a hand edit (or an older drunagor) that seats more: `check` says so
    text = (root / "adventure.toml").read_text()
    (root / "adventure.toml").write_text(text.replace("heroes = 1\n", "heroes = 5\n"))
    r = run("check")
    assert r.exit_code == 1 and r.stdout.splitlines()[0] == rendered(
        "campaigns/test/adventure.toml:4: adventure: 5 heroes at the table, but the party has 2 active on the Story "
        "Record: the raid party, the Tie Breaker and the cubes count the heroes at the table (RB L305-308, L1100); "
        "end the adventure and start it with --heroes at most 2, or add the missing hero (drunagor hero add)")


# ------------------------------------------------------------ 3. chapter 04's last rune, immediately


def test_chapter_04_the_last_rune_fails_at_the_draw_with_no_later_step(run, root):
    started(run, root, "04")
    ok(run("draw", "10", "--seed", "1"))  # 1 rune left: gray
    r = ok(run("round", "end", "--draws", "2", "--seed", "3"))
    assert r.stdout == rendered(
        "End of round 1: chapter 04, Naval Battle card face A (draws 2); runes drawn with seed 3 (--seed 3 replays it)\n"
        "1. Advance the vessels (RB L1163)\n"
        "   As the Naval Battle card shows (the card's text and the chapter's Naval Battle clarifications are not "
        "transcribed in the book).\n"
        "2. Draw the indicated number of Runes, one at a time (RB L1163)\n"
        "   Face A draws 2, but the bag held only 1: gray.\n"
        "3. Place the drawn Runes on the Initiative Track (RB L1163)\n"
        "   gray on the track; 0 runes left in the bag. The last rune in the bag was drawn: the adventure fails "
        "(RB L1177).\n"
        "the last rune in the bag is drawn: the adventure fails, RB L1177. Record it with `drunagor adventure end "
        "--lost`.\n"
        "face A of the Naval Battle card draws 2 (recorded under [cards]); round 1: drew gray; the adventure fails "
        "(seed 3)\n")
    assert "resolve gray" not in r.stdout
    d = table(run)
    assert d["lost"] == "the last rune in the bag is drawn: the adventure fails, RB L1177"
    assert d["next_round"] == "No next end of round: the adventure is lost (drunagor adventure end --lost)"


# ----------------------------------------------------------------------- 5. Jaheen as a Follower


@pytest.mark.parametrize("name, follower", [("Jaheen", "Jaheen the Cleric"), ("Elros", "Elros the Assassin"),
                                            ("Lorelai", "Lorelai the Mage"), ("Maya", "Maya the Ranger"),
                                            ("Vorn", "Vorn the Warrior")])
def test_every_core_box_hero_can_be_a_follower(run, root, name, follower):
    party(root, "05")
    r = ok(run("follower", "add", name))  # RB L941: "they can still be recruited into your party as Followers"
    assert follower in r.stdout
    assert tomllib.loads((root / "story.toml").read_text())["followers"] == [follower]
    r = run("hero", "add", name, "--role", "Leader")
    assert r.exit_code == 1 and f'recruit {name} as a Follower instead: drunagor follower add "{follower}"' in r.stderr


# ------------------------------------------------------------------ 8. the Curse Cube capacity, RB L927


def test_the_curse_capacity_offers_five_from_the_book(run, root):
    started(run, root, "05")
    before = snapshot(root)
    r = run("cube", "Andreas", "curse", "+1")
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == rendered(
        "error: how many Curse Cubes does Andreas's board hold? The book says the sixth defeats a hero (RB L927), so "
        "5, and one more than the board holds fails the adventure (RB L1203); confirm it with --capacity 5 once (or "
        "give the number the board shows); drunagor remembers it under [cards] in story.toml (drunagor cube Andreas "
        "curse +1 --capacity 5)\n")
    assert "does not say" not in r.stderr
    assert snapshot(root) == before
    r = run("recall", "Andreas")
    assert r.exit_code == 2 and r.stderr.endswith("(drunagor recall Andreas --capacity 5)\n")
    ok(run("cube", "Andreas", "curse", "+1", "--capacity", "5"))  # the command offered, as printed
    assert tomllib.loads((root / "story.toml").read_text())["cards"]["Andreas"] == {"curse_capacity": 5}
    r = ok(run("cube", "Andreas", "curse", "+5"))
    assert r.stdout.splitlines()[-1] == rendered(
        "Andreas receives a 6th Curse Cube, more than the 5 their board holds, and is defeated: the adventure fails, "
        "RB L1203. Record it with `drunagor adventure end --lost`.")


# ---------------------------------------------------------------------- 7. a Trauma Cube and the Aura


def test_a_trauma_cube_says_the_aura_stays(run, example):
    hero = example / "heroes" / "andreas.toml"
    assert 'aura = "Bastion"' in hero.read_text()
    log = hero.read_bytes()
    r = ok(run("cube", "Andreas", "trauma", "+1"))
    assert r.stdout == ("Andreas receives 1 Trauma Cube: 1 held, 1 can be held\n"
                        "Andreas keeps the Aura Bastion: no line of the rulebook takes an Aura for a Trauma Cube; if "
                        "your table's rule does, clear it with `drunagor hero aura Andreas --clear`.\n")
    assert hero.read_bytes() == log  # the Campaign Log is not the table's
    ok(run("adventure", "undo"))
    r = ok(run("cube", "Andreas", "curse", "+1", "--capacity", "5"))  # a Curse Cube: nothing to say of the Aura
    assert "Aura" not in r.stdout
    r = ok(run("cube", "Nyx", "trauma", "+1"))
    assert "Aura" not in r.stdout  # Nyx holds none
    ok(run("hero", "aura", "Andreas", "--clear"))  # the command printed, as printed
    assert "aura" not in hero.read_text()


# ---------------------------------------------------------------------- 4. Spoils received at Standard


def test_spoils_above_standard_need_a_reward_or_force_and_are_recorded(run, example, monkeypatch):
    monkeypatch.setattr("drunagor_log.ops.story._today", lambda: "2026-12-04")
    before = snapshot(example)
    r = run("hero", "gain", "Andreas", "Storm Mantle", "--kind", "spoils", "--quality", "ultimate")
    assert (r.exit_code, r.stdout) == (1, "")
    assert r.stderr == rendered(
        "error: campaigns/example/heroes/andreas.toml:15: spoils-quality (RB L397): Storm Mantle is a Spoils card, and "
        "Spoils are received Standard (RB L397, L1011): ultimate comes of upgrades, one step at a time (RB "
        "L421-423); gain it Standard, then upgrade it (drunagor spoils upgrade Andreas \"Storm Mantle\"); if an "
        "Interaction or Interlude reward gave it ultimate (RB L405), add --reward; to correct the record, --force "
        "(either is written under corrections)\n")
    assert snapshot(example) == before
    r = run("hero", "gain", "Andreas", "Storm Mantle", "--kind", "spoils", "--reward")  # Standard: nothing to say
    assert (r.exit_code, r.stderr) == (2, "error: --reward is for a Spoils card received above Standard (--quality "
                                          "improved|ultimate); leave out --reward\n")
    assert snapshot(example) == before
    r = ok(run("hero", "gain", "Andreas", "Storm Mantle", "--kind", "spoils", "--quality", "improved", "--reward"))
    assert r.stdout.splitlines()[:2] == [
        "Andreas gains Storm Mantle (spoils, improved, equipped)",
        rendered("recorded under corrections in story.toml: Andreas received Storm Mantle improved, an Interaction or "
                 "Interlude reward (--reward, RB L405)")]
    story = tomllib.loads((example / "story.toml").read_text())
    assert story["corrections"][-1] == ("2026-12-04: Andreas received Storm Mantle improved: an Interaction or "
                                        "Interlude reward (--reward, RB L405)")
    hero = tomllib.loads((example / "heroes" / "andreas.toml").read_text())
    assert hero["equipment"][-1]["quality"] == "improved"
    ok(run("hero", "gain", "Nyx", "Frost Edge", "--kind", "spoils", "--quality", "ultimate", "--force"))
    assert tomllib.loads((example / "story.toml").read_text())["corrections"][-1] == (
        "2026-12-04: Nyx received Frost Edge ultimate: a correction (--force)")
    # the record explains both: `check` has nothing to say of their quality; a hand edit it has
    assert "spoils-quality" not in run("check", "--strict").stdout
    hero = example / "heroes" / "vacrem.toml"
    hero.write_text(hero.read_text().replace('"Heavy Shield", kind = "spoils", quality = "standard"',
                                             '"Heavy Shield", kind = "spoils", quality = "ultimate"'))
    r = run("check", "--strict")
    assert r.exit_code == 1 and rendered(
        "campaigns/example/heroes/vacrem.toml:16: spoils-quality: Vacrem's Heavy Shield is ultimate, but Spoils are "
        "received Standard (RB L397, L1011) and no upgrade took it there (RB L421-423)") in r.stdout


# ------------------------------------------------------------------------ 19. citations that point wrong


def test_chapter_08_tie_breaker_cites_its_own_line(run, root):
    started(run, root, "08")
    ok(run("pile", "add"))
    before = snapshot(root)
    r = run("tiebreak", "1")
    assert (r.exit_code, r.stderr) == (1, rendered(
        "error: campaigns/test/adventure.toml: tie-breaker (RB L1269): Pile 1 holds 5 runes (red, blue, green, orange, "
        "gray); the Tie Breaker returns 4 of the party's choice (6 - 2 heroes); choose 4 with --runes COLOUR,...\n"))
    assert "L1100" not in r.stderr and "Chapter 08" in r.stderr
    r = run("tiebreak", "1", "--runes", "red")
    assert r.exit_code == 1 and rendered("tie-breaker (RB L1269):") in r.stderr
    assert snapshot(root) == before


def test_chapter_03_the_hunt_card_replacing_growing_influence_is_a_reading(run, root):
    started(run, root, "03")
    ok(run("round", "end", "--draws", "1", "--seed", "1"))
    ok(run("round", "end", "--draws", "2", "--seed", "2"))
    r = ok(run("round", "end", "--seed", "3"))
    assert rendered("5. The Harvester's Hunt card replaces the Growing Influence card (drunagor's reading of RB "
                    "L1142-1144)") in r.stdout.splitlines()
    assert rendered("The Harvester's Hunt card replaced the Growing Influence card (drunagor's reading of RB "
                    "L1142-1144)") in ok(run("adventure", "show")).stdout.splitlines()


# ------------------------------------------------------------------------ 20. adventure show at 80x24


def _shown_on(run, monkeypatch, columns: int, rows: int) -> list[str]:
    from drunagor_log.cli.terminal import Terminal

    monkeypatch.setattr(Terminal, "screen", lambda self: (columns, rows))
    return ok(run("adventure", "show")).stdout.splitlines()


def test_adventure_show_at_80x24_keeps_the_board_and_puts_the_log_last_and_bounded(run, example, monkeypatch):
    piped = ok(run("adventure", "show")).stdout.splitlines()  # piped: the last five, whole
    assert piped[-6] == "Last at the table:" and len(piped[-1]) > 80
    lines = _shown_on(run, monkeypatch, 80, 24)
    assert lines[:len(piped) - 6] == piped[:-6]  # the heading, the bag, the board and the counters all there
    log = lines[len(piped) - 6:]
    assert log[0] == "Last at the table:"
    assert 1 <= len(log) - 1 < 5 and all(len(e) <= 79 for e in log[1:])
    assert log[-1].endswith("…")
    assert piped[-1].startswith(log[-1][:-1])  # the newest last, cut with …
    rows = sum(max(1, -(-len(rendered(x)) // 80)) for x in lines)  # rows at 80 columns, word wrap aside
    assert rows <= 24
    # too low for any of it: the log gives way, never the board
    assert _shown_on(run, monkeypatch, 80, 12) == piped[:-6]


@pytest.mark.slow
def test_adventure_show_on_an_80x24_terminal(example):
    from tests.helpers import on_a_pty

    out = on_a_pty(["-C", str(example), "adventure", "show"], 80, {"LINES": "24"})
    import re
    lines = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out).rstrip("\n").splitlines()
    assert lines[0] == "Chapter 05, Tempest Island: 4 heroes, round 1"
    assert len(lines) <= 23  # and the prompt's row
    assert any(line.startswith("Monsters on the board") for line in lines)
    assert lines[-1].endswith("…")


# ---------------------------------------------------------- 1. the briefing is the setup checklist

GOLDEN = Path(__file__).parent / "chapter_show"
RULEBOOK = Path("/work/shared/rules/awakenings-rulebook.txt")
#: Paragraphs of a chapter's section with no setup step or rule of their own: the "begin to play"
#: triggers (L1078, L1207) and the Battalions clarifications after chapter 09 (L1311).
NO_STEP = {1078, 1207, 1311}


@pytest.mark.parametrize("chapter", [f"0{n}" for n in range(1, 10)])
def test_chapter_show_for_four_heroes_is_the_setup_checklist(run, example, chapter):
    """Golden: `chapter show N --heroes 4` on the example, reviewed line by line against the chapter's
    section of the book (RB L1058-1309)."""
    r = ok(run("chapter", "show", chapter.lstrip("0"), "--heroes", "4"))
    assert r.stdout == (GOLDEN / f"{chapter}.txt").read_text(encoding="utf-8")
    lines = r.stdout.splitlines()
    assert lines[0].startswith(f"Chapter {chapter}: ") and lines[-1].startswith("Adventure Track: ")
    steps = lines[1:-1]
    assert all(s.endswith("; at the table") or "; drunagor tracks it" in s for s in steps)
    assert sum(s.startswith("Losing: ") for s in steps) == 1  # each losing condition once, on one line
    assert not any(s.startswith(("Fails when", "Trauma limit", "The adventure also fails")) for s in steps)
    data = json.loads(ok(run("chapter", "show", chapter.lstrip("0"), "--heroes", "4", "--json")).stdout)
    firsts = [int(e["line"].split("L")[1].split("-")[0].split(",")[0]) for e in data["checklist"]]
    assert firsts == sorted(firsts) and len(firsts) == len(steps)  # the book's order, one line each


def _chapter_paragraphs() -> dict[str, set[int]]:
    headings = tomllib.loads((Path(__file__).parents[2] / "drunagor_log" / "catalog" / "data" / "headings.toml")
                             .read_text(encoding="utf-8"))["heading"]
    out = {}
    for c in headings:
        if c["title"].startswith("Chapter 0") and c["level"] == 1:
            first, last = c["lines"]
            out[c["title"][8:10]] = {h["lines"][0] for h in headings if first < h["lines"][0] <= last}
    return out


def test_every_paragraph_of_every_chapter_is_on_its_checklist(run, example):
    for chapter, paragraphs in _chapter_paragraphs().items():
        data = json.loads(ok(run("chapter", "show", chapter.lstrip("0"), "--heroes", "4", "--json")).stdout)
        firsts = {int(e["line"].split("L")[1].split("-")[0].split(",")[0]) for e in data["checklist"]}
        assert paragraphs - NO_STEP - firsts == set(), chapter


def _words(text: str) -> list[str]:
    import re
    text = re.sub(r"\"[^\"]*\"", " ", text)  # a title the book names ("Cutscene – Redecorating") may be quoted
    return re.findall(r"[a-z0-9#']+", text.casefold())


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the rulebook text is the lead's, not shipped")
def test_the_checklist_copies_no_sentence_of_the_book(run, example):
    """drunagor's own short words: no run of 9 words of a checklist line is the book's (quoted titles aside;
    shorter runs are the game's terms, "at the end of the Initiative Track")."""
    book = _words(RULEBOOK.read_text(encoding="utf-8"))
    runs = {tuple(book[i:i + 9]) for i in range(len(book) - 8)}
    for n in range(1, 10):
        for e in json.loads(ok(run("chapter", "show", str(n), "--heroes", "4", "--json")).stdout)["checklist"]:
            words = _words(e["what"])
            copied = [" ".join(words[i:i + 9]) for i in range(len(words) - 8) if tuple(words[i:i + 9]) in runs]
            assert copied == [], (n, e["line"])


def test_the_served_table_says_the_adventure_has_ended(run, root):
    from drunagor_log.serve.board import read
    from drunagor_log.serve.pages import Pages

    started(run, root, "04")
    assert 'id="won"' not in Pages().board(read(root), "table")
    ok(run("adventure", "event", "vessel-hp", "--deck", "1"))
    page = Pages().board(read(root), "table")
    assert '<section class="card alert won" id="won"><h2>The adventure has ended</h2>' in page
    assert "drunagor adventure end" not in page  # the shared page speaks the game's words (issue 43 item 6)

"""`drunagor round end` and the chapters' counters through the command line (SPEC 10, "The round"): the
--json shape, dry runs, the facts asked once, refusals with their exit codes and messages, and the
property that `round end` then `adventure undo` gives back adventure.toml byte for byte. Each chapter
played to its end: tests/cli/test_round_chapters.py."""

import json
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.cli.test_losing import party, story
from tests.conftest import snapshot, write
from tests.helpers import ok


def started(run, root: Path, chapter: str, cards: str = "") -> Path:
    party(root, chapter)
    if cards:
        write(root / "story.toml", story(chapter, cards=cards))
    ok(run("adventure", "start", "--heroes", "2", *(["--models", "4"] if chapter in ("02", "08") else [])))
    return root


GROWING = '"Growing Influence" = { draws_a = 2, draws_b = 3 }\n'


def test_round_end_json(run, tmp_path):
    root = started(run, tmp_path / "campaigns" / "test", "06", GROWING)
    data = json.loads(ok(run("round", "end", "--seed", "1", "--json")).stdout)
    assert data == {
        "chapter": "06", "round": 1, "next_round": 2,
        "rune_card": {"name": "Growing Influence", "face": "A", "draws": 2},
        "next_face": "B", "next_card": "Growing Influence", "drawn": ["blue", "red"],
        "steps": [
            {"number": 1, "title": "Draw the indicated number of Runes, one at a time", "rule": "RB L1213",
             "fact": "Face A draws 2: blue, red."},
            {"number": 2, "title": "Place the drawn Runes on the Initiative Track", "rule": "RB L1213",
             "fact": "blue, red on the track; 9 runes left in the bag."},
            {"number": 3, "title": "Flip the Rune card over", "rule": "RB L1213", "fact": "Face A -> face B."},
            {"number": 4, "title": "Crumbling Ceiling", "rule": "RB L1223",
             "fact": "All Characters inside marked areas take 3 DMG; then remove all Special Mechanic tokens from the "
                     "board."}],
        "read": [], "lost": None, "adventure_fails": False, "runes_in_bag": 9,
        "counters": json.loads(ok(run("adventure", "show", "--json")).stdout)["counters"],
        "seed": 1, "dry_run": False}
    shown = json.loads(ok(run("adventure", "show", "--json")).stdout)
    assert (shown["round"], shown["rune_card"]) == (2, {"name": "Growing Influence", "face": "B", "draws": 3})
    assert shown["next_round"] == ("At the end of round 2: the Growing Influence card, face B, draws 3 runes, then "
                                   "flips (RB L1213); Crumbling Ceiling (RB L1223)")
    assert b"counters = { round = 2, rune_face = \"B\" }" in (root / "adventure.toml").read_bytes()


def test_a_dry_run_writes_nothing_not_even_the_draw_count(run, tmp_path):
    root = started(run, tmp_path / "campaigns" / "test", "05")
    before = snapshot(root)
    r = ok(run("round", "end", "--draws", "2", "--seed", "4", "--dry-run"))
    assert r.stdout.splitlines()[-1] == "dry run: nothing written"
    assert snapshot(root) == before


def test_the_draw_count_is_asked_once_per_face_and_kept(run, tmp_path):
    root = started(run, tmp_path / "campaigns" / "test", "08")
    r = run("round", "end")
    assert (r.exit_code, r.stderr) == (2, "error: how many runes does face A of the Growing Influence card draw? It "
                                          "is printed on the card, not in the book (Rulebook: Chapter 08 › Darkness Spawning Rule – Growing Influence, L1259); read it on the card and "
                                          "give --draws N once; drunagor remembers it for that face under [cards] in "
                                          "story.toml (drunagor round end --draws N)\n")
    ok(run("round", "end", "--draws", "2", "--seed", "1"))
    assert '"Growing Influence" = { draws_a = 2 }' in (root / "story.toml").read_text()
    ok(run("adventure", "undo"))
    before = snapshot(root)
    r = run("round", "end", "--draws", "3")
    assert (r.exit_code, r.stderr) == (2, "error: campaigns/test/story.toml: face A of the Growing Influence card "
                                          "draws 2 runes on record; leave out --draws; if the record is a slip: "
                                          "drunagor card forget \"Growing Influence\" --fact draws_a\n")
    assert snapshot(root) == before


def test_seed_and_rune_together_is_a_usage_slip(run, tmp_path):
    root = started(run, tmp_path / "campaigns" / "test", "02", GROWING)
    before = snapshot(root)
    r = run("round", "end", "--rune", "red", "--rune", "blue", "--seed", "3")
    assert (r.exit_code, r.stderr) == (2, "error: --seed replays a random draw; --rune records the runes drawn at "
                                          "the table; give one of them\n")
    r = ok(run("round", "end", "--rune", "red,blue"))
    assert r.stdout.splitlines()[0] == ("End of round 1: chapter 02, Growing Influence card face A (draws 2); runes "
                                        "drawn at the table")
    assert snapshot(root) != before


def test_round_end_is_refused_once_the_adventure_is_lost(run, tmp_path):
    root = started(run, tmp_path / "campaigns" / "test", "07")
    ok(run("adventure", "event", "barricade", "--count", "3"))
    before = snapshot(root)
    r = run("round", "end")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: adventure: the adventure is lost: "
                                          "drunagor adventure end --lost; lost by: the last Barricade token is "
                                          "removed and the Seabreeze Tavern barricade is destroyed: the adventure "
                                          "fails (Rulebook: Special Preparation – Barricade, L1243; Chapter 07 › Winning and Losing the Adventure, L1251); if that was a slip, take it back: drunagor "
                                          "adventure undo\n")
    assert snapshot(root) == before


def test_a_counter_of_another_chapter_is_refused(run, tmp_path):
    root = started(run, tmp_path / "campaigns" / "test", "03")
    before = snapshot(root)
    r = run("adventure", "event", "king-health", "--count", "5")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test/adventure.toml: adventure-event: chapter 03 has no "
                                          "Awakened King's Health: it is chapter 09's (Rulebook: Special Mechanics – Purge, L1295-1299); events of "
                                          "chapter 03: none\n")
    r = run("adventure", "event", "kings")
    assert (r.exit_code, r.stderr) == (2, "error: no chapter event called 'kings'; did you mean 'king-health'?\n")
    assert snapshot(root) == before


def test_the_event_json_names_the_ending(run, tmp_path):
    started(run, tmp_path / "campaigns" / "test", "04")
    data = json.loads(ok(run("adventure", "event", "vessel-hp", "--deck", "2", "--count", "2", "--json")).stdout)
    assert (data["event"], data["counters"]["vessel_hp_drawn"], data["lost"], data["read"]) == (
        "vessel-hp", 2, None, "End of the Adventure – A Day For the Prey")


# ------------------------------------------------------------------------------------- undo


def _campaign(under: Path, chapter: str) -> Path:
    """A campaign in a new folder below `under` (the test's own tmp_path) with chapter `chapter` started."""
    from typer.testing import CliRunner

    from drunagor_log.cli.app import app

    folder = Path(tempfile.mkdtemp(dir=under))
    root = party(folder / "test", chapter)
    write(root / "story.toml", story(chapter, cards=GROWING.replace("Growing Influence", "Naval Battle") + GROWING
                                     + '"Darkness Awakening" = { draws_a = 2 }\n'))
    models = ["--models", "4"] if chapter in ("02", "08") else []
    assert CliRunner().invoke(app, ["-C", str(root), "adventure", "start", "--heroes", "2", *models]).exit_code == 0
    return root


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(chapter=st.sampled_from(["01", "02", "03", "04", "05", "06", "07", "08", "09"]),
       seeds=st.lists(st.integers(0, 10**6), min_size=1, max_size=4))
def test_round_end_then_undo_gives_back_adventure_toml_byte_for_byte(run, tmp_path, chapter, seeds):
    root = _campaign(tmp_path, chapter)
    try:
        for seed in seeds:
            before = (root / "adventure.toml").read_bytes()
            seeded = [] if chapter == "07" else ["--seed", str(seed)]
            r = run("-C", str(root), "round", "end", *seeded)
            if r.exit_code == 1 and "the adventure is lost" in r.stderr:
                break
            assert r.exit_code == 0, r
            ok(run("-C", str(root), "adventure", "undo"))
            assert (root / "adventure.toml").read_bytes() == before
            ok(run("-C", str(root), "round", "end", *seeded))  # and play on
    finally:
        shutil.rmtree(root.parent)  # the folder _campaign made below tmp_path, and only that


def test_counts_are_bounded(run, tmp_path):
    root = started(run, tmp_path / "campaigns" / "test", "05")
    before = snapshot(root)
    r = run("adventure", "event", "spare-wood", "--count", "1000")
    assert (r.exit_code, r.stderr) == (2, "error: --count must be from 1 to 999, not 1000\n")
    r = run("round", "end", "--draws", "1000")
    assert (r.exit_code, r.stderr) == (2, "error: --draws 1000: a Rune card draws at least 1 rune, and at most the 36 "
                                          "the bag holds (rules.rune_bag); read the number on face A of the Growing "
                                          "Influence card\n")
    assert snapshot(root) == before


def test_a_bad_round_or_face_in_adventure_toml_is_named_with_its_line(run, tmp_path):
    root = started(run, tmp_path / "campaigns" / "test", "05", GROWING)
    text = (root / "adventure.toml").read_text()
    for bad, message in (('counters = { rune_face = "C" }', '`counters.rune_face` must be "A" or "B", not \'C\''),
                         ("counters = { round = 0 }", "`counters.round` must be a whole number at least 1, not 0")):
        (root / "adventure.toml").write_text(text.replace("ranks = {}", f"ranks = {{}}\n{bad}"))
        before = snapshot(root)
        r = run("round", "end")
        line = (root / "adventure.toml").read_text().splitlines().index(bad) + 1
        assert r.exit_code == 3 and r.stderr.startswith(f"error: campaigns/test/adventure.toml:{line}: "), r
        assert message in r.stderr
        assert snapshot(root) == before

"""The shipped example's archives predate the facts of table events (issue 45.2): `stats` and `recap` count
what they kept and say what they could not count, never reading a number back from a sentence."""

import json
import re
from pathlib import Path

import pytest

from tests.helpers import git, ok
from tests.sync.conftest import isolate_git


def test_stats_of_an_older_archive_names_what_it_lacks(run, example):
    assert ok(run("stats", "--chapter", "05")).stdout == (
        "Chapter 05, Tempest Island: 1 attempt (under way)\n"
        "  raids: 3 resolved; of the 0 that kept their chance, 0 tried, 0 summoned: expected 0, happened 0\n"
        "  runes drawn in 3 draws: blue 1, orange 1, red 1\n"
        "  cubes received: none\n"
        "  defeats: none\n"
        "  Battalions: 0\n"
        "  not counted: 3 raids kept no chance and no minions placed: not in raids summoned or expected\n"
        "  not counted: 3 draws kept no bag: their runes are counted, not what was likely\n")
    data = json.loads(ok(run("stats", "--json")).stdout)
    assert [c["chapter"] for c in data["chapters"]] == ["03", "04", "05"]
    assert data["campaign"]["raids"] == {"resolved": 3, "with_facts": 0, "tried": 0, "summoned": 0, "expected": "0",
                                         "expected_value": 0.0}
    assert data["campaign"]["uncounted"] == [
        "3 raids kept no chance and no minions placed: not in raids summoned or expected",
        "9 draws kept no bag: their runes are counted, not what was likely"]


def test_a_raid_from_now_on_is_counted_beside_the_older_ones(run, example):
    chance = json.loads(ok(run("odds", "--json")).stdout)["summon_chance"]
    ok(run("raid", "--seed", "3"))
    raids = json.loads(ok(run("stats", "--chapter", "5", "--json")).stdout)["chapters"][0]["raids"]
    assert (chance, raids["resolved"], raids["with_facts"], raids["expected"]) == ("2/7", 4, 1, "2/7")


def test_recap_without_git_tells_the_campaign_from_its_beginning(run, example):
    out = ok(run("recap")).stdout
    assert out.startswith("Previously on Safeguard Corporation, since the campaign began (it has no git history):\n"
                          "Chapters played:\n"
                          "  Chapter 03, Run!: attempt 1 won\n"
                          "  Chapter 04, Battle on the High Sea: attempt 1 won\n"
                          "  Chapter 05, Tempest Island: attempt 1 under way\n")
    r = run("recap", "--since", "2026-01-01")
    assert (r.exit_code, r.stderr) == (2, "error: --since 2026-01-01: the campaign has no git history to find it "
                                          "in; recap without --since tells the campaign from its beginning\n")
    r = run("recap", "--since", "2026-13-45")  # not a day: refused before git is asked (git reads it loosely)
    assert (r.exit_code, r.stderr) == (2, "error: --since 2026-13-45 is not a date; a day as YYYY-MM-DD, e.g. "
                                          "--since 2026-11-29\n")
    for ask in (("recap", "--since", "10"), ("stats", "--chapter", "10")):  # one chapter rule, one answer
        r = run(*ask)
        assert (r.exit_code, r.stderr) == (1, "error: no chapter '10': the Awakenings campaign has chapters 01 to "
                                              "09; give a chapter number from 1 to 9\n")
    r = run("recap", "--format", "html")
    assert (r.exit_code, r.stderr) == (2, "error: --format is text or md, not 'html'; --format md pastes into a "
                                          "group chat\n")


def test_migrate_keeps_the_older_archives_as_they_are(run, example):
    from tests.conftest import snapshot

    before = snapshot(example / "adventures")
    ok(run("migrate"))
    assert snapshot(example / "adventures") == before
    assert ok(run("stats", "--chapter", "3")).stdout.endswith(
        "  not counted: 3 draws kept no bag: their runes are counted, not what was likely\n")


def test_recap_from_a_chapter_without_git_tells_its_adventures_only(run, example):
    assert ok(run("recap", "--since", "4")).stdout == (
        "Previously on Safeguard Corporation, from chapter 04 on (the campaign has no git history: its adventures "
        "and notes only):\n"
        "Chapters played:\n"
        "  Chapter 04, Battle on the High Sea: attempt 1 won\n"
        "  Chapter 05, Tempest Island: attempt 1 under way\n")


def test_an_archive_edited_is_counted_again(run, example):
    first = json.loads(ok(run("stats", "--chapter", "3", "--json")).stdout)["chapters"][0]["runes"]["draws"]
    path = example / "adventures" / "03-1.toml"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(line for line in lines if "seed = 348367" not in line))  # one draw less
    again = json.loads(ok(run("stats", "--chapter", "3", "--json")).stdout)["chapters"][0]["runes"]["draws"]
    assert (first, again) == (3, 2)


@pytest.mark.slow  # runs git
def test_a_start_in_the_repository_s_first_commit_says_the_recap_tells_it_all(run, example, tmp_path, monkeypatch):
    isolate_git(monkeypatch, tmp_path)
    git(example, "init", "--quiet", "--initial-branch=main")
    git(example, "add", "-A")
    git(example, "commit", "--quiet", "-m", "the example, an adventure under way", identity=True)
    first = git(example, "log", "-1", "--format=%h %cs").split()
    for args, said in [((), "since the last adventure started"), (("--since", "04"), "from chapter 04 on")]:
        out = ok(run("recap", *args)).stdout
        assert out.startswith(f"Previously on Safeguard Corporation, {said} (commit {first[0]}, {first[1]}, the "
                              "repository's first: since the campaign began):\n"), out
        assert "  Nyx: learned Agility 1; learned Melee 1;" in out  # told from the beginning, as it says


def _book() -> str:
    here = Path(__file__).resolve()
    for top in here.parents[3:5]:  # the main repository's neighbour, or a worktree's
        path = top / "shared" / "rules" / "awakenings-rulebook.txt"
        if path.exists():
            return path.read_text(encoding="utf-8")
    pytest.skip("rulebook text not available")


def _runs(text: str, n: int = 7) -> set[str]:
    words = re.findall(r"[a-z']+", text.lower())
    return {" ".join(words[i:i + n]) for i in range(len(words) - n + 1)}


def test_recap_prints_no_sentence_of_the_book_only_its_titles(run, example):
    book = _runs(_book())
    ok(run("cube", "nyx", "curse", "+1", "--capacity", "5"))
    ok(run("cube", "nyx", "trauma", "+2"))  # defeated: the adventure fails, its losing condition recorded
    ok(run("adventure", "end", "--lost"))
    ok(run("note", "add", "the storm came early", "--by", "Ana"))
    told = "".join(ok(run("recap", *args)).stdout for args in [(), ("--format", "md"), ("--json",),
                                                                ("--hero", "Nyx"), ("--since", "5")])
    assert "Tempest Island" in told and "Nyx was defeated" in told  # the book's title, the party's facts
    assert _runs(told) & book == set()  # no seven words in a row of the book

"""Table events keep their facts beside their sentence (issue 45.2, SPEC 12): the codec's fixed order, the
tolerant read of older and newer files, the shape `check` refuses, and a raid's chance equal to what
`odds` said before it."""

import json
import tomllib
from pathlib import Path

from drunagor_log.model.adventure import AdventureState
from drunagor_log.store import adventure as codec
from tests.conftest import snapshot
from tests.helpers import ok


def log(root: Path) -> list[dict]:
    return tomllib.loads((root / "adventure.toml").read_text())["log"]


def test_a_raid_keeps_the_chance_odds_gave_before_it(run, example):
    for seed in (3, 5, 8, 13):
        before = json.loads(ok(run("odds", "--json")).stdout)
        bag = dict(tomllib.loads((example / "adventure.toml").read_text())["bag"])
        raid = json.loads(ok(run("raid", "--seed", str(seed), "--json")).stdout)
        entry = log(example)[-1]
        assert entry["event"] == "raid"
        assert entry["chance"] == before["summon_chance"]
        assert entry["bag"] == bag == before["by_colour"]
        assert len(entry["placed"]) == raid["placed"] and len(entry["failed"]) == raid["failed"]
        assert list(entry)[:2] == ["event", "face"] and list(entry)[-1] == "text"


def test_a_cube_keeps_hero_kind_delta_and_count(run, example):
    ok(run("cube", "Nyx", "trauma", "+1"))
    entry = log(example)[-1]
    assert {k: entry[k] for k in ("event", "hero", "kind", "delta", "count")} == {
        "event": "cube", "hero": "Nyx", "kind": "trauma", "delta": 1, "count": 1}
    assert list(entry)[-1] in ("text", "recorded")


def test_a_draw_keeps_its_runes_and_the_runes_left(run, example):
    ok(run("draw", "--rune", "gray"))
    entry = log(example)[-1]
    assert (entry["runes"], entry["left"]) == ("gray", 6)


def test_the_codec_writes_event_by_facts_then_text_and_keeps_what_it_does_not_know():
    entry = {"text": "t", "seed": 4, "newer_fact": [1, 2], "chance": "1/2", "by": "nyx", "event": "raid", "face": "A"}
    state = AdventureState(chapter="05", heroes=4, bag={"red": 1}, track={}, log=(entry,))
    text = codec.dumps(state)
    line = next(x for x in text.splitlines() if "event" in x)
    assert line == ('  { event = "raid", by = "nyx", face = "A", chance = "1/2", seed = 4, newer_fact = [1, 2], '
                    'text = "t" },')
    assert codec.state_from(tomllib.loads(text)).log == (entry,)


def test_an_older_archive_reads_as_it_is(run, example):
    before = snapshot(example)
    archive = (example / "adventures" / "03-1.toml").read_text()
    assert "chance" not in archive
    ok(run("check"))
    assert snapshot(example) == before


def test_check_refuses_a_fact_of_the_wrong_shape_naming_its_line(run, example):
    path = example / "adventures" / "03-1.toml"
    text = path.read_text().replace('{ event = "draw", runes = "red", seed = 261814,',
                                    '{ event = "draw", runes = "red", left = -1, seed = 261814,')
    path.write_text(text)
    r = run("check")
    assert r.exit_code == 3
    assert r.stdout + r.stderr == (
        "campaigns/example/adventures/03-1.toml:22: adventure-state: the fact `left` of table event 8 (draw) must "
        "be the runes left in the bag, 0 or more, not -1; fix it, or remove the fact: a fact not kept is not "
        "counted\n")

"""A campaign played by commands through chapters 01 to 03 with one loss, every command committed (`[git]
autocommit`): `recap` (text, Markdown, --json) and `stats --json` exact, and each raid's chance the one `odds`
gave before it (issue 45, SPEC 12)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from tests.helpers import git
from tests.sync.conftest import isolate_git

pytestmark = pytest.mark.slow  # runs git

WHEN = "2026-11-29T20:00:00+00:00"


@pytest.fixture
def saga(tmp_path, monkeypatch, run):
    """Chapters 01 (lost once, then won), 02 and 03 played by Ana's commands in a git repository."""
    isolate_git(monkeypatch, tmp_path)
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.setenv(var, WHEN)
    monkeypatch.setattr("drunagor_log.ops.story._today", lambda: "2026-11-29")
    top = tmp_path / "table"
    top.mkdir()
    git(top, "init", "--quiet", "--initial-branch=main")
    git(top, "config", "user.name", "Ana")
    git(top, "config", "user.email", "ana@example.org")
    monkeypatch.chdir(top)
    root = top / "campaigns" / "saga"
    chances: list[tuple[str, str]] = []

    def do(*args: str) -> str:
        r = run("-C", str(root), *args)
        assert r.exit_code == 0, (args, r)
        return r.stdout

    do("new", "saga", "--party", "The Chroniclers", "--dir", str(top / "campaigns"), "--commit")
    story = root / "story.toml"
    story.write_text(story.read_text().replace("autocommit = false", "autocommit = true"))
    git(top, "commit", "--quiet", "-am", "every command commits")
    do("hero", "add", "Nyx", "--role", "Striker", "--class", "Assassin", "--gear", "Blooded Sword",
       "--gear", "Leather Armor")
    do("hero", "add", "Andreas", "--role", "Support", "--class", "Cleric", "--gear", "Blooded Sword",
       "--gear", "Plate Armor")
    do("leader", "Andreas")
    # chapter 01, attempt 1: Nyx takes a second Trauma Cube and the adventure fails (RB L1026)
    do("adventure", "start")
    do("draw", "--seed", "1")
    do("cube", "Nyx", "trauma", "+1")
    do("cube", "Nyx", "trauma", "+1")
    do("adventure", "end", "--lost")
    # chapter 01, attempt 2: a round, a Battalion, won
    do("adventure", "start")
    do("round", "end", "--draws", "2", "--seed", "5")
    do("battalion", "Gremlin Horde", "--rank", "Gremlin Horde=White")
    do("adventure", "end", "--won")
    do("hero", "learn", "Nyx", "Agility 1", "--tree", "agility", "--level", "1")
    do("hero", "learn", "Andreas", "Wisdom 1", "--tree", "wisdom", "--level", "1")
    do("follower", "add", "Vorn the Warrior")
    do("note", "add", "the well in the village is cursed", "--by", "Ben")
    # chapter 02: two Piles of two colours, two raids
    do("adventure", "start", "--models", "4")
    do("pile", "add", "--runes", "red,blue")
    do("pile", "add", "--runes", "green")
    for seed in ("2", "3"):
        chances.append((json.loads(do("odds", "--json"))["summon_chance"], seed))
        do("raid", "--seed", seed)
    do("adventure", "end", "--won")
    do("hero", "learn", "Nyx", "Melee 1", "--tree", "melee", "--level", "1")
    do("hero", "learn", "Andreas", "Support 1", "--tree", "role", "--level", "1")
    # chapter 03: a draw, a Recall Action, won
    do("adventure", "start")
    do("draw", "3", "--seed", "4")
    do("recall", "Nyx", "--capacity", "5")
    do("note", "add", "Nyx owes the smith", "--hero", "Nyx")
    do("adventure", "end", "--won")
    do("status", "add", "Imminent Danger")
    return root, top, chances, do


def short(top: Path, *args: str) -> str:
    return git(top, "log", "-1", "--format=%h", *args).strip()


def test_each_raid_keeps_the_chance_odds_gave_before_it(saga):
    root, _, chances, _ = saga
    log = tomllib.loads((root / "adventures" / "02-1.toml").read_text())["log"]
    raids = [e for e in log if e["event"] == "raid"]
    assert [(e["chance"], str(e["seed"])) for e in raids] == chances
    assert [c for c, _ in chances] == ["2/3", "2/3"]  # red, blue and green of 9 runes left in the bag


def started(top: Path, chapter: str) -> str:
    """The short sha of the commit that started the first adventure of `chapter`."""
    for line in git(top, "log", "--reverse", "--diff-filter=A", "--format=%h", "--",
                    "campaigns/saga/adventure.toml").split():
        if tomllib.loads(git(top, "show", f"{line}:campaigns/saga/adventure.toml"))["chapter"] == chapter:
            return line
    raise AssertionError(chapter)


def test_recap_since_the_last_evening_says_which(saga):
    _, top, _, do = saga
    ended = short(top, "--diff-filter=D", "--", "campaigns/saga/adventure.toml")
    assert do("recap") == (
        f"Previously on The Chroniclers, since the last adventure ended (commit {ended}, 2026-11-29):\n"
        "Chapters played:\n"
        "  Chapter 03, Run!: attempt 1 won\n"
        "Adventure Track:\n"
        "  chapter 03 completed\n"
        "Story Record:\n"
        "  status Imminent Danger gained\n"
    )


def test_recap_from_chapter_01_tells_the_whole_story(saga):
    _, top, _, do = saga
    start = started(top, "01")
    assert do("recap", "--since", "01") == (
        f"Previously on The Chroniclers, from chapter 01 on (commit {start}, 2026-11-29):\n"
        "Chapters played:\n"
        "  Chapter 01, Untimely Holidays: attempt 1 lost: Nyx receives a 2nd Trauma Cube and is defeated: the adventure fails (Rulebook: Increasing Trauma Cube Limits, L1026)\n"
        "  Chapter 01, Untimely Holidays: attempt 2 won in round 2\n"
        "  Chapter 02, The Swarm: attempt 1 won\n"
        "  Chapter 03, Run!: attempt 1 won\n"
        "Adventure Track:\n"
        "  chapter 01 completed; chapter 02 completed; chapter 03 completed\n"
        "Rewards and changes:\n"
        "  Andreas: learned Wisdom 1; learned Support 1\n"
        "  Nyx: learned Agility 1; learned Melee 1\n"
        "Story Record:\n"
        "  Follower Vorn the Warrior gained; status Imminent Danger gained\n"
        "Notable moments:\n"
        "  chapter 01, attempt 1: Nyx was defeated: 2 Trauma Cubes held\n"
        "  chapter 01, attempt 2: a Monster Battalion placed Gremlin Horde\n"
        "  chapter 02, attempt 1: a Dreadful Raid summoned Nightmare (the odds gave it 2/3)\n"
        "  chapter 02, attempt 1: a Dreadful Raid summoned Nightmare (the odds gave it 2/3)\n"
        "Notes:\n"
        "  chapter 02, 2026-11-29, Ben: the well in the village is cursed\n"
        "  chapter 03, round 1, 2026-11-29, Ana, about Nyx: Nyx owes the smith\n"
    )


def test_recap_in_markdown_pastes_into_a_chat(saga):
    _, top, _, do = saga
    start = started(top, "01")
    assert do("recap", "--since", "1", "--format", "md") == (
        f"**Previously on The Chroniclers, from chapter 01 on (commit {start}, 2026-11-29)**\n"
        "\n"
        "*Chapters played*\n"
        "- Chapter 01, Untimely Holidays: attempt 1 lost: Nyx receives a 2nd Trauma Cube and is defeated: the adventure fails (Rulebook: Increasing Trauma Cube Limits, L1026)\n"
        "- Chapter 01, Untimely Holidays: attempt 2 won in round 2\n"
        "- Chapter 02, The Swarm: attempt 1 won\n"
        "- Chapter 03, Run!: attempt 1 won\n"
        "\n"
        "*Adventure Track*\n"
        "- chapter 01 completed; chapter 02 completed; chapter 03 completed\n"
        "\n"
        "*Rewards and changes*\n"
        "- Andreas: learned Wisdom 1; learned Support 1\n"
        "- Nyx: learned Agility 1; learned Melee 1\n"
        "\n"
        "*Story Record*\n"
        "- Follower Vorn the Warrior gained; status Imminent Danger gained\n"
        "\n"
        "*Notable moments*\n"
        "- chapter 01, attempt 1: Nyx was defeated: 2 Trauma Cubes held\n"
        "- chapter 01, attempt 2: a Monster Battalion placed Gremlin Horde\n"
        "- chapter 02, attempt 1: a Dreadful Raid summoned Nightmare (the odds gave it 2/3)\n"
        "- chapter 02, attempt 1: a Dreadful Raid summoned Nightmare (the odds gave it 2/3)\n"
        "\n"
        "*Notes*\n"
        "- chapter 02, 2026-11-29, Ben: the well in the village is cursed\n"
        "- chapter 03, round 1, 2026-11-29, Ana, about Nyx: Nyx owes the smith\n"
    )


def test_recap_json(saga):
    _, top, _, do = saga
    start = started(top, "01")
    base = git(top, "rev-parse", f"{start}^").strip()
    expected = json.loads(RECAP_JSON.replace("{base}", base).replace("{start}", start))
    assert json.loads(do("recap", "--since", "01", "--json")) == expected


def test_recap_of_one_hero(saga):
    _, top, _, do = saga
    ch02 = started(top, "02")
    assert do("recap", "--since", "02", "--hero", "nyx") == (
        f"Previously on Nyx of The Chroniclers, from chapter 02 on (commit {ch02}, 2026-11-29):\n"
        "Chapters played:\n"
        "  Chapter 02, The Swarm: attempt 1 won\n"
        "  Chapter 03, Run!: attempt 1 won\n"
        "Adventure Track:\n"
        "  chapter 02 completed; chapter 03 completed\n"
        "Rewards and changes:\n"
        "  Nyx: learned Melee 1\n"
        "Notes:\n"
        "  chapter 03, round 1, 2026-11-29, Ana, about Nyx: Nyx owes the smith\n"
    )


def test_stats_json_and_text(saga):
    _, _, _, do = saga
    assert json.loads(do("stats", "--json")) == json.loads(STATS_JSON)
    assert do("stats") == (
        "Chapter 01, Untimely Holidays: 2 attempts (lost, won in round 2)\n"
        "  raids: 0 resolved, 0 tried, 0 summoned: expected 0, happened 0\n"
        "  runes drawn in 2 draws: blue 0 (likely 0.8), gray 1 (likely 0.6), green 1 (likely 0.6), orange 1 (likely 0.6), red 0 (likely 0.6)\n"
        "  cubes received: Nyx 2 Trauma Cubes, 0 Curse Cubes\n"
        "  defeats: Nyx once\n"
        "  Battalions: 1\n"
        "Chapter 02, The Swarm: 1 attempt (won)\n"
        "  raids: 2 resolved, 2 tried, 2 summoned: expected 1.3, happened 2\n"
        "  runes drawn: none\n"
        "  cubes received: none\n"
        "  defeats: none\n"
        "  Battalions: 0\n"
        "Chapter 03, Run!: 1 attempt (won)\n"
        "  raids: 0 resolved, 0 tried, 0 summoned: expected 0, happened 0\n"
        "  runes drawn in 1 draw: blue 2 (likely 1), gray 0 (likely 0.5), green 1 (likely 0.5), orange 0 (likely 0.5), red 0 (likely 0.5)\n"
        "  cubes received: Nyx 0 Trauma Cubes, 1 Curse Cube\n"
        "  defeats: none\n"
        "  Battalions: 0\n"
        "Heroes over the campaign:\n"
        "  Nyx: 2 Trauma Cubes, 1 Curse Cube received; 1 Recall Action; defeated once\n"
    )


RECAP_JSON = """
{
  "since": {
    "kind": "chapter",
    "commit": "{base}",
    "date": "2026-11-29",
    "chapter": "01",
    "said": "from chapter 01 on (commit {start}, 2026-11-29)"
  },
  "hero": null,
  "party": "The Chroniclers",
  "adventures": [
    {
      "file": "adventures/01-1.toml",
      "chapter": "01",
      "attempt": 1,
      "outcome": "lost",
      "lost": "Nyx receives a 2nd Trauma Cube and is defeated: the adventure fails, RB L1026",
      "rounds": null,
      "heroes": 2,
      "title": "Untimely Holidays"
    },
    {
      "file": "adventures/01-2.toml",
      "chapter": "01",
      "attempt": 2,
      "outcome": "won",
      "lost": null,
      "rounds": 2,
      "heroes": 2,
      "title": "Untimely Holidays"
    },
    {
      "file": "adventures/02-1.toml",
      "chapter": "02",
      "attempt": 1,
      "outcome": "won",
      "lost": null,
      "rounds": null,
      "heroes": 2,
      "title": "The Swarm"
    },
    {
      "file": "adventures/03-1.toml",
      "chapter": "03",
      "attempt": 1,
      "outcome": "won",
      "lost": null,
      "rounds": null,
      "heroes": 2,
      "title": "Run!"
    }
  ],
  "track": [
    {
      "chapter": "01",
      "state": "completed"
    },
    {
      "chapter": "02",
      "state": "completed"
    },
    {
      "chapter": "03",
      "state": "completed"
    }
  ],
  "heroes": {
    "joined": [],
    "left": []
  },
  "rewards": {
    "Andreas": {
      "skills": [
        "Wisdom 1",
        "Support 1"
      ],
      "class_abilities": [],
      "gained": [],
      "lost": [],
      "upgrades": [],
      "aura": null,
      "statuses_gained": [],
      "statuses_lost": []
    },
    "Nyx": {
      "skills": [
        "Agility 1",
        "Melee 1"
      ],
      "class_abilities": [],
      "gained": [],
      "lost": [],
      "upgrades": [],
      "aura": null,
      "statuses_gained": [],
      "statuses_lost": []
    }
  },
  "story": {
    "followers_gained": [
      "Vorn the Warrior"
    ],
    "followers_lost": [],
    "outcomes_gained": [],
    "outcomes_lost": [],
    "statuses_gained": [
      "Imminent Danger"
    ],
    "statuses_lost": []
  },
  "moments": [
    {
      "chapter": "01",
      "attempt": 1,
      "event": "cube",
      "text": "Nyx was defeated: 2 Trauma Cubes held"
    },
    {
      "chapter": "01",
      "attempt": 2,
      "event": "battalion",
      "text": "a Monster Battalion placed Gremlin Horde"
    },
    {
      "chapter": "02",
      "attempt": 1,
      "event": "raid",
      "text": "a Dreadful Raid summoned Nightmare (the odds gave it 2/3)"
    },
    {
      "chapter": "02",
      "attempt": 1,
      "event": "raid",
      "text": "a Dreadful Raid summoned Nightmare (the odds gave it 2/3)"
    }
  ],
  "notes": [
    {
      "number": 1,
      "id": "bc5652b5bc",
      "chapter": "02",
      "round": null,
      "date": "2026-11-29",
      "by": "Ben",
      "hero": null,
      "text": "the well in the village is cursed"
    },
    {
      "number": 2,
      "id": "113315de2e",
      "chapter": "03",
      "round": 1,
      "date": "2026-11-29",
      "by": "Ana",
      "hero": "Nyx",
      "text": "Nyx owes the smith"
    }
  ]
}
"""

STATS_JSON = """
{
  "chapter": null,
  "chapters": [
    {
      "chapter": "01",
      "title": "Untimely Holidays",
      "attempts": 2,
      "adventures": [
        {
          "file": "adventures/01-1.toml",
          "chapter": "01",
          "attempt": 1,
          "outcome": "lost",
          "lost": "Nyx receives a 2nd Trauma Cube and is defeated: the adventure fails, RB L1026",
          "rounds": null,
          "heroes": 2
        },
        {
          "file": "adventures/01-2.toml",
          "chapter": "01",
          "attempt": 2,
          "outcome": "won",
          "lost": null,
          "rounds": 2,
          "heroes": 2
        }
      ],
      "events": 9,
      "rounds_ended": 1,
      "raids": {
        "resolved": 0,
        "with_facts": 0,
        "tried": 0,
        "summoned": 0,
        "expected": "0",
        "expected_value": 0.0
      },
      "runes": {
        "draws": 2,
        "drawn": {
          "gray": 1,
          "green": 1,
          "orange": 1
        },
        "drawn_with_bag": {
          "blue": 0,
          "gray": 1,
          "green": 1,
          "orange": 1,
          "red": 0
        },
        "likely": {
          "blue": "3/4",
          "gray": "9/16",
          "green": "9/16",
          "orange": "9/16",
          "red": "9/16"
        },
        "likely_value": {
          "blue": 0.75,
          "gray": 0.562,
          "green": 0.562,
          "orange": 0.562,
          "red": 0.562
        },
        "draws_without_bag": 0
      },
      "cubes": {
        "Nyx": {
          "trauma": 2,
          "curse": 0
        }
      },
      "recalls": {},
      "defeats": {
        "Nyx": 1
      },
      "battalions": 1,
      "uncounted": []
    },
    {
      "chapter": "02",
      "title": "The Swarm",
      "attempts": 1,
      "adventures": [
        {
          "file": "adventures/02-1.toml",
          "chapter": "02",
          "attempt": 1,
          "outcome": "won",
          "lost": null,
          "rounds": null,
          "heroes": 2
        }
      ],
      "events": 6,
      "rounds_ended": 0,
      "raids": {
        "resolved": 2,
        "with_facts": 2,
        "tried": 2,
        "summoned": 2,
        "expected": "4/3",
        "expected_value": 1.333
      },
      "runes": {
        "draws": 0,
        "drawn": {},
        "drawn_with_bag": {},
        "likely": {},
        "likely_value": {},
        "draws_without_bag": 0
      },
      "cubes": {},
      "recalls": {},
      "defeats": {},
      "battalions": 0,
      "uncounted": []
    },
    {
      "chapter": "03",
      "title": "Run!",
      "attempts": 1,
      "adventures": [
        {
          "file": "adventures/03-1.toml",
          "chapter": "03",
          "attempt": 1,
          "outcome": "won",
          "lost": null,
          "rounds": null,
          "heroes": 2
        }
      ],
      "events": 4,
      "rounds_ended": 0,
      "raids": {
        "resolved": 0,
        "with_facts": 0,
        "tried": 0,
        "summoned": 0,
        "expected": "0",
        "expected_value": 0.0
      },
      "runes": {
        "draws": 1,
        "drawn": {
          "blue": 2,
          "green": 1
        },
        "drawn_with_bag": {
          "blue": 2,
          "gray": 0,
          "green": 1,
          "orange": 0,
          "red": 0
        },
        "likely": {
          "blue": "1",
          "gray": "1/2",
          "green": "1/2",
          "orange": "1/2",
          "red": "1/2"
        },
        "likely_value": {
          "blue": 1.0,
          "gray": 0.5,
          "green": 0.5,
          "orange": 0.5,
          "red": 0.5
        },
        "draws_without_bag": 0
      },
      "cubes": {
        "Nyx": {
          "trauma": 0,
          "curse": 1
        }
      },
      "recalls": {
        "Nyx": 1
      },
      "defeats": {},
      "battalions": 0,
      "uncounted": []
    }
  ],
  "heroes": {
    "Nyx": {
      "trauma": 2,
      "curse": 1,
      "recalls": 1,
      "defeats": 1
    }
  },
  "campaign": {
    "events": 19,
    "rounds_ended": 1,
    "raids": {
      "resolved": 2,
      "with_facts": 2,
      "tried": 2,
      "summoned": 2,
      "expected": "4/3",
      "expected_value": 1.333
    },
    "runes": {
      "draws": 3,
      "drawn": {
        "blue": 2,
        "gray": 1,
        "green": 2,
        "orange": 1
      },
      "drawn_with_bag": {
        "blue": 2,
        "gray": 1,
        "green": 2,
        "orange": 1,
        "red": 0
      },
      "likely": {
        "blue": "7/4",
        "gray": "17/16",
        "green": "17/16",
        "orange": "17/16",
        "red": "17/16"
      },
      "likely_value": {
        "blue": 1.75,
        "gray": 1.062,
        "green": 1.062,
        "orange": 1.062,
        "red": 1.062
      },
      "draws_without_bag": 0
    },
    "cubes": {
      "Nyx": {
        "trauma": 2,
        "curse": 1
      }
    },
    "recalls": {
      "Nyx": 1
    },
    "defeats": {
      "Nyx": 1
    },
    "battalions": 1,
    "uncounted": []
  }
}
"""


def test_recap_after_a_sync_starts_there_and_an_uncommitted_start_says_so(saga, tmp_path):
    root, top, _, do = saga
    remote = tmp_path / "shared.git"
    git(tmp_path, "init", "--quiet", "--bare", "--initial-branch=main", str(remote))
    git(top, "remote", "add", "origin", str(remote))
    git(top, "push", "--quiet", "--set-upstream", "origin", "main")
    synced = short(top)
    do("note", "add", "bring snacks", "--by", "Ben")
    assert do("recap") == (
        f"Previously on The Chroniclers, since the last sync (commit {synced}, 2026-11-29):\n"
        "Notes:\n"
        "  chapter 04, 2026-11-29, Ben: bring snacks\n")
    story = root / "story.toml"
    story.write_text(story.read_text().replace("autocommit = true", "autocommit = false"))
    git(top, "commit", "--quiet", "-am", "no more autocommit")
    do("adventure", "start")
    head = short(top)
    assert do("recap") == (
        f"Previously on The Chroniclers, since the last adventure started, not committed yet (commit {head}, "
        "2026-11-29):\n"
        "Chapters played:\n"
        "  Chapter 04, Battle on the High Sea: attempt 1 under way\n")

"""The contract of design/SPEC.md as an outside script sees it: every command and flag of sections 4
and 9 by its exact name, the `--json` keys of sections 8 and 9 with their types, and the exit codes of
section 6 on typical refusals. One test (or one parametrized case) per SPEC row where practical.

SPEC 8: "more keys may be added; none of these removed or renamed": the key tests check that every key
the SPEC names is there, with the documented type, not that no other key is.
"""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from tests.conftest import command as click_command
from tests.conftest import write
from tests.helpers import ok

COLOURS = ["red", "blue", "green", "orange", "gray"]


def command(*words: str):
    """The Click command SPEC names by these words, or None when it does not exist."""
    from drunagor_log.cli.app import app

    found = click_command(app)
    for word in words:
        commands = getattr(found, "commands", None)
        if commands is None or word not in commands:
            return None
        found = commands[word]
    return found


def as_json(r) -> dict:
    """The one JSON object a --json command prints, written without Rich (no escape codes)."""
    ok(r)
    assert "\x1b" not in r.stdout
    data = json.loads(r.stdout)
    assert isinstance(data, dict)
    return data


def has_keys(data: dict, *keys: str) -> None:
    missing = [k for k in keys if k not in data]
    assert not missing, f"SPEC keys missing: {missing} (have {sorted(data)})"


def is_chapter(value) -> bool:
    return isinstance(value, str) and re.fullmatch(r"0[1-9]", value) is not None


# ------------------------------------------------------------------------- SPEC 4 and 9: the rows

# (SPEC row, command words, positional arguments (... = several), options)
ROWS = [
    ("4 Campaign", ("new",), ["NAME"], ["--party", "--dir", "--max-heroes", "--trauma-limit"]),
    ("4 Campaign", ("show",), [], ["--json"]),
    ("4 Campaign", ("check",), [], ["--strict", "--json"]),
    ("4 Campaign", ("list",), [], ["--dir"]),
    ("4 Campaign", ("migrate",), [], ["--dry-run"]),
    ("4 Story Record", ("party",), ["NAME"], []),
    ("4 Story Record", ("leader",), ["HERO"], []),
    ("4 Story Record", ("follower", "add"), ["NAME"], []),
    ("4 Story Record", ("follower", "remove"), ["NAME"], []),
    ("4 Story Record", ("chapter", "complete"), ["N"], ["--force"]),
    ("4 Story Record", ("chapter", "skip"), ["N"], ["--force"]),
    ("4 Story Record", ("chapter", "fail"), ["N"], ["--force"]),
    ("4 Story Record", ("chapter", "show"), ["N"], ["--json"]),
    ("4 Story Record", ("outcome", "add"), ["NAME"], []),
    ("4 Story Record", ("outcome", "remove"), ["NAME"], []),
    ("4 Story Record", ("status", "add"), ["NAME"], []),
    ("4 Story Record", ("status", "remove"), ["NAME"], []),
    ("4 Heroes", ("hero", "add"), ["NAME"], ["--role", "--class", "--player", "--gear"]),
    ("4 Heroes", ("hero", "show"), ["NAME"], ["--json"]),
    ("4 Heroes", ("hero", "list"), [], ["--json"]),
    ("4 Heroes", ("hero", "learn"), ["NAME", "SKILL"], ["--tree", "--level"]),
    ("4 Heroes", ("hero", "ability"), ["NAME", "ABILITY"], []),
    ("4 Heroes", ("hero", "relearn"), ["NAME", "OLD", "NEW"], []),
    ("4 Heroes", ("hero", "gain"), ["NAME", "ITEM"], ["--kind", "--quality", "--bag"]),
    ("4 Heroes", ("hero", "drop"), ["NAME", "ITEM"], []),
    ("4 Heroes", ("hero", "give"), ["FROM", "TO", "ITEM"], []),
    ("4 Heroes", ("hero", "equip"), ["NAME", "ITEM"], []),
    ("4 Heroes", ("hero", "unequip"), ["NAME", "ITEM"], []),
    ("4 Heroes", ("hero", "aura"), ["NAME", "AURA"], ["--clear"]),
    ("4 Heroes", ("hero", "status"), ["NAME", "add|remove", "STATUS"], []),
    ("4 Heroes", ("hero", "remove"), ["NAME"], []),
    ("4 Heroes", ("recruit",), [], ["--chapter", "--json"]),
    ("4 Heroes", ("camp",), [], []),
    ("4 Chest", ("chest", "show"), [], ["--json"]),
    ("4 Chest", ("chest", "add"), ["CARD"], ["--copies", "--type", "--rarity"]),
    ("4 Chest", ("chest", "swap"), ["OUT", "IN"], ["--yes"]),
    ("4 Chest", ("commander", "show"), [], ["--json"]),
    ("4 Chest", ("commander", "swap"), ["OUT", "IN"], ["--position"]),
    ("4 Chest", ("spoils", "upgrade"), ["HERO", "ITEM"], ["--discard"]),
    ("4 Adventure", ("adventure", "start"), ["N"], ["--heroes"]),
    ("4 Adventure", ("adventure", "show"), [], ["--json"]),
    ("4 Adventure", ("adventure", "end"), [], ["--won", "--lost"]),
    ("4 Adventure", ("pile", "add"), [], ["--runes"]),
    ("4 Adventure", ("tiebreak",), ["PILE"], ["--runes"]),
    ("4 Adventure", ("draw",), ["N"], ["--rune"]),
    ("4 Adventure", ("monster", "add"), ["NAME"], ["--count", "--rank", "--slot", "--boss"]),
    ("4 Adventure", ("monster", "remove"), ["NAME|SLOT..."], []),
    ("4 Adventure", ("raid",), [], ["--rune", "--seed", "--dry-run", "--json",
                                    "--face", "--heroes", "--piles", "--monsters", "--minions"]),
    ("4 Adventure", ("battalion",), ["MONSTER..."], ["--near", "--siege", "--dry-run", "--json"]),
    ("4 Adventure", ("odds",), [], ["--json"]),
    ("4 Git", ("history",), [], []),
    ("4 Git", ("undo",), [], []),
    ("9 Corrections", ("hero", "unlearn"), ["NAME", "SKILL"], []),
    ("9 Corrections", ("hero", "forget"), ["NAME", "ABILITY"], []),
    ("9 Corrections", ("hero", "set"), ["NAME"], ["--player", "--role"]),
    ("9 Corrections", ("hero", "return"), ["NAME"], ["--player"]),
    ("9 Corrections", ("chest", "remove"), ["CARD"], ["--copies"]),
    ("9 Corrections", ("card", "show"), ["NAME"], ["--json"]),
    ("9 Corrections", ("card", "set"), ["NAME"], ["--type", "--rarity", "--epic", "--not-epic", "--position"]),
    ("9 Corrections", ("card", "forget"), ["NAME"], []),
    ("9 Corrections", ("adventure", "undo"), [], ["--steps", "--dry-run"]),
    ("9 Corrections", ("completion",), ["SHELL"], []),
    ("9 Cubes", ("cube",), ["HERO", "trauma|curse", "DELTA"], ["--capacity"]),
    ("9 Cubes", ("recall",), ["HERO"], []),
    ("9 Cubes", ("adventure", "event"), ["barricade|swan-hp|endgame"], []),
    ("9 Sheets", ("sheet",), [], ["--format", "--out", "--open"]),
    ("9 Sheets", ("import",), ["TOKEN|FILE|-"], ["--dir", "--name", "--drop-unknown"]),
    ("9 Sheets", ("export",), [], ["--json"]),
    ("9 Sheets", ("sync",), [], []),
    ("9 Sheets", ("git", "setup"), [], []),
]

WRITING = {("new",), ("party",), ("leader",), ("follower", "add"), ("follower", "remove"), ("chapter", "complete"),
           ("chapter", "skip"), ("chapter", "fail"), ("outcome", "add"), ("outcome", "remove"), ("status", "add"),
           ("status", "remove"), ("hero", "add"), ("hero", "learn"), ("hero", "ability"), ("hero", "relearn"),
           ("hero", "gain"), ("hero", "drop"), ("hero", "give"), ("hero", "equip"), ("hero", "unequip"),
           ("hero", "aura"), ("hero", "status"), ("hero", "remove"), ("camp",), ("chest", "add"), ("chest", "swap"),
           ("commander", "swap"), ("spoils", "upgrade"), ("adventure", "start"), ("adventure", "end"),
           ("pile", "add"), ("tiebreak",), ("draw",), ("monster", "add"), ("monster", "remove"), ("raid",),
           ("battalion",), ("hero", "unlearn"), ("hero", "forget"), ("hero", "set"), ("hero", "return"),
           ("chest", "remove"), ("card", "set"), ("card", "forget"), ("adventure", "undo"), ("cube",), ("recall",),
           ("adventure", "event"), ("migrate",)}


def options_of(cmd) -> set[str]:
    return {o for p in cmd.params if p.param_type_name == "option" for o in (*p.opts, *p.secondary_opts)}


def arguments_of(cmd) -> list:
    return [p for p in cmd.params if p.param_type_name == "argument"]


@pytest.mark.parametrize("section, words, arguments, options", ROWS,
                         ids=[" ".join(words) for _, words, _, _ in ROWS])
def test_every_spec_row_is_a_command_with_its_flags(section, words, arguments, options):
    cmd = command(*words)
    assert cmd is not None, f"SPEC {section}: drunagor {' '.join(words)} does not exist"
    missing = [o for o in options if o not in options_of(cmd)]
    assert not missing, f"SPEC {section}: drunagor {' '.join(words)} lacks {missing}"
    args = arguments_of(cmd)
    assert len(args) == len(arguments), [a.name for a in args]
    for spec, arg in zip(arguments, args, strict=False):
        assert (arg.nargs == -1) == spec.endswith("..."), f"{spec}: takes several? nargs={arg.nargs}"
    if words in WRITING:  # SPEC 4 "Git": --commit on any writing command
        assert "--commit" in options_of(cmd), f"drunagor {' '.join(words)} has no --commit"
    assert "Example:" in (cmd.help or ""), f"drunagor {' '.join(words)} --help has no example (SPEC 4)"


def test_the_global_options():
    from drunagor_log.cli.app import app

    group = click_command(app)
    assert {"-C", "--campaign", "--no-color", "--version"} <= options_of(group)


def test_version(run):
    from drunagor_log import __version__

    assert ok(run("--version")).stdout == f"drunagor {__version__}\n"


def test_global_options_after_the_command_and_discovery_from_a_subfolder(run, example, tmp_path, monkeypatch):
    """SPEC 9: -C/--campaign and --no-color anywhere on the line; from a folder inside a campaign, that
    campaign (walking up to story.toml)."""
    write(tmp_path / "campaigns" / "other" / "story.toml", (example / "story.toml").read_text())
    first = ok(run("-C", str(example), "hero", "show", "Nyx")).stdout
    assert ok(run("hero", "show", "Nyx", "-C", str(example))).stdout == first
    assert ok(run("hero", "show", "Nyx", f"--campaign={example}", "--no-color")).stdout == first
    monkeypatch.chdir(example / "heroes")
    assert ok(run("hero", "show", "Nyx")).stdout == first


def test_two_campaigns_and_no_choice_is_a_usage_error_that_lists_them(run, example, tmp_path):
    write(tmp_path / "campaigns" / "other" / "story.toml", (example / "story.toml").read_text())
    r = run("show")
    assert r.exit_code == 2
    assert "campaigns/example" in r.stderr and "campaigns/other" in r.stderr and "-C" in r.stderr


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_a_script_for_each_shell(run, shell):
    assert "drunagor" in ok(run("completion", shell)).stdout
    assert run("completion", "tcsh").exit_code == 2


# ------------------------------------------------------------------ SPEC 4: --json on what reports

REPORTS = [("show",), ("check",), ("list",), ("chapter", "show"), ("recruit",), ("hero", "show", "Nyx"),
           ("hero", "list"), ("chest", "show"), ("commander", "show"), ("adventure", "show"), ("odds",),
           ("raid", "--dry-run", "--seed", "1"), ("battalion", "Gremlin Horde", "--dry-run"), ("history",),
           ("card", "show"), ("export",)]


@pytest.mark.parametrize("args", [pytest.param(a, id=" ".join(a), marks=[pytest.mark.slow] if a == ("history",) else [])
                                  for a in REPORTS])  # history: in a repository git made (slow)
def test_every_report_and_procedure_prints_one_json_object(run, example, args):
    if args == ("history",):
        subprocess.run(["git", "init", "-q", str(example)], check=True)
    before = {p: p.read_bytes() for p in example.rglob("*.toml")}
    assert as_json(run(*args, "--json"))
    assert {p: p.read_bytes() for p in example.rglob("*.toml")} == before  # a report or a dry run writes nothing


# ------------------------------------------------------------------------- SPEC 8: the JSON keys

PROBLEM_KEYS = ("file", "line", "rule", "message")


def test_check_json(run, example):
    assert as_json(run("check", "--json")) == {"errors": [], "warnings": []}
    nyx = example / "heroes" / "nyx.toml"
    nyx.write_text(nyx.read_text().replace('name = "Nyx"', 'name = "Lorelai"'))  # a core-box hero: an error
    r = run("check", "--json")
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    has_keys(data, "errors", "warnings")
    assert data["errors"]
    for p in data["errors"] + data["warnings"]:
        has_keys(p, *PROBLEM_KEYS)
        assert isinstance(p["file"], str) and isinstance(p["rule"], str) and isinstance(p["message"], str)
        assert p["line"] is None or (isinstance(p["line"], int) and p["line"] >= 1)
    assert any(p["rule"] == "core-hero" and p["file"] == "campaigns/example/heroes/nyx.toml"
               for p in data["errors"])


CHAPTER_KEYS = ("chapter", "title", "heroes", "stirring_darkness", "recall_penalty", "raid", "tie_breaker_runes",
                "camaraderie_followers", "boss_health", "trauma_limit")


@pytest.mark.parametrize("n, heroes, stirring, penalty, raid, tie_breaker, camaraderie, boss", [
    # RB L1068, L1066; no raid, no Tie Breaker, no Camaraderie, no boss
    ("1", 4, 4, 1, None, None, None, None),
    # RB L1096, L1102 (Nightmare Raid), L1100 (Tie Breaker: 6 - heroes)
    ("2", 3, 6, 1, "Dreadful Raid", 3, None, None),
    # RB L1165, L1167; chapter 04's Naval Raid card
    ("4", 4, 5, 1, "Naval Raid", None, None, None),
    # RB L1191 (double), L1193, L1197, L1199
    ("5", 4, 6, 2, "Dreadful Raid", 2, None, None),
    # RB L1231-1253: no Stirring Darkness; Camaraderie: 5 - heroes Followers (RB L1247)
    ("7", 2, None, 2, None, None, 3, None),
    # RB L1281-1309: the Undead King, 40 Health per hero
    ("9", 3, 6, 2, None, None, None, 120),
])
def test_chapter_show_json(run, example, n, heroes, stirring, penalty, raid, tie_breaker, camaraderie, boss):
    data = as_json(run("chapter", "show", n, "--heroes", str(heroes), "--json"))
    has_keys(data, *CHAPTER_KEYS)
    assert data["chapter"] == f"0{n}" and is_chapter(data["chapter"])
    assert isinstance(data["title"], str) and data["title"]
    assert (data["heroes"], data["stirring_darkness"], data["recall_penalty"]) == (heroes, stirring, penalty)
    assert (data["tie_breaker_runes"], data["camaraderie_followers"], data["boss_health"]) == (
        tie_breaker, camaraderie, boss)
    assert data["trauma_limit"] == 1  # the example's rules.trauma_limit
    if raid is None:
        assert data["raid"] is None
    else:
        has_keys(data["raid"], "card", "summons")
        assert data["raid"]["card"] == raid


def test_recruit_json_is_the_rulebook_table(run, example):
    """RB L1005-1016, cumulative as the rulebook prints it."""
    data = as_json(run("recruit", "--json"))
    keys = ("level1_skills", "level2_skills", "class_abilities", "spoils", "spoils_upgrades")
    table = [[row[k] for k in keys] for row in data["rows"]]
    assert [row["chapter"] for row in data["rows"]] == [f"0{n}" for n in range(1, 10)]
    assert table == [
        [0, 0, 0, 0, 0],  # L1008 chapter 01: only the rewards for creating the Character
        [1, 0, 0, 0, 0],  # L1009
        [1, 0, 0, 0, 0],  # L1010
        [1, 0, 1, 1, 0],  # L1011
        [2, 0, 1, 1, 0],  # L1012
        [2, 0, 2, 2, 0],  # L1013
        [2, 1, 2, 2, 0],  # L1014
        [2, 1, 2, 2, 1],  # L1015
        [3, 1, 2, 2, 1],  # L1016
    ]


RAID_KEYS = ("face", "next_face", "rune", "seed", "matching_piles", "party_size", "placed", "failed", "activations",
             "summoned", "reason")


def test_raid_json_with_the_board_tracked(run, example):
    data = as_json(run("raid", "--dry-run", "--rune", "blue", "--json"))
    has_keys(data, *RAID_KEYS)
    assert (data["face"], data["next_face"], data["rune"], data["seed"]) == ("B", "A", "blue", None)
    assert data["matching_piles"] == ["1", "2"] and data["party_size"] == 2
    assert isinstance(data["placed"], int) and isinstance(data["failed"], int)
    assert data["placed"] + data["failed"] == data["party_size"]
    assert len(data["activations"]) == data["failed"]
    assert len(data["summoned"]) == data["placed"]
    assert all({"name", "slot"} <= set(s) for s in data["summoned"])
    assert data["reason"] is None
    seeded = as_json(run("raid", "--dry-run", "--seed", "7", "--json"))
    assert seeded["seed"] == 7 and seeded["rune"] in COLOURS


def test_raid_json_from_flags_alone(run, tmp_path):
    """SPEC 4: with no adventure under way, from flags; activations are null (the board is not tracked)
    and nothing is written. RB L313: 5 heroes, room for only one: one placed, two failed."""
    ok(run("new", "flags"))
    data = as_json(run("raid", "--face", "B", "--heroes", "5", "--piles", "red,blue", "--monsters", "11",
                       "--rune", "red", "--json"))
    has_keys(data, *RAID_KEYS)
    assert (data["party_size"], data["placed"], data["failed"], data["activations"]) == (3, 1, 2, [None, None])
    assert data["summoned"] == [] and data["reason"] is None
    data = as_json(run("raid", "--face", "A", "--heroes", "4", "--piles", "none", "--monsters", "0", "--json"))
    assert (data["rune"], data["placed"]) == (None, 0)  # RB L297: no Pile of Runes, no rune manifested
    assert isinstance(data["reason"], str) and data["reason"]
    assert not (tmp_path / "campaigns" / "flags" / "adventure.toml").exists()


def test_battalion_json(run, example):
    data = as_json(run("battalion", "Gremlin Horde", "Tidehunter", "--dry-run", "--json"))
    has_keys(data, "placed", "not_placed", "activations", "order")
    assert data["placed"] == ["Gremlin Horde", "Tidehunter"] and data["not_placed"] == []
    assert (data["activations"], data["order"]) == (0, [])
    # RB L1319: "if two Monsters could not be summoned, your party must Activate a Monster four times"
    data = as_json(run("battalion", *["Gremlin Horde"] * 10, "--dry-run", "--json"))  # 4 on the board
    assert (len(data["placed"]), len(data["not_placed"]), data["activations"]) == (8, 2, 4)
    assert len(data["order"]) == 4 and all(isinstance(m, str) for m in data["order"])
    assert all(a != b for a, b in zip(data["order"], data["order"][1:], strict=False))  # RB L1321: never twice in a row


def test_odds_json(run, example):
    from fractions import Fraction

    data = as_json(run("odds", "--json"))
    has_keys(data, "summon_chance", "summon_probability", "runes_in_bag", "by_colour", "try_probability")
    assert re.fullmatch(r"\d+/\d+", data["summon_chance"])
    assert data["summon_probability"] == pytest.approx(float(Fraction(data["summon_chance"])))
    assert isinstance(data["summon_probability"], float) and isinstance(data["try_probability"], float)
    assert list(data["by_colour"]) == COLOURS and data["runes_in_bag"] == sum(data["by_colour"].values())
    # the example: face B, Piles hold blue, green, orange; bag red 2, blue 1, green 1, gray 3 (README)
    assert (data["summon_chance"], data["try_probability"]) == ("2/7", pytest.approx(2 / 7))


def test_adventure_show_json_gains_cubes_counters_lost_and_events(run, example):
    data = as_json(run("adventure", "show", "--json"))
    has_keys(data, "cubes", "counters", "lost", "events")
    assert sorted(data["cubes"]) == ["Andreas", "Catharina", "Nyx", "Vacrem"]
    for cubes in data["cubes"].values():
        assert cubes == {"trauma": 0, "curse": 0, "trauma_limit": 1, "curse_capacity": None} | {
            k: v for k, v in cubes.items() if k not in ("trauma", "curse", "trauma_limit", "curse_capacity")}
    assert data["counters"] == dict.fromkeys(  # chapter 05 counts only its resources (RB L1205)
        ("barricade", "swan_hp_drawn", "endgame", "king_health", "vessel_hp_drawn", "special_event", "time_tokens",
         "desperation_time_tokens", "doom_clock", "siege_cards_drawn", "harvesters_hunt")) | {
        "mending_rope": 0, "plenty_of_provisions": 0, "spare_wood": 0}
    assert data["lost"] is None and data["events"] == []
    ok(run("cube", "Nyx", "trauma", "+2"))  # one more than the limit of 1: defeated (RB L1026)
    data = as_json(run("adventure", "show", "--json"))
    assert (data["cubes"]["Nyx"]["trauma"], data["cubes"]["Nyx"]["curse_capacity"]) == (2, None)
    assert isinstance(data["lost"], str) and "RB L" in data["lost"]
    assert [e["event"] for e in data["events"]] == ["cube"]


def test_card_show_json(run, example):
    ok(run("card", "set", "Potion of Haste", "--rarity", "uncommon"))
    data = as_json(run("card", "show", "--json"))
    has_keys(data, "cards")
    for card in data["cards"]:
        has_keys(card, "name", "type", "rarity", "epic", "position", "kind")
    haste = next(card for card in data["cards"] if card["name"] == "Potion of Haste")
    assert (haste["type"], haste["rarity"], haste["position"]) == ("potion", "uncommon", None)


# ---------------------------------------------------------------- SPEC 6: exit codes of refusals

RULE, USAGE, DATA = 1, 2, 3

REFUSALS = [
    # a rule refused: 1
    (RULE, ("hero", "add", "Lorelai", "--role", "Leader")),  # a core-box hero (RB L941-945)
    (RULE, ("chapter", "complete", "07")),  # chapters in order (RB L961)
    (RULE, ("adventure", "start")),  # chapter 05 is under way
    (RULE, ("chest", "swap", "Scroll of Incinerate", "Potion of Healing", "--yes")),  # same type and rarity
    (RULE, ("spoils", "upgrade", "Nyx", "Leather Armor", "--discard", "Blooded Sword")),  # not a Spoils card
    (RULE, ("draw", "--rune", "orange")),  # no orange rune in the bag
    (RULE, ("tiebreak", "1", "--runes", "red,red")),  # Pile 1 holds no red
    (RULE, ("adventure", "event", "barricade")),  # chapter 07's, not 05's
    (RULE, ("follower", "add", "Vorn the Warrior")),  # written already
    # an unknown name of the game: 1 (SPEC 9, 10; docs/errors.md, "Names")
    (RULE, ("chapter", "show", "10")),
    (RULE, ("draw", "--rune", "purple")),
    (RULE, ("hero", "show", "Bob")),
    (RULE, ("monster", "add", "Gremlin Hurde")),
    (RULE, ("hero", "learn", "Nyx", "Melee 2", "--tree", "fire", "--level", "2")),
    # a usage slip: 2
    (USAGE, ("show", "--bogus")),
    (USAGE, ("bogus",)),
    (USAGE, ("adventure", "end")),  # neither --won nor --lost
    (USAGE, ("cube", "Nyx", "wounds", "+1")),  # drunagor's own words: trauma or curse
    (USAGE, ("card", "show", "Potion of")),  # too little of a name: several begin so
    (USAGE, ("raid", "--seed", "1", "--rune", "red")),  # a replay and a physical draw at once
    (USAGE, ("-C", "nowhere", "show")),
]


@pytest.mark.parametrize("code, args", REFUSALS, ids=[" ".join(a) for _, a in REFUSALS])
def test_refusals_exit_with_their_code_one_message_and_write_nothing(run, example, code, args):
    before = {p: p.read_bytes() for p in example.rglob("*") if p.is_file() and p.name != ".drunagor.lock"}
    r = run(*args)
    assert r.exit_code == code, r
    assert r.stdout == "" and "Traceback" not in r.stderr
    assert len([line for line in r.stderr.splitlines() if line.startswith(("error:", "Error:"))]) == 1
    assert {p: p.read_bytes() for p in example.rglob("*") if p.is_file() and p.name != ".drunagor.lock"} == before


@pytest.mark.parametrize("text, line", [
    ('schema = 1\nparty = "SGC\n', 2),  # a TOML syntax error
    ('schema = 1\n<<<<<<< HEAD\nparty = "A"\n=======\nparty = "B"\n>>>>>>> theirs\n', 2),  # conflict markers
])
@pytest.mark.parametrize("args", [("show",), ("check",), ("party", "X")])
def test_unreadable_data_exits_3_naming_file_and_line(run, example, text, line, args):
    (example / "story.toml").write_text(text)
    r = run(*args)
    assert r.exit_code == DATA, r
    assert r.stderr.startswith(f"error: campaigns/example/story.toml:{line}: ") or (
        args == ("check",) and r.stdout.startswith(f"campaigns/example/story.toml:{line}: "))
    assert (example / "story.toml").read_text() == text


def test_a_newer_schema_is_read_with_a_warning_and_never_written(run, example):
    story = example / "story.toml"
    text = story.read_text().replace("schema = 1", "schema = 99", 1)
    story.write_text(text)
    r = ok(run("show"))
    assert "schema" in r.stderr
    r = run("party", "X")
    assert r.exit_code == DATA and "schema" in r.stderr
    assert story.read_text() == text


# Exit 4 (the files changed on disk meanwhile) is tested with real concurrent processes in
# tests/store/test_concurrency.py.


def test_a_command_that_changes_nothing_leaves_the_bytes_untouched(run, example):
    """SPEC 2: party set to the name it has, leader to the leader it has."""
    story = example / "story.toml"
    before = story.read_bytes()
    ok(run("party", "Safeguard Corporation"))
    ok(run("leader", "Andreas"))
    assert story.read_bytes() == before


def test_writes_print_one_line_saying_what_changed(run, example):
    r = ok(run("outcome", "add", "Ancient Book"))
    assert r.stdout.count("\n") == 1 and "Ancient Book" in r.stdout


def test_a_fresh_campaign_has_the_compulsory_replacement(run, tmp_path):
    """SPEC 4 `new`: RB L367-371, Artisan's Tools and Treasure Trove replace Cosmic Gemstone and Forgotten
    Treasure, which are stored for good."""
    import tomllib

    r = ok(run("new", "sgc", "--party", "SGC", "--max-heroes", "5", "--trauma-limit", "2"))
    assert "Artisan's Tools and Treasure Trove replace Cosmic Gemstone and Forgotten Treasure" in r.stdout
    story = tomllib.loads((tmp_path / "campaigns" / "sgc" / "story.toml").read_text())
    assert story["schema"] == 1 and story["party"] == "SGC"
    assert story["chest"]["epic"] == ["Artisan's Tools", "Treasure Trove"]
    assert {"Cosmic Gemstone", "Forgotten Treasure"} <= set(story["stored"])
    assert (story["rules"]["max_heroes"], story["rules"]["trauma_limit"]) == (5, 2)
    listed = as_json(run("list", "--json"))["campaigns"]
    assert [(c["name"], c["party"], c["next_chapter"]) for c in listed] == [("sgc", "SGC", "01")]


def test_the_example_is_found_from_a_fresh_clone(run, example):
    """SPEC 3: the only campaign under ./campaigns/."""
    assert ok(run("show")).stdout.startswith("Safeguard Corporation")


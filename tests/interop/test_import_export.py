"""drunagor import / export (issue 16): the sheet's examples, round trips, and every refusal leaving
nothing behind."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.interop.test_token import CURRENT, LEGACY

ROLES = ["--role", "Andreas=Support", "--role", "Catharina=Controller", "--role", "Nyx=Striker",
         "--role", "Vacrem=Defender"]


def _json(token: str) -> dict:
    return json.loads(base64.b64decode(token).decode("latin-1"))


def _tok(obj) -> str:
    return base64.b64encode(json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode("latin-1")).decode()


def _left(tmp_path: Path) -> list[str]:
    """Everything under campaigns/ (hidden temporary folders included)."""
    base = tmp_path / "campaigns"
    return sorted(p.name for p in base.iterdir()) if base.exists() else []


@pytest.fixture
def campaigns(tmp_path):
    (tmp_path / "campaigns").mkdir()
    return tmp_path / "campaigns"


def test_current_example_imports_and_exports_the_same_token(run, campaigns, tmp_path):
    (tmp_path / "token.txt").write_text(CURRENT + "\n")
    r = run("import", "token.txt", *ROLES, "--player", "Nyx=Carla", "--leader", "andreas")
    assert r.exit_code == 0, r
    assert r.stdout.splitlines()[0] == ("imported 'Safeguard Corporation' (current token) as "
                                        "campaigns/safeguard-corporation: 4 heroes, 1 Follower, 1 Outcome, 1 status")
    root = campaigns / "safeguard-corporation"
    story = (root / "story.toml").read_text()
    assert 'leader = "Andreas"' in story and '  "Vorn the Warrior",\n' in story
    assert (root / "heroes" / "nyx.toml").read_text().startswith(
        'schema = 1\nname = "Nyx"\nclass = "Assassin"\nrole = "Striker"')
    assert 'player = "Carla"' in (root / "heroes" / "nyx.toml").read_text()
    vacrem = (root / "heroes" / "vacrem.toml").read_text()
    assert '{ name = "Buckler", kind = "spoils", quality = "standard", place = "bag", app_slot = "stash" }' in vacrem
    assert run("-C", str(root), "check").exit_code == 0  # what is missing is reported as warnings
    out = run("-C", str(root), "export")
    assert out.exit_code == 0
    assert out.stdout == CURRENT + "\n"  # byte for byte: the campaign id was blank in the token already
    assert out.stderr.startswith("warning: the token cannot carry: the Party Leader; the Chest deck")
    assert json.loads(run("-C", str(root), "export", "--json").stdout) == _json(CURRENT)


def test_legacy_example_imports_from_standard_input(run, campaigns):
    r = run("import", "-", "--role", "Nyx=Striker", "--name", "old-party", input=LEGACY[:40] + "\n" + LEGACY[40:])
    assert r.exit_code == 0, r
    assert "(legacy token) as campaigns/old-party: 1 hero," in r.stdout
    assert (campaigns / "old-party" / "heroes" / "nyx.toml").exists()


def test_roles_are_asked_and_nothing_is_written(run, campaigns, tmp_path):
    r = run("import", CURRENT, "--role", "Nyx=Striker")
    assert r.exit_code == 2
    assert r.stderr.startswith("error: the token has no Dungeon Roles (the apps do not record them): "
                               "Andreas, Catharina, Vacrem need one; give each hero a role: --role Andreas=ROLE")
    assert _left(tmp_path) == []


@pytest.mark.parametrize("text, code, says", [
    ("not a token!", 3, "error: standard input: token: not a campaign token: it holds '!', which base64 does not use"),
    ("A" * 1_000_001, 3, "1,000,001 characters is far more than a campaign token holds"),
    (CURRENT[:-200], 3, "not a campaign token: the decoded text is not JSON"),
])
def test_unreadable_tokens(run, campaigns, tmp_path, text, code, says):
    r = run("import", "-", *ROLES, input=text)
    assert r.exit_code == code and says in r.stderr and "Traceback" not in r.stderr
    assert _left(tmp_path) == []


def test_another_box_and_core_heroes_are_refused(run, campaigns, tmp_path):
    r = run("import", _tok({"campaign": "core", "name": "Old", "heroes": []}))
    assert (r.exit_code, r.stderr) == (1, "error: token: the token's campaign is of the 'core' box, not an "
                                          "Awakenings campaign; drunagor keeps Awakenings campaigns only; import "
                                          "it into the app of that box\n")
    assert _left(tmp_path) == []


def test_unknown_ids_stop_the_import_unless_dropped(run, campaigns, tmp_path):
    data = _json(CURRENT)
    data["campaignData"]["followerIds"].append("karsten")
    data["heroes"][2]["equipment"]["armorId"] = "leather-armor"
    r = run("import", _tok(data), *ROLES)
    assert r.exit_code == 1
    assert ("the token holds 2 ID(s) that are not in the Awakenings lists (Followers (followerIds): karsten; "
            "Nyx's equipment: leather-armor)") in r.stderr
    assert _left(tmp_path) == []
    r = run("import", _tok(data), *ROLES, "--drop-unknown")
    assert r.exit_code == 0
    assert r.stderr == ("warning: left out (not in the Awakenings lists): Followers (followerIds): karsten\n"
                        "warning: left out (not in the Awakenings lists): Nyx's equipment: leather-armor\n")


def test_a_taken_folder_and_a_failing_step_leave_nothing_behind(run, campaigns, tmp_path, monkeypatch):
    (campaigns / "safeguard-corporation").mkdir()
    r = run("import", CURRENT, *ROLES)
    assert r.exit_code == 2 and "campaigns/safeguard-corporation already exists" in r.stderr
    assert _left(tmp_path) == ["safeguard-corporation"]
    os.rmdir(campaigns / "safeguard-corporation")
    from drunagor_log.errors import RuleError
    from drunagor_log.ops import heroes

    def refuse(c, *a, **k):
        raise RuleError("the shelf is full", file=c.story_file.shown, line=3)  # a file in the hidden folder

    monkeypatch.setattr(heroes, "aura", refuse)  # a step after the heroes were created
    r = run("import", CURRENT, *ROLES)
    assert (r.exit_code, r.stderr) == (1, "error: the token: the shelf is full\n")
    assert _left(tmp_path) == []


def test_export_refuses_a_name_the_apps_cannot_carry(run, example):
    assert run("party", "Captain\u2019s Crew").exit_code == 0
    r = run("export")
    assert r.exit_code == 1
    assert "the apps cannot carry the character '\u2019' (U+2019)" in r.stderr and r.stdout == ""


def test_export_of_the_example_names_what_the_token_cannot_carry(run, example):
    r = run("export", "--json")
    data = json.loads(r.stdout)
    assert [h["heroId"] for h in data["heroes"]] == ["andreas-cleric", "catharina-mage", "nyx-assassin",
                                                     "vacren-warrior"]
    assert data["campaignData"]["followerIds"] == ["vorn"]
    assert "warning: the apps have no ID for Nyx's Blooded Sword: left out of the token\n" in r.stderr
    assert "the Adventure Track (the token has no chapters)" in r.stderr
    assert r.stderr.endswith("; the adventure under way (adventure.toml); the archived adventures (adventures/)\n")


# --- the round trip over generated campaigns ---------------------------------------------------------

SPOILS = ["hack-slash", "twin-blades", "buckler", "heavy-shield", "grimoire", "battle-plate", "war-bow"]
TRINKETS = ["captains-brooch", "mind-gem", "fighters-ring-front", "cosmic-heart-flawless"]  # Adventure, trinket slot
OFF_HANDS = ["defenders-buckler-back", "hippocampus-banner"]  # Adventure, off-hand slot
CHEST = ["artisans-tools", "potion-of-haste", "scroll-of-beguile"]
HEROES = {"Andreas": ["andreas-cleric", "andreas"], "Catharina": ["catharina-mage", "catharina"],
          "Nyx": ["nyx-assassin", "nyx"], "Vacrem": ["vacren-warrior", "vacren"]}
SKILLS = [f"{t}-{n}" for t in ("dungeon-role", "melee", "ranged", "agility", "wisdom") for n in (1, 2)]


@st.composite
def tokens(draw):
    from drunagor_log.interop.token import _ids

    ids = _ids()
    names = draw(st.lists(st.sampled_from(sorted(HEROES)), min_size=1, max_size=4, unique=True))
    used: set[str] = set()
    heroes = []
    for name in names:
        def card(pool):
            options = [c for c in pool if c not in used]
            c = draw(st.sampled_from(options)) if options else ""
            used.add(c)
            return c
        spoil = card(SPOILS)
        quality = draw(st.sampled_from(["", "improved-", "ultimate-"]))
        heroes.append({
            "heroId": draw(st.sampled_from(HEROES[name])), "campaignId": "",
            "equipment": {"weaponId": "", "offHandId": card(OFF_HANDS) if draw(st.booleans()) else "",
                          "armorId": "", "trinketId": card(TRINKETS) if draw(st.booleans()) else "",
                          "bagOneId": quality + spoil if spoil else "", "bagTwoId": card(CHEST)},
            "stashedCardIds": [], "skillIds": draw(st.lists(st.sampled_from(SKILLS), max_size=3, unique=True)),
            "dungeonRoleSkillCubeColors": {"rankOne": draw(st.sampled_from([None, "Red"])), "rankTwo": None},
            "sequentialAdventureState": None,
            "auraId": draw(st.sampled_from([None] + sorted(ids["auras"])[:5])), "outcomeIds": [],
            "statusIds": draw(st.lists(st.sampled_from(sorted(ids["hero_statuses"])), max_size=2, unique=True))})
    cd = {"campaignId": "", "campaign": "awakenings",
          "name": draw(st.text(st.characters(min_codepoint=32, max_codepoint=255, exclude_characters='"\\',
                                             exclude_categories=("Cc", "Cf")),
                               min_size=1, max_size=20).filter(lambda s: s.strip() and any(c.isalnum() for c in s))),
          "statusIds": draw(st.lists(st.sampled_from(sorted(ids["story_statuses"])), max_size=3, unique=True)),
          "outcomeIds": draw(st.lists(st.sampled_from(sorted(ids["outcomes"])), max_size=3, unique=True)),
          "followerIds": draw(st.lists(st.sampled_from(sorted(ids["followers"])), max_size=3, unique=True)),
          "unfoldingIds": [], "backgroundAndTraitIds": [],
          "legacyTrail": {"perseverance": 0, "tragedy": 0, "doom": 0, "heroism": draw(st.integers(0, 3))},
          "isSequentialAdventure": False, "sequentialAdventureRunes": 0}
    return {"campaignData": cd, "heroes": heroes}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=tokens())
def test_export_of_an_imported_token_gives_back_the_same_json(run, tmp_path, data):
    import shutil

    base = tmp_path / "campaigns"
    shutil.rmtree(base, ignore_errors=True)
    base.mkdir()
    roles = ["Support", "Controller", "Striker", "Defender"]
    flags = [x for i, h in enumerate(data["heroes"]) for x in ("--role", f"{h['heroId'].split('-')[0].capitalize().replace('Vacren', 'Vacrem')}={roles[i]}")]
    r = run("import", _tok(data), *flags, "--name", "generated")
    assert r.exit_code == 0, r
    out = run("-C", str(base / "generated"), "export", "--json")
    assert out.exit_code == 0, out
    assert json.loads(out.stdout) == data


def test_the_adventure_track_is_given_by_flags_after_the_heroes_join(run, campaigns):
    r = run("import", CURRENT, *ROLES, "--completed", "01-02", "--completed", "04", "--skipped", "3")
    assert r.exit_code == 0, r
    root = campaigns / "safeguard-corporation"
    story = (root / "story.toml").read_text()
    assert '"01" = "completed"\n"02" = "completed"\n"03" = "skipped"\n"04" = "completed"' in story
    assert 'joined = "01"' in (root / "heroes" / "nyx.toml").read_text()  # the party's own heroes, not recruits
    bad = run("import", CURRENT, *ROLES, "--completed", "1-x", "--name", "other")
    assert (bad.exit_code, bad.stderr) == (2, "error: --completed '1-x' is not a chapter or a range of chapters; "
                                              "write --completed 04 or --completed 01-04\n")

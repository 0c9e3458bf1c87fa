"""The apps' campaign token: the two checked examples of design/app-token.md, and every bad input."""

from __future__ import annotations

import base64
import json

import pytest

from drunagor_log.errors import DataError, RuleError
from drunagor_log.interop import token


def _tok(obj) -> str:
    return base64.b64encode(json.dumps(obj, separators=(",", ":")).encode("latin-1")).decode()


# The two checked example tokens of design/app-token.md (4.1 current form, 4.2 legacy form L2).
CURRENT = (
    "eyJjYW1wYWlnbkRhdGEiOnsiY2FtcGFpZ25JZCI6IiIsImNhbXBhaWduIjoiYXdha2VuaW5ncyIsIm5hbWUiOiJTYWZlZ3VhcmQg"
    "Q29ycG9yYXRpb24iLCJzdGF0dXNJZHMiOlsiaW1taW5lbnQtZGFuZ2VyIl0sIm91dGNvbWVJZHMiOlsiZHJpbmtpbmctcGFsIl0s"
    "ImZvbGxvd2VySWRzIjpbInZvcm4iXSwidW5mb2xkaW5nSWRzIjpbXSwiYmFja2dyb3VuZEFuZFRyYWl0SWRzIjpbXSwibGVnYWN5"
    "VHJhaWwiOnsicGVyc2V2ZXJhbmNlIjowLCJ0cmFnZWR5IjowLCJkb29tIjowLCJoZXJvaXNtIjowfSwiaXNTZXF1ZW50aWFsQWR2"
    "ZW50dXJlIjpmYWxzZSwic2VxdWVudGlhbEFkdmVudHVyZVJ1bmVzIjowfSwiaGVyb2VzIjpbeyJoZXJvSWQiOiJhbmRyZWFzLWNs"
    "ZXJpYyIsImNhbXBhaWduSWQiOiIiLCJlcXVpcG1lbnQiOnsid2VhcG9uSWQiOiJoYWNrLXNsYXNoIiwib2ZmSGFuZElkIjoiIiwi"
    "YXJtb3JJZCI6IiIsInRyaW5rZXRJZCI6IiIsImJhZ09uZUlkIjoiYXJ0aXNhbnMtdG9vbHMiLCJiYWdUd29JZCI6IiJ9LCJzdGFz"
    "aGVkQ2FyZElkcyI6W10sInNraWxsSWRzIjpbImR1bmdlb24tcm9sZS0xIl0sImR1bmdlb25Sb2xlU2tpbGxDdWJlQ29sb3JzIjp7"
    "InJhbmtPbmUiOiJZZWxsb3ciLCJyYW5rVHdvIjpudWxsfSwic2VxdWVudGlhbEFkdmVudHVyZVN0YXRlIjpudWxsLCJhdXJhSWQi"
    "OiJiYXN0aW9uIiwib3V0Y29tZUlkcyI6W10sInN0YXR1c0lkcyI6WyJoYXVudGVkIl19LHsiaGVyb0lkIjoiY2F0aGFyaW5hLW1h"
    "Z2UiLCJjYW1wYWlnbklkIjoiIiwiZXF1aXBtZW50Ijp7IndlYXBvbklkIjoiIiwib2ZmSGFuZElkIjoiIiwiYXJtb3JJZCI6IiIs"
    "InRyaW5rZXRJZCI6ImltcHJvdmVkLWdyaW1vaXJlIiwiYmFnT25lSWQiOiIiLCJiYWdUd29JZCI6IiJ9LCJzdGFzaGVkQ2FyZElk"
    "cyI6W10sInNraWxsSWRzIjpbIndpc2RvbS0xIl0sImR1bmdlb25Sb2xlU2tpbGxDdWJlQ29sb3JzIjp7InJhbmtPbmUiOm51bGws"
    "InJhbmtUd28iOm51bGx9LCJzZXF1ZW50aWFsQWR2ZW50dXJlU3RhdGUiOm51bGwsImF1cmFJZCI6bnVsbCwib3V0Y29tZUlkcyI6"
    "W10sInN0YXR1c0lkcyI6W119LHsiaGVyb0lkIjoibnl4LWFzc2Fzc2luIiwiY2FtcGFpZ25JZCI6IiIsImVxdWlwbWVudCI6eyJ3"
    "ZWFwb25JZCI6InR3aW4tYmxhZGVzIiwib2ZmSGFuZElkIjoiIiwiYXJtb3JJZCI6IiIsInRyaW5rZXRJZCI6IiIsImJhZ09uZUlk"
    "IjoiIiwiYmFnVHdvSWQiOiIifSwic3Rhc2hlZENhcmRJZHMiOltdLCJza2lsbElkcyI6WyJhZ2lsaXR5LTEiXSwiZHVuZ2VvblJv"
    "bGVTa2lsbEN1YmVDb2xvcnMiOnsicmFua09uZSI6bnVsbCwicmFua1R3byI6bnVsbH0sInNlcXVlbnRpYWxBZHZlbnR1cmVTdGF0"
    "ZSI6bnVsbCwiYXVyYUlkIjoidGhyb2F0LXNsaXR0ZXIiLCJvdXRjb21lSWRzIjpbXSwic3RhdHVzSWRzIjpbXX0seyJoZXJvSWQi"
    "OiJ2YWNyZW4td2FycmlvciIsImNhbXBhaWduSWQiOiIiLCJlcXVpcG1lbnQiOnsid2VhcG9uSWQiOiIiLCJvZmZIYW5kSWQiOiJo"
    "ZWF2eS1zaGllbGQiLCJhcm1vcklkIjoiIiwidHJpbmtldElkIjoiIiwiYmFnT25lSWQiOiJzY3JvbGwtb2YtcHJvdGVjdGlvbiIs"
    "ImJhZ1R3b0lkIjoiIn0sInN0YXNoZWRDYXJkSWRzIjpbImJ1Y2tsZXIiXSwic2tpbGxJZHMiOlsibWVsZWUtMSJdLCJkdW5nZW9u"
    "Um9sZVNraWxsQ3ViZUNvbG9ycyI6eyJyYW5rT25lIjpudWxsLCJyYW5rVHdvIjpudWxsfSwic2VxdWVudGlhbEFkdmVudHVyZVN0"
    "YXRlIjpudWxsLCJhdXJhSWQiOm51bGwsIm91dGNvbWVJZHMiOltdLCJzdGF0dXNJZHMiOlsiYWNxdWFpbnRhbmNlIl19XX0="
)
LEGACY = (
    "eyJjYW1wYWlnbiI6ImF3YWtlbmluZ3MiLCJuYW1lIjoiU2FmZWd1YXJkIENvcnBvcmF0aW9uIiwiaGVyb2VzIjpbeyJoZXJvSWQi"
    "OiJueXgtYXNzYXNzaW4iLCJjYW1wYWlnbklkIjoiIiwiZXF1aXBtZW50Ijp7IndlYXBvbklkIjoidHdpbi1ibGFkZXMiLCJvZmZI"
    "YW5kSWQiOiIiLCJhcm1vcklkIjoiIiwidHJpbmtldElkIjoiIiwiYmFnT25lSWQiOiIiLCJiYWdUd29JZCI6IiJ9LCJzdGFzaGVk"
    "Q2FyZElkcyI6W10sInNraWxsSWRzIjpbImFnaWxpdHktMSJdLCJhdXJhSWQiOm51bGwsIm91dGNvbWVJZHMiOltdLCJzdGF0dXNJ"
    "ZHMiOltdfV19"
)


def test_current_example_maps_every_id_to_drunagor_names():
    p = token.plan(token.decode(CURRENT))
    assert (p.form, p.party) == ("current", "Safeguard Corporation")
    assert (p.followers, p.outcomes, p.statuses, p.unknown) == (
        ("Vorn the Warrior",), ("Drinking Pal",), ("Imminent Danger",), ())
    assert [(h.name, h.cls) for h in p.heroes] == [
        ("Andreas", "Cleric"), ("Catharina", "Mage"), ("Nyx", "Assassin"), ("Vacrem", "Warrior")]
    andreas, catharina, nyx, vacrem = p.heroes
    assert [(i.name, i.kind, i.quality, i.place) for i in andreas.items] == [
        ("Hack-Slash", "spoils", "standard", "equipped"), ("Artisan's Tools", "consumable", None, "bag")]
    assert [(i.name, i.quality) for i in catharina.items] == [("Grimoire", "improved")]
    assert andreas.skills == (("role", 1),) and nyx.skills == (("agility", 1),)
    assert (andreas.aura, andreas.statuses) == ("Bastion", ("Haunted",))
    assert nyx.aura == "Throat Slitter" and vacrem.statuses == ("Acquaintance",)
    assert [(i.name, i.place, i.stashed) for i in vacrem.items] == [
        ("Heavy Shield", "equipped", False), ("Scroll of Protection", "bag", False), ("Buckler", "bag", True)]
    # kept verbatim for export: what drunagor does not model
    assert p.kept["legacyTrail"] == {"perseverance": 0, "tragedy": 0, "doom": 0, "heroism": 0}
    assert andreas.kept["dungeonRoleSkillCubeColors"] == {"rankOne": "Yellow", "rankTwo": None}


def test_legacy_example_reads_as_legacy_with_one_hero():
    p = token.plan(token.decode(LEGACY))
    assert (p.form, p.party, p.followers, p.outcomes, p.statuses) == ("legacy", "Safeguard Corporation", (), (), ())
    assert [(h.name, h.cls, h.skills) for h in p.heroes] == [("Nyx", "Assassin", (("agility", 1),))]


@pytest.mark.parametrize("tok", [CURRENT, LEGACY])
def test_encode_gives_back_the_apps_own_bytes(tok):
    assert token.encode(token.decode(tok)) == tok


def test_pasted_with_line_breaks_and_without_padding():
    broken = "\n".join(CURRENT.rstrip("=")[i:i + 76] for i in range(0, len(CURRENT.rstrip("=")), 76))
    assert token.decode("  " + broken + "\n") == token.decode(CURRENT)


def test_latin1_not_utf8():
    assert token.decode("eyJuYW1lIjoiQ2Fm6SJ9") == {"name": "Café"}  # the sheet's own example


@pytest.mark.parametrize("text, says", [
    ("", "the token is empty"),
    ("   \n ", "the token is empty"),
    ("eyJu-YW1l", "holds '-', which base64 does not use"),
    ("eyJuY", "its length cannot be base64 (cut short?)"),
    (base64.b64encode(b"not json").decode(), "the decoded text is not JSON"),
    (base64.b64encode(b"[]").decode(), "no campaignData, campaign or name in it"),
    (base64.b64encode(b"{}").decode(), "no campaignData, campaign or name in it"),
    ("A" * 1_000_000, "1,000,000 characters is far more than a campaign token holds"),
])
def test_unreadable_token_is_one_data_error(text, says):
    with pytest.raises(DataError) as exc:
        token.decode(text, source="paste")
    assert says in exc.value.message and exc.value.code == 3 and exc.value.file == "paste"


def test_truncated_token_is_refused():
    with pytest.raises(DataError) as exc:
        token.decode(CURRENT[:1000])
    assert "not JSON" in exc.value.message


def test_another_box_is_refused():
    with pytest.raises(RuleError) as exc:
        token.plan({"campaign": "core", "name": "Old", "heroes": []})
    assert exc.value.message == "the token's campaign is of the 'core' box, not an Awakenings campaign"


def test_core_hero_is_refused_and_other_products_need_a_class():
    data = {"campaignData": {"campaign": "awakenings", "name": "P"}, "heroes": [{"heroId": "vorn"}]}
    with pytest.raises(RuleError, match="Vorn is a core-box hero"):
        token.plan(data)
    data["heroes"] = [{"heroId": "arkhanos"}]
    with pytest.raises(RuleError) as exc:
        token.plan(data)
    assert "--class Arkhanos=CLASS" in exc.value.remedy
    assert [(h.name, h.cls) for h in token.plan(data, classes={"arkhanos": "Warlock"}).heroes] == [("Arkhanos", "Warlock")]


def test_two_variants_of_one_hero_are_refused():
    data = {"campaignData": {"campaign": "awakenings", "name": "P"},
            "heroes": [{"heroId": "nyx"}, {"heroId": "nyx-assassin"}]}
    with pytest.raises(RuleError, match="Nyx twice"):
        token.plan(data)


def test_unknown_ids_are_reported_with_their_place():
    data = {"campaignData": {"campaign": "awakenings", "name": "P", "followerIds": ["vorn", "karsten"],
                             "statusIds": ["pirates-gift"], "outcomeIds": ["pirate-s-gift"]},
            "heroes": [{"heroId": "nyx-assassin", "equipment": {"weaponId": "blooded-sword", "armorId": None},
                        "skillIds": ["melee-3"], "auraId": "", "statusIds": ["haunted"]}]}
    p = token.plan(data)
    assert p.unknown == (("Followers (followerIds)", "karsten"),
                         ("Story Record statuses (statusIds)", "pirates-gift"),
                         ("Outcomes (outcomeIds)", "pirate-s-gift"),
                         ("Nyx's equipment", "blooded-sword"), ("Nyx's skills", "melee-3"))
    assert p.heroes[0].statuses == ("Haunted",) and p.heroes[0].aura is None


def test_nested_heroes_only_in_the_official_apps_copy():
    data = {"campaignData": {"campaign": "awakenings", "name": "P", "heroes": [{"heroId": "nyx"}]}}
    assert [(h.name, h.cls) for h in token.plan(data).heroes] == [("Nyx", "Swordmage")]


def test_a_name_the_apps_cannot_encode_is_refused_with_the_character():
    with pytest.raises(RuleError) as exc:
        token.encode({"campaignData": {"name": "Captain\u2019s Crew"}})
    assert "the apps cannot carry the character '\u2019' (U+2019)" in exc.value.message
    assert token.encode({"name": "Café"}) == "eyJuYW1lIjoiQ2Fm6SJ9"


def test_every_app_name_is_a_catalog_name():
    from drunagor_log import catalog

    ids = token._ids()
    for table in ("followers", "outcomes", "story_statuses", "hero_statuses", "auras"):
        assert set(ids[table].values()) <= set(catalog.names(table)), table
    for ident in ids["items"]:
        name, kind, _ = token.item_of(ident)
        assert catalog.item_kind(name) is not None, name


@pytest.mark.parametrize("place, value, says", [
    (("heroes", 0, "heroId"), ["nyx"], "hero 1 ('[\"nyx\"]') has no heroId"),
    (("heroes", 0, "heroId"), {"id": 1}, "has no heroId"),
    (("campaignData", "name"), ["Safeguard"], "the party's name must be a text, not '[\"Safeguard\"]'"),
    (("heroes", 0, "auraId"), 7, "auraId must be an ID or null, not '7'"),
    (("heroes", 0, "equipment"), "hack-slash", "Andreas's equipment is not an object"),
    (("heroes", 0, "equipment", "weaponId"), {"x": 1}, "Andreas's equipment holds '{\"x\": 1}', not an item ID"),
])
def test_a_value_of_the_wrong_type_is_one_data_error(place, value, says):
    data = json.loads(base64.b64decode(CURRENT).decode("latin-1"))
    target = data
    for key in place[:-1]:
        target = target[key]
    target[place[-1]] = value
    with pytest.raises(DataError) as exc:
        token.plan(data)
    assert says in exc.value.message and exc.value.code == 3


def test_what_a_message_quotes_of_a_token_is_short_and_visible():
    assert token.shown("\x1b[2J" + "x" * 100) == "'U+001B[2J" + "x" * 36 + "…'"
    assert token.shown("Nyx\u202egnp.exe") == "'NyxU+202Egnp.exe'"

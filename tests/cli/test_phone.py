"""A hero's phone acting, in this process (cli/phone.py, serve/actions.py; SPEC 12): the form read as
the command's words, run through the command line's own tree as that hero, the answer in the command's
own words, the table event saying who, and `adventure undo` from a phone taking back only its own.
The server around it is tests/serve/test_phone.py."""

from __future__ import annotations

import json
import sys
import threading

import pytest

from drunagor_log.campaign import acting, actor
from drunagor_log.cli.phone import Phones, Routed, captured, phone_line, route
from drunagor_log.serve import actions


def words(form: dict[str, str]) -> tuple[str, list[str]]:
    return actions.words("Nyx", {"csrf": "t", **form})


def test_each_action_is_its_commands_words_for_the_hero_only():
    assert words({"action": "cube", "kind": "curse", "delta": "+1", "capacity": "5"}) == (
        "Curse Cube +1", ["cube", "--capacity=5", "--", "Nyx", "curse", "+1"])
    assert words({"action": "cube", "kind": "trauma", "delta": "-1"}) == (
        "Trauma Cube -1", ["cube", "--", "Nyx", "trauma", "-1"])
    assert words({"action": "recall"}) == ("Recall Action", ["recall", "--", "Nyx"])
    assert words({"action": "undo"}) == ("take back my last", ["adventure", "undo"])
    assert words({"action": "learn", "skill": "Shadow Step", "tree": "agility", "level": "1"}) == (
        "learns Shadow Step", ["hero", "learn", "--tree=agility", "--level=1", "--", "Nyx", "Shadow Step"])
    assert words({"action": "ability", "ability": "Shadow Dance"})[1] == ["hero", "ability", "--", "Nyx", "Shadow Dance"]
    assert words({"action": "gain", "card": "Buckler", "bag": "on"})[1] == ["hero", "gain", "--bag", "--", "Nyx",
                                                                            "Buckler"]
    assert words({"action": "aura", "aura": "Taunt"})[1] == ["hero", "aura", "--", "Nyx", "Taunt"]
    assert words({"action": "aura", "op": "clear"})[1] == ["hero", "aura", "--clear", "--", "Nyx"]
    assert words({"action": "status", "op": "remove", "status": "Haunted"})[1] == [
        "hero", "status", "--", "Nyx", "remove", "Haunted"]
    assert words({"action": "upgrade", "item": "Twin-Blades"})[1] == [
        "spoils", "upgrade", "--reward", "--", "Nyx", "Twin-Blades"]
    # a value that looks like an option stays a value: one word after its option, or after --
    assert words({"action": "cube", "kind": "--campaign=/etc", "delta": "-C", "capacity": "-C x"})[1] == [
        "cube", "--capacity=-C x", "--", "Nyx", "--campaign=/etc", "-C"]


@pytest.mark.parametrize(("form", "message"), [
    ({"action": "fly"}, "no action 'fly'; a hero's phone does cube, recall, undo, learn, ability, gain, aura, "
                        "status, upgrade"),
    ({}, "no action ''; a hero's phone does cube, recall, undo, learn, ability, gain, aura, status, upgrade"),
    ({"action": "cube", "kind": "curse"}, "cube needs the field 'delta'"),
    ({"action": "recall", "hero": "Vacrem"}, "recall takes no field 'hero'; it takes capacity"),
    ({"action": "undo", "campaign": "x"}, "undo takes no field 'campaign'; it takes none"),
    ({"action": "status", "status": "Haunted", "op": "toggle"}, "op is add or remove, not 'toggle'"),
    ({"action": "gain", "card": "Buckler", "bag": "maybe"}, "bag is a checkbox: on, or left out, not 'maybe'"),
])
def test_a_form_naming_no_command_is_a_usage_slip(form, message):
    with pytest.raises(actions.Refusal) as refused:
        words(form)
    assert str(refused.value) == message


def test_a_field_given_twice_or_too_many_fields():
    with pytest.raises(actions.Refusal, match="the field 'kind' is given twice"):
        actions.read([("kind", "a"), ("kind", "b")])
    with pytest.raises(actions.Refusal, match="more than 16 fields"):
        actions.read([(f"f{i}", "x") for i in range(17)])
    assert actions.read([("action", "recall"), ("capacity", "")]) == {"action": "recall"}  # empty: not given


def test_a_phones_cube_is_the_commands_write_with_by(example):
    said: list[str] = []
    phones = Phones(example, lambda name, label, answer: said.append(phone_line(name, label, answer)))
    before = (example / "adventure.toml").read_bytes()
    answer = phones.act("nyx", "Nyx", "Curse Cube +1", ["cube", "--capacity=5", "--", "Nyx", "curse", "+1"])
    line = "Nyx's Curse Cube capacity 5 recorded under [cards]; Nyx receives 1 Curse Cube: 1 held, 5 can be held"
    assert answer == {"ok": True, "exit": 0, "message": line, "lines": [line]}
    assert said == [f"Nyx (phone): Curse Cube +1: {line}"]
    text = (example / "adventure.toml").read_text()
    assert ('  { event = "cube", by = "nyx", hero = "Nyx", kind = "curse", delta = 1, count = 1, '
            'recorded = "Nyx: curse_capacity", text = "' + line + '" },\n') in text
    # another hero's phone cannot take it back; Nyx's can, and the file is as it was
    answer = phones.act("vacrem", "Vacrem", "take back my last", ["adventure", "undo"])
    assert (answer["ok"], answer["exit"]) == (False, 1)
    assert answer["message"].endswith("adventure.toml: undo: the last table event is not this hero's to take back (it "
                                      f"is Nyx's, from their phone: {line}); the scribe takes it back with "
                                      "`drunagor adventure undo`")
    assert said[-1] == "Vacrem (phone): take back my last: refused: " + answer["message"]
    answer = phones.act("nyx", "Nyx", "take back my last", ["adventure", "undo"])
    assert answer["ok"] and answer["message"] == f"took back 1 table event: cube: {line}"
    assert (example / "adventure.toml").read_bytes() == before
    # the scribe's own events say no `by`, and a phone cannot take them back
    assert phones.act("nyx", "Nyx", "take back my last", ["adventure", "undo"])["exit"] == 1


def test_what_the_command_prints_is_the_acting_threads_own():
    route()
    assert isinstance(sys.stdout, Routed) and isinstance(sys.stderr, Routed)
    seen: dict[str, str] = {}

    def other() -> None:
        with captured() as out:
            print("from the phone")
            print("its refusal", file=sys.stderr)
            assert not sys.stdout.isatty()
            seen["other"] = out.getvalue()

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert seen["other"] == "from the phone\nits refusal\n"


def test_acting_is_for_the_block_only():
    assert actor() is None
    with acting("nyx"):
        assert actor() == "nyx"
    assert actor() is None


def test_a_heros_qr_code_on_request_by_name_or_file_stem():
    from types import SimpleNamespace

    from drunagor_log.serve import Served

    board = SimpleNamespace(data={"heroes": [{"slug": "nyx", "name": "Nyx"}, {"slug": "vacrem", "name": "Vacrem"}]})
    served = Served("http://127.0.0.1:1/", "127.0.0.1", 1, None, None, board,  # type: ignore[arg-type]
                    {"nyx": "http://127.0.0.1:1/heroes/nyx?key=K", "vacrem": "http://127.0.0.1:1/heroes/vacrem?key=L"})
    for typed in ("nyx", " NYX\n", "Nyx"):
        found = served.hero_qr(typed)
        assert found is not None and found[0] == "nyx"
        assert set(found[1]) <= set("█▀▄ \n") and found[1].count("\n") > 10
    assert served.hero_qr("Andreas") is None and served.hero_qr("") is None


def test_the_sheets_say_who_recorded_an_event_from_their_phone(example):
    from drunagor_log import sheet
    from drunagor_log.campaign import Campaign

    phones = Phones(example)
    assert phones.act("nyx", "Nyx", "Trauma Cube +1", ["cube", "--", "Nyx", "trauma", "+1"])["ok"]
    with Campaign(example) as c:
        recent = sheet.view(c)["adventure"]["recent"]
    assert recent[-1] == {"event": "cube", "text": "Nyx receives 1 Trauma Cube: 1 held, 1 can be held", "by": "Nyx"}
    assert recent[-2]["by"] is None  # the scribe's


def test_adventure_show_says_whose_phone_recorded_an_event(example, run):
    assert Phones(example).act("nyx", "Nyx", "Trauma Cube +1", ["cube", "--", "Nyx", "trauma", "+1"])["ok"]
    r = run("-C", str(example), "adventure", "show")
    assert r.stdout.endswith("  cube (from Nyx's phone): Nyx receives 1 Trauma Cube: 1 held, 1 can be held\n")
    shown = json.loads(run("-C", str(example), "adventure", "show", "--json").stdout)
    assert shown["log"][-1] == {"event": "cube", "by": "nyx", "hero": "Nyx", "kind": "trauma", "delta": 1, "count": 1,
                                "text": "Nyx receives 1 Trauma Cube: 1 held, 1 can be held"}


def test_what_the_command_asks_besides_is_a_field_too():
    """`hero gain` refuses a Spoils card above Standard without `--reward` and `spoils upgrade` asks
    `--epic` or `--not-epic` of a card it does not know: a phone answers with the fields `reward` and
    `epic` (never `--force`, the scribe's correction)."""
    assert words({"action": "gain", "card": "War Bow", "quality": "ultimate", "reward": "on"})[1] == [
        "hero", "gain", "--quality=ultimate", "--reward", "--", "Nyx", "War Bow"]
    assert words({"action": "upgrade", "item": "Twin-Blades", "discard": "Lamp", "epic": "no"})[1] == [
        "spoils", "upgrade", "--discard=Lamp", "--not-epic", "--", "Nyx", "Twin-Blades"]
    assert words({"action": "upgrade", "item": "Twin-Blades", "discard": "Lamp", "epic": "yes"})[1][3] == "--epic"
    for form, message in (({"action": "upgrade", "item": "X", "epic": "maybe"}, "epic is yes or no, not 'maybe'"),
                          ({"action": "gain", "card": "X", "force": "on"}, "gain takes no field 'force'")):
        with pytest.raises(actions.Refusal, match=message):
            words(form)


def test_a_phone_gains_a_spoils_card_an_interlude_gave_above_standard(example, run):
    assert run("-C", str(example), "adventure", "end", "--won").exit_code == 0
    phones = Phones(example)
    label, said = actions.words("Andreas", {"action": "gain", "card": "War Bow", "quality": "ultimate"})
    refused = phones.act("andreas", "Andreas", label, said)
    assert (refused["exit"], "add --reward" in refused["message"]) == (1, True)
    label, said = actions.words("Andreas", {"action": "gain", "card": "War Bow", "quality": "ultimate",
                                            "reward": "on"})
    answer = phones.act("andreas", "Andreas", label, said)
    assert answer["lines"][0] == "Andreas gains War Bow (spoils, ultimate, equipped)"
    assert "Andreas received War Bow ultimate" in (example / "story.toml").read_text()

"""Issue 42's names: a card recorded with its kind is known (item 13), one spelling of a Pile (item 11),
completion offers only what the command takes (item 12)."""

from __future__ import annotations

from tests.helpers import ok


def test_a_card_recorded_with_its_kind_is_known_to_check(example, run):
    """The reproduction: `hero gain Nyx "Storm Mantle" --kind spoils` remembered it under [cards], and
    `check` still warned "unknown Spoils of the Hero card ... check the spelling" (an error under --strict)."""
    r = ok(run("hero", "gain", "Nyx", "Storm Mantle", "--kind", "spoils"))
    assert "remembered under [cards] in story.toml: Storm Mantle is a spoils card" in r.stdout
    r = run("check")
    assert r.exit_code == 0
    assert "unknown Spoils of the Hero card" not in r.stdout + r.stderr
    assert "Storm Mantle" in r.stdout  # only the rewards line: one Spoils more than the chapters give
    assert [line for line in r.stdout.splitlines() if "Storm Mantle" in line and "unknown-name" in line] == []


def test_a_spoils_card_nobody_stated_is_still_a_slip_of_the_spelling(example, run):
    nyx = example / "heroes" / "nyx.toml"
    nyx.write_text(nyx.read_text().replace(
        "equipment = [", 'equipment = [\n  { name = "Storm Mantle", kind = "spoils", quality = "standard" },', 1))
    r = run("check")
    assert ("heroes/nyx.toml:14: unknown-name: Nyx: unknown Spoils of the Hero card 'Storm Mantle'; check the "
            "spelling on the card (warning)") in r.stdout.replace("campaigns/example/", "")
    # stated as another kind of card: still not a known Spoils card
    story = example / "story.toml"
    story.write_text(story.read_text() + '\n[cards]\n"Storm Mantle" = { kind = "consumable" }\n'
                     if "[cards]" not in story.read_text() else story.read_text().replace(
                         "[cards]", '[cards]\n"Storm Mantle" = { kind = "consumable" }', 1))
    assert "unknown Spoils of the Hero card 'Storm Mantle'" in run("check").stdout
    ok(run("card", "set", "Storm Mantle", "--kind", "spoils", "--new"))  # the party states it: known from now on
    assert "unknown Spoils of the Hero card" not in run("check").stdout

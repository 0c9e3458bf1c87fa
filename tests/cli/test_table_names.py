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


def _ask(example, *words: str, incomplete: str = "") -> list[str]:
    from drunagor_log.cli import completion
    from drunagor_log.cli.app import build_app, command_typed

    args = ["-C", str(example), *words]
    return [v for v, _ in completion._candidates(build_app(command_typed(args)), args, incomplete)]


def test_a_pile_has_one_spelling_that_every_command_takes(example, run):
    """The reproduction: completion offered `pile-1` to `tiebreak` and `pile remove`, which refused it."""
    assert _ask(example, "tiebreak") == ["pile-1", "pile-2"]
    assert _ask(example, "pile", "remove") == ["pile-1", "pile-2"]
    assert _ask(example, "battalion", "Gremlin Horde", "--near") == ["pile-1", "pile-2"]
    from tests.conftest import snapshot

    before = snapshot(example)
    said = []
    for typed in ("pile-1", "1", "Pile 1", "PILE_1"):
        r = ok(run("tiebreak", typed, "--runes", "blue,green"))
        said.append(r.stdout)
        assert "from Pile 1 back to the bag" in r.stdout
        ok(run("adventure", "undo"))
        assert snapshot(example) == before
    assert len(set(said)) == 1
    r = ok(run("pile", "remove", "pile-2"))
    assert r.stdout.startswith("Pile 2 off the board")
    assert _ask(example, "tiebreak") == ["pile-1"]
    ok(run("pile", "remove", "pile-1"))
    ok(run("pile", "add", "--runes", "red,gray"))
    import tomllib

    ids = [p["id"] for p in tomllib.loads((example / "adventure.toml").read_text())["piles"]]
    assert _ask(example, "tiebreak") == [f"pile-{i}" for i in ids]  # the ids on the board, not a count
    r = run("tiebreak", "pile-9", "--runes", "red")
    assert r.exit_code == 1 and f"no Pile of Runes 'pile-9' on the board (Piles: {ids[0]})" in r.stderr


def test_completion_offers_only_what_the_command_takes(example):
    # not the Epic Rare pair to chest add (the pair is fixed, RB L345)
    offered = _ask(example, "chest", "add")
    assert "Potion of Healing" in offered
    assert "Artisan's Tools" not in offered and "Treasure Trove" not in offered
    # spoils upgrade HERO: the Spoils cards below Ultimate, not Starting Gear, Potions or the Tools
    assert _ask(example, "spoils", "upgrade", "Vacrem") == ["Heavy Shield"]
    # --discard: the cards of the bag that may be disposed of (RB L413-419), also after other options
    assert _ask(example, "spoils", "upgrade", "Vacrem", "Heavy Shield", "--discard") == ["Captain's Brooch"]
    assert _ask(example, "spoils", "upgrade", "--to", "improved", "Vacrem", "Heavy Shield",
                "--discard") == ["Captain's Brooch"]
    # tiebreak PILE --runes: the colours that Pile holds
    assert _ask(example, "tiebreak", "pile-1", "--runes") == ["blue", "green", "orange"]
    assert _ask(example, "tiebreak", "1", "--runes", incomplete="blue,") == ["blue,blue", "blue,green", "blue,orange"]
    assert _ask(example, "tiebreak", "--runes") == ["red", "blue", "green", "orange", "gray"]  # no Pile named yet

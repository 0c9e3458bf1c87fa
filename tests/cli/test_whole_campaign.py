"""A whole campaign, chapters 01 to 09, played through the commands only (no file is edited): a lost
attempt, a skipped chapter, a hero who leaves and returns, a recruit, the house rule of a fifth hero, the
Camp phase, and the Spoils upgrade owed as a reward from chapter 08 on (RB L1015-1016) recorded with
`spoils upgrade --reward`. It ends with `check --strict` clean and nothing owed (SPEC 10).

In process (the `run` fixture), so the whole evening takes about a second."""

from __future__ import annotations

import json

from tests.conftest import snapshot
from tests.helpers import ok

ZERO = {"level1_skills": 0, "level2_skills": 0, "class_abilities": 0, "spoils": 0, "spoils_upgrades": 0}
SPOILS = (["Twin-Blades", "Chaos Staff", "Astral Symbol", "Heavy Shield", "War Bow", "Hack-Slash", "Buckler",
               "Arcabalest", "Cleavescythe", "Holy Aegis", "Skull Piercer", "Battle Plate", "Exquisite Mail",
               "Mystic's Robe", "Quilted Doublet", "Rogue's Vest", "Accuracy Ring", "Cornucopia", "Grimoire",
               "Tracker Boots"])


def shown(run, hero: str) -> dict:
    return json.loads(ok(run("hero", "show", hero, "--json")).stdout)


def heroes(run) -> list[dict]:
    return [h for h in json.loads(ok(run("hero", "list", "--json")).stdout)["heroes"] if not h["retired"]]


class Party:
    """What the players record: each reward by the command it takes, a name of their own for each skill
    and Class Ability, a Spoils card none holds yet for each Spoils reward."""

    def __init__(self, run):
        self.run = run
        self.spoils = iter(SPOILS)
        self.held: dict[str, list[str]] = {}  # the Spoils cards each hero was given
        self.names = 0

    def settle(self) -> None:
        """Record every reward each hero of the party is owed; then nobody owes anything."""
        for h in heroes(self.run):
            self._record(h["name"], h["owes"])
        assert all(h["owes"] == ZERO for h in heroes(self.run))

    def _record(self, hero: str, owes: dict) -> None:
        run = self.run
        for level in (1, 2):
            for _ in range(owes[f"level{level}_skills"]):
                ok(run("hero", "learn", hero, self._name("skill"), "--tree", "melee", "--level", str(level)))
        for _ in range(owes["class_abilities"]):
            ok(run("hero", "ability", hero, self._name("ability")))
        for _ in range(owes["spoils"]):
            card = next(self.spoils)
            ok(run("hero", "gain", hero, card, "--bag"))
            self.held.setdefault(hero, []).append(card)
        for _ in range(owes["spoils_upgrades"]):
            r = ok(run("spoils", "upgrade", hero, self.held[hero][-1], "--reward"))  # one they still hold
            assert "the Spoils upgrade owed as a reward (Rulebook: One-Shot Adventures, L1015-1016; nothing disposed of)" in r.stdout

    def _name(self, what: str) -> str:
        self.names += 1
        return f"{what} {self.names}"


def play(run, chapter: str, *events: tuple[str, ...], start: tuple[str, ...] = ()) -> None:
    """An adventure won, with some table events on the way."""
    r = ok(run("adventure", "start", *start))
    assert r.stdout.startswith(f"chapter {chapter},")
    for event in events:
        ok(run(*event))
    r = ok(run("adventure", "end", "--won"))
    assert r.stdout.startswith(f"chapter {chapter} completed")


def test_a_whole_campaign_through_the_commands_only(run, tmp_path):
    players = Party(run)
    ok(run("new", "sgc", "--party", "Safeguard Corporation"))
    root = tmp_path / "campaigns" / "sgc"
    ok(run("rules", "set", "--max-heroes", "5"))  # Hero Pack #1 on the table: a fifth hero may join (RB L943)
    for hero, role, gear in (("Andreas", "Support", ("Wooden Staff", "Cloth Armor")),
                             ("Catharina", "Controller", ("Wooden Staff", "Cloth Armor")),
                             ("Nyx", "Striker", ("Blooded Sword", "Leather Armor")),
                             ("Vacrem", "Defender", ("Jagged Blade Axe", "Plate Armor"))):
        ok(run("hero", "add", hero, "--role", role, "--gear", gear[0], "--gear", gear[1]))
    ok(run("leader", "Andreas"))

    play(run, "01", ("pile", "add"), ("draw", "--seed", "1"))
    players.settle()

    # chapter 02: the first attempt is lost; nothing more happens at the table until it is recorded
    ok(run("adventure", "start", "--models", "4"))  # the Nightmare raid's Night Stalker models, asked once
    assert "the adventure fails" in ok(run("cube", "Nyx", "trauma", "+2")).stdout
    before = snapshot(root)
    r = run("draw")
    assert (r.exit_code, r.stderr.startswith("error: campaigns/sgc/adventure.toml: adventure: the adventure is "
                                             "lost: drunagor adventure end --lost")) == (1, True)
    assert snapshot(root) == before
    assert run("camp").exit_code == 1  # the Camp phase waits for the end of the adventure
    ok(run("adventure", "end", "--lost"))
    play(run, "02")
    players.settle()

    ok(run("hero", "status", "Nyx", "add", "Haunted"))
    assert ok(run("camp")).stdout.startswith("Camp phase: the Campaign Log statuses go:\n  Nyx: Haunted\n")
    # chapter 03 past "Cutscene - Nightmare Come True": the Harvester's Hunt card ends the round (RB L1142)
    play(run, "03", ("pile", "add"), ("monster", "add", "Gremlin Horde"),
         ("round", "end", "--draws", "1", "--seed", "1"), ("round", "end", "--draws", "1", "--seed", "2"),
         ("round", "end", "--seed", "3"),
         ("round", "end", "--draws", "1", "--seed", "4"))
    assert '"Harvester\'s Hunt" = { draws_a = 1 }' in (root / "story.toml").read_text()
    players.settle()

    ok(run("hero", "remove", "Vacrem"))  # Vacrem's player is away for a while
    ok(run("adventure", "start"))  # chapter 04: the Naval Raid card resolved from the card, then flipped (RB L1171)
    ok(run("adventure", "event", "naval-raid-flip"))
    assert json.loads(ok(run("adventure", "show", "--json")).stdout)["raid"]["face"] == "B"
    ok(run("adventure", "end", "--lost"))
    ok(run("chapter", "skip", "04"))  # skipped after a failed attempt: no rewards (RB L1084)
    ok(run("hero", "add", "Kellan", "--role", "Leader", "--class", "Paladin", "--gear", "Blooded Sword", "--gear",
           "Plate Armor"))  # a recruit before chapter 05 (RB L1005-1016)
    players.settle()
    play(run, "05", ("pile", "add"), ("odds",), ("raid", "--seed", "2"))
    players.settle()

    r = ok(run("hero", "return", "Vacrem"))  # back before chapter 06, the fifth hero
    assert "Starting Gear: 0 of 2 recorded (Rulebook: Recruiting a New Hero to Your Party, L989)" in r.stdout  # his went back to the box (RB L972-974)
    for gear in ("Jagged Blade Axe", "Plate Armor"):
        ok(run("hero", "gain", "Vacrem", gear, "--kind", "starting"))
    assert len(heroes(run)) == 5
    players.settle()
    play(run, "06")
    players.settle()
    # chapter 07: each Siege Monster's models asked once, then the first of its kind activates (RB L1237)
    play(run, "07", ("monster", "add", "Vicious Mauler", "--models", "1"),
         ("battalion", "Vicious Mauler", "--near", "the tavern"),
         ("battalion", "Vile Spawn", "Vile Spawn", "Vile Spawn", "--models", "2", "--near", "the tavern"))
    assert '"Vicious Mauler" = { model_count = 1 }' in (root / "story.toml").read_text()
    assert '"Vile Spawn" = { model_count = 2 }' in (root / "story.toml").read_text()  # asked by the battalion
    assert all(h["owes"]["spoils_upgrades"] == 1 for h in heroes(run))  # the row of 08 (RB L1015)
    players.settle()
    play(run, "08", start=("--models", "2"))  # the Fell Woodman raid's Hellspawn Brutes, asked once
    players.settle()

    ok(run("adventure", "start"))
    ok(run("adventure", "event", "endgame"))  # RB L1309
    r = ok(run("adventure", "end", "--won"))
    assert "Baptism of Fire" in r.stdout
    players.settle()

    camp = ok(run("camp")).stdout
    assert "The campaign is finished: no adventure is left to prepare the Chest deck for" in camp
    assert "may be changed" not in camp
    r = run("check", "--strict")
    assert (r.exit_code, r.stdout, r.stderr) == (0, "", ""), r
    party = heroes(run)
    assert [h["name"] for h in party] == ["Andreas", "Catharina", "Kellan", "Nyx", "Vacrem"]
    assert all(h["owes"] == ZERO for h in party)
    story = json.loads(ok(run("show", "--json")).stdout)
    assert story["track"] == {"01": "completed", "02": "completed", "03": "completed", "04": "skipped",
                              "05": "completed", "06": "completed", "07": "completed", "08": "completed",
                              "09": "completed"}
    upgrades = [u for h in party for u in shown(run, h["name"])["upgrades"]]
    assert len(upgrades) == 5 and all(u["reward"] and u["discarded"] is None for u in upgrades)

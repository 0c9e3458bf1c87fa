"""The three-way merge of TOML values (store/merge.py): the merge table case by case with exact
output, then properties over generated campaign-like files (Hypothesis)."""

from __future__ import annotations

import copy
import textwrap
import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drunagor_log.store.merge import ABSENT, Conflict, MergeError, merge_text


def d(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


STORY = d("""
    schema = 1
    party = "Safeguard Corporation"
    leader = "Andreas"              # Party Leader: breaks the ties

    followers = ["Vorn the Warrior"]
    outcomes = [
      "Drinking Pal",
      "Full House",
    ]

    [track]                         # Adventure Track
    "01" = "completed"
    "02" = "completed"

    [cards]                         # facts we recorded once
    "Potion of Haste" = { type = "potion", rarity = "uncommon" }

    [git]
    autocommit = false
    """)


def edit(text: str, *pairs: tuple[str, str]) -> str:
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def sides(text: str, which: int) -> str:
    """The file with every conflict decided for side 0 (mine) or 1 (theirs), from its markers."""
    out, part = [], None
    for line in text.splitlines(keepends=True):
        if line.startswith("<<<<<<< "):
            part = 0
        elif line == "=======\n" and part is not None:
            part = 1
        elif line.startswith(">>>>>>> "):
            part = None
        elif part is None or part == which:
            out.append(line)
    return "".join(out)


# ------------------------------------------------------------------------------ the merge table


def test_chapters_05_and_06_against_05_merge_chapter_by_chapter():
    mine = edit(STORY, ('"02" = "completed"\n', '"02" = "completed"\n"03" = "completed"\n'))
    theirs = edit(STORY, ('"02" = "completed"\n', '"02" = "completed"\n"03" = "completed"\n"04" = "skipped"\n'))
    merged = merge_text(STORY, mine, theirs)
    assert (merged.conflicts, merged.markers) == ((), False)
    assert merged.text == theirs


def test_two_followers_added_at_once_mine_first():
    mine = edit(STORY, ('followers = ["Vorn the Warrior"]', 'followers = [\n  "Vorn the Warrior",\n  "Maya the Ranger",\n]'))
    theirs = edit(STORY, ('followers = ["Vorn the Warrior"]', 'followers = [\n  "Vorn the Warrior",\n  "Lorelai the Mage",\n]'))
    merged = merge_text(STORY, mine, theirs)
    assert merged.conflicts == ()
    assert merged.text == edit(STORY, ('followers = ["Vorn the Warrior"]',
                                       'followers = [\n  "Vorn the Warrior",\n  "Maya the Ranger",\n  "Lorelai the Mage",\n]'))


def test_a_one_line_list_that_grows_on_both_sides_becomes_one_entry_a_line():
    mine = edit(STORY, ('followers = ["Vorn the Warrior"]', 'followers = ["Vorn the Warrior", "Maya the Ranger"]'))
    theirs = edit(STORY, ('followers = ["Vorn the Warrior"]', 'followers = ["Vorn the Warrior", "Minerva"]'))
    assert merge_text(STORY, mine, theirs).text == edit(STORY, (
        'followers = ["Vorn the Warrior"]', 'followers = [\n  "Vorn the Warrior",\n  "Maya the Ranger",\n  "Minerva",\n]'))


def test_additions_and_removals_of_both_sides():
    mine = edit(STORY, ('  "Drinking Pal",\n', ''), ('  "Full House",\n', '  "Full House",\n  "Ancient Book",\n'))
    theirs = edit(STORY, ('  "Full House",\n', '  "Full House",\n  "Promised Reward",\n'),
                  ('followers = ["Vorn the Warrior"]', 'followers = []'))
    merged = merge_text(STORY, mine, theirs)
    assert merged.conflicts == ()
    assert merged.text == edit(STORY, ('followers = ["Vorn the Warrior"]', 'followers = []'),
                               ('  "Drinking Pal",\n  "Full House",\n',
                                '  "Full House",\n  "Ancient Book",\n  "Promised Reward",\n'))


def test_the_same_record_on_both_sides_is_kept_once():
    mine = edit(STORY, ('"02" = "completed"\n', '"02" = "completed"\n"03" = "completed"\n'),
                ('  "Full House",\n', '  "Full House",\n  "Ancient Book",\n'), ('party = "Safeguard Corporation"', 'party = "Crew"'))
    theirs = edit(STORY, ('"02" = "completed"\n', '"02" = "completed"\n"03" = "completed"\n'),
                  ('  "Full House",\n', '  "Full House",\n  "Ancient Book",\n'), ('leader = "Andreas"', 'leader = "Nyx"'))
    merged = merge_text(STORY, mine, theirs)
    assert merged.conflicts == ()
    assert merged.text == edit(mine, ('leader = "Andreas"', 'leader = "Nyx"'))


HERO = d("""
    schema = 1
    name = "Nyx"
    statuses = []
    skills = [
      { name = "Agility 1", tree = "agility", level = 1, chapter = "01" },
    ]
    equipment = [
      { name = "Blooded Sword", kind = "starting", place = "equipped" },
      { name = "Twin-Blades", kind = "spoils", quality = "standard", place = "equipped" },
    ]
    """)


def test_one_side_changes_an_entry_the_other_adds_one():
    mine = edit(HERO, ('quality = "standard", place = "equipped"', 'quality = "standard", place = "bag"'))
    theirs = edit(HERO, ('place = "equipped" },\n]', 'place = "equipped" },\n  { name = "Buckler", kind = "spoils", quality = "standard", place = "equipped" },\n]'))
    merged = merge_text(HERO, mine, theirs)
    assert merged.conflicts == ()
    assert merged.text == edit(theirs, ('quality = "standard", place = "equipped" },\n  { name = "Buckler"',
                                        'quality = "standard", place = "bag" },\n  { name = "Buckler"'))


def test_two_fields_of_one_entry_changed_on_each_side_merge_field_by_field():
    mine = edit(HERO, ('quality = "standard", place = "equipped"', 'quality = "standard", place = "bag"'))
    theirs = edit(HERO, ('quality = "standard", place = "equipped"', 'quality = "improved", place = "equipped"'))
    merged = merge_text(HERO, mine, theirs)
    assert merged.conflicts == ()
    assert merged.text == edit(HERO, ('quality = "standard", place = "equipped"', 'quality = "improved", place = "bag"'))


def test_one_field_changed_two_ways_marks_that_entry_line_only():
    mine = edit(HERO, ('quality = "standard", place = "equipped"', 'quality = "standard", place = "bag"'),
                ('statuses = []', 'statuses = ["Haunted"]'))
    theirs = edit(HERO, ('quality = "standard", place = "equipped"', 'quality = "standard", place = "nowhere"'))
    merged = merge_text(HERO, mine, theirs)
    assert merged.conflicts == (Conflict(("equipment", "Twin-Blades", "place"), "equipped", "bag", "nowhere"),)
    assert merged.markers
    assert merged.text == edit(mine, (
        '  { name = "Twin-Blades", kind = "spoils", quality = "standard", place = "bag" },\n',
        ('<<<<<<< mine\n  { name = "Twin-Blades", kind = "spoils", quality = "standard", place = "bag" },\n=======\n'
        '  { name = "Twin-Blades", kind = "spoils", quality = "standard", place = "nowhere" },\n>>>>>>> theirs\n')))
    assert merge_text(HERO, mine, theirs, prefer="mine").text == sides(merged.text, 0) == mine
    assert merge_text(HERO, mine, theirs, prefer="theirs").text == sides(merged.text, 1)
    assert not merge_text(HERO, mine, theirs, prefer="theirs").markers


def test_an_entry_removed_on_one_side_and_changed_on_the_other_is_a_conflict():
    mine = edit(HERO, ('  { name = "Twin-Blades", kind = "spoils", quality = "standard", place = "equipped" },\n', ''))
    theirs = edit(HERO, ('quality = "standard", place = "equipped"', 'quality = "standard", place = "bag"'))
    merged = merge_text(HERO, mine, theirs, marker_size=9)
    assert [c.path for c in merged.conflicts] == [("equipment", "Twin-Blades")]
    assert merged.conflicts[0].mine is ABSENT
    assert merged.text == edit(mine, ('place = "equipped" },\n]', ('place = "equipped" },\n<<<<<<<<< mine\n=========\n'
                                      '  { name = "Twin-Blades", kind = "spoils", quality = "standard", place = "bag" },\n'
                                      '>>>>>>>>> theirs\n]')))


def test_a_scalar_changed_two_ways_keeps_its_comment_and_marks_its_line_only():
    mine = edit(STORY, ('leader = "Andreas" ', 'leader = "Nyx"     '), ('"02" = "completed"\n', '"02" = "completed"\n"03" = "completed"\n'))
    theirs = edit(STORY, ('leader = "Andreas" ', 'leader = "Vacrem"  '), ('outcomes = [', 'outcomes = [\n  "Ancient Book",'))
    merged = merge_text(STORY, mine, theirs, labels=("HEAD", "origin/main"))
    assert merged.conflicts == (Conflict(("leader",), "Andreas", "Nyx", "Vacrem"),)
    lines = merged.text.splitlines()
    start = lines.index("<<<<<<< HEAD")
    assert lines[start:start + 5] == ["<<<<<<< HEAD", 'leader = "Nyx"                  # Party Leader: breaks the ties',
                                      "=======", 'leader = "Vacrem"               # Party Leader: breaks the ties',
                                      ">>>>>>> origin/main"]
    assert '"03" = "completed"' in merged.text and '"Ancient Book",' in merged.text
    assert merged.text.count("<<<<<<<") == 1


def test_one_chapter_recorded_two_ways_is_a_conflict_on_that_line():
    mine = edit(STORY, ('"02" = "completed"\n', '"02" = "completed"\n"03" = "completed"\n'))
    theirs = edit(STORY, ('"02" = "completed"\n', '"02" = "completed"\n"03" = "skipped"\n"04" = "completed"\n'))
    merged = merge_text(STORY, mine, theirs)
    assert merged.conflicts == (Conflict(("track", "03"), ABSENT, "completed", "skipped"),)
    assert '"02" = "completed"\n<<<<<<< mine\n"03" = "completed"\n=======\n"03" = "skipped"\n>>>>>>> theirs\n' \
           '"04" = "completed"\n' in merged.text


def test_keys_removed_added_and_new_tables():
    mine = edit(STORY, ('leader = "Andreas"              # Party Leader: breaks the ties\n', ''))
    theirs = edit(STORY, ('outcomes = [', 'statuses = ["Imminent Danger"]\noutcomes = ['),
                  ('[git]', '[failures]\n"03" = 1\n\n[git]'))
    merged = merge_text(STORY, mine, theirs)
    assert merged.conflicts == ()
    assert merged.text == edit(theirs, ('leader = "Andreas"              # Party Leader: breaks the ties\n', ''))


def test_card_facts_merge_key_by_key():
    mine = edit(STORY, ('"Potion of Haste" = { type = "potion", rarity = "uncommon" }',
                        '"Potion of Haste" = { type = "potion", rarity = "uncommon", epic = false }'))
    theirs = edit(STORY, ('"Potion of Haste" = { type = "potion", rarity = "uncommon" }',
                          ('"Potion of Haste" = { type = "potion", rarity = "uncommon", position = "red-top" }\n'
                          '"Haste" = { position = "blue-top" }')))
    merged = merge_text(STORY, mine, theirs)
    assert merged.conflicts == ()
    assert ('"Potion of Haste" = { type = "potion", rarity = "uncommon", epic = false, position = "red-top" }\n'
            '"Haste" = { position = "blue-top" }\n') in merged.text


def test_the_log_merges_both_sides_entries_mine_first():
    base = d("""
        schema = 1
        log = [
          { event = "start", text = "chapter 05 under way" },
        ]
        """)
    mine = base.replace("way\" },\n", "way\" },\n  { event = \"draw\", runes = \"blue\", seed = 1 },\n")
    theirs = base.replace("way\" },\n", "way\" },\n  { event = \"raid\", face = \"A\" },\n")
    merged = merge_text(base, mine, theirs)
    assert merged.conflicts == ()
    assert merged.text == mine.replace("seed = 1 },\n", "seed = 1 },\n  { event = \"raid\", face = \"A\" },\n")


def test_the_adventure_under_way_is_never_merged_value_by_value():
    base = d("""
        schema = 1
        chapter = "05"
        bag = { red = 2, blue = 1 }
        log = []
        """)
    mine = base.replace("red = 2", "red = 1")
    theirs = base.replace("blue = 1", "blue = 0")
    merged = merge_text(base, mine, theirs, whole=True)
    assert merged.markers and merged.conflicts == (Conflict((), ABSENT, ABSENT, ABSENT),)
    assert merged.text == ('schema = 1\nchapter = "05"\n<<<<<<< mine\nbag = { red = 1, blue = 1 }\n=======\n'
                           'bag = { red = 2, blue = 0 }\n>>>>>>> theirs\nlog = []\n')
    assert merge_text(base, mine, theirs, whole=True, prefer="theirs").text == theirs
    assert merge_text(base, base, theirs, whole=True).text == theirs  # one side only: that side
    assert merge_text(base, mine, mine.replace("log = []", "log  =  []"), whole=True).text == mine  # same values


def test_a_file_both_sides_created():
    hero = d("""
        schema = 1
        name = "Zed"
        skills = []
        """)
    assert merge_text("", hero, hero).text == hero
    merged = merge_text("", hero, hero.replace("skills = []", 'skills = ["Melee 1"]'))  # lists: both additions
    assert (merged.conflicts, merged.text) == ((), hero.replace("skills = []", 'skills = ["Melee 1"]'))
    merged = merge_text("", hero.replace("Zed", "Zed the Bold"), hero.replace("Zed", "Zedd"))
    assert merged.conflicts == (Conflict(("name",), ABSENT, "Zed the Bold", "Zedd"),)


def test_a_version_that_is_not_toml_is_refused():
    with pytest.raises(MergeError, match="theirs is not valid TOML"):
        merge_text(STORY, STORY.replace("Andreas", "Nyx"), STORY + "<<<<<<< HEAD\n")


# ---------------------------------------------------------------------------------- properties

NAMES = ["Vorn the Warrior", "Maya the Ranger", "Lorelai the Mage", "Minerva", "Elros the Assassin"]
ITEMS = ["Twin-Blades", "Buckler", "Heavy Shield", "Potion of Healing", "Chaos Staff"]
CARDS = ["Potion of Haste", "Scroll of Beguile", "Haste"]
CHAPTERS = [f"{n:02d}" for n in range(1, 10)]


@st.composite
def campaigns(draw) -> dict:
    n = draw(st.integers(0, 5))
    return {
        "party": draw(st.sampled_from(["Safeguard", "Band", "Crew"])),
        "count": draw(st.integers(0, 3)),
        "followers": draw(st.lists(st.sampled_from(NAMES), unique=True, max_size=4)),
        "outcomes": draw(st.lists(st.sampled_from(NAMES), unique=True, max_size=3)),
        "track": {ch: draw(st.sampled_from(["completed", "skipped"])) for ch in CHAPTERS[:n]},
        "cards": {c: {"rarity": draw(st.sampled_from(["common", "rare"])), "copies": draw(st.integers(1, 2))}
                  for c in draw(st.lists(st.sampled_from(CARDS), unique=True, max_size=3))},
        "equipment": [{"name": i, "place": draw(st.sampled_from(["bag", "equipped"]))}
                      for i in draw(st.lists(st.sampled_from(ITEMS), unique=True, max_size=4))],
    }


def q(s: str) -> str:
    return '"' + s + '"'


def render(c: dict) -> str:
    """A file as drunagor writes them: comments, one entry a line from two entries on."""
    def names(key: str) -> str:
        values = c[key]
        if len(values) < 2:
            return f"{key} = [{', '.join(map(q, values))}]\n"
        return f"{key} = [\n" + "".join(f"  {q(v)},\n" for v in values) + "]\n"

    out = ["schema = 1\n", f"party = {q(c['party'])}   # the party's name\n", f"count = {c['count']}\n", "\n",
           names("followers"), names("outcomes"), "\n[track]                 # Adventure Track\n"]
    out += [f"{q(ch)} = {q(state)}\n" for ch, state in c["track"].items()]
    out += ["\n[cards]\n"] + [f"{q(k)} = {{ rarity = {q(v['rarity'])}, copies = {v['copies']} }}\n"
                              for k, v in c["cards"].items()]
    out += ["\n[hero]\n", "equipment = [\n"] + [f"  {{ name = {q(e['name'])}, place = {q(e['place'])} }},\n"
                                               for e in c["equipment"]] + ["]\n"]
    return "".join(out)


@st.composite
def edits(draw, base: dict) -> list[tuple]:
    """Changes a player could make to `base`, each at one place: (place, how)."""
    out = []
    for _ in range(draw(st.integers(0, 5))):
        kind = draw(st.sampled_from(["party", "count", "list", "track", "card", "item"]))
        if kind in ("party", "count"):
            out.append(((kind,), draw(st.sampled_from(["Safeguard", "Band", "Crew", "Horde"]) if kind == "party"
                                       else st.integers(0, 9))))
        elif kind == "list":
            key, name = draw(st.sampled_from(["followers", "outcomes"])), draw(st.sampled_from(NAMES))
            out.append(((key, name), name not in base[key]))  # add it, or remove it
        elif kind == "track":
            out.append((("track", draw(st.sampled_from(CHAPTERS[:6]))), draw(st.sampled_from(["completed", "skipped", None]))))
        elif kind == "card":
            out.append((("cards", draw(st.sampled_from(CARDS))),
                        draw(st.none() | st.fixed_dictionaries({"rarity": st.sampled_from(["common", "uncommon"]),
                                                                "copies": st.integers(1, 3)}))))
        else:
            out.append((("equipment", draw(st.sampled_from(ITEMS))), draw(st.sampled_from(["bag", "equipped", None]))))
    places = [p for p, _ in out]
    return [e for i, e in enumerate(out) if e[0] not in places[:i]]  # one change a place


def apply(base: dict, changes: list[tuple]) -> dict:
    c = copy.deepcopy(base)
    for place, how in changes:
        if place[0] in ("party", "count"):
            c[place[0]] = how
        elif place[0] in ("followers", "outcomes"):
            if how and place[1] not in c[place[0]]:
                c[place[0]].append(place[1])
            elif not how and place[1] in c[place[0]]:
                c[place[0]].remove(place[1])
        elif place[0] in ("track", "cards"):
            if how is None:
                c[place[0]].pop(place[1], None)
            else:
                c[place[0]][place[1]] = how
        else:
            entry = next((e for e in c["equipment"] if e["name"] == place[1]), None)
            if how is None:
                if entry:
                    c["equipment"].remove(entry)
            elif entry:
                entry["place"] = how
            else:
                c["equipment"].append({"name": place[1], "place": how})
    return c


def values(text: str) -> dict:
    """Plain values, lists as sets: the order a merge gives additions is tested case by case above."""
    data = tomllib.loads(text)
    data["followers"], data["outcomes"] = sorted(data["followers"]), sorted(data["outcomes"])
    data["hero"]["equipment"] = sorted(data["hero"]["equipment"], key=lambda e: e["name"])
    return data


def plain(c: dict) -> dict:
    return values(render(c))


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.data())
def test_a_version_merged_with_itself_or_an_unchanged_base_gives_the_other_side_exactly(data):
    x = render(data.draw(campaigns()))
    y = render(data.draw(campaigns()))
    assert merge_text(x, x, y).text == y
    assert merge_text(x, y, x).text == y
    assert merge_text(x, y, y).text == y
    assert merge_text(x, x, y, whole=True).text == y


@SETTINGS
@given(st.data())
def test_changes_at_different_places_and_the_same_changes_alike_merge_into_both(data):
    base = data.draw(campaigns())
    shared = data.draw(edits(base))
    mine_only = [e for e in data.draw(edits(base)) if e[0] not in [p for p, _ in shared]]
    taken = [p for p, _ in shared + mine_only]
    theirs_only = [e for e in data.draw(edits(base)) if e[0] not in taken]
    mine, theirs = apply(base, shared + mine_only), apply(base, shared + theirs_only)
    merged = merge_text(render(base), render(mine), render(theirs))
    assert merged.conflicts == ()
    assert values(merged.text) == plain(apply(base, shared + mine_only + theirs_only))
    # mine's lines that neither side changed are all still there, comments included
    assert "party = " in merged.text and "   # the party's name\n" in merged.text
    assert "[track]                 # Adventure Track\n" in merged.text


@SETTINGS
@given(st.data())
def test_any_two_versions_merge_the_same_both_ways_and_each_side_of_the_markers_is_whole(data):
    base = data.draw(campaigns())
    b, m, t = render(base), render(apply(base, data.draw(edits(base)))), render(apply(base, data.draw(edits(base))))
    one, other = merge_text(b, m, t), merge_text(b, t, m)
    assert len(one.conflicts) == len(other.conflicts)
    if not one.conflicts:
        assert values(one.text) == values(other.text)
        return
    mine, theirs = merge_text(b, m, t, prefer="mine").text, merge_text(b, m, t, prefer="theirs").text
    assert sides(one.text, 0) == mine and sides(one.text, 1) == theirs
    assert values(mine) == values(merge_text(b, t, m, prefer="theirs").text)
    tomllib.loads(mine), tomllib.loads(theirs)

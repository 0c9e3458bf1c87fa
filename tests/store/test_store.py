"""The TOML store: byte-identical round trips, in-place edits, atomic and all-or-nothing writes."""

from __future__ import annotations

import copy
import os
import stat
import subprocess
import sys
import tomllib

import pytest
import tomlkit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drunagor_log import store
from drunagor_log.campaign import Campaign
from drunagor_log.errors import ChangedOnDisk
from drunagor_log.store.session import NotWritten
from tests.conftest import EXAMPLE, REPO, write

SHIPPED = sorted(p for p in (REPO / "campaigns").rglob("*.toml"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(REPO)))
def test_every_shipped_file_round_trips_byte_identical(path):
    raw = path.read_bytes()
    assert tomlkit.dumps(tomlkit.parse(raw.decode())).encode() == raw
    f = store.load(path)
    f.edit()  # parsed for editing, nothing changed
    assert f.new_bytes() is None


def test_comment_and_unknown_key_survive_an_edit(camp):
    story = camp / "story.toml"
    story.write_text(story.read_text() + 'house_rule = "no rerolls"  # ours\n')
    with Campaign(camp) as c:
        c.story_file.edit()["party"] = "New Name"
        assert c.save() == ["story.toml"]
    text = story.read_text()
    assert "# a comment the user wrote" in text
    assert 'house_rule = "no rerolls"  # ours' in text
    assert 'party = "New Name"' in text
    assert text.replace('party = "New Name"', 'party = "Test Party"').replace(
        'house_rule = "no rerolls"  # ours\n', "") == (camp / "story.toml").read_text().replace(
        'party = "New Name"', 'party = "Test Party"').replace('house_rule = "no rerolls"  # ours\n', "")


def test_unchanged_document_is_not_written(camp):
    story = camp / "story.toml"
    os.utime(story, ns=(1, 1))
    with Campaign(camp) as c:
        doc = c.story_file.edit()
        doc["party"] = "Test Party"  # the same value
        assert c.save() == []
    assert story.stat().st_mtime_ns == 1


@pytest.mark.posix  # file modes: Windows keeps only a read-only flag
def test_atomic_write_keeps_the_mode(tmp_path):
    target = tmp_path / "f.toml"
    target.write_text("schema = 1\n")
    target.chmod(0o600)
    store.atomic_write(target, b"schema = 1\nx = 2\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert target.read_bytes() == b"schema = 1\nx = 2\n"
    assert [p.name for p in tmp_path.iterdir()] == ["f.toml"]


def test_file_changed_meanwhile_is_never_overwritten(camp):
    story = camp / "story.toml"
    with pytest.raises(ChangedOnDisk) as exc:
        with Campaign(camp) as c:
            c.story_file.edit()["party"] = "Mine"
            story.write_text(story.read_text().replace("Test Party", "Theirs"))  # an editor saves
            c.save()
    assert exc.value.code == 4
    assert 'party = "Theirs"' in story.read_text()


@pytest.mark.slow  # starts a Python that crashes
def test_multi_file_write_rolls_forward_after_a_crash_at_the_commit_point(camp):
    write(camp / "heroes" / "a.toml", 'schema = 1\nname = "A"\nclass = "Mage"\nrole = "Leader"\n')
    script = f"""
import os, sys
sys.path.insert(0, {str(REPO)!r})
os.environ["DRUNAGOR_CRASH_AFTER_JOURNAL"] = "1"
from pathlib import Path
from drunagor_log.campaign import Campaign
with Campaign(Path({str(camp)!r})) as c:
    c.story_file.edit()["party"] = "Crashed"
    c.hero_files["a"].edit()["player"] = "Zed"
    c.save()
"""
    r = subprocess.run([sys.executable, "-c", script])
    assert r.returncode == 137
    assert (camp / store.JOURNAL).exists()
    assert "Crashed" not in (camp / "story.toml").read_text()  # not yet renamed
    with Campaign(camp) as c:  # the next command completes the journal
        assert c.story.party == "Crashed"
        assert c.heroes["a"].player == "Zed"
    assert not (camp / store.JOURNAL).exists()
    assert not list(camp.rglob("*" + store.TMP_SUFFIX))


def test_temp_files_without_a_journal_are_swept(camp):
    stray = camp / (".story.toml" + store.TMP_SUFFIX)
    stray.write_text("half")
    before = (camp / "story.toml").read_bytes()
    with Campaign(camp) as c:  # any command sweeps them at its open, a reader too (issue 33)
        assert c.story.party
    assert not stray.exists()
    stray.write_text("half")
    with Campaign(camp) as c:  # and a writer when it takes the write lock
        zed = (EXAMPLE / "heroes" / "nyx.toml").read_text().replace('name = "Nyx"', 'name = "Zed"')
        c.create(camp / "heroes" / "zed.toml", zed)
        stray.write_text("half")  # left by a writer killed after this one's open
        assert c.save() == ["heroes/zed.toml"]
    assert not stray.exists()
    assert (camp / "story.toml").read_bytes() == before


def test_line_of_finds_table_keys():
    text = 'schema = 1\nparty = "x"\n\n[rules]\ntrauma_limit = 1\nmax_heroes = 4\n'
    assert store.line_of(text, ("party",)) == 2
    assert store.line_of(text, ("rules", "max_heroes")) == 6
    assert store.line_of(text, ("rules",)) == 4


# ------------------------------------------------------------ property: random edit sequences

KEYS = st.sampled_from(["party", "leader", "note", "x_y", "quoted key"])
VALUES = st.one_of(st.text(max_size=12), st.integers(-5, 5), st.booleans(),
                   st.lists(st.text(max_size=6), max_size=3))
EDITS = st.lists(st.tuples(st.sampled_from(["set", "del", "append"]), KEYS, VALUES), max_size=12)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(EDITS)
def test_random_edit_sequences_keep_valid_toml_matching_a_plain_model(tmp_path, edits):
    root = tmp_path / f"c{abs(hash(tuple(map(str, edits)))) % 10**9}"
    write(root / "story.toml", '# top comment\nschema = 1\nparty = "P"\nfollowers = []  # kept\n')
    model = {"schema": 1, "party": "P", "followers": []}
    for op, key, value in edits:
        before, kept = (root / "story.toml").read_bytes(), copy.deepcopy(model)
        with Campaign(root) as c:
            doc = c.story_file.edit()
            if op == "set":
                doc[key] = value
                model[key] = value
            elif op == "del" and key in model and key != "schema":
                del doc[key]
                del model[key]
            elif op == "append":
                doc["followers"].append(str(value))
                model["followers"].append(str(value))
            try:
                c.save()
            except NotWritten:  # a file drunagor would refuse to read is never written (issue 41.1)
                model = kept
                assert (root / "story.toml").read_bytes() == before
        text = (root / "story.toml").read_text()
        assert tomllib.loads(text) == model
        assert text.startswith("# top comment\n")

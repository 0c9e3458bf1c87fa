"""The values of campaign files remembered across runs (store.read.parse(cache=True), in drunagor's
cache outside the campaign): what a command reads is always what the file holds now."""

from __future__ import annotations

import os

from drunagor_log.catalog import diskcache
from tests.conftest import write


def _same_size_and_time(path, old: str, new: str) -> None:
    """Replace `old` by `new` (as long) in the file, and give it back its modification time: a hand
    edit that a cache keyed on size and time would miss."""
    st = path.stat()
    text = path.read_text()
    assert len(old) == len(new) and old in text
    path.write_text(text.replace(old, new))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size


def test_a_hand_edit_of_the_same_size_and_time_is_read(night, run):
    assert "Night Watch" in run("show").stdout
    assert "Night Watch" in run("show").stdout  # from the cache now
    _same_size_and_time(night / "story.toml", "Night Watch", "Noon Watch!")
    r = run("show")
    assert r.exit_code == 0, r.stderr
    assert "Noon Watch!" in r.stdout and "Night Watch" not in r.stdout


def test_a_damaged_cache_is_read_past(night, run):
    first = run("hero", "show", "Andreas", "--json").stdout
    entries = [p for p in os.listdir(diskcache.folder()) if p.startswith("file-")]
    assert entries  # the campaign's files were remembered
    for name in entries:
        with open(os.path.join(diskcache.folder(), name), "wb") as f:
            f.write(b"\xe3garbage")
    assert run("hero", "show", "Andreas", "--json").stdout == first


def test_a_refused_file_is_refused_again_and_read_once_repaired(night, run):
    story = (night / "story.toml").read_text()
    write(night / "story.toml", story.replace('party = "Night Watch"', 'party = "Night Watch'))
    for _ in range(2):  # a refusal is never what the cache remembers
        r = run("show")
        assert r.exit_code == 3
        assert "story.toml:" in r.stderr and "a string is not closed" in r.stderr
    write(night / "story.toml", story)
    assert run("show").exit_code == 0


def test_what_a_command_wrote_is_what_the_next_one_reads(night, run):
    assert run("party", "Dusk Watch").exit_code == 0
    r = run("show", "--json")
    assert r.exit_code == 0 and '"party": "Dusk Watch"' in r.stdout

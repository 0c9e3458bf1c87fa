"""Campaign.open_all, the tolerant open of `check` and `sync` (issue 33): the campaign and the problems
of every file, the lock held for the block and released by its end, never by the garbage collector."""

from __future__ import annotations

import gc

import pytest

from drunagor_log import store
from drunagor_log.campaign import Campaign
from drunagor_log.errors import Problem
from tests.conftest import write


def test_every_file_is_read_and_what_cannot_be_read_is_a_problem(night):
    write(night / "heroes" / "zed.toml", "schema = 1\nname = [\n")
    write(night / "adventures" / "01.toml", "schema = 1\nchapter = 3\n")
    with Campaign.open_all(night) as (c, problems):
        assert store.CampaignLock.held(night) == "shared"
        assert sorted(c.heroes) == ["andreas", "catharina"]  # the readable ones, typed
        assert c.story.party == "Night Watch"
        assert [(p.file, p.rule) for p in problems] == [
            ("campaigns/night/heroes/zed.toml", "toml-syntax"),
            ("campaigns/night/adventures/01.toml", "adventure-state"),
        ]
        assert all(isinstance(p, Problem) for p in problems)
    assert store.CampaignLock.held(night) is None


def test_archives_known_good_are_not_read_and_the_others_are_heard(example):
    (example / "adventures" / "03-1.toml").write_text("schema = 1\nchapter = 3\n")  # unreadable, but known good
    heard = []
    with Campaign.open_all(example, known_good=lambda p: p.name == "03-1.toml",
                           passed=lambda p, raw: heard.append((p.name, raw))) as (_, problems):
        assert problems == []
    assert heard == [("04-1.toml", (example / "adventures" / "04-1.toml").read_bytes())]


def test_a_conflict_marker_is_a_problem_not_a_refusal(night):
    story = night / "story.toml"
    story.write_text(story.read_text() + "<<<<<<< HEAD\nparty = 'a'\n=======\nparty = 'b'\n>>>>>>> other\n")
    with Campaign.open_all(night) as (c, problems):
        assert [p.rule for p in problems] == ["conflict-markers"]
        assert sorted(c.heroes) == ["andreas", "catharina"]


def test_the_lock_goes_with_the_block_even_when_a_traceback_keeps_the_campaign(night):
    gc.disable()  # released by __exit__, not by the collector
    try:
        with pytest.raises(RuntimeError) as kept:
            with Campaign.open_all(night) as (c, _):
                assert store.CampaignLock.held(night) == "shared"
                raise RuntimeError(c.root)
        assert kept.value.__traceback__ is not None  # the frames holding `c` are alive
        assert store.CampaignLock.held(night) is None
    finally:
        gc.enable()

"""The library's own tests (issue 33, as sqlite-utils has them): operations called through
`ops.apply`, the one call a script makes, give the change and the files the command line gives."""

from __future__ import annotations

import shutil

import pytest

from drunagor_log import ops
from drunagor_log.errors import DrunagorError, ExitCode
from tests.conftest import snapshot
from tests.helpers import ok


def test_an_operation_writes_what_its_command_writes(example, run, tmp_path):
    twin = tmp_path / "twin" / "campaigns" / "example"
    shutil.copytree(example, twin)
    change, written = ops.apply(example, ops.equipment.gain, "Nyx", "Buckler")
    assert (change.summary, written) == ("Nyx gains Buckler (spoils, standard, equipped)", ["heroes/nyx.toml"])
    r = ok(run("-C", str(twin), "hero", "gain", "Nyx", "Buckler"))
    assert r.stdout.splitlines()[0] == change.summary
    assert snapshot(example) == snapshot(twin)


def test_an_operation_that_changes_nothing_writes_nothing(example):
    before = snapshot(example)
    change, written = ops.apply(example, lambda c: ops.story.set_party(c, c.story.party))
    assert written == []
    assert snapshot(example) == before


def test_a_refusal_is_an_error_with_its_exit_code_and_writes_nothing(example):
    before = snapshot(example)
    with pytest.raises(DrunagorError) as refused:
        ops.apply(example, ops.equipment.gain, "Nobody", "Buckler")
    assert refused.value.code == ExitCode.RULE
    assert refused.value.message == "no hero called 'Nobody'"
    assert snapshot(example) == before


def test_two_operations_in_one_campaign_are_one_write(example):
    def both(c):
        ops.equipment.gain(c, "Nyx", "Buckler")
        return ops.story.set_party(c, "Dawn Watch")

    change, written = ops.apply(example, both)
    assert written == ["story.toml", "heroes/nyx.toml"]
    assert 'party = "Dawn Watch"' in (example / "story.toml").read_text()
    assert "Buckler" in (example / "heroes" / "nyx.toml").read_text()

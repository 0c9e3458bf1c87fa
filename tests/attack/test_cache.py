"""drunagor's parse cache attacked (issue 32.4, docs/errors.md "The cache and the history"): forged,
truncated, huge and crafted entries, entries another user could write, links, FIFOs and folders
among the entries, a folder that is not private, a relative XDG_CACHE_HOME, a cache inside the
campaign's git work tree. Through the installed script, each run bounded (bounded.py): whatever the
cache holds, a command prints what the campaign's files say, never a traceback, never a hang."""

from __future__ import annotations

import marshal
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drunagor_log.catalog import diskcache
from tests.attack import bounded
from tests.conftest import EXAMPLE

pytestmark = [pytest.mark.slow, pytest.mark.posix]

SURFACE = "cache"
OTHER_USER = 65534  # nobody
SLOW = settings(max_examples=4, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


class Home:
    """A campaign, a home and a cache folder of their own under `top`."""

    def __init__(self, top: Path):
        self.top = top
        self.campaign = top / "example"
        if not self.campaign.exists():
            shutil.copytree(EXAMPLE, self.campaign)
        (top / "home").mkdir(exist_ok=True)
        self.cache = top / "xdg" / "drunagor"
        self.env = dict(os.environ, HOME=str(top / "home"), XDG_CACHE_HOME=str(top / "xdg"), NO_COLOR="1",
                        COLUMNS="120")

    def run(self, *args: str, campaign: Path | None = None, env: dict | None = None) -> bounded.Outcome:
        out = bounded.drunagor("-C", str(campaign or self.campaign), *args, surface=SURFACE, cwd=self.top,
                               env=env or self.env)
        assert not out.timed_out, out
        assert "Traceback" not in out.stderr, out.stderr
        return out

    def story_entry(self) -> Path:
        """The entry of the campaign's story.toml (named after its path)."""
        key = str(self.campaign / "story.toml").encode()
        return self.cache / f"file-{diskcache.bytes_stamp(key)[1].hex()}.marshal"

    def entries(self, *prefixes: str) -> list[Path]:
        return sorted(p for p in self.cache.iterdir() if p.name.startswith(prefixes or ("file-", "parsed-")))


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return Home(tmp_path)


@pytest.fixture
def filled(home: Home) -> tuple[Home, str, str]:
    """The cache filled by a first `show` and `check`; their outputs, as the files say."""
    show, check = home.run("show"), home.run("check")
    assert show.returncode == 0 and check.returncode == 0, (show, check)
    assert home.entries("file-") and home.entries("parsed-")
    return home, show.stdout, check.stdout


def _same(home: Home, show: str, check: str) -> None:
    for args, want in ((("show",), show), (("check",), check)):
        out = home.run(*args)
        assert out.returncode == 0 and out.stdout == want, out


def _replace_all(home: Home, data: bytes) -> None:
    for p in home.entries():
        p.write_bytes(data)


# 5 bytes of marshal that ask for a list of 2**31 - 1 items (16 GiB of pointers): what the old cache
# decoded without a look.
CRAFTED = b"[\xff\xff\xff\x7f"


@pytest.mark.parametrize("attack", ["crafted", "crafted-after-header", "truncated", "huge", "forged-payload"])
def test_an_entry_drunagor_did_not_write_is_a_miss(filled, attack):
    home, show, check = filled
    for p in home.entries():
        raw = p.read_bytes()
        if attack == "crafted":
            p.write_bytes(CRAFTED)
        elif attack == "crafted-after-header":
            p.write_bytes(raw[:len(diskcache._MAGIC) + diskcache._TAG] + CRAFTED)
        elif attack == "truncated":
            p.write_bytes(raw[:len(raw) // 2])
        elif attack == "huge":  # a 64 MiB entry (sparse): refused from its size, never read
            with open(p, "r+b") as f:
                f.truncate(64 << 20)
        else:  # the payload changed, the tag kept
            p.write_bytes(raw[:-1] + bytes([raw[-1] ^ 1]))
    _same(home, show, check)
    assert home.story_entry().stat().st_size < diskcache.MAX_ENTRY  # made again


@SLOW
@given(junk=st.binary(max_size=300), headed=st.booleans())
def test_any_bytes_in_every_entry_are_a_miss(tmp_path_factory, junk, headed):
    home = Home(tmp_path_factory.mktemp("junk"))
    show, check = home.run("show").stdout, home.run("check").stdout
    _replace_all(home, (diskcache._MAGIC if headed else b"") + junk)
    _same(home, show, check)


def _story_entry(home: Home) -> tuple[Path, tuple]:
    """The story.toml entry and what it holds (decoded here, by the test, which holds the key)."""
    for p in home.entries("file-"):
        value = marshal.loads(p.read_bytes()[len(diskcache._MAGIC) + diskcache._TAG:])
        if "party" in value[1]:
            return p, value
    raise AssertionError("no entry for story.toml")


def _forge(home: Home, party: str) -> Path:
    """A well-tagged entry for story.toml saying another party: what only the key's holder can make."""
    entry, (stamp, data) = _story_entry(home)
    payload = marshal.dumps((stamp, dict(data, party=party)))
    key = (home.cache / "key").read_bytes()
    entry.write_bytes(diskcache._MAGIC + diskcache._tag(key, entry.name, payload) + payload)
    return entry


def test_an_entry_another_user_could_write_is_not_believed(filled):
    home, show, _ = filled
    entry = _forge(home, "Forged Watch")
    assert "Forged Watch" in home.run("show").stdout  # the forgery itself is good: believed when the user's
    for change in (lambda p: os.chmod(p, 0o620), lambda p: os.chmod(p, 0o602),
                   lambda p: os.chown(p, OTHER_USER, -1)):
        entry = _forge(home, "Forged Watch")
        os.chmod(entry, 0o600)
        change(entry)
        out = home.run("show")
        assert out.returncode == 0 and out.stdout == show, out


def test_a_key_another_user_owns_or_others_may_read_is_made_anew(filled):
    home, show, _ = filled
    key = home.cache / "key"
    entry = _forge(home, "Forged Watch")
    os.chmod(key, 0o644)  # a key others could read: anyone could have forged with it
    assert home.run("show").stdout == show
    assert key.read_bytes() and stat.S_IMODE(key.stat().st_mode) == 0o600
    entry = _forge(home, "Forged Watch")
    os.chown(key, OTHER_USER, -1)
    assert home.run("show").stdout == show
    assert key.stat().st_uid == os.geteuid()
    assert entry.exists()


def test_links_in_the_cache_are_never_followed(filled):
    home, show, check = filled
    victim = home.top / "victim.txt"
    victim.write_bytes(b"the user's own file\n")
    for p in home.entries():
        p.unlink()
        p.symlink_to(victim)
    zero = home.entries("parsed-")[0]
    zero.unlink()
    zero.symlink_to("/dev/zero")
    marker = home.cache / "pruned-files"
    marker.unlink()
    marker.symlink_to(victim)  # a link where the prune marker goes: today it truncated the file
    other = home.top / "second"
    shutil.copytree(EXAMPLE, other)  # a campaign read for the first time: the prune runs
    assert home.run("show", campaign=other).returncode == 0
    _same(home, show, check)
    assert victim.read_bytes() == b"the user's own file\n"
    assert not home.story_entry().is_symlink() and not marker.is_symlink()


def test_a_link_for_the_key_is_never_followed(filled):
    home, show, _ = filled
    victim = home.top / "victim.txt"
    victim.write_bytes(b"x" * 32)
    key = home.cache / "key"
    key.unlink()
    key.symlink_to(victim)
    assert home.run("show").stdout == show
    assert victim.read_bytes() == b"x" * 32 and not key.is_symlink()


def test_fifos_and_folders_neither_block_nor_stop_the_prune(filled):
    home, show, check = filled
    for i, p in enumerate(home.entries()):
        p.unlink()
        (os.mkfifo if i % 2 else os.mkdir)(p)
    old = home.cache / "file-00000000000000000000000000000000.marshal"
    old.write_bytes(b"left by a campaign read no more")
    month_ago = 1_000_000
    for p in [*home.entries(), old]:
        os.utime(p, (month_ago, month_ago), follow_symlinks=False)
    os.utime(home.cache / "pruned-files", (0, 0))
    other = home.top / "second"
    shutil.copytree(EXAMPLE, other)
    assert home.run("show", campaign=other).returncode == 0
    assert not old.exists()  # pruned, past the FIFOs and folders before it
    _same(home, show, check)


def test_the_cache_folder_is_private(home):
    home.cache.mkdir(parents=True)
    os.chmod(home.cache, 0o755)  # as an older drunagor made it
    assert home.run("show").returncode == 0
    assert stat.S_IMODE(home.cache.stat().st_mode) == 0o700
    assert stat.S_IMODE((home.cache / "key").stat().st_mode) == 0o600
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in home.entries())


def test_a_cache_folder_another_user_owns_is_not_used(home):
    show = home.run("show").stdout
    shutil.rmtree(home.cache)
    home.cache.mkdir(parents=True)
    os.chown(home.cache, OTHER_USER, -1)
    assert home.run("show").stdout == show
    assert os.listdir(home.cache) == []


def test_a_cache_folder_that_is_a_link_is_not_used(home):
    show = home.run("show").stdout
    shutil.rmtree(home.cache)
    elsewhere = home.top / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    home.cache.symlink_to(elsewhere)
    assert home.run("show").stdout == show
    assert os.listdir(elsewhere) == []


def test_a_relative_xdg_cache_home_is_ignored(home):
    env = dict(home.env, XDG_CACHE_HOME="relative-cache")
    assert home.run("show", env=env).returncode == 0
    assert not (home.top / "relative-cache").exists()
    assert any(p.name.startswith("file-") for p in (home.top / "home" / ".cache" / "drunagor").iterdir())


def test_a_cache_inside_the_campaign_s_work_tree_is_not_used(home):
    subprocess.run(["git", "init", "-q", str(home.campaign)], check=True)
    env = dict(home.env, XDG_CACHE_HOME=str(home.campaign / ".cache"))
    first = home.run("show", env=env)
    assert first.returncode == 0
    assert home.run("show", env=env).stdout == first.stdout
    made = home.campaign / ".cache" / "drunagor"
    assert not made.exists() or not [p for p in os.listdir(made) if p.startswith("file-")]

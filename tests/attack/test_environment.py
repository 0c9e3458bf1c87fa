"""The environment, whole (issue 41.4-5; docs/errors.md "Limits"): every variable drunagor reads, set to
hostile values, through the installed script on a pseudo-terminal (where Rich draws, and reads COLUMNS
and LINES), bounded in time and memory (bounded.py): no traceback, no wait past the lock's own timeout,
the documented exit code, and no cache key made inside the campaign."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from drunagor_log import store
from tests.attack import bounded, hostile
from tests.attack.terminal import on_a_terminal
from tests.conftest import EXAMPLE

pytestmark = pytest.mark.posix  # a pseudo-terminal

PARTY = "Łucja ☃ 漢"
NOT_UTF8 = os.fsdecode(b"camp\xff\xfe")
HUGE = "9" * 100_000


@pytest.fixture
def where(tmp_path) -> Path:
    """A folder holding campaigns/ex, a copy of the example whose party is named outside Latin-1 and
    ASCII, and whose Story Record also holds the hostile text (a stranger's control characters)."""
    root = tmp_path / "campaigns" / "ex"
    shutil.copytree(EXAMPLE, root)
    story = root / "story.toml"
    text = re.sub(r'^party = ".*"$', lambda m: f"party = {hostile.toml(PARTY)}", story.read_text(encoding="utf-8"),
                  count=1, flags=re.M)
    story.write_text(text.replace("stash = []", f"stash = [{hostile.H}]"), encoding="utf-8")
    return tmp_path


def environment(tmp_path: Path, **changes: str | None) -> dict[str, str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path / "home"),
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "LC_ALL": "C.UTF-8", "TERM": "xterm-256color",
           **{k: v for k, v in hostile.GIT_ENV.items()}}
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def drunagor(where: Path, *args: str, env: dict[str, str], wall: float = bounded.WALL_SECONDS):
    seen = on_a_terminal([bounded.drunagor_script(), *args], env=env, cwd=where, surface="environment", wall=wall)
    assert not seen.timed_out, f"{args}: still running after {wall} s"
    assert b"Traceback" not in seen.output, seen.output.decode(errors="replace")[-2000:]
    return seen


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# --------------------------------------------------------------------------------- the terminal's size


@pytest.mark.parametrize("name", ["COLUMNS", "LINES"])
@pytest.mark.parametrize("value", ["0", "-1", "abc", "٣", "1e3", "", " 80 ", HUGE],
                         ids=["zero", "negative", "word", "arabic-indic", "exponent", "empty", "padded", "huge"])
def test_a_size_that_is_none_is_the_terminal_s_own(where, name, value):
    seen = drunagor(where, "-C", "campaigns/ex", "show", env=environment(where, **{name: value}))
    assert seen.returncode == 0, seen.output[-1500:]
    assert "Łucja ☃ 漢".encode() in seen.output and b"\x1b]0;PWNED" not in seen.output


def test_help_with_a_zero_width():
    seen = drunagor(Path.cwd(), "--help", env=environment(Path.cwd(), COLUMNS="0", LINES="0"))
    assert seen.returncode == 0 and b"Campaign companion" in seen.output


# ------------------------------------------------------------------------------------- the lock's wait


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "1e9", "٣", HUGE, "0.2"])
def test_a_lock_timeout_that_is_no_number_is_the_default(where, value):
    seen = drunagor(where, "-C", "campaigns/ex", "party", "Dusk", env=environment(where, DRUNAGOR_LOCK_TIMEOUT=value))
    assert seen.returncode == 0, seen.output[-1500:]


def test_nan_with_the_lock_held_gives_up_after_the_default(where):
    """`nan` compared false with every time, so the command waited forever: now the default 10 s, exit 4."""
    root = where / "campaigns" / "ex"
    before = files(root)
    with store.CampaignLock(root):
        seen = drunagor(where, "-C", "campaigns/ex", "party", "Dusk",
                        env=environment(where, DRUNAGOR_LOCK_TIMEOUT="nan"), wall=store.LOCK_TIMEOUT + 8)
    assert seen.returncode == 4, seen.output[-1500:]
    assert b"another drunagor command" in seen.output
    assert files(root) == before


# ------------------------------------------------------------------------------------- the campaign


@pytest.mark.parametrize("value, code", [("x" * 300, 2), (NOT_UTF8, 2), ("", 0), ("campaigns/ex", 0),
                                          ("/nonexistent", 2), (hostile.HOSTILE, 2)],
                         ids=["too long", "not UTF-8", "empty", "a campaign", "no folder", "hostile"])
def test_drunagor_campaign(where, value, code):
    seen = drunagor(where, "show", env=environment(where, DRUNAGOR_CAMPAIGN=value))
    assert seen.returncode == code, seen.output[-1500:]
    if code == 2:
        assert b"error: " in seen.output and b"\x1b]0;PWNED" not in seen.output


# ----------------------------------------------------------------------------------------- the cache


@pytest.mark.parametrize("place", ["HOME in the campaign", "XDG_CACHE_HOME in the campaign",
                                   "XDG_CACHE_HOME in its .git", "XDG_CACHE_HOME in its work tree"])
@pytest.mark.parametrize("args", [("check",), ("rules", "cite", "285")], ids=["check", "rules cite"])
def test_no_cache_key_is_made_where_git_would_carry_it(where, place, args):
    repo = where / "campaigns"
    hostile.git(repo, "init", "-q")
    root = repo / "ex"
    inside = {"HOME in the campaign": {"HOME": str(root), "XDG_CACHE_HOME": None},
              "XDG_CACHE_HOME in the campaign": {"XDG_CACHE_HOME": str(root / "cache")},
              "XDG_CACHE_HOME in its .git": {"XDG_CACHE_HOME": str(repo / ".git" / "cache")},
              "XDG_CACHE_HOME in its work tree": {"XDG_CACHE_HOME": str(repo / "cache")}}[place]
    seen = drunagor(where, "-C", "campaigns/ex", *args, env=environment(where, **inside))
    assert seen.returncode == 0, seen.output[-1500:]
    made = [p for p in repo.rglob("*") if "drunagor" in p.parts and p.name != "drunagor"]
    assert made == []
    assert not (root / ".cache").exists() and not (repo / "cache").exists()


@pytest.mark.parametrize("value", ["relative/cache", "", "x" * 300, "/dev/null", NOT_UTF8])
def test_a_cache_folder_it_cannot_use_is_no_cache(where, value):
    seen = drunagor(where, "-C", "campaigns/ex", "check", env=environment(where, XDG_CACHE_HOME=value, HOME=value))
    assert seen.returncode == 0, seen.output[-1500:]


# ------------------------------------------------------------------------------------ the encoding


@pytest.mark.parametrize("changes", [
    {"LC_ALL": "C"}, {"LC_ALL": "POSIX", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"},
    {"LC_ALL": None, "LANG": "en_US.ISO-8859-1"}, {"LC_ALL": "ru_RU.KOI8-R"},
    {"LC_ALL": "C", "PYTHONUTF8": "0"}, {"PYTHONIOENCODING": "latin-1"}, {"PYTHONIOENCODING": "ascii"},
    {"LC_ALL": ""}, {"LC_ALL": hostile.HOSTILE},
], ids=lambda c: " ".join(f"{k}={v!r}"[:30] for k, v in c.items()))
@pytest.mark.parametrize("args", [("show",), ("show", "--json"), ("party", "Łucja ☃ 漢"), ("hero", "show", "Łx")],
                         ids=["show", "json", "party typed", "a typed name refused"])
def test_a_locale_that_is_not_utf8_ends_in_no_traceback(where, changes, args):
    root = where / "campaigns" / "ex"
    before = files(root)
    seen = drunagor(where, "-C", "campaigns/ex", *args, env=environment(where, **changes))
    assert seen.returncode == (1 if args[0] == "hero" else 0), seen.output[-1500:]
    assert b"\x1b]0;PWNED" not in seen.output
    if args[0] == "party":  # typed in UTF-8: read as UTF-8 whatever the locale, so nothing changes
        assert files(root) == before
    if args == ("show", "--json"):
        import json

        text = seen.output.decode("utf-8").replace("\r\n", "\n")
        assert json.loads(text[text.index("{"):])["party"] == PARTY


# ----------------------------------------------------------------------------------- colour and TERM


@pytest.mark.parametrize("changes", [{"NO_COLOR": ""}, {"NO_COLOR": "0"}, {"NO_COLOR": hostile.HOSTILE},
                                     {"TERM": "dumb"}, {"TERM": ""}, {"TERM": hostile.HOSTILE},
                                     {"TERM": "x" * 10_000}, {"TERM": None}],
                         ids=["NO_COLOR empty", "NO_COLOR 0", "NO_COLOR hostile", "TERM dumb", "TERM empty",
                              "TERM hostile", "TERM long", "TERM unset"])
def test_colour_settings_end_in_the_campaign_shown(where, changes):
    seen = drunagor(where, "-C", "campaigns/ex", "show", env=environment(where, **changes))
    assert seen.returncode == 0, seen.output[-1500:]
    assert "Łucja ☃ 漢".encode() in seen.output and b"\x1b]0;PWNED" not in seen.output

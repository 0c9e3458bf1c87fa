"""The merge driver attacked as git runs it: the command `drunagor git setup` registers (this
Python, by its absolute path, `-m drunagor_log.interop.mergedriver %O %A %B %L %P`) through /bin/sh,
on hostile base/ours/theirs, each run bounded in time and memory (bounded.py).

Whatever the three versions hold, the driver ends within the bounds and either merges (0, or 1
with markers no longer than 64 characters), or refuses in one line on stderr with exit 2 and
yours (%A) unchanged, so git keeps the file as a conflict. Never a traceback."""

from __future__ import annotations

import shlex
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drunagor_log.git.driver_setup import driver_command

from . import bounded

pytestmark = pytest.mark.posix  # git runs drivers through /bin/sh

SURFACE = "merge driver"
BASE = 'schema = 1\nparty = "Ana\'s band"\nfollowers = ["Vorn the Warrior"]\n'


def drive(folder: Path, base: bytes | None, mine: bytes, theirs: bytes, size: str = "7",
          path: str = "campaigns/example/story.toml") -> bounded.Outcome:
    """Write the three versions and run the registered driver command on them, as git would."""
    for name, data in (("O", base), ("A", mine), ("B", theirs)):
        if data is not None:
            (folder / name).write_bytes(data)
    line = driver_command()
    for token, value in (("%O", "O"), ("%A", "A"), ("%B", "B"), ("%L", shlex.quote(size)), ("%P", shlex.quote(path))):
        line = line.replace(token, value)
    return bounded.run(["/bin/sh", "-c", line], surface=SURFACE, cwd=folder, env={"PATH": "/usr/bin:/bin"})


def refused(out: bounded.Outcome, folder: Path, mine: bytes, why: str) -> None:
    assert not out.timed_out
    assert out.returncode == 2, out
    assert out.stderr == (f"drunagor merge driver: campaigns/example/story.toml: not merged ({why}); git keeps it "
                          "as a conflict, your version unchanged\n")
    assert (folder / "A").read_bytes() == mine


def story(**values: str) -> bytes:
    return (BASE + "".join(f"{k} = {v}\n" for k, v in values.items())).encode()


# ---------------------------------------------------------------------- the cases of the issue


def test_case_5_a_5_mb_value_on_one_side_is_refused_from_its_size(tmp_path):
    mine = BASE.replace("Ana's band", "Ana's crew").encode()
    theirs = BASE.replace("Ana's band", "x" * (5 * 1024 * 1024)).encode()
    out = drive(tmp_path, BASE.encode(), mine, theirs)
    refused(out, tmp_path, mine, "theirs: the file is larger than 1024 KiB, far more than a campaign holds; it "
            "was not read")


def test_case_5_a_value_past_the_text_limit_within_the_size_limit(tmp_path):
    mine = BASE.replace("Ana's band", "Ana's crew").encode()
    theirs = BASE.replace("Ana's band", "x" * 500_000).encode()
    out = drive(tmp_path, BASE.encode(), mine, theirs)
    refused(out, tmp_path, mine, "theirs: a text longer than 10000 characters (at `party`): more than a campaign holds")


def test_case_5_fifty_thousand_followers(tmp_path):
    many = "followers = [\n" + "".join(f'  "F{i}",\n' for i in range(50_000)) + "]\n"
    mine = BASE.replace('followers = ["Vorn the Warrior"]\n', many).encode()
    theirs = BASE.replace("Ana's band", "Eve's band").encode()
    out = drive(tmp_path, BASE.encode(), mine, theirs)
    refused(out, tmp_path, mine, "yours: more than 10000 entries in one list or table (at `followers`): more than "
            "a campaign holds")


def test_case_5_followers_added_on_both_sides_past_the_limit_together_are_refused(tmp_path):
    """5,001 Followers added on each side: each side is within the store's 10,000 entries, the merged
    list is not. The merge runs (its cost linear in the list) and its result is refused."""
    def followers(prefix: str) -> bytes:
        return BASE.replace('"Vorn the Warrior"', ", ".join(f'"{prefix}{i}"' for i in range(5_001))).encode()

    out = drive(tmp_path, BASE.encode(), followers("M"), followers("T"))
    refused(out, tmp_path, followers("M"), "the merged file would hold more than 10000 entries in one list or "
            "table (at `followers`)")


@pytest.mark.parametrize("size, shown", [("50000000", 64), ("1" + "0" * 30, 64), ("3", 7), ("seven", 7)])
def test_case_5_the_marker_size_is_clamped(tmp_path, size, shown):
    out = drive(tmp_path, BASE.encode(), BASE.replace("Ana's band", "Crew").encode(),
                BASE.replace("Ana's band", "Band").encode(), size=size)
    assert (out.returncode, out.stderr, out.timed_out) == (1, "", False)
    assert (tmp_path / "A").read_text() == ("schema = 1\n" + "<" * shown + ' mine\nparty = "Crew"\n' + "=" * shown
                                            + '\nparty = "Band"\n' + ">" * shown + ' theirs\n'
                                            'followers = ["Vorn the Warrior"]\n')


def test_case_5_a_missing_base_file_is_one_line_not_a_traceback(tmp_path):
    mine = BASE.replace("Ana's band", "Crew").encode()
    out = drive(tmp_path, None, mine, BASE.replace("Ana's band", "Band").encode())
    refused(out, tmp_path, mine, "the common version: file not found")


def merge_in_a_repository(tmp_path: Path, monkeypatch, attributes: str, eve: str, ana: str
                          ) -> tuple[Path, bounded.Outcome]:
    """A repository with the driver registered and `attributes` in its .gitattributes, where Eve's
    branch and Ana's main changed story.toml (BASE) to `eve` and `ana`: Ana's `git merge eve`, as
    git runs the driver in a real merge."""
    from tests.sync.conftest import git, isolate_git

    isolate_git(monkeypatch, tmp_path)
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "--quiet", "--initial-branch=main")
    git(repo, "config", "user.name", "Ana")
    git(repo, "config", "user.email", "ana@example.org")
    git(repo, "config", "merge.drunagor.driver", driver_command())
    (repo / ".gitattributes").write_text(attributes)
    (repo / "story.toml").write_text(BASE)
    git(repo, "add", "-A")
    git(repo, "commit", "--quiet", "-m", "start")
    git(repo, "checkout", "--quiet", "-b", "eve")
    (repo / "story.toml").write_text(eve)
    git(repo, "commit", "--quiet", "-am", "eve")
    git(repo, "checkout", "--quiet", "main")
    (repo / "story.toml").write_text(ana)
    git(repo, "commit", "--quiet", "-am", "ana")
    return repo, bounded.run(["git", "merge", "--quiet", "eve"], surface=SURFACE, cwd=repo)


def test_case_5_a_pushed_gitattributes_asking_for_huge_markers_in_a_real_merge(tmp_path, monkeypatch):
    """git itself passes the attribute's size to the driver: the conflict is written with 64-character
    markers, the file stays small."""
    from tests.sync.conftest import git

    repo, out = merge_in_a_repository(tmp_path, monkeypatch, "*.toml merge=drunagor conflict-marker-size=50000000\n",
                                      eve=BASE.replace("Ana's band", "Eve's band"),
                                      ana=BASE.replace("Ana's band", "Ana's crew"))
    assert (out.returncode, out.timed_out) == (1, False)
    text = (repo / "story.toml").read_text()
    assert text == ("schema = 1\n" + "<" * 64 + " mine\nparty = \"Ana's crew\"\n" + "=" * 64
                    + "\nparty = \"Eve's band\"\n" + ">" * 64 + ' theirs\nfollowers = ["Vorn the Warrior"]\n')
    assert git(repo, "ls-files", "-u").count("story.toml") == 3  # still a conflict for git


def test_a_refusal_in_a_real_merge_leaves_git_s_conflict_and_yours(tmp_path, monkeypatch):
    from tests.sync.conftest import git

    mine = BASE.replace("Ana's band", "Ana's crew")
    repo, out = merge_in_a_repository(tmp_path, monkeypatch, "*.toml merge=drunagor\n",
                                      eve=BASE.replace("Ana's band", "x" * 300_000), ana=mine)
    assert (out.returncode, out.timed_out) == (1, False)
    assert "drunagor merge driver: story.toml: not merged (theirs: a text longer than 10000 characters" in out.stderr
    assert "Traceback" not in out.stderr
    assert (repo / "story.toml").read_text() == mine
    assert git(repo, "ls-files", "-u").count("story.toml") == 3


# ------------------------------------------------------------------------ generated versions

NAMES = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=30)
SCALARS = st.one_of(st.integers(-2**70, 2**70), st.booleans(), NAMES, st.floats(allow_nan=False))


def _toml_value(value) -> str:
    from drunagor_log.store.tomltext import basic_string

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return basic_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{basic_string(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
    return repr(value) if not isinstance(value, float) or value == value else "nan"


VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(NAMES, inner, max_size=3),
                      max_leaves=12)


@st.composite
def versions(draw) -> bytes:
    """A version of story.toml as a stranger might push it: plain, huge, deep, broken or binary."""
    kind = draw(st.sampled_from(["values", "long text", "many", "deep", "dotted", "markers", "bytes", "empty"]))
    if kind == "values":
        keys = draw(st.dictionaries(st.sampled_from(["party", "leader", "followers", "cards", "track", "x"]), VALUES,
                                    max_size=4))
        return ("schema = 1\n" + "".join(f"{k} = {_toml_value(v)}\n" for k, v in keys.items())).encode()
    if kind == "long text":
        return f'schema = 1\nparty = "{"x" * draw(st.integers(9_000, 400_000))}"\n'.encode()
    if kind == "many":
        n = draw(st.integers(9_000, 30_000))
        return ("schema = 1\nfollowers = [" + ", ".join(f'"f{i}"' for i in range(n)) + "]\n").encode()
    if kind == "deep":
        n = draw(st.integers(15, 5_000))
        return ("schema = 1\nx = " + "[" * n + "]" * n + "\n").encode()
    if kind == "dotted":
        return ("schema = 1\n" + ".".join(["a"] * draw(st.integers(15, 20_000))) + " = 1\n").encode()
    if kind == "markers":
        return b"schema = 1\n<<<<<<< mine\nparty = 1\n=======\nparty = 2\n>>>>>>> theirs\n"
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    return b""


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(base=versions(), mine=versions(), theirs=versions(), size=st.sampled_from(["7", "0", "-5", "64", "99999999999"]),
       path=st.sampled_from(["campaigns/example/story.toml", "campaigns/example/adventure.toml", "x" * 5000]))
def test_generated_hostile_versions_merge_or_are_refused_within_the_bounds(base, mine, theirs, size, path):
    with tempfile.TemporaryDirectory() as where:
        folder = Path(where)
        out = drive(folder, base, mine, theirs, size=size, path=path)
        assert not out.timed_out, out
        assert "Traceback" not in out.stderr, out.stderr
        result = (folder / "A").read_bytes()
        if out.returncode == 2:
            assert out.stderr.count("\n") == 1 and out.stderr.startswith("drunagor merge driver: "), out.stderr
            assert len(out.stderr) < 1000
            assert result == mine
        else:
            assert out.returncode in (0, 1), out
            assert b"<" * 65 not in result and len(result) <= 3 * (1 << 20)


def test_the_driver_is_run_as_git_setup_registers_it():
    """The command these tests run is the one `git setup` writes into a repository's config."""
    line = driver_command()
    assert line.endswith(" -m drunagor_log.interop.mergedriver %O %A %B %L %P")
    assert subprocess.run(["/bin/sh", "-c", line.split(" -m ")[0] + " -c pass"], check=False).returncode == 0

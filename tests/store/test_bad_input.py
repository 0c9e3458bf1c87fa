"""Bad input (SPEC section 6): unreadable TOML, wrong types, missing keys, unknown chapters,
negative counts, duplicate heroes, files that are not UTF-8, empty files, a directory where a file
should be, unresolved git conflict markers. One clear message each (FILE:LINE: rule: what; remedy),
the documented exit code (3: the data cannot be read; 1: a rule, e.g. two logs of one hero), never a
traceback (the `run` fixture lets every exception escape), never a write."""

from __future__ import annotations

import os
import shutil
import tomllib
from functools import partial
from pathlib import Path

import pytest
import tomlkit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drunagor_log import store
from drunagor_log.model import QUALITIES, TREES, chapter_id
from drunagor_log.store import journal
from tests import helpers
from tests.conftest import NIGHT_ANDREAS, NIGHT_CATHARINA, NIGHT_STORY, make_night, snapshot, write

STORY, ANDREAS, CATHARINA = NIGHT_STORY, NIGHT_ANDREAS, NIGHT_CATHARINA  # the Night Watch (tests/conftest.py)


def shown(path: Path) -> str:
    return store.display(path)


# ------------------------------------------------------------------ one clear message for each


def expect_unreadable(run, root: Path, path: Path, message: str) -> None:
    """`show` and `check` both report `message` for `path` with exit 3 and write nothing."""
    before = snapshot(root)
    r = run("-C", str(root), "show")
    assert (r.exit_code, r.stdout) == (3, ""), r
    assert r.stderr == f"error: {message}\n"
    r = run("-C", str(root), "check")
    assert (r.exit_code, r.stdout, r.stderr) == (3, message + "\n", ""), r
    assert snapshot(root) == before


CASES = {
    "toml-syntax": ("story.toml", STORY.replace('party = "Night Watch"', 'party = "Night Watch'),
                    "{f}:3: toml-syntax: not valid TOML: a string is not closed: its quote has no closing quote "
                    "before the end of the line; close it with the quote that opened it (\" or '), on the same "
                    "line"),
    "string-open-to-the-end": ("story.toml", STORY + 'note = """open\n',
                               "{f}:{last}: toml-syntax: not valid TOML: a string is not closed: the file ends inside "
                               "it; close it with the quote that opened it (\" or ')"),
    "duplicate-key": ("heroes/andreas.toml", ANDREAS + 'name = "Andreas"\n',
                      "{f}:15: toml-syntax: not valid TOML: Cannot overwrite a value; fix the syntax at that "
                      "line (quotes, brackets, one key = value)"),
    "wrong-type": ("story.toml", STORY.replace('party = "Night Watch"', "party = 5"),
                   "{f}:3: shape: `party` must be text, not 5; write `party` as text"),
    "wrong-type-nested": ("heroes/andreas.toml", ANDREAS.replace("level = 1", 'level = "1"'),
                          "{f}:8: shape: `level` of skill 1 must be a whole number, not '1'; write `level` as a "
                          "whole number"),
    "missing-key": ("heroes/catharina.toml", CATHARINA.replace('name = "Catharina"\n', ""),
                    "{f}: shape: `name` is missing; add `name = ...` (text)"),
    "unknown-chapter": ("story.toml", STORY.replace("[track]\n", '[track]\n"12" = "completed"\n'),
                        "{f}:10: shape: unknown chapter '12' on the Adventure Track; chapters are \"01\" to \"09\""),
    "unknown-chapter-joined": ("heroes/catharina.toml", CATHARINA.replace('joined = "01"', 'joined = "10"'),
                               "{f}:5: shape: `joined` must be a chapter from \"01\" to \"09\", not '10'; write "
                               "`joined = \"01\"`"),
    "negative-count": ("story.toml", STORY.replace("max_heroes = 4", "max_heroes = -4"),
                       "{f}:17: shape: `max_heroes` must be from 1 to 5, not -4; set `max_heroes` from 1 to 5"),
    "not-utf8": ("heroes/andreas.toml", ANDREAS.replace("Plate", "Pl\udcffte"),
                 "{f}:12: encoding: the file is not UTF-8 text (a byte that is not, at column 15); save it as "
                 "UTF-8"),
    "bom": ("story.toml", "\ufeff" + STORY,
            "{f}:1: encoding: the file starts with a byte-order mark; save it as UTF-8 without BOM"),
    "empty": ("story.toml", "", "{f}: empty-file: the file is empty; restore it from git (git checkout -- FILE); "
                                "without git, write `schema = 1` in it to start the Story Record again"),
    "blank": ("heroes/catharina.toml", "\n  \n", "{f}: empty-file: the file is empty; restore it from git "
                                                 "(git checkout -- FILE) or delete it"),
    "no-schema": ("heroes/catharina.toml", CATHARINA.replace("schema = 1\n", ""),
                  "{f}:1: schema: no `schema` key; add `schema = 1` as the first line"),
    "schema-text": ("story.toml", STORY.replace("schema = 1", 'schema = "1"'),
                    "{f}:1: schema: `schema` must be a whole number, not '1'; write `schema = 1`"),
    "older-schema": ("story.toml", STORY.replace("schema = 1", "schema = 0"),
                     "{f}:1: schema: schema 0 was not written by drunagor (its first schema is 1); if the file "
                     "follows the format in README, set `schema = 1`, then run `drunagor check`"),
    "nested-too-deep": ("heroes/catharina.toml", CATHARINA + "deep = " + "[" * 3000 + "]" * 3000 + "\n",
                        "{f}: toml-syntax: not valid TOML for drunagor: values nested too deeply; flatten the "
                        "nested arrays or tables"),
}


@pytest.mark.parametrize("case", CASES)
def test_one_clear_message_per_kind_of_bad_file(night, run, case):
    rel, text, message = CASES[case]
    path = night / rel
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    expect_unreadable(run, night, path, message.format(f=shown(path), last=text.count("\n")))


def test_a_directory_where_a_file_should_be(night, run):
    story = night / "story.toml"
    story.unlink()
    story.mkdir()
    expect_unreadable(run, night, story, f"{shown(story)}: file: a directory stands where a file should be; "
                                         "move the directory away and restore the file (git checkout -- FILE)")


def test_a_directory_where_a_log_or_the_adventure_should_be(night, run):
    (night / "heroes" / "nyx.toml").mkdir()
    expect_unreadable(run, night, night / "heroes" / "nyx.toml",
                      f"{shown(night / 'heroes' / 'nyx.toml')}: file: a directory stands where a file should be; "
                      "move the directory away and restore the file (git checkout -- FILE)")
    (night / "heroes" / "nyx.toml").rmdir()
    (night / "adventure.toml").mkdir()
    r = run("-C", str(night), "show")
    assert (r.exit_code, r.stderr) == (3, f"error: {shown(night / 'adventure.toml')}: file: a directory stands "
                                          "where a file should be; move the directory away and restore the file "
                                          "(git checkout -- FILE)\n")


def test_a_file_where_the_heroes_folder_should_be(night, run):
    shutil.rmtree(night / "heroes")
    (night / "heroes").write_text("oops\n")
    expect_unreadable(run, night, night / "heroes",
                      f"{shown(night / 'heroes')}: file: heroes is a file; it should be the folder of the "
                      "Campaign Logs; move the file away and create the folder heroes/")


@pytest.mark.posix  # a symlink: Windows allows it only to administrators or in developer mode
def test_hidden_files_in_heroes_are_not_logs(night, run):
    """An editor's lock (.#andreas.toml, a dangling link) or swap file is not a Campaign Log."""
    os.symlink("nobody@host.1234", night / "heroes" / ".#andreas.toml")
    (night / "heroes" / ".andreas.toml.swp").write_bytes(b"\x00\x01")
    r = run("-C", str(night), "show", "--json")
    assert r.exit_code == 0, r
    assert run("-C", str(night), "check").exit_code == 0


def test_two_logs_of_one_hero_are_a_rule_error_named_by_every_command_that_needs_the_hero(night, run):
    write(night / "heroes" / "andreas-2.toml", ANDREAS)
    before = snapshot(night)
    r = run("-C", str(night), "check")
    assert r.exit_code == 1
    assert f"{shown(night / 'heroes' / 'andreas.toml')}:2: hero-file: 'Andreas' has two Campaign Logs " \
           "(andreas-2.toml and andreas.toml); keep one" in r.stdout
    r = run("-C", str(night), "hero", "show", "Andreas")
    assert (r.exit_code, r.stdout) == (1, "")
    assert r.stderr == (f"error: {shown(night / 'heroes' / 'andreas.toml')}:2: hero-file: 'Andreas' has 2 "
                        "Campaign Logs (heroes/andreas-2.toml, heroes/andreas.toml); keep one of them (merge what "
                        "each records) and delete the other\n")
    r = run("-C", str(night), "hero", "gain", "Andreas", "Lucky Coin", "--kind", "adventure", "--bag")
    assert r.exit_code == 1
    assert snapshot(night) == before


def test_a_newer_file_is_read_with_a_warning_and_never_written(night, run):
    log = night / "heroes" / "catharina.toml"
    log.write_text(CATHARINA.replace("schema = 1", "schema = 2") + 'future = { thing = 1 }\n')
    before = snapshot(night)
    r = run("-C", str(night), "show")
    assert r.exit_code == 0, r
    assert r.stderr == (f"warning: {shown(log)}: schema 2 is newer than this drunagor knows (1); reading it, "
                        "never writing it\n")
    r = run("-C", str(night), "hero", "gain", "Catharina", "Lucky Coin", "--kind", "adventure", "--bag")
    assert r.exit_code == 3
    assert r.stderr.endswith(f"error: {shown(log)}:1: schema: schema 2 is newer than this drunagor knows (1); "
                             "the file is read-only; upgrade drunagor (pip install -U drunagor)\n")
    r = run("-C", str(night), "check")
    assert (r.exit_code, r.stdout) == (3, f"{shown(log)}:1: schema: schema 2 is newer than this drunagor knows "
                                          "(1); it cannot be checked; upgrade drunagor (pip install -U drunagor)\n")
    assert snapshot(night) == before


def test_a_bad_file_stops_a_writing_command_before_anything_is_written(night, run):
    (night / "heroes" / "catharina.toml").write_text("schema = 1\nname = \n")
    before = snapshot(night)
    r = run("-C", str(night), "hero", "gain", "Andreas", "Lucky Coin", "--kind", "adventure", "--bag")
    assert r.exit_code == 3
    assert snapshot(night) == before


def test_a_damaged_journal_is_reported_not_guessed(night, run):
    (night / store.JOURNAL).write_text('{"ops": [{"tmp": "../../etc/passwd", "target": "story.toml"}]}')
    before = snapshot(night)
    r = run("-C", str(night), "show")
    assert r.exit_code == 3
    assert r.stderr == (f"error: {shown(night / store.JOURNAL)}: journal: the journal of an interrupted command "
                        'is not one drunagor can carry out ({"tmp": "../../etc/passwd", "target": "story.toml"} '
                        "does not name drunagor's own files); it was left as it is; compare the files with git "
                        f"(git status, git diff), then delete {store.JOURNAL} and the .*{store.TMP_SUFFIX} files\n")
    assert snapshot(night) == before


def test_a_pending_journal_in_a_read_only_folder_is_named(night, run, monkeypatch):
    (night / store.JOURNAL).write_text('{"ops": [{"tmp": ".story.toml.1-0.drunagor-tmp", "target": "story.toml"}]}')

    def refuse(root):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(journal, "roll_forward", refuse)
    r = run("-C", str(night), "show")
    assert r.exit_code == 3
    assert r.stderr == (f"error: {shown(night / store.JOURNAL)}: journal: an interrupted command left changes to "
                        "complete, and they cannot be written (Permission denied); make the campaign folder "
                        "writable and re-run\n")


def test_a_write_that_fails_says_so_and_leaves_nothing_behind(night, run, monkeypatch):
    real = os.write

    def full(fd, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    before = snapshot(night)
    r = run("-C", str(night), "party", "Dusk Watch")
    monkeypatch.setattr(os, "write", real)
    assert r.exit_code == 3
    assert r.stderr == (f"error: {shown(night / 'story.toml')}: file: cannot write the file (No space left on "
                        "device); nothing was written; fix the cause (disk space, permissions) and re-run\n")
    assert snapshot(night) == before


# ---------------------------------------------------------------- conflict markers of a real merge


git = partial(helpers.git, ok=None, identity=True)  # a merge's conflict is exit 1: any code


@pytest.mark.parametrize("style", ["merge", "diff3"])
@pytest.mark.slow  # runs git
def test_conflict_markers_of_a_real_git_merge_are_reported_with_their_lines(tmp_path, run, style):
    top = tmp_path / "repo"
    root = make_night(top / "campaigns" / "night")
    git(top, "init", "-q", "-b", "main")
    git(top, "config", "merge.conflictStyle", style)
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "start")
    git(top, "checkout", "-q", "-b", "ana")
    assert run("-C", str(root), "party", "Ana's Watch").exit_code == 0
    git(top, "commit", "-q", "-am", "ana names the party")
    git(top, "checkout", "-q", "main")
    assert run("-C", str(root), "party", "Bruno's Watch").exit_code == 0
    git(top, "commit", "-q", "-am", "bruno names the party")
    git(top, "merge", "ana")  # conflicts
    raw = (root / "story.toml").read_bytes()
    markers = [i for i, line in enumerate(raw.decode().splitlines(), 1)
               if line.startswith(("<<<<<<<", "=======", ">>>>>>>", "|||||||"))]
    assert len(markers) == (4 if style == "diff3" else 3)
    where = ", ".join(map(str, markers))
    message = (f"{shown(root / 'story.toml')}:{markers[0]}: conflict-markers: unresolved git conflict markers at "
               f"lines {where}; keep the right side of each conflict, delete the marker lines, then commit")
    expect_unreadable(run, root, root / "story.toml", message)
    r = run("-C", str(root), "check", "--json")
    assert r.exit_code == 3
    import json

    assert json.loads(r.stdout)["errors"] == [{
        "file": shown(root / "story.toml"), "line": markers[0], "rule": "conflict-markers",
        "message": f"unresolved git conflict markers at lines {where}; keep the right side of each conflict, "
                   "delete the marker lines, then commit"}]


CONFLICT = 'party = "Night Watch"\n'
END = STORY.count("\n") + 1  # the line a marker appended to STORY stands on
MARKERS = {
    # a conflict half deleted by hand: one marker alone is still a marker, not a TOML syntax error
    "lone-start": (STORY + "<<<<<<< HEAD\n", [END]),
    "lone-end": (STORY + ">>>>>>> ana\n", [END]),
    "lone-start-at-end-of-file": (STORY + "<<<<<<<", [END]),
    "lone-end-crlf": (STORY + ">>>>>>>\r\n", [END]),
    "full": (STORY.replace(CONFLICT, '<<<<<<< HEAD\nparty = "Night Watch"\n=======\nparty = "Dusk Watch"\n'
                                     '>>>>>>> ana\n'), [3, 5, 7]),
    "diff3": (STORY.replace(CONFLICT, '<<<<<<< HEAD\nparty = "Night Watch"\n||||||| base\nparty = "Watch"\n'
                                      '=======\nparty = "Dusk Watch"\n>>>>>>> ana\n'), [3, 5, 7, 9]),
    # the ambiguous ones count only in a file that is not valid TOML
    "lone-separator": (STORY + "=======\n", [END]),
    "lone-base": (STORY + "||||||| base\n", [END]),
    "separator-and-base": (STORY.replace(CONFLICT, '||||||| base\nparty = "Watch"\n=======\n'), [3, 5]),
}


@pytest.mark.parametrize("case", MARKERS)
def test_conflict_markers_are_found_before_parsing_even_alone(night, run, case):
    text, lines = MARKERS[case]
    story = night / "story.toml"
    story.write_bytes(text.encode("utf-8"))
    where = ("lines " if len(lines) > 1 else "line ") + ", ".join(map(str, lines))
    expect_unreadable(run, night, story, f"{shown(story)}:{lines[0]}: conflict-markers: unresolved git conflict "
                                         f"markers at {where}; keep the right side of each conflict, delete the "
                                         "marker lines, then commit")


def test_separator_lines_inside_a_valid_multi_line_string_are_text(night, run):
    story = night / "story.toml"
    story.write_text(STORY + "notes = '''\nround one\n=======\n||||||| between\nround two\n'''\n")
    assert store.conflict_lines(story.read_bytes()) == []
    r = run("-C", str(night), "show", "--json")
    assert (r.exit_code, r.stderr) == (0, ""), r


def test_a_line_of_equals_signs_inside_a_string_is_not_a_conflict(night, run):
    story = night / "story.toml"
    story.write_text(STORY + 'notes = """\nround one\n=======\nround two\n"""\n')
    assert run("-C", str(night), "show").exit_code == 0


# ------------------------------------------------- every reading command, fed generated bad files

# The commands that only read (or, like raid --dry-run, resolve without writing), as they exist.
READERS = [
    ["show"], ["show", "--json"], ["check"], ["check", "--json"], ["check", "--strict"],
    ["hero", "list"], ["hero", "show", "Andreas"], ["hero", "show", "cath", "--json"],
    ["chapter", "show"], ["recruit", "--chapter", "4"], ["chest", "show"], ["commander", "show"],
    ["adventure", "show"], ["adventure", "show", "--json"], ["odds"], ["raid", "--dry-run", "--seed", "3"],
    ["battalion", "Tidehunter", "--dry-run"],
]
MUST_READ = {"show": {"story", "hero", "adventure"}, "check": {"story", "hero", "adventure"}}


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """The intact campaign (with chapter 05 under way) and what each reading command says of it."""
    import typer.testing
    from typer.testing import CliRunner

    from drunagor_log.cli.app import app as cli

    built = typer.main.get_command(cli)
    get_command = typer.testing._get_command
    typer.testing._get_command = lambda _app: built
    base = tmp_path_factory.mktemp("template")
    root = make_night(base / "campaigns" / "night")
    runner = CliRunner()
    old = os.getcwd()
    old_env = os.environ.get("NO_COLOR")
    os.chdir(base)
    os.environ["NO_COLOR"] = "1"
    try:
        r = runner.invoke(cli, ["-C", str(root), "adventure", "start", "05"], catch_exceptions=False)
        assert r.exit_code == 0, r.stderr
        baseline = {}
        for argv in READERS:
            r = runner.invoke(cli, ["-C", str(root), *argv], catch_exceptions=False)
            if r.exit_code == 2 and "No such command" in r.stderr:
                continue  # not written yet
            assert r.exit_code in (0, 1), (argv, r.stdout, r.stderr)  # check --strict: a skill too many
            baseline[tuple(argv)] = (r.exit_code, r.stdout)
    finally:
        typer.testing._get_command = get_command
        os.chdir(old)
        if old_env is None:
            os.environ.pop("NO_COLOR", None)
        else:
            os.environ["NO_COLOR"] = old_env
    return root, baseline


def _not(ok):
    """Values of any TOML type that `ok` rejects."""
    return VALUES.filter(lambda v: not ok(v))


def _is_chapter(v) -> bool:
    try:
        chapter_id(v)
        return True
    except ValueError:
        return False


def _int_in(lo, hi=None):
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= lo and (hi is None or v <= hi)


def _names(v) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) and x.strip() for x in v)


def _is(t):
    return lambda v: isinstance(v, t) and not (t is int and isinstance(v, bool))


VALUES = st.one_of(
    st.integers(-10**6, 10**6), st.text(max_size=8), st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False), st.dates(),
    st.lists(st.one_of(st.integers(-3, 3), st.text(max_size=3)), max_size=3),
    st.dictionaries(st.sampled_from(["a", "red", "name"]), st.integers(-2, 2), max_size=2),
)

# (file kind, key path, what the value must be): each a key drunagor reads and checks.
KEYS = [
    ("story", ("party",), _is(str)), ("story", ("leader",), _is(str)), ("story", ("campaign",), _is(str)),
    ("story", ("followers",), _names), ("story", ("stash",), _names), ("story", ("track",), _is(dict)),
    ("story", ("rules",), _is(dict)), ("story", ("rules", "max_heroes"), _int_in(1, 5)),
    ("story", ("rules", "trauma_limit"), _int_in(0, 9)), ("story", ("rules", "rune_bag"), _is(dict)),
    ("story", ("rules", "rune_bag", "red"), _int_in(0)),
    ("hero", ("name",), lambda v: isinstance(v, str)), ("hero", ("class",), _is(str)), ("hero", ("role",), _is(str)),
    ("hero", ("joined",), _is_chapter), ("hero", ("statuses",), _names), ("hero", ("skills",), _is(list)),
    ("hero", ("skills", 0, "level"), lambda v: v in (1, 2) and not isinstance(v, bool)),
    ("hero", ("skills", 0, "tree"), lambda v: v in TREES), ("hero", ("equipment",), _is(list)),
    ("hero", ("equipment", 1, "kind"), lambda v: v in ("starting", "spoils", "adventure", "epic", "consumable")),
    ("hero", ("equipment", 1, "quality"), lambda v: v in QUALITIES),
    ("hero", ("equipment", 0, "name"), _is(str)),
    ("adventure", ("chapter",), lambda v: isinstance(v, str) and len(v) == 2 and v.isdigit() and 1 <= int(v) <= 9),
    ("adventure", ("heroes",), _int_in(1, 5)), ("adventure", ("bag",), _is(dict)),
    ("adventure", ("bag", "red"), _int_in(0)), ("adventure", ("raid", "face"), lambda v: v in ("A", "B")),
]
FILES = {"story": "story.toml", "hero": "heroes/andreas.toml", "adventure": "adventure.toml"}


@st.composite
def mistyped(draw):
    """A file with one value of the wrong type or out of range (tomlkit keeps the rest as it was)."""
    kind, path, ok = draw(st.sampled_from(KEYS))
    value = draw(_not(ok))
    return kind, path, value


@st.composite
def broken(draw, texts):
    """The bytes of a file broken beyond parsing."""
    kind = draw(st.sampled_from(sorted(FILES)))
    raw = texts[kind].encode()
    how = draw(st.sampled_from(["garbage", "cut", "markers", "utf8", "empty"]))
    lines = raw.split(b"\n")
    at = draw(st.integers(0, len(lines) - 1))
    if how == "garbage":
        junk = draw(st.sampled_from([b"= 1", b"[rules", b'x = "open', b"key value", b"[[", b"a = [1,", b"}",
                                     b"x = 1\nx = 2", b"\x00"]))
        lines.insert(at, junk)
    elif how == "cut":  # cut inside a line that cannot end there
        full = [i for i, ln in enumerate(lines) if len(ln) > 3 and b"=" in ln and not ln.endswith(b"[")]
        i = draw(st.sampled_from(full))
        lines[i] = lines[i][: lines[i].index(b"=") + 1]
        lines = lines[: i + 1]
    elif how == "markers":
        end = draw(st.integers(at, len(lines) - 1))
        lines[at:end] = [b"<<<<<<< HEAD", *lines[at:end], b"=======", b'party = "theirs"', b">>>>>>> theirs"]
    elif how == "utf8":
        lines[at] = lines[at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80"]))
    else:
        return kind, draw(st.sampled_from([b"", b"\n", b"   \n\t\n"]))
    return kind, b"\n".join(lines)


def corruptions(texts):
    return st.one_of(broken(texts), mistyped().map(lambda m: ("mistyped", m)))


def _apply(root: Path, texts: dict, corruption) -> tuple[str, Path]:
    if corruption[0] == "mistyped":
        kind, path, value = corruption[1]
        doc = tomlkit.parse(texts[kind])
        table = doc
        for key in path[:-1]:
            table = table[key]
        table[path[-1]] = value
        target = root / FILES[kind]
        target.write_text(tomlkit.dumps(doc))
        return kind, target
    kind, raw = corruption
    target = root / FILES[kind]
    target.write_bytes(raw)
    return kind, target


_TEXTS: dict[str, str] = {}


def _texts(root: Path) -> dict[str, str]:
    if not _TEXTS:
        _TEXTS.update({k: (root / rel).read_text() for k, rel in FILES.items()})
    return _TEXTS


@settings(max_examples=int(os.environ.get("DRUNAGOR_FUZZ_EXAMPLES", 30)), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                               HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_every_reading_command_survives_generated_bad_files(template, run, tmp_path, data):
    intact, baseline = template
    texts = _texts(intact)
    corruption = data.draw(corruptions(texts))
    root = tmp_path / f"c{len(list(tmp_path.iterdir()))}" / "night"
    shutil.copytree(intact, root)
    kind, target = _apply(root, texts, corruption)
    if corruption[0] == "mistyped":  # tomllib must still read it: a type error, not a syntax error
        tomllib.loads(target.read_text())
    before = snapshot(root)
    name = shown(target)
    for argv, expected in baseline.items():
        r = run("-C", str(root), *argv)  # an exception would escape here: never a traceback
        assert snapshot(root) == before, f"{argv} wrote to the campaign"
        must = kind in MUST_READ.get(argv[0], ())
        if r.exit_code == 3:
            if argv[0] == "check":
                assert name in r.stdout, (argv, r)
            else:
                assert r.stderr.startswith(f"error: {name}:") or r.stderr.startswith(f"error: {name}: "), (argv, r)
                assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, (argv, r)
        else:
            assert not must, (argv, corruption, r)
            # a command that does not need the broken file behaves exactly as on the intact campaign
            assert (r.exit_code, r.stdout) == expected, (argv, corruption, r)


"""`drunagor import` attacked: hostile tokens (nesting, size, wrong types, hostile names) through the
installed script, each run bounded in time and memory (bounded.py). A refusal is one `error:` line,
the right exit code, no traceback, and nothing written under --dir; an import that succeeds made a
campaign that reads again, inside --dir."""

from __future__ import annotations

import base64
import copy
import json
import os
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.attack import bounded
from tests.interop.test_token import CURRENT

ROLES = ["--role", "Andreas=Support", "--role", "Catharina=Controller", "--role", "Nyx=Striker",
         "--role", "Vacrem=Defender"]
BASE = json.loads(base64.b64decode(CURRENT).decode("latin-1"))  # the apps' own example (app-token 4.1)
SLOW = settings(max_examples=3, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def tok(obj, ascii_only: bool = True) -> str:
    """The token of a JSON value; \\u escapes carry what Latin-1 cannot (the JSON is still the apps')."""
    text = json.dumps(obj, separators=(",", ":"), ensure_ascii=ascii_only)
    return base64.b64encode(text.encode("latin-1")).decode()


def listing(folder: Path) -> dict[str, bytes]:
    """Every file and folder under `folder` (hidden ones too), with a file's bytes."""
    return {p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() else b"/")
            for p in sorted(folder.rglob("*"))}


def run_import(tmp: Path, token: str, *flags: str) -> bounded.Outcome:
    """`drunagor import FILE --dir campaigns ...` from `tmp`, the token in a file (a token of
    hundreds of kilobytes does not fit on a command line)."""
    (tmp / "token.txt").write_text(token)
    return bounded.drunagor("import", "token.txt", "--dir", "campaigns", *flags, surface="import", cwd=tmp)


def refused(out: bounded.Outcome, code: int, says: str) -> None:
    assert not out.timed_out, out
    assert out.returncode == code, out
    assert "Traceback" not in out.stderr, out.stderr
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], out.stderr
    assert len(lines[0]) < 2000, "a message quotes a short prefix of what it refuses, not all of it"
    assert out.stdout == ""


@pytest.fixture
def dest(tmp_path: Path) -> Path:
    d = tmp_path / "campaigns"
    d.mkdir()
    (d / "keep.txt").write_text("a file the import must leave alone\n")
    return d


# ------------------------------------------------------------------------- issue 23, case 6, exactly

def test_case6_a_token_nested_5000_deep_is_refused_not_a_recursion_error(tmp_path, dest):
    before = listing(dest)
    text = '{"campaignData": ' + "[" * 5000 + "]" * 5000 + "}"
    out = run_import(tmp_path, base64.b64encode(text.encode()).decode(), *ROLES)
    refused(out, 3, "token: not a campaign token: values nested more than 20 levels deep")
    assert "RecursionError" not in out.stderr and listing(dest) == before


def test_case6_a_party_name_of_300_characters_is_refused_before_any_folder(tmp_path, dest):
    before = listing(dest)
    data = copy.deepcopy(BASE)
    data["campaignData"]["name"] = "Safeguard " * 30
    out = run_import(tmp_path, tok(data), *ROLES)
    refused(out, 2, "the token's party name 'Safeguard Safeguard Safeguard Safeguard …' cannot name its folder "
                    "(a campaign's name is at most 64 characters, not 300)")
    assert "File name too long" not in out.stderr and listing(dest) == before
    ok = run_import(tmp_path, tok(data), *ROLES, "--name", "safeguard")  # the remedy the message gives
    assert ok.returncode == 0, ok
    assert json.loads(bounded.drunagor("-C", "campaigns/safeguard", "show", "--json", surface="import",
                                       cwd=tmp_path).stdout)["party"] == "Safeguard " * 30


def test_case6_an_argument_with_a_slash_that_is_no_file_is_quoted_short(tmp_path, dest):
    before = listing(dest)
    arg = "campaigns/" + "x/" * 2000 + "token.txt"
    out = bounded.drunagor("import", arg, *ROLES, surface="import", cwd=tmp_path)
    refused(out, 2, "is neither a campaign token nor a file")
    assert out.stderr.startswith("error: 'campaigns/x/x/x/x/x/x/x/x/x/x/x/x/x/x/x/…' is neither")
    assert len(out.stderr) < 250 and listing(dest) == before


# ------------------------------------------------------------------------------ generated attacks

@SLOW
@given(depth=st.integers(21, 60_000), opener=st.sampled_from(["[", '{"a":']), where=st.sampled_from(
    ["campaignData", "heroes", "legacyTrail"]))
def test_generated_deep_nesting(tmp_path, dest, depth, opener, where):
    before = listing(dest)
    closer = "]" if opener == "[" else "}"
    inner = opener * depth + "1" + closer * depth
    text = (json.dumps({"campaignData": {"campaign": "awakenings", "name": "Deep", where: "HOLE"},
                        "heroes": []}).replace('"HOLE"', inner))
    out = run_import(tmp_path, base64.b64encode(text.encode()).decode(), *ROLES)
    if len(text) * 4 // 3 > 256 * 1024:
        refused(out, 3, "far more than a campaign token holds")
    else:
        refused(out, 3, "values nested more than 20 levels deep")
    assert listing(dest) == before


@SLOW
@given(kind=st.sampled_from(["text", "entries", "token"]), field=st.sampled_from(
    ["name", "followerIds", "legacyTrail", "heroes"]))
def test_generated_sizes_beyond_a_campaign_file(tmp_path, dest, kind, field):
    before = listing(dest)
    data = copy.deepcopy(BASE)
    if kind == "text":
        value = "x" * 10_001
        data["campaignData"][field] = value if field == "name" else [value]
        says = "a text longer than 10000 characters"
    elif kind == "entries":
        data["campaignData"][field] = ["vorn"] * 10_001
        says = "more than 10000 entries in one list or table"
    else:
        data["campaignData"][field] = ["x" * 9_000] * 40
        says = "far more than a campaign token holds"
    refused(run_import(tmp_path, tok(data), *ROLES), 3, says)
    assert listing(dest) == before


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8)
PLACES = [("campaignData",), ("heroes",), ("campaignData", "name"), ("campaignData", "campaign"),
          ("campaignData", "followerIds"), ("campaignData", "statusIds"), ("campaignData", "outcomeIds"),
          ("heroes", 0), ("heroes", 0, "heroId"), ("heroes", 0, "equipment"), ("heroes", 0, "equipment", "weaponId"),
          ("heroes", 0, "stashedCardIds"), ("heroes", 0, "skillIds"), ("heroes", 0, "auraId"),
          ("heroes", 0, "statusIds"), ("heroes", 1, "sequentialAdventureState")]


def _put(data, path, value):
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


def _imported_campaign_reads_again(tmp: Path, dest: Path, before: dict, out: bounded.Outcome) -> None:
    assert out.stderr.count("Traceback") == 0, out.stderr
    made = sorted(set(listing(dest)) - set(before))
    top = {m.split("/")[0] for m in made}
    assert len(top) == 1 and not next(iter(top)).startswith("."), made  # one campaign folder, no hidden rest
    shown = bounded.drunagor("-C", str(dest / next(iter(top))), "show", surface="import", cwd=tmp)
    assert shown.returncode == 0, shown


@settings(max_examples=8, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(place=st.sampled_from(PLACES), value=JSON_VALUES)
def test_generated_wrong_types_everywhere(tmp_path, dest, place, value):
    before = listing(dest)
    data = copy.deepcopy(BASE)
    _put(data, place, value)
    out = run_import(tmp_path, tok(data), *ROLES, "--drop-unknown", "--name", "typed")
    assert not out.timed_out, out
    if out.returncode == 0:
        _imported_campaign_reads_again(tmp_path, dest, before, out)
        return
    assert out.returncode in (1, 2, 3), out
    refused(out, out.returncode, "")
    assert listing(dest) == before


def _hostile_names():
    pieces = st.sampled_from(["/", "..", "\x00", "\x1b[2J", "\u202e", "\u2066", "\u200f", "\u061c", "\t", "\n",
                              "CON", "nul", "LPT1", "aux.txt", "~", "\\", "'", '"', "$(touch PWNED)", "é", "Ω"])
    short = st.lists(pieces | st.text(min_size=1, max_size=5), min_size=1, max_size=6).map("".join)
    return short | st.text(min_size=60, max_size=400) | st.sampled_from(["x" * 65, "Ω" * 64, ".", "..", "-", " "])


def _invisible(name: str) -> bool:
    return any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") for ch in name)


@settings(max_examples=10, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(name=_hostile_names(), who=st.sampled_from(["party", "hero"]))
def test_generated_hostile_names(tmp_path, dest, name, who):
    before = listing(dest)
    data = copy.deepcopy(BASE)
    flags = list(ROLES)
    if who == "party":
        data["campaignData"]["name"] = name
    else:
        data["heroes"] = data["heroes"][:1]
        data["heroes"][0]["heroId"] = name
        typed = (name[:1].upper() + name[1:]).replace("\x00", "")  # a command line cannot hold a NUL
        flags = ["--role", f"{typed}=Striker", "--class", f"{typed}=Mage", "--name", "heroic"]
    out = run_import(tmp_path, tok(data), *flags)
    assert not out.timed_out, out
    if _invisible(name) or len(name) > 64:  # what `new` and `hero add` refuse, refused before any folder
        assert out.returncode in (2, 3), out
        refused(out, out.returncode, "")
        assert listing(dest) == before
    elif out.returncode == 0:
        _imported_campaign_reads_again(tmp_path, dest, before, out)
        assert not any(p.exists() for p in (tmp_path / "PWNED", tmp_path.parent / "x"))
    else:
        refused(out, out.returncode, "")
        assert listing(dest) == before
    assert not (tmp_path / "PWNED").exists()
    assert sorted(os.listdir(tmp_path)) in (["campaigns", "token.txt"], [".hypothesis", "campaigns", "token.txt"])

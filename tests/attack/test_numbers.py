"""One way in for numbers (issue 32, item 3; docs/errors.md "Numbers"): every number typed or read goes
through drunagor_log.values.whole. Typed, a number that is not ASCII digits within its domain is a usage error
(exit 2); in a campaign file, a data error (exit 3). Either way: one message, no traceback, and the
campaign's files byte for byte as before.

The int parameters are found by walking the command tree (a parameter added later is attacked the day
it is added); the hand-parsed ones (`red=2`, `+1`, slots) and the file fields are listed. Hypothesis
generates the hostile numbers: digits of every script Unicode has, superscripts and circled digits,
signs, underscores, whitespace, numbers past TOML's 64 bits and past Python's 4,300-digit limit."""

from __future__ import annotations

import shutil
import sys
import unicodedata
from pathlib import Path

import pytest
import typer.main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer import _click as click

from drunagor_log import values as numbers
from tests.attack import bounded
from tests.conftest import EXAMPLE, snapshot

NOT_A_NUMBER = "is not a number; write it in the digits 0-9"
TOO_LARGE = "is too large; give a whole number"

# Every character Unicode calls a digit or a number that is not an ASCII digit: int() takes the
# decimal ones (Nd: '٣', '３') and refuses the others ('²', '①').
UNICODE_DIGITS = "".join(ch for ch in map(chr, range(0x80, sys.maxunicode + 1))
                         if unicodedata.category(ch) in ("Nd", "No", "Nl"))
FEW = settings(max_examples=25, deadline=None, database=None,
               suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def hostile_numbers() -> st.SearchStrategy[str]:
    """Text that looks like a number to int(), to str.isdigit() or to a person, and is not one drunagor
    reads: at least one character that is not an ASCII digit or sign, or too many digits."""
    digit = st.sampled_from(UNICODE_DIGITS)
    ascii_digits = st.text("0123456789", min_size=1, max_size=5)
    mixed = st.tuples(ascii_digits, digit, st.text("0123456789", max_size=3)).map("".join)
    spaced = st.tuples(st.sampled_from(["\n", "\u00a0", "\u2003", "\u3000", "\x0b", "\x1b[2J"]), ascii_digits,
                       st.booleans()).map(lambda t: t[0] + t[1] if t[2] else t[1] + t[0])
    underscored = st.tuples(ascii_digits, ascii_digits).map(lambda t: f"{t[0]}_{t[1]}")
    signs = st.sampled_from(["++1", "+-1", "--1", "\u22121", "\uff0b1", "1e3", "0x10", "1.0", "½", "", " "])
    return st.one_of(st.text(digit, min_size=1, max_size=4), mixed, spaced, underscored, signs)


def huge_numbers() -> st.SearchStrategy[str]:
    """ASCII digits past TOML's 64-bit integers, up to past Python's 4,300-digit limit."""
    return st.one_of(st.sampled_from(["9223372036854775808", "-9223372036854775809", "9" * 5000, "1" + "0" * 4400]),
                     st.integers(min_value=2 ** 63 + 1, max_value=10 ** 60).map(str))


# ------------------------------------------------------------------------------------------ the parser


@given(hostile_numbers())
def test_the_parser_refuses_what_is_not_ascii_digits(text):
    with pytest.raises(numbers.NotANumber) as refused:
        numbers.whole(text)
    assert refused.value.message.endswith("is not a number") and "0-9" in refused.value.remedy
    assert "\x1b" not in refused.value.message  # quoted as repr: a control character is escaped


@given(huge_numbers())
def test_the_parser_refuses_past_64_bits_without_converting(text):
    with pytest.raises(numbers.NotANumber, match="is too (large|small); give a whole number from "):
        numbers.whole(text)


@given(st.integers(min_value=numbers.INT64_MIN, max_value=numbers.INT64_MAX), st.sampled_from(["", " ", "\t"]))
def test_the_parser_reads_every_64_bit_integer(n, pad):
    assert numbers.whole(f"{pad}{n}{pad}") == n
    assert numbers.whole(f"+{n}") == n if n >= 0 else True


@pytest.mark.parametrize("text, low, high, says", [
    ("0", 1, 5, "--heroes 0 is too small; give a whole number from 1 to 5"),
    ("6", 1, 5, "--heroes 6 is too large; give a whole number from 1 to 5"),
    ("-1", 0, None, "--heroes -1 is too small; give a whole number 0 or more"),
    ("٣", 1, 5, "--heroes '٣' is not a number; write it in the digits 0-9, e.g. 3"),
])
def test_the_parser_says_the_domain(text, low, high, says):
    with pytest.raises(numbers.NotANumber) as refused:
        numbers.whole(text, low=low, high=high, what="--heroes")
    assert str(refused.value) == says


def test_no_sign_where_the_value_takes_none():
    assert numbers.whole("007", signed=False) == 7
    for text in ("+2", "-2"):
        with pytest.raises(numbers.NotANumber, match="is not a number"):
            numbers.whole(text, signed=False)


def test_json_numbers_are_finite_and_64_bit():
    assert numbers.json_loads('{"a": [1, -2, 0.5, 1e3]}') == {"a": [1, -2, 0.5, 1000.0]}
    for text in ("NaN", "Infinity", "-Infinity", "1e999", "9223372036854775808", "9" * 5000):
        with pytest.raises(ValueError):
            numbers.json_loads(f'{{"a": {text}}}')


# ---------------------------------------------------------------------------- typed: the command tree


def int_parameters() -> list[tuple[tuple[str, ...], click.Parameter]]:
    """Every int option and argument of the whole command tree, with the words that reach its command."""
    from drunagor_log.cli.app import build_app

    found = []

    def walk(command, path):
        found.extend((path, p) for p in command.params if isinstance(p.type, click.types.IntParamType))
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*path, name))

    walk(typer.main.get_command(build_app()), ())
    return found


INT_PARAMETERS = int_parameters()


def typed_line(path: tuple[str, ...], param: click.Parameter, value: str) -> list[str]:
    """The command line that gives `value` to `param` (before anything else it needs: click converts
    the parameters in the order they are typed, so the refusal comes first)."""
    if param.param_type_name == "argument":
        return [*path, "--", value]
    return [*path, f"{param.opts[0]}={value}"] if param.opts[0].startswith("--") else [*path, param.opts[0], value]


def test_the_walk_finds_the_int_parameters_and_each_has_the_one_rule():
    from drunagor_log.cli.common import WholeNumber

    names = {(" ".join(path), p.name) for path, p in INT_PARAMETERS}
    assert {("cube", "capacity"), ("draw", "count"), ("history", "n"), ("chest add", "copies")} <= names
    assert len(INT_PARAMETERS) >= 25
    assert all(isinstance(p.type, WholeNumber) for _, p in INT_PARAMETERS), [
        (path, p.name) for path, p in INT_PARAMETERS if not isinstance(p.type, WholeNumber)]


def refused_typed(result, says: str) -> None:
    assert result.exit_code == 2, result
    assert "Traceback" not in result.stderr
    assert says in result.stderr, result
    assert "\x1b" not in result.stderr  # the hostile text is quoted with its control characters escaped


@pytest.mark.parametrize("path, param", INT_PARAMETERS, ids=[f"{' '.join(p)} {q.name}" for p, q in INT_PARAMETERS])
def test_every_int_parameter_refuses_a_hostile_number(path, param, example, run):
    before = snapshot(example)

    @FEW
    @given(st.one_of(hostile_numbers(), huge_numbers()))
    def attack(value):
        result = run(*typed_line(path, param, value))
        named = param.opts[0] if param.opts[0].startswith("-") else (param.metavar or param.name.upper())
        refused_typed(result, f"Invalid value for '{named}': ")
        assert NOT_A_NUMBER in result.stderr or "is too large; give" in result.stderr or "is too small; give" in \
            result.stderr, result.stderr

    attack()
    assert snapshot(example) == before


@pytest.mark.parametrize("value", ["٣", "３", "²", "①", "1_0", "9223372036854775808", "9" * 5000])
def test_an_int_option_says_the_one_wording(value, example, run):
    result = run("chest", "add", "Potion of Healing", f"--copies={value}")
    wording = (f"'{value}' is not a number; write it in the digits 0-9, e.g. 3" if not value.isascii() or "_" in value
               else "is too large; give a whole number from -9223372036854775808 to 9223372036854775807")
    refused_typed(result, wording)


# ------------------------------------------------------------------ typed: the numbers inside words

#: The numbers a command reads out of a word (`red=2`, `+1`, a slot, a chapter), "{}" where it stands.
HAND_PARSED = [
    ("rules", "set", "--rune-bag", "red={}"),
    ("cube", "Nyx", "trauma", "{}"),
    ("cube", "Nyx", "trauma", "+{}"),
    ("cube", "Nyx", "curse", "-{}"),
    ("pile", "add", "--runes", "red={}"),
    ("tiebreak", "1", "--runes", "red={}"),
    ("monster", "remove", "{}"),
    ("monster", "add", "Tidehunter", "--slot", "{}"),
    ("chapter", "show", "{}"),
    ("chapter", "complete", "{}"),
    ("recruit", "--chapter", "{}"),
    ("adventure", "start", "{}"),
    ("battalion", "Vile Spawn", "--models", "{}"),
    ("battalion", "Vile Spawn", "--models", "Vile Spawn={}"),
]


def numeric_hostile(huge: bool = True) -> st.SearchStrategy[str]:
    """Text written as a number and not one drunagor reads (so a word there is not taken for a name);
    `huge`: ASCII numbers past 64 bits too (a chapter of 20 digits is no chapter: exit 1, as `10`)."""
    digit = st.sampled_from(UNICODE_DIGITS)
    ascii_digits = st.text("0123456789", min_size=1, max_size=4)
    return st.one_of(st.text(digit, min_size=1, max_size=3),
                     st.tuples(ascii_digits, digit).map("".join),
                     st.tuples(digit, ascii_digits).map("".join),
                     st.tuples(ascii_digits, ascii_digits).map("_".join),
                     st.tuples(ascii_digits, st.sampled_from(["\u2003", "\u00a0", " "]), ascii_digits).map("".join),
                     *([huge_numbers().filter(lambda t: t not in ("9223372036854775808", "-9223372036854775809"))]
                       if huge else []))


@pytest.mark.parametrize("value", ["²", "①", "٣"])
@pytest.mark.parametrize("line", HAND_PARSED, ids=[" ".join(line) for line in HAND_PARSED])
def test_a_number_inside_a_word_is_refused_as_not_a_number(line, value, example, run):
    """The tracebacks of issue 32 (`rules set --rune-bag red=²`, `cube Nyx trauma +①`, `pile add --runes
    red=²`, `monster remove ²`, `monster add Horde --slot ²`) and the chapters that took `٣` for 3."""
    before = snapshot(example)
    result = run(*(word.format(value) for word in line))
    refused_typed(result, "is not a number; write it in the digits 0-9, e.g. ")
    assert result.stderr.startswith("error: ") and value in result.stderr and result.stdout == ""
    assert snapshot(example) == before


@pytest.mark.parametrize("line", HAND_PARSED, ids=[" ".join(line) for line in HAND_PARSED])
def test_hostile_numbers_inside_words(line, example, run):
    before = snapshot(example)

    @FEW
    @given(numeric_hostile(huge=not ({"chapter", "--chapter", "start"} & set(line))))
    def attack(value):
        result = run(*(word.format(value) for word in line))
        refused_typed(result, "error: ")
        assert any(says in result.stderr for says in (NOT_A_NUMBER, "is too large; give", "is too small; give")), \
            result.stderr

    attack()
    assert snapshot(example) == before


def test_cubes_past_64_bits_are_never_written(example, run):
    """`cube Nyx trauma 9223372036854775808` wrote a TOML integer no other tool reads."""
    before = snapshot(example)
    refused_typed(run("cube", "Nyx", "trauma", "9223372036854775808"),
                  "error: 9223372036854775808 is too large; give a whole number from -9223372036854775808 to "
                  "9223372036854775807")
    assert snapshot(example) == before
    assert run("cube", "Nyx", "curse", "--capacity", "9223372036854775807", "+9223372036854775800").exit_code == 0
    written = snapshot(example)
    refused_typed(run("cube", "Nyx", "curse", "+100"),
                  "error: Nyx cannot hold 9223372036854775900 Curse Cubes: past the whole numbers a campaign file "
                  "holds; give the cubes received or lost, e.g. +1")
    assert snapshot(example) == written


# ------------------------------------------------------------------------------------------ in a file

READERS = [("show",), ("check",), ("adventure", "show"), ("odds",), ("sheet", "--out", "-")]


def put(example: Path, name: str, old: str, new: str) -> None:
    path = example / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def refused_in_file(result, says: str) -> None:
    assert result.exit_code == 3, result
    assert "Traceback" not in result.stderr + result.stdout
    assert says in result.stderr + result.stdout, result


@pytest.mark.parametrize("file, old, new, says", [
    ("adventure.toml", "heroes = 4", "heroes = " + "9" * 5000,
     "adventure.toml:4: limits: a whole number of more than 4,300 digits, far past TOML's 64-bit integers"),
    ("adventure.toml", "heroes = 4", "heroes = 1" + "_0" * 4400,
     "adventure.toml:4: limits: a whole number of more than 4,300 digits"),
    ("adventure.toml", "heroes = 4", "heroes = 9223372036854775808",
     "adventure.toml:4: limits: a whole number past TOML's 64-bit integers (at `heroes`): more than a campaign holds"),
    ("story.toml", "red = 7", "red = -9223372036854775809",
     "story.toml:22: limits: a whole number past TOML's 64-bit integers (at `rules.rune_bag.red`)"),
    ("story.toml", '"01" = "completed"', '"٠١" = "completed"', "story.toml:14: shape: unknown chapter '٠١'"),
])
def test_a_number_a_file_holds_past_the_rule_is_a_data_error(file, old, new, says, example, run):
    put(example, file, old, new)
    before = snapshot(example)
    for reader in READERS if file == "adventure.toml" else [r for r in READERS if r != ("odds",)]:  # odds: no story
        refused_in_file(run(*reader), says)
    assert snapshot(example) == before


def test_a_pile_and_an_archive_named_in_other_digits_are_names(example, run):
    """A pile `id = "²"` and an archive `0³-1.toml` were tracebacks (`'²'.isdigit()`, then int())."""
    put(example, "adventure.toml", 'id = "2"', 'id = "²"')
    (example / "adventures" / "0³-1.toml").write_bytes((example / "adventures" / "03-1.toml").read_bytes())
    for reader in READERS:
        result = run(*reader)
        assert result.exit_code == 0, result
    assert run("pile", "add").stdout.startswith("Pile 2 on the board")


# A number followed by a line break is a number to TOML too (`heroes = 1` and an empty line): not hostile there.
@given(st.one_of(hostile_numbers().filter(lambda v: not v.endswith("\n")), huge_numbers()))
@FEW
def test_hostile_numbers_in_adventure_toml(tmp_path_factory, value):
    """Whatever stands where adventure.toml has a number, every reading command says exit 3 (syntax,
    limits or the value's shape), never a traceback, and nothing is written."""
    from typer.testing import CliRunner

    from drunagor_log.cli.app import app

    root = tmp_path_factory.mktemp("hostile") / "example"
    shutil.copytree(EXAMPLE, root)
    put(root, "adventure.toml", "heroes = 4", f"heroes = {value}")
    before = snapshot(root)
    for reader in READERS:
        result = CliRunner().invoke(app, ["-C", str(root), *reader], catch_exceptions=False)
        assert result.exit_code == 3, (reader, result.output)
        assert "Traceback" not in result.output
    assert snapshot(root) == before


def test_a_write_never_leaves_an_integer_past_64_bits(example, run):
    """The store's writers refuse a whole number TOML does not hold (a backstop under every domain)."""
    from drunagor_log.errors import DataError
    from drunagor_log.store import edit, tomltext

    with pytest.raises(DataError, match="past TOML's 64-bit integers"):
        tomltext.integer(2 ** 63)
    with pytest.raises(DataError, match="past TOML's 64-bit integers"):
        edit.value_text(-(2 ** 63) - 1)
    assert tomltext.integer(2 ** 63 - 1) == "9223372036854775807"
    # and a document edited in place (tomlkit writes any int): its bytes are refused before any write
    from drunagor_log.store import load

    story = load(example / "story.toml")
    story.edit()["zz"] = 2 ** 64
    with pytest.raises(DataError) as refused:
        story.new_bytes()
    assert refused.value.render().endswith("story.toml: limits: 18446744073709551616 is past TOML's 64-bit integers "
                                           "(-9223372036854775808 to 9223372036854775807), which no other tool reads "
                                           "back; nothing was written; give a smaller number")


# ------------------------------------------------------------------------------------ tokens (JSON)


def _strict(text: str):
    """JSON as any other tool reads it: NaN and Infinity are not JSON."""
    import json

    def refuse(name):
        raise AssertionError(f"{name} in JSON output")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999", "9223372036854775808", "9" * 5000])
def test_a_token_number_past_the_rule_is_refused(number, tmp_path, run):
    import base64
    import json

    from tests.interop.test_token import CURRENT

    text = json.dumps(json.loads(base64.b64decode(CURRENT).decode("latin-1")), separators=(",", ":"))
    hostile = text.replace('"sequentialAdventureRunes":0', f'"sequentialAdventureRunes":{number}')
    assert hostile != text
    (tmp_path / "token.txt").write_text(base64.b64encode(hostile.encode("latin-1")).decode())
    result = run("import", "token.txt", "--dir", "campaigns")
    assert result.exit_code == 3, result
    assert result.stderr.startswith("error: token.txt: token: not a campaign token: the decoded text is not JSON (")
    assert "is not a number JSON allows" in result.stderr or "is past what a number holds" in result.stderr or \
        "is too large" in result.stderr
    assert not (tmp_path / "campaigns").exists()


def test_nan_kept_under_app_is_never_exported(tmp_path, run):
    from tests.interop.test_token import CURRENT

    roles = ["--role", "Andreas=Support", "--role", "Catharina=Controller", "--role", "Nyx=Striker",
             "--role", "Vacrem=Defender"]
    assert run("import", CURRENT, "--dir", "campaigns", *roles).exit_code == 0
    story = tmp_path / "campaigns" / "safeguard-corporation" / "story.toml"
    text = story.read_text(encoding="utf-8")
    kept = '\\"sequentialAdventureRunes\\": 0'  # inside the TOML string that keeps the token's JSON
    assert kept in text
    story.write_text(text.replace(kept, kept.replace("0", "NaN")), encoding="utf-8")
    out = run("-C", str(story.parent), "export", "--json")
    assert out.exit_code == 0, out
    assert _strict(out.stdout)["campaignData"]["sequentialAdventureRunes"] == 0


# ------------------------------------------------------------------------------------ inside `play`


def test_a_huge_number_in_a_file_is_one_refusal_a_line_in_play(example, capsys):
    """In the table session the file is read before every line: each line is the same one message
    (exit 3) and the status line names it, never a ValueError traceback on every line."""
    from drunagor_log.play import status
    from drunagor_log.play.dispatch import Dispatcher

    put(example, "adventure.toml", "heroes = 4", "heroes = " + "9" * 5000)
    before = snapshot(example)
    dispatcher = Dispatcher(example, ["-C", str(example)], script=True)
    for line in ("odds", "raid --dry-run", "monster remove ²", "draw ٣", "show", "chest add X --copies ①"):
        outcome = dispatcher.handle(line)
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        if "--copies" in line or "draw" in line:  # an int parameter: refused before any file is read
            assert outcome.code == 2, (line, err)
            assert NOT_A_NUMBER in err
        else:
            assert outcome.code == 3, (line, err)
            assert "adventure.toml:4: limits: a whole number of more than 4,300 digits" in err
    bar = status.Status(example, colour=False).read()
    assert "adventure.toml:4: a whole number of more than 4,300 digits" in str(bar)
    assert snapshot(example) == before


# --------------------------------------------------------------- through the installed script, bounded

SURFACE = "numbers"
ENV = {"NO_COLOR": "1", "COLUMNS": "120", "LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"}


def script(root: Path, *args: str) -> bounded.Outcome:
    out = bounded.drunagor("-C", str(root), *args, surface=SURFACE, cwd=root.parent,
                           env={**ENV, "XDG_CACHE_HOME": str(root.parent / "cache")})
    assert not out.timed_out, out
    assert "Traceback" not in out.stderr + out.stdout, out.stderr
    return out


def one_error(out: bounded.Outcome, code: int, says: str) -> None:
    assert out.returncode == code, out
    assert says in out.stderr, out.stderr
    assert out.stdout == "" and out.stderr.lower().count("error:") == 1, out


@pytest.fixture
def copy(tmp_path) -> Path:
    root = tmp_path / "example"
    shutil.copytree(EXAMPLE, root)
    return root


@pytest.mark.slow
def test_every_int_parameter_through_the_script(copy):
    before = snapshot(copy)
    for i, (path, param) in enumerate(INT_PARAMETERS):
        value = ["٣", "²", "１", "9" * 5000, "1_0", "①"][i % 6]
        one_error(script(copy, *typed_line(path, param, value)), 2, "Invalid value for ")
    assert snapshot(copy) == before


@pytest.mark.slow
def test_the_issue_tracebacks_through_the_script(copy):
    """Each line of issue 32 that ended in a traceback, through the installed script."""
    before = snapshot(copy)
    for line in (("rules", "set", "--rune-bag", "red=²"), ("cube", "Nyx", "trauma", "+①"),
                 ("pile", "add", "--runes", "red=²"), ("monster", "remove", "²"),
                 ("monster", "add", "Horde", "--slot", "²")):
        one_error(script(copy, *line), 2, NOT_A_NUMBER)
    one_error(script(copy, "cube", "Nyx", "trauma", "9223372036854775808"), 2, TOO_LARGE)
    assert snapshot(copy) == before
    put(copy, "adventure.toml", "heroes = 4", "heroes = " + "9" * 5000)
    broken = snapshot(copy)
    for reader in READERS:
        out = script(copy, *reader)
        assert out.returncode == 3, out
        assert "adventure.toml:4: limits: a whole number of more than 4,300 digits" in out.stderr + out.stdout
    assert snapshot(copy) == broken


@pytest.mark.slow
@settings(max_examples=12, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.sampled_from(INT_PARAMETERS), st.one_of(hostile_numbers(), huge_numbers()))
def test_hostile_numbers_through_the_script(copy, parameter, value):
    path, param = parameter
    before = snapshot(copy)
    one_error(script(copy, *typed_line(path, param, value)), 2, "Invalid value for ")
    assert snapshot(copy) == before


def test_a_schema_line_past_64_bits_is_newer_than_any_drunagor():
    """The schema looked for in a file's bytes before a whole replacement (int() raised past 4,300 digits)."""
    from drunagor_log.store import schema_of

    assert schema_of(b"schema = 1\n") == 1
    assert schema_of(b"schema = " + b"9" * 5000 + b"\n") == numbers.INT64_MAX

"""Completion attacked (SPEC section 10, "completion"): a campaign from a stranger holds hostile names
in every file completion reads (heroes, the cards a hero holds, Class Abilities, skills, followers,
the stash, recorded cards), and the real bash, zsh and fish complete them in a pseudo-terminal, loaded
as docs/index.md tells a user. After Tab the line is run: `drunagor` is then a shell function that
records its arguments, so each test sees the words the completed line gives a command.

Each asserts (a) no side effect: no file appears or changes anywhere under the test's folder (the
campaign, the shell's home, the working folder), and (b) the right word: the completed line passes
exactly the hostile name as one argument."""

from __future__ import annotations

import json
import resource
import shlex
import shutil
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from tests.conftest import EXAMPLE, MINIMAL_STORY

from . import bounded, ptyshell

SHELLS = ("bash", "zsh", "fish")
EXAMPLES = 15  # generated hostile names per shell, besides the explicit ones (METACHARACTER_NAMES)

RECORD = """import json, os, sys
out = os.environ["ARGV_OUT"]
with open(out + ".part", "w", encoding="utf-8") as f:
    json.dump(sys.argv[1:], f)
os.replace(out + ".part", out)
"""


def need(shell: str) -> None:
    if not ptyshell.installed(shell):
        pytest.skip(f"{shell} is not installed on this machine (.ci/run installs it)")


def toml_string(text: str) -> str:
    """A TOML basic string of `text` (JSON's escapes are TOML's; non-ASCII stays as it is)."""
    return json.dumps(text, ensure_ascii=False)


def hero_toml(name: str = "Hero", item: str = "Short Sword", ability: str = "Ability", skill: str = "Skill") -> str:
    return (f"schema = 1\nname = {toml_string(name)}\nclass = \"Assassin\"\nrole = \"Striker\"\n"
            f"player = \"X\"\njoined = \"01\"\nstatuses = []\nclass_abilities = [{toml_string(ability)}]\n"
            f"skills = [{{ name = {toml_string(skill)}, tree = \"agility\", level = 1, chapter = \"01\" }}]\n"
            f"equipment = [{{ name = {toml_string(item)}, kind = \"starting\", place = \"equipped\" }}]\n")


def story_toml(followers=(), stash=(), cards=()) -> str:
    head, rest = MINIMAL_STORY.lstrip("\n").split("followers = []\n")
    text = head + f"followers = [{', '.join(map(toml_string, followers))}]\n"
    text += f"stash = [{', '.join(map(toml_string, stash))}]\n" + rest
    if cards:
        text += "\n[cards]\n" + "".join(f'{toml_string(c)} = {{ type = "potion" }}\n' for c in cards)
    return text


def in_hero(field: str):
    return lambda n: {"heroes/hero.toml": hero_toml(**{field: n}), "story.toml": story_toml()}


def in_story(key: str):
    return lambda n: {"heroes/hero.toml": hero_toml(), "story.toml": story_toml(**{key: [n]})}


# Where a name comes from: the command line completing it, and the campaign's files holding it.
SOURCES = {
    "hero": ("hero show", in_hero("name")),
    "item": ("hero drop Hero", in_hero("item")),
    "ability": ("hero forget Hero", in_hero("ability")),
    "skill": ("hero unlearn Hero", in_hero("skill")),
    "follower": ("follower remove", in_story("followers")),
    "stash": ("stash remove", in_story("stash")),
    "card": ("card forget", in_story("cards")),
}


class Table:
    """A folder holding a campaign (the working folder), the shell's home, and the stand-in's record."""

    def __init__(self, tmp: Path, shell: str):
        self.tmp, self.shell = tmp, shell
        self.play, self.home, self.out = tmp / "play", tmp / "home", tmp.parent / f"{tmp.name}-out"
        for d in (self.play / "heroes", self.home, self.out):
            d.mkdir(parents=True, exist_ok=True)
        (self.out / "record.py").write_text(RECORD)
        self.argv_file = self.out / "argv.json"
        self.surface = f"completion ({shell} in a pty, one line)"

    def env(self) -> dict[str, str]:
        bin_dir = str(Path(bounded.drunagor_script()).parent)
        return {"PATH": f"{bin_dir}:/usr/bin:/bin", "TERM": "xterm", "LANG": "C.UTF-8", "NO_COLOR": "1",
                "XDG_CACHE_HOME": str(self.out / "cache"), "ARGV_OUT": str(self.argv_file),
                "STAND_IN": f"{shlex.quote(sys.executable)} {shlex.quote(str(self.out / 'record.py'))}"}

    def plant(self, files: dict[str, str]) -> None:
        for rel, text in files.items():
            (self.play / rel).write_text(text, encoding="utf-8")

    def files(self) -> dict[str, bytes]:
        """Every file and link under the test's folder (campaign, home, working folder), with its bytes."""
        return {str(p.relative_to(self.tmp)): (p.read_bytes() if p.is_file() else b"<dir>")
                for p in sorted(self.tmp.rglob("*"))}

    def run(self, sh: ptyshell.Shell, keys: str) -> list[str]:
        """Type `keys` (Tab where completion is wanted), press Enter; the arguments `drunagor` got."""
        self.argv_file.unlink(missing_ok=True)
        start = time.perf_counter()
        sh.send(keys)
        sh.send("\r")
        deadline = time.monotonic() + ptyshell.WAIT
        while not self.argv_file.exists():
            if time.monotonic() > deadline:
                sh.send("\x03")  # the line dropped (an open quote waits for more): the next starts clean
                raise ptyshell.ShellTimeout(f"{self.shell}: the line {keys!r} never ran drunagor; it printed:\n"
                                            f"{sh.output.decode(errors='replace')[-3000:]}")
            sh.pump(0.01)
        bounded.record(self.surface, time.perf_counter() - start, 0)
        sh.next_prompt()
        return json.loads(self.argv_file.read_text(encoding="utf-8"))


@contextmanager
def session(tmp_path: Path, shell: str, campaign: dict[str, str] | None = None):
    need(shell)
    table = Table(tmp_path, shell)
    table.plant(campaign or SOURCES["hero"][1]("Hero"))
    sh = ptyshell.start(shell, table.home, table.play, table.env())
    try:
        yield table, sh
    finally:
        sh.close()
        # the shell reaped: its peak, and that of every drunagor it ran, are in the children's figures
        bounded.record(table.surface, 0.0, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, runs=0)
        shutil.rmtree(table.out, ignore_errors=True)


def complete_and_check(table: Table, sh: ptyshell.Shell, typed: str, expected: list[str]) -> None:
    before = table.files()
    got = table.run(sh, typed)
    after = table.files()
    assert after == before, f"{table.shell}: {typed!r} changed files: {sorted(set(after) ^ set(before))}"
    assert got == expected, f"{table.shell}: {typed!r}"


# ------------------------------------------------------------------------------ the cases


def test_case1_zsh_hero_show_tab_never_runs_a_backslash_dollar_name(tmp_path):
    """zsh, a hero named `\\$(touch PWNED)` in heroes/*.toml: `drunagor hero show <Tab>`."""
    name = "\\$(touch PWNED)"
    with session(tmp_path, "zsh", SOURCES["hero"][1](name)) as (table, sh):
        complete_and_check(table, sh, "drunagor hero show \t", ["hero", "show", name])
        assert not list(tmp_path.rglob("PWNED"))


def test_case2_bash_hero_drop_nyx_bloo_inserts_blooded_sword_as_one_argument(tmp_path):
    """bash, the example campaign (Nyx holds Blooded Sword): `drunagor hero drop Nyx Bloo<Tab>`."""
    need("bash")
    campaign = {str(p.relative_to(EXAMPLE)): p.read_text(encoding="utf-8")
                for p in EXAMPLE.rglob("*.toml")}
    assert 'name = "Blooded Sword"' in campaign["heroes/nyx.toml"]
    for rel in {str(Path(r).parent) for r in campaign}:
        (tmp_path / "play" / rel).mkdir(parents=True, exist_ok=True)
    with session(tmp_path, "bash", campaign) as (table, sh):
        complete_and_check(table, sh, "drunagor hero drop Nyx Bloo\t", ["hero", "drop", "Nyx", "Blooded Sword"])


@pytest.mark.parametrize("shell", SHELLS)
def test_names_ending_in_a_backslash_never_chain_into_code(tmp_path, shell):
    """Several names in one answer, the first ending in `\\`: listed (Tab twice), then the line
    killed (^U) and a line run that says the shell is back."""
    with session(tmp_path, shell) as (table, sh):
        table.plant({"heroes/hero.toml": hero_toml(name="a\\"), "heroes/two.toml": hero_toml(name="a$(touch PWNED)\\"),
                     "heroes/three.toml": hero_toml(name="a`touch PWNED`")})
        before = table.files()
        assert table.run(sh, "drunagor hero show a\t\t\x15drunagor done") == ["done"]
        assert table.files() == before


SEVERAL_WORDS = [
    ("drunagor hero drop Nyx Bloo\t", ["hero", "drop", "Nyx", "Blooded Sword"]),
    ("drunagor hero drop Nyx 'Bloo\t", ["hero", "drop", "Nyx", "Blooded Sword"]),
    ('drunagor hero drop Nyx "Bloo\t', ["hero", "drop", "Nyx", "Blooded Sword"]),
    ("drunagor hero drop Nyx Blooded\\ S\t", ["hero", "drop", "Nyx", "Blooded Sword"]),
    ("drunagor hero forget Nyx Ass\t", ["hero", "forget", "Nyx", "Assassin ability (chapter 03)"]),
    ("drunagor follower add Vor\t", ["follower", "add", "Vorn the Warrior"]),
    ("drunagor status remove Imm\t", ["status", "remove", "Imminent Danger"]),
    ("drunagor card show 'Potion of Hea\t", ["card", "show", "Potion of Healing"]),
    ("drunagor raid --rune=gre\t", ["raid", "--rune=green"]),
]


@pytest.mark.parametrize("shell", SHELLS)
def test_a_name_of_several_words_completes_as_one_argument(tmp_path, shell):
    """Items, Class Abilities, followers, statuses, potions: each completes as one argument."""
    campaign = {str(p.relative_to(EXAMPLE)): p.read_text(encoding="utf-8") for p in EXAMPLE.rglob("*.toml")}
    for rel in {str(Path(r).parent) for r in campaign}:
        (tmp_path / "play" / rel).mkdir(parents=True, exist_ok=True)
    with session(tmp_path, shell, campaign) as (table, sh):
        # bash, whose quoting drunagor does, tries them all; zsh and fish quote for themselves
        for typed, expected in SEVERAL_WORDS if shell == "bash" else [SEVERAL_WORDS[i] for i in (1, 2, 4, 7, 8)]:
            complete_and_check(table, sh, typed, expected)


# ------------------------------------------------------------------------------ generated names

# Given every time: the issue's names and the shells' sharpest edges
METACHARACTER_NAMES = ["\\`touch PWNED\\`", "`touch PWNED`", "$(touch PWNED)", ";touch PWNED", "x\\",
                       "-rf $(touch PWNED) *", "a\\\\$(touch PWNED)", "it's \"$(touch PWNED)\" !!",
                       "~root", "日本 evil", "a'b'c", "x'\\'y $(touch PWNED)",
                       "'lead quote", "tail quote'"]

FRAGMENTS = ["$(touch PWNED)", "\\$(touch PWNED)", "`touch PWNED`", "\\`touch PWNED\\`", ";touch PWNED",
             "|touch PWNED", "&touch PWNED", "&&touch PWNED", ">PWNED", "<PWNED", "$((1+1))", "${IFS}", "$HOME",
             "$", "\\", "\\\\", "'", '"', "'\\''", " ", "  ", "*", "?", "[!a]", "{a,b}", "~", "!", "!!", "!-1",
             "^x^y", "#", "-", "--", "=", ":", "%", "@", "(", ")", "é", "Ωmega",
             "日本", "\u00a0", "\U0001f409", "a", "Bloo", "PWNED", "\\n", "%s", "%(x)"]
fragments = st.sampled_from(FRAGMENTS)
# mostly the shells' metacharacters, with letters and symbols of any script between them
letters = st.text(st.characters(codec="utf-8", categories=["L", "N", "P", "S"]), min_size=1, max_size=3)
# a name of blanks alone is a broken file (`shape`), never a name: nothing to complete
names = st.lists(st.one_of(fragments, fragments, fragments, letters), min_size=1, max_size=5).map("".join).filter(
    str.strip)


FISH_NO_SPACE = "/=@:.,-"


def explicit(names_given: list[str]):
    """Each name as an explicit example, completed from nothing and from a typed start."""
    def decorate(test):
        for i, name in enumerate(names_given):
            test = example(name=name, source="hero" if i % 2 else "item", cut=i % 3, how="quote")(test)
        return test
    return decorate


def typed_prefix(shell: str, prefix: str, how: str) -> str:
    """`prefix` as a user types it: in an open single quote, or with backslashes (then Tab)."""
    if how == "quote":
        if shell == "fish":
            return "'" + prefix.replace("\\", "\\\\").replace("'", "\\'")
        return "'" + prefix.replace("'", "'\\''")
    return "".join("\\" + ch if ch.isascii() and not ch.isalnum() else ch for ch in prefix)


@pytest.mark.parametrize("shell", SHELLS)
def test_generated_hostile_names_complete_as_themselves_and_never_run(tmp_path, shell):
    with session(tmp_path, shell) as (table, sh):
        @settings(max_examples=EXAMPLES, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
        @given(name=names, source=st.sampled_from(sorted(SOURCES)), cut=st.integers(0, 4),
               how=st.sampled_from(["quote", "backslash"]))
        @explicit(METACHARACTER_NAMES)
        def attack(name, source, cut, how):
            assume(not (shell == "fish" and name.startswith("~")))  # not offered to fish (see below)
            line, files = SOURCES[source]
            table.plant(files(name))
            words = line.split()
            prefix = name[:cut]
            if shell == "fish":
                # fish takes a typed `*` last for a wildcard, and leaves the word as typed; after a
                # name ending in one of `/=@:.,-` it neither adds a space nor closes an open quote
                # (a quote opened with nothing after it too: `'` then Tab gives `'-`)
                assume(not prefix.endswith("*"))
                assume(not (how == "quote" and name[-1] in FISH_NO_SPACE))
            dashes = ["--"] if prefix.startswith("-") else []
            typed = f"drunagor {line} {'-- ' if dashes else ''}{typed_prefix(shell, prefix, how)}\t"
            complete_and_check(table, sh, typed, [*words, *dashes, name])

        attack()


# ------------------------------------------------------------------------------ the answer itself


def ask(cwd: Path, shell: str, *args: str) -> list[str]:
    """drunagor's answer to a request as the shell's script makes it, run bounded: its lines."""
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "_DRUNAGOR_COMPLETE": shell, "HOME": str(cwd)}
    r = bounded.drunagor(*args, surface="completion (one request)", cwd=cwd, env=env)
    assert (r.returncode, r.stderr, r.timed_out) == (0, "", False)
    return r.stdout.split("\n")[:-1] if r.stdout else []


def test_a_name_holding_a_control_character_is_never_offered(tmp_path):
    """A newline, tab, CR, escape sequence, NUL, DEL or C1 control cannot travel as one line, and in
    the list it would drive the terminal; a bidi, format or separator character the shell would draw raw
    (issue 41.6): such a name is left out, the others are offered (a unique prefix still reaches it)."""
    hostile = ["new\nline", "tab\there", "cr\rx", "esc\x1b]0;owned\x07", "nul\x00x", "del\x7f", "c1\x85x",
               "ls\u2028x", "bidi\u202ex", "iso\u2066x\u2069", "zw\u200bx"]
    files = {f"heroes/h{i}.toml": hero_toml(name=n) for i, n in enumerate(["ok", "日本 ok", *hostile])}
    (tmp_path / "heroes").mkdir()
    for rel, text in files.items():
        (tmp_path / rel).write_text(text.replace("\x7f", "\\u007f").replace("\x85", "\\u0085"), encoding="utf-8")
    (tmp_path / "story.toml").write_text(story_toml(), encoding="utf-8")
    assert ask(tmp_path, "zsh", "hero", "show", "") == ["ok", "日本 ok"]
    assert ask(tmp_path, "fish", "hero", "show", "") == ["ok", "日本 ok"]
    assert ask(tmp_path, "bash", "drunagor hero show ", "") == ["ok", "日本\\ ok"]


def test_fish_is_not_offered_a_name_that_starts_with_a_tilde(tmp_path):
    """fish inserts a completion's leading `~` unescaped (it completes `~/` paths so), and the word
    would become a home folder: fish is not offered the name; bash and zsh are, quoted."""
    (tmp_path / "heroes").mkdir()
    (tmp_path / "heroes" / "hero.toml").write_text(hero_toml(name="~root"), encoding="utf-8")
    (tmp_path / "story.toml").write_text(story_toml(), encoding="utf-8")
    assert ask(tmp_path, "fish", "hero", "show", "") == []
    assert ask(tmp_path, "zsh", "hero", "show", "") == ["~root"]  # compadd escapes the ~
    assert ask(tmp_path, "bash", "drunagor hero show ", "") == ["\\~root"]


@given(name=names)
@settings(max_examples=60, deadline=None, database=None)
def test_bash_reads_back_every_quoted_candidate_as_the_name(name):
    """The text bash is given for a name, for each quoting a user may have opened before it, put on
    the line as readline puts it (in a quote, the text starts with the quote's character and takes
    the opening quote's place), read back by a real bash (`printf`)."""
    from drunagor_log.cli.completion_shells import replacement_bash

    need("bash")
    words = [replacement_bash(name, ""), replacement_bash(name, "'"), replacement_bash(name, '"'),
             "$" + replacement_bash(name, "$'")]
    if len(name) > 1:  # the start typed unquoted, then a quote opened: `N'` + the rest
        words.append(replacement_bash(name[:1], "") + replacement_bash(name[1:], "'"))
    r = bounded.run(["bash", "--norc", "--noprofile", "-c", "printf '%s\\0' " + " ".join(words)],
                    surface="completion (bash reads a quoted word)", env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\0")[:-1] == [name] * len(words)

"""Global options anywhere on the line, discovery from a folder inside a campaign, and shell
completion driven through its real protocol (the shell's environment variables, a subprocess)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def test_global_options_after_the_command(run, example, tmp_path):
    before = run("-C", str(example), "hero", "show", "Nyx")
    assert before.exit_code == 0
    for args in (("hero", "show", "Nyx", "-C", str(example)),
                 ("hero", "show", "-C", str(example), "Nyx", "--no-color"),
                 ("hero", "show", "Nyx", f"--campaign={example}")):
        after = run(*args)
        assert (after.exit_code, after.stdout, after.stderr) == (0, before.stdout, ""), args


def test_show_no_color_after_the_command(run, example):
    assert run("show", "--no-color").stdout == run("--no-color", "show").stdout != ""


def test_nothing_after_double_dash_moves():
    from drunagor_log.cli.app import globals_first

    assert globals_first(["party", "--", "-C"]) == ["party", "--", "-C"]
    assert globals_first(["party", "X", "-C", "d", "--no-color"]) == ["-C", "d", "--no-color", "party", "X"]


def test_discovery_walks_up_from_a_folder_inside_the_campaign(run, example, monkeypatch):
    monkeypatch.chdir(example / "heroes")
    r = run("hero", "show", "Nyx")
    assert r.exit_code == 0 and r.stdout.startswith("Nyx: Assassin, Striker")


@pytest.mark.parametrize("shell, marker", [("bash", "complete -o default -F _drunagor_completion drunagor"),
                                           ("zsh", "#compdef drunagor"), ("fish", "complete --command drunagor")])
def test_completion_script(run, shell, marker):
    r = run("completion", shell)
    assert r.exit_code == 0 and marker in r.stdout and "_DRUNAGOR_COMPLETE" in r.stdout


def test_completion_of_an_unknown_shell_is_a_usage_error(run):
    r = run("completion", "tcsh")
    assert r.exit_code == 2
    assert r.stderr == "error: no completion for the shell 'tcsh'; use one of bash, zsh, fish\n"


def _complete(cwd, shell: str, line: str) -> list[str]:
    """The candidates drunagor answers, asked as the shell's script asks (completion_shells): bash
    passes the line up to the cursor and the text it will replace; zsh and fish the words."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMP_", "_TYPER", "_DRUNAGOR"))}
    env["_DRUNAGOR_COMPLETE"] = shell
    words = line.split(" ")
    args = [line, words[-1]] if shell == "bash" else words[1:]
    r = subprocess.run([sys.executable, "-m", "drunagor_log", *args], cwd=cwd, env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return r.stdout.split("\n")[:-1] if r.stdout else []


def test_completion_offers_campaign_and_catalog_names(example):
    assert _complete(example, "bash", "drunagor hero show ") == ["Andreas", "Catharina", "Nyx", "Vacrem"]
    assert _complete(example, "bash", "drunagor hero show Ca") == ["Catharina"]
    assert _complete(example, "bash", "drunagor hero drop Nyx ") == [
        "Blooded\\ Sword", "Leather\\ Armor", "Twin-Blades"]
    assert _complete(example, "zsh", "drunagor hero drop Nyx ") == ["Blooded Sword", "Leather Armor", "Twin-Blades"]
    assert _complete(example, "bash", "drunagor raid --rune ") == ["red", "blue", "green", "orange", "gray"]
    assert _complete(example, "bash", "drunagor chapter show ") == [f"0{n}" for n in range(1, 10)]
    assert "raid" in _complete(example, "bash", "drunagor ra")
    assert "--dry-run" in _complete(example, "bash", "drunagor raid --")
    assert _complete(example, "fish", "drunagor follower add Vo") == ["Vorn the Warrior"]
    assert _complete(example, "bash", "drunagor -C . status remove ") == ["Imminent\\ Danger"]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_the_menus_descriptions_carry_no_short_citation(example, shell):
    out = _complete(example, shell, "drunagor ")
    assert "party\tSet the party's name." in out and "chapter\tThe Adventure Track and the chapter briefings." in out
    assert [line for line in out if "RB L" in line] == []  # short citation


def test_completion_of_monsters_on_the_board_in_zsh(example):
    out = _complete(example, "zsh", "drunagor monster remove ")
    for name in ("Fell Asteris", "Gremlin Horde", "Tidehunter"):
        assert name in out


def test_completion_outside_a_campaign_offers_nothing_and_no_error(tmp_path):
    assert _complete(tmp_path, "bash", "drunagor hero show ") == []


def _bash(cwd, line: str, text: str) -> list[str]:
    """bash's request: the line up to the cursor and the text after its last word break."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMP_", "_TYPER", "_DRUNAGOR"))}
    env["_DRUNAGOR_COMPLETE"] = "bash"
    r = subprocess.run([sys.executable, "-m", "drunagor_log", line, text], cwd=cwd, env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return r.stdout.split("\n")[:-1] if r.stdout else []


@pytest.mark.parametrize("line, text, expected", [
    ("drunagor hero drop Nyx Bloo", "Bloo", ["Blooded\\ Sword"]),
    # in a quote, the text starts and ends with the quote's character: bash then replaces the
    # opening quote with it and adds no closing one, whatever the name holds
    ("drunagor hero drop Nyx 'Bloo", "Bloo", ["'Blooded Sword'"]),
    ('drunagor hero drop Nyx "Bloo', "Bloo", ['"Blooded Sword"']),
    ("drunagor hero drop Nyx $'Bloo", "Bloo", ["'Blooded Sword'"]),
    ("drunagor hero drop Nyx Blooded\\ S", "Blooded\\ S", ["Blooded\\ Sword"]),
    ("drunagor hero drop Nyx 'Blooded S'w", "'Blooded S'w", ["Blooded\\ Sword"]),
    ("drunagor hero forget Nyx Ass", "Ass", ["Assassin\\ ability\\ \\(chapter\\ 03\\)"]),
    ('drunagor hero forget Nyx "Assassin ability (', "Assassin ability (", ['"Assassin ability (chapter 03)"']),
    ("drunagor raid --rune=gr", "gr", ["green", "gray"]),  # bash keeps `--rune=`
    ("drunagor hero drop Nyx $(x", "x", []),  # a command substitution open: nothing is safe there
    ("drunagor hero drop Nyx Bloo\\", "Bloo\\", []),  # what the backslash escapes is not typed yet
])
def test_bash_gets_each_candidate_quoted_for_the_text_it_replaces(example, line, text, expected):
    assert _bash(example, line, text) == expected


def test_bash_quotes_the_rest_of_a_name_after_a_word_break(example):
    (example / "heroes" / "nyx.toml").write_text((example / "heroes" / "nyx.toml").read_text().replace(
        'name = "Nyx"', 'name = "Nyx:the $(dark)"'))
    assert _bash(example, "drunagor hero show Nyx:t", "t") == ["the\\ \\$\\(dark\\)"]  # bash keeps `Nyx:`
    assert _bash(example, "drunagor hero show 'Nyx:t", "Nyx:t") == ["'Nyx:the $(dark)'"]
    assert _bash(example, 'drunagor hero show "Nyx:t', "Nyx:t") == ['"Nyx:the \\$(dark)"']
    assert _bash(example, "drunagor hero show Nyx:'t", "t") == ["'the $(dark)'"]


def test_a_script_from_an_older_drunagor_is_told_to_load_again(example):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMP_", "_TYPER", "_DRUNAGOR"))}
    env.update(_DRUNAGOR_COMPLETE="complete_zsh", _TYPER_COMPLETE_ARGS="drunagor hero show ")
    r = subprocess.run([sys.executable, "-m", "drunagor_log"], cwd=example, env=env, capture_output=True,
                       text=True, timeout=60)
    assert (r.returncode, r.stdout) == (0, "")  # zsh's old script evaluated the answer: it gets none
    assert r.stderr == ("drunagor: this shell loaded the completion script of an older drunagor; load it "
                        "again (see `drunagor completion --help`)\n")

"""The session's parts in process: the dispatcher's words and its one-line reports, completion's
candidates and quoting, the toolbar's text, the history file."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drunagor_log.play import status
from drunagor_log.play.complete import Candidates, partial, quoted
from drunagor_log.play.dispatch import Dispatcher, LineRefused, exit_code, session_words, split
from tests.conftest import snapshot
from tests.play import runner


@pytest.fixture
def dispatcher(example) -> Dispatcher:
    return Dispatcher(example, ["-C", str(example)], script=True)


# ------------------------------------------------------------------------------------ the words


def test_the_session_words():
    assert session_words(["undo", "--steps", "2"]) == ["adventure", "undo", "--steps", "2"]
    assert session_words(["drunagor", "undo"]) == ["undo"]  # the git undo, as in a shell
    assert session_words(["help", "monster", "add"]) == ["monster", "add", "--help"]
    assert session_words(["drunagor", "raid", "--seed", "3"]) == ["raid", "--seed", "3"]
    assert session_words(["exit"]) is None and session_words(["quit"]) is None
    assert session_words(["exit", "now"]) == ["exit", "now"]  # not the session's word: the tree says no


def test_a_line_is_split_as_a_shell_splits_it_and_an_open_quote_is_refused():
    assert split('monster add "Gremlin Horde" --count 2') == ["monster", "add", "Gremlin Horde", "--count", "2"]
    assert split("hero gain Nyx Rogue\\'s\\ Vest") == ["hero", "gain", "Nyx", "Rogue's Vest"]
    assert split("odds $HOME `x` | y") == ["odds", "$HOME", "`x`", "|", "y"]  # data, never a shell's
    with pytest.raises(LineRefused, match="a quote is not closed"):
        split('monster add "Grem')
    with pytest.raises(LineRefused, match="it ends in a backslash"):
        split("odds \\")


# ---------------------------------------------------------------------------- one line's report


@pytest.mark.slow  # starts drunagor
def test_an_unexpected_exception_is_one_line_and_the_session_goes_on(dispatcher, example, capsys, monkeypatch):
    from drunagor_log.ops import board

    def broken(c, *args, **kwargs):
        c.story  # noqa: B018  (the campaign is open, its lock held, when the defect strikes)
        raise RuntimeError("boom\nat the second line")

    monkeypatch.setattr(board, "add_monster", broken)
    before = snapshot(example)
    outcome = dispatcher.handle("monster add Horde")
    out, err = capsys.readouterr()
    assert (outcome.code, out) == (1, "")
    assert err == "error: internal error in 'monster add': RuntimeError: boom at the second line; files untouched\n"
    assert snapshot(example) == before
    # its lock went with it: another drunagor writes at once (exit 0, not 4)
    other = runner.drunagor("-C", str(example), "monster", "add", "Horde",
                             env={**os.environ, "NO_COLOR": "1"})
    assert (other.returncode, other.stdout) == (0, "Horde placed in slot 5 (dark red)\n")
    assert dispatcher.handle("odds").code == 0
    assert "Chance it summons" in capsys.readouterr().out


def test_a_defect_after_the_write_says_the_write_is_whole(dispatcher, example, capsys, monkeypatch):
    from drunagor_log.ops import board

    real = board.add_monster

    def saves_then_breaks(c, *args, **kwargs):
        real(c, *args, **kwargs)
        c.save()
        raise KeyError("after the save")

    monkeypatch.setattr(board, "add_monster", saves_then_breaks)
    assert dispatcher.handle("monster add Horde").code == 1
    assert capsys.readouterr().err == ("error: internal error in 'monster add': KeyError: 'after the save'; "
                                       "its changes were written whole before it stopped\n")
    assert "Horde" in (example / "adventure.toml").read_text()


def test_ctrl_c_inside_a_command_is_reported_and_the_session_goes_on(dispatcher, capsys, monkeypatch):
    from drunagor_log.ops import odds

    def interrupted(c):
        raise KeyboardInterrupt

    monkeypatch.setattr(odds, "odds", interrupted)
    assert dispatcher.handle("odds").code == 130  # Typer's code for it, as the one-shot command has
    assert capsys.readouterr().err == "error: interrupted: odds; files untouched\n"
    monkeypatch.undo()
    assert dispatcher.handle("odds").code == 0


def test_the_session_words_run_what_they_name(dispatcher, capsys):
    assert dispatcher.handle("undo --dry-run").code == 1  # adventure undo: nothing recorded to take back
    assert "undo: 0 table events to take back" in capsys.readouterr().err
    assert dispatcher.handle("help odds").code == 0
    assert capsys.readouterr().out.startswith("Usage: drunagor odds [OPTIONS]")
    assert dispatcher.handle("exit").leave and dispatcher.handle("quit").leave
    assert dispatcher.handle("   ").code == 0 and dispatcher.handle("# a note").code == 0


@pytest.mark.parametrize(("line", "usage", "hint", "error"), [
    ("raid --bogus", "drunagor raid [OPTIONS]", "help raid", "No such option: --bogus"),
    ("nosuch", "drunagor [OPTIONS] COMMAND [ARGS]...", "help", "No such command 'nosuch'."),
    ("odds x", "drunagor odds [OPTIONS]", "help odds", "Got unexpected extra argument(s) (x)"),
    ("drunagor adventure end --won --nope", "drunagor adventure end [OPTIONS]", "help adventure end",
     "No such option: --nope"),
])
def test_a_usage_slip_in_the_session_points_to_help_the_one_shot_to_drunagor_help(
        dispatcher, capsys, run, example, line, usage, hint, error):
    assert dispatcher.handle(line).code == 2
    assert capsys.readouterr() == ("", f"Usage: {usage}\nTry '{hint}' for help.\n\nError: {error}\n")
    words = split(line)[1:] if line.startswith("drunagor ") else split(line)
    r = run("-C", str(example), *words)  # the command line's own words, unchanged
    assert (r.exit_code, r.stdout) == (2, "")
    one_shot = " ".join(["drunagor", *hint.split()[1:], "--help"])
    assert r.stderr == f"Usage: {usage}\nTry '{one_shot}' for help.\n\nError: {error}\n"


def test_a_group_typed_alone_in_the_session_shows_its_help(dispatcher, capsys):
    assert dispatcher.handle("monster").code == 2  # as the one-shot `drunagor monster`
    assert capsys.readouterr().err.startswith("Usage: drunagor monster [OPTIONS] COMMAND [ARGS]...\n")


def test_an_exit_with_a_message_prints_it_and_exits_1_as_python_does(capsys):
    assert [exit_code(SystemExit(c)) for c in (None, 0, 3, "stopped: the bag is empty")] == [0, 0, 3, 1]
    assert capsys.readouterr() == ("", "stopped: the bag is empty\n")


def test_a_tree_is_built_once_per_command(dispatcher):
    assert dispatcher.tree("odds") is dispatcher.tree("odds")
    assert dispatcher.tree("nonsense") is dispatcher.tree(None)


# --------------------------------------------------------------------------------- completion


def test_candidates_come_from_the_campaign_and_the_catalog(dispatcher):
    ask = Candidates(dispatcher)
    assert ask(["monster", "add"], "gre") == [("Gremlin Horde", "")]  # any case, as shell completion
    assert [v for v, _ in ask(["hero", "show"], "")] == ["Andreas", "Catharina", "Nyx", "Vacrem"]
    assert [v for v, _ in ask(["monster", "remove"], "")] == ["Fell Asteris", "Gremlin Horde", "Tidehunter",
                                                              "1", "2", "3", "4"]
    assert [v for v, _ in ask(["raid"], "--se")] == ["--seed"]
    assert [v for v, _ in ask(["raid"], "--rune=g")] == ["green", "gray"]
    assert [v for v, _ in ask([], "mo")] == ["monster"]
    assert "undo" in [v for v, _ in ask([], "u")] and "play" not in [v for v, _ in ask([], "p")]
    assert [v for v, _ in ask(["undo"], "--st")] == ["--steps"]  # the session's words complete too


def test_candidates_follow_the_files_on_disk(dispatcher, example):
    ask = Candidates(dispatcher)
    assert "Horde" not in [v for v, _ in ask(["monster", "remove"], "")]
    path = example / "adventure.toml"
    path.write_text(path.read_text().replace('{ name = "Tidehunter", rank = "Minion", slot = 4 }',
                                             '{ name = "Horde", rank = "Commander", slot = 4 }'))
    assert "Horde" in [v for v, _ in ask(["monster", "remove"], "")]


@given(st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=30))
def test_a_candidate_is_inserted_as_one_word_whatever_it_holds(value):
    assert shlex.split(quoted(value)) == [value]
    words, current, span = partial("hero gain Nyx " + quoted(value))
    assert (words, current) == (["hero", "gain", "Nyx"], value) and span == len(quoted(value))


def test_the_word_being_typed_and_its_span():
    assert partial('monster add "Grem') == (["monster", "add"], "Grem", 5)
    assert partial("monster add Gre") == (["monster", "add"], "Gre", 3)
    assert partial('monster add "Gremlin Horde" ') == (["monster", "add", "Gremlin Horde"], "", 0)


# ---------------------------------------------------------------------------------- the toolbar


def _text(rows) -> list[str]:
    return ["".join(t for _, t in line) for row in rows
            for line in status.wrap(row, 200, " " if status._label(row) in status.WHOLE else status.SEPARATOR)]


def test_the_toolbar_reads_the_table(example):
    lines = _text(status.Status(example, colour=False).read())
    assert lines == ["example: 05 Tempest Island  round 1  bag 7: red 2 blue 1 green 1 orange 0 gray 3  raid face B",
                     "board:  1: Fell Asteris  2: Tidehunter  3: Gremlin Horde  4: Tidehunter"]


def test_the_toolbar_shows_the_round_cubes_near_the_limit_and_lost():
    data = {"chapter": "05", "title": "Tempest Island", "round": 3, "runes_in_bag": 1,
            "bag": {"red": 1}, "raid": None, "monsters": [{"name": "Bane", "slot": None}],
            "cubes": {"Nyx": {"trauma": 2, "curse": 0, "trauma_limit": 1, "curse_capacity": None},
                      "Andreas": {"trauma": 0, "curse": 4, "trauma_limit": 1, "curse_capacity": 5},
                      "Vacrem": {"trauma": 0, "curse": 2, "trauma_limit": 1, "curse_capacity": 5}},
            "lost": "Nyx is defeated (RB L1026)"}
    assert _text(status.board_rows(data, "ours", colour=False)) == [
        "ours: 05 Tempest Island  round 3  bag 1: red 1 blue 0 green 0 orange 0 gray 0",
        "board:  boss: Bane",
        "cubes:  Nyx trauma 2/1",  # Andreas, 4 of 5, is two cubes from defeat
        "LOST: Nyx is defeated (Rulebook: Increasing Trauma Cube Limits, L1026); adventure end --lost, or "
        "adventure undo"]
    coloured = status.board_rows(data, "ours", colour=True)
    assert ("class:rune.red", "\u25cf") in coloured[0][2] and coloured[3][0][0] == ("class:status.lost", "LOST:")


def test_the_lost_and_ending_rows_name_their_citations_section_on_the_80_column_toolbar(monkeypatch, tmp_path):
    data = {"chapter": "05", "title": "Tempest Island", "round": 3, "runes_in_bag": 1, "bag": {"red": 1},
            "raid": None, "monsters": [{"name": "Bane", "slot": None}],
            "cubes": {"Nyx": {"trauma": 2, "curse": 0, "trauma_limit": 1, "curse_capacity": None}},
            "lost": "Nyx receives a 2nd Trauma Cube and is defeated: the adventure fails, RB L1026"}  # short citation
    monkeypatch.setattr(status, "_table", lambda root: (data, []))
    board = status.Status(tmp_path / "ours", colour=False)
    assert "".join(t for _, t in board.fragments(80)).split("\n") == [  # 4 rows at most: the cubes go
        "ours: 05 Tempest Island  round 3  bag 1: red 1 blue 0 green 0 orange 0 gray 0",
        "LOST: Nyx receives a 2nd Trauma Cube and is defeated: the adventure fails",
        "      (Rulebook: Increasing Trauma Cube Limits, L1026); adventure end --lost, or",
        "      adventure undo"]
    data.update(chapter="09", counters={"endgame": True}, lost="Nyx is defeated")
    board = status.Status(tmp_path / "ours", colour=False)
    assert "".join(t for _, t in board.fragments(80)).split("\n")[2:] == [
        "ENDING: A Hero Undone (Rulebook: Chapter 09 \u203a Endgame Trigger, L1309): Nyx is",
        "        defeated; adventure end --lost, or adventure undo"]


def test_the_toolbar_says_when_no_adventure_is_under_way(example):
    (example / "adventure.toml").unlink()
    assert _text(status.Status(example, colour=False).read()) == [
        "example  no adventure under way (adventure start begins the next chapter)"]


def test_the_toolbar_names_what_is_wrong_with_a_broken_file(example):
    (example / "adventure.toml").write_text("schema = 1\nchapter = \n")
    [line] = _text(status.Status(example, colour=False).read())
    assert line == "example  adventure.toml:2: not valid TOML: Invalid value"


@given(st.lists(st.text(min_size=0, max_size=60), max_size=12), st.integers(10, 120))
def test_toolbar_lines_fit_the_terminal(words, width):
    for line in status.wrap([[("", w)] for w in words], width):
        assert sum(len(t) for _, t in line) <= width


# ---------------------------------------------------------------------------------- the history


def test_history_lives_in_the_cache_never_in_the_campaign(example, monkeypatch):
    from drunagor_log.play.history import CampaignHistory, history_path

    path = history_path(example)
    assert path is not None and path.is_relative_to(Path(os.environ["XDG_CACHE_HOME"]))
    other = example.parent / "other" / "example"
    assert history_path(other) != path  # two campaigns of one name: two histories
    h = CampaignHistory(path)
    h.store_string("odds")
    h.store_string('monster add "Gremlin Horde"\n--count 2')
    assert list(CampaignHistory(path).load_history_strings()) == ['monster add "Gremlin Horde"\n--count 2', "odds"]
    monkeypatch.setenv("XDG_CACHE_HOME", str(example / "cache"))
    assert history_path(example) is None  # a cache inside the campaign: no file there


def test_a_history_that_cannot_be_written_is_no_failure(tmp_path):
    from drunagor_log.play.history import CampaignHistory

    blocked = tmp_path / "file"
    blocked.write_text("")
    h = CampaignHistory(blocked / "history" / "x")
    h.store_string("odds")  # no exception
    assert list(h.load_history_strings()) == []


# ------------------------------------------------------------------ another program writing meanwhile

def writer_holding_the_lock(example):
    """Another process holding the campaign's exclusive lock (a long `drunagor sync`, say)."""
    import subprocess
    import sys

    code = ("import sys, time\nfrom pathlib import Path\nfrom drunagor_log.store import CampaignLock\n"
            "with CampaignLock(Path(sys.argv[1])):\n    print('held', flush=True)\n    time.sleep(30)\n")
    proc = subprocess.Popen([sys.executable, "-c", code, str(example)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "held\n"
        yield proc
    finally:
        proc.kill()
        proc.wait(timeout=20)


@pytest.mark.slow  # starts a Python that holds the lock
def test_the_toolbar_and_completion_never_wait_for_another_writer(example, dispatcher, monkeypatch):

    monkeypatch.setenv("DRUNAGOR_LOCK_TIMEOUT", "20")
    board = status.Status(example, colour=False)
    first = board.fragments(200)
    ask = Candidates(dispatcher)
    path = example / "adventure.toml"
    path.write_text(path.read_text().replace("bag = { red = 2,", "bag = { red = 5,"))
    proc = None
    for proc in writer_holding_the_lock(example):  # noqa: B007 (the last one is checked below)
        board.refresh()
        shown = "".join(t for _, t in board.fragments(200))
        assert shown == "".join(t for _, t in first) + "\n(another drunagor is writing)"  # the last board
        assert ask(["hero", "show"], "") == []
    assert proc is not None
    board.refresh()
    assert "bag 10:" in "".join(t for _, t in board.fragments(200))  # read once the writer is done
    assert [v for v, _ in ask(["hero", "show"], "")] == ["Andreas", "Catharina", "Nyx", "Vacrem"]


def finish(example) -> None:
    """The campaign after chapter 09 won: its ending recorded, no adventure under way."""
    (example / "adventure.toml").unlink()
    story = example / "story.toml"
    story.write_text('ending = "Baptism of Fire"\n' + story.read_text())


def test_a_finished_campaign_says_so_in_the_toolbar_and_undo_has_nothing_to_undo(example, dispatcher, capsys):
    finish(example)
    assert _text(status.Status(example, colour=False).read()) == [
        "example  the campaign is finished: Baptism of Fire (Rulebook: Chapter 09 › Endgame Trigger, L1309)"]
    assert dispatcher.handle("undo").code == 1
    assert capsys.readouterr().err == ("error: the campaign is finished: Baptism of Fire (Rulebook: Chapter 09 \u203a "
                                       "Endgame Trigger, L1309), so no table event to undo; `drunagor undo` undoes the "
                                       "last commit (git)\n")


def test_after_the_endgame_trigger_a_defeat_is_shown_as_the_ending():
    data = {"chapter": "09", "title": "The Stand", "runes_in_bag": 1, "bag": {}, "raid": None, "monsters": [],
            "counters": {"endgame": True}, "lost": "Nyx is defeated"}
    assert _text(status.board_rows(data, "ours", colour=False))[-1] == (
        "ENDING: A Hero Undone (Rulebook: Chapter 09 \u203a Endgame Trigger, L1309): Nyx is defeated; "
        "adventure end --lost, or adventure undo")
    data["counters"] = {"endgame": False}
    assert _text(status.board_rows(data, "ours", colour=False))[-1] == (
        "LOST: Nyx is defeated; adventure end --lost, or adventure undo")

"""Issue 42, the session's dead ends: `undo` between adventures and after a commit (item 9), a campaign
finished by `chapter complete 9` (item 9), the toolbar at 80x24 (item 10)."""

from __future__ import annotations

import pytest

from drunagor_log.play import status
from drunagor_log.play.dispatch import Dispatcher, session_words
from tests.conftest import snapshot
from tests.helpers import git, ok


@pytest.fixture
def dispatcher(example) -> Dispatcher:
    return Dispatcher(example, ["-C", str(example)], script=True)


def _toolbar(root) -> list[str]:
    return "".join(t for _, t in status.Status(root, colour=False).fragments(80)).split("\n")


# ------------------------------------------------------------------------------- item 9: undo


def test_undo_is_the_tables_and_drunagor_undo_the_shells():
    assert session_words(["undo"]) == ["adventure", "undo"]
    assert session_words(["undo", "--steps", "2"]) == ["adventure", "undo", "--steps", "2"]
    assert session_words(["drunagor", "undo"]) == ["undo"]  # the git undo of the last commit, as in a shell
    assert session_words(["drunagor", "undo", "--dry-run"]) == ["undo", "--dry-run"]
    assert session_words(["drunagor", "adventure", "undo"]) == ["adventure", "undo"]


def test_undo_between_adventures_points_to_the_git_undo(example, dispatcher, capsys):
    (example / "adventure.toml").unlink()
    before = snapshot(example)
    assert dispatcher.handle("undo").code == 1
    assert capsys.readouterr().err == (
        "error: no adventure under way, so no table event to undo; `drunagor undo` undoes the last commit (git), "
        "`adventure start` begins the next chapter\n")
    assert snapshot(example) == before


def test_a_campaign_finished_by_chapter_complete_9_says_so_everywhere(example, dispatcher, run, capsys):
    """The reproduction: the adventure won, then chapters 06 to 09 completed by hand (none archived)."""
    ok(run("-C", str(example), "adventure", "end", "--won"))
    for chapter in ("6", "7", "8", "9"):
        ok(run("-C", str(example), "chapter", "complete", chapter))
    assert not (example / "adventure.toml").exists()
    assert 'ending' not in (example / "story.toml").read_text()
    before = snapshot(example)
    finished = "the campaign is finished: chapter 09 is on the Adventure Track"

    assert _toolbar(example) == [f"example  {finished}"]
    capsys.readouterr()
    assert dispatcher.handle("undo").code == 1
    assert capsys.readouterr().err == (f"error: {finished}, so no table event to undo; `drunagor undo` undoes the "
                                       "last commit (git)\n")
    for args in (["draw"], ["adventure", "undo"], ["round", "end"], ["cube", "Nyx", "trauma", "+1"]):
        r = run("-C", str(example), *args)
        assert (r.exit_code, r.stdout) == (1, ""), args
        assert r.stderr == ("error: campaigns/example/adventure.toml: adventure: no adventure under way (there is no "
                            f"adventure.toml), and none to start ({finished}); `drunagor show` and `drunagor "
                            "sheet` still tell the whole campaign\n")
    r = run("-C", str(example), "adventure", "start")
    assert r.exit_code == 1 and "the campaign is finished" in r.stderr
    assert snapshot(example) == before


def test_a_campaign_with_an_ending_says_it(example, dispatcher, capsys):
    (example / "adventure.toml").unlink()
    story = example / "story.toml"
    story.write_text('ending = "Baptism of Fire"\n' + story.read_text())
    assert dispatcher.handle("undo").code == 1
    assert capsys.readouterr().err == (
        "error: the campaign is finished: Baptism of Fire (Rulebook: Chapter 09 \u203a Endgame Trigger, L1309), so no "
        "table event to undo; `drunagor undo` undoes the last commit (git)\n")


@pytest.mark.slow  # runs git
def test_drunagor_undo_in_the_session_undoes_the_last_commit(example, tmp_path, monkeypatch, run, capsys):
    from tests.sync.conftest import isolate_git

    isolate_git(monkeypatch, tmp_path)
    git(tmp_path, "init", "--quiet", "--initial-branch=main")
    git(tmp_path, "config", "user.name", "Ana")
    git(tmp_path, "config", "user.email", "ana@example.org")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "--quiet", "-m", "the campaign")
    ok(run("-C", str(example), "adventure", "end", "--won", "--commit"))
    assert not (example / "adventure.toml").exists()
    session = Dispatcher(example, ["-C", str(example)], script=True)
    capsys.readouterr()
    assert session.handle("undo").code == 1  # the table's undo: nothing at the table, and the way to git's
    assert "`drunagor undo` undoes the last commit (git)" in capsys.readouterr().err
    assert session.handle("drunagor undo").code == 0
    assert capsys.readouterr().out.startswith('undid "chapter 05 completed')
    assert (example / "adventure.toml").exists()  # the adventure is back, under way
    assert git(tmp_path, "log", "-1", "--format=%s").startswith("drunagor: undo chapter 05 completed")
    assert git(tmp_path, "status", "--porcelain") == ""


# ------------------------------------------------------------------------------ item 10: the toolbar


@pytest.fixture
def screen(example):
    pytest.importorskip("pyte")
    import os

    from tests.benchmarks.session_screen import Screen
    from tests.play.runner import script

    s = Screen(script(), example, env={"NO_COLOR": "1", "XDG_CACHE_HOME": os.environ["XDG_CACHE_HOME"]})
    yield s
    s.close()


def _rows(s) -> list[str]:
    return [line.rstrip() for line in s.screen.display]


@pytest.mark.slow  # a session in a pseudo-terminal
@pytest.mark.posix
def test_at_80x24_the_bag_is_the_last_to_go_and_lost_keeps_its_way_out(screen):
    """The reproduction: a hero's cube row pushed out the rune bag and the raid face while the board
    stayed whole; lost, the toolbar took 5 rows and its LOST row had no way out."""
    screen.enter("cube Nyx trauma +1")
    assert _rows(screen)[-3:] == [
        "example: 05 Tempest Island  bag 7: red 2 blue 1 green 1 orange 0 gray 3  \u2026",
        "board:  1: Fell Asteris  2: Tidehunter  3: Gremlin Horde  4: Tidehunter",
        "cubes:  Nyx trauma 1/1"]
    screen.enter("cube Nyx trauma +1")
    shown = _rows(screen)
    assert shown[-4:] == [
        "example: 05 Tempest Island  bag 7: red 2 blue 1 green 1 orange 0 gray 3  \u2026",
        "LOST: Nyx receives a 2nd Trauma Cube and is defeated: the adventure fails",
        "      (Rulebook: Increasing Trauma Cube Limits, L1026); adventure end --lost, or",
        "      adventure undo"]
    assert shown[-5] == "" or not shown[-5].startswith(("board:", "cubes:"))  # 4 rows, no more


def test_the_toolbar_rows_give_up_their_tail_the_board_first_and_the_bag_last():
    data = {"chapter": "05", "title": "Tempest Island", "round": 1, "runes_in_bag": 7,
            "bag": {"red": 2, "blue": 1, "green": 1, "orange": 0, "gray": 3}, "raid": {"face": "B"},
            "monsters": [{"name": n, "slot": k} for k, n in enumerate(
                ["Fell Asteris", "Tidehunter", "Gremlin Horde", "Tidehunter", "Bane of the Sea", "Ghoul"], 1)],
            "cubes": {"Nyx": {"trauma": 1, "curse": 0, "trauma_limit": 1, "curse_capacity": None}}}
    rows = status.board_rows(data, "example", colour=False)
    lines = ["".join(t for _, t in line) for row in status.fit(rows, 80) for line in row]
    assert lines == [
        "example: 05 Tempest Island  bag 7: red 2 blue 1 green 1 orange 0 gray 3  \u2026",
        "board:  1: Fell Asteris  2: Tidehunter  3: Gremlin Horde  4: Tidehunter  \u2026",
        "cubes:  Nyx trauma 1/1"]
    narrow = ["".join(t for _, t in line) for row in status.fit(rows, 60) for line in row]
    assert narrow[0] == "example: 05 Te\u2026  bag 7: red 2 blue 1 green 1 orange 0 gray 3"  # the title gives way
    assert all(len(line) <= 60 for line in narrow) and len(narrow) == 3

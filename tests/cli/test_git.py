"""Git-native campaigns (SPEC section 4 "Git", issue #8): `--commit` and autocommit commit exactly a
command's files, `history`, `undo`, `new`'s .gitignore/.gitattributes, and files that merge well.

Every test runs real git in its own temporary repository (the test folder), with its own identity,
dates and no user or system git configuration."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from drunagor_log.campaign import Campaign
from drunagor_log.cli.common import finish
from drunagor_log.git.commits import is_tool_file as _is_tool_file
from tests.conftest import MINIMAL_STORY, snapshot, write
from tests.helpers import ok


class Git:
    """Runs git in the test repository; `at(n)` fixes the date of the next commits (day n of May)."""

    def __init__(self, top: Path, monkeypatch):
        self.top = top
        self.monkeypatch = monkeypatch

    def __call__(self, *args: str, ok: int | None = 0, cwd: Path | None = None) -> str:
        p = subprocess.run(["git", *args], cwd=cwd or self.top, capture_output=True, text=True)
        if ok is not None:
            assert p.returncode == ok, f"git {' '.join(args)}: {p.returncode}\n{p.stdout}{p.stderr}"
        return p.stdout

    def at(self, day: int, hour: int = 20) -> None:
        date = f"2024-05-{day:02d}T{hour:02d}:00:00+02:00"
        self.monkeypatch.setenv("GIT_AUTHOR_DATE", date)
        self.monkeypatch.setenv("GIT_COMMITTER_DATE", date)

    def as_(self, name: str) -> None:
        for role in ("AUTHOR", "COMMITTER"):
            self.monkeypatch.setenv(f"GIT_{role}_NAME", name)
            self.monkeypatch.setenv(f"GIT_{role}_EMAIL", f"{name.lower()}@example.org")

    def subjects(self, *paths: str) -> list[str]:
        return self("log", "--format=%s", "--", *paths).splitlines()

    def files_of(self, rev: str = "HEAD") -> list[str]:
        return self("show", "--format=", "--name-status", "--no-renames", rev).splitlines()

    def staged(self) -> list[str]:
        return self("diff", "--cached", "--name-only").splitlines()

    def commit_all(self, message: str) -> None:
        self("add", "-A")
        self("commit", "-q", "-m", message)


def _isolate_git(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))  # never find a repo above
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def git(tmp_path, monkeypatch) -> Git:
    """A git repository in the test folder (the current directory), no commit yet."""
    _isolate_git(monkeypatch, tmp_path)
    g = Git(tmp_path, monkeypatch)
    g.as_("Ana")
    g.at(1)
    g("init", "-q")
    g("symbolic-ref", "HEAD", "refs/heads/main")
    return g


@pytest.fixture
def no_repo(tmp_path, monkeypatch) -> None:
    """Git is installed, but no repository holds the test folder."""
    _isolate_git(monkeypatch, tmp_path)
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Ana")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "ana@example.org")


STORY = MINIMAL_STORY.lstrip("\n")


@pytest.fixture
def repo(git, camp) -> Git:
    """campaigns/test committed as the first commit of the repository (by hand: not drunagor's)."""
    git.commit_all("start the campaign")
    git.at(2)
    return git


def files(root: Path) -> dict[str, bytes]:
    """The campaign's files and their bytes, without the tool's own lock and temporary files."""
    return {k: v for k, v in snapshot(root).items() if not _is_tool_file(k)}


def short(g: Git, rev: str = "HEAD") -> str:
    return g("rev-parse", "--short", rev).strip()


def record(root: Path, message: str, change, commit: bool = True) -> list[str]:
    """Exactly what every writing command does: open for writing, change, finish()."""
    with Campaign(root) as c:
        change(c)
        return finish(c, message, commit)


NYX = """\
schema = 1
name = "Nyx"
class = "Assassin"
role = "Striker"
joined = "01"
"""


# ------------------------------------------------------------------------------ --commit, autocommit


def test_commit_makes_one_commit_of_only_the_commands_files(repo, camp, tmp_path, run):
    write(tmp_path / "notes.txt", "my own staged work\n")
    write(tmp_path / "todo.txt", "unstaged work\n")
    repo("add", "notes.txt")
    (camp / "story.toml").write_text(STORY)  # the same bytes again: not a change
    r = ok(run("party", "Safeguard Corporation", "--commit"))
    assert r.stdout == ("party name: Safeguard Corporation\n"
                        f"committed {short(repo)}: drunagor: party name: Safeguard Corporation\n")
    assert repo.subjects() == ["drunagor: party name: Safeguard Corporation", "start the campaign"]
    assert repo("rev-list", "--count", "HEAD") == "2\n"
    assert repo.files_of() == ["M\tcampaigns/test/story.toml"]
    assert repo("show", "HEAD:campaigns/test/story.toml") == (camp / "story.toml").read_text()
    assert 'party = "Safeguard Corporation"' in (camp / "story.toml").read_text()
    # the user's own work is where it was: staged and uncommitted, and untracked
    assert repo.staged() == ["notes.txt"]
    assert [ln for ln in repo("status", "--porcelain").splitlines() if not _is_tool_file(ln)] == [
        "A  notes.txt", "?? todo.txt"]


def test_commit_of_a_chapter_and_a_new_hero(repo, camp, run):
    ok(run("hero", "add", "Nyx", "--role", "Striker", "--commit"))
    assert repo.subjects()[0].startswith("drunagor: Nyx joins the party")
    assert repo.files_of() == ["A\tcampaigns/test/heroes/nyx.toml"]
    ok(run("chapter", "complete", "1", "--commit"))
    assert repo.subjects()[0] == "drunagor: chapter 01 completed"
    assert repo.files_of() == ["M\tcampaigns/test/story.toml"]
    assert repo("status", "--porcelain", "--untracked-files=no") == ""


def test_commit_includes_created_and_deleted_files(repo, camp):
    write(camp / "heroes" / "vacrem.toml", NYX.replace("Nyx", "Vacrem").replace("Assassin", "Warrior"))
    repo.commit_all("Vacrem joins")

    def change(c):
        c.create(c.hero_path("Nyx"), NYX)
        c.delete(c.hero_path("Vacrem"))

    assert sorted(record(camp, "Nyx joins, Vacrem leaves", change)) == ["heroes/nyx.toml", "heroes/vacrem.toml"]
    assert repo.files_of() == ["A\tcampaigns/test/heroes/nyx.toml", "D\tcampaigns/test/heroes/vacrem.toml"]
    assert repo("status", "--porcelain", "--", "campaigns/test/heroes") == ""


def test_a_file_created_and_never_committed_then_deleted_is_skipped(repo, camp):
    write(camp / "heroes" / "nyx.toml", NYX)  # on disk, never committed

    def change(c):
        c.delete(c.hero_path("Nyx"))
        c.story_file.edit()["party"] = "P"

    assert sorted(record(camp, "Nyx leaves", change)) == ["heroes/nyx.toml", "story.toml"]
    assert repo.files_of() == ["M\tcampaigns/test/story.toml"]


def test_autocommit_commits_without_the_flag(repo, camp, run):
    (camp / "story.toml").write_text(STORY + "\n[git]\nautocommit = true\n")
    repo.commit_all("autocommit on")
    r = ok(run("follower", "add", "Minerva"))
    assert r.stdout.splitlines()[-1] == f"committed {short(repo)}: drunagor: {r.stdout.splitlines()[0]}"
    # the commit keeps the short citation, as --json does (data); drunagor prints it with its section
    message = "drunagor: Minerva follows the party: Follower written on the Story Record (RB L455)"  # short citation
    assert r.stdout.splitlines()[0] == ("Minerva follows the party: Follower written on the Story Record (Rulebook: "
                                        "Recruiting Followers and Cohorts, L455)")
    assert (len(message), repo.subjects()[0]) == (83, "drunagor: Minerva follows the party: Follower written on the Story...")
    assert repo("log", "-1", "--format=%b").strip() == message  # the whole message in the body
    assert repo.files_of() == ["M\tcampaigns/test/story.toml"]


def test_without_commit_nothing_is_committed(repo, camp, run):
    assert ok(run("party", "Quiet")).stdout == "party name: Quiet\n"
    assert repo.subjects() == ["start the campaign"]
    assert repo("status", "--porcelain", "--", "campaigns/test/story.toml") == " M campaigns/test/story.toml\n"


def test_files_back_to_the_last_commit_need_no_commit(repo, camp, run):
    (camp / "story.toml").write_text(STORY.replace("Test Party", "Hand edit"))  # not committed
    r = ok(run("party", "Test Party", "--commit"))
    assert r.stdout == "party name: Test Party\nnothing to commit: the files match the last commit\n"
    assert repo.subjects() == ["start the campaign"]


def test_commit_outside_a_repository_refuses_before_writing(no_repo, camp, run):
    before = files(camp)
    r = run("party", "Nowhere", "--commit")
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == ("error: campaigns/test: git: the campaign is not in a git repository; run `git init` "
                        "in the folder that should hold it, and commit the campaign, or run the command "
                        "without --commit\n")
    assert files(camp) == before


def test_autocommit_outside_a_repository_refuses_before_writing(no_repo, camp, run):
    (camp / "story.toml").write_text(STORY + "\n[git]\nautocommit = true\n")
    before = files(camp)
    r = run("party", "Nowhere")
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == ("error: campaigns/test: git: story.toml sets [git] autocommit = true, but the "
                        "campaign is not in a git repository; run `git init` in the folder that should hold "
                        "it, and commit the campaign, or set `autocommit = false` under [git] in story.toml\n")
    assert files(camp) == before


def test_git_missing_from_path(repo, camp, run, tmp_path, monkeypatch):
    empty = tmp_path.parent / (tmp_path.name + "-empty-bin")
    empty.mkdir(exist_ok=True)
    monkeypatch.setenv("PATH", str(empty))
    before = files(camp)
    r = run("party", "No git", "--commit")
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == ("error: campaigns/test: git: git is not installed (no `git` program on PATH); "
                        "install git, or run the command without --commit\n")
    for args in (("history",), ("undo",)):
        r = run(*args)
        assert (r.exit_code, r.stderr) == (2, "error: campaigns/test: git: git is not installed (no `git` "
                                               "program on PATH); install git\n"), args
    assert files(camp) == before


def test_a_failed_commit_says_the_files_were_written(repo, camp, tmp_path, run):
    hook = tmp_path / ".git" / "hooks" / "pre-commit"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text("#!/bin/sh\necho 'hint: not this line' >&2\necho 'no commits during the session' >&2\nexit 1\n")
    hook.chmod(0o755)
    r = run("party", "Hooked", "--commit")
    assert (r.exit_code, r.stdout) == (1, "party name: Hooked\n")
    assert r.stderr == ("error: campaigns/test: git: the files were written but not committed: no commits "
                        "during the session; fix that, then commit them: git -C campaigns/test commit -m "
                        "\"drunagor: party name: Hooked\" -- story.toml\n")
    assert 'party = "Hooked"' in (camp / "story.toml").read_text()
    assert repo.subjects() == ["start the campaign"]


def test_an_ignored_campaign_cannot_be_committed(git, camp, tmp_path, run):
    write(tmp_path / ".gitignore", "campaigns/\n")
    git.commit_all("ignore the campaigns")
    r = run("party", "Ignored", "--commit")
    assert r.exit_code == 1
    assert r.stderr.startswith("error: campaigns/test: git: the files were written but not committed: "
                               "The following paths are ignored by one of your .gitignore files: campaigns; ")
    r = run("undo")
    assert (r.exit_code, r.stderr) == (1, "error: campaigns/test: git: nothing to undo: no drunagor commit "
                                          "changed this campaign yet; commits are made by writing commands "
                                          "with --commit, or with `autocommit = true` under [git] in "
                                          "story.toml\n")


def test_the_first_commit_of_a_new_repository(git, camp, run):
    ok(run("party", "First", "--commit"))
    assert git.subjects() == ["drunagor: party name: First"]
    assert git.files_of() == ["A\tcampaigns/test/story.toml"]


# ------------------------------------------------------------------------------------------ history


def _history(repo, camp, tmp_path, run):
    ok(run("party", "One", "--commit"))
    repo.at(3)
    write(tmp_path / "README.txt", "not the campaign\n")
    repo("add", "README.txt")
    repo("commit", "-q", "-m", "drunagor: outside the campaign folder")  # ours in name, not this campaign's
    repo.at(4)
    repo.as_("Ben")
    ok(run("party", "Two", "--commit"))
    repo.at(5)
    (camp / "story.toml").write_text((camp / "story.toml").read_text() + "# a note by hand\n")
    repo("commit", "-q", "-am", "a note by hand")  # touches the campaign, not ours
    repo.at(6)
    repo.as_("Ana")
    ok(run("party", "Three", "--commit"))


def test_history_lists_our_commits_newest_first(repo, camp, tmp_path, run):
    _history(repo, camp, tmp_path, run)
    r = ok(run("history"))
    assert r.stdout == (
        "History of campaigns/test, newest first\n"
        "Date              Commit   Author  What happened\n"
        f"2024-05-06 20:00  {short(repo)}  Ana     party name: Three\n"
        f"2024-05-04 20:00  {short(repo, 'HEAD~2')}  Ben     party name: Two\n"
        f"2024-05-02 20:00  {short(repo, 'HEAD~4')}  Ana     party name: One\n")
    r = ok(run("history", "-n", "1"))
    assert r.stdout.splitlines()[2:] == [f"2024-05-06 20:00  {short(repo)}  Ana     party name: Three",
                                         "(2 older: drunagor history -n 0)"]
    assert ok(run("history", "-n", "0")).stdout == ok(run("history", "-n", "3")).stdout
    assert run("history", "-n", "-1").exit_code == 2


def test_history_json(repo, camp, tmp_path, run):
    _history(repo, camp, tmp_path, run)
    data = json.loads(ok(run("history", "--json", "-n", "2")).stdout)
    assert data == {"campaign": "campaigns/test", "total": 3, "commits": [
        {"commit": repo("rev-parse", "HEAD").strip(), "short": short(repo), "date": "2024-05-06T20:00:00+02:00",
         "author": "Ana", "message": "drunagor: party name: Three", "undoes": None, "undone": False},
        {"commit": repo("rev-parse", "HEAD~2").strip(), "short": short(repo, "HEAD~2"),
         "date": "2024-05-04T20:00:00+02:00", "author": "Ben", "message": "drunagor: party name: Two",
         "undoes": None, "undone": False},
    ]}


def test_history_when_there_is_none(git, camp, run):
    r = ok(run("history"))
    assert r.stdout == ("no drunagor commits for campaigns/test yet (write with --commit, or set "
                        "`autocommit = true` under [git] in story.toml)\n")
    git.commit_all("start")
    assert ok(run("history", "--json")).stdout == '{\n  "campaign": "campaigns/test",\n  "total": 0,\n  "commits": []\n}\n'


def test_history_and_undo_outside_a_repository(no_repo, camp, run):
    before = files(camp)
    for args in (("history",), ("history", "--json"), ("undo",), ("undo", "--dry-run")):
        r = run(*args)
        assert (r.exit_code, r.stdout) == (2, ""), args
        assert r.stderr == ("error: campaigns/test: git: the campaign is not in a git repository; run `git init` "
                            "in the folder that should hold it, and commit the campaign\n"), args
    assert files(camp) == before


# --------------------------------------------------------------------------------------------- undo


def test_undo_restores_the_previous_bytes_and_walks_back(repo, camp, run):
    (camp / "story.toml").write_text(STORY.replace("# a comment", "#   a comment  with   odd spacing"))
    repo.commit_all("my spacing")
    start = files(camp)
    ok(run("party", "One", "--commit"))
    after_one = files(camp)
    repo.at(3)
    ok(run("hero", "add", "Nyx", "--role", "Striker", "--commit"))
    joined = repo.subjects()[0][len("drunagor: "):]
    assert (camp / "heroes" / "nyx.toml").exists()
    repo.at(4)
    one, two = short(repo, "HEAD~1"), short(repo)

    r = ok(run("undo"))
    assert r.stdout == (f'undid "{joined}" ({two}, 2024-05-03, Ana): restored heroes/nyx.toml\n'
                        f"committed {short(repo)}: drunagor: undo {joined}\n")
    assert files(camp) == after_one
    assert repo.files_of() == ["D\tcampaigns/test/heroes/nyx.toml"]
    assert repo("log", "-1", "--format=%B").strip() == (
        f"drunagor: undo {joined}\n\nDrunagor-Undo: {repo('rev-parse', 'HEAD~1').strip()}")

    r = ok(run("undo"))  # again: the commit before, not the undo
    assert r.stdout.startswith(f'undid "party name: One" ({one}, 2024-05-02, Ana): restored story.toml\n')
    assert files(camp) == start
    assert repo.subjects()[:2] == ["drunagor: undo party name: One", f"drunagor: undo {joined}"]
    assert repo("status", "--porcelain", "--untracked-files=no") == ""

    header, *rows = ok(run("history")).stdout.splitlines()[1:]
    assert [row[header.index("What happened"):] for row in rows] == [
        "undo party name: One", f"undo {joined}", f"{joined} (undone)", "party name: One (undone)"]
    data = json.loads(ok(run("history", "--json")).stdout)
    assert [(c["undoes"], c["undone"]) for c in data["commits"]] == [
        (repo("rev-parse", "HEAD~3").strip(), False), (repo("rev-parse", "HEAD~2").strip(), False),
        (None, True), (None, True)]

    r = run("undo")  # nothing of ours is left to undo: the commit before is the user's
    assert (r.exit_code, r.stdout) == (1, "")
    assert r.stderr == (f'error: campaigns/test: git: nothing left to undo: before the undone drunagor commits '
                        f'comes {short(repo, "HEAD~4")} "my spacing" by Ana, which is not one of drunagor\'s; '
                        f"undo it with git itself (git revert {short(repo, 'HEAD~4')})\n")


def test_undo_brings_back_a_deleted_file(repo, camp, run):
    write(camp / "heroes" / "nyx.toml", NYX + "# Ana's notes on Nyx\n")
    repo.commit_all("Nyx")
    before = (camp / "heroes" / "nyx.toml").read_bytes()
    record(camp, "Nyx leaves", lambda c: c.delete(c.hero_path("Nyx")))
    assert not (camp / "heroes" / "nyx.toml").exists()
    ok(run("undo"))
    assert (camp / "heroes" / "nyx.toml").read_bytes() == before
    assert repo.files_of() == ["A\tcampaigns/test/heroes/nyx.toml"]


def test_undo_dry_run_changes_nothing(repo, camp, run):
    ok(run("party", "One", "--commit"))
    before, head = files(camp), repo("rev-parse", "HEAD")
    r = ok(run("undo", "--dry-run"))
    assert r.stdout == f'would undo "party name: One" ({short(repo)}, 2024-05-02, Ana): would restore story.toml\n'
    assert files(camp) == before and repo("rev-parse", "HEAD") == head


def test_undo_refuses_uncommitted_changes(repo, camp, run):
    ok(run("party", "One", "--commit"))
    head = repo("rev-parse", "HEAD")
    (camp / "story.toml").write_text((camp / "story.toml").read_text() + "# typed by hand\n")
    write(camp / "heroes" / "nyx.toml", NYX)
    before = files(camp)
    r = run("undo")
    assert (r.exit_code, r.stdout) == (1, "")
    assert r.stderr == ("error: campaigns/test: git: the campaign has uncommitted changes (story.toml, "
                        "heroes/nyx.toml); undo would mix them into the undo; commit them (git commit) or "
                        "discard them (git restore FILE), then undo\n")
    assert files(camp) == before and repo("rev-parse", "HEAD") == head
    repo("add", "campaigns/test/story.toml")  # staged counts too
    (camp / "heroes" / "nyx.toml").unlink()
    r = run("undo")
    assert r.exit_code == 1 and "uncommitted changes (story.toml)" in r.stderr


def test_undo_ignores_the_tools_own_files_and_other_folders(repo, camp, tmp_path, run):
    ok(run("party", "One", "--commit"))
    write(tmp_path / "elsewhere.txt", "not the campaign\n")
    (camp / ".story.toml.123-1.drunagor-tmp").write_text("left by a crash\n")
    (camp / ".drunagor.lock").write_text("")
    ok(run("undo"))
    assert 'party = "Test Party"' in (camp / "story.toml").read_text()


def test_undo_refuses_when_the_last_commit_is_not_ours(repo, camp, run):
    ok(run("party", "One", "--commit"))
    (camp / "story.toml").write_text((camp / "story.toml").read_text() + "# by hand\n")
    repo.as_("Ben")
    repo("commit", "-q", "-am", "Fix a typo")
    before, head = files(camp), repo("rev-parse", "HEAD")
    r = run("undo")
    assert (r.exit_code, r.stdout) == (1, "")
    assert r.stderr == (f'error: campaigns/test: git: the last commit that changed the campaign, {short(repo)} '
                        f"\"Fix a typo\" by Ben, is not one of drunagor's; undo it with git itself "
                        f"(git revert {short(repo)})\n")
    assert files(camp) == before and repo("rev-parse", "HEAD") == head


def test_undo_leaves_other_staged_work_alone(repo, camp, tmp_path, run):
    ok(run("party", "One", "--commit"))
    write(tmp_path / "notes.txt", "staged\n")
    repo("add", "notes.txt")
    ok(run("undo"))
    assert repo.files_of() == ["M\tcampaigns/test/story.toml"]
    assert repo.staged() == ["notes.txt"]


# -------------------------------------------------------------------------------------------- new


def test_new_in_a_repository_ignores_the_tools_temporary_files(git, run, tmp_path):
    ok(run("new", "autumn"))
    folder = tmp_path / "campaigns" / "autumn"
    assert (folder / ".gitignore").read_text() == (
        "# drunagor's own temporary files: atomic writes, the multi-file journal, the campaign lock\n"
        "*.drunagor-tmp\n.drunagor-journal*\n.drunagor.lock\n")
    assert (folder / ".gitattributes").read_text() == (
        "# Campaign files are text with LF line endings on every computer, so they diff and merge cleanly;\n"
        "# git merges them value by value with drunagor's merge driver (set up once: drunagor git setup).\n"
        "*.toml text eol=lf merge=drunagor\n")
    # and the repository's config names the driver (issue 17): this Python, by its absolute path
    assert git("config", "merge.drunagor.driver").strip().endswith(
        " -m drunagor_log.interop.mergedriver %O %A %B %L %P")
    c = "campaigns/autumn/"
    ignored = [c + ".drunagor.lock", c + ".drunagor-journal", c + ".drunagor-journal.drunagor-tmp",
               c + ".story.toml.4242-1.drunagor-tmp", c + "heroes/.nyx.toml.4242-2.drunagor-tmp"]
    assert git("check-ignore", "--no-index", *ignored).splitlines() == ignored
    git("check-ignore", "--no-index", c + "story.toml", c + "heroes/nyx.toml", c + "adventure.toml",
        c + "adventures/05-2024-05-01.toml", ok=1)
    attrs = git("check-attr", "merge", "eol", "--", c + "story.toml", c + "heroes/nyx.toml")
    assert attrs.splitlines() == [c + "story.toml: merge: drunagor", c + "story.toml: eol: lf",
                                  c + "heroes/nyx.toml: merge: drunagor", c + "heroes/nyx.toml: eol: lf"]
    # after a write, git sees nothing but the campaign's own files
    ok(run("-C", str(folder), "party", "Autumn"))
    assert git("status", "--porcelain", "--untracked-files=all").splitlines() == [
        "?? campaigns/autumn/.gitattributes", "?? campaigns/autumn/.gitignore", "?? campaigns/autumn/story.toml"]


def test_new_outside_a_repository_writes_the_same_files(no_repo, run, tmp_path):
    ok(run("new", "autumn"))
    folder = tmp_path / "campaigns" / "autumn"
    assert sorted(p.name for p in folder.iterdir()) == [".gitattributes", ".gitignore", "heroes", "story.toml"]


# ------------------------------------------------------------------------------- merging branches


@pytest.fixture
def shared(git, example) -> Git:
    """The example campaign (after chapter 04, between adventures: no chapter 05 under way, which would
    make `chapter complete 5` wait for `adventure end`) committed on main, as two players would clone it."""
    (example / "adventure.toml").unlink()
    git.commit_all("the campaign so far")
    return git


def assert_no_errors(run) -> None:
    """`drunagor check` finds the merged campaign readable and legal (rewards still owed are warnings)."""
    r = run("check", "--json")
    assert (r.exit_code, json.loads(r.stdout)["errors"]) == (0, []), r


def _branch(g: Git, name: str, start: str = "main") -> None:
    g("checkout", "-q", "-b", name, start)


def test_two_players_editing_different_heroes_merge_cleanly(shared, example, run):
    g = shared
    _branch(g, "ana")
    ok(run("hero", "learn", "Andreas", "Wisdom 2", "--tree", "wisdom", "--level", "2", "--commit"))
    ok(run("hero", "aura", "Andreas", "Radiance", "--new", "--commit"))
    _branch(g, "ben", "main")
    g.as_("Ben")
    ok(run("hero", "gain", "Nyx", "Potion of Healing", "--commit"))
    ok(run("hero", "status", "Vacrem", "add", "Haunted", "--commit"))
    g("merge", "-q", "--no-edit", "ana")
    assert g("diff", "--name-only", "--diff-filter=U") == ""
    andreas = (example / "heroes" / "andreas.toml").read_text()
    assert "Wisdom 2" in andreas and 'aura = "Radiance"' in andreas
    assert "Potion of Healing" in (example / "heroes" / "nyx.toml").read_text()
    assert "Haunted" in (example / "heroes" / "vacrem.toml").read_text()
    assert_no_errors(run)


def test_two_lists_of_one_hero_merge_cleanly(shared, example, run):
    """One entry per line: a skill learned on one branch and an item gained on the other, same hero."""
    g = shared
    _branch(g, "ana")
    ok(run("hero", "learn", "Andreas", "Wisdom 2", "--tree", "wisdom", "--level", "2", "--commit"))
    _branch(g, "ben", "main")
    ok(run("hero", "gain", "Andreas", "Potion of Healing", "--commit"))
    ok(run("hero", "status", "Andreas", "add", "Haunted", "--commit"))
    g("merge", "-q", "--no-edit", "ana")
    text = (example / "heroes" / "andreas.toml").read_text()
    assert "Wisdom 2" in text and "Potion of Healing" in text and "Haunted" in text
    assert "<<<<<<<" not in text
    assert_no_errors(run)


def _chapter_05_on_two_branches(g: Git, run, bens: str, merged: int = 0) -> None:
    """Ana completes chapter 05 and makes Andreas Haunted on her branch; Ben, on his, records chapter 05
    as `bens` and sends Vorn away; then Ben merges Ana's branch (git's exit: `merged`)."""
    _branch(g, "ana")
    ok(run("chapter", "complete", "5", "--commit"))
    ok(run("hero", "status", "Andreas", "add", "Haunted", "--commit"))
    _branch(g, "ben", "main")
    g.as_("Ben")
    ok(run("chapter", bens, "5", "--commit"))
    ok(run("follower", "remove", "Vorn", "--commit"))
    g("merge", "-q", "--no-edit", "ana", ok=merged)


def test_the_same_chapter_recorded_alike_merges_cleanly(shared, example, run):
    _chapter_05_on_two_branches(shared, run, "complete")
    data = json.loads(ok(run("show", "--json")).stdout)
    assert data["track"]["05"] == "completed" and data["next_chapter"] == "06"
    assert data["followers"] == []
    assert "Haunted" in (example / "heroes" / "andreas.toml").read_text()
    assert_no_errors(run)


def test_chapters_the_players_disagree_on_conflict_there_only(shared, example, run):
    """Ana completed chapter 05 while Ben skipped it: the one line where the game disagrees conflicts,
    the rest merges, and `drunagor check` shows the markers (exit 3) until a player resolves them."""
    g = shared
    _chapter_05_on_two_branches(g, run, "skip", merged=1)
    assert g("diff", "--name-only", "--diff-filter=U").splitlines() == ["campaigns/example/story.toml"]
    text = (example / "story.toml").read_text()
    lines = text.splitlines()
    start = lines.index("<<<<<<< HEAD")
    end = lines.index(">>>>>>> ana")
    assert lines[start - 1] == '"04" = "completed"'
    ours, theirs = lines[start + 1:lines.index("=======")], lines[lines.index("=======") + 1:end]
    assert [ln for ln in ours if "05" in ln] == ['"05" = "skipped"']
    assert [ln for ln in theirs if "05" in ln] == ['"05" = "completed"']
    assert text.count("<<<<<<<") == 1  # one conflict, on the Adventure Track
    assert "Vorn" not in text  # Ben's follower change merged
    assert "Haunted" in (example / "heroes" / "andreas.toml").read_text()  # Ana's hero change merged
    marks = ", ".join(str(n + 1) for n, ln in enumerate(lines) if ln[:7] in ("<<<<<<<", "=======", ">>>>>>>"))
    r = run("check")
    assert r.exit_code == 3
    assert r.stdout == (f"campaigns/example/story.toml:{start + 1}: conflict-markers: unresolved git conflict "
                        f"markers at lines {marks}; keep the right side of each conflict, delete the marker "
                        "lines, then commit\n")
    r = run("show")
    assert r.exit_code == 3 and f"story.toml:{start + 1}: conflict-markers" in r.stderr
    # a player resolves it (the game says chapter 05 was completed) and check is happy again
    (example / "story.toml").write_text("\n".join(lines[:start] + theirs + lines[end + 1:]) + "\n")
    assert_no_errors(run)


def test_a_player_one_chapter_ahead_conflicts_on_that_chapter_only(shared, example, run):
    """Ana recorded chapters 05 and 06 while Ben, not yet pulled, recorded 05 alike: both added lines at
    the end of the Adventure Track, so git asks about the one line only Ana has (keep it)."""
    g = shared
    _branch(g, "ana")
    ok(run("chapter", "complete", "5", "--commit"))
    ok(run("chapter", "complete", "6", "--commit"))
    _branch(g, "ben", "main")
    g.as_("Ben")
    ok(run("chapter", "complete", "5", "--commit"))
    g("merge", "-q", "--no-edit", "ana", ok=1)
    lines = (example / "story.toml").read_text().splitlines()
    start = lines.index("<<<<<<< HEAD")
    assert lines[start - 2:start] == ['"04" = "completed"', '"05" = "completed"']
    assert lines[start:start + 4] == ["<<<<<<< HEAD", "=======", '"06" = "completed"', ">>>>>>> ana"]
    assert run("check").exit_code == 3
    (example / "story.toml").write_text("\n".join(lines[:start] + ['"06" = "completed"'] + lines[start + 4:]) + "\n")
    assert_no_errors(run)
    assert json.loads(run("show", "--json").stdout)["next_chapter"] == "07"


def test_new_with_commit(git, run, tmp_path):
    r = ok(run("new", "autumn", "--party", "Safeguard Corporation", "--commit"))
    assert r.stdout.splitlines()[1] == (f"committed {short(git)}: drunagor: created campaign autumn "
                                        "(Safeguard Corporation)")
    assert git.files_of() == ["A\tcampaigns/autumn/.gitattributes", "A\tcampaigns/autumn/.gitignore",
                              "A\tcampaigns/autumn/story.toml"]
    assert git("status", "--porcelain", "--untracked-files=all") == ""


def test_new_with_commit_outside_a_repository_creates_nothing(no_repo, run, tmp_path):
    r = run("new", "autumn", "--commit")
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == ("error: campaigns/autumn: git: the campaign is not in a git repository; run `git init` "
                        "in the folder that should hold it, and commit the campaign, or run the command "
                        "without --commit\n")
    assert not (tmp_path / "campaigns").exists()


# ----------------------------------------------------------------- every writing command: --commit


def _commands():
    from typer.main import get_command

    from drunagor_log.cli.app import app

    def walk(cmd, prefix):
        if hasattr(cmd, "commands"):
            for name, sub in cmd.commands.items():
                yield from walk(sub, f"{prefix} {name}".strip())
        else:
            yield prefix, cmd

    return dict(walk(get_command(app), ""))


def _writes(callback) -> bool:
    """Whether a command writes: its function, or a helper of its module it calls, finishes a write."""
    import inspect
    import re

    fn = inspect.unwrap(callback)
    module = inspect.getmodule(fn)
    source = inspect.getsource(fn)
    for name in set(re.findall(r"\b([A-Za-z_]\w*)\(", source)):
        helper = getattr(module, name, None)
        if inspect.isfunction(helper) and helper is not fn and inspect.getmodule(helper) is module:
            source += inspect.getsource(helper)
    for mod, name in set(re.findall(r"\b(\w+)\.(\w+)\(", source)):  # an operation it calls (ops/)
        ops_module = getattr(module, mod, None)
        if inspect.ismodule(ops_module) and ops_module.__name__.startswith("drunagor_log.ops"):
            op = getattr(ops_module, name)
            source += inspect.getsource(op) + "".join(
                inspect.getsource(h) for h in vars(ops_module).values()
                if inspect.isfunction(h) and h.__module__ == ops_module.__name__ and h.__name__ in inspect.getsource(op))
    return bool(re.search(r"\b(?:finish|perform)\(|exclusive=True|atomic_write\(", source))


def test_every_writing_command_takes_commit():
    commands = _commands()
    writing = {name for name, cmd in commands.items() if _writes(cmd.callback)}
    assert {"new", "party", "hero add", "chapter complete"} <= writing  # the detection works
    assert not writing & {"show", "check", "history"}
    missing = sorted(name for name in writing - {"undo"}  # undo always commits
                     if "commit" not in [p.name for p in commands[name].params])
    assert missing == []
    assert "commit" not in [p.name for p in commands["undo"].params]


def test_a_long_message_keeps_a_short_subject_and_goes_whole_into_the_body():
    from drunagor_log.git.commits import commit_subject

    short_one = "drunagor: party name: Quiet"
    assert commit_subject(short_one) == (short_one, None)
    long_one = ("drunagor: chapter 05 completed; Andreas now owes: 1 Class Ability, 1 Spoils of the Hero "
                "(Standard); Nyx now owes: 1 Class Ability")
    assert commit_subject(long_one) == ("drunagor: chapter 05 completed", long_one)
    words = "drunagor: " + "Catharina gives Potion of Healing to Vacrem, who now holds it in the bag" * 2
    subject, body = commit_subject(words)
    assert subject == "drunagor: Catharina gives Potion of Healing to Vacrem, who now holds..." and body == words
    assert len(subject) <= 72

"""`drunagor sync` attacked through the shared repository: a bare remote and two clones, Ana's and
Eve's; Eve pushes a campaign built to attack Ana's sync (symbolic links where campaign files and
folders are, files turned into folders and back, huge values, a hostile .gitattributes), and Ana
runs the installed `drunagor` script, bounded in time and memory (bounded.py).

Whatever Eve pushed: Ana's sync refuses before merging (exit 3, the other side's data is not a
campaign drunagor reads), nothing outside the repository changes, Ana's own commits stay where they
were, no commit is made (so none lacks a campaign file or holds git's `~` side files), and nothing is
pushed, with `--keep mine` and `--keep theirs` alike."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import EXAMPLE, snapshot
from tests.sync.conftest import bare_remote, git, shared_by_ana

from . import bounded

pytestmark = pytest.mark.posix  # symbolic links as git checks them out on POSIX systems

SURFACE = "sync"


class Side:
    def __init__(self, top: Path):
        self.top, self.root = top, top / "campaigns" / "example"

    def git(self, *args: str, ok: int | None = 0) -> str:
        return git(self.top, *args, ok=ok)

    def sync(self, *args: str) -> bounded.Outcome:
        return bounded.drunagor("-C", str(self.root), "sync", *args, surface=SURFACE, cwd=self.top,
                                env=dict(os.environ))


@pytest.fixture
def table(tmp_path, monkeypatch, run):
    """The shared remote with the example campaign; Ana's clone with one change of her own
    committed, not pushed; Eve's clone, up to date, ready to push her attack."""
    remote = bare_remote(tmp_path, monkeypatch)
    ana_player, eve_player = shared_by_ana(remote, tmp_path, run, "Eve")
    eve_player.ok("git", "setup")
    ana_player.ok("party", "Ana's band", "--commit")
    # the driver as the installed script registers it (its own Python), so that Ana's syncs below
    # set nothing up
    subprocess.run([bounded.drunagor_script(), "-C", str(ana_player.root), "git", "setup"], check=True,
                   capture_output=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.txt").write_text("Ana's own notes, outside every repository\n")
    return Side(ana_player.top), Side(eve_player.top), remote, outside


def push(eve: Side, message: str) -> None:
    eve.git("add", "-A")
    eve.git("commit", "--quiet", "-m", message)
    eve.git("push", "--quiet")


def assert_nothing_happened(ana: Side, remote: Path, outside: Path, before: dict) -> None:
    """Ana's side after a refused sync: her commit where it was, her files byte for byte, no side
    file, nothing committed, nothing pushed, the world outside the repository untouched."""
    assert ana.git("rev-parse", "HEAD").strip() == before["head"]
    assert ana.git("status", "--porcelain", "--untracked-files=all") == ""
    assert snapshot(ana.root) == before["files"]
    assert not [p for p in ana.top.rglob("*") if "~" in p.name]
    assert git(remote, "rev-parse", "main").strip() == before["remote"]
    assert snapshot(outside) == before["outside"]
    assert not (ana.top / ".git" / "MERGE_HEAD").exists()


def state(ana: Side, remote: Path, outside: Path) -> dict:
    return {"head": ana.git("rev-parse", "HEAD").strip(), "files": snapshot(ana.root),
            "remote": git(remote, "rev-parse", "main").strip(), "outside": snapshot(outside)}


def refusal(what: str, file: str = "") -> str:
    shown = "campaigns/example" + (f"/{file}" if file else "")
    return (f"error: {shown}: sync: Eve's change on origin/main {what}; nothing was merged: the campaign is as it "
            "was before this sync; ask Eve to put the campaign's files back as drunagor writes them (drunagor check "
            "there) and push again, then drunagor sync\n")


KEEPS = ((), ("--keep", "mine"), ("--keep", "theirs"))


def attacked(table, attack, message: str, expected: str, keeps=KEEPS) -> None:
    """Eve pushes `attack`; Ana's sync, then `--keep mine`, then `--keep theirs`, each refused alike."""
    ana, eve, remote, outside = table
    attack(eve.root, outside)
    push(eve, message)
    before = state(ana, remote, outside)
    for keep in keeps:
        out = ana.sync(*keep)
        assert (out.returncode, out.timed_out) == (3, False), out
        assert out.stdout == "nothing to commit: every change of this campaign is committed\n"
        assert out.stderr == expected
        assert_nothing_happened(ana, remote, outside, before)
    assert "drunagor: party name: Ana's band" in ana.git("log", "--format=%s")


# -------------------------------------------------------------------- the cases of the issue


def test_case_3_the_story_record_replaced_by_a_symbolic_link(table):
    """Eve replaces story.toml by a link; Ana changed the party's name. Before: sync reported the
    conflict inverted ("you deleted it, Eve changed it"), and `--keep mine` committed a merge
    without story.toml, holding `story.toml~HEAD`."""
    def attack(root: Path, outside: Path) -> None:
        (root / "story.toml").unlink()
        (root / "story.toml").symlink_to(outside / "notes.txt")

    attacked(table, attack, "a link", refusal("makes story.toml a symbolic link, where the campaign has a file: "
                                              "drunagor reads only regular files in the campaign's folders",
                                              "story.toml"))


def test_case_4_the_adventures_folder_replaced_by_a_symbolic_link(table):
    """Eve replaces adventures/ by a link to a folder outside. Before: the merge committed and pushed
    a file `adventures~refs_remotes_origin_main` holding the link's target, and `check` passed."""
    def attack(root: Path, outside: Path) -> None:
        shutil.rmtree(root / "adventures")
        (root / "adventures").symlink_to(outside)

    attacked(table, attack, "a link", refusal("makes adventures a symbolic link, where the campaign has a folder: "
                                              "drunagor reads only regular files in the campaign's folders",
                                              "adventures"))


def _hero_to_folder(root: Path, outside: Path) -> None:
    (root / "heroes" / "nyx.toml").unlink()
    (root / "heroes" / "nyx.toml").mkdir()
    (root / "heroes" / "nyx.toml" / "x.toml").write_text("schema = 1\n")


def _heroes_to_file(root: Path, outside: Path) -> None:
    shutil.rmtree(root / "heroes")
    (root / "heroes").write_text("schema = 1\n")


def _hero_to_link(root: Path, outside: Path) -> None:
    (root / "heroes" / "nyx.toml").unlink()
    (root / "heroes" / "nyx.toml").symlink_to(outside / "notes.txt")


def _story_to_folder(root: Path, outside: Path) -> None:
    (root / "story.toml").unlink()
    (root / "story.toml").mkdir()
    (root / "story.toml" / "a").write_text("a\n")


def _gitattributes_to_link(root: Path, outside: Path) -> None:
    (root / ".gitattributes").unlink()
    (root / ".gitattributes").symlink_to(outside / "notes.txt")


def _campaign_to_link(root: Path, outside: Path) -> None:
    shutil.rmtree(root)
    root.symlink_to(outside)


@pytest.mark.parametrize("attack, expected", [
    (_hero_to_folder, refusal("makes heroes/nyx.toml a folder, where the campaign has a file: drunagor reads only "
                              "regular files in the campaign's folders", "heroes/nyx.toml")),
    (_heroes_to_file, refusal("makes heroes a file, where the campaign has a folder: drunagor reads only regular "
                              "files in the campaign's folders", "heroes")),
    (_hero_to_link, refusal("makes heroes/nyx.toml a symbolic link, where the campaign has a file: drunagor reads "
                            "only regular files in the campaign's folders", "heroes/nyx.toml")),
    (_story_to_folder, refusal("makes story.toml a folder, where the campaign has a file: drunagor reads only "
                               "regular files in the campaign's folders", "story.toml")),
    (_gitattributes_to_link, refusal("makes .gitattributes a symbolic link, where the campaign has a file: drunagor "
                                     "reads only regular files in the campaign's folders", ".gitattributes")),
    (_campaign_to_link, refusal("holds no Story Record (story.toml) there: it is not this campaign")),
], ids=["hero file to folder", "heroes folder to file", "hero file to link", "story to folder",
        "gitattributes to link", "campaign folder to link"])
def test_type_changes_and_links_are_refused_before_the_merge(table, attack, expected):
    attacked(table, attack, "type change", expected, keeps=((), ("--keep", "theirs")))  # the side that took them


def test_case_5_a_3_mb_party_name_pushed_by_another_player_is_refused_from_its_size(table):
    """Before: the driver took over 120 s on it, twice, inside `drunagor sync`."""
    def attack(root: Path, outside: Path) -> None:
        text = (root / "story.toml").read_text()
        (root / "story.toml").write_text(text.replace('party = "', 'party = "' + "x" * (3 * 1024 * 1024), 1))

    attacked(table, attack, "a long name", refusal("makes story.toml larger than 1024 KiB, far more than a campaign "
                                                   "holds (it was not read)", "story.toml"))


def test_a_value_past_the_store_s_limits_is_refused(table):
    def attack(root: Path, outside: Path) -> None:
        text = (root / "story.toml").read_text()
        (root / "story.toml").write_text(text.replace('party = "', 'party = "' + "x" * 200_000, 1))

    line = next(n for n, ln in enumerate(EXAMPLE.joinpath("story.toml").read_text().splitlines(), 1)
                if ln.startswith("party = "))
    attacked(table, attack, "a long name", refusal(
        f"makes story.toml a file drunagor cannot read at line {line} (limits: a text longer than 10000 characters "
        "(at `party`): more than a campaign holds)", "story.toml"))


def test_a_hostile_gitattributes_is_refused(table):
    def attack(root: Path, outside: Path) -> None:
        (root / ".gitattributes").write_text("*.toml text eol=lf merge=drunagor conflict-marker-size=50000000\n")

    ana, _, _, _ = table
    prefix = "campaigns/example/"
    attacked(table, attack, "attributes", (
        "error: campaigns/example: sync: Eve's change on origin/main sets conflict-marker-size=50000000 in "
        f"{prefix}.gitattributes (at most 64): a conflict would write markers that long; nothing was merged: the "
        "campaign is as it was before this sync; ask Eve to put the campaign's files back as drunagor writes them "
        "(drunagor check there) and push again, then drunagor sync\n"))


def test_a_merge_under_way_with_a_linked_story_record_is_not_committed(table):
    """Ana ran `git pull` herself (it stopped on the type change); `sync --keep mine` then refuses
    to finish it, and the merge stays as git left it."""
    ana, eve, remote, outside = table

    def attack(root: Path, outside: Path) -> None:
        (root / "story.toml").unlink()
        (root / "story.toml").symlink_to(outside / "notes.txt")

    attack(eve.root, outside)
    push(eve, "a link")
    head = ana.git("rev-parse", "HEAD").strip()
    ana.git("pull", "--quiet", "--no-rebase", ok=1)
    out = ana.sync("--keep", "mine")
    assert (out.returncode, out.timed_out) == (3, False)
    assert out.stderr == ("error: campaigns/example/story.toml: sync: Eve's change on the branch being merged makes "
                          "story.toml a symbolic link, where the campaign has a file: drunagor reads only regular "
                          "files in the campaign's folders; nothing was merged: the campaign is as it was before "
                          "this sync; ask Eve to put the campaign's files back as drunagor writes them (drunagor "
                          "check there) and push again, then drunagor sync\n")
    assert ana.git("rev-parse", "HEAD").strip() == head
    assert (ana.top / ".git" / "MERGE_HEAD").exists()
    assert snapshot(outside) == {"notes.txt": b"Ana's own notes, outside every repository\n"}


def test_each_side_of_a_modify_delete_conflict_is_worded_right(table):
    """Ana changed Nyx's Campaign Log, Eve deleted it: Eve deleted it, Ana changed it (and back)."""
    ana, eve, remote, outside = table
    nyx = ana.root / "heroes" / "nyx.toml"
    nyx.write_text(nyx.read_text().replace("[", "# Ana's note\n[", 1))
    ana.git("commit", "--quiet", "-am", "a note")
    (eve.root / "heroes" / "nyx.toml").unlink()
    push(eve, "Nyx leaves")
    out = ana.sync()
    assert out.returncode == 1
    assert "conflict: heroes/nyx.toml: Eve deleted it, you changed it\n" in out.stdout


def test_a_merge_holding_a_file_neither_side_has_is_never_committed(table):
    """A merge under way that holds a file git made (a `~HEAD` side file, added here by hand where
    git would add it on a type change): `sync --keep mine` decides the conflict, then refuses to
    commit, and leaves the merge as it is."""
    ana, eve, remote, outside = table
    story = eve.root / "story.toml"
    story.write_text(story.read_text().replace('party = "', 'party = "Eve\'s ', 1))
    push(eve, "a party name")
    ana.git("-c", "merge.drunagor.driver=false", "pull", "--quiet", "--no-rebase", ok=1)
    (ana.root / "story.toml~HEAD").write_bytes((ana.root / "story.toml").read_bytes())
    ana.git("add", "--", "campaigns/example/story.toml~HEAD")
    head = ana.git("rev-parse", "HEAD").strip()
    out = ana.sync("--keep", "mine")
    assert (out.returncode, out.timed_out) == (3, False)
    assert out.stderr == ("error: campaigns/example: sync: the merge would add story.toml~HEAD, which neither side "
                          "has (a file git made of a conflict); the merge under way stays as it is, not committed; "
                          "give the merge up (git merge --abort) and ask the other player to push the campaign's "
                          "files as drunagor writes them\n")
    assert ana.git("rev-parse", "HEAD").strip() == head
    assert (ana.top / ".git" / "MERGE_HEAD").exists()
    assert git(remote, "rev-parse", "main") == eve.git("rev-parse", "HEAD")  # nothing pushed

"""A campaign from someone else's repository is safe to open (issue 18; README "When something is
wrong"). Campaigns are shared through git, so every file of one may come from another machine: a
symbolic link out of the folder, a planted journal, a FIFO or a device, a file of gigabytes, a git
conflict in a file the command does not even open. Each case of the issue is a test here (the link
and journal cases in a real `git clone`), and a property test runs drunagor's commands on generated
hostile campaigns and checks that not one byte outside the campaign folder (and the cache) changes.

Every test that could block on a FIFO or read /dev/zero forever runs under an alarm: a regression
fails the test instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from drunagor_log import store
from drunagor_log.errors import DataError
from tests.conftest import EXAMPLE, REPO, snapshot
from tests.helpers import git

NOTES = b"my own notes, outside the campaign\n"


# ------------------------------------------------------------------------------------ helpers


@pytest.fixture(autouse=True)
def _alarm():
    """Fail (TimeoutError) rather than hang if a command blocks on a FIFO or reads forever."""
    def _timeout(signum, frame):
        raise TimeoutError("a command blocked or read without end")

    old = signal.signal(signal.SIGALRM, _timeout)
    signal.alarm(120)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def outside(tmp_path: Path) -> Path:
    """A folder of the player's own, beside the campaigns: notes and a copy of a Campaign Log (so
    that a file reached through a link would even parse)."""
    folder = tmp_path / "outside"
    if not folder.exists():
        folder.mkdir()
        (folder / "notes.txt").write_bytes(NOTES)
        shutil.copy(EXAMPLE / "heroes" / "nyx.toml", folder / "nyx.toml")
        shutil.copy(EXAMPLE / "story.toml", folder / "story.toml")
    return folder


def tree(folder: Path) -> dict[str, object]:
    """Every entry below `folder` (links as their target, files as their bytes): what must not change."""
    found: dict[str, object] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = str(p.relative_to(folder))
            if p.is_symlink():
                found[rel] = ("link", os.readlink(p))
            elif p.is_file():
                found[rel] = p.read_bytes()
            else:
                found[rel] = stat.S_IFMT(p.lstat().st_mode)
    return found


def cloned(tmp_path: Path, plant) -> Path:
    """The example campaign with `plant(root)`'s additions, committed (journals and temp files force-
    added) in a repository `origin`, then cloned to `clone`: the campaign of the clone."""
    origin = tmp_path / "origin"
    root = origin / "campaigns" / "example"
    shutil.copytree(EXAMPLE, root)
    plant(root)
    git(origin, "init", "-q")
    git(origin, "add", "-A", "-f")
    git(origin, "commit", "-q", "-m", "a campaign to share")
    git(tmp_path, "clone", "-q", str(origin), "clone")
    return tmp_path / "clone" / "campaigns" / "example"


def journal(root: Path, *ops: dict) -> None:
    (root / store.JOURNAL).write_text(json.dumps({"ops": list(ops)}))


def shown(path: Path) -> str:
    return store.display(path)


# ------------------------------------------ 1. a journal never reaches outside the campaign folder


PLANTED = {
    "delete through a linked folder": ({"delete": "link/notes.txt"},),
    "tmp and target through a linked folder": ({"tmp": "link/.notes.txt.1-1.drunagor-tmp", "target": "link/notes.txt"},),
    "a planted temp file put over a linked target": ({"tmp": ".notes.txt.1-1.drunagor-tmp", "target": "link/notes.txt"},),
    "an absolute target": ({"delete": "/tmp/x/notes.txt"},),
    "a target up and out": ({"delete": "heroes/../../outside/notes.txt"},),
}


@pytest.mark.parametrize("case", PLANTED)
@pytest.mark.slow  # runs git
def test_a_planted_journal_in_a_cloned_repository_is_refused_and_left_alone(tmp_path, git_env, run, case):
    out = outside(tmp_path)

    def plant(root):
        (root / "link").symlink_to(out)
        (root / ".notes.txt.1-1.drunagor-tmp").write_bytes(b"planted bytes\n")
        journal(root, *PLANTED[case])

    root = cloned(tmp_path, plant)
    assert (root / "link").is_symlink() and (root / store.JOURNAL).exists()  # git kept both
    before_out, before = tree(out), snapshot(root)
    for args in (["show"], ["odds"], ["check"], ["party", "Mallory's friends"], ["hero", "list"]):
        r = run("-C", str(root), *args)
        assert (r.exit_code, r.stdout) == (3, ""), (args, r)
        assert r.stderr.startswith(f"error: {shown(root / store.JOURNAL)}: journal: the journal of an interrupted "
                                   "command is not one drunagor can carry out ("), r.stderr
        assert r.stderr.endswith("); it was left as it is; compare the files with git (git status, git diff), "
                                 f"then delete {store.JOURNAL} and the .*{store.TMP_SUFFIX} files\n")
    assert tree(out) == before_out
    assert (out / "notes.txt").read_bytes() == NOTES
    assert snapshot(root) == before  # the journal and the planted file are left for the user


@pytest.mark.slow  # runs git
def test_a_journal_naming_a_linked_campaign_file_is_refused_whole(tmp_path, git_env, run):
    """Names of drunagor's own shape, but one target is a link to a file outside: no op is carried out,
    not even the harmless first one."""
    out = outside(tmp_path)

    def plant(root):
        (root / ".story.toml.7-1.drunagor-tmp").write_text((root / "story.toml").read_text().replace(
            'party = "Safeguard Corporation"', 'party = "Mallory"'))
        (root / "heroes" / "nyx.toml").unlink()
        (root / "heroes" / "nyx.toml").symlink_to(out / "nyx.toml")
        (root / "heroes" / ".nyx.toml.7-2.drunagor-tmp").write_bytes(b"planted\n")
        journal(root, {"tmp": ".story.toml.7-1.drunagor-tmp", "target": "story.toml"},
                {"tmp": "heroes/.nyx.toml.7-2.drunagor-tmp", "target": "heroes/nyx.toml"})

    root = cloned(tmp_path, plant)
    before_out, before = tree(out), snapshot(root)
    r = run("-C", str(root), "show")
    assert (r.exit_code, r.stderr) == (3, (
        f"error: {shown(root / store.JOURNAL)}: journal: the journal of an interrupted command is not one "
        "drunagor can carry out (heroes/nyx.toml is a symbolic link); it was left as it is; compare the files "
        f"with git (git status, git diff), then delete {store.JOURNAL} and the .*{store.TMP_SUFFIX} files\n"))
    assert tree(out) == before_out and snapshot(root) == before
    assert 'party = "Safeguard Corporation"' in (root / "story.toml").read_text()


@pytest.mark.slow  # runs git
def test_a_journal_of_drunagor_that_came_with_a_clone_is_left_alone_by_every_command(tmp_path, git_env, run):
    """A write interrupted on one machine, committed by mistake (force-added), cloned on another: the
    journal is drunagor's own shape, but git tracks it, so it is not a write interrupted here. Every
    command refuses it (exit 3) and changes nothing: carrying it out would replace files that git has
    as committed by what someone else's temp files hold."""
    def plant(root):
        (root / ".story.toml.7-1.drunagor-tmp").write_text((root / "story.toml").read_text().replace(
            'party = "Safeguard Corporation"', 'party = "Night Watch"'))
        (root / "heroes" / ".nyx.toml.7-2.drunagor-tmp").write_text(
            (root / "heroes" / "nyx.toml").read_text().replace('player = "Carla"', 'player = "Bea"'))
        journal(root, {"tmp": ".story.toml.7-1.drunagor-tmp", "target": "story.toml"},
                {"tmp": "heroes/.nyx.toml.7-2.drunagor-tmp", "target": "heroes/nyx.toml"})

    root = cloned(tmp_path, plant)
    before = snapshot(root)
    for args in (["check"], ["party", "Night Watch"], ["leader", "Nyx"], ["show", "--json"], ["raid", "--dry-run"]):
        r = run("-C", str(root), *args)
        assert (r.exit_code, r.stdout) == (3, ""), (args, r)
        assert r.stderr == (f"error: {shown(root / store.JOURNAL)}: journal: this journal came with the repository, "
                            "not from an interrupted command here (git tracks it); nothing was changed; remove it "
                            f"with git rm: git -C {shown(root)} rm -- {store.JOURNAL}, then commit\n"), args
        assert snapshot(root) == before, args



# ------------------------------- 2. links out of the folder, /dev/zero, FIFOs, devices, huge files


@pytest.mark.slow  # runs git
def test_a_campaign_file_linked_to_dev_zero_in_a_clone_is_refused_at_once(tmp_path, git_env, run):
    def plant(root):
        (root / "heroes" / "nyx.toml").unlink()
        (root / "heroes" / "nyx.toml").symlink_to("/dev/zero")

    root = cloned(tmp_path, plant)
    log = root / "heroes" / "nyx.toml"
    message = (f"{shown(log)}: file: a symbolic link stands where a campaign file should be; replace the link by "
               "the file itself: drunagor reads and writes only regular files inside the campaign folder")
    r = run("-C", str(root), "hero", "list")
    assert (r.exit_code, r.stdout, r.stderr) == (3, "", f"error: {message}\n")
    r = run("-C", str(root), "check")
    assert (r.exit_code, r.stdout) == (3, message + "\n")


@pytest.mark.slow  # runs git
def test_files_and_folders_linked_outside_are_never_followed(tmp_path, git_env, run):
    out = outside(tmp_path)
    (out / "heroes").mkdir()
    shutil.copy(EXAMPLE / "heroes" / "nyx.toml", out / "heroes" / "nyx.toml")

    def plant(root):
        (root / "story.toml").unlink()
        (root / "story.toml").symlink_to(out / "story.toml")  # a valid Story Record, elsewhere

    root = cloned(tmp_path, plant)
    r = run("-C", str(root), "party", "Mallory")
    assert (r.exit_code, r.stderr) == (3, f"error: {shown(root / 'story.toml')}: file: a symbolic link stands where "
                                          "a campaign file should be; replace the link by the file itself: drunagor "
                                          "reads and writes only regular files inside the campaign folder\n")
    (root / "story.toml").unlink()
    shutil.copy(EXAMPLE / "story.toml", root / "story.toml")
    shutil.rmtree(root / "heroes")
    (root / "heroes").symlink_to(out / "heroes")
    before = tree(out)
    for args in (["hero", "list"], ["hero", "gain", "Nyx", "Buckler"], ["check"]):
        r = run("-C", str(root), *args)
        assert r.exit_code == 3, (args, r)
        assert (f"{shown(root / 'heroes')}: file: heroes is a symbolic link; it should be the folder of the Campaign "
                "Logs; replace the link by the folder itself") in r.stderr + r.stdout, (args, r)
    shutil.rmtree(root / "adventures")
    (root / "adventures").symlink_to(out)
    (root / "heroes").unlink()
    shutil.copytree(EXAMPLE / "heroes", root / "heroes")
    r = run("-C", str(root), "adventure", "end", "--lost")  # would archive the adventure under adventures/
    assert r.exit_code == 3, r
    assert r.stderr == (f"error: {shown(root / 'adventures')}: file: adventures is a symbolic link; it should be the "
                        "folder of the finished adventures; replace the link by the folder itself: drunagor reads and "
                        "writes only inside the campaign folder\n"), r
    assert tree(out) == before


@pytest.mark.parametrize("where", ["heroes/nyx.toml", "adventure.toml", "story.toml"])
@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_fifo_or_a_device_is_refused_never_opened(example, run, where, kind):
    path = example / where
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    else:
        try:
            os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 5))  # /dev/zero's numbers
        except PermissionError:
            pytest.skip("mknod needs privileges")
    message = (f"{shown(path)}: file: not a regular file (a FIFO, a device or a socket stands where a campaign file "
               "should be); delete it and restore it from git (git checkout -- FILE)")
    before = snapshot(example)
    for args in (["show"], ["hero", "list"], ["raid", "--dry-run", "--seed", "1"], ["check"]):
        r = run("-C", str(example), *args)  # also a command that would not open the file: it is refused at the open
        assert r.exit_code == 3, (args, r)
        assert message in r.stderr + r.stdout, (args, r)
    assert snapshot(example) == before


def test_a_huge_file_is_refused_without_reading_it(example, run):
    log = example / "heroes" / "nyx.toml"
    with open(log, "r+b") as f:  # sparse: 64 GiB that would take minutes to read, and memory to hold
        f.truncate(64 << 30)
    r = run("-C", str(example), "hero", "list")
    assert (r.exit_code, r.stderr) == (3, f"error: {shown(log)}: file-size: the file is larger than 1024 KiB, far "
                                          "more than a campaign holds; it was not read; restore it from git (git "
                                          "checkout -- FILE) or delete what does not belong in it\n")
    log.write_bytes(b"schema = 1\n" + b"#" * store.MAX_FILE_BYTES + b"\n")
    assert run("-C", str(example), "check").exit_code == 3


# --------------------------------------------------------------- 3. `new`: clear, leaves nothing


def listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.mark.parametrize("args,code,message", [
    (["new", "autumn", "--dir", "a-file"], 2, "error: --dir a-file is not a folder; give the folder where campaigns live\n"),
    (["new", "autumn", "--dir", "/dev/null"], 2, "error: --dir /dev/null is not a folder; give the folder where "
                                                 "campaigns live\n"),
    (["new", "autumn", "--dir", "/proc"], 3, "error: /proc/autumn: file: cannot create the campaign: cannot make a "
                                             "folder in /proc (No such file or directory); nothing was written; fix "
                                             "the cause (disk space, permissions, --dir) and re-run\n"),
    (["new", "taken"], 2, "error: campaigns/taken already exists and is not a folder; choose another NAME, or --dir, "
                          "or move it away\n"),
    (["new", "full"], 2, "error: campaigns/full already exists and is not empty; choose another NAME, or --dir, or "
                         "move its files away\n"),
    (["new", "x" * 300], 2, "error: a campaign's name is at most 64 characters, not 300; choose a shorter name\n"),
    (["new", ".."], 2, "error: '..' cannot name a campaign: it has no letter or digit; choose a name with letters "
                       "(its file is named after them)\n"),
    (["new", "two\nlines"], 2, "error: a campaign's name cannot hold '\\n' ('\\n'): 'two\\nlines'; type the name on "
                               "one line, printable characters only\n"),
])
def test_new_refuses_clearly_and_leaves_nothing(run, tmp_path, args, code, message):
    (tmp_path / "a-file").write_text("not a folder\n")
    (tmp_path / "campaigns").mkdir()
    (tmp_path / "campaigns" / "taken").write_text("a file\n")
    (tmp_path / "campaigns" / "full").mkdir()
    (tmp_path / "campaigns" / "full" / "notes.md").write_text("mine\n")
    before = tree(tmp_path)
    r = run(*args)
    assert (r.exit_code, r.stdout, r.stderr) == (code, "", message)
    assert tree(tmp_path) == before


@pytest.mark.slow  # starts drunagor
def test_new_on_a_full_disk_says_so_and_leaves_nothing(tmp_path):
    """A real process whose writes the system refuses past 512 bytes (RLIMIT_FSIZE, as a full disk):
    not even the campaigns/ folder it made is left."""
    import resource

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (512, 512))

    env = dict(os.environ, PYTHONPATH=str(REPO), NO_COLOR="1")
    r = subprocess.run([sys.executable, "-m", "drunagor_log", "new", "autumn"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, preexec_fn=limit, timeout=60)
    assert (r.returncode, r.stdout) == (3, ""), r
    assert r.stderr == ("error: campaigns/autumn: file: cannot create the campaign: cannot write the file (File too "
                        "large); nothing was written; fix the cause (disk space, permissions, --dir) and re-run\n")
    assert listing(tmp_path) == []


def test_new_takes_the_place_of_an_empty_folder(run, tmp_path):
    (tmp_path / "campaigns" / "autumn").mkdir(parents=True)
    assert run("new", "autumn").exit_code == 0
    assert listing(tmp_path / "campaigns") == ["autumn", "autumn/.gitattributes", "autumn/.gitignore",
                                               "autumn/heroes", "autumn/story.toml"]


# -------------------------------------------------------------------- 4. size does not blow up


BIG = {
    "a 1 MB string": ('notes = "' + "x" * 1_000_000 + '"\n', 2, "limits: a text longer than 10000 characters (at "
                      "`notes`): more than a campaign holds"),
    "100,000 followers": ("", 6, "limits: more than 10000 entries in one list or table (at `followers`): more than "
                          "a campaign holds"),
    "a 20,000-part dotted key": ("a" + ".a" * 19_999 + " = 1\n", 2, "limits: a key of more than 20 dotted parts: "
                                 "more than a campaign holds"),
    "values 25 deep": ("deep = " + "{ a = " * 25 + "1" + " }" * 25 + "\n", 2, "limits: values nested more than 20 "
                       "levels deep (at `deep.a.a.…`): more than a campaign holds"),
}


@pytest.mark.parametrize("case", BIG)
def test_what_no_campaign_holds_is_refused_at_read(example, run, case):
    extra, line, message = BIG[case]
    story = example / "story.toml"
    text = story.read_text()
    if case == "100,000 followers":
        text = text.replace("followers = [", "followers = [" + "".join(f'"F{i}", ' for i in range(100_000)))
    story.write_text(text.replace("\n", "\n" + extra, 1))  # the second line, before any table
    before = snapshot(example)
    remedy = "shorten the key" if "dotted" in case else "shorten what is there"
    expected = f"{shown(story)}:{line}: {message}; restore the file from git (git checkout -- FILE), or {remedy}"
    for args in (["show"], ["party", "New name"]):
        r = run("-C", str(example), *args)
        assert (r.exit_code, r.stderr) == (3, f"error: {expected}\n"), (args, r)
    r = run("-C", str(example), "check")
    assert (r.exit_code, r.stdout) == (3, expected + "\n")
    assert snapshot(example) == before


# ---------------------------------------------------------- 5. the archive cache trusts content


def test_a_damaged_archive_never_passes_check_from_the_cache(example, run):
    archive = example / "adventures" / "03-1.toml"
    assert run("-C", str(example), "check").exit_code == 0  # the cache now knows this archive
    st = archive.stat()
    raw = archive.read_bytes()
    damaged = raw.replace(b'chapter = "03"', b'chapter = "03', 1) + b" "  # same size, invalid
    assert len(damaged) == len(raw)
    archive.write_bytes(damaged)
    os.utime(archive, ns=(st.st_atime_ns, st.st_mtime_ns))  # size and time kept
    r = run("-C", str(example), "check")
    assert r.exit_code == 3, r
    assert r.stdout.startswith(f"{shown(archive)}:3: toml-syntax: not valid TOML"), r.stdout
    archive.write_bytes(raw)
    assert run("-C", str(example), "check").exit_code == 0


def test_an_unreadable_archive_never_passes_check_from_the_cache(example, run, monkeypatch):
    archive = example / "adventures" / "03-1.toml"
    assert run("-C", str(example), "check").exit_code == 0
    real_open = os.open

    def refuse(path, *args, **kwargs):
        if os.fspath(path) == os.fspath(archive):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)  # (chmod 000 does not stop root)
    r = run("-C", str(example), "check")
    assert (r.exit_code, r.stdout) == (3, f"{shown(archive)}: file: cannot read the file (Permission denied); "
                                          "check its permissions\n")
    monkeypatch.setattr(os, "open", real_open)
    archive.rename(example / "elsewhere.toml")
    archive.symlink_to(example / "elsewhere.toml")  # the very same bytes, through a link
    r = run("-C", str(example), "check")
    assert r.exit_code == 3 and "a symbolic link stands where a campaign file should be" in r.stdout, r


# ------------------------------------------ 6. a file for a folder, a stray `left`, roll-forward


def test_a_file_where_the_adventures_folder_should_be_is_reported(example, run):
    shutil.rmtree(example / "adventures")
    (example / "adventures").write_text("not a folder\n")
    r = run("-C", str(example), "check")
    assert (r.exit_code, r.stdout) == (3, f"{shown(example / 'adventures')}: file: adventures is a file; it should be "
                                          "the folder of the finished adventures; move the file away and create the "
                                          "folder adventures/\n")


@pytest.mark.parametrize("retired", [False, True])
def test_left_of_the_wrong_type_is_refused_by_check_and_by_writers(example, run, retired):
    log = example / "heroes" / "nyx.toml"
    log.write_text(log.read_text() + ("retired = true\n" if retired else "") + "left = 5\n")
    before = snapshot(example)
    line = len(log.read_text().splitlines())
    expected = (f"{shown(log)}:{line}: shape: `left` must be a chapter written as text, not 5; write `left = \"05\"` "
                "(the chapter, in quotes)")
    r = run("-C", str(example), "check")
    assert (r.exit_code, r.stdout) == (3, expected + "\n")
    r = run("-C", str(example), "hero", "gain", "Andreas" if retired else "Nyx", "Buckler")
    assert (r.exit_code, r.stderr) == (3, f"error: {expected}\n")
    assert snapshot(example) == before


# ---------------------------------------------------------------------------------- 7. names


@pytest.mark.parametrize("name,message", [
    ("", "a hero's name cannot be empty; give the hero a name"),
    (" ", "a hero's name cannot be empty; give the hero a name"),
    (".", "'.' cannot name a hero: it has no letter or digit; choose a name with letters (its file is named after them)"),
    ("..", "'..' cannot name a hero: it has no letter or digit; choose a name with letters (its file is named after "
           "them)"),
    ("Nyx\nthe Second", "a hero's name cannot hold '\\n' ('\\n'): 'Nyx\\nthe Second'; type the name on one line, "
                        "printable characters only"),
    ("Ny\x1bx", "a hero's name cannot hold '\\x1b' ('\\x1b'): 'Ny\\x1bx'; type the name on one line, printable "
                "characters only"),
])
def test_a_name_that_cannot_name_a_hero_is_refused(camp, run, name, message):
    before = snapshot(camp)
    r = run("hero", "add", name, "--role", "Leader", "--class", "Warrior")
    assert (r.exit_code, r.stderr) == (2, f"error: {message}\n")
    assert snapshot(camp) == before


def test_non_latin_names_keep_their_letters(camp, run):
    for name, role in (("Ярослава", "Leader"), ("Мирослава", "Striker"), ("鈴木", "Support"), ("Zoë", "Defender")):
        r = run("hero", "add", name, "--role", role, "--class", "Warrior")
        assert r.exit_code == 0, r
    assert sorted(p.name for p in (camp / "heroes").iterdir()) == ["zoe.toml", "мирослава.toml", "ярослава.toml",
                                                                   "鈴木.toml"]
    assert run("check").exit_code == 0
    assert run("new", "Осень", "--dir", "more").exit_code == 0
    assert (Path("more") / "осень" / "story.toml").is_file()


# ------------------------------------------------------- 8. a conflict anywhere stops everything


def conflicted(root: Path, tmp_path: Path) -> Path:
    """heroes/nyx.toml with the conflict markers of a real `git merge` (two players changed its player)."""
    top = root.parent.parent
    git(top, "init", "-q")
    git(top, "symbolic-ref", "HEAD", "refs/heads/main")
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "start")
    log = root / "heroes" / "nyx.toml"
    git(top, "checkout", "-q", "-b", "ana")
    log.write_text(log.read_text().replace('player = "Carla"', 'player = "Ana"'))
    git(top, "commit", "-q", "-am", "ana plays Nyx")
    git(top, "checkout", "-q", "main")
    log.write_text(log.read_text().replace('player = "Carla"', 'player = "Bea"'))
    git(top, "commit", "-q", "-am", "bea plays Nyx")
    subprocess.run(["git", "merge", "-q", "ana"], cwd=top, capture_output=True)
    assert b"<<<<<<<" in log.read_bytes()
    return log


def every_example() -> list[str]:
    from tests.docs.test_docs import NEEDS_GIT, help_examples

    return [line for where, line in help_examples() if where not in NEEDS_GIT | {"new", "list", "drunagor"}]


NO_CAMPAIGN = {"recruit --chapter 6", "completion bash", "rules cite L1203"}  # examples that never open the campaign


@pytest.mark.slow  # runs git
def test_a_conflict_in_any_file_stops_every_command(example, run, tmp_path, git_env):
    import shlex

    log = conflicted(example, tmp_path)
    lines = [i + 1 for i, ln in enumerate(log.read_text().splitlines()) if ln[:7] in ("<<<<<<<", "=======", ">>>>>>>")]
    expected = (f"error: {shown(log)}:{lines[0]}: conflict-markers: unresolved git conflict markers at lines "
                f"{', '.join(map(str, lines))}; keep the right side of each conflict, delete the marker lines, then "
                "commit\n")
    before = snapshot(example)
    examples = every_example()
    assert len(examples) > 40
    for example_line in examples:
        args = shlex.split(example_line.split(" && ")[0])
        r = run("-C", str(example), *args)
        if example_line in NO_CAMPAIGN:
            assert r.exit_code == 0, (args, r)
        elif args[0] == "check":
            assert (r.exit_code, r.stdout) == (3, expected[len("error: "):]), (args, r)
        else:
            assert (r.exit_code, r.stderr) == (3, expected), (args, r)
    assert snapshot(example) == before


# ------------------------------------------------- the property: nothing outside ever changes


CAMPAIGN_FILES = ["story.toml", "adventure.toml", "heroes/nyx.toml", "heroes/andreas.toml", "adventures/03-1.toml",
                  "heroes/new.toml", "adventures/05-1.toml"]
LINK_TARGETS = ["outside/notes.txt", "outside/nyx.toml", "outside/story.toml", "outside", "/dev/zero", "/dev/null",
                "outside/missing"]
JOURNAL_NAMES = ["link/notes.txt", "story.toml", "heroes/nyx.toml", "heroes/../../../outside/notes.txt",
                 "/tmp/x", "link/nyx.toml", "heroes/.nyx.toml.1-1.drunagor-tmp", ".story.toml.1-1.drunagor-tmp",
                 "link/.nyx.toml.1-1.drunagor-tmp", ".planted.drunagor-tmp"]

hostile_items = st.one_of(
    st.tuples(st.just("link"), st.sampled_from(CAMPAIGN_FILES + ["heroes", "adventures", "link"]),
              st.sampled_from(LINK_TARGETS)),
    st.tuples(st.just("fifo"), st.sampled_from(CAMPAIGN_FILES), st.just("")),
    st.tuples(st.just("device"), st.sampled_from(CAMPAIGN_FILES), st.sampled_from(["zero", "null"])),
    st.tuples(st.just("journal"), st.sampled_from(["delete", "tmp"]),
              st.tuples(st.sampled_from(JOURNAL_NAMES), st.sampled_from(JOURNAL_NAMES))),
)


def build_hostile(top: Path, items) -> Path:
    out = outside(top)
    root = top / "campaigns" / "example"
    shutil.copytree(EXAMPLE, root)
    (root / "link").symlink_to(out)
    for name in (".story.toml.1-1.drunagor-tmp", "heroes/.nyx.toml.1-1.drunagor-tmp", ".planted.drunagor-tmp"):
        (root / name).write_bytes(b"schema = 1\nplanted = true\n")
    ops = []
    for kind, where, what in items:
        path = root / where
        if kind == "journal":
            ops.append({"delete": what[0]} if where == "delete" else {"tmp": what[0], "target": what[1]})
            continue
        if path.parent.is_symlink() or not path.parent.is_dir():
            continue  # its folder is a link now (or gone): the item has no place
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif os.path.lexists(path):
            path.unlink()
        if kind == "link":
            path.symlink_to(what if what.startswith("/") else top / what)
        elif kind == "fifo":
            os.mkfifo(path)
        else:
            try:
                os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 5 if what == "zero" else 3))
            except PermissionError:
                path.write_bytes(b"")
    if ops:
        journal(root, *ops)
    return root


COMMANDS = every_example() + ["undo", "migrate", "adventure end --lost", "hero remove Nyx", "hero give Nyx Andreas "
                                                                                             "Buckler"]


@contextmanager
def scratch():
    """A fresh folder for one generated example, under its own alarm (one per example: a command
    that blocks fails that example, and Hypothesis can shrink it)."""
    old = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="hostile-") as d:
        os.chdir(d)
        signal.alarm(20)
        try:
            yield Path(d)
        finally:
            signal.alarm(0)
            os.chdir(old)


def _journal_accepted(root: Path) -> bool:
    """True if the store would carry out the planted journal (drunagor's own shape, inside the folder)."""
    try:
        store.journal_ops(root)
    except DataError:
        return False
    return True


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(items=st.lists(hostile_items, min_size=1, max_size=5),
       commands=st.lists(st.sampled_from(COMMANDS), min_size=1, max_size=3))
@example(items=[("journal", "delete", ("heroes/nyx.toml", "link/notes.txt"))], commands=["show"])
def test_no_command_changes_a_byte_outside_the_campaign(run, items, commands):
    import shlex

    with scratch() as top:
        root = build_hostile(top, items)
        (top / "elsewhere").mkdir()
        (top / "elsewhere" / "diary.txt").write_bytes(NOTES)
        before = {k: v for k, v in tree(top).items() if not k.startswith("campaigns")}
        steps = [(line, step.removeprefix("drunagor ")) for line in commands for step in line.split(" && ")]
        intact = top / "campaigns" / "intact"  # the same commands on the example as shipped: the codes to expect
        shutil.copytree(EXAMPLE, intact)
        expected = [run("-C", str(intact), *shlex.split(step)).exit_code for _, step in steps]
        # anything hostile at a campaign file, heroes/, adventures/ or in the journal stops every command at
        # the open (exit 3; 2 when story.toml itself is gone: -C names no campaign); a link replacing the
        # campaign's own `link` touches nothing the campaign reads. A journal of drunagor's own shape (it
        # names campaign files only, through no link) is not refused: the first command completes it and
        # says so, and what follows depends on what it wrote
        carried = os.path.lexists(root / store.JOURNAL) and _journal_accepted(root)
        damaged = any((kind == "journal" and not carried) or (kind != "journal" and where != "link")
                      for kind, where, _ in items)
        for i, ((line, step), code) in enumerate(zip(steps, expected, strict=False)):
            r = run("-C", str(root), *shlex.split(step))  # an exception would escape: never a traceback
            if carried and i == 0 and line not in NO_CAMPAIGN:
                assert "finished the write of an interrupted drunagor command" in r.stderr, (step, r)
            if carried and not damaged and line not in NO_CAMPAIGN:
                continue
            if not damaged or line in NO_CAMPAIGN:
                assert r.exit_code == code, (step, r)
            elif r.exit_code == 2:
                assert "holds no story.toml" in r.stderr, (step, r)
            else:
                assert r.exit_code == 3, (step, r)
        after = {k: v for k, v in tree(top).items() if not k.startswith("campaigns")}
        assert after == before, (items, commands)


def test_every_command_on_a_campaign_with_every_hostile_thing_at_once(run, tmp_path):
    """The generator's worst case, deterministic: every command, one after the other."""
    import shlex

    items = [("link", "heroes/nyx.toml", "outside/nyx.toml"), ("link", "adventures", "outside"),
             ("fifo", "heroes/andreas.toml", ""), ("device", "adventures/05-1.toml", "zero"),
             ("journal", "delete", ("link/notes.txt", "")), ("journal", "tmp", (".planted.drunagor-tmp", "link/nyx.toml"))]
    root = build_hostile(tmp_path, items)
    before = {k: v for k, v in tree(tmp_path).items() if not k.startswith("campaigns")}
    for line in COMMANDS:
        r = run("-C", str(root), *shlex.split(line.split(" && ")[0]))
        assert r.exit_code == (0 if line in NO_CAMPAIGN else 3), (line, r)  # the journal is refused
    (root / store.JOURNAL).unlink()  # the user read the message and removed the journal
    for line in COMMANDS:  # the links, the FIFO and the device are still there: refused at the open
        r = run("-C", str(root), *shlex.split(line.split(" && ")[0]))
        assert r.exit_code == (0 if line in NO_CAMPAIGN else 3), (line, r)
    assert {k: v for k, v in tree(tmp_path).items() if not k.startswith("campaigns")} == before


def test_a_write_through_a_linked_folder_stages_nothing_outside(tmp_path):
    """The store itself: a Transaction whose file lies below a linked folder is refused before any
    temp file is written (through the link, it would land outside)."""
    from drunagor_log.errors import DataError

    out = outside(tmp_path)
    root = tmp_path / "campaigns" / "example"
    shutil.copytree(EXAMPLE, root)
    (root / "link").symlink_to(out)
    before = tree(out)
    for files in (["link/nyx.toml"], ["link/nyx.toml", "story.toml"]):
        tx = store.Transaction(root)
        for name in files:
            tx.write(root / name, b"schema = 1\n", (root / name).read_bytes())
        with pytest.raises(DataError) as err:
            tx.commit()
        assert err.value.render() == (f"{shown(root / 'link')}: file: a symbolic link stands where a campaign folder "
                                      "should be; nothing was written; replace the link by the folder itself: "
                                      "drunagor reads and writes only inside the campaign folder")
        assert tree(out) == before

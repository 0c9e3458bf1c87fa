"""A stranger's folder cannot hang or rewrite itself (issue 46), each case as the outside attack found
it, through the installed script in a subprocess, each run bounded (tests/attack/bounded.py):

- a FIFO as `.git`'s config, HEAD, index or an [include]: drunagor's own git runs (the check of a
  pending journal, autocommit) are stopped after a few seconds ("git did not answer"), the journal left
  alone; an [include] of /dev/stdin reads nothing, never the terminal;
- a journal that only deletes is never carried out, whatever git says (no repository, a `.git` file
  naming a folder that is not there, a config linked to /dev/zero, an empty `.git`);
- a git failure is said in git's words, not as "not in a git repository; run `git init`".
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from drunagor_log import store
from tests.attack import bounded
from tests.conftest import EXAMPLE, snapshot

pytestmark = [pytest.mark.slow, pytest.mark.posix]

SURFACE = "stranger folders"
# a journal of drunagor's shape: a temp file renamed onto story.toml (already done) and an archive deleted
WRITING = '{"ops":[{"tmp":".story.toml.1-0.drunagor-tmp","target":"story.toml"},{"delete":"adventures/03-1.toml"}]}'
DELETING = '{"ops": [{"delete": "adventures/03-1.toml"}]}'
SILENT = ("git did not answer within 2 seconds (a FIFO or a device as the repository's config, HEAD, index or an "
          "[include] keeps it waiting)")


class Folder:
    """A copy of the example in a repository of its own, committed."""

    def __init__(self, top: Path, *, autocommit: bool = False, repository: bool = True):
        self.top = top
        self.root = top / "ex"
        shutil.copytree(EXAMPLE, self.root)
        if autocommit:
            story = self.root / "story.toml"
            story.write_text(story.read_text().replace("autocommit = false", "autocommit = true"))
        (top / "home").mkdir()
        self.env = dict(os.environ, HOME=str(top / "home"), XDG_CACHE_HOME=str(top / "xdg"), NO_COLOR="1",
                        GIT_CONFIG_NOSYSTEM="1", GIT_CEILING_DIRECTORIES=str(top), DRUNAGOR_TEST_GIT_TIMEOUT="2")
        self.env.pop("GIT_CONFIG_GLOBAL", None)
        for role in ("AUTHOR", "COMMITTER"):
            self.env[f"GIT_{role}_NAME"], self.env[f"GIT_{role}_EMAIL"] = "Mallory", "mallory@example.org"
        if repository:
            self.git("init", "-q")
            self.git("add", "-A")
            self.git("commit", "-qm", "start")

    def git(self, *args: str) -> subprocess.CompletedProcess:
        proc = subprocess.run(["git", *args], cwd=self.root, env=self.env, capture_output=True, timeout=30)
        assert proc.returncode == 0, proc
        return proc

    def fifo(self, where: str) -> None:
        """A FIFO as .git's config, HEAD or index, or named by an [include] of its config."""
        if where == "include":
            os.mkfifo(self.top / "fifo")
            with open(self.root / ".git" / "config", "a") as f:
                f.write(f"[include]\n\tpath = {self.top / 'fifo'}\n")
            return
        (self.root / ".git" / where).unlink()
        os.mkfifo(self.root / ".git" / where)

    def drunagor(self, *args: str) -> bounded.Outcome:
        out = bounded.drunagor("-C", str(self.root), *args, surface=SURFACE, cwd=self.top, env=self.env)
        assert not out.timed_out, out
        assert "Traceback" not in out.stderr, out.stderr
        return out


@pytest.mark.parametrize("where", ["config", "HEAD", "index", "include"])
def test_a_fifo_in_git_stops_the_journal_check_not_the_command(tmp_path, where):
    """Item 1: the check of a pending journal asks git whether it tracks it; git waits forever on the
    FIFO; drunagor stops it after 2 s (the tests' bound), refuses the journal and changes nothing."""
    folder = Folder(tmp_path)
    (folder.root / store.JOURNAL).write_text(WRITING)
    folder.fifo(where)
    before = snapshot(folder.root)
    journal = store.display(folder.root / store.JOURNAL)
    for args in (["show"], ["check"], ["hero", "list"]):
        out = folder.drunagor(*args)
        assert (out.returncode, out.stdout, out.stderr) == (3, "", (
            f"error: {journal}: journal: a journal is pending in a repository where {SILENT}, so whether it came "
            "with the repository cannot be known; nothing was changed; repair the repository (what stands in its "
            ".git that is not a file), or, if the journal did not come from a command interrupted here, delete it: "
            f"rm -- {journal}\n")), (where, args)
    assert snapshot(folder.root) == before


def test_a_fifo_as_git_config_stops_an_autocommit_before_it_writes(tmp_path):
    folder = Folder(tmp_path, autocommit=True)
    folder.fifo("config")
    before = snapshot(folder.root)
    out = folder.drunagor("party", "New Band")
    assert (out.returncode, out.stdout, out.stderr) == (2, "", (
        f"error: {store.display(folder.root)}: git: git cannot work in this folder: {SILENT}; replace that FIFO or "
        "device by a file, then re-run, or set `autocommit = false` under [git] in story.toml\n"))
    assert snapshot(folder.root) == before


def test_an_include_of_dev_stdin_never_waits_for_the_terminal(tmp_path):
    """Item 1: autocommit's git runs read nothing from drunagor's standard input (a pipe held open here,
    as a terminal no one types into would be): the include reads what drunagor gives git there (nothing,
    or the commit's message: `git commit -F -`), so the command ends at once, in git's words."""
    folder = Folder(tmp_path, autocommit=True)
    with open(folder.root / ".git" / "config", "a") as f:
        f.write("[include]\n\tpath = /dev/stdin\n")
    read, write = os.pipe()
    try:
        proc = subprocess.run([bounded.drunagor_script(), "-C", str(folder.root), "party", "New Band"],
                              stdin=read, capture_output=True, text=True, env=folder.env, timeout=60)
    finally:
        os.close(read)
        os.close(write)
    assert (proc.returncode, proc.stdout) == (1, "party name: New Band\n"), proc
    assert proc.stderr == (f"error: {store.display(folder.root)}: git: the files were written but not committed: "
                           "fatal: bad config line 1 in file /dev/stdin; fix that, then commit them: git -C "
                           f"{store.display(folder.root)} commit -m \"drunagor: party name: New Band\" -- story.toml\n")


@pytest.mark.parametrize("git", ["none", "gitdir elsewhere", "config is /dev/zero", "empty .git", "repository"])
def test_a_journal_that_only_deletes_is_never_carried_out(tmp_path, git):
    """Item 3: drunagor's journals always write a file; one that only deletes is left alone whatever git
    can say (or cannot), by every command, a reading one included."""
    folder = Folder(tmp_path, repository=git in ("config is /dev/zero", "repository"))
    if git == "gitdir elsewhere":
        (folder.root / ".git").write_text("gitdir: /nonexistent/x\n")
    elif git == "config is /dev/zero":
        (folder.root / ".git" / "config").unlink()
        (folder.root / ".git" / "config").symlink_to("/dev/zero")
    elif git == "empty .git":
        (folder.root / ".git").mkdir()
    (folder.root / store.JOURNAL).write_text(DELETING)
    before = snapshot(folder.root)
    journal = store.display(folder.root / store.JOURNAL)
    for args in (["show"], ["check"], ["party", "Mallory's Band"]):
        out = folder.drunagor(*args)
        assert (out.returncode, out.stdout, out.stderr) == (3, "", (
            f"error: {journal}: journal: this journal writes no file, so it is not from an interrupted command "
            "here (drunagor's journals always write one); nothing was changed; delete it: "
            f"rm -- {journal}\n")), (git, args)
    assert snapshot(folder.root) == before


def test_a_git_failure_is_said_in_git_s_words(tmp_path):
    """Item 8: a typo in ~/.gitconfig is not "run `git init`" (which would nest a repository)."""
    folder = Folder(tmp_path)
    (tmp_path / "home" / ".gitconfig").write_text("this is no config\n")
    out = folder.drunagor("history")
    assert (out.returncode, out.stdout, out.stderr) == (2, "", (
        f"error: {store.display(folder.root)}: git: git cannot work in this folder: fatal: bad config line 1 in "
        f"file {tmp_path / 'home' / '.gitconfig'}; fix what git names, then re-run\n"))
    (tmp_path / "home" / ".gitconfig").unlink()
    shutil.rmtree(folder.root / ".git")  # no repository at all: that one is still `git init`
    out = folder.drunagor("history")
    assert out.returncode == 2 and "the campaign is not in a git repository" in out.stderr, out


WINDOWSISH = Path(__file__).parent.parent / "store" / "windowsish.py"  # Python as drunagor finds it on Windows
# The POSIX store where flock refuses a folder (some network shares): the lock file instead.
NO_FOLDER_LOCK = """
import errno, os, stat, sys
from drunagor_log.store import lock
real = lock._Flock.lock
def lock_no_folder(self, fd, shared):
    if stat.S_ISDIR(os.fstat(fd).st_mode):
        raise OSError(errno.EOPNOTSUPP, "Operation not supported")
    return real(self, fd, shared)
lock._Flock.lock = lock_no_folder
sys.argv[0] = "drunagor"
from drunagor_log.cli import main
main()
"""


@pytest.mark.parametrize("system", ["posix share", "windows"])
def test_a_planted_lock_link_is_never_followed(tmp_path, system):
    """Item 4: where a folder cannot be locked, `.drunagor.lock` is a file in the campaign; a link
    planted there (another player of a shared folder) is refused, never followed: no file appears
    where it points, nothing is written."""
    import sys

    folder = Folder(tmp_path, repository=False)
    target = tmp_path / "elsewhere" / "created-by-drunagor"
    target.parent.mkdir()
    (folder.root / store.LOCK).symlink_to(target)
    before = snapshot(folder.root)
    lock = store.display(folder.root / store.LOCK)
    start = ["-c", NO_FOLDER_LOCK] if system == "posix share" else [str(WINDOWSISH), "-m", "drunagor_log"]
    for args in (["show"], ["party", "Planted"]):
        out = bounded.run([sys.executable, *start, "-C", str(folder.root), *args], surface=SURFACE,
                          cwd=tmp_path, env=folder.env)
        assert (out.returncode, out.stdout, out.stderr) == (3, "", (
            f"error: {lock}: file: .drunagor.lock is a symbolic link; drunagor never follows or opens one as its "
            f"lock file; nothing was written; delete it (rm -- {lock}) and re-run\n")), (system, args)
    assert not os.path.lexists(target)
    assert snapshot(folder.root) == before
    (folder.root / store.LOCK).unlink()  # the way out it gives
    out = bounded.run([sys.executable, *start, "-C", str(folder.root), "party", "Planted"], surface=SURFACE,
                      cwd=tmp_path, env=folder.env)
    assert out.returncode == 0 and (folder.root / store.LOCK).is_file(), out


@pytest.mark.parametrize("how", ["-C", "current folder"])
def test_a_dangling_link_as_story_toml_is_named_not_missing(tmp_path, how):
    """Item 6: a link as story.toml, a dangling one too, stops the command naming it (exit 3), as
    docs/errors.md says; never "no campaign here ... create one with drunagor new"."""
    folder = Folder(tmp_path, repository=False)
    (folder.root / "story.toml").unlink()
    (folder.root / "story.toml").symlink_to("/nonexistent/story.toml")
    if how == "-C":
        out = folder.drunagor("show")
        shown = store.display(folder.root / "story.toml")
    else:
        out = bounded.drunagor("show", surface=SURFACE, cwd=folder.root, env=folder.env)
        shown = "story.toml"
    assert (out.returncode, out.stdout, out.stderr) == (3, "", (
        f"error: {shown}: file: a symbolic link stands where a campaign file should be; replace the link by the "
        "file itself: drunagor reads and writes only regular files inside the campaign folder\n"))


def test_sync_of_3000_changes_passes_its_message_on_standard_input(tmp_path):
    """Item 7: the commit message of 3,000 changes (a body of ~180 KB) is one argument over the 128 KiB
    an argument may hold; on standard input (`git commit -F -`) it goes through, whole, with a subject
    of at most 72 characters, and is pushed to the shared bare repository."""
    folder = Folder(tmp_path)
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True, env=folder.env)
    folder.git("branch", "-M", "main")
    folder.git("remote", "add", "origin", str(remote))
    folder.git("push", "-q", "-u", "origin", "main")
    nyx = folder.root / "heroes" / "nyx.toml"
    text = nyx.read_text()
    entries = "".join(f'  "A status recorded by hand, number {k:04d} of many",\n' for k in range(3000))
    nyx.write_text(text.replace("statuses = []", "statuses = [\n" + entries + "]"))
    out = folder.drunagor("sync")
    assert out.returncode == 0 and out.stderr == "", out
    assert out.stdout.endswith("pushed 1 change to origin/main\n"), out
    subject = folder.git("log", "-1", "--format=%s", "origin/main").stdout.decode().strip()
    body = folder.git("log", "-1", "--format=%b", "origin/main").stdout.decode()
    assert subject.startswith("drunagor: Nyx: status A status recorded by hand") and len(subject) <= 72, subject
    assert len(body) > 128 * 1024 and "number 2999 of many" in body


def test_nfc_and_nfd_spellings_of_one_name_are_one_hero_twice(tmp_path):
    """Item 9: `heroes/zoë.toml` twice (the name and the file in NFC and in NFD, printed the same) is
    reported by check as two Campaign Logs of one hero, as for any other duplicate; naming the hero
    refuses, listing both files."""
    import unicodedata

    folder = Folder(tmp_path, repository=False)
    heroes = folder.root / "heroes"
    base = (heroes / "nyx.toml").read_text().replace('role = "Striker"', 'role = "Leader"')
    for form in ("NFC", "NFD"):
        name = unicodedata.normalize(form, "Zoë")
        (heroes / f"{unicodedata.normalize(form, 'zoë')}.toml").write_text(base.replace('"Nyx"', f'"{name}"'))
    names = sorted(p.name for p in heroes.iterdir() if "zo" in p.name)  # as the folder lists them
    first, second = names
    out = folder.drunagor("check")
    assert out.returncode == 1, out
    assert (f"{store.display(heroes / second)}:2: hero-file: 'Zoë' has two Campaign Logs ({first} and {second}; "
            "one name in two Unicode spellings (NFC, NFD), which print the same); keep one\n") in out.stdout, out
    out = folder.drunagor("hero", "show", "Zoë")
    assert (out.returncode, out.stdout) == (1, ""), out
    assert f"'Zoë' has 2 Campaign Logs (heroes/{first}, heroes/{second})" in out.stderr, out


# Another user who can write the campaign folder swaps heroes/ for a link to a folder of theirs right
# after the first file of a two-file write is staged (the crash tests' hook: deterministic, not a race
# won once in a few hundred writes); what stands outside is looked at after each step.
SWAP = """
import os, sys
from pathlib import Path
from drunagor_log.campaign import Campaign
from drunagor_log.errors import DrunagorError
from drunagor_log.store import transaction

root, outside, order = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
real_hook, swapped, seen = transaction._test_hook, [], set()

def hook(point):
    if point == "staged" and not swapped:
        os.rename(root / "heroes", root / "heroes.real")
        os.symlink(outside / "heroes", root / "heroes")
        swapped.append(point)
    seen.update(os.listdir(outside / "heroes"))
    real_hook(point)

transaction._test_hook = hook
try:
    with Campaign(root) as c:
        edits = [(c.story_file, "party"), (c.hero_files["nyx"], "player")]
        for f, key in edits if order == "story first" else edits[::-1]:
            f.edit()[key] = "Moved"
        c.save()
    print("written")
except DrunagorError as exc:
    print("refused:", exc.message)
print("seen outside:", sorted(seen))
"""

# A folder flipped to a link and back while a command writes, a bounded number of times.
FLIP = """
import os, sys, threading, time
from pathlib import Path
from drunagor_log.campaign import Campaign
from drunagor_log.errors import DrunagorError

root, outside, n = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
heroes, real, stop, seen = root / "heroes", root / "heroes.real", [], set()

def flip():
    while not stop:
        try:
            os.rename(heroes, real)
            os.symlink(outside / "heroes", heroes)
            seen.update(os.listdir(outside / "heroes"))
            os.unlink(heroes)
            os.rename(real, heroes)
        except OSError:
            pass
        time.sleep(0.002)

thread = threading.Thread(target=flip, daemon=True)
thread.start()
written = refused = 0
for i in range(n):
    try:
        with Campaign(root) as c:
            c.story_file.edit()["party"] = f"Party {i}"
            nyx = c.hero_files.get("nyx")
            if nyx is not None:
                nyx.edit()["player"] = f"P{i}"
            c.save()
        written += 1
    except DrunagorError:
        refused += 1
stop.append(True)
thread.join()
print(written + refused, "writes; seen outside:", sorted(seen))
"""


def _outside(tmp_path: Path) -> tuple[Folder, Path]:
    folder = Folder(tmp_path, repository=False)
    outside = tmp_path / "theirs"
    outside.mkdir()
    shutil.copytree(folder.root / "heroes", outside / "heroes")
    return folder, outside


@pytest.mark.parametrize("order", ["story first", "nyx first"])
def test_a_folder_swapped_for_a_link_mid_write_takes_nothing_outside(tmp_path, order):
    """Item 5: each file is created and renamed in its folder's descriptor, opened once through no
    link: the swap after the check puts no temp file (and no log) in the other user's folder."""
    import sys

    folder, outside = _outside(tmp_path)
    before = {p.name: p.read_bytes() for p in (outside / "heroes").iterdir()}
    out = bounded.run([sys.executable, "-c", SWAP, str(folder.root), str(outside), order], surface=SURFACE,
                      cwd=tmp_path, env=folder.env)
    assert out.returncode == 0 and out.stderr == "", out
    assert out.stdout.startswith("refused: ") and out.stdout.endswith(
        "seen outside: ['andreas.toml', 'catharina.toml', 'nyx.toml', 'vacrem.toml']\n"), out
    assert {p.name: p.read_bytes() for p in (outside / "heroes").iterdir()} == before


def test_a_folder_flipping_while_200_writes_run_ends_each_in_a_message(tmp_path):
    """Item 5: 200 two-file writes while heroes/ flips to a link and back: each is written or refused
    with a message (a folder gone between the look and the listing is a `file` error, never a
    FileNotFoundError), and nothing is ever created outside."""
    import sys

    folder, outside = _outside(tmp_path)
    before = {p.name: p.read_bytes() for p in (outside / "heroes").iterdir()}
    out = bounded.run([sys.executable, "-c", FLIP, str(folder.root), str(outside), "200"], surface=SURFACE,
                      cwd=tmp_path, env=folder.env, wall=120, cpu=100)
    assert not out.timed_out and (out.returncode, out.stderr) == (0, ""), out
    assert out.stdout == "200 writes; seen outside: ['andreas.toml', 'catharina.toml', 'nyx.toml', 'vacrem.toml']\n"
    assert {p.name: p.read_bytes() for p in (outside / "heroes").iterdir()} == before

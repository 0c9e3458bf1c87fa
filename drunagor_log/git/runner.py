"""The one caller of the `git` program: run it in the campaign folder, say why it failed.

Every git command drunagor starts goes through `run`: pathspecs literal (GIT_LITERAL_PATHSPECS, so a
hero's file name is never a pattern), no terminal prompt (GIT_TERMINAL_PROMPT=0: a remote that wants
a password fails instead of hanging), output captured. A failure is `GitFailed`, with the line of
git's complaint that says why (`reason`); the operations turn it into a DrunagorError with rule `git`
or `sync`. No `git` on PATH, or no repository, is a UsageError (exit 2); so is a repository git
refuses as of "dubious ownership" (another user's), with the remedy git itself gives.

Git runs on the user's word (docs/git.md, "When drunagor runs git"): `--commit`, `history`, `undo`,
`sync` and `git setup` run git as the user's own `git` would, hooks and all. drunagor's own probes
(the planted-journal check) and `autocommit` run it with `own=True`: the repository may have come from
anyone (a zip, a shared folder), so nothing it configures runs: no hook (core.hooksPath=/dev/null),
no fsmonitor, no clean, smudge or process filter (each filter the config names is emptied), no signing
program, no automatic gc; their diffs pass --no-ext-diff --no-textconv. The overrides are `-c`
options (a filter whose name holds `=`, which `-c` cannot say, goes in GIT_CONFIG_COUNT/KEY/VALUE).

Why the git program and not a library (compared in December 2026, issue 40; imports best of 5):
GitPython 3.2.1 starts this same git program for nearly everything, and adds 160 ms of import;
pygit2 1.21.0 (libgit2) runs no hook and no merge driver, and `sync` merges through the campaign-aware
merge driver while `--commit` runs the user's hooks as their own git would (91 ms of import and a
native library besides); dulwich 1.2.21, pure Python, adds 238 ms of import. git itself is what the
player has and configures.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from .. import store
from ..errors import UsageError


class GitFailed(Exception):
    """git ended with a status the caller did not expect: the command's arguments and why."""

    def __init__(self, args: tuple[str, ...], stderr: bytes):
        self.args_ = args
        self.reason = reason(stderr) or f"git {args[0]} failed"
        super().__init__(self.reason)


#: How long one of drunagor's own git runs (`own`) may take, in seconds: a campaign's `git ls-files` or
#: commit takes a few hundredths; git waits forever on a FIFO or a device the repository names as its
#: config, HEAD, index or an [include] (a repository may come from anyone). DRUNAGOR_TEST_GIT_TIMEOUT
#: shortens it for the tests.
OWN_TIMEOUT = 10.0


class GitSilent(GitFailed):
    """One of drunagor's own git runs did not end within OWN_TIMEOUT; it was stopped."""

    def __init__(self, args: tuple[str, ...], seconds: float):
        super().__init__(args, f"git did not answer within {seconds:g} seconds (a FIFO or a device as the "
                               "repository's config, HEAD, index or an [include] keeps it waiting)".encode())


def _own_timeout() -> float:
    try:
        return float(os.environ.get("DRUNAGOR_TEST_GIT_TIMEOUT", OWN_TIMEOUT))
    except ValueError:
        return OWN_TIMEOUT


def _bounded(cmd: list[str], root: Path, input: bytes | None, env: dict[str, str]) -> subprocess.CompletedProcess:
    """Run an `own` git: never from the terminal (standard input empty, its own session, so that an
    [include] of /dev/stdin or /dev/tty reads nothing), stopped with everything it started after
    _own_timeout() seconds (GitSilent)."""
    import signal

    posix = os.name != "nt"
    seconds = _own_timeout()
    with subprocess.Popen(cmd, cwd=root, stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=posix) as proc:
        try:
            out, err = proc.communicate(input, timeout=seconds)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL) if posix else proc.kill()
            except OSError:
                pass
            try:
                proc.communicate(timeout=1)
            except subprocess.TimeoutExpired:  # something it started left the group and holds the pipes
                pass
            raise GitSilent(tuple(cmd[1:]), seconds) from None
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def reason(stderr: bytes) -> str:
    """The line of git's complaint that says why (not its hints)."""
    lines = [ln.strip() for ln in stderr.decode("utf-8", "replace").splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("hint:")]
    for ln in lines:
        if ln.startswith(("fatal:", "error:")):
            return ln
    return " ".join(lines)


# The program lookup: PATH's absolute folders only, never the current folder (Python 3.11's shutil.which
# looks there first on Windows: a git.exe at the top of a stranger's repository would run; and an empty
# or relative entry of PATH means the current folder anywhere). git/programs.py starts the browser so too.
WINDOWS_PATHEXT = ".COM;.EXE;.BAT;.CMD"  # what Windows itself assumes without PATHEXT


def folders(path: str | None = None, *, windows: bool | None = None) -> list[str]:
    """PATH's absolute folders, in order (`path`: PATH's value; `windows`: Windows's separator)."""
    windows = os.name == "nt" if windows is None else windows
    path = os.environ.get("PATH", os.defpath) if path is None else path
    out = []
    for entry in path.split(";" if windows else ":"):
        entry = entry.strip('"') if windows else entry  # Windows allows a quoted folder
        if entry and os.path.isabs(entry) and entry not in out:
            out.append(entry)
    return out


def find(name: str, *, path: str | None = None, windows: bool | None = None,
         pathext: str | None = None) -> str | None:
    """The absolute path of the program `name` on PATH's folders (never the current one), or None.
    On Windows (`windows`), `name` with each extension of PATHEXT, unless it already ends with one."""
    windows = os.name == "nt" if windows is None else windows
    names = [name]
    if windows:
        exts = [e for e in (os.environ.get("PATHEXT", WINDOWS_PATHEXT) if pathext is None else pathext).split(";") if e]
        if not any(name.lower().endswith(e.lower()) for e in exts):
            names = [name + e for e in exts]
    for folder in folders(path, windows=windows):
        for candidate in names:
            full = os.path.join(folder, candidate)
            if os.path.isfile(full) and (windows or os.access(full, os.X_OK)):
                return full
    return None


def _git_exe(root: Path, remedy: str) -> str:
    exe = find("git")  # PATH's folders only, never the current one (a stranger's git.exe: see `find`)
    if exe is None:
        raise UsageError("git is not installed (no `git` program on PATH)", file=store.display(root),
                         rule="git", remedy="install git" + remedy)
    return exe


#: What an `own` run sets, whatever the repository's config says.
OWN_CONFIG = (("core.hooksPath", os.devnull), ("core.fsmonitor", "false"), ("commit.gpgSign", "false"),
              ("tag.gpgSign", "false"), ("gc.auto", "0"), ("maintenance.auto", "false"))

# The filters' overrides of each repository an `own` run has been in (its config is read once).
_filters: dict[str, list[tuple[str, str]]] = {}


def _own(exe: str, root: Path, env: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """The `-c` options that set OWN_CONFIG and empty every configured filter, and `env` with the
    overrides `-c` cannot carry (a filter name holding `=`, in GIT_CONFIG_COUNT/KEY/VALUE, which take
    a key as it is: git 2.31 and later). `git config` itself runs nothing of the repository's."""
    where = os.path.abspath(root)
    if where not in _filters:
        proc = _bounded([exe, "config", "-z", "--name-only", "--get-regexp", r"^filter\."], root, None, env)
        keys = [k for k in split_z(proc.stdout) if k.startswith("filter.") and k.count(".") >= 2]
        names = {k[len("filter."):].rsplit(".", 1)[0] for k in keys}
        _filters[where] = [(f"filter.{n}.{k}", v) for n in sorted(names)
                           for k, v in (("clean", ""), ("smudge", ""), ("process", ""), ("required", "false"))]
    options: list[str] = []
    pairs = []
    for key, value in (*OWN_CONFIG, *_filters[where]):
        if "=" in key:
            pairs.append((key, value))
        else:
            options += ["-c", f"{key}={value}"]
    if pairs:
        try:
            count = int(env.get("GIT_CONFIG_COUNT", "0"))
        except ValueError:
            count = 0
        env = dict(env, GIT_CONFIG_COUNT=str(count + len(pairs)))
        for i, (key, value) in enumerate(pairs, start=count):
            env[f"GIT_CONFIG_KEY_{i}"], env[f"GIT_CONFIG_VALUE_{i}"] = key, value
    return options, env


def run(root: Path, *args: str, input: bytes | None = None, ok=(0,), remedy: str = "",
        own: bool = False) -> subprocess.CompletedProcess:
    """Run git in `root` (pathspecs are literal and relative to it); GitFailed on a status not in `ok`.
    `own`: a run of drunagor's own, not asked by the user (the module's doc): nothing of the
    repository's runs, and it is bounded in time (GitSilent after OWN_TIMEOUT)."""
    exe = _git_exe(root, remedy)
    env = dict(os.environ, GIT_LITERAL_PATHSPECS="1", GIT_TERMINAL_PROMPT="0")
    options: list[str] = []
    if own:
        options, env = _own(exe, root, env)
    if own:  # bounded: the repository may keep git waiting forever
        proc = _bounded([exe, *options, *args], root, input, env)
    else:
        proc = subprocess.run([exe, *options, *args], cwd=root, input=input, capture_output=True, env=env)
    if proc.returncode not in ok:
        raise GitFailed(args, proc.stderr)
    return proc


def text(root: Path, *args: str, ok=(0,)) -> str:
    """git's output as text, stripped."""
    return run(root, *args, ok=ok).stdout.decode("utf-8", "replace").strip()


def split_z(out: bytes) -> list[str]:
    """The records of a `-z` output (file names as git has them, undecodable bytes kept)."""
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def exists(root: Path, ref: str, own: bool = False) -> bool:
    """`ref` names a commit in the repository at `root` (`own`: asked as drunagor's own run, bounded)."""
    return run(root, "rev-parse", "--verify", "--quiet", ref, ok=(0, 1), own=own).returncode == 0


def _purpose_remedy(purpose: str) -> str:
    return {"--commit": ", or run the command without --commit",
            "autocommit": ", or set `autocommit = false` under [git] in story.toml"}.get(purpose, "")


def repository(root: Path, purpose: str = "", own: bool = False) -> Path:
    """The top folder of the git repository holding the campaign; a UsageError (exit 2) when there is
    none, git is missing or cannot read it (git's words). `purpose` ("--commit", "autocommit", "history",
    "undo") shapes the remedy; autocommit and `own` ask as drunagor's own run (bounded, run.own)."""
    remedy = _purpose_remedy(purpose)
    where = root
    while not where.is_dir() and where != where.parent:  # `drunagor new`: the folder is not there yet
        where = where.parent
    try:
        out = run(where, "rev-parse", "--show-toplevel", remedy=remedy, own=own or purpose == "autocommit").stdout
    except GitFailed as exc:
        if "dubious ownership" in exc.reason:
            raise _dubious(root, exc.reason, remedy) from None
        if isinstance(exc, GitSilent) or "not a git repository" not in exc.reason or _dot_git(where):
            # a config git cannot read (its own or the user's), a .git it cannot follow: `git init` is no cure
            fix = ("replace that FIFO or device by a file" if isinstance(exc, GitSilent) else "fix what git names")
            raise UsageError(f"git cannot work in this folder: {exc.reason}", file=store.display(root),
                             rule="git", remedy=f"{fix}, then re-run" + remedy) from None
        what = {"autocommit": "story.toml sets [git] autocommit = true, but "}.get(purpose, "")
        raise UsageError(f"{what}the campaign is not in a git repository", file=store.display(root),
                         rule="git", remedy="run `git init` in the folder that should hold it, and commit "
                         "the campaign" + remedy) from None
    return Path(os.fsdecode(out.strip(b"\n")))  # a folder's name is any bytes, as the system gives it


def _dot_git(where: Path) -> bool:
    """A `.git` (of any kind) stands in `where` or a folder above it: git found something it cannot read."""
    ceilings = {os.path.abspath(p) for p in os.environ.get("GIT_CEILING_DIRECTORIES", "").split(os.pathsep) if p}
    here = os.path.abspath(where)
    while True:
        if os.path.lexists(os.path.join(here, ".git")):
            return True
        parent = os.path.dirname(here)
        if parent == here or parent in ceilings:
            return False
        here = parent


def dubious_remedy(root: Path, why: str) -> str:
    """How to tell git to trust a repository it refuses as another user's (`why`: git's reason)."""
    import shlex

    found = re.search(r"repository at '(.*)'", why)
    top = found.group(1) if found else store.display(root)
    return f"if you trust whoever owns it, tell git so: git config --global --add safe.directory {shlex.quote(top)}"


def _dubious(root: Path, why: str, remedy: str) -> UsageError:
    """git refuses a repository another user owns (CVE-2022-24765): say so, and how to trust it."""
    return UsageError("git refuses this repository: it belongs to another user (git: \"dubious ownership\")",
                      file=store.display(root), rule="git", remedy=dubious_remedy(root, why) + remedy)


def check_can_commit(root: Path, explicit: bool = True) -> None:
    """Before a command writes anything: refuse `--commit` (or autocommit) where no commit can be
    made, so that nothing is written by a command that cannot do all it was asked."""
    repository(root, "--commit" if explicit else "autocommit")

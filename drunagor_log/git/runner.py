"""The one caller of the `git` program: run it in the campaign folder, say why it failed.

Every git command drunagor starts goes through `run`: pathspecs literal (GIT_LITERAL_PATHSPECS, so a
hero's file name is never a pattern), no terminal prompt (GIT_TERMINAL_PROMPT=0: a remote that wants
a password fails instead of hanging), output captured. A failure is `GitFailed`, with the line of
git's complaint that says why (`reason`); the operations turn it into a DrunagorError with rule `git`
or `sync`. No `git` on PATH, or no repository, is a UsageError (exit 2).
"""

from __future__ import annotations

import os
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


def reason(stderr: bytes) -> str:
    """The line of git's complaint that says why (not its hints)."""
    lines = [ln.strip() for ln in stderr.decode("utf-8", "replace").splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("hint:")]
    for ln in lines:
        if ln.startswith(("fatal:", "error:")):
            return ln
    return " ".join(lines)


def _git_exe(root: Path, remedy: str) -> str:
    import shutil

    exe = shutil.which("git")
    if exe is None:
        raise UsageError("git is not installed (no `git` program on PATH)", file=store.display(root),
                         rule="git", remedy="install git" + remedy)
    return exe


def run(root: Path, *args: str, input: bytes | None = None, ok=(0,), remedy: str = "") -> subprocess.CompletedProcess:
    """Run git in `root` (pathspecs are literal and relative to it); GitFailed on a status not in `ok`."""
    exe = _git_exe(root, remedy)
    env = dict(os.environ, GIT_LITERAL_PATHSPECS="1", GIT_TERMINAL_PROMPT="0")
    proc = subprocess.run([exe, *args], cwd=root, input=input, capture_output=True, env=env)
    if proc.returncode not in ok:
        raise GitFailed(args, proc.stderr)
    return proc


def text(root: Path, *args: str, ok=(0,)) -> str:
    """git's output as text, stripped."""
    return run(root, *args, ok=ok).stdout.decode("utf-8", "replace").strip()


def split_z(out: bytes) -> list[str]:
    """The records of a `-z` output (file names as git has them, undecodable bytes kept)."""
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def exists(root: Path, ref: str) -> bool:
    return run(root, "rev-parse", "--verify", "--quiet", ref, ok=(0, 1)).returncode == 0


def _purpose_remedy(purpose: str) -> str:
    return {"--commit": ", or run the command without --commit",
            "autocommit": ", or set `autocommit = false` under [git] in story.toml"}.get(purpose, "")


def repository(root: Path, purpose: str = "") -> Path:
    """The top folder of the git repository holding the campaign; a UsageError (exit 2) when there is
    none or git is missing. `purpose` ("--commit", "autocommit", "history", "undo") shapes the remedy."""
    remedy = _purpose_remedy(purpose)
    where = root
    while not where.is_dir() and where != where.parent:  # `drunagor new`: the folder is not there yet
        where = where.parent
    try:
        out = run(where, "rev-parse", "--show-toplevel", remedy=remedy).stdout
    except GitFailed:
        what = {"autocommit": "story.toml sets [git] autocommit = true, but "}.get(purpose, "")
        raise UsageError(f"{what}the campaign is not in a git repository", file=store.display(root),
                         rule="git", remedy="run `git init` in the folder that should hold it, and commit "
                         "the campaign" + remedy) from None
    return Path(os.fsdecode(out.strip(b"\n")))  # a folder's name is any bytes, as the system gives it


def check_can_commit(root: Path, explicit: bool = True) -> None:
    """Before a command writes anything: refuse `--commit` (or autocommit) where no commit can be
    made, so that nothing is written by a command that cannot do all it was asked."""
    repository(root, "--commit" if explicit else "autocommit")

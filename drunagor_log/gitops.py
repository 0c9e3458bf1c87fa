"""Git for campaigns: commits of what a command changed, history, undo.

Players keep a campaign in a git repository and share it by pull and push (SPEC section 4 "Git").
This module runs the `git` program (imported and started only when a command asks for git):

- `commit_changes` commits exactly the campaign files a command changed: `git add` of those paths,
  then `git commit --only -- PATHS`, so whatever else the user has staged stays staged, uncommitted.
- `history` lists this campaign's drunagor commits: subject starting `drunagor: ` and touching the
  campaign folder, newest first.
- `plan_undo` / `apply_undo` undo the last drunagor commit by restoring the bytes its parent had for
  the files it changed, and commit that as `drunagor: undo ...` with a `Drunagor-Undo: SHA` trailer.
  Undo never uses `git revert`: revert refuses while the user has unrelated staged work. The trailer
  makes undo walk back: a second `undo` undoes the commit before, not the undo.

Every failure is a DrunagorError with rule `git`: not a repository or no `git` on PATH is a usage
error (exit 2); a refused undo or a commit that failed is exit 1.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import store
from .errors import RuleError, UsageError
from .values import field, record

PREFIX = "drunagor: "
UNDO_TRAILER = "Drunagor-Undo"

# `drunagor new` writes these into the campaign folder (see store/__init__.py TMP_SUFFIX, JOURNAL, LOCK).
_IGNORED = store.GITIGNORE_PATTERNS
GITIGNORE = ("# drunagor's own temporary files: atomic writes, the multi-file journal, the campaign lock\n"
             + "".join(p + "\n" for p in _IGNORED))
# Line endings: a player whose editor writes CRLF would otherwise change every line of a file, and
# every pull would conflict. `merge=drunagor`: the campaign-aware merge driver (store/merge.py), which
# git runs only where `drunagor git setup` (or `new`, or `sync`) named it in the repository's config;
# elsewhere git merges line by line as before. Never `merge=union` for TOML: it keeps both sides of a
# conflict, which makes duplicate keys (an invalid file) instead of a conflict `drunagor check` can show.
GITATTRIBUTES = """\
# Campaign files are text with LF line endings on every computer, so they diff and merge cleanly;
# git merges them value by value with drunagor's merge driver (set up once: drunagor git setup).
*.toml text eol=lf merge=drunagor
"""
# What `drunagor git setup` adds to a campaign's older .gitattributes.
GITATTRIBUTES_DRIVER = """\
# git merges campaign files value by value with drunagor's merge driver (drunagor git setup).
*.toml merge=drunagor
"""
DRIVER = "drunagor"
DRIVER_NAME = "drunagor: a campaign's TOML files merged value by value"
DRIVER_MODULE = "drunagor_log.interop.mergedriver"


def prepare_new_campaign(folder: Path) -> list[str]:
    """Called by `drunagor new` after the folder is created: the `.gitignore` for the tool's
    temporary files and the `.gitattributes` for line endings and the merge driver, in the campaign
    folder. Written in and out of a repository alike (harmless outside, and ready for a later `git
    init`); an existing file is left alone. In a repository, the merge driver is also registered in
    its config (`register_driver`). Returns the files written, relative to the folder."""
    written = []
    for name, text in ((".gitignore", GITIGNORE), (".gitattributes", GITATTRIBUTES)):
        path = folder / name
        if not path.exists():
            store.atomic_write(path, text.encode())
            written.append(name)
    if git_dir(folder) is not None:  # in a repository: name the merge driver in its config too
        try:
            register_driver(folder)
        except (_GitFailed, UsageError, OSError):
            pass  # `drunagor check` says so, and `drunagor git setup` does it
    return written


# ------------------------------------------------------------------------------------ running git


class _GitFailed(Exception):
    def __init__(self, args: tuple[str, ...], stderr: bytes):
        self.args_ = args
        self.reason = _reason(stderr) or f"git {args[0]} failed"
        super().__init__(self.reason)


def _reason(stderr: bytes) -> str:
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


def _run(root: Path, *args: str, input: bytes | None = None, ok=(0,), remedy: str = ""):
    """Run git in the campaign folder (pathspecs are literal and relative to it)."""
    import subprocess

    exe = _git_exe(root, remedy)
    env = dict(os.environ, GIT_LITERAL_PATHSPECS="1", GIT_TERMINAL_PROMPT="0")
    proc = subprocess.run([exe, *args], cwd=root, input=input, capture_output=True, env=env)
    if proc.returncode not in ok:
        raise _GitFailed(args, proc.stderr)
    return proc


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
        out = _run(where, "rev-parse", "--show-toplevel", remedy=remedy).stdout
    except _GitFailed:
        what = {"autocommit": "story.toml sets [git] autocommit = true, but "}.get(purpose, "")
        raise UsageError(f"{what}the campaign is not in a git repository", file=store.display(root),
                         rule="git", remedy="run `git init` in the folder that should hold it, and commit "
                         "the campaign" + remedy) from None
    return Path(out.decode().strip())


def check_can_commit(root: Path, explicit: bool = True) -> None:
    """Before a command writes anything: refuse `--commit` (or autocommit) where no commit can be
    made, so that nothing is written by a command that cannot do all it was asked."""
    repository(root, "--commit" if explicit else "autocommit")


# ------------------------------------------------------------------------------------- committing


SUBJECT_MAX = 72  # git's convention: a subject that fits `git log --oneline` and a mail's subject line


def commit_subject(message: str) -> tuple[str, str | None]:
    """(subject, body): a message longer than SUBJECT_MAX keeps its first clause (up to `;`) or its
    first words in the subject, ending with `...`, and goes whole into the body."""
    if len(message) <= SUBJECT_MAX:
        return message, None
    first = message.split("; ", 1)[0]
    if len(first) <= SUBJECT_MAX:
        return first, message
    cut = message[:SUBJECT_MAX - 3].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "...", message


def commit_changes(root: Path, changed: list[str], message: str, *, body: str | None = None) -> str | None:
    """Commit exactly `changed` (paths relative to the campaign folder, deleted files included) with
    the message `drunagor: MESSAGE`; the user's other staged work stays staged and uncommitted.
    Returns the short commit id, or None when the files already match the last commit.

    Called after the files were written: any failure says so (the files stay written, not committed)."""
    subject, details = commit_subject(message if message.startswith(PREFIX) else PREFIX + message)
    body = "\n\n".join(b for b in (details, body) if b) or None
    paths = sorted(set(changed))
    try:
        repository(root, "--commit")
        present = [p for p in paths if (root / p).exists()]
        gone = [p for p in paths if not (root / p).exists()]
        if gone:  # a deleted file is committed only if git knew it (a never-committed file just vanishes)
            known = set(_z(_run(root, "ls-files", "-z", "--", *gone).stdout))
            known |= set(_z(_run(root, "ls-tree", "-z", "--name-only", "HEAD", "--", *gone, ok=(0, 128)).stdout))
            gone = [p for p in gone if p in known]
        specs = present + gone
        if not specs:
            return None
        _run(root, "add", "-A", "--", *specs)
        same = _run(root, "diff", "--cached", "--quiet", "HEAD", "--", *specs, ok=(0, 1, 128)).returncode
        if same == 0:  # the files are as last committed (128: no commit yet, so not the same)
            return None
        args = ["commit", "--quiet", "--only", "-m", subject]
        if body:
            args += ["-m", body]
        _run(root, *args, "--", *specs)
        return _run(root, "rev-parse", "--short", "HEAD").stdout.decode().strip()
    except (_GitFailed, UsageError) as exc:
        reason = exc.reason if isinstance(exc, _GitFailed) else exc.message
        shown = " ".join(_shell_quote(p) for p in paths)
        raise RuleError(f"the files were written but not committed: {reason}", file=store.display(root),
                        rule="git", remedy=f"fix that, then commit them: git -C {_shell_quote(store.display(root))} "
                        f"commit -m {_shell_quote(subject)} -- {shown}") from None


def _z(out: bytes) -> list[str]:
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def _shell_quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


# ---------------------------------------------------------------------------------------- history


@record
class Entry:
    """One commit that touched the campaign folder."""

    commit: str
    short: str
    date: str  # ISO 8601, the author's time zone
    author: str
    message: str  # the subject line, `drunagor: ...` for ours
    undoes: str | None = None  # for an undo commit: the commit it undid

    @property
    def ours(self) -> bool:
        return self.message.startswith(PREFIX)

    @property
    def what(self) -> str:
        """The message in the game's words, without the `drunagor: ` prefix."""
        return self.message[len(PREFIX):] if self.ours else self.message

    def as_json(self, undone: bool = False) -> dict:
        return {"commit": self.commit, "short": self.short, "date": self.date, "author": self.author,
                "message": self.message, "undoes": self.undoes, "undone": undone}


def _log(root: Path, limit: int | None = None, ours_only: bool = False) -> list[Entry]:
    """Commits touching the campaign folder, newest first (empty in a repository with no commit)."""
    args = ["log", "-z", "--format=%H%x1f%h%x1f%aI%x1f%an%x1f%s%x1f%b"]
    if ours_only:
        args.append("--grep=^" + PREFIX)  # any line of the message; the subject is checked below
    if limit:
        args.append(f"-n{limit}")
    if _run(root, "rev-parse", "--verify", "-q", "HEAD", ok=(0, 1)).returncode != 0:
        return []
    out = _run(root, *args, "--", ".").stdout.decode("utf-8", "replace")
    entries = []
    for commit_text in out.split("\0"):
        if not commit_text.strip():
            continue
        sha, short, date, author, subject, body = (commit_text.split("\x1f") + [""] * 6)[:6]
        undoes = None
        for line in body.splitlines():
            if line.startswith(UNDO_TRAILER + ":"):
                undoes = line.split(":", 1)[1].strip()
        entries.append(Entry(sha.strip(), short, date, author, subject, undoes))
    return entries


def history(root: Path, limit: int | None = None) -> list[tuple[Entry, bool]]:
    """This campaign's drunagor commits, newest first, each with whether a later undo undid it."""
    repository(root, "history")
    try:
        entries = [e for e in _log(root, ours_only=True) if e.ours]
    except _GitFailed as exc:
        raise RuleError(f"git log failed: {exc.reason}", file=store.display(root), rule="git") from None
    undone = {e.undoes for e in entries if e.undoes}
    rows = [(e, e.commit in undone) for e in entries]
    return rows[:limit] if limit else rows


# ------------------------------------------------------------------------------------------- undo


@record  # its dicts are filled in place by plan_undo
class UndoPlan:
    target: Entry
    parent: str
    restore: dict[str, bytes | None] = field(factory=dict)  # path -> old bytes (None: delete)
    current: dict[str, bytes | None] = field(factory=dict)  # path -> bytes now (as committed)


def _is_tool_file(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return name == store.LOCK or name.startswith(store.JOURNAL) or name.endswith(store.TMP_SUFFIX)


def uncommitted(root: Path) -> list[str]:
    """Campaign files with changes git has not committed: staged, unstaged, untracked, conflicted
    (the tool's own temporary files aside). Paths relative to the campaign folder."""
    out = _run(root, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", ".").stdout
    top = repository(root)
    here = Path(os.path.realpath(root))
    files, records, i = [], _z(out), 0
    while i < len(records):
        rec = records[i]
        status, path = rec[:2], rec[3:]
        if status[0] in "RC":  # a rename's source path follows; not with --no-renames, kept for safety
            i += 1
        i += 1
        rel = Path(os.path.relpath(top / path, here)).as_posix()  # porcelain paths are relative to the top
        if not _is_tool_file(rel):
            files.append(rel)
    return files


def plan_undo(root: Path) -> UndoPlan:
    """What `drunagor undo` would restore, or a RuleError (exit 1) saying why it will not."""
    shown = store.display(root)
    repository(root, "undo")
    try:
        _refuse_uncommitted(root, shown)
        target = _undo_target(root, shown)
        parents = _run(root, "rev-list", "--parents", "-n1", target.commit).stdout.decode().split()
        parent = parents[1] if len(parents) > 1 else _run(
            root, "hash-object", "-t", "tree", "--stdin", input=b"").stdout.decode().strip()
        diff = _z(_run(root, "diff", "--name-status", "--no-renames", "--relative", "-z",
                       parent, target.commit, "--", ".").stdout)
        changes = list(zip(diff[0::2], diff[1::2]))
        _refuse_changed_since(root, target, [p for _, p in changes], shown)
        return _restore_plan(root, target, parent, changes)
    except _GitFailed as exc:
        raise RuleError(f"git {exc.args_[0]} failed: {exc.reason}", file=shown, rule="git") from None


def _refuse_uncommitted(root: Path, shown: str) -> None:
    dirty = uncommitted(root)
    if dirty:
        listed = ", ".join(dirty[:5]) + (f" and {len(dirty) - 5} more" if len(dirty) > 5 else "")
        raise RuleError(f"the campaign has uncommitted changes ({listed}); undo would mix them into "
                        "the undo", file=shown, rule="git",
                        remedy="commit them (git commit) or discard them (git restore FILE), then undo")


def _undo_target(root: Path, shown: str) -> Entry:
    """The newest drunagor commit not undone yet, passing over undo commits and what they undid;
    refused when a commit that is not drunagor's comes first."""
    undone: set[str] = set()
    for n, e in enumerate(_log(root)):
        if not e.ours:
            raise _not_ours(e, n == 0, shown)
        if e.undoes:
            undone.add(e.undoes)
        elif e.commit not in undone:
            return e
    raise RuleError("nothing to undo: no drunagor commit changed this campaign yet", file=shown,
                    rule="git", remedy="commits are made by writing commands with --commit, "
                    "or with `autocommit = true` under [git] in story.toml")


def _not_ours(e: Entry, last: bool, shown: str) -> RuleError:
    if last:
        return RuleError(f"the last commit that changed the campaign, {e.short} \"{e.message}\" "
                         f"by {e.author}, is not one of drunagor's", file=shown, rule="git",
                         remedy=f"undo it with git itself (git revert {e.short})")
    return RuleError(f"nothing left to undo: before the undone drunagor commits comes {e.short} "
                     f"\"{e.message}\" by {e.author}, which is not one of drunagor's", file=shown,
                     rule="git", remedy=f"undo it with git itself (git revert {e.short})")


def _refuse_changed_since(root: Path, target: Entry, paths: list[str], shown: str) -> None:
    """Refuse when the target's files changed after it, in commits drunagor did not make."""
    if paths and _run(root, "diff", "--quiet", target.commit, "HEAD", "--", *paths, ok=(0, 1)).returncode:
        raise RuleError(f"the files of {target.short} \"{target.message}\" changed since, in commits "
                        "drunagor did not make", file=shown, rule="git",
                        remedy=f"undo it with git itself (git revert {target.short})")


def _restore_plan(root: Path, target: Entry, parent: str, changes: list[tuple[str, str]]) -> UndoPlan:
    plan = UndoPlan(target, parent)
    for status, path in changes:
        file = root / path
        plan.current[path] = store.current_bytes(file, root)  # no link, FIFO or device followed
        if status.startswith("A"):
            plan.restore[path] = None  # the commit created it: undoing deletes it
        else:
            plan.restore[path] = _run(root, "cat-file", "blob", f"{parent}:./{path}").stdout
    return plan


def apply_undo(root: Path, plan: UndoPlan) -> str | None:
    """Write the old bytes back (all files or none, store.Transaction) and commit the undo.
    The caller holds the campaign lock."""
    tx = store.Transaction(root)
    for path, data in plan.restore.items():
        target, current = root / path, plan.current.get(path)  # changed on disk since the plan: exit 4
        if data is None:
            if current is not None:
                tx.delete(target, current)
        elif data != current:
            tx.write(target, data, current)
    tx.commit()
    return commit_changes(root, list(plan.restore), "undo " + plan.target.what,
                          body=f"{UNDO_TRAILER}: {plan.target.commit}")


# ------------------------------------------------------------------------------ the merge driver


def driver_command() -> str:
    """The command git runs to merge a campaign file (`merge.drunagor.driver`): this Python, by its
    absolute path, so that it runs from any shell, a GUI client or a hook, whatever PATH says."""
    import shlex
    import sys

    python = os.path.abspath(sys.executable)
    return f"{shlex.quote(python)} -m {DRIVER_MODULE} %O %A %B %L %P"


def git_dir(root: Path) -> Path | None:
    """The git directory of the repository holding `root`, found without running git (`check` must
    stay cheap). None outside a repository."""
    found = _find_repository(root)
    return found[0] if found else None


def _find_repository(root: Path) -> tuple[Path, Path] | None:
    """(git directory, top of the work tree): the nearest `.git` folder or `.git` file (`gitdir: ...`,
    a linked worktree) above `root`, stopping at GIT_CEILING_DIRECTORIES as git does."""
    ceilings = {os.path.abspath(p) for p in os.environ.get("GIT_CEILING_DIRECTORIES", "").split(os.pathsep) if p}
    here = os.path.abspath(root)
    while True:
        dot = os.path.join(here, ".git")
        if os.path.isdir(dot):
            return Path(dot), Path(here)
        if os.path.isfile(dot):
            line = _read(dot).split("\n", 1)[0].strip()
            return (Path(here, line[len("gitdir:"):].strip()), Path(here)) if line.startswith("gitdir:") else None
        parent = os.path.dirname(here)
        if parent == here or parent in ceilings:
            return None
        here = parent


def _read(path: Path | str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def _config_texts(gitdir: Path) -> tuple[str, list[str]]:
    """The repository's own config, and the user's and the system's (as git would read them)."""
    common = gitdir
    link = _read(gitdir / "commondir").strip()
    if link:
        common = (gitdir / link).resolve()
    others = []
    if os.environ.get("GIT_CONFIG_GLOBAL") is not None:
        others.append(_read(os.environ["GIT_CONFIG_GLOBAL"]))
    else:
        home = os.path.expanduser("~")
        xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
        others += [_read(os.path.join(home, ".gitconfig")), _read(os.path.join(xdg, "git", "config"))]
    if not os.environ.get("GIT_CONFIG_NOSYSTEM"):
        others.append(_read(os.environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig"))
    return _read(common / "config"), others


def _configured_driver(text: str) -> str | None:
    """The `driver` of `[merge "drunagor"]` in a git config file's text."""
    import re

    section = None
    for line in text.splitlines():
        head = re.match(r'\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]', line)
        if head:
            section = (head.group(1).lower(), head.group(2))
            line = line[head.end():]
        if section == ("merge", DRIVER):
            value = re.match(r"\s*driver\s*=\s*(.*?)\s*$", line, re.IGNORECASE)
            if value:
                return value.group(1).strip('"')
    return None


def _attributes_name_driver(root: Path, gitdir: Path, top: Path) -> bool:
    """Whether a .gitattributes between the campaign and the top of the work tree (or the
    repository's info/attributes) gives the campaign's TOML files `merge=drunagor`."""
    import re

    named = re.compile(r"\bmerge=" + DRIVER + r"\b")
    here = os.path.abspath(root)
    while True:
        if named.search(_read(os.path.join(here, ".gitattributes"))):
            return True
        parent = os.path.dirname(here)
        if parent == here or here == str(top):
            break
        here = parent
    return bool(named.search(_read(gitdir / "info" / "attributes")))


def driver_problem(root: Path) -> str | None:
    """Why git would merge this campaign line by line (a warning for `drunagor check`), or None:
    outside a repository, in one with no remote (nothing is pulled into it), or all set up. Reads a
    few small files; never runs git."""
    import re
    import shlex

    found = _find_repository(root)
    if found is None:
        return None
    gitdir, top = found
    own, others = _config_texts(gitdir)
    if not re.search(r'^\s*\[\s*remote\s+"', own, re.MULTILINE):
        return None
    command = next((c for c in map(_configured_driver, [own, *others]) if c), None)
    if command is None:
        return ("the campaign-aware merge driver is not set up in this repository (a fresh clone?), so "
                "git merges the campaign line by line; set it up once: drunagor git setup")
    try:
        program = shlex.split(command)[0]
    except (ValueError, IndexError):
        program = command
    if not os.path.exists(program):
        return (f"the merge driver is set up with {program}, which is not there any more (drunagor was "
                "installed elsewhere); set it up again: drunagor git setup")
    if not _attributes_name_driver(root, gitdir, top):
        return ("no .gitattributes names the merge driver for the campaign's files, so git merges them "
                "line by line; add it: drunagor git setup")
    return None


def register_driver(root: Path) -> bool:
    """Name the merge driver in the repository's config (`git config merge.drunagor.driver`);
    True when the config changed."""
    want = driver_command()
    now = _run(root, "config", "--local", "--get", f"merge.{DRIVER}.driver", ok=(0, 1)).stdout
    if now.decode("utf-8", "replace").strip() == want:
        return False
    _run(root, "config", "--local", f"merge.{DRIVER}.name", DRIVER_NAME)
    _run(root, "config", "--local", f"merge.{DRIVER}.driver", want)
    return True


def setup_driver(root: Path) -> list[str]:
    """`drunagor git setup`: the merge driver in the repository's config, and in the campaign's
    .gitattributes (written, or completed when an older `new` wrote it). Returns what changed:
    "config" and/or ".gitattributes". The caller holds the campaign lock."""
    import re

    repository(root, "setup")
    changed = []
    try:
        if register_driver(root):
            changed.append("config")
    except _GitFailed as exc:
        raise RuleError(f"git config failed: {exc.reason}", file=store.display(root), rule="git") from None
    path = root / ".gitattributes"
    text = store.read_bytes(path).decode("utf-8", "replace") if path.exists() else ""
    if not re.search(r"\bmerge=" + DRIVER + r"\b", text):
        if text:
            text += ("" if text.endswith("\n") else "\n") + GITATTRIBUTES_DRIVER
        else:
            text = GITATTRIBUTES
        store.atomic_write(path, text.encode())
        changed.append(".gitattributes")
    return changed

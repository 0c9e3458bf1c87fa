"""The campaign-aware merge driver's side of git: the files `drunagor new` writes for git (.gitignore,
.gitattributes), the driver's registration in a repository's config (`drunagor git setup`), the cheap
check that it is set up (never runs git), and git's own line merge, which the driver falls back to.

The driver itself, what git runs (`python -m drunagor_log.interop.mergedriver %O %A %B %L %P`), is a
front end: interop/mergedriver.py. The value-by-value merge is store/merge.py.
"""

from __future__ import annotations

import os
from pathlib import Path

from .. import store
from ..errors import RuleError, UsageError
from .runner import GitFailed, repository, run

# `drunagor new` writes these into the campaign folder (see store/__init__.py TMP_SUFFIX, JOURNAL, LOCK).
GITIGNORE = ("# drunagor's own temporary files: atomic writes, the multi-file journal, the campaign lock\n"
             + "".join(p + "\n" for p in store.GITIGNORE_PATTERNS))
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
        except (GitFailed, UsageError, OSError):
            pass  # `drunagor check` says so, and `drunagor git setup` does it
    return written


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


def _read(path: Path | str, follow: bool = False) -> str:
    """The text of a small file git reads (a .gitattributes, a config, a `.git` file), through the
    store's safe read: a regular file, no link followed (`follow`: the user's own config, which may be
    a link to their dotfiles, is read where it leads), at most store.MAX_FILE_BYTES; else ''. A
    `.gitattributes` linked to /dev/zero is never read (it came with a clone, from anyone)."""
    raw = store.peek(os.path.realpath(path) if follow else path)
    return raw.decode("utf-8", "replace") if raw is not None else ""


def _config_texts(gitdir: Path) -> tuple[str, list[str]]:
    """The repository's own config, and the user's and the system's (as git would read them)."""
    common = gitdir
    link = _read(gitdir / "commondir").strip()
    if link:
        common = (gitdir / link).resolve()
    others = []
    if os.environ.get("GIT_CONFIG_GLOBAL") is not None:
        others.append(_read(os.environ["GIT_CONFIG_GLOBAL"], follow=True))
    else:
        home = os.path.expanduser("~")
        xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
        others += [_read(os.path.join(home, ".gitconfig"), True), _read(os.path.join(xdg, "git", "config"), True)]
    if not os.environ.get("GIT_CONFIG_NOSYSTEM"):
        others.append(_read(os.environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig", follow=True))
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
    now = run(root, "config", "--local", "--get", f"merge.{DRIVER}.driver", ok=(0, 1)).stdout
    if now.decode("utf-8", "replace").strip() == want:
        return False
    run(root, "config", "--local", f"merge.{DRIVER}.name", DRIVER_NAME)
    run(root, "config", "--local", f"merge.{DRIVER}.driver", want)
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
    except GitFailed as exc:
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


def merge_file(mine: Path, base: Path, theirs: Path, marker_size: int) -> int:
    """git's own line merge into `mine` (`git merge-file`), with markers of `marker_size`; 0 when
    clean, 1 when it wrote markers (or failed: the file is then left for git as a conflict)."""
    proc = run(mine.parent, "merge-file", f"--marker-size={marker_size}", "-L", "mine", "-L", "base", "-L", "theirs",
               str(mine), str(base), str(theirs), ok=range(256))
    return 0 if proc.returncode == 0 else 1

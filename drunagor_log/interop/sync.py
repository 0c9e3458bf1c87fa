"""`drunagor sync`: several players, several machines, one campaign, with git as the engine.

One command for a player who knows no git, run before and after the evening:

1. commit the campaign's changes not committed yet: every change to a file drunagor writes
   (story.toml, heroes/*.toml, adventure.toml, adventures/*.toml, the campaign's .gitignore and
   .gitattributes, and the sheet `drunagor sheet` leaves beside story.toml, made again first so that it
   is never older than the files it shows) as long as the file is readable, whether a drunagor command
   or an editor made it, with a message that says what changed ("chapter 05 completed; Nyx gains
   Buckler"). Anything else uncommitted in the campaign folder is the player's own: sync stops and
   names it. Files outside the campaign folder are left alone (git refuses the merge only if it would touch them);
2. fetch the upstream branch, check its campaign as drunagor reads any campaign (interop/incoming.py:
   no link, no type change, no file past the store's limits; else nothing is merged, exit 3), and
   merge it, value by value (the campaign-aware merge driver, set up on the way). Where both sides
   changed the same value, nothing is merged: the merge is given up, the campaign stays as it was,
   and sync says in the game's words where the two sides disagree; `--keep mine` or `--keep theirs`
   merges again, deciding those values for one side. The sheets are never a conflict: each merge
   makes them again from the merged files;
3. run `drunagor check` on the result: errors stop the push (the group's copy stays clean);
4. push. A failed push leaves everything committed here, readable by every command: sync again.

A merge already under way (a `git pull` that stopped) is finished the same way: `--keep` decides
the campaign's conflicts, or the player resolves them by hand and `git add`s them first.
Every step prints one line; what it says of a change (the commit message, a conflict) in the game's
words is interop/sync_words.py.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .. import store
from ..campaign import ADVENTURE, ARCHIVE, HEROES, SHEETS, STORY, Campaign
from ..checks import run_checks
from ..errors import DataError, DrunagorError, RuleError, UsageError
from ..git import merges
from ..git.commits import PREFIX, commit_changes, uncommitted
from ..git.driver_setup import setup_driver
from ..git.merges import merging
from ..git.objects import blob_if_any, unmerged
from ..git.runner import GitFailed, exists, repository
from ..git.runner import reason as git_reason
from ..store.merge import MergeError
from .incoming import blob as _blob
from .incoming import merge_versions as _merge
from .incoming import refuse_junk as _refuse_junk
from .incoming import vet_theirs
from .sync_words import by_rank, describe_conflict, describe_file, file_kind, summary

KEEP = ("mine", "theirs")
Say = Callable[[str], None]


@dataclass(frozen=True)
class Upstream:
    """The remote branch the campaign's branch syncs with."""

    remote: str
    branch: str  # the branch's name on the remote
    tracking: bool  # configured as the branch's upstream (else the first push sets it)

    @property
    def ref(self) -> str:
        return f"refs/remotes/{self.remote}/{self.branch}"

    @property
    def shown(self) -> str:
        return f"{self.remote}/{self.branch}"


Remake = Callable[[Path, list[str]], list[str]]  # (campaign folder, sheet files) -> the files rewritten


def sync(root: Path, keep: str | None, say: Say, remake: Remake | None = None) -> None:
    """The whole of `drunagor sync` (see the module's doc); a stop is a DrunagorError. `remake` makes
    the sheets found in the campaign folder again (the command line passes the sheet's own)."""
    if keep is not None and keep not in KEEP:
        raise UsageError(f"--keep takes mine or theirs, not {keep!r}", rule="sync",
                         remedy="--keep mine keeps your values where both sides changed one, "
                         "--keep theirs the other players'")
    repository(root, "sync")
    # A merge left under way is vetted by finish_merge, which names who made the other side's change: the
    # open's own look at the files would only see its result. No search for conflict markers either way:
    # sync resolves them. git writes the files, past the campaign's check of what it read: the exclusive
    # lock is held from the first read to the push.
    under_way = merging(root)
    with Campaign(root, exclusive=True, markers=False, scan=not under_way):
        try:
            up = upstream(root)
            if under_way and merges.stopped_sync_merge(root):
                merges.abort_merge(root)  # a sync stopped in its own merge: undone, and merged again below
                say("undid the merge an earlier sync was stopped in")
                under_way = False
            if under_way:
                finish_merge(root, keep, say, remake)
            else:
                refuse_foreign(root)  # before anything is written
                setup = setup_driver(root)
                if setup:
                    say("set up the campaign-aware merge driver (" + " and ".join(setup) + ")")
                commit_own(root, say, remake)
                fetch(root, up)
                pull(root, up, keep, say, remake)
            check(root, say)
            push(root, up, say)
        except GitFailed as exc:
            raise RuleError(f"git {exc.args_[0]} failed: {exc.reason}", file=store.display(root), rule="sync",
                            remedy="nothing is lost: what was committed stays committed; fix that, then "
                            "drunagor sync again") from None


# ------------------------------------------------------------------------------------ the remote


def upstream(root: Path) -> Upstream:
    """The branch's upstream, or the remote to push it to; a UsageError (exit 2) without one."""
    shown = store.display(root)
    branch = merges.current_branch(root)
    if not branch:
        raise UsageError("the repository is not on a branch (a detached HEAD)", file=shown, rule="sync",
                         remedy="switch to the campaign's branch (git switch main), then drunagor sync")
    remote = merges.config_value(root, f"branch.{branch}.remote")
    merge = merges.config_value(root, f"branch.{branch}.merge")
    if remote and remote != "." and merge:
        return Upstream(remote, merge.removeprefix("refs/heads/"), True)
    remotes = merges.remotes(root)
    if not remotes:
        raise UsageError("the campaign's repository has no remote to sync with", file=shown, rule="sync",
                         remedy="add the group's shared repository once: git remote add origin URL (a hosting "
                         "service's repository, or a bare one on a shared drive: git init --bare "
                         "/path/to/campaign.git), then drunagor sync")
    if "origin" not in remotes and len(remotes) > 1:
        raise UsageError(f"the repository has several remotes ({', '.join(remotes)}) and none is set for "
                         f"branch {branch}", file=shown, rule="sync",
                         remedy=f"choose one: git branch --set-upstream-to REMOTE/{branch}")
    return Upstream("origin" if "origin" in remotes else remotes[0], branch, False)


def fetch(root: Path, up: Upstream) -> None:
    try:
        merges.fetch(root, up.remote)
    except GitFailed as exc:
        raise RuleError(f"could not fetch from {up.remote}: {exc.reason}", file=store.display(root),
                        rule="sync", remedy="check the connection and the remote's address (git remote -v); "
                        "what was committed stays committed; drunagor sync again") from None


# ------------------------------------------------------------------------ step 1: commit our own


def own_file(rel: str) -> bool:
    """A file drunagor writes in a campaign folder (relative path): the sheet too."""
    parts = Path(rel).parts
    if len(parts) == 1:
        return parts[0] in (STORY, ADVENTURE, ".gitignore", ".gitattributes", *SHEETS)
    return (len(parts) == 2 and parts[0] in (HEROES, ARCHIVE) and parts[1].endswith(".toml")
            and not parts[1].startswith("."))


def refuse_foreign(root: Path) -> None:
    """Stop when the campaign folder holds uncommitted files drunagor does not write, or changed
    campaign files that do not read: the player's own work, not sync's to commit."""
    dirty = uncommitted(root)
    other = [p for p in dirty if not own_file(p)]
    if other:
        raise RuleError("not committed, and not files drunagor writes: " + ", ".join(other), file=store.display(root),
                        rule="sync", remedy="commit them yourself (git add FILE, then git commit) or move them "
                        "out of the campaign folder, then drunagor sync; nothing was synced")
    if dirty:
        _refuse_unreadable(root, dirty)


def remake_sheets(root: Path, remake: Remake | None, say: Say | None = None) -> list[str]:
    """The sheets `drunagor sheet` left in the campaign folder (sheet.html, sheet.md), made again from
    the campaign's files as they are now by `remake` (the command line's: the sheets are a front end
    beside this one); those that changed. A campaign that cannot be read leaves them as
    they are (the check after the merge says what is wrong)."""
    present = [name for name in SHEETS if (root / name).is_file() and not (root / name).is_symlink()]
    if not present or remake is None:
        return []
    try:
        made = remake(root, present)
    except DrunagorError:
        return []
    if made and say is not None:
        say(f"made {' and '.join(made)} again from the campaign's files")
    return made


def commit_own(root: Path, say: Say, remake: Remake | None = None) -> None:
    remake_sheets(root, remake, say)
    dirty = uncommitted(root)
    if not dirty:
        say("nothing to commit: every change of this campaign is committed")
        return
    phrases = []
    order = ["story", "adventure", "archive", "hero", "other", "sheet"]
    for rel in sorted(dirty, key=lambda r: (order + [file_kind(r)]).index(file_kind(r))):
        phrases += describe_file(rel, _committed(root, rel), _current(root, rel))
    phrases = by_rank(phrases)
    subject = summary(phrases)
    sha = commit_changes(root, dirty, subject, body="\n".join(phrases) if len(phrases) > 1 else None)
    say(f"committed {sha}: {subject}" if sha else "nothing to commit: the files match the last commit")


def _refuse_unreadable(root: Path, dirty: list[str]) -> None:

    shown = {store.display(root / p) for p in dirty}
    with Campaign.open_all(root) as (_, problems):
        for p in problems:
            if p.file in shown:
                raise DataError(p.message, file=p.file, line=p.line, rule=p.rule,
                                remedy="fix it, or take the edit back (git restore FILE), then drunagor sync; "
                                "nothing was synced")


def _committed(root: Path, rel: str) -> dict | None:
    raw = blob_if_any(root, f"HEAD:./{Path(rel).as_posix()}")
    return _values(raw) if raw is not None else None


def _current(root: Path, rel: str) -> dict | None:
    path = root / rel
    return _values(path.read_bytes()) if path.is_file() else None


def _values(raw: bytes) -> dict | None:
    import tomllib

    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):  # ValueError: TOMLDecodeError, and a number past 4,300 digits
        return {}


# ---------------------------------------------------------------------------- step 2: pull, merge


def pull(root: Path, up: Upstream, keep: str | None, say: Say, remake: Remake | None = None) -> None:
    if not exists(root, up.ref):
        say(f"nothing to pull: {up.shown} does not exist yet (this sync creates it)")
        return
    if merges.count(root, f"HEAD..{up.ref}") == 0:
        say(f"nothing to pull: up to date with {up.shown}")
        return
    line, who = pulled_line(root, up.ref)
    vet_theirs(root, up.ref, up.shown)
    refused = merges.merge(root, up.ref)
    if refused is None:
        say(line)
        sha = commit_changes(root, remake_sheets(root, remake), "sheet made again after the merge")
        if sha:
            say(f"committed {sha}: the sheet made again from the merged files")
        return
    unmerged, sheets = _sheets_apart(conflicts(root))
    if not unmerged and sheets:
        _resolve_sheets(root, sheets, remake)
        _refuse_junk(root, started_here=True)
        merges.commit_merge(root)
        say(line + " (the sheet made again from the merged files)")
        return
    if not unmerged:
        _abort(root)
        raise RuleError(f"git could not merge {up.shown}: {git_reason(refused)}",
                        file=store.display(root), rule="sync",
                        remedy="nothing was merged; commit or put away the changes git names, then drunagor sync")
    if keep is None or any(c.outside for c in unmerged):
        say(line.replace("pulled", "found", 1) + " (not merged)")
        raise _stop(root, unmerged, who, started_here=True, say=say)
    resolve(root, unmerged, keep)
    _resolve_sheets(root, sheets, remake)
    _refuse_junk(root, started_here=True)
    merges.commit_merge(root)
    kept = "yours" if keep == "mine" else f"{who}'s"
    say(f"{line} (kept {kept} where both changed: " + "; ".join(d for c in unmerged for d in c.described) + ")")


def pulled_line(root: Path, ref: str) -> tuple[str, str]:
    """"pulled 3 changes from Ben: ...", and who made them ("Ben", "Ben and Carla")."""
    commits = merges.commits_to_merge(root, ref)
    if not commits:
        total = merges.count(root, f"HEAD..{ref}", merges=False)
        return f"pulled {total} commit{'s' if total != 1 else ''} (none changed the campaign)", "the other side"
    authors: list[str] = []
    for author, _ in commits:
        if author not in authors:
            authors.append(author)
    who = authors[0] if len(authors) == 1 else ", ".join(authors[:-1]) + " and " + authors[-1]
    said = [s[len(PREFIX):] if s.startswith(PREFIX) else f'"{s}"' for _, s in commits]
    text = "; ".join(said[:3]) + (f"; and {len(said) - 3} more" if len(said) > 3 else "")
    n = len(commits)
    return f"pulled {n} change{'s' if n != 1 else ''} from {who}: {text}", who


def _abort(root: Path) -> None:
    if merging(root):
        merges.abort_merge(root)


def _stop(root: Path, unmerged: list[Unmerged], who: str, *, started_here: bool, say: Say) -> RuleError:
    """Say each conflict; give the merge up if this sync started it; the error that stops the sync."""
    for c in unmerged:
        for d in c.described:
            say("conflict: " + d)
    shown = store.display(root)
    n = sum(len(c.described) for c in unmerged)
    outside = [c.path for c in unmerged if c.outside]
    if started_here:
        _abort(root)
        what = "nothing was merged: the campaign is as it was before this sync"
    else:
        what = "the merge under way stays as it is"
    if outside:
        return RuleError(f"{n} conflict{'s' if n != 1 else ''}, some outside the campaign ({', '.join(outside)}); "
                        f"{what}", file=shown, rule="sync",
                        remedy="merge by hand with git (git merge, then resolve and git add each file), "
                        "then drunagor sync")
    return RuleError(f"the campaign went two ways ({n} conflict{'s' if n != 1 else ''} above); {what}",
                    file=shown, rule="sync",
                    remedy=f"keep yours with `drunagor sync --keep mine`, or {who}'s with `drunagor sync "
                    "--keep theirs`, then correct anything else with drunagor's commands")


# ----------------------------------------------------------------------------- conflicted files


@dataclass
class Unmerged:
    """A file git could not merge: its path relative to the campaign folder (or to the top of the
    repository when outside it), the blobs of its stages (1 base, 2 mine, 3 theirs)."""

    path: str
    stages: dict[int, str]
    outside: bool
    described: list[str]


def conflicts(root: Path) -> list[Unmerged]:
    top = repository(root)
    here = os.path.realpath(root)
    out = []
    for path, stages in unmerged(top).items():
        rel = os.path.relpath(os.path.join(os.path.realpath(top), path), here)
        outside = rel.startswith("..")
        c = Unmerged(path if outside else rel, stages, outside, [])
        who = _who(top, path)
        c.described = ([f"{path} (outside the campaign): both sides changed it"] if outside
                       else describe_unmerged(root, c, who))
        out.append(c)
    return out


def _who(top: Path, path: str) -> str:
    """Who changed the file on the other side of the merge under way."""
    names = merges.authors(top, "HEAD..MERGE_HEAD", path)
    return names[0] if names else "the other side"


def describe_unmerged(root: Path, c: Unmerged, who: str) -> list[str]:

    if 2 not in c.stages:
        return [f"{c.path}: you deleted it, {who} changed it"]
    if 3 not in c.stages:
        return [f"{c.path}: {who} deleted it, you changed it"]
    texts = [_blob(root, c.stages.get(n)) for n in (1, 2, 3)]
    if not c.path.endswith(".toml"):
        return [f"{c.path}: both sides changed it"]
    try:
        merged = _merge(texts, Path(c.path).name == ADVENTURE, None)
    except MergeError as exc:
        return [f"{c.path}: both sides changed it, and it cannot be merged value by value ({exc})"]
    data = _values(texts[2].encode()) or _values(texts[1].encode()) or {}
    return [describe_conflict(c.path, x, who, data) for x in merged.conflicts] or [f"{c.path}: both sides changed it"]


def _sheets_apart(unmerged: list[Unmerged]) -> tuple[list[Unmerged], list[Unmerged]]:
    """The conflicts that are the party's, and those of the sheets (made again, never a conflict)."""
    sheets = [c for c in unmerged if not c.outside and c.path in SHEETS]
    return [c for c in unmerged if c not in sheets], sheets


def _resolve_sheets(root: Path, sheets: list[Unmerged], remake: Remake | None) -> None:
    """A sheet both sides made: this side's, then made again from the merged files, and staged."""
    if sheets:
        resolve(root, sheets, "mine")
        for name in remake_sheets(root, remake):
            merges.stage(root, name)


def resolve(root: Path, unmerged: list[Unmerged], keep: str) -> None:
    """Decide every conflict of the campaign's files for one side (`--keep`): value by value where
    the file merges, else the whole file of that side; then `git add` (or `git rm`) it."""
    side = 2 if keep == "mine" else 3
    for c in unmerged:
        path = root / c.path
        if 2 in c.stages and 3 in c.stages and c.path.endswith(".toml"):
            texts = [_blob(root, c.stages.get(n)) for n in (1, 2, 3)]
            try:
                data = _merge(texts, path.name == ADVENTURE, keep).text
            except MergeError:
                data = texts[side - 1]
        elif side in c.stages:
            data = _blob(root, c.stages[side])
        else:
            path.unlink(missing_ok=True)
            merges.unstage_deleted(root, c.path)
            continue
        store.check_inside(path, root)  # never through a linked folder
        store.atomic_write(path, data.encode("utf-8"))
        merges.stage(root, c.path)


def finish_merge(root: Path, keep: str | None, say: Say, remake: Remake | None = None) -> None:
    """A merge under way (a `git pull` that stopped): decide its conflicts or stop, then commit it."""
    vet_theirs(root, "MERGE_HEAD", "the branch being merged")
    unmerged, sheets = _sheets_apart(conflicts(root))
    if unmerged:
        who = _who(repository(root), ".")
        if keep is None or any(c.outside for c in unmerged):
            say(f"a merge is under way with {len(unmerged)} conflicted file{'s' if len(unmerged) != 1 else ''}")
            raise _stop(root, unmerged, who, started_here=False, say=say)
        resolve(root, unmerged, keep)
    _resolve_sheets(root, sheets, remake)
    for rel in _campaign_files(root):
        lines = store.conflict_lines((root / rel).read_bytes())
        if lines:
            raise DataError(f"conflict markers are still in the file at lines {', '.join(map(str, lines))}",
                            file=store.display(root / rel), line=lines[0], rule="conflict-markers",
                            remedy="keep the right side of each conflict and delete the marker lines, "
                            "then drunagor sync")
    _refuse_junk(root, started_here=False)
    merges.commit_merge(root)
    say(f"finished the merge under way ({merges.short_head(root)})"
        + (f", keeping {'yours' if keep == 'mine' else 'theirs'} where both changed" if unmerged else ""))


def _campaign_files(root: Path) -> list[str]:
    files = [STORY, ADVENTURE] + [f"{d}/{p.name}" for d in (HEROES, ARCHIVE) if (root / d).is_dir()
                                  for p in sorted((root / d).glob("*.toml"))]
    return [f for f in files if (root / f).is_file()]


# ---------------------------------------------------------------------------- steps 3 and 4


def check(root: Path, say: Say) -> None:

    errors, warnings, unreadable = run_checks(root)
    shown = store.display(root)
    for p in errors:
        say("check: " + p.render())
    if unreadable:
        raise DataError("the campaign cannot be read after the merge (above); not pushed", file=shown,
                        rule="sync", remedy="fix the files named, then drunagor sync")
    if errors:
        raise RuleError(f"check found {len(errors)} error{'s' if len(errors) != 1 else ''} (above); not pushed, "
                        "so the group's copy stays clean", file=shown, rule="sync",
                        remedy="correct them with drunagor's commands, then drunagor sync")
    n = len(warnings)
    say("check: no errors" + (f", {n} warning{'s' if n != 1 else ''} (drunagor check lists them)" if n else ""))


def push(root: Path, up: Upstream, say: Say) -> None:
    known = exists(root, up.ref)
    span = [f"{up.ref}..HEAD"] if known else ["HEAD", "--not", f"--remotes={up.remote}"]
    if merges.count(root, *span) == 0:
        say(f"nothing to push: {up.shown} has everything")
        return
    changes = merges.count(root, *span, merges=False)
    refused = merges.push(root, up.remote, up.branch, set_upstream=not up.tracking)
    if refused is not None:
        raise _push_failed(root, up, refused)
    say(f"pushed {changes} change{'s' if changes != 1 else ''} to {up.shown}" if changes
        else f"pushed the merge to {up.shown}")


def _push_failed(root: Path, up: Upstream, stderr: bytes) -> RuleError:
    lines = [ln.strip() for ln in stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
    told = [ln[len("remote:"):].strip() for ln in lines if ln.startswith("remote:") and ln[7:].strip()]
    rejected = [ln.lstrip("! ") for ln in lines if ln.startswith("!")]
    reason = "; ".join(told + rejected) or git_reason(stderr) or "git push failed"
    shown = store.display(root)
    if any("fetch first" in r or "non-fast-forward" in r for r in rejected):
        return RuleError(f"someone pushed to {up.shown} meanwhile ({reason})", file=shown, rule="sync",
                         remedy="drunagor sync again: it pulls their changes first; yours stay committed here")
    return RuleError(f"the push to {up.remote} failed: {reason}", file=shown, rule="sync",
                     remedy="nothing is lost: everything is committed here and every command works; "
                     "drunagor sync again when the remote accepts it")

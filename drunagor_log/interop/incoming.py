"""What `drunagor sync` is about to merge, checked before git touches the work tree, and the merge,
checked before it is committed.

The other side's branch may come from anyone who can push to the shared repository, so its campaign
is read the way `drunagor check` reads a campaign folder, but from git's own tree, before the merge:

- the campaign folder is a folder there, `story.toml` a regular file in it, `heroes/` and
  `adventures/` folders, every campaign file a regular file (not a symbolic link, not a folder, not a
  submodule): git would check a link out as a link, and a link turned into a file by a conflict
  (`adventures~refs_remotes_origin_main`) would be committed and pushed;
- each campaign file they changed reads as drunagor reads any campaign file (store.parse: at most
  1 MiB, valid UTF-8 TOML, texts, lists and nesting within the store's limits), read from git with
  its size known first, so a 3 MB party name is refused from its size, never read;
- no .gitattributes on the way to the campaign asks for conflict markers longer than the merge
  driver writes (a `conflict-marker-size` of 50,000,000 made a 150 MB file).

Anything else is refused as a DataError (exit 3: the other side's data is not a campaign drunagor
reads, as a local file that does not read is exit 3), naming the file and who changed it, with
nothing merged. A merge about to be committed must hold the Story Record and no file that neither
side has (git's `story.toml~HEAD` and `adventures~refs_...` side files of a type change).
"""

from __future__ import annotations

import re
from pathlib import Path

from .. import store
from ..campaign import ADVENTURE, ARCHIVE, HEROES, STORY
from ..errors import DataError
from ..git import objects
from ..git.merges import abort_merge, last_author, merging
from ..store.markers import MARKER_SIZE_MAX
from ..store.merge import LIMIT_RULES, VALUE_MERGE_BYTES, MergeError, merge_text

REGULAR = ("100644", "100755")
TREE = "040000"
FILES = (STORY, ADVENTURE, ".gitignore", ".gitattributes")
FOLDERS = (HEROES, ARCHIVE)
_MARKER_SIZE = re.compile(rb"conflict-marker-size\s*=\s*(\S*)")


class _Entry:
    __slots__ = ("mode", "sha", "size")

    def __init__(self, mode: str, sha: str, size: str):
        self.mode, self.sha = mode, sha
        self.size = int(size) if size.isdigit() else 0


def _tree(root: Path, ref: str, prefix: str) -> dict[str, _Entry] | None:
    """The campaign folder as `ref` holds it: path (relative to the folder) -> entry; None when the
    folder is not a folder there."""
    if objects.object_type(root, f"{ref}:{prefix}") != "tree":
        return None
    return {path: _Entry(mode, sha, size) for path, mode, sha, size in objects.tree(root, f"{ref}:{prefix}")}


def campaign_path(rel: str) -> str | None:
    """What a path of the campaign folder must be: "file", "folder", or None (not drunagor's)."""
    parts = rel.split("/")
    if len(parts) == 1:
        return "file" if rel in FILES else "folder" if rel in FOLDERS else None
    if len(parts) == 2 and parts[0] in FOLDERS and parts[1].endswith(".toml") and not parts[1].startswith("."):
        return "file"
    return None


def _what(mode: str) -> str:
    return {"120000": "a symbolic link", TREE: "a folder", "160000": "a submodule"}.get(mode, "a file")


def vet_theirs(root: Path, ref: str, shown_ref: str) -> None:
    """Refuse (DataError, nothing merged) what `ref` holds for the campaign that drunagor would not
    read, or that a merge would turn into junk; see the module's doc."""
    prefix = objects.show_prefix(root)
    theirs = _tree(root, ref, prefix)
    shown = store.display(root)
    if theirs is None or STORY not in theirs:
        raise _refusal(root, ref, shown_ref, prefix or ".", "holds no Story Record (story.toml) there: it is not "
                       "this campaign", shown)
    ours = _tree(root, "HEAD", prefix) or {}
    changed = []
    for rel, entry in theirs.items():
        want = campaign_path(rel)
        if want is None:
            continue
        if (want == "file") != (entry.mode in REGULAR) or (want == "folder" and entry.mode != TREE):
            raise _refusal(root, ref, shown_ref, rel, f"makes {rel} {_what(entry.mode)}, where the campaign "
                           f"has a {want}: drunagor reads only regular files in the campaign's folders",
                           store.display(root / rel))
        mine = ours.get(rel)
        if want == "file" and (mine is None or mine.sha != entry.sha):
            if entry.size > store.MAX_FILE_BYTES:
                raise _refusal(root, ref, shown_ref, rel, f"makes {rel} larger than {store.MAX_FILE_BYTES // 1024} "
                               "KiB, far more than a campaign holds (it was not read)", store.display(root / rel))
            if rel.endswith(".toml"):
                changed.append((rel, entry))
    for rel, raw in _blobs(root, changed):
        try:
            store.parse(raw, root / rel)
        except DataError as exc:
            line = f" at line {exc.line}" if exc.line else ""
            raise _refusal(root, ref, shown_ref, rel, f"makes {rel} a file drunagor cannot read{line} ({exc.rule}: "
                           f"{exc.message})", store.display(root / rel)) from None
    _vet_attributes(root, ref, shown_ref, prefix)


BATCH_BYTES = 8 << 20  # what one `git cat-file --batch` reads at most (sizes known from the tree)


def _blobs(root: Path, files: list[tuple[str, _Entry]]):
    """(path, bytes) of each file, read a few megabytes at a time by one git process each: not one
    process a file (a campaign pushed with thousands of Campaign Logs), not all in memory at once."""
    start = 0
    while start < len(files):
        end, total = start, 0
        while end < len(files) and (end == start or total + files[end][1].size <= BATCH_BYTES):
            total += files[end][1].size
            end += 1
        chunk = files[start:end]
        out = objects.blobs(root, [e.sha for _, e in chunk])
        at = 0
        for rel, entry in chunk:
            at = out.index(b"\n", at) + 1  # "<sha> blob <size>"
            yield rel, out[at:at + entry.size]
            at += entry.size + 1
        start = end


def _vet_attributes(root: Path, ref: str, shown_ref: str, prefix: str) -> None:
    """The .gitattributes files git applies to the campaign's files, as `ref` has them."""
    depth = prefix.count("/")
    folders = [""] + ["/".join(prefix.split("/")[:n]) + "/" for n in range(1, depth + 1)]
    for n, folder in enumerate(folders):
        rel = "../" * (depth - n) + ".gitattributes"
        spec = f"{ref}:{folder}.gitattributes"
        if objects.object_type(root, spec) != "blob":
            continue
        if objects.blob_size(root, spec) > store.MAX_FILE_BYTES:
            raise _refusal(root, ref, shown_ref, rel, "makes a .gitattributes larger than "
                           f"{store.MAX_FILE_BYTES // 1024} KiB", store.display(root))
        for size in _MARKER_SIZE.findall(objects.blob(root, spec)):
            if not size.isdigit() or int(size) > MARKER_SIZE_MAX:
                raise _refusal(root, ref, shown_ref, rel,
                               f"sets conflict-marker-size={size[:20].decode('utf-8', 'replace')} in "
                               f"{folder or './'}.gitattributes (at most {MARKER_SIZE_MAX}): a conflict would "
                               "write markers that long", store.display(root))


def _refusal(root: Path, ref: str, shown_ref: str, rel: str, what: str, shown: str) -> DataError:
    """`rel`: relative to the campaign folder (`../.gitattributes` above it)."""
    who = last_author(root, ref, rel) or last_author(root, ref) or "the other side"
    return DataError(f"{who}'s change on {shown_ref} {what}; nothing was merged: the campaign is as it was before "
                     "this sync", file=shown, rule="sync",
                     remedy=f"ask {who} to put the campaign's files back as drunagor writes them (drunagor check "
                     "there) and push again, then drunagor sync")


def refuse_junk(root: Path, *, started_here: bool) -> None:
    """Before a merge is committed: it holds story.toml as a regular file, every campaign path as
    what it must be, and no file that neither side has (git's side files of a type change). Else
    the merge is given up if this sync started it (nothing committed), and refused (exit 3)."""
    known = {*objects.tree_names(root, "HEAD"), *objects.tree_names(root, "MERGE_HEAD")}
    staged = objects.staged(root)
    faults = [] if staged.get(STORY) in REGULAR else [f"the merge would leave no Story Record ({STORY})"]
    for path, mode in staged.items():
        want = campaign_path(path)
        if path not in known:
            faults.append(f"the merge would add {path}, which neither side has (a file git made of a conflict)")
        elif want is not None and mode not in REGULAR:
            faults.append(f"the merge would make {path} {_what(mode)}")
    if not faults:
        return
    if started_here and merging(root):
        abort_merge(root)
    raise DataError(faults[0] + ("; nothing was merged: the campaign is as it was before this sync" if started_here
                                 else "; the merge under way stays as it is, not committed"),
                    file=store.display(root), rule="sync",
                    remedy="give the merge up (git merge --abort) and ask the other player to push the campaign's "
                    "files as drunagor writes them")


# ------------------------------------------------------------- versions of a conflicted file


def blob(root: Path, sha: str | None) -> str:
    """A version's text, read only within the store's size limit (else refused, exit 3)."""
    if sha is None:
        return ""
    return _blob_bytes(root, sha, store.display(root)).decode("utf-8", "replace")


def _blob_bytes(root: Path, sha: str, shown: str) -> bytes:
    size = objects.blob_size(root, sha)
    if size > store.MAX_FILE_BYTES:
        raise DataError(f"a version of the file is larger than {store.MAX_FILE_BYTES // 1024} KiB, far more "
                        "than a campaign holds; it was not read", file=shown, rule="file-size",
                        remedy="nothing was merged; merge it by hand with git, or ask its author to restore it")
    return objects.blob(root, sha)


def merge_versions(texts: list[str], whole: bool, prefer: str | None):
    """store.merge.merge_text on three versions, as the merge driver takes them (MergeError past
    its limits and its size for a value-by-value merge)."""
    for text in texts:
        raw = text.encode("utf-8")
        if len(raw) > VALUE_MERGE_BYTES:
            raise MergeError("too large to merge value by value")
        try:
            if raw.strip():
                store.parse(raw, Path("version"))
        except DataError as exc:
            if exc.rule in LIMIT_RULES:
                raise MergeError(exc.message) from None
    return merge_text(*texts, whole=whole, prefer=prefer)

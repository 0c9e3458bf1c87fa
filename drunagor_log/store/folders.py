"""What stands at the name of a campaign file or folder, found with one look (os.scandir, lstat) and
never through a symbolic link: a regular file or a folder is taken, anything else is refused by its
name, with what should be there. session.py names the files and folders; this only looks."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import DataError
from ..text import is_os_name_utf8
from .paths import display
from .read import name_not_utf8, not_regular


def take(entry: os.DirEntry, into: list[str], strict: bool, *, folder: str | None = None) -> None:
    """Add the path of `entry` to `into` if it is a regular file (with `folder`, what the folder holds:
    a folder), never through a link; else, when `strict`, refuse it."""
    if entry.is_dir(follow_symlinks=False) if folder else entry.is_file(follow_symlinks=False):
        if strict and not is_os_name_utf8(entry.name):
            raise name_not_utf8(entry.name, display(Path(entry.path)))
        into.append(entry.path)
    elif strict:
        raise not_one(entry, folder)


def not_one(entry: os.DirEntry, folder: str | None) -> DataError:
    """The refusal of what stands at the name of a campaign file (or folder: `folder` says of what) and
    is not one: the reader of that file would refuse it by name; the scan refuses it for every command."""
    shown = display(Path(entry.path))
    if folder:
        return not_folder(entry.name, shown, folder, link=entry.is_symlink())
    try:
        mode = entry.stat(follow_symlinks=False).st_mode
    except OSError as exc:
        return DataError(f"cannot read the file ({exc.strerror or exc})", file=shown, rule="file",
                         remedy="check its permissions")
    return not_regular(mode, shown)


def not_folder(name: str, shown: str, what: str, *, link: bool) -> DataError:
    if link:
        return DataError(f"{name} is a symbolic link; it should be the folder of {what}", file=shown,
                         rule="file", remedy="replace the link by the folder itself: drunagor reads and "
                                             "writes only inside the campaign folder")
    return DataError(f"{name} is a file; it should be the folder of {what}", file=shown, rule="file",
                     remedy=f"move the file away and create the folder {name}/")


#: Campaign Logs in heroes/, and finished adventures in adventures/: a party of five that changes heroes
#: at every chapter, and fails each adventure many times, stays far below. Past it every command stops
#: (`limits`, exit 3), so that no view or check costs more than a campaign can hold.
MAX_FILES = 500


def too_many(folder: Path | str, what: str) -> DataError:
    return DataError(f"more than {MAX_FILES} .toml files in {os.path.basename(folder)}/ ({what}); a campaign "
                     f"holds at most {MAX_FILES}", file=display(Path(folder)), rule="limits",
                     remedy="move the files that are not this campaign's out of the folder")


def toml_files(folder: Path, what: str) -> list[Path]:
    """The .toml files of `folder` (the folder of `what`), sorted; none if it does not exist. Hidden
    files are an editor's (.#andreas.toml, a lock) or ours (temp files), not campaign files. A folder
    that goes away (or becomes unreadable) between the look and the listing is a `file` error."""
    try:
        mode = os.lstat(folder).st_mode
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise DataError(f"cannot read the folder ({exc.strerror or exc})", file=display(folder),
                        rule="file", remedy="check its permissions") from None
    if not stat.S_ISDIR(mode):
        raise not_folder(folder.name, display(folder), what, link=stat.S_ISLNK(mode))
    names: list[str] = []
    try:
        with os.scandir(folder) as entries:
            for e in entries:
                if e.name.endswith(".toml") and not e.name.startswith("."):
                    names.append(e.name)
                    if len(names) > MAX_FILES:
                        raise too_many(folder, what)
    except OSError as exc:
        raise DataError(f"cannot read the folder ({exc.strerror or exc}); another program changed it "
                        "meanwhile, or its permissions", file=display(folder), rule="file",
                        remedy="nothing was written; re-run the command") from None
    return [folder / n for n in sorted(names)]

"""The programs drunagor starts (git; the web browser of `sheet --open` and `serve --open`), found on
PATH's folders only, never in the current folder.

On Windows, Python 3.11's `shutil.which` looks in the current folder before PATH, and a bare name given
to a new process is looked up there too: a `git.exe` or `git.bat` at the top of a stranger's campaign
repository would run when drunagor is started in it. On any system, an empty or relative entry of PATH
("", ".", "bin") means a folder under the current one. `find` takes none of those: only PATH's absolute
folders, in order, and on Windows the extensions of PATHEXT. The process is then started with the
absolute path found, so nothing looks it up again.

The browser: on Windows the one the system registers for web pages (`os.startfile`, no search at all);
elsewhere Python's `webbrowser`, its programs looked up, and started, under a PATH of absolute folders
alone.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

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


@contextmanager
def absolute_path() -> Iterator[None]:
    """PATH without its empty and relative entries while the block runs (a library that starts a
    program by its bare name: `webbrowser`)."""
    old = os.environ.get("PATH")
    os.environ["PATH"] = os.pathsep.join(folders())
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("PATH", None)
        else:
            os.environ["PATH"] = old


def open_url(url: str) -> bool:
    """Open `url` (a web page, or a file's URI) in the user's web browser; False when there is none."""
    start = getattr(os, "startfile", None)  # Windows: the registered browser, no search
    if start is not None:
        try:
            start(url)
        except OSError:
            return False
        return True
    import webbrowser

    with absolute_path():
        return webbrowser.open(url)

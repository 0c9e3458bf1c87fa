"""The web browser of `sheet --open` and `serve --open`, started as git is (git/runner.py's `find`):
from PATH's folders only, never from the current folder.

On Windows, Python 3.11's `shutil.which` looks in the current folder before PATH, and a bare name given
to a new process is looked up there too: a `git.exe` or `git.bat` at the top of a stranger's campaign
repository would run when drunagor is started in it. On any system, an empty or relative entry of PATH
("", ".", "bin") means a folder under the current one. runner.find takes none of those: only PATH's
absolute folders, in order, and on Windows the extensions of PATHEXT; git is then started by the
absolute path found, so nothing looks it up again.

The browser: on Windows the one the system registers for web pages (`os.startfile`, no search at all);
elsewhere Python's `webbrowser`, its programs looked up, and started, under a PATH of absolute folders
alone.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from .runner import folders


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

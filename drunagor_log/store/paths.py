"""Paths for display: how a message names a file of the campaign."""

from __future__ import annotations

import os
from pathlib import Path

from ..text import os_name


def display(path: Path) -> str:
    """A path as the user should see it: relative to the current directory when below it.
    (String work on absolute paths: resolving symlinks cost a syscall per path component, for every
    file a command reads.) A name that is not UTF-8 is shown with its bytes escaped (`h\\xffro.toml`)."""
    return os_name(_display(path))


def _display(path: Path) -> str:
    try:
        cwd = os.getcwd()
    except OSError:
        return str(path)
    full = os.path.abspath(path)
    if full == cwd:
        return "."
    if full.startswith(cwd.rstrip(os.sep) + os.sep):
        return full[len(cwd.rstrip(os.sep)) + 1:].replace(os.sep, "/")  # one message on every system
    return str(path)

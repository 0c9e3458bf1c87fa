"""What many test modules share and used to copy: `ok` (a command that must succeed), `git` (the one
git runner of the tests) and `write_campaign` (a campaign's files written from text)."""

from __future__ import annotations

import os
import subprocess
import textwrap
from collections.abc import Mapping
from pathlib import Path

#: A committer for the tests' own commits, where no test fixture set one.
IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}


def ok(r):
    """The result `r` of a command that must succeed (exit 0); the assertion shows its output."""
    assert r.exit_code == 0, r
    return r


def git(cwd: Path, *args: str, ok: int | None = 0, identity: bool = False) -> str:
    """Run git in `cwd` and return its standard output. `ok`: the exit code it must give (None: any);
    `identity`: commit as the tests' committer (IDENTITY), whatever the environment says."""
    env = {**os.environ, **IDENTITY} if identity else None
    p = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, check=False)
    if ok is not None:
        assert p.returncode == ok, f"git {' '.join(args)}: {p.returncode}\n{p.stdout}{p.stderr}"
    return p.stdout


def write_campaign(root: Path, files: Mapping[str, str]) -> Path:
    """The campaign at `root` with `files` (relative path -> text, dedented, LF on every system)."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(textwrap.dedent(text).lstrip("\n").encode())
    return root


def on_a_pty(args: list[str], cols: int, env_extra: dict[str, str] | None = None) -> str:
    """What `drunagor ARGS` writes to a pseudo-terminal `cols` wide (stdout and stderr together, CRLF as
    LF), as a player's terminal window shows it: TERM is xterm-256color, NO_COLOR, COLUMNS and LINES are
    unset unless `env_extra` sets them."""
    import fcntl
    import pty
    import select
    import struct
    import sys
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, cols, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
    env.update({"TERM": "xterm-256color", **(env_extra or {})})
    proc = subprocess.Popen([sys.executable, "-m", "drunagor_log", *args], stdin=slave, stdout=slave,
                            stderr=slave, env=env, close_fds=True)
    os.close(slave)
    out = b""
    while True:
        ready, _, _ = select.select([master], [], [], 20)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=20)
    os.close(master)
    return out.decode().replace("\r\n", "\n")

"""What many test modules share and used to copy: `ok` (a command that must succeed), `git` (the one
git runner of the tests) and `write_campaign` (a campaign's files written from text)."""

from __future__ import annotations

import os
import re
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


SHORT_CITATION = re.compile(r"\bRB\s+L\d+")
_LINES = r"L\d+(?:[-\u2013]L?\d+)?(?:, L\d+(?:[-\u2013]L?\d+)?)*"
_GROUP = re.compile(rf"(?P<section>[^()`]{{1,100}}?(?:\([^()`]{{1,100}}\)[^()`]{{0,40}}?)?), (?P<lines>{_LINES})")


def citation_problems(text: str, *, wrapped: bool = False) -> list[str]:
    """What a reader of `text` (a help, a page's prose) could not follow: a short citation (`RB L285`)
    outside a `code span`, a `Rulebook:` without a section and line, or a section the line does not stand
    in (SPEC 11, "Citations"). `wrapped`: Click wrapped it, breaking a hyphenated title ("One-\\nShot")."""
    if wrapped:
        text = re.sub(r"-\n\s*", "-", text)
    flat = re.sub(r"`[^`]*`", "``", " ".join(text.split()))
    problems = [f"short citation {m.group(0)!r}: ...{flat[max(m.start() - 40, 0):m.end() + 10]}"
                for m in SHORT_CITATION.finditer(flat)]
    for m in re.finditer(r"Rulebook: ", flat):
        problems += cited_problems(flat[m.end():], require=True)
    return problems


def cited_problems(rest: str, *, require: bool, whole: bool = False) -> list[str]:
    """The problems of the citation `rest` begins with: its groups `Section, L1, L2-3` joined by "; ",
    each section the one its first line stands in (catalog/headings.cited_section). After the first group
    a "; " begins another where `Title, L...` follows (else it is prose: "; drunagor draw").
    `whole`: `rest` is all citation (a cell of a column headed Rulebook)."""
    from drunagor_log.catalog import headings

    problems: list[str] = []
    first, pos = True, 0
    while True:
        m = _GROUP.match(rest, pos)
        if m is None or "Rulebook: " in m["section"]:  # prose, then the next citation
            if first and require:
                problems.append(f"no section and line: Rulebook: {rest[:60]}")
            break
        line = int(re.match(r"L(\d+)", m["lines"]).group(1))
        if m["section"] != headings.cited_section(line):
            problems.append(f"L{line} stands in {headings.cited_section(line)!r}, not {m['section']!r}")
        first, pos = False, m.end()
        if not rest.startswith("; ", pos):
            break
        pos += 2
    if whole and rest[pos:].strip():
        problems.append(f"not a citation: {rest!r}")
    return problems

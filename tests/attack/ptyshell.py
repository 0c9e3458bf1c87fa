"""A real interactive shell (bash, zsh, fish) in a pseudo-terminal, typed at as a user types: for the
completion attack suite. Every wait has a deadline, the shell and what it starts run under the same
address-space and CPU limits as bounded.py's runs, and closing kills what is left."""

from __future__ import annotations

import fcntl
import os
import pty
import resource
import select
import shutil
import signal
import struct
import termios
import time
from pathlib import Path

from . import bounded

PROMPT = "@@ready@@ "  # no hostile name the suite makes holds these
# printed once before each fresh prompt (not when the line editor repaints one, as fish does on
# every change): what follows it is the prompt of the next line
DONE = "@@done@@"
_PRINT_DONE = "printf '@@%s@@\\n' done"
WAIT = 20.0


def fork_bounded(argv: list[str], env: dict[str, str], cwd: Path, *, rows: int, columns: int) -> tuple[int, int]:
    """Start argv on a new pseudo-terminal of `columns` x `rows`, under bounded.py's CPU and address-space
    limits: (the child's pid, the terminal's file descriptor)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: limits, then the program (pty.fork made it a session leader)
        try:
            resource.setrlimit(resource.RLIMIT_CPU, (bounded.CPU_SECONDS, bounded.CPU_SECONDS))
            resource.setrlimit(resource.RLIMIT_AS, (bounded.ADDRESS_SPACE, bounded.ADDRESS_SPACE))
            os.chdir(cwd)
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    return pid, fd


class ShellTimeout(AssertionError):
    pass


class Shell:
    """One interactive shell. `line(keys)` types keys, presses Enter and waits for the next prompt."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path):
        self.output = b""
        self._mark = 0
        pid, fd = fork_bounded(argv, env, cwd, rows=50, columns=200)
        self.pid, self.fd = pid, fd
        self.next_prompt()

    def next_prompt(self) -> None:
        """Wait until the shell has finished the line and shows the prompt of the next."""
        self.expect(DONE)
        self.expect(PROMPT)

    def send(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def expect(self, text: str, wait: float = WAIT) -> str:
        """Read until `text` appears in what the shell printed since the last expect; returns it."""
        want = text.encode()
        deadline = time.monotonic() + wait
        while True:
            at = self.output.find(want, self._mark)
            if at >= 0:
                seen = self.output[self._mark:at]
                self._mark = at + len(want)
                return seen.decode(errors="replace")
            left = deadline - time.monotonic()
            if left <= 0 or not self.pump(left):
                raise ShellTimeout(f"waited {wait:.0f} s for {text!r}; the shell printed:\n"
                                   f"{self.output[self._mark:].decode(errors='replace')[-2000:]}")

    def pump(self, wait: float) -> bool:
        """Read what the shell printed, waiting at most `wait` seconds. Reading all along matters:
        a shell whose terminal output is not read blocks on its next write, and reads no more keys."""
        ready, _, _ = select.select([self.fd], [], [], wait)
        if not ready:
            return False
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # EIO: the shell is gone
            return False
        self.output += chunk
        return bool(chunk)

    def close(self) -> None:
        for sig in (signal.SIGHUP, signal.SIGKILL):
            try:
                os.killpg(self.pid, sig)
            except ProcessLookupError:
                break
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline:
                if os.waitpid(self.pid, os.WNOHANG) != (0, 0):
                    os.close(self.fd)
                    return
                time.sleep(0.02)
        os.close(self.fd)


def installed(shell: str) -> str | None:
    return shutil.which(shell)


def start(shell: str, home: Path, cwd: Path, env: dict[str, str]) -> Shell:
    """`shell` started as a user's login would, with the completion loaded as docs/index.md says:
    bash and zsh `eval "$(drunagor completion SHELL)"` in the rc file (zsh after compinit), fish
    `drunagor completion fish > ~/.config/fish/completions/drunagor.fish`. After the completion,
    the rc file defines `drunagor` as a shell function that records its arguments (stand_in)."""
    exe = installed(shell)
    assert exe, shell
    env = dict(env, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
               XDG_DATA_HOME=str(home / ".local" / "share"))
    stand_in = env["STAND_IN"]
    if shell == "bash":
        (home / ".bashrc").write_text(
            f'unset HISTFILE\nPS1={PROMPT!r}\nPROMPT_COMMAND="{_PRINT_DONE}"\neval "$(drunagor completion bash)"\n'
            f'drunagor() {{ {stand_in} "$@"; }}\n')
        return Shell([exe, "--noprofile", "--rcfile", str(home / ".bashrc"), "-i"], env, cwd)
    if shell == "zsh":
        env["ZDOTDIR"] = str(home)
        (home / ".zshrc").write_text(
            f"PS1={PROMPT!r}\nunset HISTFILE\nprecmd() {{ {_PRINT_DONE}; }}\nautoload -Uz compinit && compinit -D -i\n"
            f'eval "$(drunagor completion zsh)"\ndrunagor() {{ {stand_in} "$@"; }}\n')
        return Shell([exe, "-i"], env, cwd)
    completions = home / ".config" / "fish" / "completions"
    completions.mkdir(parents=True, exist_ok=True)
    # present, so that fish does not start generating completions from every man page at first run
    (home / ".local" / "share" / "fish" / "generated_completions").mkdir(parents=True, exist_ok=True)
    script = bounded.drunagor("completion", "fish", surface="completion", env=env)
    assert script.returncode == 0, script.stderr
    (completions / "drunagor.fish").write_text(script.stdout)
    (home / ".config" / "fish" / "config.fish").write_text(
        f"function fish_prompt; printf '%s' {PROMPT!r}; end\nfunction fish_greeting; end\n"
        f"function drunagor; {stand_in} $argv; end\n"
        f"function __done --on-event fish_postexec; {_PRINT_DONE}; end\n{_PRINT_DONE}\n")
    return Shell([exe, "--private", "-i"], env, cwd)

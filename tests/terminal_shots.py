"""Screenshots of drunagor in a terminal for the docs (issue 20): docs/images/raid.png,
docs/images/adventure-show.png and docs/images/play.png.

    python tests/terminal_shots.py

Each command runs on a fresh copy of campaigns/example in a real pseudo-terminal, 80 columns wide
with colour, exactly as at the table; Rich turns the captured output into an SVG of a terminal
window, and headless Chromium (Debian's package) photographs it. The table session (`drunagor play`)
redraws its prompt and toolbar in place, so it runs in tmux, which keeps the screen as a terminal
shows it: the lines of SESSION are typed into it and the screen is captured with its colours. Not a
test: it makes pictures.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from tests.cli.test_terminal import _run_pty  # noqa: E402  (the tests' own terminal run)

SHOTS = {
    "raid.png": ["raid", "--seed", "5", "--dry-run"],
    "adventure-show.png": ["adventure", "show"],
}
# Typed into `drunagor play` (a tab completes the word being typed); the last stays at the prompt.
SESSION = ["odds", "raid --seed 1", "monster add Gre\t", "monster remove 2", "cube Nyx trauma +1", "monster ad"]


def shoot(args: list[str], out: Path, work: Path) -> None:
    campaign = work / "example"
    if not campaign.exists():
        shutil.copytree(REPO / "campaigns" / "example", campaign)
    photograph(_run_pty(["-C", str(campaign), *args], 80), "drunagor " + " ".join(args), out, work)


def shoot_session(out: Path, work: Path, rows: int = 24) -> None:
    """The table session after the lines of SESSION, as tmux shows it in 80 columns and 24 rows."""
    import time

    tmux = shutil.which("tmux")
    if tmux is None:
        raise SystemExit("tmux is not installed (apt-get install -y tmux)")
    campaign = work / "session" / "example"
    shutil.copytree(REPO / "campaigns" / "example", campaign)
    socket = str(work / "tmux.socket")
    drunagor = Path(sys.executable).parent / "drunagor"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(work), "XDG_CACHE_HOME": str(work / "cache"), "TERM": "xterm-256color"}

    def tmux_run(*args: str) -> str:
        return subprocess.run([tmux, "-S", socket, "-f", "/dev/null", *args], env=env, check=True,
                              capture_output=True, text=True, timeout=30).stdout

    tmux_run("new-session", "-d", "-x", "80", "-y", str(rows), f"{drunagor} -C {campaign} play")
    try:
        time.sleep(3)
        for i, line in enumerate(SESSION):
            for n, part in enumerate(line.split("\t")):
                if n:
                    tmux_run("send-keys", "Tab")
                if part:
                    tmux_run("send-keys", "-l", part)
                time.sleep(1)
            if i < len(SESSION) - 1:
                tmux_run("send-keys", "Enter")
                time.sleep(2)
        time.sleep(2)
        screen = tmux_run("capture-pane", "-p", "-e", "-N")
    finally:
        subprocess.run([tmux, "-S", socket, "kill-server"], env=env, capture_output=True, timeout=30)
    photograph(screen.rstrip("\n"), "drunagor play", out, work, lines=rows)


def photograph(ansi: str, title: str, out: Path, work: Path, lines: int | None = None) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(record=True, width=80, force_terminal=True, color_system="truecolor", file=open("/dev/null", "w"))
    console.print(Text.from_ansi(ansi.rstrip("\n")))
    svg = work / (out.stem + ".svg")
    svg.write_text(console.export_svg(title=title), encoding="utf-8")
    lines = lines or ansi.count("\n") + 1
    height = 90 + 24 * lines
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("chromium is not installed (apt-get install -y chromium)")
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--window-size=1000,{height}", f"--screenshot={out}", svg.as_uri()],
                   check=True, capture_output=True, timeout=120)


def main() -> None:
    images = REPO / "docs" / "images"
    images.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in SHOTS.items():
            shoot(args, images / name, Path(tmp))
            print(f"wrote docs/images/{name}")
        shoot_session(images / "play.png", Path(tmp))
        print("wrote docs/images/play.png")


if __name__ == "__main__":
    main()

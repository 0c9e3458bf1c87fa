"""Screenshots of drunagor in a terminal for the docs (issue 20): docs/images/raid.png and
docs/images/adventure-show.png.

    python tests/terminal_shots.py

Each command runs on a fresh copy of campaigns/example in a real pseudo-terminal, 80 columns wide
with colour, exactly as at the table; Rich turns the captured output into an SVG of a terminal
window, and headless Chromium (Debian's package) photographs it. Not a test: it makes pictures.
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


def shoot(args: list[str], out: Path, work: Path) -> None:
    from rich.console import Console
    from rich.text import Text

    campaign = work / "example"
    if not campaign.exists():
        shutil.copytree(REPO / "campaigns" / "example", campaign)
    ansi = _run_pty(["-C", str(campaign), *args], 80)
    console = Console(record=True, width=80, force_terminal=True, color_system="truecolor", file=open("/dev/null", "w"))
    console.print(Text.from_ansi(ansi.rstrip("\n")))
    svg = work / (out.stem + ".svg")
    svg.write_text(console.export_svg(title="drunagor " + " ".join(args)), encoding="utf-8")
    lines = ansi.count("\n") + 1
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


if __name__ == "__main__":
    main()

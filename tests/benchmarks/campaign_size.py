"""Size benchmark (issue 46 item 2): `show` and `check` as fresh processes of the installed script on
campaigns of 5, 50 and 500 Campaign Logs (every hero active, each with a Spoils card handed over by
the next one: the rewards of every hero ask about every other), and on the example with one hero's
log holding 10, 1,000 and 9,999 statuses (unknown names: each is a finding of `check`, with its line).
Every view and check should grow linearly with what the campaign holds: the cost per Campaign Log or
per status stays about the same from the smallest size to the largest.

    python tests/benchmarks/campaign_size.py [--runs N] [--keep DIR]

Prints, for each command and size, the median wall time, the time per log (or status) above the
smallest campaign's, and the ratio of each step to the one before it beside the ratio of the sizes.
Not a test: nothing here asserts, it measures and prints.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXAMPLE = HERE.parent.parent / "campaigns" / "example"
LOGS = (5, 50, 500)
STATUSES = (10, 1_000, 9_999)
CLASSES = (("Cleric", "Support"), ("Mage", "Controller"), ("Assassin", "Striker"), ("Warrior", "Tank"))


def drunagor() -> str:
    here = Path(sys.executable).parent
    found = here / "drunagor" if (here / "drunagor").exists() else shutil.which("drunagor")
    if not found:
        sys.exit("the drunagor script is not installed beside this Python")
    return str(found)


def logs_campaign(top: Path, n: int) -> Path:
    root = top / f"logs-{n}"
    shutil.copytree(EXAMPLE, root)
    for p in (root / "heroes").iterdir():
        p.unlink()
    for i in range(n):
        cls, role = CLASSES[i % len(CLASSES)]
        giver = f"Hero {(i + 1) % n:04d}"
        (root / "heroes" / f"hero-{i:04d}.toml").write_text(
            f'schema = 1\nname = "Hero {i:04d}"\nclass = "{cls}"\nrole = "{role}"\nplayer = "P{i}"\njoined = "01"\n'
            'statuses = []\nclass_abilities = ["An ability (chapter 03)"]\nskills = [\n'
            '  { name = "Wisdom 1", tree = "wisdom", level = 1, chapter = "01" },\n]\nequipment = [\n'
            '  { name = "Blooded Sword", kind = "starting", place = "equipped" },\n'
            f'  {{ name = "Astral Symbol", kind = "spoils", quality = "standard", place = "bag", from = "{giver}" }},\n'
            ']\n')
    story = root / "story.toml"
    story.write_text(story.read_text().replace('leader = "Andreas"', 'leader = "Hero 0000"'))
    return root


def statuses_campaign(top: Path, n: int) -> Path:
    root = top / f"statuses-{n}"
    shutil.copytree(EXAMPLE, root)
    nyx = root / "heroes" / "nyx.toml"
    entries = "".join(f'  "Status {i:04d}",\n' for i in range(n))
    text = nyx.read_text()
    start = text.index("statuses = ")
    end = text.index("\n", start)
    nyx.write_text(text[:start] + "statuses = [\n" + entries + "]" + text[end:])
    return root


def timed(cmd: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def table(title: str, sizes: tuple[int, ...], roots: dict[int, Path], runs: int, unit: str, one: str) -> None:
    exe = drunagor()
    print(f"\n{title}")
    for command in ("show", "check"):
        figures = {n: timed([exe, "-C", str(roots[n]), command], runs) for n in sizes}
        base = sizes[0]
        for k, n in enumerate(sizes):
            line = f"  {command:<6}{n:>6} {unit}: {figures[n]:7.3f} s"
            if k:
                prev = sizes[k - 1]
                per = (figures[n] - figures[base]) / (n - base) * 1000
                line += (f"   {per:6.3f} ms per {one} above {base}; x{figures[n] / figures[prev]:.2f} "
                         f"for x{n / prev:.0f} the {unit}")
            print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="build the campaigns here and leave them")
    args = parser.parse_args()
    top = args.keep or Path(tempfile.mkdtemp(prefix="drunagor-size-"))
    top.mkdir(parents=True, exist_ok=True)
    try:
        logs = {n: logs_campaign(top, n) for n in LOGS}
        statuses = {n: statuses_campaign(top, n) for n in STATUSES}
        for root in (*logs.values(), *statuses.values()):  # the parse cache warm, as a player's second command
            subprocess.run([drunagor(), "-C", str(root), "check"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        table("Campaign Logs (every hero active)", LOGS, logs, args.runs, "logs", "log")
        table("statuses in one Campaign Log (unknown names)", STATUSES, statuses, args.runs, "statuses", "status")
    finally:
        if not args.keep:
            shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    main()

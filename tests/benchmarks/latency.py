"""Latency benchmark (SPEC section 7): fresh processes of drunagor's commands against the
framework's floor, on the long-campaign fixture and on a copy with ten times the history.

    python tests/benchmarks/latency.py [--runs N] [--keep DIR]

It builds the fixtures with drunagor's own commands (in process, so the files are exactly what the
tool writes), compiles the package's bytecode (what a normal install has), then times each command
as a fresh process N times and prints the medians and ratios. Targets: every command at most 1.3 x
the floor's median (`--help` against the floor's `--help`); on ten times the history at most 1.1 x
its own figure. The `reported` commands (`drunagor sheet`, which renders the whole campaign) are measured
and printed the same way, with no target. Not a test: nothing here asserts, it measures and prints.
"""

from __future__ import annotations

import argparse
import compileall
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
FLOOR = HERE / "floor_app.py"
FLOOR_RICH = HERE / "floor_rich_app.py"  # one Rich table: the fair floor for output on a terminal

HEROES = [  # name, role, class (the fifth is a hero from another product: any name with a class)
    ("Andreas", "Support", None),
    ("Catharina", "Controller", None),
    ("Nyx", "Striker", None),
    ("Vacrem", "Defender", None),
    ("Lordwrath", "Leader", "Warrior"),
]
GEAR = {"Andreas": ("Blooded Sword", "Plate Armor"), "Catharina": ("Wooden Staff", "Cloth Armor"),
        "Nyx": ("Blooded Sword", "Leather Armor"), "Vacrem": ("Jagged Blade Axe", "Plate Armor"),
        "Lordwrath": ("Jagged Blade Axe", "Leather Armor")}
RAID_CHAPTERS = ("02", "05", "08")  # the chapters with a Dreadful Raid card (catalog)
SPOILS = ["Astral Symbol", "Chaos Staff", "Twin-Blades", "Heavy Shield", "War Bow",
          "Buckler", "Grimoire", "Rogue's Vest", "Cornucopia", "Battle Plate"]


def drunagor(root: Path, *args: str) -> None:
    """Run one drunagor command in process on the campaign at `root`; fail loudly."""
    from typer.testing import CliRunner

    from drunagor_log.cli.app import app

    r = CliRunner().invoke(app, ["-C", str(root), *args], catch_exceptions=False)
    if r.exit_code != 0:
        raise SystemExit(f"fixture step failed: drunagor {' '.join(args)}\n{r.stdout}{r.stderr}")


def build(base: Path, name: str, losses_per_chapter: int) -> Path:
    """5 heroes; chapters 01-07 won (each after `losses_per_chapter` lost attempts), chapter 08
    (No Regrets, a Dreadful Raid chapter) lost `2 + 3 * losses_per_chapter` times and under way again:
    9 archived adventures with 0 losses, 90 with 9."""
    from typer.testing import CliRunner

    from drunagor_log import catalog
    from drunagor_log.cli.app import app

    r = CliRunner().invoke(app, ["new", name, "--dir", str(base), "--max-heroes", "5",
                                 "--party", "Safeguard Corporation"], catch_exceptions=False)
    assert r.exit_code == 0, r.stdout + r.stderr
    root = base / name
    for hero, role, cls in HEROES:
        args = ["hero", "add", hero, "--role", role, "--player", hero[:3]]
        if cls:
            args += ["--class", cls]
        for g in GEAR[hero]:
            args += ["--gear", g]
        drunagor(root, *args)
    drunagor(root, "leader", "Andreas")
    seed = 0
    spoils = iter(SPOILS * 10)

    def play(chapter: str, won: bool) -> None:
        nonlocal seed
        # --models: the fixture's own record of the scenario monster's model count (the catalog
        # does not know it; a party records it once). Any number serves a benchmark.
        extra = ["--models", "4"] if chapter in ("02", "08") else []
        drunagor(root, "adventure", "start", chapter, *extra)
        if catalog.chapter(chapter).darkness_nodes:
            drunagor(root, "pile", "add")
        for _ in range(4):
            seed += 1
            if chapter in RAID_CHAPTERS:
                drunagor(root, "raid", "--seed", str(seed))
            else:
                drunagor(root, "draw", "--rune", ("red", "blue", "green", "orange")[seed % 4])
        drunagor(root, "adventure", "end", "--won" if won else "--lost")

    for n in range(1, 9):
        ch = f"{n:02d}"
        for _ in range(losses_per_chapter if ch != "08" else 2 + 3 * losses_per_chapter):
            play(ch, won=False)
        if ch == "08":
            break
        play(ch, won=True)
        # record the rewards each hero now owes (RB L1005-1016 differences)
        for hero, _, _ in HEROES:
            if ch in ("01", "04", "08"):
                drunagor(root, "hero", "learn", hero, f"Skill {ch}", "--tree", "melee", "--level", "1")
            if ch == "06":
                drunagor(root, "hero", "learn", hero, f"Skill {ch}", "--tree", "wisdom", "--level", "2")
            if ch in ("03", "05"):
                drunagor(root, "hero", "ability", hero, f"Ability {ch}")
                drunagor(root, "hero", "gain", hero, next(spoils))
    drunagor(root, "adventure", "start", "08")
    drunagor(root, "pile", "add")
    drunagor(root, "pile", "add")
    # the Growing Influence card's draws, recorded once under [cards] as a party does at its first end of
    # round; the round itself is taken back, so the adventure under way is as before
    drunagor(root, "round", "end", "--draws", "2", "--seed", "1")
    drunagor(root, "round", "end", "--draws", "3", "--seed", "2")
    drunagor(root, "adventure", "undo", "--steps", "2")
    return root


def run_once(cmd: list[str], reset=None) -> float:
    if reset:
        reset()
    env = dict(os.environ, NO_COLOR="1")
    t = time.perf_counter()
    subprocess.run(cmd, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t


def run_once_tty(cmd: list[str], reset=None, cols: int = 80) -> float:
    """One fresh process whose output goes to a pseudo-terminal `cols` wide (a colour terminal)."""
    import fcntl
    import pty
    import struct
    import termios

    if reset:
        reset()
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, cols, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS")}
    env["TERM"] = "xterm-256color"
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
    os.close(slave)
    while True:
        try:
            if not os.read(master, 65536):
                break
        except OSError:
            break
    proc.wait()
    elapsed = time.perf_counter() - t
    os.close(master)
    return elapsed


def measure(jobs: dict[str, tuple[list[str], object]], runs: int) -> dict[str, float]:
    """Median seconds of each job. The jobs take turns (round robin), so a machine that slows down
    or speeds up during the run shifts every figure alike instead of skewing the ratios."""
    samples: dict[str, list[float]] = {k: [] for k in jobs}
    for name, (cmd, reset) in jobs.items():  # one untimed warm-up each (disk and bytecode caches)
        (run_once_tty if name.startswith("tty ") else run_once)(cmd, reset)
    for _ in range(runs):
        for name, (cmd, reset) in jobs.items():
            samples[name].append((run_once_tty if name.startswith("tty ") else run_once)(cmd, reset))
    return {k: statistics.median(v) for k, v in samples.items()}


#: The commands measured that write adventure.toml: each run starts from the same file.
WRITING = ("raid", "round end", "pile remove", "monster add")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=21, help="fresh processes per command (median taken)")
    ap.add_argument("--keep", type=Path, help="build the fixtures here and keep them")
    args = ap.parse_args()

    sys.path.insert(0, str(REPO))
    compileall.compile_dir(REPO / "drunagor_log", quiet=1)
    compileall.compile_file(FLOOR, quiet=1)
    compileall.compile_file(FLOOR_RICH, quiet=1)
    base = args.keep or Path(tempfile.mkdtemp(prefix="drunagor-bench-"))
    base.mkdir(parents=True, exist_ok=True)
    print(f"building fixtures in {base} ...", file=sys.stderr)
    long = build(base, "long", losses_per_chapter=0)
    tenfold = build(base, "tenfold", losses_per_chapter=9)

    exe = shutil.which("drunagor", path=str(Path(sys.executable).parent)) or shutil.which("drunagor")
    if not exe:
        raise SystemExit("the drunagor script is not installed (run the README's install first)")
    py = sys.executable
    commands = [
        ("show", ["show"]),
        ("hero show", ["hero", "show", "Andreas"]),
        ("raid --dry-run", ["raid", "--dry-run", "--seed", "7"]),
        ("raid", ["raid", "--seed", "7"]),
        ("round end -n", ["round", "end", "--dry-run", "--seed", "7"]),  # SPEC 10, issue 25: as fast as raid
        ("round end", ["round", "end", "--seed", "7"]),
        ("adventure show", ["adventure", "show"]),
        ("chapter show", ["chapter", "show", "8"]),
        ("pile remove", ["pile", "remove", "1"]),
        ("monster add", ["monster", "add", "Gremlin Horde"]),
        ("check", ["check"]),
        ("--help", ["--help"]),
    ]
    reported = [  # measured and printed, not held to the targets (issue 15)
        ("sheet", ["sheet", "--out", "-"]),
    ]
    jobs: dict[str, tuple[list[str], object]] = {
        "pass": ([py, "-c", "pass"], None),
        "floor": ([py, str(FLOOR), "--name", "x"], None),
        "floor --help": ([py, str(FLOOR), "--help"], None),
    }
    tty_commands = [("show", ["show"]), ("raid --dry-run", ["raid", "--dry-run", "--seed", "7"])]
    jobs["tty floor"] = ([py, str(FLOOR_RICH), "--name", "x"], None)
    for label, cmd in tty_commands:
        jobs[f"tty {label}"] = ([exe, "-C", str(long), *cmd], None)
    saved = {root: (root / "adventure.toml").read_bytes() for root in (long, tenfold)}
    for label, cmd in commands + reported:
        for root in (long, tenfold):
            def reset(root=root):
                (root / "adventure.toml").write_bytes(saved[root])  # each writing raid starts alike
            jobs[f"{label}@{root.name}"] = ([exe, "-C", str(root), *cmd], reset if label in WRITING else None)
    commands.append(("complete hero", []))  # a shell's completion request (bash) for a hero's name
    for root in (long, tenfold):
        # as the bash script asks: the line up to the cursor, and the text bash will replace
        jobs[f"complete hero@{root.name}"] = (["env", "_DRUNAGOR_COMPLETE=bash", exe,
                                               f"drunagor -C {root} hero show ", ""], None)
    med = measure(jobs, args.runs)
    for root in (long, tenfold):
        (root / "adventure.toml").write_bytes(saved[root])
    bare, floor, floor_help = med["pass"], med["floor"], med["floor --help"]
    rows = []
    for label, _ in commands + reported:
        a, b = med[f"{label}@long"], med[f"{label}@tenfold"]
        ref = floor_help if label == "--help" else floor
        rows.append((label, a, a / ref, b, b / a))
    budgeted = {label for label, _ in commands}

    print(f"\nmachine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"{platform.system()} {platform.release()}; {args.runs} runs each, medians")
    print(f"python -c pass           {bare * 1000:7.1f} ms")
    print(f"floor (typer, 1 command) {floor * 1000:7.1f} ms")
    print(f"floor --help             {floor_help * 1000:7.1f} ms\n")
    print(f"{'command':<16}{'long ms':>9}{'x floor':>9}{'  target':>9}{'10x hist ms':>13}{'x own':>8}{'  target':>9}")
    for label, a, ra, b, rb in rows:
        t1 = ("<=1.3 " + ("ok" if ra <= 1.3 else "OVER")) if label in budgeted else "report"
        t2 = ("<=1.1 " + ("ok" if rb <= 1.1 else "OVER")) if label in budgeted else "report"
        print(f"{label:<16}{a * 1000:9.1f}{ra:9.2f}{t1:>9}{b * 1000:13.1f}{rb:8.2f}{t2:>9}")
    tty_floor = med["tty floor"]
    print(f"\non a terminal (pseudo-terminal, 80 columns, colour):\nfloor (typer + one Rich table) {tty_floor * 1000:7.1f} ms")
    for label, _ in tty_commands:
        a = med[f"tty {label}"]
        print(f"{label:<16}{a * 1000:9.1f}{a / tty_floor:9.2f}{'<=1.2 ' + ('ok' if a / tty_floor <= 1.2 else 'OVER'):>9}")
    if not args.keep:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()

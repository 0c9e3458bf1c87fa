"""Benchmark of the chronicle (issue 45): `recap` and `stats` against `show` on the long-campaign fixture
(latency.py's: 5 heroes, 9 archived adventures, chapter 08 under way) grown to 2,000 table events, each
archive's raids and draws repeated with their facts, as drunagor writes them (through the codec).

    python tests/benchmarks/chronicle.py [--runs N] [--events N] [--git]

Fresh processes, round robin, medians; target: `recap` and `stats` within 1.2 x `show`. With `--git` the
campaign is committed in a repository first, so `recap` reads its history (its git probes are counted).
Not a test: nothing here asserts, it measures and prints.
"""

from __future__ import annotations

import argparse
import compileall
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent))

from latency import REPO, build, cpu_once, measure  # noqa: E402


def grow(root: Path, events: int) -> int:
    """Repeat the table events of each archive (but its start and end) until the archives hold `events`."""
    import tomllib

    from drunagor_log.store import adventure as codec

    paths = sorted((root / "adventures").glob("*.toml"))
    states = [codec.state_from(tomllib.loads(p.read_text())) for p in paths]
    total = sum(len(s.log) for s in states)
    i = 0
    while total < events:
        s = states[i % len(states)]
        middle = [e for e in s.log if e.get("event") not in ("start", "end")] or list(s.log)
        extra = middle[: min(len(middle), events - total)]
        states[i % len(states)] = s.replace(log=s.log[:-1] + tuple(extra) + s.log[-1:])
        total += len(extra)
        i += 1
    for path, state in zip(paths, states, strict=True):
        path.write_text(codec.dumps(state))
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--git", action="store_true", help="commit the campaign in a repository first")
    args = parser.parse_args()
    compileall.compile_dir(str(REPO / "drunagor_log"), quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        root = build(base, "long", 0)
        total = grow(root, args.events)
        if args.git:
            env = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x", "GIT_COMMITTER_NAME": "b",
                   "GIT_COMMITTER_EMAIL": "b@x"}
            import os

            for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "the campaign"]):
                subprocess.run(["git", *cmd], cwd=base, check=True, env={**os.environ, **env})
        exe = str(Path(sys.executable).with_name("drunagor"))
        jobs = {name: ([exe, "-C", str(root), *cmd], None) for name, cmd in
                (("show", ["show"]), ("recap", ["recap"]), ("recap --since 01", ["recap", "--since", "01"]),
                 ("stats", ["stats"]), ("stats --json", ["stats", "--json"]))}
        medians = measure(jobs, args.runs)
        cpu: dict[str, list[float]] = {k: [] for k in jobs}
        for _ in range(args.runs):  # CPU seconds: what a command costs whatever else the machine runs
            for name, (cmd, _reset) in jobs.items():
                cpu[name].append(cpu_once(cmd))
    archives = len(list((root / "adventures").glob("*.toml"))) if root.exists() else 9
    print(f"long campaign, {archives or 9} archives, {total} table events archived, git: {args.git}, "
          f"{args.runs} runs")
    import statistics

    floor = medians["show"]
    cpu_floor = statistics.median(cpu["show"])
    print(f"  {'command':<18} {'wall':>10} {'ratio':>7}   {'cpu':>10} {'ratio':>7}")
    for name, seconds in medians.items():
        used = statistics.median(cpu[name])
        print(f"  {name:<18} {seconds * 1000:7.1f} ms {seconds / floor:6.2f} x   {used * 1000:7.1f} ms "
              f"{used / cpu_floor:6.2f} x")


if __name__ == "__main__":
    main()

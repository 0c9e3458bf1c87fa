"""A write beside a 1 MB comment line (issue 40, item 7), timed in a subprocess: not run by pytest.

    .venv/bin/python tests/benchmarks/long_comment.py

Copies the example campaign, appends a comment line of 1,000,000 characters to story.toml, and times
`drunagor leader Nyx` (the installed script) five times, printing the best and the worst in seconds.
Before store/tomlkit_adapter.editable tomlkit read the whole line: about 2 s of CPU (8 s under load).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "campaigns" / "example"
DRUNAGOR = Path(sys.executable).parent / "drunagor"


def main() -> None:
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for leader in ("Nyx", "Andreas", "Nyx", "Andreas", "Nyx"):
            root = Path(tmp) / "example"
            if not root.exists():
                shutil.copytree(EXAMPLE, root)
                story = root / "story.toml"
                story.write_text(story.read_text() + "# " + "x" * 1_000_000 + "\n")
            start = time.perf_counter()
            subprocess.run([str(DRUNAGOR), "-C", str(root), "leader", leader], check=True, capture_output=True)
            times.append(time.perf_counter() - start)
    print(f"leader beside a 1 MB comment line: best {min(times):.3f} s, worst {max(times):.3f} s")


if __name__ == "__main__":
    main()

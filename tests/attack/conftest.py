"""The attack suites: every front end attacked with hostile input, each run bounded (bounded.py)."""

from __future__ import annotations

from . import bounded


def pytest_terminal_summary(terminalreporter):
    figures = bounded.worst()
    if not figures:
        return
    terminalreporter.write_line("attack suites: worst wall time and peak memory per front end")
    for surface, (seconds, peak_kib, runs) in sorted(figures.items()):
        terminalreporter.write_line(f"  {surface}: {runs} bounded runs, worst {seconds:.2f} s, "
                                    f"peak <= {peak_kib // 1024} MiB")

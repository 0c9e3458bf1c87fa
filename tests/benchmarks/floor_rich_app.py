"""The floor for drunagor's terminal output (issue 20): a minimal Typer app with one command that
prints one Rich table to the terminal. `show` and `raid` in a pseudo-terminal are measured against
it in tests/benchmarks/latency.py."""

import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer(add_completion=False)


@app.command()
def hello(name: str = "party") -> None:
    """Print one table."""
    t = Table(title="Heroes")
    for h in ("Hero", "Class"):
        t.add_column(h)
    t.add_row(name, "Cleric")
    Console().print(t)


if __name__ == "__main__":
    app()

"""The framework's floor for the latency benchmark: a minimal Typer app with one command.
drunagor's commands are measured against this (SPEC section 7)."""

import typer

app = typer.Typer(add_completion=False)


@app.command()
def hello(name: str = "party") -> None:
    """Say hello."""
    print(f"hello {name}")


if __name__ == "__main__":
    app()

"""Commands of this area are registered here (see cli/app.py)."""

import typer


def register(app: typer.Typer) -> None:
    pass

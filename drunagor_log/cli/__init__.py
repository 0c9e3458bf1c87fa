"""The command line. `main` is the `drunagor` script (pyproject.toml) and `python -m drunagor_log`."""


def main() -> None:
    """Run the command line as a program: import it, run the command typed, leave.

    A short-lived process gains nothing from Python's cyclic garbage collector over the objects its
    imports create (modules, classes, functions: they live until the process ends), yet the collector
    walks them several times during start-up, and again at exit while the interpreter tears down.
    So it is paused while the command line is imported, and what the imports made is then frozen
    (gc.freeze: moved out of the collector's sight, not leaked; those objects lived to the end anyway),
    and frozen again when the command ends. The command itself runs with the collector on, as ever.
    Measured by tests/benchmarks/latency.py: about a fifth of a command's time (docs/speed.md)."""
    import gc

    gc.disable()
    try:
        from .app import main as run
    finally:
        gc.freeze()
        gc.enable()
    try:
        run()
    finally:
        gc.freeze()

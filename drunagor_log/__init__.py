"""drunagor: a command-line companion for Chronicles of Drunagor: Awakenings campaigns."""

# The one place the version is written: pyproject.toml reads it (setuptools' dynamic version), the
# caches stamp their entries with it, and `drunagor --version` prints the installed metadata's.
__version__ = "0.1.0"


def installed_version() -> str:
    """The version of the installed distribution, from its metadata, when this very code is what was
    installed (a wheel); else (a source checkout, an editable install, run with PYTHONPATH) the
    version written above. Only `drunagor --version` asks: importlib.metadata costs milliseconds."""
    import os
    from importlib import metadata

    try:
        dist = metadata.distribution("drunagor")
    except metadata.PackageNotFoundError:
        return __version__
    here = os.path.realpath(__file__)
    try:
        installed = os.path.realpath(str(dist.locate_file("drunagor_log/__init__.py")))
    except (OSError, ValueError):
        return __version__
    return dist.version if installed == here else __version__

"""drunagor: a command-line companion for Chronicles of Drunagor: Awakenings campaigns."""

__version__ = "0.1.0"

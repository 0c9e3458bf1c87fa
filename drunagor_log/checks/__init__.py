"""`drunagor check`: every rule is one small registered check with a name.

The registry and the run are in `registry.py` (`check`, `problem`, `run_checks`); the checks, one
module per area of the game, register themselves there when `run_checks` loads them.
"""

from .registry import REGISTRY, ArchiveCache, Check, check, problem, run_checks

__all__ = ["REGISTRY", "ArchiveCache", "Check", "check", "problem", "run_checks"]

"""The toolbar's every row through the output rule (issue 40, item 4), without a process: the board's
read is given (the pseudo-terminal test is tests/play/test_screen_visible.py)."""

from __future__ import annotations

import pytest

from drunagor_log.play import status


@pytest.mark.parametrize("where", ["cubes", "lost", "monsters"])
def test_every_row_of_the_toolbar_goes_through_the_output_rule(where, monkeypatch, tmp_path):
    """The hero near their cube limit and the LOST row too (no process: the board read is given)."""
    odd = "Ny\u202ex\u2066"
    data = {"chapter": "05", "title": "Tempest Island", "round": 3, "runes_in_bag": 1, "bag": {"red": 1},
            "raid": None, "monsters": [{"name": odd if where == "monsters" else "Bane", "slot": None}],
            "cubes": {odd if where == "cubes" else "Nyx": {"trauma": 2, "curse": 0, "trauma_limit": 1,
                                                          "curse_capacity": None}},
            "lost": f"{odd} is defeated" if where == "lost" else None}
    monkeypatch.setattr(status, "_table", lambda root: (data, []))
    shown = "".join(t for _, t in status.Status(tmp_path / "ours", colour=False).fragments(80))
    assert "Ny<U+202E>x<U+2066>" in shown and "\u202e" not in shown and "\u2066" not in shown


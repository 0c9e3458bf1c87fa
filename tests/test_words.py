"""drunagor_log/text.py, the bottom text module (issue 33): the words every layer writes with."""

from __future__ import annotations

import shlex

from hypothesis import given
from hypothesis import strategies as st

from drunagor_log.text import article, joined, plural, shell_word


def test_plural_article_and_joined():
    assert (plural(1, "rune"), plural(2, "rune"), plural(0, "hero", "heroes")) == ("1 rune", "2 runes", "0 heroes")
    assert (article("Outcome"), article("hero status")) == ("an", "a")
    assert [joined([]), joined(["a"]), joined(["a", "b"]), joined(["a", "b", "c"])] == ["", "a", "a and b",
                                                                                         "a, b and c"]
    assert joined(["mine", "theirs"], "or") == "mine or theirs"


def test_a_name_that_needs_no_quoting_is_printed_as_it_is():
    assert shell_word("Nyx") == "Nyx"
    assert shell_word("campaigns/example") == "campaigns/example"


def test_a_name_is_double_quoted_as_a_player_types_it_unless_a_shell_reads_something_inside():
    # the remedies quoted by hand in double quotes, and rules.heroes.quote did not escape `$` or a backquote
    assert shell_word("Artisan's Tools") == '"Artisan\'s Tools"'
    assert shell_word("Vitality Potion") == '"Vitality Potion"'
    assert [shell_word(n) for n in ('say "hi"', "a $HOME", "a `b`", "a\\b", "Oi!")] == [
        "'say \"hi\"'", "'a $HOME'", "'a `b`'", "'a\\b'", "'Oi!'"]


@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"), min_size=1))
def test_a_shell_reads_every_quoted_name_back_as_one_word(name):
    # ops/losing quoted a name with a space in double quotes, so a `"`, `$` or backquote in it broke
    # the command printed in the remedy
    assert shlex.split(f"drunagor recall {shell_word(name)} --capacity N") == ["drunagor", "recall", name,
                                                                              "--capacity", "N"]

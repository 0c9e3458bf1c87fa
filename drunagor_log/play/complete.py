"""Completion as you type, from the same source as `drunagor completion`.

The candidates come from cli/completion.py's table (commands, options, heroes, the cards a hero holds,
monsters on the board, chapters, colours, the catalog's names) attached to the session's own command
tree, and asked through Click's completion machinery with the words typed so far: what bash, zsh and
fish are offered for the same words. A candidate of several words is inserted as one quoted word
(`"Gremlin Horde"`), quoted the way the session splits lines (shlex), so it arrives as one argument.

Completion runs on every key, so the candidates of the words before the one being typed are kept
while the campaign's files are unchanged (watch.stamp); the word being typed only filters them.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout.processors import Processor, Transformation, TransformationInput
from prompt_toolkit.layout.utils import explode_text_fragments

from ..cli import completion
from ..cli.app import COMMANDS, command_typed
from ..text import visible
from .dispatch import LEAVE, Dispatcher, session_words
from .watch import Busy, stamp, without_waiting

MAX_CANDIDATES = 200
SAFE = re.compile(r"[\w@%+=:,./-]+")  # a word the session's split keeps as it is
SESSION = (*LEAVE, "help", "undo")


def partial(text: str) -> tuple[list[str], str, int]:
    """The words complete before the cursor, the word being typed (its value, quotes taken off), and
    how many characters of `text` that word spans, as shlex.split reads the line."""
    words: list[str] = []
    current: list[str] = []
    start = None
    quote = None
    i = 0
    while i < len(text):
        ch = text[i]
        escaped = ch == "\\" and i + 1 < len(text) and (quote is None or (quote == '"' and text[i + 1] in '"\\'))
        if quote is None and ch.isspace():
            if start is not None:
                words.append("".join(current))
                current, start = [], None
        else:
            start = i if start is None else start
            if escaped:
                current.append(text[i + 1])
                i += 1
            elif quote is None and ch in "'\"":
                quote = ch
            elif ch == quote:
                quote = None
            else:
                current.append(ch)
        i += 1
    return words, "".join(current), 0 if start is None else len(text) - start


def quoted(value: str) -> str:
    """`value` as one word of a line (shlex.split gives it back whole)."""
    if SAFE.fullmatch(value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Candidates:
    """What may come next after some words, for one campaign's session."""

    def __init__(self, dispatcher: Dispatcher):
        self.dispatcher = dispatcher
        self._kept: dict[tuple, list[tuple[str, str]]] = {}
        self._stamp: tuple | None = None

    def __call__(self, words: list[str], incomplete: str) -> list[tuple[str, str]]:
        """(value, help) of each candidate for the word `incomplete` after `words`."""
        mapped = session_words(words) if words else []
        if mapped is None:
            return []
        now = stamp(self.dispatcher.root)
        if now != self._stamp:
            self._kept.clear()
            self._stamp = now
        option = incomplete.startswith("-")
        if option and "=" in incomplete:  # --rune=re: the value of --rune
            name, _, incomplete = incomplete.partition("=")
            mapped, option = [*mapped, name], False
        # red,gr: the items of a list before the one typed are asked for (a list completes item by item)
        head = "" if option else incomplete[:max(incomplete.rfind(","), incomplete.rfind("+")) + 1]
        key = (tuple(mapped), option, head)
        if key not in self._kept:
            try:
                with without_waiting(self.dispatcher.root):
                    self._kept[key] = self.ask(mapped, "-" if option else head)
            except Busy:  # another drunagor is writing: nothing offered now, asked again at the next key
                return []
        low = incomplete.casefold()
        return [(v, h) for v, h in self._kept[key] if v.casefold().startswith(low)][:MAX_CANDIDATES]

    def ask(self, words: list[str], incomplete: str) -> list[tuple[str, str]]:
        """Click's answer for the command tree (what a shell is told)."""
        args = [*self.dispatcher.front, *words]
        typed = command_typed(args)
        if typed is None and not incomplete:  # the command itself: every name `drunagor` has
            return [(name, "") for name in sorted({*COMMANDS, *SESSION} - {"play"})]
        tree = self.dispatcher.tree(typed if typed is not None else next(iter(COMMANDS)))
        try:
            return completion.ask(tree, args, incomplete)
        except Exception:  # completion never shows an error while typing
            return []


class VisibleInput(Processor):
    """The line being typed drawn through the output rule too (`text.visible`): a name the completion
    inserted, or a suggestion from the history, that holds a bidi override shows it as <U+202E>; the
    buffer keeps the characters themselves, for the resolver, and the cursor moves over the shown form."""

    def apply_transformation(self, ti: TransformationInput) -> Transformation:
        if visible("".join(f[1] for f in ti.fragments)) == "".join(f[1] for f in ti.fragments):
            return Transformation(ti.fragments)
        out: StyleAndTextTuples = []
        starts: list[int] = []  # where each character of the line starts on the screen
        at = 0
        for fragment in explode_text_fragments(ti.fragments):
            shown = visible(fragment[1])
            starts.append(at)
            out.append((fragment[0], shown, *fragment[2:]))
            at += len(shown)
        starts.append(at)
        last = len(starts) - 1

        def to_display(i: int) -> int:
            return starts[i] if i <= last else at + i - last

        def to_source(d: int) -> int:
            return last + d - at if d >= at else bisect_right(starts, d) - 1

        return Transformation(out, to_display, to_source)


class TableCompleter(Completer):
    """prompt_toolkit's view of Candidates: each one replaces the word being typed."""

    def __init__(self, candidates: Candidates):
        self.candidates = candidates

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        words, current, span = partial(document.text_before_cursor)
        if current.startswith("-") and "=" in current:  # only the value after the = is replaced
            span = len(document.text_before_cursor) - document.text_before_cursor.rindex("=") - 1
        for value, help_text in self.candidates(words, current):
            # the menu draws each candidate and its help through the output rule (a name's bidi override
            # shows as <U+202E>); the word inserted is the value itself, for the resolver
            yield Completion(quoted(value), start_position=-span, display=visible(value),
                             display_meta=visible(help_text))

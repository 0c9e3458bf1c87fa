"""The two ways a session runs: the prompt on a terminal, and a script of lines from standard input.

On a terminal (standard input and output both are one), prompt_toolkit reads each line with
completion as you type, the campaign's history (Up, Ctrl-R) and the status toolbar; Ctrl-C clears the
line being typed, Ctrl-D on an empty line, `exit` or `quit` leave. Between two lines the session holds
no lock and no open file: a second `drunagor` in another terminal runs as if no session were open.

Otherwise the lines are read from standard input and run in order, and the session prints exactly
what the commands print (the same bytes on stdout and on stderr as each one-shot command, in order),
nothing else: no prompt, no echo, no toolbar. A line the session itself refuses (a quote not closed,
`play` inside `play`, a line over MAX_LINE bytes or not UTF-8) prints `error: line N: ...` on stderr.
Blank lines and lines starting with `#` are skipped. The exit code is that of the first line that
failed (0 when every line succeeded); the lines after it still run, as at the table.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from ..cli.terminal import term
from .dispatch import Dispatcher, Outcome

PROMPT = "drunagor> "
RESERVED = 1  # rows prompt_toolkit keeps free from the prompt down, above the toolbar
WATCH = 1.0  # seconds between two looks at the campaign's files while the prompt waits
MAX_LINE = 64 * 1024  # bytes of one line of a script; a longer one is refused, never held whole


def run(option: str | None) -> int:
    """The session on the campaign `-C`/`--campaign` names (or the one found as every command finds
    it); its exit code."""
    from ..campaign import Campaign, find_campaign

    root = find_campaign(option)
    with Campaign(root):  # opened as every command opens it: an interrupted write finished, conflicts refused
        pass
    front = ["-C", option or str(root)] + (["--no-color"] if term.no_color else [])
    if _is_terminal(sys.stdin) and _is_terminal(sys.stdout):
        return prompt_loop(root, front)
    return script_loop(Dispatcher(root, front, script=True), sys.stdin)


def _is_terminal(stream: IO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        return False


def prompt_loop(root: Path, front: list[str]) -> int:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.application.current import get_app
    from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
    from prompt_toolkit.completion import ThreadedCompleter
    from prompt_toolkit.formatted_text import FormattedText
    from prompt_toolkit.history import InMemoryHistory
    from prompt_toolkit.output.color_depth import ColorDepth
    from prompt_toolkit.styles import Style

    from .complete import Candidates, TableCompleter, VisibleInput
    from .history import CampaignHistory, history_path
    from .status import PLAIN_STYLE, STYLE, Status

    dispatcher = Dispatcher(root, front)
    colour = term.rich
    status = Status(root, colour=colour)
    path = history_path(root)
    # Completion runs off the UI thread and the history suggests as you type (as pgcli does); drawing the
    # toolbar reads no file: the board is read between commands and by the watcher below.
    session: PromptSession[str] = PromptSession(
        history=CampaignHistory(path) if path is not None else InMemoryHistory(),
        completer=ThreadedCompleter(TableCompleter(Candidates(dispatcher))),
        complete_while_typing=True,
        input_processors=[VisibleInput()],  # the line typed through the output rule too
        auto_suggest=AutoSuggestFromHistory(),
        bottom_toolbar=lambda: FormattedText(status.fragments(get_app().output.get_size().columns)),
        style=Style.from_dict(STYLE if colour else PLAIN_STYLE),
        include_default_pygments_style=False,
        color_depth=None if colour else ColorDepth.DEPTH_1_BIT,
    )
    # A redraw at once, not put off while the loop has other work: put off (prompt_toolkit's default),
    # two redraws pending at once (the cursor position's answer, a key) each waited for the other to go,
    # turning the loop for up to 10 ms
    session.app.max_render_postpone_time = None
    waiting = threading.Event()  # set while the prompt waits for a line
    stop = threading.Event()
    threading.Thread(target=_watch, args=(status, session, waiting, stop), daemon=True).start()
    # One event loop for the whole session, not one per line: session.prompt() runs asyncio.run, which
    # makes a new loop, and a new thread pool for the completer that it joins, at every Enter. The loop
    # runs only while the prompt waits, so a command runs as it does alone (Ctrl-C stops it, and its own
    # asyncio.run works).
    loop = asyncio.new_event_loop()
    try:
        while True:
            status.refresh()  # after the command: what it wrote (one stat of each file when nothing)
            # the rows prompt_toolkit keeps under the prompt, the prompt's own counted: none blank above the
            # toolbar (8 unless told left 7 blank rows and scrolled an `adventure show` off a 24-row screen);
            # the completion menu takes its rows when it opens
            session.reserve_space_for_menu = RESERVED
            waiting.set()
            try:
                line = loop.run_until_complete(session.prompt_async(PROMPT))
            except KeyboardInterrupt:  # Ctrl-C: the line is dropped, the session goes on
                continue
            except EOFError:  # Ctrl-D on an empty line
                return 0
            finally:
                waiting.clear()
                _settle(loop, session.app)
            if dispatcher.handle(line).leave:
                return 0
    finally:
        stop.set()
        _close(loop)


def _settle(loop: asyncio.AbstractEventLoop, app) -> None:
    """Run what the prompt left scheduled (the redraw its Enter asked for) now that it is done, when
    it draws nothing, rather than as one more drawing of the next prompt."""
    for _ in range(8):  # one turn of the loop, mostly (a redraw is not put off, below)
        if not app.invalidated:
            return
        loop.run_until_complete(asyncio.sleep(0))


def _close(loop: asyncio.AbstractEventLoop) -> None:
    """What asyncio.run does as it ends: the tasks left cancelled, the completer's thread pool shut down."""
    try:
        tasks = asyncio.all_tasks(loop)
        for task in tasks:
            task.cancel()
        if tasks:
            loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.run_until_complete(loop.shutdown_default_executor())
    finally:
        loop.close()


def _watch(status, session, waiting: threading.Event, stop: threading.Event) -> None:
    """While the prompt waits, the toolbar follows changes made by another program (a second terminal,
    an editor, `git pull`): a stat of each campaign file every WATCH seconds, off the UI thread."""
    while not stop.wait(WATCH):
        if waiting.is_set() and status.refresh() and session.app.is_running:
            session.app.invalidate()


def script_loop(dispatcher: Dispatcher, stream: IO | None) -> int:
    failed = 0
    if stream is None:  # started with standard input closed: no line to run
        return 0
    try:
        for number, line in _lines(stream):
            outcome = _run_line(dispatcher, number, line)
            if outcome.leave:
                break
            failed = failed or outcome.code
    except (OSError, ValueError) as exc:  # standard input closed, or not readable at all
        term.error(f"cannot read the lines from standard input ({getattr(exc, 'strerror', None) or exc}); "
                   "give them through a pipe or a file: drunagor play < events.txt")
        return failed or 2
    return failed


def _run_line(dispatcher: Dispatcher, number: int, line: str | _Bad) -> Outcome:
    where = f"line {number}"
    return dispatcher.refuse(line.message, where) if isinstance(line, _Bad) else dispatcher.handle(line, where)


class _Bad:
    def __init__(self, message: str):
        self.message = message


def _lines(stream: IO) -> Iterator[tuple[int, str | _Bad]]:
    """Each line of `stream` (bytes read at most MAX_LINE at a time), decoded, without its end."""
    binary = getattr(stream, "buffer", None)

    def read() -> bytes:
        if binary is not None:
            return binary.readline(MAX_LINE + 1)
        return stream.readline(MAX_LINE + 1).encode("utf-8", "surrogateescape")

    number = 0
    while raw := read():
        number += 1
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):  # the rest of the long line, dropped
                raw = read()
            yield number, _Bad(f"longer than {MAX_LINE} bytes; nothing of it was run")
            continue
        try:
            text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError:
            yield number, _Bad("not UTF-8 text; nothing of it was run")
            continue
        yield number, text.rstrip("\r\n")

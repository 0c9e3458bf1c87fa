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
from typing import IO, Any

from ..cli.terminal import term
from .dispatch import Dispatcher, Outcome

PROMPT = "drunagor> "
RESERVED = 1  # rows prompt_toolkit keeps free from the prompt down, above the toolbar
WATCH = 1.0  # seconds between two looks at the campaign's files while the prompt waits
MAX_LINE = 64 * 1024  # bytes of one line of a script; a longer one is refused, never held whole


class Notices:
    """Lines from another thread for the scribe (a phone's action, `play --serve`): printed above the
    prompt while it waits, without disturbing the line being typed, and the toolbar read again; while
    a command runs, kept and printed before the next prompt."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: list[str] = []
        self._show: Any = None  # while the prompt waits: puts a line above it (from any thread)

    def say(self, line: str) -> None:
        with self._lock:
            if self._show is not None:
                self._show(line)
            else:
                self._pending.append(line)

    def waiting(self, show: Any) -> list[str]:
        """The prompt waits (`show`), or the command runs (None); the lines kept meanwhile."""
        with self._lock:
            self._show = show
            kept, self._pending = self._pending, []
        return kept


def run(option: str | None, served: Any = None, notices: Notices | None = None) -> int:
    """The session on the campaign `-C`/`--campaign` names (or the one found as every command finds
    it); its exit code. Under `play --serve`, `served` is the table's screen (`qr NAME` shows a
    hero's QR code) and `notices` the phones' lines."""
    from ..campaign import Campaign, find_campaign

    root = find_campaign(option)
    with Campaign(root):  # opened as every command opens it: an interrupted write finished, conflicts refused
        pass
    front = ["-C", option or str(root)] + (["--no-color"] if term.no_color else [])
    if _is_terminal(sys.stdin) and _is_terminal(sys.stdout):
        return prompt_loop(root, front, served, notices)
    if notices is not None:
        notices.waiting(term.message)  # a script's stdout holds the commands' output only
    return script_loop(Dispatcher(root, front, script=True), sys.stdin)


def _is_terminal(stream: IO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        return False


def prompt_loop(root: Path, front: list[str], served: Any = None, notices: Notices | None = None) -> int:
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

    above = _above(loop, session, status)
    try:
        while True:
            status.refresh()  # after the command: what it wrote (one stat of each file when nothing)
            # the rows prompt_toolkit keeps under the prompt, the prompt's own counted: none blank above the
            # toolbar (8 unless told left 7 blank rows and scrolled an `adventure show` off a 24-row screen);
            # the completion menu takes its rows when it opens
            session.reserve_space_for_menu = RESERVED
            waiting.set()
            for line in notices.waiting(above) if notices is not None else ():
                above(line)
            try:
                line = loop.run_until_complete(session.prompt_async(PROMPT))
            except KeyboardInterrupt:  # Ctrl-C: the line is dropped, the session goes on
                continue
            except EOFError:  # Ctrl-D on an empty line
                return 0
            finally:
                waiting.clear()
                for kept in notices.waiting(None) if notices is not None else ():
                    term.line(kept)
                _settle(loop, session.app)
            if _qr_typed(served, line):
                continue
            if dispatcher.handle(line).leave:
                return 0
    finally:
        stop.set()
        _close(loop)


def _above(loop: asyncio.AbstractEventLoop, session: Any, status: Any) -> Any:
    """What puts a phone's line above the waiting prompt, from any thread: in the prompt's loop, the
    prompt stepping aside for it (its typed line kept), then the toolbar read again."""
    from prompt_toolkit.application import run_in_terminal
    from prompt_toolkit.application.current import set_app

    def above(line: str) -> None:
        def shown() -> None:
            term.line(line)
            status.refresh()

        def scheduled() -> None:
            with set_app(session.app):  # the prompt's own application: it steps aside for the line
                run_in_terminal(shown)

        loop.call_soon_threadsafe(scheduled)

    return above


def _qr_typed(served: Any, line: str) -> bool:
    """Whether the line was `qr NAME` under `play --serve` (then done)."""
    words = line.split(maxsplit=1)
    if served is None or words[:1] != ["qr"]:
        return False
    show_qr(served, words[1] if len(words) > 1 else "")
    return True


def show_qr(served: Any, name: str) -> None:
    """`qr NAME`: the hero's URL as a QR code, on the scribe's terminal only."""
    found = served.hero_qr(name)
    if found is None:
        term.error(f"qr: no hero {name!r} with a phone this run; one of: {', '.join(served.heroes)}")
        return
    stem, qr = found
    term.raw(qr)
    term.line(f"{stem}: {served.heroes[stem]}")


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

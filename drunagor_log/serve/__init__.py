"""`drunagor serve`: the campaign as a live, read-only web view for everyone at the table.

A front end beside the command line, the table session and the sheets, over the same operations:
board.py reads the campaign once per change (the sheets' view, `adventure show`, `odds`, the next
chapter's briefing) for every viewer at once; pages.py draws the pages from that read (Jinja2,
autoescaped, invisible characters spelled out as the sheets do); app.py is the Starlette app and its
guard (GET only, the Host check, the `--lan` access key, the Content-Security-Policy, the bounded
live streams); doors.py closes the connections that send no request and keeps one address to its
share; server.py binds the socket, watches the campaign's files (watchfiles) and runs uvicorn.

uvicorn, Starlette, sse-starlette, watchfiles and segno are imported by this package only, inside the
functions that need them: no other command loads them (tests/cli/test_import_budget.py).
"""

from .server import DEFAULT_PORT, Served, run, running

__all__ = ["DEFAULT_PORT", "Served", "run", "running"]

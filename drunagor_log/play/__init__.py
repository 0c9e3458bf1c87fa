"""`drunagor play`: the table session (SPEC section 10), a front end of its own.

Each line is a drunagor command without the `drunagor` prefix. It runs in this process through the same
Typer command tree the one-shot command runs (dispatch.py), so it prints what the one-shot command
prints, byte for byte, and writes through the same store. Around it: completion as you type from the
same table as shell completion (complete.py), history per campaign in the user's cache folder
(history.py), and a status toolbar drawn from `adventure show`'s data (status.py). session.py holds the
two loops: the prompt on a terminal, and lines read from standard input otherwise.

prompt_toolkit is imported only here, and only by `drunagor play` (complete.py, history.py, session.py):
no other command pays for it.
"""

"""How drunagor and the shell pass a completion between them (SPEC sections 9 and 10): the script
each shell loads, how the shell's request reaches drunagor, and how each candidate goes back.

A campaign may come from a stranger, so a candidate is data from a file, never code. The shell
gives drunagor the words typed as arguments (never one string to split again), and reads the answer
one candidate a line with `read -r` into an array: nothing in the answer is evaluated, word-split or
glob-expanded by the script.

- zsh and fish get each value as it is, and quote it themselves on insertion (`compadd`, fish's
  `complete`), for the quoting open where the cursor is.
- bash inserts what it is given verbatim, so drunagor gives it each candidate already quoted, and
  quoted relative to the part of the word bash keeps: bash replaces only the text after the last
  word break (`'`, `"`, `:` or `=`) before the cursor. The script passes the line up to the cursor
  and that text; drunagor reads the line as bash does and quotes the rest of the candidate for the
  quoting open there (none, `'`, `"` or `$'`; see replacement_bash).

A candidate that holds a control character (newline, tab, NUL, escape ...) is never offered: it
cannot travel as one line, and printed in the list it would drive the terminal. One the terminal's
encoding cannot carry is not offered either, nor, to fish, one that starts with `~` (fish inserts
that `~` unescaped, and the word would become a home folder). An empty answer lets the shell
complete file names.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable
from typing import NamedTuple

COMPLETE_VAR = "_DRUNAGOR_COMPLETE"

# The candidates bash reads are already quoted for bash; `2>/dev/null`: completion never prints
# an error into the line being typed.
BASH = r"""_drunagor_completion() {
    local line
    COMPREPLY=()
    while IFS= read -r line; do
        COMPREPLY+=("$line")
    done < <(_DRUNAGOR_COMPLETE=bash command drunagor "${COMP_LINE:0:COMP_POINT}" "$2" 2>/dev/null)
    return 0
}
complete -o default -F _drunagor_completion drunagor"""

# compadd quotes every value for the context being typed (no -Q); -U: drunagor has matched them.
ZSH = r"""#compdef drunagor

_drunagor_completion() {
    emulate -L zsh
    local -a values shown
    local line value described=0 quote=$compstate[quote]
    # in a quote, PREFIX is the text after the opening quote, still quoted: closed, then unquoted
    local typed=${(Q)${:-$quote$PREFIX${quote#\$}}}
    while IFS= read -r line; do
        value=${line%%$'\t'*}
        values+=("$value")
        if [[ $line == *$'\t'* ]]; then
            shown+=("$value  -- ${line#*$'\t'}")
            described=1
        else
            shown+=("$value")
        fi
    done < <(_DRUNAGOR_COMPLETE=zsh command drunagor "${(@Q)words[2,CURRENT-1]}" "$typed" 2>/dev/null)
    if (( ${#values} == 0 )); then
        _files
    elif (( described )); then
        compadd -U -l -d shown -a values
    else
        compadd -U -d shown -a values
    fi
}

compdef _drunagor_completion drunagor"""

# fish reads the function's output lines as candidates ("value<TAB>help") and escapes each on
# insertion; the output of a command substitution is never expanded again.
FISH = r"""function __drunagor_complete --description 'drunagor completion (candidates are data)'
    set -l words (commandline -opc)
    set -l token (commandline -ct)
    set -l typed (string unescape -- "$token"; or printf '%s' "$token")
    set -l answer (env _DRUNAGOR_COMPLETE=fish drunagor $words[2..-1] "$typed" 2>/dev/null)
    if set -q answer[1]
        printf '%s\n' $answer
    else
        __fish_complete_path "$token"
    end
end
complete --command drunagor --no-files --arguments '(__drunagor_complete)'"""

SCRIPTS = {"bash": BASH, "zsh": ZSH, "fish": FISH}

_UNSHOWABLE = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # C0, DEL, C1
_SPACES = re.compile(r"\s+")


class Request(NamedTuple):
    """What the shell asks: the words before the cursor's word, the part of that word typed so far
    (unquoted), and how a candidate becomes the text the shell inserts (None: not insertable)."""
    args: list[str]
    incomplete: str
    insert: Callable[[str], str | None]


def request(shell: str, argv: list[str]) -> Request | None:
    """The request of `shell`'s script, from the arguments the script gave drunagor."""
    if shell == "bash":
        if len(argv) != 2:
            return None
        return _bash_request(argv[0], argv[1])
    if not argv:
        return None
    if shell == "fish":  # fish leaves a `~` first unescaped on insertion: it would expand to a home
        return Request(argv[:-1], argv[-1], lambda value: None if value.startswith("~") else value)
    return Request(argv[:-1], argv[-1], lambda value: value)


def answer(shell: str, req: Request, items: Iterable[tuple[str, str]]) -> str:
    """The answer to print: one line per candidate (value, help) the shell can take as one word."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    lines = []
    for value, help in items:
        text = req.insert(value) if showable(value, encoding) else None
        if text is None:
            continue
        hint = _hint(help)
        lines.append(f"{text}\t{hint}" if hint and shell != "bash" else text)
    return "".join(line + "\n" for line in lines)


def showable(value: str, encoding: str = "utf-8") -> bool:
    """A value that travels as one line of text: no control character, encodable for the terminal."""
    if not value or _UNSHOWABLE.search(value):
        return False
    try:
        value.encode(encoding)
    except (UnicodeError, LookupError):
        return False
    return True


def _hint(help: str) -> str:
    """A candidate's description in zsh's and fish's menu: one line of at most 80 columns, without its
    rulebook citation (the short form means nothing there, and naming its section would read the
    headings on a Tab: the command's --help names it)."""
    if "RB L" in help:
        from ..catalog.headings import uncited  # its patterns compiled on first use: no headings read

        help = uncited(help)
    text = _SPACES.sub(" ", _UNSHOWABLE.sub(" ", help or "")).strip()
    return text if len(text) <= 80 else text[:79] + "…"


# ------------------------------------------------------------------------------ bash


def _bash_request(line: str, text: str) -> Request | None:
    """bash gives the line up to the cursor and the text it will replace (the end of the line)."""
    if not line.endswith(text):
        return None
    full, kept = lex_bash(line), lex_bash(line[:len(line) - len(text)])
    if full is None or kept is None or kept.words != full.words or not full.words:
        return None  # unsure, or the cursor is on the command's name
    if line[:len(line) - len(text)].endswith("$"):
        return None  # what follows a bare `$` would be read as a variable
    head, state = (kept.current, kept.quote) if kept.started else ("", "")

    def insert(value: str) -> str | None:
        if value[:len(head)].casefold() != head.casefold():
            return None
        return replacement_bash(value[len(head):], state)
    return Request(full.words[1:], full.current, insert)


class Lexed(NamedTuple):
    words: list[str]  # the words finished before the cursor's, unquoted (the command's name first)
    current: str  # the cursor's word so far, unquoted
    quote: str  # the quoting open at the end: "", "'", '"' or "$'"
    started: bool  # whether the cursor's word has begun (a quote opened counts)


_BLANKS = " \t\n"
_NEW_COMMAND = ";&|()"
_ANSI = {"n": "\n", "t": "\t", "r": "\r", "e": "\x1b", "a": "\a", "\\": "\\", "'": "'", '"': '"'}
_IN_DOUBLE = '$`"\\\n'


def lex_bash(line: str) -> Lexed | None:
    """The line's words as bash reads them (quotes removed), for the words of a completion request.
    None where drunagor cannot be sure what bash would make of it: a pending backslash, or a command
    substitution or parameter expansion open in the word (a candidate put there could run)."""
    words: list[str] = []
    cur: list[str] = []
    quote, started, i = "", False, 0
    while i < len(line):
        ch = line[i]
        if quote:
            step = _in_quote(line, i, quote, cur)
            if step is None:
                return None
            i, quote = step
            continue
        if ch in _BLANKS or ch in _NEW_COMMAND or ch in "<>":
            if started:
                words.append("".join(cur))
            if ch in _NEW_COMMAND:
                words = []
            cur, started, i = [], False, i + 1
            continue
        started = True
        step = _unquoted(line, i, cur)
        if step is None:
            return None
        i, quote = step
    return Lexed(words, "".join(cur), quote, started)


def _unquoted(line: str, i: int, cur: list[str]) -> tuple[int, str] | None:
    ch = line[i]
    if ch == "\\":
        if i + 1 >= len(line):
            return None
        if line[i + 1] != "\n":
            cur.append(line[i + 1])
        return i + 2, ""
    if ch == "'" or ch == '"':
        return i + 1, ch
    if ch == "$" and line[i + 1:i + 2] == "'":
        return i + 2, "$'"
    if ch == "`" or ch == "$" and line[i + 1:i + 2] in ("(", "{"):
        return None
    cur.append(ch)
    return i + 1, ""


def _in_quote(line: str, i: int, quote: str, cur: list[str]) -> tuple[int, str] | None:
    if line[i] == quote[-1]:
        return i + 1, ""
    if quote == "'":
        cur.append(line[i])
        return i + 1, quote
    if quote == "$'":
        return _in_ansi(line, i, cur)
    return _in_double(line, i, cur)


def _in_ansi(line: str, i: int, cur: list[str]) -> tuple[int, str] | None:
    if line[i] != "\\":
        cur.append(line[i])
        return i + 1, "$'"
    if i + 1 >= len(line):  # a backslash last: what it escapes is not typed yet
        return None
    cur.append(_ANSI.get(line[i + 1], "\\" + line[i + 1]))
    return i + 2, "$'"


def _in_double(line: str, i: int, cur: list[str]) -> tuple[int, str] | None:
    ch = line[i]
    if ch == "`" or ch == "$" and line[i + 1:i + 2] in ("(", "{"):
        return None
    if ch != "\\":
        cur.append(ch)
        return i + 1, '"'
    if i + 1 >= len(line):
        return None
    nxt = line[i + 1]
    if nxt not in _IN_DOUBLE:
        cur.append(ch + nxt)
    elif nxt != "\n":
        cur.append(nxt)
    return i + 2, '"'


def replacement_bash(rest: str, quote: str) -> str:
    """What bash inserts for the rest of a candidate, after the quoting `quote` open there.

    In a quote, readline (bash 5) replaces the opening quote too when the text given starts with
    it, and closes the quote itself unless the text ends with it; given only part, it would leave
    the word open in some cases (a name whose rest ends in `'`) or merge quotes in others (a rest
    that starts with one). So the text given always starts and ends with the quote's character:
    the word is closed and one, whatever the name."""
    if not quote:
        return quote_bash(rest, "")
    mark = quote[-1]  # `$'` reopens with its `'`, the `$` stays on the line before it
    return mark + quote_bash(rest, quote) + mark


# Characters bash reads as themselves anywhere in a word; everything else ASCII is escaped.
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,:/@%+=")


def quote_bash(text: str, quote: str) -> str:
    """`text` quoted for bash inside the quoting `quote` (none, `'`, `"`, `$'`). Like `printf %q`,
    for a word bash has partly read: every character stays itself, and none starts an expansion
    (`$`, a backtick, a glob, `!` history, `~`, `#`)."""
    if quote == "'":
        return text.replace("'", "'\\''")
    if quote == "$'":
        return text.replace("\\", "\\\\").replace("'", "\\'")
    if quote == '"':
        # `\!` keeps its backslash inside double quotes: `!` goes in single quotes of its own
        return "".join("\"'!'\"" if ch == "!" else "\\" + ch if ch in _IN_DOUBLE else ch for ch in text)
    return "".join(ch if ch in _PLAIN or ord(ch) > 127 else "\\" + ch for ch in text)

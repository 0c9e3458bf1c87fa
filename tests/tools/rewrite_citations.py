"""Rewrite the golden outputs of tests/ and docs/ from the short citation (`RB L285`) to what drunagor
prints (`(Rulebook: Dreadful Raid, L285)`, catalog/headings.py), so that a branch that added short
citations to expected output can be brought in line after a merge:

    python -m tests.tools.rewrite_citations          # rewrite, and list the files changed
    python -m tests.tools.rewrite_citations --check  # only list them; exit 1 if any would change

Idempotent: the rendered form holds no `RB L`, so a second run changes nothing (an unchanged paragraph
is not wrapped again). What it rewrites:

- README.md and docs/*.md (not the generated reference.md, whose help texts `--help`'s formatter renders):
  the output lines of each ```console block, not its `$ ...` lines, and not the output of a `--json`
  command (--json keeps the short form); and the prose outside the fenced blocks (`prose`): each paragraph
  and list item in the reader's form, `(Rulebook: Dreadful Raid, L285)`, its `code spans` kept (what a
  user types, a --json value), wrapped again within WIDTH when it changed; a table cell that is a citation
  alone in its column's sections and lines, `Dreadful Raid, L285` (docs/rules.md's column is headed
  Rulebook); a heading kept (its anchor: rewrite one by hand). Other fenced blocks are kept;
- tests/errors/*/expected.txt: `drunagor check`'s text output;
- the string literals of the test modules under OUTPUT_TESTS, but not a docstring, not a comment, not a
  literal on a logical line that mentions `json`, `data`, a key (`d["lost"]`) or `read_text` (a --json value and a
  campaign file keep the short form), and not one on a line marked `# short citation` (a value of the
  rules, of `--json` or of a file, compared as it is), nor a campaign file's text (`schema = `). A literal joined to the ones before it is read as
  the whole string reads: `"... (" "RB L941-945)"` is inside parentheses.
  A literal that reads as a transcript (`$ drunagor ...` lines) is rewritten as a console block is.

The modules of tests/rules, tests/ops and the catalog's tests call the rules and the operations, which
return the short form: they are not touched.
"""

from __future__ import annotations

import io
import re
import sys
import tokenize
from pathlib import Path

from drunagor_log.catalog.headings import SHORT, citation, named, rendered, rendered_prose

REPO = Path(__file__).resolve().parents[2]
OUTPUT_TESTS = ("cli", "play", "sheet", "serve", "store", "contract", "docs", "interop", "sync", "attack",
                "errors")
MARK = "# short citation"
_KEPT = re.compile(r"""json|\bdata\b|[\w)\]]\s*\[\s*["']|read_text""", re.I)  # a --json value, a file: short


def transcript(text: str) -> str:
    """Console lines: each output line rendered, the command lines and a --json command's output kept."""
    out, json = [], False
    for line in text.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith("$ "):
            json = "--json" in stripped
            out.append(line)
        else:
            out.append(line if json else rendered(line))
    return "\n".join(out)


def markdown(text: str) -> str:
    """A page: the output lines of each ```console block (`transcript`), and its prose (`prose`); any
    other fenced block (python, json, toml, text) as it is."""
    out, block, fence, prose_lines = [], None, None, []

    def flush() -> None:
        out.extend(prose("\n".join(prose_lines)).split("\n") if prose_lines else [])
        prose_lines.clear()

    for line in text.split("\n"):
        if block is not None:
            if line.strip() == "```":
                out.append(transcript("\n".join(block)))
                out.append(line)
                block = None
            else:
                block.append(line)
        elif fence is not None:
            out.append(line)
            if line.strip() == fence:
                fence = None
        elif line.lstrip().startswith("```"):
            flush()
            out.append(line)
            if line.strip() == "```console":
                block = []
            else:
                fence = line.strip()[:3]
        else:
            prose_lines.append(line)
    flush()
    if block is not None:
        out.append("\n".join(block))
    return "\n".join(out)


WIDTH = 110  # the pages' prose wraps at about 100-110 columns; a rewritten paragraph is wrapped within this
_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s")
_TOKEN = re.compile(r"(?:[^\s`]|`[^`]*`)+")  # a word, a `code span` whole (its spaces kept together)
_LINE_START = re.compile(r"(?:[-+*]|#{1,6}|\d{1,9}[.)]|[>|].*)")  # would make a list, a heading, a quote


def prose(text: str) -> str:
    """The prose of a page outside its fenced blocks: each paragraph or list item with its citations in
    the reader's form (headings.rendered_prose: `code spans` kept), and wrapped again within WIDTH if
    that changed it (an unchanged paragraph keeps its bytes); each table row cell by cell, a cell that is a
    citation alone as a column headed Rulebook shows it (`Dreadful Raid, L285`, headings.named); a
    heading or an HTML comment as it is."""
    out: list[str] = []
    item: list[str] = []

    def flush() -> None:
        if item:
            old = "\n".join(item)
            new = rendered_prose(old)
            out.extend(item if new == old else _wrapped(item, new))
            item.clear()

    for line in text.split("\n"):
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "<", "|")):
            flush()
            out.append(_row(line) if stripped.startswith("|") else line)
        else:
            if _ITEM.match(line):
                flush()
            item.append(line)
    flush()
    return "\n".join(out)


def _row(line: str) -> str:
    cells = re.split(r"(?<!\\)\|", line)
    return "|".join(f" {named(cell)} " if named(cell) else rendered_prose(cell) for cell in cells)


def _wrapped(lines: list[str], text: str) -> list[str]:
    """`text` (a paragraph or list item, once `lines`) wrapped within WIDTH: its first line's indent and
    list marker, then its continuation lines' indent; a `code span` never broken, and no line starting
    with what Markdown would read as a list, a heading or a quote."""
    first = _ITEM.match(lines[0])
    lead = first.group(0) if first else lines[0][:len(lines[0]) - len(lines[0].lstrip())]
    hang = (lines[1][:len(lines[1]) - len(lines[1].lstrip())] if len(lines) > 1 else " " * len(lead))
    words = [re.sub(r"\s+", " ", w) for w in _TOKEN.findall(text[len(lead):])]
    out, current = [], lead + words[0]
    for word in words[1:]:
        if len(current) + 1 + len(word) > WIDTH and not _LINE_START.fullmatch(word):
            out.append(current)
            current = hang + word
        else:
            current += " " + word
    out.append(current)
    return out


def python(source: str) -> str:
    """The string literals of a test module that hold expected output (see the module's docstring)."""
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    edits: list[tuple[int, int, str]] = []
    logical: list[tokenize.TokenInfo] = []
    for tok in tokens:
        if tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            edits += _literals(logical)
            logical = []
        else:
            logical.append(tok)
    out = source
    for (row, col), (erow, ecol), new in sorted(edits, reverse=True):
        a, b = starts[row - 1] + col, starts[erow - 1] + ecol
        out = out[:a] + new + out[b:]
    return out


NOT_CODE = (tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT, tokenize.ENCODING)


def _literals(logical: list[tokenize.TokenInfo]) -> list[tuple[tuple[int, int], tuple[int, int], str]]:
    """The edits of one logical line's string literals."""
    text = " ".join(t.string for t in logical)
    code = [t for t in logical if t.type not in NOT_CODE]
    if MARK in text or (len(code) == 1 and code[0].type == tokenize.STRING):  # marked; a docstring
        return []
    edits = []
    before = ""  # the literals just before, joined to this one ("... (" "RB L941-945)")
    for tok in logical:
        if tok.type != tokenize.STRING:
            if tok.type not in NOT_CODE:
                before = ""
            continue
        if SHORT in tok.string:
            if "$ drunagor" in tok.string:  # a transcript: its --json output is kept line by line
                new = transcript(tok.string)
            elif _KEPT.search(text) or "schema = " in tok.string:  # a campaign file's text
                new = tok.string
            else:
                new = _in_context(before, tok.string)
            if new != tok.string:
                edits.append((tok.start, tok.end, new))
        before += tok.string
    _split(logical)
    return edits


SPLIT: list[str] = []  # where a citation runs across two joined literals: rewritten by hand


def _split(logical: list[tokenize.TokenInfo]) -> None:
    """Note each citation that runs across joined literals (`"(RB " "L972-974)"`): rendering one part
    alone would be wrong, so the script leaves it for a person to join."""
    group: list[tokenize.TokenInfo] = []
    for tok in [*logical, None]:
        if tok is not None and tok.type == tokenize.STRING:
            group.append(tok)
            continue
        if tok is not None and tok.type in NOT_CODE:
            continue
        if len(group) > 1:
            parts = [_content(t.string) for t in group]
            joined = "".join(parts)
            ends = [sum(len(p) for p in parts[:i + 1]) for i in range(len(parts) - 1)]
            for m in citation().finditer(joined):
                if any(m.start() < end < m.end() for end in ends) or any(
                        end == m.end() and re.match(r", L\d", joined[end:]) for end in ends):
                    SPLIT.append(f"line {group[0].start[0]}: {m.group(0)!r} runs across joined literals")
        group = []


def _content(literal: str) -> str:
    body = literal.lstrip("rRbBuUfF")
    quote = body[:3] if body[:3] in ('"""', "\'\'\'") else body[0]
    return body[len(quote):-len(quote)]


def _in_context(before: str, literal: str) -> str:
    """`literal` rendered as the string it is joined to reads: inside the parentheses the literals before
    it opened on the same line."""
    line = before[before.rfind("\\n") + 1:]
    line = line[line.rfind("\n") + 1:]
    depth = max(line.count("(") - line.count(")"), 0)
    return rendered("(" * depth + literal)[depth:]


def targets() -> list[Path]:
    found = [REPO / "README.md", *sorted(p for p in (REPO / "docs").glob("*.md") if p.name != "reference.md")]
    found += sorted((REPO / "tests" / "errors").glob("*/expected.txt"))
    for area in OUTPUT_TESTS:
        found += sorted((REPO / "tests" / area).rglob("*.py"))
    return found


def rewrite(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".md":
        return markdown(text)
    if path.suffix == ".py":
        return python(text)
    return rendered(text)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    changed = []
    for path in targets():
        old = path.read_text(encoding="utf-8")
        new = rewrite(path)
        if new != old:
            changed.append(path)
            if not check:
                path.write_text(new, encoding="utf-8")
    for path in targets():
        if path.suffix == ".py":
            SPLIT.clear()
            python(path.read_text(encoding="utf-8"))
            for where in SPLIT:
                print(f"{path.relative_to(REPO)}: {where}: join it, run again", file=sys.stderr)
    for path in changed:
        print(path.relative_to(REPO))
    print(f"{len(changed)} files {'would change' if check else 'rewritten'}", file=sys.stderr)
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

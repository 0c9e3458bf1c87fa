"""`drunagor sheet` attacked: hostile strings in every field of a campaign, and every kind of --out,
through the installed script, each run bounded in time and memory (bounded.py).

The HTML must parse with the hostile text as text only: the same elements and attributes as the
sheet of the same campaign with its own names. The Markdown is rendered by GitHub's own cmark-gfm
(tables, autolinks) and must show no link but the page's own anchors, and no bare URL or e-mail
address in its text outside code (GitHub links those a second time, in the rendered HTML). Bidi
controls and other invisible characters are shown as <U+XXXX> in both."""

from __future__ import annotations

import json
import os
import re
import stat
import unicodedata
from pathlib import Path

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.attack import bounded
from tests.sheet.conftest import make_full
from tests.sheet.dom import parse

# Every free-text field of the full campaign (tests/sheet/conftest.py), as written in its files: the
# party, the Party Leader and the hero he names, a Follower, an Outcome, a status, a stored card, a
# chest card and a Commander card no rule places, a player, a hero's status, Class Ability, skill and
# card, a boss, a correction and a line of the table's log.
FIELDS = ['"The Ashen Vow"', '"Aldric"', '"Sister Maren"', '"Tidebreaker"', '"Marked by the Tide"',
          '"Rusty Dagger"', '"Mystery Draught"', '"Unplaced Blow"', '"Ana"', '"Blessed"', '"Holy Light"',
          '"Rally"', '"Captain\'s Brooch"', '"The Tide Queen"', '"2024-05-01: chapter 03 skipped (recorded by hand)"',
          '"Tidehunter placed (slot 2) by rune blue"']
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
PIECES = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "' onmouseover='alert(1)",
          "https://evil.example/x?a=1", "http://evil.example", "www.evil.example", "WWW.Evil.Example/p",
          "mailto:eve@evil.example", "eve@evil.example", "xmpp:eve@evil.example", "<https://evil.example>",
          "[x](javascript:alert(1))", "![i](http://evil.example/i.png)", "[r]: http://evil.example",
          "*", "_", "**", "|", "`", "``", "\\", "~~", "&amp;", "&#x3C;b&#x3E;", "{{ 7*7 }}", "{% raw %}",
          "# head", "> quote", "1. item", "---", "<!--", "]]>", *BIDI, "\u200b", "\u2028", "\ufeff", "\x01",
          "\x1b[31m", "\x7f", "\n", "\t"]
URLISH = re.compile(r"(?i)(https?|ftp)://|www\.|mailto:|xmpp:|[-.\w+]+@[-\w]+\.[-\w]")


def q(text: str) -> str:
    """A TOML basic string of any text (JSON's escapes, DEL escaped too: TOML refuses it raw)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def hostile_campaign(root: Path, texts: list[str]) -> Path:
    """The full campaign with field i holding texts[i] (texts cycle over the fields)."""
    make_full(root)
    for f in root.rglob("*.toml"):
        body = f.read_text(encoding="utf-8")
        for i, field in enumerate(FIELDS):
            body = body.replace(field, q(texts[i % len(texts)] + f" n{i}"))
        f.write_text(body, encoding="utf-8")
    return root


def expected_visible(text: str) -> str:
    """What a reader must see of `text` (an oracle of its own, not the sheet's code): every control,
    format, line or paragraph separator character but tab and newline as <U+XXXX>; blanks collapsed."""
    out = "".join(f"<U+{ord(ch):04X}>" if ch not in "\n\t" and unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp")
                  else ch for ch in text)
    return " ".join(out.split())


def structure(root, skip=()) -> list[tuple[str, tuple[str, ...]]]:
    """Each element in document order, with its attributes' names."""
    return [(e.tag, tuple(sorted(e.attrs))) for e in root.iter() if e.tag not in skip]


def text_outside(e, skip=("code", "a", "pre")) -> list[str]:
    out: list[str] = []
    for child in e.children:
        if isinstance(child, str):
            out.append(child)
        elif child.tag not in skip:
            out += text_outside(child, skip)
    return out


def sheet(root: Path, *args: str) -> str:
    out = bounded.drunagor("-C", str(root), "sheet", "--out", "-", *args, surface="sheet", cwd=root.parent.parent)
    assert not out.timed_out and out.returncode == 0, out
    assert "Traceback" not in out.stderr
    return out.stdout


def github(md: str):
    """The Markdown as GitHub's cmark-gfm renders it (raw HTML let through, so that any would show)."""
    return parse(cmarkgfm.github_flavored_markdown_to_html(md, options=Options.CMARK_OPT_UNSAFE))


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    """The full campaign's own sheets: the structure a hostile one must keep."""
    root = make_full(tmp_path_factory.mktemp("plain") / "campaigns" / "full")
    html, md = sheet(root), sheet(root, "--format", "md")
    return {"html": structure(parse(html)), "md": structure(github(md), skip=("code",))}


def assert_text_only(root: Path, texts: list[str], plain: dict) -> None:
    html = sheet(root)
    doc = parse(html)
    assert structure(doc) == plain["html"]  # no element, attribute or script the campaign's files added
    assert all((a.get("href") or "").startswith("#") for a in doc.find_all("a"))
    seen = doc.text()
    md = sheet(root, "--format", "md")
    page = github(md)
    assert structure(page, skip=("code",)) == plain["md"]
    assert all((a.get("href") or "").startswith("#") for a in page.find_all("a")), "a name became a link"
    assert not [t for t in text_outside(page) if URLISH.search(t)], "GitHub would link this text"
    md_seen = page.text()
    for i, text in enumerate(texts[:len(FIELDS)]):
        want = expected_visible(text + f" n{i}")
        assert want in seen and want in md_seen, (want, i)
    for ch in BIDI + "\u200b\u2028\ufeff\x01\x1b\x7f":
        assert ch not in html and ch not in md, f"U+{ord(ch):04X} reached a sheet as it is"


# ------------------------------------------------------------------------ issue 23, case 8, exactly

def test_case8_urls_in_names_are_not_links_on_github(tmp_path, plain):
    root = hostile_campaign(tmp_path / "campaigns" / "full", ["Crew of https://evil.example/join",
                                                              "Nyx of www.evil.example", "eve@evil.example"])
    md = sheet(root, "--format", "md")
    assert "# Crew of `https://evil.example/join` n0: campaign sheets" in md.splitlines()[0]
    assert_text_only(root, ["Crew of https://evil.example/join", "Nyx of www.evil.example", "eve@evil.example"],
                     plain)


def test_case8_bidi_controls_are_shown_in_both_sheets_the_same_way(tmp_path, plain):
    texts = ["Nyx\u202egnp.exe", "a\u2066b\u2069c", "\u200fd\u200e", "x\u061cy"]
    root = hostile_campaign(tmp_path / "campaigns" / "full", texts)
    html, md = sheet(root), sheet(root, "--format", "md")
    assert parse(html).find("h1").text() == "Nyx<U+202E>gnp.exe n0"
    assert md.splitlines()[0] == "# Nyx&lt;U+202E&gt;gnp.exe n0: campaign sheets"
    assert_text_only(root, texts, plain)


# ------------------------------------------------------------------------------ generated strings

HOSTILE = st.lists(st.sampled_from(PIECES) | st.text(max_size=4), min_size=1, max_size=6).map(" ".join) | \
    st.lists(st.sampled_from(PIECES), min_size=1, max_size=4).map("".join)


@settings(max_examples=5, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(texts=st.lists(HOSTILE.filter(lambda t: t.strip()), min_size=1, max_size=len(FIELDS)))
def test_generated_hostile_strings_in_every_field(tmp_path_factory, plain, texts):
    root = hostile_campaign(tmp_path_factory.mktemp("hostile") / "campaigns" / "full", texts)
    assert_text_only(root, texts, plain)


# ---------------------------------------------------------------------- issue 23, case 7: every --out

def sheet_out(cwd: Path, *args: str) -> bounded.Outcome:
    return bounded.drunagor("-C", "campaigns/full", "sheet", *args, surface="sheet", cwd=cwd)


def refused(out: bounded.Outcome, code: int, line: str) -> None:
    assert not out.timed_out and (out.returncode, out.stderr) == (code, line + "\n"), out
    assert out.stdout == ""


@pytest.fixture
def full(tmp_path) -> Path:
    return make_full(tmp_path / "campaigns" / "full")


def files(root: Path) -> dict[str, tuple[int, bytes]]:
    return {p.relative_to(root).as_posix(): (os.lstat(p).st_mode, p.read_bytes() if p.is_file() else b"")
            for p in sorted(root.rglob("*"))}


@pytest.mark.posix
def test_case7_out_at_a_fifo_leaves_the_fifo(tmp_path, full):
    os.mkfifo(tmp_path / "pipe")
    refused(sheet_out(tmp_path, "--out", "pipe"), 3,
            "error: pipe: file: not a regular file (a FIFO, a device or a socket stands where the sheet would go); "
            "nothing was written; move it away, or give --out a new path or a regular file")
    assert stat.S_ISFIFO(os.lstat(tmp_path / "pipe").st_mode)


@pytest.mark.posix
def test_case7_out_at_a_link_to_a_device_is_never_followed(tmp_path, full):
    (tmp_path / "null").symlink_to("/dev/null")  # as root, a write through it would replace the system's
    refused(sheet_out(tmp_path, "--out", "null"), 3,
            "error: null: file: a symbolic link stands where the sheet would go (a sheet is never written through "
            "a link); nothing was written; move it away, or give --out a new path or a regular file")
    assert os.readlink(tmp_path / "null") == "/dev/null" and stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_case7_out_at_the_story_record_is_refused(tmp_path, full):
    before = files(full)
    refused(sheet_out(tmp_path, "--out", "campaigns/full/story.toml"), 2,
            "error: --out campaigns/full/story.toml is a file of a campaign: a sheet never replaces one; give --out "
            "a path outside the campaign's files (the default is sheet.html beside story.toml)")
    assert files(full) == before


@pytest.mark.parametrize("out", ["campaigns/full/heroes/aldric.toml", "campaigns/full/heroes",
                                 "campaigns/full/adventure.toml", "campaigns/full/adventures/01-1.toml",
                                 "campaigns/other/heroes/x.html"])
def test_no_file_of_any_campaign_is_replaced(tmp_path, full, out):
    make_full(tmp_path / "campaigns" / "other")
    before = files(tmp_path / "campaigns")
    shown = out if out != "campaigns/full/heroes" else "campaigns/full/heroes/sheet.html"
    refused(sheet_out(tmp_path, "--out", out), 2,
            f"error: --out {shown} is a file of a campaign: a sheet never replaces one; give --out a path outside "
            "the campaign's files (the default is sheet.html beside story.toml)")
    assert files(tmp_path / "campaigns") == before


@pytest.mark.posix
def test_case7_a_planted_sheet_link_into_an_open_folder_is_not_followed(tmp_path, full):
    (tmp_path / "open").mkdir()
    os.chmod(tmp_path / "open", 0o777)
    (full / "sheet.html").symlink_to(tmp_path / "open")
    refused(sheet_out(tmp_path), 3,
            "error: campaigns/full/sheet.html: file: a symbolic link stands where the sheet would go (a sheet is "
            "never written through a link); nothing was written; move it away, or give --out a new path or a "
            "regular file")
    assert os.listdir(tmp_path / "open") == [] and (full / "sheet.html").is_symlink()
    (full / "sheet.html").unlink()
    (full / "sheet.html").symlink_to(tmp_path / "open" / "sheet.html")  # a link to a file to be
    refused(sheet_out(tmp_path, "--format", "html"), 3,
            "error: campaigns/full/sheet.html: file: a symbolic link stands where the sheet would go (a sheet is "
            "never written through a link); nothing was written; move it away, or give --out a new path or a "
            "regular file")
    assert os.listdir(tmp_path / "open") == []


@pytest.mark.posix
def test_a_link_put_in_place_after_the_check_gives_no_mode_and_is_replaced_not_followed(tmp_path):
    from drunagor_log import store

    (tmp_path / "open").mkdir()
    os.chmod(tmp_path / "open", 0o777)
    (tmp_path / "sheet.html").symlink_to(tmp_path / "open")
    store.atomic_write(tmp_path / "sheet.html", b"<!DOCTYPE html>")  # what the sheet's write does after check_out
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(os.lstat(tmp_path / "sheet.html").st_mode) == 0o666 & ~umask
    assert stat.S_ISREG(os.lstat(tmp_path / "sheet.html").st_mode) and os.listdir(tmp_path / "open") == []


def test_a_folder_where_the_sheet_would_go_is_refused(tmp_path, full):
    (full / "sheet.md").mkdir()
    refused(sheet_out(tmp_path, "--format", "md"), 3,
            "error: campaigns/full/sheet.md: file: a folder stands where the sheet would go; nothing was written; "
            "move it away, or give --out a new path or a regular file")
    assert os.listdir(full / "sheet.md") == []


@pytest.mark.posix
def test_a_regular_file_keeps_its_mode_and_a_new_one_takes_the_umask(tmp_path, full):
    (tmp_path / "mine.html").write_text("old")
    os.chmod(tmp_path / "mine.html", 0o600)
    out = sheet_out(tmp_path, "--out", "mine.html")
    assert out.returncode == 0 and out.stdout == "wrote mine.html (9 sheets)\n", out
    assert stat.S_IMODE(os.lstat(tmp_path / "mine.html").st_mode) == 0o600
    assert (tmp_path / "mine.html").read_text().startswith("<!DOCTYPE html>")
    out = sheet_out(tmp_path, "--out", "shared/new.md")
    assert out.returncode == 0, out
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(os.lstat(tmp_path / "shared" / "new.md").st_mode) == 0o666 & ~umask

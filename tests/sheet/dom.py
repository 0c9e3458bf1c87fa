"""A small element tree over the standard library's html.parser: enough to ask a sheet which
sections, rows and cells it has and what text they hold (instead of matching fragments of markup)."""

from __future__ import annotations

from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Element:
    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Element | None):
        self.tag = tag
        self.attrs = attrs
        self.parent = parent
        self.children: list[Element | str] = []

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def get(self, name: str) -> str | None:
        return self.attrs.get(name)

    def iter(self):
        for child in self.children:
            if isinstance(child, Element):
                yield child
                yield from child.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[Element]:
        found = []
        for e in self.iter():
            if tag is not None and e.tag != tag:
                continue
            if cls is not None and cls not in e.classes:
                continue
            if any(e.attrs.get(k.replace("_", "-")) != v for k, v in attrs.items()):
                continue
            found.append(e)
        return found

    def find(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> Element:
        found = self.find_all(tag, cls, **attrs)
        assert found, f"no <{tag or '*'}> class={cls} {attrs} in <{self.tag} {self.attrs}>"
        return found[0]

    def text(self) -> str:
        """The text a reader sees, whitespace collapsed (the way a browser lays it out)."""
        parts: list[str] = []

        def walk(e: Element) -> None:
            for child in e.children:
                if isinstance(child, str):
                    parts.append(child)
                elif child.tag not in ("style", "script"):
                    if child.tag in ("br", "li", "tr", "p", "div", "td", "th", "dt", "dd"):
                        parts.append(" ")
                    walk(child)

        walk(self)
        return " ".join("".join(parts).split())


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {}, None)
        self.current = self.root
        self.open_mismatch: list[str] = []

    def handle_starttag(self, tag, attrs):
        e = Element(tag, dict(attrs), self.current)
        self.current.children.append(e)
        if tag not in VOID:
            self.current = e

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Element(tag, dict(attrs), self.current))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self.current.tag != tag:  # the sheets are well-formed: every element is closed in order
            self.open_mismatch.append(f"</{tag}> closes <{self.current.tag}>")
            e = self.current
            while e is not None and e.tag != tag:
                e = e.parent
            if e is None:
                return
            self.current = e
        self.current = self.current.parent or self.root

    def handle_data(self, data):
        self.current.children.append(data)


def parse(html: str) -> Element:
    """The document's tree; asserts the markup is balanced (no element left open or closed twice)."""
    b = _Builder()
    b.feed(html)
    b.close()
    assert not b.open_mismatch, b.open_mismatch
    assert b.current is b.root, f"<{b.current.tag}> is never closed"
    return b.root

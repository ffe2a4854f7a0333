"""Checks that an HTML document is inert, with the stdlib's HTML parser (a real tokenizer, not a
regex): no script or other active elements, no event-handler attributes, no URL that leaves the
page, and the text it holds, for "this hostile string is present only as text"."""

from __future__ import annotations

from html.parser import HTMLParser

#: Elements that run code, load something or embed another document.
ACTIVE = {"script", "iframe", "object", "embed", "img", "link", "base", "form", "svg", "math",
          "video", "audio", "source", "frame", "frameset", "applet", "meta-refresh"}  # fmt: skip
URL_ATTRIBUTES = {"src", "href", "action", "formaction", "srcset", "poster", "data", "xlink:href"}


class Inspector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.text: list[str] = []
        self.tags: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self._in_style = tag == "style"
        if tag in ACTIVE:
            self.problems.append(f"<{tag}> element")
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"event attribute {name} on <{tag}>")
            if name == "style":
                self.problems.append(f"style attribute on <{tag}>")
            if name in URL_ATTRIBUTES and value is not None and not value.startswith("#"):
                self.problems.append(f"{name}={value!r} on <{tag}> leaves the page")
            if tag == "meta" and name == "http-equiv" and value and value.lower() == "refresh":
                self.problems.append("meta refresh")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            if "url(" in data or "@import" in data:
                self.problems.append("a stylesheet that loads something")
            return
        self.text.append(data)


def inspect(document: str) -> Inspector:
    inspector = Inspector()
    inspector.feed(document)
    inspector.close()
    return inspector

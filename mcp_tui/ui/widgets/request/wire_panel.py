"""The wire beside the form: the request as received and the answer Ctrl+S would send.

For people demoing elicitation: while a form is open the audience sees the ``elicitation/create``
params as they came (the property of the focused field highlighted) and, live as the person
types, the ``ElicitResult`` the answer key would send, or the validation errors that stop it.

The panel computes nothing of its own: the screen hands it the :class:`FormResult` of
:meth:`SchemaForm.result`, the same call Ctrl+S sends from, so what it shows is what goes out.

Every string in it came from a server: the JSON is written with
:func:`~mcp_tui.untrusted.json_text` (each unsafe character as a ``\\uXXXX`` escape) into literal
``Content``, never parsed as markup. Shown or not is remembered for the session (the app's
``wire_shown``), so the next form opens the way the last one was left.

Below :data:`WIDE` columns the panel goes over the form (F6 gives the form back), unless the app
asks for a split (``wire_split``: the tour, whose notes say "change one and watch the wire"):
then the form stays and the panel shrinks to two lines under it (``wire_summary.py``), and F6
flips between that and the whole wire over the form (``wire_expanded``, remembered like
``wire_shown``: the tour resets both at each step).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from mcp_tui.schema.fields import ContentValue, FormResult
from mcp_tui.ui.widgets.form.field_row import FieldRow
from mcp_tui.ui.widgets.request.wire_summary import summary
from mcp_tui.untrusted import json_text, one_line

#: The key that shows or hides the panel on every screen that answers a server.
WIRE_KEY = "f6"
WIRE_HINT = "F6"
#: Screens this narrow show the panel instead of the form (the same key goes back).
WIDE = 120
#: Longest JSON shown (characters); a bigger schema is cut with a note (the traffic view has it).
MAX_CHARS = 20_000


def received_in(
    protocol_version: str | None, request_key: object, method: str = "elicitation/create"
) -> str:
    """Where the params came from: the request ``method`` (``elicitation/create`` or
    ``sampling/createMessage``, 2025-11-25 and before), or on 2026-07-28, where a server sends
    no requests, the ``input_required`` result's entry."""
    if protocol_version is None or protocol_version < "2026-07-28" or request_key is None:
        return method
    return f"input_required, inputRequests[{one_line(json_text(request_key), limit=60)}]"


def wire_shown(app: App[Any]) -> bool:
    """Whether the person last left the wire shown (for the whole session)."""
    return bool(getattr(app, "wire_shown", False))


def remember_wire(app: App[Any], shown: bool) -> None:
    app.wire_shown = shown  # type: ignore[attr-defined]


def wire_split(app: App[Any]) -> bool:
    """Whether a screen below :data:`WIDE` columns keeps its form with the wire summarised under
    it (the tour asks for it) rather than showing the wire over the form."""
    return bool(getattr(app, "wire_split", False))


def wire_expanded(app: App[Any]) -> bool:
    """Split, the person asked for the whole wire over the form (F6), for the next forms too."""
    return bool(getattr(app, "wire_expanded", False))


def toggle_wire(app: App[Any]) -> None:
    """The palette verb: flip the remembered state and the open screen's panel, if it has one."""
    shown = not wire_shown(app)
    remember_wire(app, shown)
    show = getattr(app.screen, "show_wire", None)
    if callable(show):
        show(shown)


def schema_lines(params: dict[str, Any]) -> list[tuple[str, str | None]]:
    """``params`` as inert pretty JSON, one entry per line with the ``requestedSchema`` property
    the line belongs to (``None`` outside ``properties``): the focused field's lines are lit."""
    lines = json_text(params, indent=2).split("\n")
    owners: list[tuple[str, str | None]] = []
    in_schema = in_properties = False
    names = {
        json_text(name): name
        for name in (params.get("requestedSchema") or {}).get("properties") or {}
        if isinstance(name, str)
    }
    owner: str | None = None
    for line in lines:
        stripped = line.lstrip(" ")
        depth = len(line) - len(stripped)
        if depth == 2:
            in_schema = stripped.startswith('"requestedSchema":')
            in_properties = False
        elif in_schema and depth == 4:
            in_properties = stripped.startswith('"properties":') and stripped.endswith("{")
            owner = None
        elif in_properties and depth == 6 and stripped.startswith('"'):
            key = stripped.split(": ", 1)[0]
            owner = names.get(key)
        owners.append((line, owner if in_properties and depth >= 6 else None))
    return owners


class WirePanel(Vertical):
    """Two parts: ``received`` (the params, one field lit) and ``answer`` (what Ctrl+S sends)."""

    DEFAULT_CSS = """
    WirePanel { width: 1fr; height: 1fr; border-left: vkey $primary; padding: 0 0 0 1; }
    WirePanel > #wire-summary { display: none; }
    WirePanel.-summary {
        height: auto; max-height: 6; border-left: none; border-top: hkey $primary;
        border-title-color: $text-muted; padding: 0;
    }
    WirePanel.-summary > * { display: none; }
    WirePanel.-summary > #wire-summary { display: block; height: auto; }
    WirePanel > .wire-title { color: $text-muted; text-style: bold; }
    WirePanel > #wire-answer-scroll {
        height: auto; max-height: 45%; margin: 0 0 1 0; scrollbar-size-vertical: 1;
    }
    WirePanel #wire-answer.-blocked { color: $text-error; }
    WirePanel > #wire-received-scroll { height: 1fr; scrollbar-size-vertical: 1; }
    """

    def __init__(
        self, params: dict[str, Any], *, method: str = "elicitation/create", id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.method = method
        self.border_title = "Wire"
        #: What F6 does now, in the title of the part that says what Ctrl+S sends.
        self.key_hint = f"{WIRE_HINT} hides this"
        self._lines = schema_lines(params)
        self._focused: str | None = None
        #: The answer as last shown: (action, content) or the errors that stop it.
        self.sends: dict[str, Any] | None = None
        self.blocked: dict[str, str] = {}
        self._answer = Content("")

    def compose(self) -> ComposeResult:
        yield Static(
            Content(f"→ what Ctrl+S sends now ({self.key_hint})"),
            id="wire-answer-title",
            classes="wire-title",
        )
        with VerticalScroll(id="wire-answer-scroll", can_focus=False):
            classes = "-blocked" if self.blocked else ""
            yield Static(self._answer, id="wire-answer", classes=classes)
        yield Static(Content(f"← {self.method} params, as received"), classes="wire-title")
        with VerticalScroll(id="wire-received-scroll"):
            yield Static(self._received(), id="wire-received")
        yield Static(self._summary(), id="wire-summary")

    # --- two lines under the form (``wire_summary.py``) ---------------------------------------

    @property
    def summarised(self) -> bool:
        return self.has_class("-summary")

    def summarise(self, on: bool, key_hint: str) -> None:
        """Two lines under the form (``on``) or the whole wire; ``key_hint``: what F6 does."""
        self.set_class(on, "-summary")
        self.border_title = f"Wire ({WIRE_HINT}: all of it)" if on else "Wire"
        self.key_hint = key_hint
        if self.is_mounted:
            title = f"→ what Ctrl+S sends now ({key_hint})"
            self.query_one("#wire-answer-title", Static).update(Content(title))
            self._update_summary()
            if not on:  # the focused field's lines, scrolled to while they were hidden
                self.call_after_refresh(self._light)

    def _summary(self) -> Content:
        return summary(self.sends, self.blocked, self._focused, self._lines, self.method)

    def _update_summary(self) -> None:
        if self.summarised and self.is_mounted:
            self.query_one("#wire-summary", Static).update(self._summary())

    def _received(self) -> Content:
        parts: list[Content] = []
        total = 0
        for line, owner in self._lines:
            total += len(line) + 1
            if total > MAX_CHARS:
                parts.append(Content("… cut (the traffic view has the whole message)"))
                break
            lit = owner is not None and owner == self._focused
            parts.append(Content.styled(line, "bold reverse") if lit else Content(line))
        return Content("\n").join(parts)

    def focus_property(self, name: str | None) -> None:
        """Light the lines of property ``name`` (the focused field) and scroll them into view."""
        if name == self._focused:
            return
        self._focused = name
        if self.is_mounted:
            self._light()

    def on_mount(self) -> None:
        self._light()

    def _light(self) -> None:
        self._update_summary()
        if self.summarised:
            return  # the whole JSON is hidden: drawn when F6 shows it (``summarise``)
        self.query_one("#wire-received", Static).update(self._received())
        name = self._focused
        first = next((i for i, (_, o) in enumerate(self._lines) if o == name), None)
        if first is not None:
            scroll = self.query_one("#wire-received-scroll", VerticalScroll)
            scroll.scroll_to(y=max(0, first - 1), animate=False)

    def show_result(self, result: FormResult | dict[str, Any] | None) -> None:
        """What accept sends now: ``result`` is the form's own (``None``: a confirmation), or
        the answer itself (a URL consent's ``{"action": "accept"}``)."""
        if isinstance(result, dict):
            self.sends, self.blocked = result, {}
            text = json_text(result, indent=2)
        elif result is None or result.ok:
            content: dict[str, ContentValue] = {} if result is None else dict(result.content or {})
            self.sends = {"action": "accept", "content": content}
            self.blocked = {}
            text = json_text(self.sends, indent=2)
        else:
            self.sends = None
            self.blocked = dict(result.errors)
            lines = ["✗ nothing is sent: Ctrl+S stops at"]
            lines += [
                f"  {one_line(k, limit=40)}: {one_line(v, limit=200)}"
                for k, v in self.blocked.items()
            ]
            text = "\n".join(lines)
        self._answer = Content(text)
        if self.is_mounted:
            answer = self.query_one("#wire-answer", Static)
            answer.update(self._answer)
            answer.set_class(bool(self.blocked), "-blocked")
            self._update_summary()

    def focus_json(self) -> None:
        """Focus the received JSON (arrows, Page Up/Down scroll it). Asked for in the turn the
        panel is mounted (F6 over a narrow form), its children may not be composed yet: then
        once they are, after the panel's own first refresh."""
        scroll = self.query("#wire-received-scroll")
        if scroll:
            scroll.first().focus()
        elif self.is_attached:
            self.call_after_refresh(self.focus_json)

    def plain(self) -> str:
        """The panel as text (tests, screen readers)."""
        answer = self.query_one("#wire-answer", Static)
        received = self.query_one("#wire-received", Static)
        return f"{answer.render()}\n{received.render()}"


#: The binding every answering screen adds (priority: it works from inside a text field). Not in
#: the footer, which at 80 columns has no room left: the help screen and the palette list it.
WIRE_BINDING = Binding(
    WIRE_KEY,
    "toggle_wire",
    "Wire",
    priority=True,
    show=False,
    id="answer.wire",
    tooltip="The wire: the request as received and the exact answer Ctrl+S sends",
)


class WireSide:
    """The panel's part of a screen, by composition: made on first show, beside the form at
    :data:`WIDE` columns and over it below (the screen gets ``-wire-wide`` / ``-wire-over``), or
    below it in two lines when the app asks for a split (``-wire-split``, the module docstring),
    the focused field's property lit, the answer refreshed once per frame while typing.

    ``result`` is the screen's own "what would accept send" (a form's :meth:`SchemaForm.result`).
    """

    def __init__(
        self,
        screen: Screen[Any],
        params: dict[str, Any],
        result: Callable[[], FormResult | dict[str, Any] | None],
        *,
        main: str = "#elicitation-main",
        method: str = "elicitation/create",
        summarises: bool = True,
    ) -> None:
        self.screen = screen
        #: Split (a small screen, the tour), the wire is summarised under the body; a screen
        #: whose body needs every line (a URL to read whole) shows none until F6 instead.
        self.summarises = summarises
        self.params = params
        self.result = result
        #: The row the panel is mounted in, beside the screen's body.
        self.main = main
        self.method = method
        self.panel: WirePanel | None = None
        self.shown = False
        self._pending = False
        #: The field focused when the panel went over the form (narrow screens): back on hide.
        self._field: Widget | None = None

    def compose(self) -> ComposeResult:
        """The panel, when the session left it shown (the form opens the way the last closed)."""
        if wire_shown(self.screen.app):
            self.panel = WirePanel(self.params, method=self.method, id="wire")
            self.shown = True
            self._watch()
            self.panel.show_result(self.result())
            yield self.panel

    def _watch(self) -> None:
        screen = self.screen
        screen.call_after_refresh(screen.watch, screen, "focused", self._focused, init=True)

    def toggle(self) -> None:
        """The key: flip this screen's panel and remember it for the next form; split (a small
        screen, the tour), flip between two lines under the form and the whole wire over it."""
        app = self.screen.app
        if self.shown and self._narrow() and wire_split(app):
            app.wire_expanded = not wire_expanded(app)  # type: ignore[attr-defined]
            self.fit()
            return
        remember_wire(app, not self.shown)
        self.show(not self.shown)

    def _narrow(self) -> bool:
        return self.screen.size.width < WIDE

    def show(self, shown: bool) -> None:
        self.shown = shown
        if shown and self.panel is None:
            self.panel = WirePanel(self.params, method=self.method, id="wire")
            self.panel.show_result(self.result())
            self.screen.query_one(self.main).mount(self.panel)
            self._watch()
        if self.panel is not None:
            self.panel.display = shown
            if shown:
                self.refresh_answer()
        self.fit()

    def fit(self) -> None:
        """Beside the form when the screen is wide enough, over it otherwise (on every resize).

        Over the form, the panel's JSON takes the focus (arrows scroll it), so a key meant for a
        field that is not on screen cannot land on a button; the field gets it back on hide."""
        screen = self.screen
        app = screen.app
        narrow = self.shown and self._narrow()
        split = narrow and wire_split(app) and not wire_expanded(app)
        over = narrow and not split
        screen.set_class(self.shown and not narrow, "-wire-wide")
        screen.set_class(split, "-wire-split")
        main = screen.query(self.main)
        if main:  # the panel under the form, or beside it
            main.first().styles.layout = "vertical" if split else "horizontal"
        if self.panel is not None:
            hint = f"{WIRE_HINT}: back" if over and wire_split(app) else ""
            self.panel.summarise(split, hint or f"{WIRE_HINT} hides this")
            self.panel.display = self.shown and (self.summarises or not split)
        was_over = screen.has_class("-wire-over")
        screen.set_class(over, "-wire-over")
        if over and not was_over and self.panel is not None:
            self._field = screen.focused
            screen.call_after_refresh(self.panel.focus_json)
        elif was_over and not over:
            field, self._field = self._field, None
            if field is not None and field.is_attached:
                screen.call_after_refresh(field.focus)

    def _focused(self, widget: Widget | None) -> None:
        if self.panel is None or (widget is not None and self.panel in widget.ancestors):
            return
        node: DOMNode | None = widget
        while node is not None and not isinstance(node, FieldRow):
            node = node.parent
        self.panel.focus_property(node.field.name if isinstance(node, FieldRow) else None)

    def refresh_answer(self) -> None:
        """Show what accept sends now, once per frame however fast the keys come."""
        if self.panel is None or not self.shown or self._pending:
            return
        self._pending = True

        def update() -> None:
            self._pending = False
            if self.panel is not None:
                self.panel.show_result(self.result())

        self.screen.call_after_refresh(update)

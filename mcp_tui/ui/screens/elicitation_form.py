"""The modal that answers one form-mode ``elicitation/create``: accept, decline or cancel.

Layout, top to bottom: a header naming the server (our own name for the connection, never text
the server controls) and the tool call it interrupts, with the count of requests still waiting; a
warning when a field or the message asks for a secret (``schema/secrets``); a scrolling body with
the server's message as plain text in the server's region (``widgets/text/server_text``: no text the
server writes can pass for the header, the buttons or the footer) and the form; a small notes
area (where the schema departs from the spec); a status line; the buttons (always visible,
whatever the form's height); the footer with the keys.

An empty ``properties`` is a confirmation: the message and Accept / Decline / Cancel. With
``review=True`` an accepted form first shows exactly what will be sent.

Ctrl+S and Ctrl+R act once every key typed before them has taken effect (``key_order``): a burst
such as ``Space Tab c a k e Ctrl+S`` sends the toggle and ``cake``. Keys typed before the form
appeared are dropped, and Ctrl+S and the Accept button act only once it has been on screen for a
moment (``arming``).
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from mcp_tui.schema.fields import ContentValue, FormResult, FormSpec
from mcp_tui.schema.secrets import asks_for_secret
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.ui.closing import close_wherever, open_dialog
from mcp_tui.ui.key_order import (
    OrderedButton,
    SequencedKey,
    SequencedScreen,
)
from mcp_tui.ui.literal import literal_line
from mcp_tui.ui.request_header import RequestHeader
from mcp_tui.ui.screen_css import screen_css
from mcp_tui.ui.screens.arming import ArmedScreen
from mcp_tui.ui.shown_names import shown_name
from mcp_tui.ui.styled_once import StyledOnce
from mcp_tui.ui.widgets.form.form_fields import looks_secret
from mcp_tui.ui.widgets.form.schema_form import SchemaForm
from mcp_tui.ui.widgets.key_footer import KeyFooter
from mcp_tui.ui.widgets.request.answer_bar import (
    ELICITATION_BINDINGS,
    AnswerBar,
    answer_button,
    relabel,
)
from mcp_tui.ui.widgets.request.wire_panel import WIRE_BINDING, WireSide, received_in
from mcp_tui.ui.widgets.text.inert import select_when_tabbed_to
from mcp_tui.ui.widgets.text.server_text import ServerText, from_server
from mcp_tui.untrusted import one_line

if TYPE_CHECKING:
    from textual.css.query import QueryType
    from textual.widget import Widget

#: Two Escapes closer than this (seconds) are a double Escape: the second one asks first.
DOUBLE_ESCAPE = 0.8

SECRET_WARNING = (
    "Looks like a secret: {fields}. The MCP spec forbids servers to ask for passwords, API keys, "
    "tokens or payment details in a form (what you type passes through this client and may reach "
    "the model). Decline unless you are sure."
)


class _Body(VerticalScroll, can_focus=False):
    """The scrolling message + form. Not a tab stop: focus moves field to field and scrolls it."""


#: A form that carries ``_meta.ui.resourceUri`` (SEP-3118): the two halves around the app's URI.
APP_UI_NOTE = (
    "The server also offers an app UI for this form (",
    "); mcp-tui does not run server apps: this is its own form.",
)
#: After the schema notes: where to see what stricter clients make of the same form.
CHECK_HINT = "what other clients do with it: Ctrl+P › Check this server"


class ElicitationScreen(ArmedScreen, SequencedScreen, ModalScreen[ElicitationOutcome]):
    """Shows one form request; dismisses with the :class:`ElicitationOutcome` the user chose.

    Two bases besides the modal, both the screen's own behaviour: :class:`ArmedScreen` (no key
    answers before the form was seen) and ``SequencedScreen`` (keys in arrival order; the
    key-ordering layer recognises its screens by that class). The header and the styling-once are
    parts it holds (``header``, ``styled_once``).
    """

    ARMED_BUTTONS = ("elicitation-accept",)

    #: Focus is placed by ``on_mount`` (first field), never guessed.
    AUTO_FOCUS = ""
    request: ElicitationRequest
    BINDINGS: ClassVar[list[BindingType]] = [*ELICITATION_BINDINGS, WIRE_BINDING]

    # Opaque (ModalScreen's default background is see-through): the dialog covers the screen, and
    # a see-through modal makes Textual redraw the session screen behind it on every frame.
    DEFAULT_CSS = screen_css(__file__)

    def __init__(
        self, request: ElicitationRequest, *, waiting: int = 0, review: bool = False
    ) -> None:
        if request.form is None:
            raise ValueError("a form-mode request needs a parsed form")
        super().__init__()
        self.request = request
        self.form_spec: FormSpec = request.form
        self.review = review
        #: Who asks, for which tool call, and how many wait behind (the handler updates it).
        asks = " asks you to confirm" if self.form_spec.is_confirmation else " asks for input"
        self.header = RequestHeader(request, asks, waiting=waiting, id="elicitation-header")
        self._reviewing = False
        self._pending: dict[str, ContentValue] | None = None
        self._finished = False
        self.styled_once = StyledOnce(self)
        #: When the last two Escapes arrived (any widget's: a drop-down's too).
        self._escapes: list[float] = []
        self.secret_fields = [f for f in self.form_spec.fields if looks_secret(f)]
        #: The message itself asks for a secret ("Paste your token below" over a field "Value").
        self.secret_message = asks_for_secret(request.message)
        self.form: SchemaForm | None = (
            None if self.form_spec.is_confirmation else SchemaForm(self.form_spec, id="form")
        )
        #: The wire beside the form (F6): made the first time it is shown.
        self.wire = WireSide(
            self,
            {"message": request.message, "requestedSchema": self.form_spec.schema},
            self._wire_result,
            method=received_in(request.protocol_version, request.request_key),
        )

    # --- composing ---------------------------------------------------------------------------

    def _notes(self) -> list[str]:
        notes = [one_line(n, limit=300) for n in self.form_spec.notes]
        for field in self.form_spec.fields:
            for note in field.notes:
                notes.append(
                    f"{one_line(field.title or field.name, limit=60)}: {one_line(note, limit=300)}"
                )
        if notes:  # where the form leaves the spec's subset, other clients may refuse it
            notes.append(CHECK_HINT)
        return notes

    def compose(self) -> ComposeResult:
        with Vertical(id="elicitation-dialog"):
            yield self.header.static
            if self.secret_fields or self.secret_message:
                named = [one_line(f.title or f.name, limit=40) for f in self.secret_fields[:4]]
                if self.secret_message:
                    named.append("what the message asks for")
                names = ", ".join(named)
                yield Static(
                    Content("⚠ ") + literal_line(SECRET_WARNING.format(fields=names), limit=None),
                    id="elicitation-secret",
                )
            if self.request.app_ui:
                yield Static(
                    Content(APP_UI_NOTE[0])
                    + literal_line(self.request.app_ui, limit=120)
                    + Content(APP_UI_NOTE[1]),
                    id="elicitation-app-ui",
                )
            with Horizontal(id="elicitation-main"):
                with _Body(id="elicitation-body"):
                    if self.request.message:
                        yield ServerText(
                            self.request.message,
                            label=from_server(shown_name(self.request.server)),
                            id="elicitation-message",
                        )
                    if self.form is not None:
                        yield self.form
                    if self.review:
                        yield Static(id="elicitation-review")
                yield from self.wire.compose()
            # Widgets only when they have something to show: each one costs time to open the form.
            notes = self._notes()
            if notes:
                yield Static(
                    Content("Schema notes: " + " · ".join(notes)),
                    id="elicitation-notes",
                    classes="-shown",
                )
            yield Static(id="elicitation-status")
            with AnswerBar(id="elicitation-buttons"):
                if self.review:
                    yield OrderedButton(
                        "Back to form",
                        id="elicitation-back",
                        compact=True,
                        on_press=self.action_back,
                    )
                yield answer_button("accept", id="elicitation-accept", on_press=self.action_accept)
                yield answer_button(
                    "decline", id="elicitation-decline", on_press=self.action_decline
                )
                yield answer_button(
                    "cancel", id="elicitation-cancel", on_press=self.cancel_without_asking
                )
        yield KeyFooter()

    def on_mount(self) -> None:
        # The form opens on its first field. A confirmation focuses nothing, so a key typed into
        # the chat just before it popped up cannot accept it; Tab reaches the buttons.
        if self.form is not None:
            self.form.focus_first()

    # --- Tab ---------------------------------------------------------------------------------

    def focus_next(self, selector: str | type[QueryType] = "*") -> Widget | None:
        """Tab (Textual's focus chain): a pre-filled field reached so has its value selected."""
        widget = super().focus_next(selector)
        select_when_tabbed_to(widget)
        return widget

    def focus_previous(self, selector: str | type[QueryType] = "*") -> Widget | None:
        widget = super().focus_previous(selector)
        select_when_tabbed_to(widget)
        return widget

    # --- the wire ----------------------------------------------------------------------------

    def _wire_result(self) -> FormResult | None:
        """What Ctrl+S sends now: the form's own result (the one :meth:`action_accept` sends)."""
        return self.form.result() if self.form is not None else None

    def action_toggle_wire(self) -> None:
        self.wire.toggle()

    def show_wire(self, shown: bool) -> None:
        self.wire.show(shown)

    def on_resize(self) -> None:
        self.wire.fit()

    @on(SchemaForm.Edited)
    def _edited(self) -> None:
        self.wire.refresh_answer()

    # --- state the handler updates -----------------------------------------------------------

    def raw_text(self) -> dict[str, str]:
        """What the user typed so far (for the transcript when the form closes unsent)."""
        return self.form.raw_text() if self.form is not None else {}

    # --- answering ---------------------------------------------------------------------------

    def finish(self, outcome: ElicitationOutcome) -> None:
        """Dismiss with ``outcome`` once; later calls are ignored.

        Keys typed after the answer (still queued here) are dropped: the next form had not
        appeared when they were typed (``arming``).
        """
        if self._finished:
            return
        self._finished = True
        self.close_keys()
        close_wherever(self, outcome)

    @property
    def finished(self) -> bool:
        return self._finished

    async def action_accept(self) -> None:
        """Ctrl+S (once the keys typed before it have taken effect: ``key_order``) or the Accept
        button: validate and send (or show the review); with errors, show them and focus the
        first. Not before the screen is armed (a click on the dimmed button, a key before it
        turned live).
        """
        if self._finished or not self.armed:
            return
        if self._reviewing and self._pending is not None:
            self.finish(ElicitationOutcome("accept", self._pending))
            return
        if self.form is None:
            self.finish(ElicitationOutcome("accept", {}))
            return
        result = self.form.submit(focus=False)
        if not result.ok or result.content is None:
            self._show_status(result.errors)
            await self.form.focus_first_error()
            return
        if self.review:
            self._show_review(result.content)
            return
        self.finish(ElicitationOutcome("accept", result.content))

    def action_decline(self) -> None:
        """Ctrl+R (after the keys typed before it: a key that closes a drop-down) or the button."""
        self.finish(ElicitationOutcome.decline())

    def action_cancel(self) -> None:
        """Escape: cancel at once on an untouched form; ask first when something was typed or
        changed, or when this Escape follows another one closely (the first closed a drop-down
        or a filter, and a habitual double Escape must not throw the request away)."""
        if self._finished:
            return
        escapes = self._escapes
        double = len(escapes) >= 2 and escapes[-1] - escapes[-2] < DOUBLE_ESCAPE
        changed = self.form is not None and self.form.touched
        if not (changed or double):
            self.cancel_without_asking()
            return
        from mcp_tui.ui.screens.confirm import ConfirmScreen

        def answered(cancel: bool | None) -> None:
            if cancel:
                self.cancel_without_asking()

        why = "What you typed will be lost" if changed else "Nothing was typed yet"
        open_dialog(
            self,
            ConfirmScreen(
                "Cancel this request?",
                f"{why}, and the server is told the request was cancelled. "
                "(Esc or n: keep the form.)",
                yes="Cancel request",
                no="Keep the form",
            ),
            callback=answered,
        )

    def cancel_without_asking(self) -> None:
        """The Cancel button (or a confirmed Escape): cancel without asking."""
        self.finish(ElicitationOutcome.cancel())

    async def on_event(self, event: events.Event) -> None:
        self.styled_once.see(event)
        if isinstance(event, SequencedKey) and getattr(event.key, "key", None) == "escape":
            self._escapes = [*self._escapes[-1:], time.monotonic()]
        await super().on_event(event)

    def action_back(self) -> None:
        """Leave the review and edit the form again."""
        self._reviewing = False
        self._pending = None
        self.remove_class("-reviewing")
        relabel(self.query_one("#elicitation-accept", Button), "accept")
        if self.form is not None:
            self.form.focus_first()

    def _show_review(self, content: dict[str, ContentValue]) -> None:
        self._reviewing = True
        self._pending = content
        lines = ["This will be sent to the server:", ""]
        for field in self.form_spec.fields:
            title = one_line(field.title or field.name, limit=60)
            if field.name in content:
                value = json.dumps(content[field.name], ensure_ascii=False)
                lines.append(f"  {title}: {one_line(value, limit=400)}")
            else:
                lines.append(f"  {title}: (left out)")
        self.query_one("#elicitation-review", Static).update(Content("\n".join(lines)))
        self.add_class("-reviewing")
        accept = self.query_one("#elicitation-accept", Button)
        relabel(accept, "accept", Content("Send"))
        self.set_focus(accept)
        self._show_status({})

    def _show_status(self, errors: dict[str, str]) -> None:
        status = self.query_one("#elicitation-status", Static)
        if not errors:
            status.remove_class("-shown")
            status.update("")
            return
        names = {f.name: f.title or f.name for f in self.form_spec.fields}
        titles = [one_line(names.get(k, k) or "form", limit=40) for k in errors]
        count = len(errors)
        plural = "s" if count != 1 else ""
        text = f"✗ {count} field{plural} to fix: " + ", ".join(titles[:6])
        if self.form is not None:
            text += "".join(f"\n✗ {one_line(m, limit=300)}" for m in self.form.form_errors)
        status.update(Content(text))
        status.add_class("-shown")

    @on(SchemaForm.Validated)
    def _validated(self, event: SchemaForm.Validated) -> None:
        status = self.query_one("#elicitation-status", Static)
        if status.has_class("-shown") or not event.errors:
            self._show_status(event.errors)

    @on(Button.Pressed, "#elicitation-accept")
    async def _accept_pressed(self) -> None:
        await self.action_accept()

    @on(Button.Pressed, "#elicitation-decline")
    def _decline_pressed(self) -> None:
        self.action_decline()

    @on(Button.Pressed, "#elicitation-cancel")
    def _cancel_pressed(self) -> None:
        self.cancel_without_asking()

    @on(Button.Pressed, "#elicitation-back")
    def _back_pressed(self) -> None:
        self.action_back()

"""The review screen of one ``sampling/createMessage``: a person writes the model's reply.

The server asks the client's model for a completion; mcp-tui has no model, so the person testing
the server reads exactly what was asked and answers in its place. Never answered without them.

Layout, top to bottom: the header naming the server (our own name for the connection, never text
the server controls), the tool call it interrupts and how many requests wait; a scrolling body
with the request as the server sent it — the parameters (maxTokens, temperature, stop sequences,
model preferences, includeContext), the system prompt, every message by role (images and audio
described, never drawn), the tools offered, the metadata — all literal text, and every block the
server wrote in the server's region (``widgets/text/server_text``); then the reply: a
``TextArea``, the stop reason (``endTurn`` unless chosen) and the model name reported (``human``);
a status line; the buttons; the footer.

Ctrl+S sends the reply, Ctrl+R declines (the server gets "User rejected sampling request"),
Escape cancels (dismissed without an answer; the server gets the same error, worded so). Like
every screen that answers a server it arms first (``arming``): keys typed before it appeared are
dropped, and Ctrl+S and the Send button act only once it has been on screen for a moment.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static, TextArea

from mcp_tui.schema.fields import FormResult
from mcp_tui.session.sampling import (
    DEFAULT_MODEL,
    STOP_REASONS,
    TOOL_USE,
    SamplingOutcome,
    SamplingRequest,
    new_tool_use_id,
)
from mcp_tui.session.sampling_bridge import result_json
from mcp_tui.ui.closing import close_wherever
from mcp_tui.ui.key_order import AfterKeysActions
from mcp_tui.ui.literal import literal, literal_text_line
from mcp_tui.ui.request_header import RequestHeader
from mcp_tui.ui.sampling_answer import Refusal, ReplyValues, answer
from mcp_tui.ui.screen_css import screen_css
from mcp_tui.ui.screens.arming import ArmedScreen
from mcp_tui.ui.screens.sampling_model import ASK_MODEL_BINDING, ChatModelAsk
from mcp_tui.ui.shown_names import shown_name
from mcp_tui.ui.widgets.key_footer import KeyFooter
from mcp_tui.ui.widgets.request.answer_bar import ELICITATION_BINDINGS, AnswerBar, answer_button
from mcp_tui.ui.widgets.request.wire_panel import WIRE_BINDING, WireSide, received_in
from mcp_tui.ui.widgets.text.inert import InertInput
from mcp_tui.ui.widgets.text.inert_area import InertTextArea
from mcp_tui.ui.widgets.text.server_text import ServerText, from_server
from mcp_tui.untrusted import one_line

#: The stop reasons offered (the spec's words; mcp-tui's constants, never server text).
STOP_OPTIONS = [(reason, reason) for reason in STOP_REASONS]
#: The same with ``toolUse``, when the request offers tools.
TOOL_STOP_OPTIONS = [*STOP_OPTIONS, (TOOL_USE, TOOL_USE)]
#: How much of one message or schema is shown inline (the whole request is in the traffic view).
SHOWN_CHARS = 20_000


def _number(value: float) -> str:
    return f"{value:g}"


def parameters(request: SamplingRequest) -> Content:
    """The request's parameters, one per line, in our words around the server's values."""
    return literal("\n".join(parameter_lines(request)), limit=None)


def parameter_lines(request: SamplingRequest) -> list[str]:
    """The lines of :func:`parameters` (each server value through ``one_line``)."""
    lines = [f"maxTokens: {request.max_tokens}"]
    if request.temperature is not None:
        lines.append(f"temperature: {_number(request.temperature)}")
    if request.stop_sequences:
        shown = ", ".join(repr(one_line(s, limit=40)) for s in request.stop_sequences[:10])
        lines.append(f"stop sequences: {shown}")
    if request.model_hints:
        lines.append(
            "model hints: " + ", ".join(one_line(h, limit=60) for h in request.model_hints[:10])
        )
    priorities = [
        f"{name} {_number(value)}"
        for name, value in (
            ("cost", request.cost_priority),
            ("speed", request.speed_priority),
            ("intelligence", request.intelligence_priority),
        )
        if value is not None
    ]
    if priorities:
        lines.append("priorities: " + ", ".join(priorities))
    if request.include_context:
        lines.append(f"includeContext: {one_line(request.include_context, limit=40)}")
    if request.tool_choice:
        lines.append(f"toolChoice: {one_line(request.tool_choice, limit=40)}")
    if request.related_task:
        lines.append(f"for task: {one_line(request.related_task, limit=80)}")
    return lines


class SamplingScreen(ArmedScreen, AfterKeysActions, ModalScreen[SamplingOutcome]):
    """Shows one sampling request; dismisses with the :class:`SamplingOutcome` chosen.

    An :class:`ArmedScreen` (the screen's own behaviour) whose Ctrl+S and Ctrl+R act after the
    keys typed before them (``AfterKeysActions``: not a sequenced screen, so through the App's
    queue); the header and asking the chat's model
    are parts it holds (``header``, ``chat_model``).
    """

    #: The reply box is focused once the screen has appeared (``focus_when_shown``): keys typed
    #: before that must not reach it.
    AUTO_FOCUS = ""
    ARMED_BUTTONS = ("sampling-accept",)
    request: SamplingRequest
    BINDINGS: ClassVar[list[BindingType]] = [*ELICITATION_BINDINGS, ASK_MODEL_BINDING, WIRE_BINDING]

    DEFAULT_CSS = screen_css(__file__)

    def __init__(self, request: SamplingRequest, *, waiting: int = 0) -> None:
        super().__init__()
        self.request = request
        #: Who asks, for which tool call, and how many wait behind (the handler updates it).
        self.header = RequestHeader(
            request, " asks for a model reply (sampling)", waiting=waiting, id="sampling-header"
        )
        self._finished = False
        #: Ctrl+G: the chat's model drafts the reply (with the chat extra and a model).
        self.chat_model = ChatModelAsk(self, request)
        #: The id a tool-use reply's block gets: drawn once, so the wire shows the one sent.
        self._tool_use_id = new_tool_use_id()
        #: The wire (F6): the params as received and, live, the reply Ctrl+S would send.
        self.wire = WireSide(
            self,
            request.params if request.params is not None else {},
            self._wire_result,
            main="#sampling-main",
            method=received_in(
                request.protocol_version, request.request_key, "sampling/createMessage"
            ),
        )

    def focus_when_shown(self) -> None:
        self.query_one("#sampling-reply", TextArea).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        gate = super().check_action(action, parameters)  # not before shown, accept once armed
        if gate is not True:
            return gate
        if action == "ask_model":
            return self.chat_model.can_ask()
        return True

    def action_ask_model(self) -> None:
        """Ctrl+G: the chat's model drafts the reply (``sampling_model``)."""
        self.chat_model.ask()

    # --- composing ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(id="sampling-dialog"):
            yield self.header.static
            with Horizontal(id="sampling-main"):
                with Vertical(id="sampling-reply-side"):
                    yield from self._compose_request_and_reply()
                yield from self.wire.compose()
            yield Static(id="sampling-status")
            with AnswerBar(id="sampling-buttons"):
                yield answer_button("accept", id="sampling-accept", on_press=self.action_accept)
                yield answer_button("decline", id="sampling-decline", on_press=self.action_decline)
                yield answer_button("cancel", id="sampling-cancel", on_press=self.action_cancel)
        yield KeyFooter()

    def _compose_request_and_reply(self) -> ComposeResult:
        """The request as read (the body) and the reply's widgets: what the wire covers at 80
        columns."""
        request = self.request
        with VerticalScroll(id="sampling-body"):
            yield Static(parameters(request), id="sampling-params")
            server = shown_name(request.server)
            if request.system_prompt:
                yield ServerText(
                    literal(request.system_prompt, limit=SHOWN_CHARS),
                    label=from_server(server, "system prompt"),
                    classes="sampling-text",
                    id="sampling-system",
                )
            for index, message in enumerate(request.messages, 1):
                what = f"message {index} ({message.role})"
                labelled = False
                for part in message.parts:
                    if part.kind != "text":  # mcp-tui's words: "[image: image/png, 3 KiB]"
                        yield Static(
                            literal(part.text, limit=SHOWN_CHARS),
                            classes="sampling-text sampling-described",
                        )
                        continue
                    yield ServerText(
                        literal(part.text, limit=SHOWN_CHARS),
                        label=None if labelled else from_server(server, what),
                        classes="sampling-text",
                    )
                    labelled = True
                if not labelled:  # no text at all: the heading alone
                    yield Static(from_server(server, what), classes="sampling-heading")
            if request.tools:
                yield Static(Content("Tools offered"), classes="sampling-heading")
                for tool in request.tools:
                    text = one_line(tool.name, limit=80)
                    if tool.description:
                        text += " — " + one_line(tool.description, limit=300)
                    yield ServerText(Content(text), classes="sampling-text")
                    yield ServerText(
                        literal(tool.input_schema, limit=2000),
                        classes="sampling-text sampling-described",
                    )
            if request.metadata:
                yield Static(Content("Metadata"), classes="sampling-heading")
                yield ServerText(literal(request.metadata, limit=2000), classes="sampling-text")
        yield Label(
            Content("Your reply (sent as the assistant's message)"), id="sampling-reply-label"
        )
        yield InertTextArea(id="sampling-reply", soft_wrap=True, show_line_numbers=False)
        with Horizontal(id="sampling-options"):
            yield Label(Content("Stop reason"))
            yield Select(
                TOOL_STOP_OPTIONS if request.tools else STOP_OPTIONS,
                value=STOP_REASONS[0],
                allow_blank=False,
                id="sampling-stop",
                compact=True,
            )
            yield Label(Content("Model"))
            yield InertInput(DEFAULT_MODEL, id="sampling-model", compact=True)
        if request.tools:
            with Horizontal(id="sampling-tool-row"):
                yield Label(Content("Tool use (with toolUse)"))
                yield Select(
                    [(literal_text_line(t.name, limit=60), i) for i, t in enumerate(request.tools)],
                    value=0,
                    allow_blank=False,
                    id="sampling-tool",
                    compact=True,
                )
                yield InertTextArea("{}", id="sampling-tool-input", soft_wrap=True)

    # --- answering ---------------------------------------------------------------------------

    @property
    def reply_text(self) -> str:
        return self.query_one("#sampling-reply", TextArea).text

    def raw_text(self) -> dict[str, str]:
        """What the person typed so far (for the transcript when the screen closes unsent)."""
        try:
            text = self.reply_text
        except NoMatches:  # torn down already (the app is closing)
            return {}
        return {"reply": text} if text else {}

    def finish(self, outcome: SamplingOutcome) -> None:
        """Dismiss with ``outcome`` once; later calls are ignored."""
        if self._finished:
            return
        self._finished = True
        close_wherever(self, outcome)

    @property
    def finished(self) -> bool:
        return self._finished

    def reply_values(self) -> ReplyValues:
        """The reply's widgets as they are now."""
        tools = bool(self.request.tools)
        return ReplyValues(
            text=self.reply_text,
            model=self.query_one("#sampling-model", Input).value,
            stop=self.query_one("#sampling-stop", Select).value,
            tool_index=self.query_one("#sampling-tool", Select).value if tools else None,
            tool_input=self.query_one("#sampling-tool-input", TextArea).text if tools else "{}",
        )

    def outcome_now(self) -> SamplingOutcome | Refusal:
        """What Ctrl+S sends now, or why nothing: the one computation accept and the wire share."""
        return answer(self.reply_values(), self.request.tools, self._tool_use_id)

    def action_accept(self) -> None:
        """Ctrl+S or the Accept button: send the reply, or say what is missing (nothing typed is
        lost). Not before armed."""
        if self._finished or not self.armed:
            return
        outcome = self.outcome_now()
        if isinstance(outcome, Refusal):
            self._show_status(list(outcome.problems.values()))
            if outcome.focus is not None:
                self.query_one(outcome.focus).focus()
            return
        self.finish(outcome)

    # --- the wire ----------------------------------------------------------------------------

    def _wire_result(self) -> FormResult | dict[str, Any]:
        """The wire's answer: the JSON of the outcome accept would send, or what stops it."""
        try:
            outcome = self.outcome_now()
        except NoMatches:  # the Selects compose their parts a moment after the screen
            return FormResult(None, {"reply": "the reply is not on screen yet"})
        if isinstance(outcome, Refusal):
            return FormResult(None, dict(outcome.problems))
        return result_json(outcome)

    def on_mount(self) -> None:
        self.wire.refresh_answer()  # shown from the start: the reply's widgets exist now

    def action_toggle_wire(self) -> None:
        self.wire.toggle()

    def show_wire(self, shown: bool) -> None:
        self.wire.show(shown)

    def on_resize(self) -> None:
        self.wire.fit()

    @on(TextArea.Changed)
    @on(Input.Changed)
    @on(Select.Changed)
    def _reply_changed(self) -> None:
        self.wire.refresh_answer()

    def action_decline(self) -> None:
        self.finish(SamplingOutcome.decline())

    def action_cancel(self) -> None:
        self.finish(SamplingOutcome.cancel())

    def _show_status(self, problems: list[str]) -> None:
        status = self.query_one("#sampling-status", Static)
        status.update(literal("\n".join(f"✗ {p}" for p in problems), limit=None))
        status.add_class("-shown")
        status.remove_class("-info")

    @on(TextArea.Changed, "#sampling-reply")
    @on(Input.Changed, "#sampling-model")
    def _edited(self) -> None:
        status = self.query_one("#sampling-status", Static)
        if status.has_class("-shown") and not status.has_class("-info"):
            status.remove_class("-shown")  # a problem is gone once edited; a note stays

    @on(Button.Pressed, "#sampling-accept")
    def _accept_pressed(self) -> None:
        self.action_accept()

    @on(Button.Pressed, "#sampling-decline")
    def _decline_pressed(self) -> None:
        self.action_decline()

    @on(Button.Pressed, "#sampling-cancel")
    def _cancel_pressed(self) -> None:
        self.action_cancel()

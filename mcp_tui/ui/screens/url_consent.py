"""The consent screen for a URL-mode elicitation: show where the link goes, open it only on Ctrl+S.

Layout, top to bottom: a header naming the server (our own name for the connection, never text
the server controls); a scrolling body that leads with the destination, on its first line the
site (the registrable domain, highlighted) and under it the whole host, wrapped, its registrable
domain highlighted again (``widgets/request/url_destination``: at 40x12, or under a long message,
the site is still on the first screen), then the warnings, the server's message as plain text in
the server's region (``widgets/text/server_text``), and the whole URL wrapped, never truncated (an
internationalised host in its A-label form, the Unicode spelling under it as "shown as"); a status
line; the buttons; the footer with the keys.

Nothing is fetched before Ctrl+S: no DNS, no HTTP, no favicon. Ctrl+S opens exactly the URL shown
(``verdict.url``, the A-label form: what the user checked, not what the browser's IDN policy
would show) through :mod:`mcp_tui.url.browser` in a worker thread, and accepts once the
browser has it. If no browser can be opened the screen stays: it says why, keeps the URL to copy
(``c``), and a second Ctrl+S accepts without opening. Accept in URL mode means "the user consented
to go there" (the spec's words), and a user who copies the URL into a browser on another machine
has consented just as much; answering accept silently when nothing opened would leave the server
waiting for a visit that never comes, so the choice is the user's.

A URL the check refuses is never opened and never offered to copy: the screen shows the reasons
and offers only Decline (Escape declines too).

Like the form screen, it is an ``ArmedScreen`` (``arming``: Ctrl+S and the Open button act only
once it has been on screen for a moment, keys typed before it appeared are dropped) and a
``SequencedScreen`` (:mod:`mcp_tui.ui.key_order`): Ctrl+S and
Ctrl+R act once every key typed before them has taken effect (a Tab to the buttons, a ``c``), and
it has the same look: no frame, compact buttons, an opaque background.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Literal

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.ui.closing import close_wherever
from mcp_tui.ui.key_order import (
    OrderedButton,
    OrderedKeys,
    SequencedScreen,
    after_earlier_keys,
)
from mcp_tui.ui.literal import literal
from mcp_tui.ui.request_header import RequestHeader
from mcp_tui.ui.screen_css import screen_css
from mcp_tui.ui.screens.arming import ArmedScreen
from mcp_tui.ui.shown_names import shown_name
from mcp_tui.ui.styled_once import StyledOnce
from mcp_tui.ui.widgets.key_footer import KeyFooter
from mcp_tui.ui.widgets.request.answer_bar import (
    ACCEPT_HINT,
    ACCEPT_ID,
    ACCEPT_KEY,
    CANCEL_HINT,
    CANCEL_ID,
    CANCEL_KEY,
    DECLINE_HINT,
    AnswerBar,
    answer_button,
    elicitation_bindings,
    relabel,
)
from mcp_tui.ui.widgets.request.url_destination import (
    host_content,
    reasons_content,
    site_content,
    warnings_content,
)
from mcp_tui.ui.widgets.request.wire_panel import WIRE_BINDING, WireSide, received_in
from mcp_tui.ui.widgets.text.server_text import ServerText, from_server
from mcp_tui.untrusted import one_line
from mcp_tui.url.browser import OpenResult, open_url_async
from mcp_tui.url.check import UrlVerdict, check_url

#: Opens a checked URL off the event loop (tests pass a recorder or a failing stand-in).
Opener = Callable[[UrlVerdict], Awaitable[OpenResult]]

COPY_KEY = "c"
COPY_HINT = "c"
#: What the copy button says once pressed (the clipboard is the terminal's, through OSC 52).
COPIED_NOTE = "URL copied to the clipboard (if your terminal allows it); c copies it again"

State = Literal["asking", "opening", "failed"]


def checked(raw: str) -> UrlVerdict:
    """``check_url``, but a defect in the check refuses the URL instead of breaking the screen."""
    try:
        return check_url(raw)
    except Exception as exc:
        reason = f"the URL could not be checked safely ({type(exc).__name__})"
        return UrlVerdict(url=raw, allowed=False, reasons=(reason,), reason_codes=("unchecked",))


class _Body(OrderedKeys, VerticalScroll):
    """The scrolling message, host, warnings and URL. Focused at start, so Enter opens nothing."""


class UrlConsentScreen(ArmedScreen, SequencedScreen, ModalScreen[ElicitationOutcome]):
    """Asks whether to open one URL; dismisses with the :class:`ElicitationOutcome` chosen.

    Bases and parts as for the form (``ElicitationScreen``): armed and sequenced are the screen's
    own behaviour; the header and the styling-once are parts it holds.
    """

    ARMED_ACTIONS = frozenset({"accept", "accept_unopened"})
    ARMED_BUTTONS = ("url-open",)

    AUTO_FOCUS = "#url-body"
    request: ElicitationRequest
    BINDINGS: ClassVar[list[BindingType]] = [
        *elicitation_bindings(accept="Open & accept"),
        # After a failed open: the same key accepts without opening (the user opens it).
        Binding(
            ACCEPT_KEY,
            after_earlier_keys("accept_unopened"),
            "Accept (open it yourself)",
            priority=True,
            id=ACCEPT_ID,
        ),
        # A refused URL: Escape declines, as the spec answers refused URLs.
        Binding(CANCEL_KEY, "close_refused", "Close (decline)", id=CANCEL_ID),
        Binding(COPY_KEY, "copy_url", "Copy URL", id="url.copy"),
        WIRE_BINDING,
    ]

    # The form screen's look (``ElicitationScreen``): every elicitation screen is the same dialog.
    # Opaque, as there: the dialog covers the screen, and a see-through modal makes Textual redraw
    # the session screen behind it on every frame.
    DEFAULT_CSS = screen_css(__file__)

    def __init__(
        self,
        request: ElicitationRequest,
        *,
        waiting: int = 0,
        opener: Opener = open_url_async,
    ) -> None:
        super().__init__()
        self.request = request
        #: The check of exactly the string received; what is shown and opened is ``verdict.url``.
        self.verdict: UrlVerdict = checked(request.url if request.url is not None else "")
        self.open_result: OpenResult | None = None
        self._opener = opener
        #: Who asks, for which tool call, and how many wait behind (the handler updates it).
        self.header = RequestHeader(
            request, " asks you to open a web page", waiting=waiting, id="url-header"
        )
        self._state: State = "asking"
        self._finished = False
        self.styled_once = StyledOnce(self)
        params: dict[str, Any] = {"mode": "url", "message": request.message, "url": request.url}
        if request.elicitation_id is not None:
            params["elicitationId"] = request.elicitation_id
        #: The wire (F6): the params as received and the answer accept sends (no content).
        self.wire = WireSide(
            self,
            params,
            lambda: {"action": "accept"},
            main="#url-main",
            method=received_in(request.protocol_version, request.request_key),
            summarises=False,  # a small screen needs every line for the URL: F6 shows the wire
        )

    # --- composing ---------------------------------------------------------------------------

    def action_toggle_wire(self) -> None:
        self.wire.toggle()

    def show_wire(self, shown: bool) -> None:
        self.wire.show(shown)

    def on_resize(self) -> None:
        self.wire.fit()

    def host_content(self) -> Content:
        """The host in identity form, registrable domain highlighted (``url_destination``)."""
        return host_content(self.verdict)

    async def on_event(self, event: events.Event) -> None:
        self.styled_once.see(event)
        await super().on_event(event)

    def compose(self) -> ComposeResult:
        verdict = self.verdict
        with Vertical(id="url-dialog"):
            yield self.header.static
            with Horizontal(id="url-main"):
                with _Body(id="url-body"):  # the site first: see ``url_destination``
                    if not verdict.allowed:
                        yield Static(reasons_content(verdict), id="url-reasons")
                    yield Static(site_content(verdict), id="url-site")
                    if verdict.host:  # else the site line says it cannot be determined
                        yield Static(host_content(verdict), id="url-host")
                    if verdict.warnings:
                        yield Static(warnings_content(verdict), id="url-warnings")
                    if self.request.message:
                        yield ServerText(
                            self.request.message,
                            label=from_server(shown_name(self.request.server)),
                            id="url-message",
                        )
                    yield Static("Full URL", classes="url-label")
                    yield Static(literal(verdict.url), id="url-full")
                    if verdict.allowed and verdict.url_unicode != verdict.url:
                        yield Static(
                            Content("shown as ") + literal(verdict.url_unicode),
                            id="url-full-unicode",
                        )
                yield from self.wire.compose()
            yield Static(id="url-status")
            with AnswerBar(id="url-buttons"):
                if verdict.allowed:
                    yield answer_button(
                        "accept", id="url-open", word=Content("Open"), on_press=self._open_pressed
                    )
                yield answer_button("decline", id="url-decline", on_press=self.action_decline)
                if verdict.allowed:
                    yield answer_button("cancel", id="url-cancel", on_press=self.action_cancel)
                    yield OrderedButton(
                        f"Copy URL  {COPY_HINT}",
                        id="url-copy",
                        compact=True,
                        on_press=self.action_copy_url,
                    )
        yield KeyFooter()

    # --- state the handler reads and updates ---------------------------------------------------

    @property
    def state(self) -> State:
        """``asking``, ``opening`` (starting the browser) or ``failed`` (it could not be)."""
        return self._state

    def raw_text(self) -> dict[str, str]:
        """Nothing is typed on this screen (same interface as the form screen)."""
        return {}

    @property
    def finished(self) -> bool:
        return self._finished

    def finish(self, outcome: ElicitationOutcome) -> None:
        """Dismiss with ``outcome`` once; later calls are ignored."""
        if self._finished:
            return
        self._finished = True
        # Keys typed after the answer are dropped: not for the next request (``arming``).
        self.close_keys()
        close_wherever(self, outcome)

    # --- keys ----------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide what a refused URL cannot do; show the accept variant that fits the state."""
        gate = super().check_action(action, parameters)  # not before shown, accept once armed
        if gate is not True:
            return gate
        allowed = self.verdict.allowed
        if action == "accept":
            return allowed and (None if self._state == "opening" else self._state == "asking")
        if action == "accept_unopened":
            return allowed and self._state == "failed"
        if action == "cancel":
            return allowed and (None if self._state == "opening" else True)
        if action == "close_refused":
            return not allowed
        if action == "decline":
            return None if self._state == "opening" else True
        if action == "copy_url":
            return allowed
        return True

    def action_accept(self) -> None:
        """Ctrl+S (once the keys typed before it have taken effect) or Open: open and accept."""
        if self._finished or not self.verdict.allowed or self._state != "asking" or not self.armed:
            return
        self._set_state("opening", "Opening in your browser…")
        self.run_worker(self._open(), exclusive=True, group="url-open")

    def action_accept_unopened(self) -> None:
        """Ctrl+S after a failed open (once the keys typed before it have taken effect) or the
        Accept button: accept without opening (the person opens it)."""
        if self.verdict.allowed and self._state == "failed" and self.armed:
            self.finish(
                ElicitationOutcome(
                    "accept", note="accepted without opening: no browser could be opened"
                )
            )

    def action_decline(self) -> None:
        """Ctrl+R (once the keys typed before it have taken effect) or the Decline button."""
        if self._state != "opening":
            self.finish(ElicitationOutcome.decline())

    def action_cancel(self) -> None:
        if self._state == "opening":
            return
        if not self.verdict.allowed:
            self.finish(ElicitationOutcome.decline())
            return
        self.finish(ElicitationOutcome.cancel())

    def action_close_refused(self) -> None:
        """Escape on a refused URL: the spec answers those with decline."""
        if not self.verdict.allowed:
            self.finish(ElicitationOutcome.decline())

    def action_copy_url(self) -> None:
        if not self.verdict.allowed:
            return
        self.app.copy_to_clipboard(self.verdict.url)
        # Said on the button itself, not in a toast: at 80x24 a toast covered the explanation
        # of a browser that could not be opened, and the buttons it names.
        button = self.query_one("#url-copy", OrderedButton)
        button.label = Content(f"Copied ✓  {COPY_HINT}")
        button.tooltip = COPIED_NOTE

    async def _open(self) -> None:
        """Run the opener (a worker thread inside) and accept, or stay and say what failed."""
        try:
            result = await self._opener(self.verdict)
        except Exception as exc:  # the screen must never die on a launcher problem
            result = OpenResult(False, self.verdict.url, error=f"Opening failed: {exc!r}")
        self.open_result = result
        if self._finished or not self.is_attached:
            return
        if result.opened:
            browser = one_line(result.browser or "the browser", limit=120)
            self.finish(ElicitationOutcome("accept", note=f"opened in {browser}"))
            return
        message = result.error or "No browser could be opened."
        self._set_state(
            "failed",
            f"✗ {message}\nPress {COPY_HINT} to copy the URL, then {ACCEPT_HINT} to accept "
            f"(you open it yourself), {DECLINE_HINT} to decline or {CANCEL_HINT} to cancel.",
            error=True,
        )
        self.set_focus(self.query_one("#url-copy", OrderedButton))

    def _set_state(self, state: State, status: str, *, error: bool = False) -> None:
        self._state = state
        widget = self.query_one("#url-status", Static)
        widget.update(literal(status, limit=2000))
        widget.add_class("-shown")
        widget.set_class(error, "-error")
        opening = state == "opening"
        for button in self.query(OrderedButton):
            button.disabled = opening
        if state == "failed":
            button = self.query_one("#url-open", OrderedButton)
            relabel(button, "accept")
            button.refresh(layout=True)
        self.refresh_bindings()

    # --- buttons -------------------------------------------------------------------------------
    # Keys press a button through its ``on_press`` at once; a click posts ``Button.Pressed``.

    def _open_pressed(self) -> None:
        if self._state == "failed":
            self.action_accept_unopened()
        else:
            self.action_accept()

    def on_button_pressed(self, event: OrderedButton.Pressed) -> None:
        presses = {
            "url-open": self._open_pressed,
            "url-decline": self.action_decline,
            "url-cancel": self.action_cancel,
            "url-copy": self.action_copy_url,
        }
        press = presses.get(event.button.id or "")
        if press is not None:
            press()

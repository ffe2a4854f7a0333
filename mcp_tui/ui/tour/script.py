"""The guided tour as plain data: one :class:`Step` per kind of elicitation on the demo server.

No Textual and no SDK here: a step names the demo tool to call (with its arguments), what the
spec asks of the client at that moment, which messages just went over the wire on each protocol
era, and what the presenter presses. :mod:`mcp_tui.ui.tour.guide` plays it on the real session
screen; the forms, the URL consent and the wire panel are the ones every call gets.

The two eras differ on the wire, not in the forms: on 2025-11-25 the server sends
``elicitation/create`` while the call runs and the answer is the response to it; on 2026-07-28
the call *returns* ``input_required`` and mcp-tui repeats the ``tools/call`` with
``inputResponses`` (and the ``requestState`` echoed). A step that exists on one era only says so
on the other and calls nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

#: The eras by the protocol version the demo negotiated.
LEGACY: Final = "2025-11-25"
MODERN: Final = "2026-07-28"

#: What advances the tour, as the note and the footer say it.
NEXT_KEYS: Final = "Space/→"

_2025_FORM = (
    "← elicitation/create (a form: its requestedSchema) · → the ElicitResult (its response)"
)
_2026_FORM = (
    "→ tools/call · ← result input_required (inputRequests) · → tools/call again with "
    "inputResponses and the requestState echoed"
)


@dataclass(frozen=True)
class Call:
    """A demo tool the step calls, with exactly these arguments."""

    tool: str
    arguments: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Step:
    """One stop of the tour.

    ``spec`` is what the specification asks of the client here; ``wire`` which messages travel
    (one text for both eras, or one per era); ``do`` what the presenter does (the keys; one text,
    or one per era where the keys differ);
    ``calls`` what the tour calls, in order, when the step starts (none: a step of words only).
    ``only`` names the one era the step applies to; on the other, ``elsewhere`` is shown instead
    and nothing is called.
    """

    title: str
    spec: str
    wire: str | Mapping[str, str]
    do: str | Mapping[str, str]
    calls: tuple[Call, ...] = ()
    only: str | None = None
    elsewhere: str = ""

    def applies(self, era: str) -> bool:
        return self.only is None or self.only == era

    def wire_on(self, era: str) -> str:
        """The wire's line for ``era`` (a newer era than the tour knows reads as 2026-07-28)."""
        return _on(self.wire, era)

    def do_on(self, era: str) -> str:
        """What to press on ``era`` (as :meth:`wire_on`)."""
        return _on(self.do, era)

    def calls_on(self, era: str) -> tuple[Call, ...]:
        return self.calls if self.applies(era) else ()


def _on(text: str | Mapping[str, str], era: str) -> str:
    if isinstance(text, str):
        return text
    return text.get(era) or text.get(MODERN, "")


STEPS: Final[tuple[Step, ...]] = (
    Step(
        "Welcome",
        spec="A client that can show forms and URLs MUST say so: it declares the elicitation "
        "capability (form and url). A server asks only a client that declared it.",
        wire={
            LEGACY: "→ initialize with capabilities.elicitation {form, url} · ← the server's "
            "capabilities. Every message is in the traffic view (t).",
            MODERN: "→ server/discover; each request carries the client's capabilities, "
            "elicitation {form, url} among them. Every message is in the traffic view (t).",
        },
        do="Each step calls a demo tool; its form opens with the wire beside it, or summarised "
        "under it on a small screen (F6 changes that for the step). Answer, then press Space or "
        "→ here for the next step.",
    ),
    Step(
        "A form with every field kind",
        spec="The requestedSchema is a flat object of primitive fields. The client shows which "
        "server asks and why, lets the person review every value, and sends typed JSON.",
        wire={LEGACY: _2025_FORM, MODERN: _2026_FORM},
        do="Tab through the fields (text, email, URI, dates, numbers, selects, multi-selects); "
        "change one and watch the wire; Ctrl+S sends, and the message that went out stays "
        "above the transcript.",
        calls=(Call("set_preferences"),),
    ),
    Step(
        "Validation",
        spec="Both sides SHOULD validate the content against the requestedSchema: an answer "
        "that breaks it is never sent. The person sees why and keeps what they typed.",
        wire={
            LEGACY: "← elicitation/create · nothing goes back while the answer is invalid; "
            "→ the ElicitResult once it is fixed",
            MODERN: "← input_required · nothing goes back while the answer is invalid; "
            "→ tools/call with inputResponses once it is fixed",
        },
        do="Tab to Email and type an @ too many: the wire says what stops Ctrl+S. Fix it, "
        "then Ctrl+S.",
        calls=(Call("set_preferences"),),
    ),
    Step(
        "Decline",
        spec="Decline is the person's explicit no (action decline, no content). The client "
        "SHOULD let them refuse at any time; the server ends politely.",
        wire={
            LEGACY: "← elicitation/create · → {action: decline}",
            MODERN: "← input_required · → tools/call with inputResponses {confirm: "
            "{action: decline}}",
        },
        do="A destructive action asks for confirmation: press Ctrl+R to decline.",
        calls=(Call("delete_project", {"name": "payments-api"}),),
    ),
    Step(
        "Cancel",
        spec="Cancel means dismissed without a choice (Escape, closing the dialog): the server "
        "cannot tell who cancelled, and must not read it as a no.",
        wire={
            LEGACY: "← elicitation/create · → {action: cancel}",
            MODERN: "← input_required · → tools/call with inputResponses {project: "
            "{action: cancel}}",
        },
        do="Three projects match 'api': press Escape to dismiss the question.",
        calls=(Call("open_project", {"name": "api"}),),
    ),
    Step(
        "Multi-step",
        spec="A tool may ask again and again within one call; each question stands alone and "
        "its schema may depend on the previous answers (here: the time slots).",
        wire={
            LEGACY: "three elicitation/create requests within one tools/call, each answered "
            "before the next is sent",
            MODERN: "four tools/call rounds: each input_required names the next form, each "
            "retry carries its answer and the requestState",
        },
        do="Book a table: a future date and a party size, Ctrl+S; a time, Ctrl+S; dietary "
        "needs (optional), Ctrl+S.",
        calls=(Call("book_table"),),
    ),
    Step(
        "URL mode, with consent",
        spec="For what must not pass through the client (a sign-in, a payment) the server "
        "sends a URL. The client shows it whole, MUST NOT open it without consent, never "
        "pre-fetches it.",
        wire={
            LEGACY: "← elicitation/create (mode url, elicitationId) · → {action: accept} · "
            "← notifications/elicitation/complete when the page is done",
            MODERN: "← input_required with a url request · → tools/call with inputResponses "
            "{connect: {action: accept}}; that call waits for the page",
        },
        do="Read the URL, Ctrl+S opens it in the browser (the demo's own page on 127.0.0.1); "
        "press 'Connect account' there. d: done, g: give up.",
        calls=(Call("connect_account"),),
    ),
    Step(
        "-32042: a page to visit first",
        spec="A server may fail a call with -32042 (URL elicitation required) listing the "
        "pages to visit; the client asks consent for each, then offers to retry the call.",
        wire={
            LEGACY: "→ tools/call · ← error -32042, data.elicitations [url] · after the page: "
            "← notifications/elicitation/complete · → tools/call again",
            MODERN: "2026-07-28 retired -32042: the same page comes in an input_required "
            "result, and the repeated call waits for it",
        },
        do={
            LEGACY: "(The tour disconnected the demo account first.) Ctrl+S to consent, press "
            "the page's button, then y to retry the call.",
            MODERN: "(The tour disconnected the demo account first.) Ctrl+S to consent, then "
            "press the page's button: the waiting call goes on by itself.",
        },
        calls=(Call("disconnect_account"), Call("list_files", {"folder": "/"})),
    ),
    Step(
        "The input_required round",
        spec="On 2026-07-28 a server cannot send requests: the call returns input_required "
        "with every question it needs, and the client repeats it with all the answers.",
        wire={
            MODERN: "← one input_required with two inputRequests (rating, follow_up) · "
            "→ one tools/call with both inputResponses and the requestState",
        },
        do="Two forms arrive together: answer both (Ctrl+S each); they go back in one call.",
        calls=(Call("quick_survey"),),
        only=MODERN,
        elsewhere="This step is for 2026-07-28, where elicitation travels in input_required "
        "results. To see it: mcp-tui demo --tour --mode 2026-07-28. Press Space or → to go on.",
    ),
    Step(
        "That was elicitation",
        spec="Nothing went out that the person had not seen: every answer was shown, checked "
        "against its schema and sent on their choice; every URL was opened after consent.",
        wire="t shows the traffic, one message per row (Enter opens it whole); the palette's "
        "'Export session…' writes it all as HTML and Markdown.",
        do="Explore the demo's other tools from the catalog, or Ctrl+Q to quit.",
    ),
)

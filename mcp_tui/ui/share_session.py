""" "Export session…": the session gathered into plain records and written to share.

The session screen holds the transcript, its call history (every call with the forms and
sampling requests answered inside it) and the newest traffic; :func:`gather` turns them into the
pure :class:`~mcp_tui.export.SharedSession`, masking every value typed into a field that looked
secret (the history collects them as forms are answered) wherever it appears: the answer sent,
the traffic message that carried it, a result that echoed it. :func:`write_export` writes the
HTML page, the Markdown and the screen's SVG screenshot next to each other.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mcp_tui.export import (
    SharedCall,
    SharedExchange,
    SharedLine,
    SharedMessage,
    SharedSession,
    masked,
    to_html,
    to_markdown,
)
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.events import TrafficRecorded
from mcp_tui.session.sampling import SamplingOutcome
from mcp_tui.testbench.observed import text_of
from mcp_tui.ui.call_history import CallHistory, CallRecord, secret_values
from mcp_tui.ui.render import Entry
from mcp_tui.ui.shown_names import shown_name


def default_base(now: float | None = None) -> str:
    """``mcp-tui-session-20261127-104512`` in the current directory (``.html``/``.md``/``.svg``
    are added)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    return os.path.join(".", f"mcp-tui-session-{stamp}")


def gather(
    servers: Iterable[str],
    entries: Iterable[Entry],
    history: CallHistory,
    traffic: Iterable[TrafficRecorded],
    traffic_dropped: int = 0,
) -> SharedSession:
    """The session as plain records, secrets masked."""
    secrets = set(history.secrets)
    calls = [_call(record, secrets) for record in history.records]
    transcript = [SharedLine(entry.kind, masked(entry.full, secrets)) for entry in entries]
    messages = _messages(traffic, secrets)
    return SharedSession(
        title="mcp-tui session",
        exported_at=time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        servers=tuple(shown_name(server) for server in servers),
        transcript=tuple(transcript),
        calls=tuple(calls),
        traffic=tuple(messages),
        traffic_dropped=traffic_dropped,
        secrets_masked=len(secrets),
    )


def _call(record: CallRecord, secrets: set[str]) -> SharedCall:
    exchanges = []
    for exchange in record.exchanges:
        request, answer = exchange.request, exchange.outcome
        if isinstance(request, ElicitationRequest) and isinstance(answer, ElicitationOutcome):
            hidden = set(secret_values(request, answer))
            names = tuple(name for name, value in (answer.content or {}).items() if value in hidden)
            exchanges.append(
                SharedExchange(
                    kind=request.mode,
                    message=masked(request.message, secrets),
                    action=answer.action,
                    schema=masked(dict(request.form.schema), secrets) if request.form else None,
                    url=request.url,
                    content=masked(answer.content, secrets),
                    masked_fields=names,
                )
            )
        elif isinstance(answer, SamplingOutcome) and not isinstance(request, ElicitationRequest):
            reply = answer.text if answer.action == "accept" else None
            exchanges.append(
                SharedExchange(
                    kind="sampling",
                    message=masked(request.message, secrets),
                    action=answer.action,
                    content=masked(reply, secrets),
                )
            )
    outcome, result = "still running", ""
    if record.outcome is not None:
        done = record.outcome
        if done.error is not None:
            outcome = f"failed: {done.error}"
        else:
            outcome = "tool error" if done.is_error else "finished"
            result = text_of(done)
    return SharedCall(
        call_id=record.call_id,
        heading=record.heading,
        arguments=masked(dict(record.arguments), secrets),
        exchanges=tuple(exchanges),
        outcome=masked(outcome, secrets),
        result=masked(result, secrets),
        seconds=record.seconds,
    )


def _messages(traffic: Iterable[TrafficRecorded], secrets: set[str]) -> list[SharedMessage]:
    asked: dict[tuple[str, str, str], str] = {}
    out = []
    for event in traffic:
        message: Any = event.message
        summary = _summary(message, event, asked)
        clock = time.strftime("%H:%M:%S", time.localtime(event.at))
        clock += f".{int(event.at * 1000) % 1000:03d}"
        out.append(
            SharedMessage(
                clock, shown_name(event.server), event.direction, summary, masked(message, secrets)
            )
        )
    return out


def _summary(message: Any, event: TrafficRecorded, asked: dict[tuple[str, str, str], str]) -> str:
    """``tools/call request #3``, ``elicitation/create result #1``, ``notifications/progress``."""
    if not isinstance(message, dict):
        return "message"
    method, msg_id = message.get("method"), message.get("id")
    shown = "" if msg_id is None else f" #{msg_id}"
    if isinstance(method, str):
        if msg_id is not None:
            asked[(event.server, event.direction, repr(msg_id))] = method
            return f"{method} request{shown}"
        return method
    # Each side numbers its own requests: the answer goes the other way.
    other = "in" if event.direction == "out" else "out"
    answered = asked.pop((event.server, other, repr(msg_id)), "")
    kind = "error" if "error" in message else "result"
    return f"{answered} {kind}{shown}".strip()


#: The files an export writes beside ``base``.
EXPORT_SUFFIXES = (".html", ".md", ".svg")


def write_export(base: Path, session: SharedSession, svg: str | None) -> list[Path]:
    """Write ``base.html``, ``base.md`` (and ``base.svg`` when given); the paths written."""
    base.parent.mkdir(parents=True, exist_ok=True)
    written = []
    bodies = (to_html(session), to_markdown(session), svg)
    for suffix, body in zip(EXPORT_SUFFIXES, bodies, strict=True):
        if body is None:
            continue
        path = base.with_name(base.name + suffix)
        path.write_text(body, encoding="utf-8")
        written.append(path)
    return written

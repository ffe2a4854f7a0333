"""A session as Markdown: server strings kept inert for any renderer.

Text on a line of its own has every ASCII punctuation character backslash-escaped (CommonMark
lets any of them be escaped, so no emphasis, link, image, HTML tag or heading can start), and
control, bidi and zero-width characters are made visible escapes. Everything longer (messages,
results, JSON) is fenced with a fence longer than any run of backticks in it, so nothing inside
can close it.
"""

from __future__ import annotations

import re
import string
from typing import Any

from mcp_tui.export.model import SharedCall, SharedSession
from mcp_tui.untrusted import json_text, one_line, visible

_PUNCTUATION = re.compile("([" + re.escape(string.punctuation) + "])")
_BACKTICKS = re.compile("`+")


def inline(value: object) -> str:
    """One line of inert Markdown text."""
    return _PUNCTUATION.sub(r"\\\1", one_line(value, limit=None))


def fenced(body: str, info: str = "text") -> str:
    """``body`` (already made visible) in a backtick fence no line of it can close."""
    longest = max((len(run) for run in _BACKTICKS.findall(body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{body}\n{fence}"


def _text_block(value: object) -> str:
    return fenced(visible(value, limit=None))


def _json_block(value: Any) -> str:
    return fenced(json_text(value, indent=2), "json")


def to_markdown(session: SharedSession) -> str:
    """The document: heading, transcript, calls with their requests and answers, traffic."""
    meta = f"Exported {session.exported_at} by mcp-tui"
    if session.servers:
        meta += "; servers: " + ", ".join(session.servers)
    if session.secrets_masked:
        meta += f"; {session.secrets_masked} secret value(s) masked"
    out: list[str] = [f"# {inline(session.title)}", "", inline(meta), "", "## Transcript", ""]
    for line in session.transcript:
        out += [f"**{inline(line.kind)}**", "", _text_block(line.text), ""]
    if not session.transcript:
        out += ["Nothing yet.", ""]
    out += ["## Calls", ""]
    for call in session.calls:
        out += _call(call)
    if not session.calls:
        out += ["No calls were made.", ""]
    out += ["## Traffic", ""]
    if session.traffic_dropped:
        out += [f"{session.traffic_dropped} older messages are not kept.", ""]
    for message in session.traffic:
        arrow = {"out": "→", "in": "←"}.get(message.direction, "")
        out += [
            f"{inline(message.time)} {arrow} {inline(message.server)}: {inline(message.summary)}",
            "",
            _json_block(message.message),
            "",
        ]
    if not session.traffic:
        out += ["No messages.", ""]
    return "\n".join(out)


def _call(call: SharedCall) -> list[str]:
    took = f" in {call.seconds:.2f} s" if call.seconds is not None else ""
    out = [
        f"### \\#{call.call_id} {inline(call.heading)}",
        "",
        inline(call.outcome or "still running") + took,
        "",
    ]
    if call.arguments:
        out += ["Arguments:", "", _json_block(call.arguments), ""]
    for exchange in call.exchanges:
        asked = {"form": "Form", "url": "URL", "sampling": "Sampling"}[exchange.kind]
        out += [
            f"**{asked} request** → {inline(exchange.action)}",
            "",
            _text_block(exchange.message),
            "",
        ]
        if exchange.url is not None:
            out += ["URL (not a link):", "", _text_block(exchange.url), ""]
        if exchange.schema is not None:
            out += ["requestedSchema:", "", _json_block(exchange.schema), ""]
        if exchange.content is not None:
            out += ["Sent back:", "", _json_block(exchange.content), ""]
        if exchange.masked_fields:
            names = ", ".join(exchange.masked_fields)
            out += [f"Masked \\(typed into a secret\\-looking field\\): {inline(names)}", ""]
    if call.result:
        out += ["Result:", "", _text_block(call.result), ""]
    return out

"""Driving the real mcp-tui app against an npm peer, and reading what went over the wire.

The tests build ``McpTuiApp`` exactly as the CLI does (server specs + ``AppOptions``) with
``--call`` (``AppOptions.call``) and ``--log`` (``AppOptions.traffic_log``), then act as a user
with Pilot: wait for the elicitation screen, type into fields, press the screen's keys. What the
server received is read back from two independent places: the traffic log (the exact JSON-RPC
response mcp-tui sent) and the server's own tool result (server-everything echoes the
``ElicitResult`` it parsed as ``Raw result: {...}``; the SDK example reports its own validation).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual import events
from textual.pilot import Pilot
from textual.widget import Widget

from mcp_tui.ui.widgets.form.field_row import FieldRow
from tests.waits import wait_until

#: Generous: a cold node + Python start on a busy 2-core box. Only a hang ever waits this long.
WAIT = 60.0


async def wait_for(pilot: Pilot[Any], condition: Callable[[], object], what: str) -> Any:
    """Let the app run until ``condition()`` is truthy; fail with ``what`` if it never is."""
    return await wait_until(condition, WAIT, pilot=pilot, message=f"waiting for {what}")


async def send_refused(pilot: Pilot[Any], screen: Any) -> None:
    """Ctrl+S on a form with a field in error: wait until the form lists what to fix (the sign
    that it handled the key), so that "nothing was sent" can then be asserted."""
    await pilot.press("ctrl+s")
    status = screen.query_one("#elicitation-status")
    await wait_for(pilot, lambda: "to fix" in str(status.render()), "the form saying what to fix")


async def quit_app(pilot: Pilot[Any]) -> None:
    """Ctrl+Q, as a user quits: the app closes every connection (HTTP DELETE, stdio EOF), then
    exits. (Leaving ``run_test`` alone would leave that to garbage collection.)"""
    app = pilot.app
    await pilot.press("ctrl+q")
    deadline = time.monotonic() + WAIT
    while app.is_running and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert not app.is_running, "the app did not quit"


# ---- the form, as a user fills it ----------------------------------------------------------------


def field_row(screen: Widget, name: str) -> FieldRow | None:
    for row in screen.query(FieldRow):
        if row.field.name == name and row.control.is_mounted:
            return row
    return None


async def focus_field(pilot: Pilot[Any], name: str) -> FieldRow:
    """Put focus on a field's control (as Tab / a click would) and return its row."""
    screen = pilot.app.screen
    row: FieldRow = await wait_for(pilot, lambda: field_row(screen, name), f"field {name!r}")
    row.focus_control()
    await pilot.pause()
    assert pilot.app.focused is row.control, f"focus did not reach {name!r}"
    return row


async def replace_text(pilot: Pilot[Any], name: str, text: str) -> None:
    """Clear a one-line input as a user would (End, Backspace...), then paste ``text`` into it.

    A paste is one terminal event that the input handles like typing (same ``Input.Changed``),
    and keeps these tests fast on a busy machine: each key press waits for a full refresh.
    """
    row = await focus_field(pilot, name)
    current = str(getattr(row.control, "value", ""))
    await pilot.press("end", *(["backspace"] * len(current)))
    if text:
        row.control.post_message(events.Paste(text))
        await pilot.pause()
    value = getattr(row.control, "value", None)
    assert value == text, f"field {name!r} holds {value!r} after typing {text!r}"


async def press_on(pilot: Pilot[Any], name: str, *keys: str) -> None:
    await focus_field(pilot, name)
    await pilot.press(*keys)


# ---- the wire, from the --log file -----------------------------------------------------------


def traffic(log: Path) -> list[dict[str, Any]]:
    if not log.exists():
        return []
    lines = log.read_text(encoding="ascii").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _messages(log: Path, direction: str) -> list[dict[str, Any]]:
    return [e["message"] for e in traffic(log) if e.get("dir") == direction and "message" in e]


def tool_results(log: Path, tool: str) -> list[dict[str, Any]]:
    """Every response (result or error) to our ``tools/call`` of ``tool``, in order."""
    ids = [
        m["id"]
        for m in _messages(log, "out")
        if m.get("method") == "tools/call" and (m.get("params") or {}).get("name") == tool
    ]
    return [m for m in _messages(log, "in") if "method" not in m and m.get("id") in ids]


def elicitation_answers(log: Path) -> list[dict[str, Any]]:
    """Every response we sent to a server's ``elicitation/create``, in order."""
    asked = {m["id"] for m in _messages(log, "in") if m.get("method") == "elicitation/create"}
    return [m for m in _messages(log, "out") if "method" not in m and m.get("id") in asked]


def answers_sent(log: Path) -> list[dict[str, Any]]:
    """Every elicitation answer we sent, in order, on either era: the result of our response to
    an ``elicitation/create`` (2025) or an ``inputResponses`` entry of a retried request
    (2026-07-28: the server returned ``InputRequiredResult``)."""
    asked = {m["id"] for m in _messages(log, "in") if m.get("method") == "elicitation/create"}
    answers: list[dict[str, Any]] = []
    for m in _messages(log, "out"):
        if "method" not in m and m.get("id") in asked:
            answers.append(m.get("result") or {})
        elif m.get("method") is not None:
            answers.extend(((m.get("params") or {}).get("inputResponses") or {}).values())
    return answers


def result_text(response: dict[str, Any]) -> str:
    items = (response.get("result") or {}).get("content") or []
    return "\n".join(str(i.get("text", "")) for i in items if i.get("type") == "text")


def everything_raw_result(response: dict[str, Any]) -> dict[str, Any]:
    """The ``ElicitResult`` server-everything says it received (``Raw result: {...}``)."""
    text = result_text(response)
    marker = "Raw result: "
    assert marker in text, f"no raw result in {text!r}"
    raw: dict[str, Any] = json.loads(text.split(marker, 1)[1])
    return raw

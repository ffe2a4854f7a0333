"""Driving the real ``McpTuiApp`` on the bundled demo server as a user would (not a test module).

The app is built as ``mcp-tui demo --call TOOL --log FILE`` builds it: one stdio server spec
running ``demo_stdio_command()``, ``AppOptions(call=..., traffic_log=...)``; Pilot presses the
keys. What mcp-tui sent is read back from the ``--log`` traffic file, on both protocol eras:

- 2025-11-25 (``legacy``): each answer is the JSON-RPC response to an ``elicitation/create``;
- 2026-07-28: each round of answers is the ``inputResponses`` of a repeated ``tools/call``.

Used by ``test_demo_tui.py``; waits are bounded polls (never a fixed long sleep).
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from textual.dom import DOMNode
from textual.pilot import Pilot

from mcp_tui.config.options import AppOptions, ToolCallRequest
from mcp_tui.config.servers import ProtocolMode, ServerSpec, StdioTarget
from mcp_tui.demo.server import demo_stdio_command, demo_stdio_env
from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.widgets.form.field_row import FieldRow
from tests import waits
from tests.proc_kit import processes_with

#: Only a hang waits this long (a cold Python + `mcp` import on a busy 2-core box).
WAIT = 30.0
#: The protocol eras the tests run on, by the client mode that reaches them: ``auto`` (the
#: default, what ``mcp-tui demo`` uses) negotiates 2025-11-25 with the demo, which speaks both
#: (``session/era.py``); ``mode="2026-07-28"`` reaches the new era.
ERAS: dict[str, ProtocolMode] = {"2025-11-25": "auto", "2026-07-28": "2026-07-28"}

T = TypeVar("T")


async def wait_until(pilot: Pilot[Any], condition: Callable[[], T | None], what: str) -> T:
    """Let the app run until ``condition()`` is truthy (and return it); fail naming ``what``."""
    value = await waits.wait_until(condition, WAIT, pilot=pilot, message=f"waiting for {what}")
    assert value is not None
    return value


# ---- the demo app ---------------------------------------------------------------------------


@dataclass
class DemoRun:
    app: McpTuiApp
    pilot: Pilot[None]
    log: Path
    era: str
    marker: str

    def transcript(self) -> str:
        session = self.app.session
        assert session is not None
        return "\n".join(entry.full for entry in session.areas.transcript.entries)

    def wire(self) -> list[dict[str, Any]]:
        return traffic(self.log)


def demo_spec(mode: ProtocolMode, marker: str) -> ServerSpec:
    """The demo over stdio, its process tagged with ``marker`` in its environment."""
    command, *args = demo_stdio_command()
    env = {**demo_stdio_env(), "MCP_TUI_TEST_MARKER": marker}
    return ServerSpec(name="demo", target=StdioTarget(command, tuple(args), env=env), mode=mode)


@asynccontextmanager
async def demo_app(
    tmp_path: Path,
    era: str,
    tool: str | None = None,
    arguments: dict[str, Any] | None = None,
    size: tuple[int, int] = (120, 40),
    *,
    tour: bool = False,
) -> AsyncIterator[DemoRun]:
    """The app on the demo (with ``--call tool`` when given, ``--tour`` with ``tour``), ready;
    quits with Ctrl+Q after.

    ``era`` is a key of :data:`ERAS`, or ``"explicit-2026"`` for ``mode="2026-07-28"``.
    """
    mode: ProtocolMode = "2026-07-28" if era == "explicit-2026" else ERAS[era]
    expected = "2026-07-28" if era == "explicit-2026" else era
    marker = uuid.uuid4().hex
    log = tmp_path / "traffic.jsonl"
    call = ToolCallRequest(tool, dict(arguments or {})) if tool else None
    # The tour test answers ~11 forms in a few seconds: more than the flood guard's 10 requests
    # in 10 s (AppOptions.rate_limit_count), which then cancels the rest. The guard has tests of
    # its own; here it is raised so a fast machine does not trip it (a slow one never did).
    limit = {"rate_limit_count": 100} if tour else {}
    options = AppOptions(
        call=call, traffic_log=log, stderr_log=tmp_path / "stderr.log", tour=tour, **limit
    )
    app = McpTuiApp([demo_spec(mode, marker)], options)
    async with app.run_test(size=size) as pilot:
        entry = app.entries["demo"]
        await wait_until(pilot, lambda: entry.state is ConnectionState.READY, "the demo ready")
        await wait_until(pilot, lambda: entry.tools, "the demo's tools")
        assert entry.info is not None and entry.info.protocol_version == expected
        yield DemoRun(app, pilot, log, expected, marker)
        await pilot.press("ctrl+q")
        await wait_until(
            pilot,
            lambda: (
                not app.is_running
                or isinstance(app.screen, ConfirmScreen)
                or app.connections.quitting
            ),
            "ctrl+q handled",
        )
        if app.is_running and isinstance(app.screen, ConfirmScreen):  # a form was left open
            await pilot.press("y")
        deadline = time.monotonic() + WAIT
        while app.is_running and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert not app.is_running, "Ctrl+Q did not quit"
    if Path("/proc/self/environ").exists():
        deadline = time.monotonic() + WAIT
        while processes_with(marker) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert processes_with(marker) == [], "the demo server outlived the app"


# ---- forms ----------------------------------------------------------------------------------


async def next_form(run: DemoRun, message: str, after: object = None) -> ElicitationScreen:
    """Wait for the form whose message contains ``message`` (a screen other than ``after``)."""

    def showing() -> ElicitationScreen | None:
        screen = run.app.screen
        if (
            isinstance(screen, ElicitationScreen)
            and screen is not after
            and message in screen.request.message
        ):
            return screen
        return None

    screen = await wait_until(run.pilot, showing, f"the form asking {message!r}")
    await wait_until(run.pilot, lambda: screen.form is None or screen.form.rows, "its fields")
    await run.pilot.pause()
    return screen


async def gone(run: DemoRun, screen: object) -> None:
    await wait_until(run.pilot, lambda: run.app.screen is not screen, "the form to close")


def focused_field(run: DemoRun) -> str | None:
    """The name of the field whose control has focus (None: no field)."""
    node: DOMNode | None = run.app.focused
    while node is not None:
        if isinstance(node, FieldRow):
            return node.field.name
        node = node.parent
    return None


def row(screen: ElicitationScreen, name: str) -> FieldRow:
    for candidate in screen.query(FieldRow):
        if candidate.field.name == name:
            return candidate
    raise AssertionError(f"no field {name!r} on the form")


async def expect_focus(run: DemoRun, name: str) -> None:
    await wait_until(run.pilot, lambda: focused_field(run) == name, f"focus on {name!r}")


async def type_text(run: DemoRun, text: str) -> None:
    """Type ``text`` key by key into whatever has focus."""
    keys = ["space" if c == " " else c for c in text]
    await run.pilot.press(*keys)


async def clear_and_type(run: DemoRun, name: str, text: str) -> None:
    """In the focused one-line field ``name``: End, Backspace over what is there, type ``text``."""
    await expect_focus(run, name)
    control = run.app.focused
    current = str(getattr(control, "value", ""))
    await run.pilot.press("end", *(["backspace"] * len(current)))
    await type_text(run, text)
    assert getattr(control, "value", None) == text


# ---- the wire, from the --log file ------------------------------------------------------------


def traffic(log: Path) -> list[dict[str, Any]]:
    if not log.exists():
        return []
    lines = log.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def messages(log: Path, direction: str) -> list[dict[str, Any]]:
    return [e["message"] for e in traffic(log) if e.get("dir") == direction and "message" in e]


def tool_calls(log: Path, tool: str) -> list[dict[str, Any]]:
    """Every ``tools/call`` of ``tool`` we sent (2026-07-28 repeats one per round)."""
    return [
        m
        for m in messages(log, "out")
        if m.get("method") == "tools/call" and (m.get("params") or {}).get("name") == tool
    ]


def tool_results(log: Path, tool: str) -> list[dict[str, Any]]:
    """Every response the server sent to our calls of ``tool``, in order."""
    ids = [m["id"] for m in tool_calls(log, tool)]
    return [m for m in messages(log, "in") if "method" not in m and m.get("id") in ids]


def final_text(log: Path, tool: str) -> str | None:
    """The text of the last complete (not ``input_required``) result of ``tool``, if any."""
    for response in reversed(tool_results(log, tool)):
        result = response.get("result") or {}
        if result.get("resultType") == "input_required" or "inputRequests" in result:
            continue
        items = result.get("content") or []
        return "\n".join(str(i.get("text", "")) for i in items if i.get("type") == "text")
    return None


def elicitation_answers(log: Path) -> list[dict[str, Any]]:
    """2025-11-25: every ``ElicitResult`` we sent in answer to ``elicitation/create``, in order."""
    asked = {m["id"] for m in messages(log, "in") if m.get("method") == "elicitation/create"}
    return [m["result"] for m in messages(log, "out") if "method" not in m and m.get("id") in asked]


def input_rounds(log: Path, tool: str) -> list[dict[str, Any]]:
    """2026-07-28: the ``inputResponses`` of each repeated ``tools/call`` of ``tool``."""
    return [
        c["params"]["inputResponses"]
        for c in tool_calls(log, tool)
        if "inputResponses" in c["params"]
    ]


def answers(run: DemoRun, tool: str) -> list[dict[str, Any]]:
    """Every answer sent, era-independent: one ``{key: ElicitResult}`` per round on 2026-07-28,
    one ``ElicitResult`` per ``elicitation/create`` on 2025-11-25 (keyed by its position)."""
    if run.era == "2025-11-25":
        return [{str(i): r} for i, r in enumerate(elicitation_answers(run.log))]
    return input_rounds(run.log, tool)


def wire_text(value: Any) -> str:
    """Canonical JSON: ``7`` and ``7.0``, ``true`` and ``1`` differ here as on the wire."""
    return json.dumps(value, sort_keys=True)

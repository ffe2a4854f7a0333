"""Cancel, subscriptions and the log level against the real server-everything, through the TUI.

The server runs over stdio; Pilot plays the user (keys on the session screen, the pick screen).
What the server did is read from the ``--log`` traffic file: its answers, its log messages and
its notifications, not only from what mcp-tui shows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.config.options import AppOptions, ToolCallRequest
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.pick import PickScreen
from mcp_tui.ui.widgets.session.catalog_tree import CatalogTree
from mcp_tui.ui.widgets.session.info_panel import details
from tests.interop.arguments_driver import cursor_on
from tests.interop.interop_peers import EVERYTHING_JS, LOOPBACK_PRELOAD, NODE
from tests.interop.tui_driver import quit_app, result_text, tool_results, traffic, wait_for

pytestmark = [pytest.mark.interop, pytest.mark.anyio]

LONG = "trigger-long-running-operation"


def build_app(tmp_path: Path, call: ToolCallRequest | None = None) -> McpTuiApp:
    target = StdioTarget(str(NODE), ("-r", str(LOOPBACK_PRELOAD), str(EVERYTHING_JS), "stdio"))
    options = AppOptions(
        call=call, traffic_log=tmp_path / "traffic.jsonl", stderr_log=tmp_path / "stderr.log"
    )
    return McpTuiApp([ServerSpec("everything", target, mode="legacy")], options)


def sent(log: Path, method: str) -> list[dict[str, Any]]:
    return [
        e["message"]
        for e in traffic(log)
        if e.get("dir") == "out" and e.get("message", {}).get("method") == method
    ]


def received(log: Path, method: str) -> list[dict[str, Any]]:
    return [
        e["message"]
        for e in traffic(log)
        if e.get("dir") == "in" and e.get("message", {}).get("method") == method
    ]


def transcript(app: McpTuiApp) -> str:
    session = app.session
    assert session is not None and session.areas.panels_ready
    return "\n".join(e.full for e in session.areas.transcript.entries)


async def test_cancel_a_long_running_call_then_call_again(peers: None, tmp_path: Path) -> None:
    """The test waits for what cancelling is: the ``notifications/cancelled`` for the call's id
    on the wire, then the transcript's mark; the UI's being usable afterwards is shown by a quick
    call (it waited for a second 3-second operation to end: twice the behaviour's own time)."""
    log = tmp_path / "traffic.jsonl"
    app = build_app(tmp_path, ToolCallRequest(LONG, {"duration": 30, "steps": 30}))
    async with app.run_test(size=(120, 40)) as pilot:
        session = app.session
        assert session is not None
        calls = await wait_for(pilot, lambda: sent(log, "tools/call"), "the long call")
        await wait_for(pilot, lambda: session.calls.cancellable, "the call in the running panel")
        await pilot.press("c")  # the only running call
        (cancel,) = await wait_for(
            pilot, lambda: sent(log, "notifications/cancelled"), "notifications/cancelled"
        )
        assert cancel["params"]["requestId"] == calls[0]["id"]
        await wait_for(pilot, lambda: "cancelled by you" in transcript(app), "the cancelled mark")
        assert not session.calls.cancellable

        # The UI stays usable: another call, answered.
        session.calls.call_tool("everything", "echo", {"message": "still here"})
        answered = await wait_for(pilot, lambda: tool_results(log, "echo"), "the echo")
        assert "still here" in result_text(answered[0])
        await quit_app(pilot)
    # Nothing came back for the cancelled call while the app ran (its 30 s were far from up).
    ids = {m.get("id") for m in (e["message"] for e in traffic(log) if e.get("dir") == "in")}
    assert calls[0]["id"] not in ids


async def test_subscribe_updates_reread_and_log_level(peers: None, tmp_path: Path) -> None:
    log = tmp_path / "traffic.jsonl"
    app = build_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        session = app.session
        assert session is not None
        entry = app.entries["everything"]
        await wait_for(
            pilot, lambda: entry.resources and session.areas.panels_ready, "the resources"
        )
        resource = next(r for r in entry.resources if not r.template)
        catalog = app.screen.query_one(CatalogTree)

        def node_of(uri: str) -> Any:
            found = []

            def walk(node: Any) -> None:
                item = getattr(node.data, "item", None)
                if getattr(item, "uri", None) == uri and node.data.kind == "resource":
                    found.append(node)
                for child in node.children:
                    walk(child)

            walk(catalog.root)
            return found[0] if found else None

        await wait_for(pilot, lambda: node_of(resource.uri), "the resource node")
        await cursor_on(pilot, catalog, lambda: node_of(resource.uri), "the resource")

        # s subscribes (the server says so in a log message), then updates are switched on.
        await pilot.press("s")
        await wait_for(pilot, lambda: sent(log, "resources/subscribe"), "resources/subscribe")
        assert sent(log, "resources/subscribe")[0]["params"] == {"uri": resource.uri}
        await wait_for(
            pilot,
            lambda: any(
                "Received Subscribe Resource request" in str(m["params"].get("data"))
                for m in received(log, "notifications/message")
            ),
            "the server's acknowledgement",
        )
        await wait_for(pilot, lambda: resource.uri in entry.subscribed, "the subscribed mark")
        assert "subscribed: yes" in details(catalog.current, entry)[1]  # what i shows
        session.calls.call_tool("everything", "toggle-subscriber-updates", {})
        await wait_for(pilot, lambda: received(log, "notifications/resources/updated"), "an update")
        await wait_for(pilot, lambda: resource.uri in entry.updated, "the updated mark")
        label = node_of(resource.uri).label.plain
        assert label.startswith("updated subscribed ")
        assert f"resource updated: {resource.uri}" in transcript(app)

        # Enter reads it again; the mark goes.
        await cursor_on(pilot, catalog, lambda: node_of(resource.uri), "the resource")
        await pilot.press("enter")
        await wait_for(pilot, lambda: sent(log, "resources/read"), "resources/read")
        assert resource.uri not in entry.updated
        session.calls.call_tool("everything", "toggle-subscriber-updates", {})  # stop them

        # s again unsubscribes.
        await cursor_on(pilot, catalog, lambda: node_of(resource.uri), "the resource")
        await pilot.press("s")
        await wait_for(pilot, lambda: sent(log, "resources/unsubscribe"), "unsubscribe")
        await wait_for(pilot, lambda: resource.uri not in entry.subscribed, "no mark")

        # The log level: chosen on the pick screen, sent with logging/setLevel, shown.
        session.features.choose_log_level("everything")
        picker = await wait_for(
            pilot, lambda: isinstance(app.screen, PickScreen) and app.screen, "the level picker"
        )
        assert picker is app.screen
        await pilot.press("down", "down", "down", "down", "enter")  # debug -> error
        await wait_for(pilot, lambda: sent(log, "logging/setLevel")[-1:], "logging/setLevel")
        levels = [m["params"]["level"] for m in sent(log, "logging/setLevel")]
        assert levels[0] == "debug" and levels[-1] == "error"  # debug: asked for at connect
        await wait_for(pilot, lambda: entry.log_level == "error", "the level asked for")
        session.switch_server("everything")
        await wait_for(
            pilot,
            lambda: "logs: error" in str(session.query_one("#info").render()),
            "the level in the info panel",
        )

        # Ping: the round trip in the transcript.
        session.features.ping("everything")
        await wait_for(pilot, lambda: "ping answered in" in transcript(app), "the ping")
        assert sent(log, "ping")
        await quit_app(pilot)
    assert json.dumps(sent(log, "resources/unsubscribe")[0]["params"]) == json.dumps(
        {"uri": resource.uri}
    )

"""Completions on the arguments screen: debounced, superseded requests cancelled, the other
fields sent as context, suggestions shown as literal text, nothing asked without a completer.

A fake completer stands in for the server (``tests/interop/test_everything_completions.py`` has
the real one); it records every request that reached it and every one that was cancelled.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.widgets import Input, Static

from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session.completions import Completion
from mcp_tui.ui.argument_completions import completer_for
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from tests.session.session_testkit import RAW_SERVER, connected
from tests.ui.burst_keys import burst
from tests.waits import wait_until

pytestmark = pytest.mark.anyio

SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "street": {"type": "string"}},
    "required": ["city", "street"],
}


class FakeServer:
    """Records requests; a value in ``hold`` waits until cancelled."""

    def __init__(self, values: tuple[str, ...] = ("Paris", "Parma"), hold: str | None = None):
        self.values = values
        self.hold = hold
        self.asked: list[tuple[str, str, dict[str, str]]] = []
        self.cancelled: list[str] = []

    async def __call__(self, argument: str, value: str, context: Mapping[str, str]) -> Completion:
        self.asked.append((argument, value, dict(context)))
        if value == self.hold:
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                self.cancelled.append(value)
                raise
        return Completion(tuple(v for v in self.values if v.startswith(value)))


class Host(App[None]):
    def __init__(self, server: Any) -> None:
        super().__init__()
        self.server = server

    def on_mount(self) -> None:
        self.push_screen(ArgumentsScreen("t", SCHEMA, verb="Get", completer=self.server))


def line(app: App[Any]) -> str:
    widget = next(app.screen.query("#arguments-suggestions").results(Static), None)
    return str(widget.render()) if widget is not None and widget.display else ""


async def test_a_burst_of_keys_asks_once_for_the_last_value() -> None:
    server = FakeServer()
    app = Host(server)
    async with app.run_test() as pilot:
        await wait_until(lambda: isinstance(app.focused, Input), pilot=pilot, message="focus")
        burst(app, "P", "a", "r")
        # The empty field's own answer (asked on focus) shows "Paris · Parma" too: wait for "Par".
        await wait_until(
            lambda: (
                any(value == "Par" for _, value, _ in server.asked) and "Paris · Parma" in line(app)
            ),
            pilot=pilot,
            message="the line for Par",
        )
        typed = [value for _, value, _ in server.asked if value]
        assert typed == ["Par"], "each key before the pause was superseded, never sent"
        assert app.screen.completions is not None and app.screen.completions.sent == len(
            server.asked
        )


async def test_a_newer_keystroke_cancels_the_request_in_flight() -> None:
    server = FakeServer(hold="P")
    app = Host(server)
    async with app.run_test() as pilot:
        await wait_until(lambda: isinstance(app.focused, Input), pilot=pilot, message="focus")
        await pilot.press("P")
        await wait_until(lambda: ("city", "P", {}) in server.asked, pilot=pilot, message="P")
        await pilot.press("a")
        await wait_until(lambda: "Paris · Parma" in line(app), pilot=pilot, message="Pa")
        assert server.cancelled == ["P"]


async def test_the_other_fields_go_as_context_and_suggestions_stay_literal() -> None:
    server = FakeServer(values=("[b]Rue[/b] \x1b[31mred", "[@click=app.quit]x[/]"))
    app = Host(server)
    async with app.run_test() as pilot:
        await wait_until(lambda: isinstance(app.focused, Input), pilot=pilot, message="focus")
        await pilot.press(*"Lyon", "tab")
        await wait_until(lambda: "street" in line(app), pilot=pilot, message="street")
        assert ("street", "", {"city": "Lyon"}) in server.asked
        shown = line(app)
        assert "[b]Rue[/b] \\e[31mred" in shown and "[@click=app.quit]x[/]" in shown
        assert app.is_running


def test_no_completer_without_the_capability() -> None:
    class Plain:
        offered = False

        async def complete(self, *args: Any) -> Completion:
            raise AssertionError("never asked")

    class Connection:
        completions = Plain()

    assert completer_for(Connection(), "prompt", "p") is None
    assert completer_for(object(), "prompt", "p") is None
    Plain.offered = True
    assert completer_for(Connection(), "prompt", "p") is not None


async def test_a_real_connection_sends_the_other_fields_as_context_arguments(
    tmp_path: Path,
) -> None:
    """The whole way down: the screen's completer (``completer_for``) over a live connection to
    a server that records what it was sent; the other fields go as ``context.arguments``, the
    field being completed does not, and nothing is sent as context when nothing else is filled."""
    script = {
        "capabilities": {"prompts": {}, "completions": {}},
        "prompts": [{"name": "visit", "arguments": [{"name": "city"}, {"name": "street"}]}],
        "completions": {"street": ["Rue de Lyon", "Rue Royale"]},
    }
    path, record = tmp_path / "script.json", tmp_path / "got.jsonl"
    path.write_text(json.dumps(script), encoding="utf-8")
    args = (str(RAW_SERVER), "--script", str(path), "--record", str(record))
    spec = ServerSpec("raw", StdioTarget(sys.executable, args), mode="legacy")
    async with connected(spec) as conn:
        ask = completer_for(conn, "prompt", "visit")
        assert ask is not None
        answer = await ask("street", "Rue R", {"city": "Lyon", "street": "Rue R"})
        assert answer.values == ("Rue Royale",)
        await ask("street", "", {})
    sent = [
        m["params"]
        for line in record.read_text(encoding="utf-8").splitlines()
        if (m := json.loads(line)).get("method") == "completion/complete"
    ]
    assert sent[0] == {
        "ref": {"type": "ref/prompt", "name": "visit"},
        "argument": {"name": "street", "value": "Rue R"},
        "context": {"arguments": {"city": "Lyon"}},
    }
    assert "context" not in sent[1]

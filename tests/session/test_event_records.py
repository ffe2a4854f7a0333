"""The session's records (msgspec structs, not dataclasses: see ``events.py``) keep the promises
the rest of the code relies on: immutable, compared and hashed by value, fresh mutable defaults,
a traffic message dumped once, and ``replace`` for a changed copy."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from mcp_tui.config.options import AppOptions, ToolCallRequest
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session.elicitation import ElicitationOutcome
from mcp_tui.session.events import CallOutcome, ConnectionState, Notice, ToolInfo, TrafficRecorded
from mcp_tui.ui.server_state import ServerEntry


def test_frozen_records_refuse_changes() -> None:
    notice = Notice("demo", "hello")
    with pytest.raises(AttributeError):
        notice.text = "changed"  # type: ignore[misc]
    spec = ServerSpec("demo", StdioTarget("demo-server"))
    with pytest.raises(AttributeError):
        spec.name = "other"  # type: ignore[misc]


def test_records_compare_and_hash_by_value() -> None:
    assert Notice("demo", "hello") == Notice("demo", "hello")
    assert Notice("demo", "hello") != Notice("demo", "hello", "error")
    assert len({Notice("demo", "hello"), Notice("demo", "hello")}) == 1
    assert ToolCallRequest("ping") == ToolCallRequest("ping", {})
    assert repr(Notice("a", "b")) == "Notice(server='a', text='b', severity='information')"


def test_mutable_defaults_are_fresh_per_record() -> None:
    first, second = ToolInfo("a"), ToolInfo("b")
    first.input_schema["type"] = "object"
    assert second.input_schema == {}
    entry = ServerEntry(ServerSpec("demo", StdioTarget("x")))
    entry.state = ConnectionState.READY  # the UI's own entry is mutable
    assert entry.state is ConnectionState.READY


def test_a_traffic_message_is_dumped_once() -> None:
    class Model:
        dumps = 0

        def model_dump(self, **_: Any) -> dict[str, Any]:
            Model.dumps += 1
            return {"jsonrpc": "2.0", "method": "ping"}

    event = TrafficRecorded("demo", "in", Model())
    assert event.message == {"jsonrpc": "2.0", "method": "ping"}
    assert event.message is event.message and Model.dumps == 1
    plain = {"jsonrpc": "2.0", "id": 1}
    assert TrafficRecorded("demo", "out", plain).message is plain


def test_replace_makes_a_changed_copy() -> None:
    outcome = CallOutcome(error="boom", error_code=-32602)
    changed = replace(outcome, error="boom — explained")
    assert changed.error == "boom — explained" and changed.error_code == -32602
    assert outcome.error == "boom"
    options = AppOptions()
    assert replace(options) == options
    assert ElicitationOutcome.cancel("why").action == "cancel"

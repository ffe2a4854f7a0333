"""The headless run's traffic sink reads ``method`` fast, with the same answers as the event."""

from __future__ import annotations

import io
from typing import Any

import pytest
from mcp_types import (
    ErrorData,
    JSONRPCError,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
)
from pydantic import BaseModel, ConfigDict

from mcp_tui.headless.run import RunEvents
from mcp_tui.session.events import TrafficRecorded


class WithExtras(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: int


MESSAGES: list[Any] = [
    JSONRPCResponse(jsonrpc="2.0", id=7, result={"action": "accept"}),
    JSONRPCRequest(jsonrpc="2.0", id=1, method="tools/call", params={"name": "t"}),
    JSONRPCNotification(jsonrpc="2.0", method="notifications/progress"),
    JSONRPCError(jsonrpc="2.0", id=3, error=ErrorData(code=-32602, message="no")),
    WithExtras(id=1, method="tools/call"),  # type: ignore[call-arg]
    WithExtras(id=1),
    {"jsonrpc": "2.0", "id": 2, "method": "tools/call"},
    {"jsonrpc": "2.0", "id": 2, "result": {}},
    {"method": 5},
]


@pytest.mark.parametrize("raw", MESSAGES, ids=lambda raw: type(raw).__name__)
def test_method_and_id_read_without_dumping_equal_the_slow_reading(raw: Any) -> None:
    """``TrafficRecorded`` reads a model's fields directly; the values are what asking the
    model (or the dict) gives."""
    event = TrafficRecorded("s", "out", raw)
    if isinstance(raw, dict):
        method, id_ = raw.get("method"), raw.get("id")
    else:
        method, id_ = getattr(raw, "method", None), getattr(raw, "id", None)
    assert event.method == (method if isinstance(method, str) else None)
    assert event.id == id_


def test_the_call_result_is_taken_from_the_response_to_the_tools_call() -> None:
    run = RunEvents(io.StringIO(), quiet=True)
    request = JSONRPCRequest(jsonrpc="2.0", id=4, method="tools/call", params={"name": "t"})
    run.sink(TrafficRecorded("s", "out", request))
    run.sink(TrafficRecorded("s", "out", JSONRPCResponse(jsonrpc="2.0", id=9, result={"x": 1})))
    run.sink(TrafficRecorded("s", "in", JSONRPCResponse(jsonrpc="2.0", id=5, result={"y": 1})))
    assert run.raw_result is None
    run.sink(TrafficRecorded("s", "in", JSONRPCResponse(jsonrpc="2.0", id=4, result={"z": 1})))
    assert run.raw_result == {"z": 1}

"""Each SDK workaround, with a test that shows the SDK behaviour it exists for.

When one of the ``*_sdk_still_*`` tests fails after an SDK upgrade, the behaviour is gone: delete
the workaround in ``mcp_tui/session/sdk_workarounds.py`` along with that test.
"""

from __future__ import annotations

import os
import sys
import warnings
from typing import Any

import mcp_types as types
import pytest
from mcp import Client, InputRequiredRoundsExceededError
from mcp.client.session import ClientRequestContext
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPDeprecationWarning
from pydantic import ValidationError

from mcp_tui.config.servers import ServerSpec
from mcp_tui.session.elicitation import ElicitationOutcome
from mcp_tui.session.events import CatalogChanged, Notice, TrafficRecorded
from mcp_tui.session.sdk_workarounds import INPUT_REQUIRED_MAX_ROUNDS, silence_deprecation_warnings
from tests.session.session_testkit import (
    RAW_SERVER,
    Recorder,
    ScriptedHandler,
    connected,
    http_fixture,
    stdio_spec,
)


@pytest.mark.anyio
async def test_sdk_still_rejects_a_2026_result_without_result_type() -> None:
    params = StdioServerParameters(
        command=sys.executable, args=[str(RAW_SERVER), "--omit-result-type"]
    )
    with open(os.devnull, "w") as devnull:
        async with Client(stdio_client(params, errlog=devnull), mode="2026-07-28") as client:
            with pytest.raises(ValidationError, match="resultType"):
                await client.call_tool("hello", {"name": "x"})


@pytest.mark.anyio
async def test_a_result_without_result_type_is_complete() -> None:
    rec = Recorder()
    spec = stdio_spec(RAW_SERVER, "--omit-result-type", mode="2026-07-28")
    async with connected(spec, recorder=rec) as conn:
        catalog = await rec.wait_for(CatalogChanged)
        assert catalog.tools is not None  # tools/list without resultType (and no discover) too
        assert [t.name for t in catalog.tools] == ["hello"]
        assert catalog.prompts == () and catalog.resources == ()  # "method not found": none
        outcome = await conn.call_tool("hello", {"name": "x"})
    assert outcome.error is None and outcome.items[0].text == "hello x"
    # The traffic view shows the answer as the server sent it.
    answers = [e.message for e in rec.of(TrafficRecorded) if e.direction == "in"]
    assert answers and all("resultType" not in m.get("result", {}) for m in answers)
    # No notice about the answers; the only one says the server refused server/discover.
    assert [n for n in rec.of(Notice) if "server/discover" not in n.text] == []


@pytest.mark.anyio
async def test_handshake_era_results_are_left_alone() -> None:
    rec = Recorder()
    spec = stdio_spec(RAW_SERVER, "--omit-result-type", mode="legacy")
    async with connected(spec, recorder=rec) as conn:
        assert (await conn.call_tool("hello", {"name": "y"})).items[0].text == "hello y"


@pytest.mark.anyio
async def test_sdk_still_caps_input_required_rounds_at_10() -> None:
    async def answer(context: ClientRequestContext, params: Any) -> types.ElicitResult:
        return types.ElicitResult(action="accept", content={})

    async with http_fixture() as target, Client(target.url, elicitation_callback=answer) as client:
        assert client.protocol_version == "2026-07-28"
        with pytest.raises(InputRequiredRoundsExceededError):
            await client.call_tool("many_rounds", {"rounds": 12})


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_long_multi_round_flows_are_not_capped(mode: str) -> None:
    handler = ScriptedHandler(ElicitationOutcome("accept"))
    async with (
        http_fixture() as target,
        connected(
            ServerSpec("fx", target, mode=mode),  # type: ignore[arg-type]
            handler,
            rate_limit=(1000, 1.0),  # a machine answers faster than the anti-spam limit allows
        ) as conn,
    ):
        outcome = await conn.call_tool("many_rounds", {"rounds": 25})
    assert outcome.error is None, outcome.error
    assert outcome.items[0].text == "25 rounds"
    assert [r.message for r in handler.seen] == [f"round {i}" for i in range(1, 26)]
    assert INPUT_REQUIRED_MAX_ROUNDS >= 1000


def test_deprecation_warnings_are_silenced_and_nothing_else() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        silence_deprecation_warnings()
        warnings.warn("deprecated feature", MCPDeprecationWarning, stacklevel=1)
        warnings.warn("something else", UserWarning, stacklevel=1)
    assert [str(w.message) for w in caught] == ["something else"]


def test_sdk_still_refuses_a_list_of_numbers_in_elicitation_content() -> None:
    """Why ``parse_requested_schema`` refuses ``items: {"type": "integer"}`` instead of working
    around it: the result model and the wire check both allow only lists of strings (as the spec's
    ``ElicitResult`` does), and null, which a nullable field may send, is allowed."""
    from mcp_types.methods import validate_client_result

    with pytest.raises(ValidationError):
        types.ElicitResult(action="accept", content={"t": [1, 2]})
    with pytest.raises(ValidationError):
        validate_client_result(
            "elicitation/create", "2025-11-25", {"action": "accept", "content": {"t": [1, 2]}}
        )
    ok = types.ElicitResult(action="accept", content={"t": ["1"], "n": None})
    assert ok.model_dump(mode="json", exclude_none=True) == {
        "action": "accept",
        "content": {"t": ["1"], "n": None},
    }


def _tools_result(count: int) -> dict[str, Any]:
    return {
        "tools": [
            {"name": f"t{i}", "description": "d", "inputSchema": {"type": "object"}}
            for i in range(count)
        ]
    }


def _counting_dumps(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    from pydantic import TypeAdapter

    dumps: list[int] = []
    real = TypeAdapter.dump_python

    def counted(self: TypeAdapter[Any], *args: Any, **kwargs: Any) -> Any:
        dumps.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(TypeAdapter, "dump_python", counted)
    return dumps


def test_sdk_still_dumps_each_result_only_to_validate_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Why :func:`validate_result_only` exists: the SDK's check of every result validates it
    against the wire schema, then serialises the validated model and throws that copy away
    (for a 3,000-tool listing, a third of the check and a 6 MB copy of garbage)."""
    from mcp_tui.session.sdk_workarounds import SDK_VALIDATE_SERVER_RESULT

    dumps = _counting_dumps(monkeypatch)
    assert SDK_VALIDATE_SERVER_RESULT("tools/list", "2025-11-25", _tools_result(3)) is None
    assert dumps == [1]


def test_results_are_validated_without_the_discarded_dump(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import mcp.client.session
    import mcp_types.methods

    import mcp_tui.session.connection  # noqa: F401  (installs it, as every connection does)
    from mcp_tui.session.sdk_workarounds import validate_result_only

    assert mcp.client.session._methods.validate_server_result is validate_result_only
    assert mcp_types.methods.validate_server_result is validate_result_only
    dumps = _counting_dumps(monkeypatch)
    validate_result_only("tools/list", "2025-11-25", _tools_result(3))
    assert dumps == []
    # What the SDK's own check refuses, this refuses the same way.
    with pytest.raises(ValidationError):
        validate_result_only("tools/list", "2025-11-25", {"tools": [{"name": 3}]})
    with pytest.raises(KeyError):
        validate_result_only("no/such/method", "2025-11-25", {})
    with pytest.raises(ValueError, match="known protocol version"):
        validate_result_only("tools/list", "1999-01-01", _tools_result(1))


@pytest.mark.anyio
@pytest.mark.parametrize("transport", ["streamable-http", "sse"])
async def test_sdk_still_parses_http_messages_on_the_event_loop(
    transport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Why ``big_http`` exists (item 7): the SDK's HTTP transports parse each message's whole
    text with pydantic's JSON parser on the event loop's thread, so a 14 MB message holds the
    loop (and the UI) for as long as that takes."""
    import threading

    from mcp.client.sse import sse_client
    from mcp.client.streamable_http import streamable_http_client

    loop_thread = threading.get_ident()
    adapter = types.jsonrpc_message_adapter
    real = adapter.validate_json
    parsed: list[tuple[int, int]] = []

    def validate_json(data: Any, *args: Any, **kwargs: Any) -> Any:
        parsed.append((threading.get_ident(), len(data)))
        return real(data, *args, **kwargs)

    monkeypatch.setattr(adapter, "validate_json", validate_json)
    async with http_fixture(transport) as target:
        opened = sse_client if transport == "sse" else streamable_http_client
        async with Client(opened(target.url), mode="legacy") as client:
            # under the SDK's own 1 MiB limit on one SSE event
            await client.call_tool("big_meta", {"keys": 1500})
    big = [(thread, size) for thread, size in parsed if size > 800_000]
    assert big and all(thread == loop_thread for thread, _ in big)

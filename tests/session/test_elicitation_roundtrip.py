"""Elicitation end to end on both protocol eras: what the server receives is exactly what the
handler chose, types included; refusals, cancellations, policies and the anti-spam gate."""

from __future__ import annotations

import json
import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import pytest

from mcp_tui.config.servers import ElicitationPolicy, ServerSpec
from mcp_tui.schema.fields import FieldKind
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.events import (
    CallOutcome,
    ElicitationCompleted,
    ElicitationPauseChanged,
    ElicitationRefused,
    Notice,
)
from tests.session.session_testkit import (
    ELICIT_SERVER,
    RAW_SERVER,
    Recorder,
    ScriptedHandler,
    connected,
    http_fixture,
    stdio_spec,
)

ERAS = [("legacy", "2025-11-25"), ("2026-07-28", "2026-07-28")]

ANSWER: dict[str, Any] = {
    "name": "Grace",
    "age": 36,
    "ratio": 0.25,
    "subscribe": False,
    "color": "blue",
    "tags": ["a", "c"],
}


@asynccontextmanager
async def fixture_spec(
    transport: str, mode: str, policy: ElicitationPolicy = "ask"
) -> AsyncIterator[ServerSpec]:
    if transport == "stdio":
        spec = stdio_spec(ELICIT_SERVER, mode=mode)  # type: ignore[arg-type]
        yield ServerSpec(spec.name, spec.target, spec.mode, policy)
    else:
        async with http_fixture(transport) as target:
            yield ServerSpec("fx", target, mode=mode, elicitation=policy)  # type: ignore[arg-type]


def echoed(outcome: CallOutcome) -> dict[str, Any]:
    assert outcome.error is None, outcome.error
    assert not outcome.is_error, outcome.items
    text = outcome.items[0].text
    assert text is not None
    result: dict[str, Any] = json.loads(text)
    return result


@pytest.mark.anyio
@pytest.mark.parametrize("transport", ["stdio", "streamable-http", "sse"])
@pytest.mark.parametrize(("mode", "version"), ERAS)
async def test_form_answer_reaches_the_server_exactly(
    transport: str, mode: str, version: str
) -> None:
    handler = ScriptedHandler(ElicitationOutcome("accept", dict(ANSWER)))
    async with fixture_spec(transport, mode) as spec, connected(spec, handler) as conn:
        outcome = await conn.call_tool("all_fields", {}, call_id=5)
    server_saw = echoed(outcome)
    assert server_saw["action"] == "accept"
    assert server_saw["content"] == ANSWER
    assert type(server_saw["content"]["age"]) is int  # 36, never 36.0
    assert type(server_saw["content"]["ratio"]) is float
    if version == "2026-07-28":
        assert server_saw["state"] == "round-1"  # requestState echoed back

    [request] = handler.seen
    assert request.server == "fx"  # our name for the connection, not the server's
    assert request.mode == "form" and request.message == "Please fill in every field"
    assert request.tool == "all_fields" and request.call_id == 5
    assert request.protocol_version == version
    assert request.request_key == ("form" if version == "2026-07-28" else 1)
    assert request.form is not None
    assert [f.name for f in request.form.fields] == list(ANSWER)
    assert request.form.fields[1].kind is FieldKind.INTEGER


@pytest.mark.anyio
@pytest.mark.parametrize(("mode", "version"), ERAS)
@pytest.mark.parametrize("action", ["decline", "cancel"])
async def test_decline_and_cancel_arrive_as_such(mode: str, version: str, action: str) -> None:
    handler = ScriptedHandler(ElicitationOutcome(action, {"ignored": "content"}))  # type: ignore[arg-type]
    async with fixture_spec("streamable-http", mode) as spec, connected(spec, handler) as conn:
        saw = echoed(await conn.call_tool("all_fields"))
    assert saw["action"] == action and saw["content"] is None


@pytest.mark.anyio
@pytest.mark.parametrize(("mode", "version"), ERAS)
async def test_empty_form_is_a_confirmation(mode: str, version: str) -> None:
    handler = ScriptedHandler(ElicitationOutcome("accept"))
    async with fixture_spec("streamable-http", mode) as spec, connected(spec, handler) as conn:
        saw = echoed(await conn.call_tool("confirm"))
    assert saw["action"] == "accept" and saw["content"] == {}
    assert handler.seen[0].form is not None and handler.seen[0].form.fields == ()


@pytest.mark.anyio
@pytest.mark.parametrize(("mode", "version"), ERAS)
async def test_refused_schema_is_answered_32602_with_the_problems(mode: str, version: str) -> None:
    handler = ScriptedHandler(ElicitationOutcome("accept", {}))
    rec = Recorder()
    async with fixture_spec("streamable-http", mode) as spec, connected(spec, handler, rec) as conn:
        outcome = await conn.call_tool("nested_form")
    assert handler.seen == []  # never shown
    [refused] = rec.of(ElicitationRefused)
    assert refused.server == "fx" and refused.message == "Where do you live?"
    assert any("address" in p and "nested" in p for p in refused.problems)
    if version == "2025-11-25":
        saw = echoed(outcome)  # the server got the JSON-RPC error and reported it
        assert saw["code"] == -32602
        assert "address" in saw["error"] and "cannot show this requested schema" in saw["error"]
    else:  # 2026-07-28 has no per-request error reply: the call ends locally with the error
        assert outcome.error_code == -32602
        assert outcome.error is not None and "address" in outcome.error


@pytest.mark.anyio
@pytest.mark.parametrize("transport", ["stdio", "streamable-http"])
async def test_server_withdrawing_the_request_cancels_the_handler(transport: str) -> None:
    handler = ScriptedHandler()  # waits until cancelled
    async with fixture_spec(transport, "legacy") as spec, connected(spec, handler) as conn:
        outcome = await conn.call_tool("server_gives_up", {"seconds": 0.3})
        assert outcome.items[0].text == "gave up"
        with anyio.fail_after(5):
            while not handler.cancelled:
                await anyio.sleep(0.01)
    assert handler.cancelled == handler.seen and handler.open == 0


@pytest.mark.anyio
@pytest.mark.parametrize(("mode", "version"), ERAS)
async def test_closing_the_connection_closes_an_open_form(mode: str, version: str) -> None:
    handler = ScriptedHandler()  # the user is still typing
    outcomes: list[CallOutcome] = []
    with anyio.fail_after(15):  # a form left open would hang here
        await _close_during_form(mode, handler, outcomes)
    assert handler.cancelled == handler.seen and handler.open == 0
    [outcome] = outcomes
    assert outcome.error is not None and outcome.error_code == -32000


async def _close_during_form(
    mode: str, handler: ScriptedHandler, outcomes: list[CallOutcome]
) -> None:
    async with (
        fixture_spec("streamable-http", mode) as spec,
        connected(spec, handler) as conn,
        anyio.create_task_group() as tg,
    ):

        async def call() -> None:
            outcomes.append(await conn.call_tool("all_fields"))

        tg.start_soon(call)
        with anyio.fail_after(5):
            await handler.arrived.wait()
        await conn.close()


@pytest.mark.anyio
@pytest.mark.parametrize("policy", ["decline", "cancel"])
async def test_policy_answers_at_once_with_a_notice(policy: ElicitationPolicy) -> None:
    handler = ScriptedHandler(ElicitationOutcome("accept", dict(ANSWER)))
    rec = Recorder()
    async with (
        fixture_spec("streamable-http", "legacy", policy) as spec,
        connected(spec, handler, rec) as conn,
    ):
        saw = echoed(await conn.call_tool("all_fields"))
    assert saw["action"] == policy and handler.seen == []
    [notice] = [n for n in rec.of(Notice) if "automatically" in n.text]
    assert policy in notice.text and "Please fill in every field" in notice.text


@pytest.mark.anyio
async def test_stop_asking_toggle() -> None:
    handler = ScriptedHandler(ElicitationOutcome("accept", dict(ANSWER)))
    rec = Recorder()
    async with (
        fixture_spec("streamable-http", "legacy") as spec,
        connected(spec, handler, rec) as conn,
    ):
        conn.set_elicitation_paused(True)
        assert conn.elicitation_paused
        assert echoed(await conn.call_tool("all_fields"))["action"] == "cancel"
        assert handler.seen == []
        # Said as it happened: the client cancelled on its own, not the person.
        [auto] = [n for n in rec.of(Notice) if "stop asking" in n.text]
        assert auto.text.startswith("cancelled automatically (stop asking is on): ")
        conn.set_elicitation_paused(False)
        assert echoed(await conn.call_tool("all_fields"))["action"] == "accept"
    assert [(e.paused, e.by_limit) for e in rec.of(ElicitationPauseChanged)] == [
        (True, False),
        (False, False),
    ]


@pytest.mark.anyio
async def test_rate_limit_pauses_the_server_with_one_notice() -> None:
    handler = ScriptedHandler(ElicitationOutcome("accept", dict(ANSWER)))
    rec = Recorder()
    async with (
        fixture_spec("streamable-http", "legacy") as spec,
        connected(spec, handler, rec, rate_limit=(2, 60.0)) as conn,
    ):
        actions = [echoed(await conn.call_tool("all_fields"))["action"] for _ in range(4)]
        assert conn.elicitation_paused
    assert actions == ["accept", "accept", "cancel", "cancel"]
    assert len(handler.seen) == 2
    assert [(e.paused, e.by_limit) for e in rec.of(ElicitationPauseChanged)] == [(True, True)]
    assert len([n for n in rec.of(Notice) if "more than 2" in n.text]) == 1


@pytest.mark.anyio
@pytest.mark.parametrize(("mode", "version"), ERAS)
async def test_url_mode_and_completion(mode: str, version: str) -> None:
    handler = ScriptedHandler(ElicitationOutcome("accept", {"dropped": "for url mode"}))
    rec = Recorder()
    async with fixture_spec("streamable-http", mode) as spec, connected(spec, handler, rec) as conn:
        outcome = await conn.call_tool("url_flow", call_id=9)
        if version == "2025-11-25":
            completed = await rec.wait_for(ElicitationCompleted)
            assert completed == ElicitationCompleted("fx", "elic-001")
    [request] = handler.seen
    assert (request.mode, request.url, request.message) == (
        "url",
        "https://example.com/connect",
        "Connect your account",
    )
    assert request.tool == "url_flow" and request.call_id == 9 and request.form is None
    if version == "2025-11-25":
        assert request.elicitation_id == "elic-001"
        assert outcome.items[0].text == "url action=accept"
    else:
        assert request.elicitation_id is None
        assert outcome.items[0].text == "url action=accept (2026)"
        assert rec.of(ElicitationCompleted) == []


class Exploding:
    async def elicit(self, request: ElicitationRequest) -> ElicitationOutcome:
        raise RuntimeError("the form blew up")


@pytest.mark.anyio
@pytest.mark.parametrize(("mode", "version"), ERAS)
async def test_a_failing_handler_becomes_cancel(mode: str, version: str) -> None:
    rec = Recorder()
    async with (
        fixture_spec("streamable-http", mode) as spec,
        connected(spec, Exploding(), rec) as conn,
    ):
        saw = echoed(await conn.call_tool("all_fields"))
    assert saw["action"] == "cancel"
    assert any("the form blew up" in n.text and n.severity == "error" for n in rec.of(Notice))


@pytest.mark.anyio
async def test_content_json_cannot_carry_is_not_sent() -> None:
    handler = ScriptedHandler(ElicitationOutcome("accept", {**ANSWER, "ratio": math.nan}))
    rec = Recorder()
    async with (
        fixture_spec("streamable-http", "legacy") as spec,
        connected(spec, handler, rec) as conn,
    ):
        saw = echoed(await conn.call_tool("all_fields"))
    assert saw["action"] == "cancel"
    assert any("ratio" in n.text for n in rec.of(Notice))


async def _answer_with_call_id(request: ElicitationRequest) -> ElicitationOutcome:
    await anyio.sleep(0.2)  # keep both calls in flight at once
    return ElicitationOutcome("accept", {**ANSWER, "name": f"call {request.call_id}"})


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("transport", "mode"), [("streamable-http", "legacy"), ("stdio", "2026-07-28")]
)
async def test_concurrent_calls_are_attributed_to_the_right_call(transport: str, mode: str) -> None:
    handler = ScriptedHandler(_answer_with_call_id)
    results: dict[int, CallOutcome] = {}
    async with fixture_spec(transport, mode) as spec, connected(spec, handler) as conn:

        async def call(call_id: int) -> None:
            results[call_id] = await conn.call_tool("all_fields", call_id=call_id)

        async with anyio.create_task_group() as tg:
            tg.start_soon(call, 1)
            tg.start_soon(call, 2)
    assert {r.call_id for r in handler.seen} == {1, 2}
    for call_id, outcome in results.items():
        assert echoed(outcome)["content"]["name"] == f"call {call_id}"


@pytest.mark.anyio
async def test_concurrent_calls_on_stdio_2025_are_not_guessed() -> None:
    """stdio on 2025 eras carries no context to the callback: with two calls in flight the call
    is unknown, and saying so beats naming the wrong one."""
    handler = ScriptedHandler(_answer_with_call_id)
    async with (
        fixture_spec("stdio", "legacy") as spec,
        connected(spec, handler) as conn,
        anyio.create_task_group() as tg,
    ):
        tg.start_soon(conn.call_tool, "all_fields")
        tg.start_soon(conn.call_tool, "all_fields")
    assert len(handler.seen) == 2
    assert all(r.tool is None and r.call_id is None for r in handler.seen)


@pytest.mark.anyio
async def test_a_flood_of_requests_reaches_the_user_only_up_to_the_limit() -> None:
    """200 requests at once: 10 forms open, the rest cancelled at once, one notice."""
    from mcp_tui.session.events import TrafficRecorded

    handler = ScriptedHandler()  # the user leaves the forms open
    rec = Recorder()
    spec = stdio_spec(RAW_SERVER, "--elicit-flood", "200")
    async with connected(spec, handler, rec) as conn:
        with anyio.fail_after(10):
            while len([e for e in rec.of(TrafficRecorded) if _is_cancel_answer(e.message)]) < 190:
                await anyio.sleep(0.02)
        assert conn.elicitation_paused
        assert len(handler.seen) == 10 and handler.open == 10
    assert [(e.paused, e.by_limit) for e in rec.of(ElicitationPauseChanged)] == [(True, True)]
    assert len([n for n in rec.of(Notice) if "more than 10" in n.text]) == 1
    assert len(handler.cancelled) == 10  # closing the connection closed the open forms


def _is_cancel_answer(message: dict[str, Any]) -> bool:
    result = message.get("result")
    return isinstance(result, dict) and result.get("action") == "cancel"

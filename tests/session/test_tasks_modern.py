"""Tasks on 2026-07-28 (``session/tasks_modern.py``): the ``io.modelcontextprotocol/tasks``
extension against a server written on the SDK's own extension API
(``tests/fixtures/task_server_2026.py``), in-process (the SDK client and server in one loop) for
the protocol, and over stdio through a ``ServerConnection`` for the connection's part."""

from __future__ import annotations

import math
import sys
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.session import ClientRequestContext
from mcp.shared.exceptions import MCPError

from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.errors import TaskEnded
from mcp_tui.session import tasks_modern
from mcp_tui.session.elicitation import ElicitationOutcome
from mcp_tui.session.elicitation_bridge import CallTracker, ElicitationBridge
from mcp_tui.session.elicitation_gate import ElicitationGate
from mcp_tui.session.era import MODERN_ERA, needed_era
from mcp_tui.session.events import CallOutcome, ElicitationPauseChanged, Notice
from mcp_tui.session.task_inputs import MAX_ANSWERS_PER_UPDATE
from mcp_tui.session.tasks_modern import EXTENSION, ModernTasks, calling
from tests.session.session_testkit import (
    FIXTURES,
    Recorder,
    ScriptedHandler,
    connected,
    load_fixture,
)

pytestmark = pytest.mark.anyio
fixture = load_fixture("task_server_2026")


@pytest.fixture(autouse=True)
def fresh_log() -> None:
    fixture.LOG.clear()
    fixture.TASKS.clear()
    fixture.FAILING_GETS.clear()


def logged(method: str) -> list[dict[str, Any]]:
    return [params for m, params in fixture.LOG if m == method]


class Pair:
    """An in-process client with the extension, its notices and its progress messages."""

    def __init__(self) -> None:
        self.recorder = Recorder()
        self.task_by_call: dict[int, str] = {}
        self.extension = ModernTasks("t", self.recorder, self.task_by_call)
        self.progress: list[str] = []
        self.asked: list[tuple[Any, Any]] = []
        self.answer: Any = types.ElicitResult(action="accept", content={"confirm": True})

    async def on_progress(self, done: float, total: float | None, message: str | None) -> None:
        self.progress.append(message or "")

    async def elicit(self, ctx: Any, params: Any) -> Any:
        self.asked.append((ctx, params))
        answer = self.answer
        return await answer() if callable(answer) else answer

    def client(self) -> Client:
        return Client(
            fixture.build_server(),
            mode="2026-07-28",
            extensions=[self.extension],
            elicitation_callback=self.elicit,
        )

    async def call(self, client: Client, tool: str, call_id: int = 1, **args: Any) -> Any:
        with calling(tool, call_id, self.on_progress):
            return await client.call_tool(tool, args)

    def notices(self) -> str:
        return "\n".join(n.text for n in self.recorder.of(Notice))


def text_of(result: types.CallToolResult) -> str:
    return " ".join(c.text for c in result.content if isinstance(c, types.TextContent))


async def test_a_task_is_polled_at_the_servers_interval_and_its_inline_result_returned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    waits: list[float] = []

    async def recorded_sleep(seconds: float) -> None:
        waits.append(seconds)
        await anyio.sleep(seconds)

    monkeypatch.setattr(tasks_modern, "sleep", recorded_sleep)
    pair = Pair()
    async with pair.client() as client:
        result = await pair.call(client, "count", n=3)
    assert text_of(result) == "counted to 3"
    # the server's pollIntervalMs before every tasks/get, never a busy loop
    assert waits and set(waits) == {fixture.POLL_MS / 1000}
    assert len(logged("tasks/get")) == len(waits)
    assert pair.progress[0] == "task working"
    assert any(p.startswith("task working: step") for p in pair.progress)
    assert "count runs as task" in pair.notices() and "count: task completed" in pair.notices()
    assert pair.task_by_call == {}  # forgotten once the call ended


async def test_the_input_a_task_needs_is_asked_once_and_answered_with_tasks_update() -> None:
    pair = Pair()

    async def after_three_polls() -> types.ElicitResult:
        with anyio.fail_after(10):
            while len(logged("tasks/get")) < 3:  # the same request listed on every poll
                await anyio.sleep(0.01)
        return types.ElicitResult(action="accept", content={"confirm": True})

    pair.answer = after_three_polls
    async with pair.client() as client:
        result = await pair.call(client, "confirm", call_id=4)
    assert text_of(result) == "Deleted"
    [(ctx, params)] = pair.asked  # asked once, however many polls listed it
    task_id = logged("tasks/get")[0]["taskId"]
    assert params.message == "Delete it?"
    assert ctx.meta == {"io.modelcontextprotocol/related-task": {"taskId": task_id}}
    [update] = logged("tasks/update")
    assert update == {
        "taskId": task_id,
        "inputResponses": {ctx.request_id: {"action": "accept", "content": {"confirm": True}}},
    }
    assert "task input_required: waiting for you" in pair.notices()


async def test_cancelling_the_call_sends_tasks_cancel() -> None:
    pair = Pair()
    async with pair.client() as client:
        async with anyio.create_task_group() as tg:

            async def call() -> None:
                await pair.call(client, "forever", call_id=9)

            tg.start_soon(call)
            with anyio.fail_after(10):
                while 9 not in pair.task_by_call:
                    await anyio.sleep(0.01)
            task_id = pair.task_by_call[9]
            tg.cancel_scope.cancel()
        with anyio.fail_after(10):
            while not logged("tasks/cancel"):
                await anyio.sleep(0.01)
    assert logged("tasks/cancel") == [{"taskId": task_id}]
    assert fixture.TASKS[task_id].status == "cancelled"


async def test_a_form_still_open_when_the_task_is_cancelled_closes_and_nothing_is_sent() -> None:
    pair = Pair()
    opened = anyio.Event()

    async def never() -> None:
        opened.set()
        await anyio.sleep_forever()

    pair.answer = never
    async with pair.client() as client, anyio.create_task_group() as tg:

        async def call() -> None:
            with pytest.raises(TaskEnded, match="server cancelled task"):
                await pair.call(client, "confirm")

        tg.start_soon(call)
        with anyio.fail_after(10):
            await opened.wait()
        [task] = fixture.TASKS.values()
        task.job.cancel()
        task.status, task.message = "cancelled", "operator stopped it"
    assert logged("tasks/update") == [] and logged("tasks/cancel") == []


@pytest.mark.parametrize("asked", [10_000, 100_000])
async def test_a_task_asking_thousands_at_once_is_a_flood_held_to_the_same_limits(
    asked: int,
) -> None:
    """One ``tasks/get`` listing 10,000 (100,000) forms: as many reach the person as the rate
    limit lets through (10), the rest are answered cancel in a few ``tasks/update`` batches, one
    notice says so, and cancelling the call still sends ``tasks/cancel`` with the forms open."""
    recorder, handler, task_by_call = Recorder(), ScriptedHandler(), {}  # forms stay open
    bridge = ElicitationBridge(
        "t",
        handler=handler,
        sink=recorder,
        gate=ElicitationGate(),  # the defaults: 10 within 10 s, 20 waiting
        calls=CallTracker(),
        protocol_version=lambda: "2026-07-28",
    )
    extension = ModernTasks("t", recorder, task_by_call, bridge)
    refused = asked - 10

    def answered() -> list[dict[str, Any]]:
        return [a for u in logged("tasks/update") for a in u["inputResponses"].values()]

    client = Client(
        fixture.build_server(),
        mode="2026-07-28",
        extensions=[extension],
        elicitation_callback=bridge,
    )
    async with client, anyio.create_task_group() as tg:

        async def call() -> None:
            with calling("flood", 5, _ignore_progress):
                await client.call_tool("flood", {"n": asked})

        tg.start_soon(call)
        with anyio.fail_after(60):
            while len(answered()) < refused or len(handler.seen) < 10:
                await anyio.sleep(0.02)
        task_id = task_by_call[5]
        tg.cancel_scope.cancel()
    assert len(handler.seen) == 10 and len(handler.cancelled) == 10  # shown, then closed
    assert len(logged("tasks/update")) == math.ceil(refused / MAX_ANSWERS_PER_UPDATE)
    assert len(answered()) == refused and {a["action"] for a in answered()} == {"cancel"}
    [notice] = [n.text for n in recorder.of(Notice) if "at once" in n.text]
    assert f"asks {asked:,} questions at once: 10 reach you, {refused:,} were answered" in notice
    assert "more than 10 elicitation requests within 10 s" in notice
    assert [(e.paused, e.by_limit) for e in recorder.of(ElicitationPauseChanged)] == [(True, True)]
    assert logged("tasks/cancel") == [{"taskId": task_id}]
    assert bridge.gate.pending == 0  # every slot the forms took was given back


async def _ignore_progress(done: float, total: float | None, message: str | None) -> None:
    return None


async def test_a_slot_taken_for_a_tasks_request_is_given_back_once_used_or_not() -> None:
    """``admit_many`` counts a poll's requests; each admitted one takes its slot in
    ``admitted()``, where the bridge does not ask the gate again, and gives it back once."""
    handler = ScriptedHandler(ElicitationOutcome("cancel"))
    bridge = ElicitationBridge(
        "t",
        handler=handler,
        sink=Recorder(),
        gate=ElicitationGate(max_requests=5),
        calls=CallTracker(),
        protocol_version=lambda: "2026-07-28",
    )
    assert bridge.admit_many(2) == (2, None) and bridge.gate.pending == 2
    with bridge.admitted():
        pass  # a roots/list: answered without reaching the gate
    assert bridge.gate.pending == 1
    context = ClientRequestContext(session=None, request_id="k", meta=None)  # type: ignore[arg-type]
    form = types.ElicitRequestFormParams(
        message="m", requested_schema={"type": "object", "properties": {}}
    )
    with bridge.admitted():
        answer = await bridge(context, form)
    assert answer == types.ElicitResult(action="cancel") and len(handler.seen) == 1
    assert bridge.gate.pending == 0
    assert bridge.admit_many(3) == (3, None)  # 2 + 3 arrivals: the form was not counted twice


async def test_a_failed_task_raises_its_json_rpc_error() -> None:
    pair = Pair()
    async with pair.client() as client:
        with pytest.raises(MCPError) as raised:
            await pair.call(client, "fails")
    assert (raised.value.code, raised.value.message) == (-32603, "disk full")
    assert logged("tasks/cancel") == []  # it had ended: nothing to cancel


async def test_a_task_the_server_cancels_ends_the_call_with_its_reason() -> None:
    pair = Pair()
    async with pair.client() as client:
        with pytest.raises(TaskEnded, match=r"cancelled task \S+ of dropped: the queue was"):
            await pair.call(client, "dropped")


async def test_a_request_the_client_cannot_answer_ends_the_call_and_cancels_the_task() -> None:
    pair = Pair()
    pair.answer = types.ErrorData(code=-32602, message="cannot show this form")
    async with pair.client() as client:
        with pytest.raises(MCPError, match="cannot show this form"):
            await pair.call(client, "confirm")
    assert len(logged("tasks/cancel")) == 1 and logged("tasks/update") == []


async def test_a_failed_poll_is_asked_again_and_an_unknown_task_ends_the_call() -> None:
    pair = Pair()
    fixture.FAILING_GETS[:] = [-32603, -32603]  # two glitches in a row: the task goes on
    async with pair.client() as client:
        result = await pair.call(client, "count", n=1)
        assert text_of(result) == "counted to 1"
        assert pair.notices().count("failed: tasks/get refused (-32603); asking again") == 2
        fixture.FAILING_GETS[:] = [-32602]  # the server no longer knows the task
        with pytest.raises(MCPError, match=r"tasks/get for task \S+ failed: tasks/get refused"):
            await pair.call(client, "forever")
    assert len(logged("tasks/cancel")) == 1  # it never said it ended: cancelled all the same


async def test_a_plain_tool_is_not_a_task_and_the_extension_is_declared() -> None:
    pair = Pair()
    async with pair.client() as client:
        result = await pair.call(client, "plain")
    assert text_of(result) == "plain result" and not fixture.LOG


def test_a_nested_task_and_the_2025_name_of_the_poll_interval_are_read_generously() -> None:
    nested = {"resultType": "task", "task": {"taskId": "t1", "status": "working"}}
    assert tasks_modern.CreatedTask.model_validate(nested).task_id == "t1"
    flat = {"resultType": "task", "taskId": "t2", "status": "working", "pollInterval": 2500}
    assert tasks_modern.CreatedTask.model_validate(flat).poll_interval_ms == 2500
    got = {"task": {"taskId": "t1", "status": "completed"}, "result": {"content": []}}
    detailed = tasks_modern.DetailedTask.model_validate(got)
    assert (detailed.status, detailed.result) == ("completed", {"content": []})
    exact = {"taskId": "t3", "status": "working", "pollIntervalMs": 700, "pollInterval": 9}
    assert tasks_modern.DetailedTask.model_validate(exact).poll_interval_ms == 700


# ---- the -32021 of a task tool on 2025-11-25, and the connection over stdio -----------------


def test_a_refusal_for_want_of_the_tasks_extension_needs_2026() -> None:
    refused = CallOutcome(
        error="missing required client capability",
        error_code=-32021,
        error_data={"requiredCapabilities": {"extensions": {EXTENSION: {}}}},
    )
    assert needed_era(refused, "2025-11-25") == MODERN_ERA
    assert needed_era(refused, "2026-07-28") is None
    other = CallOutcome(error="x", error_code=-32021, error_data={"requiredCapabilities": {}})
    assert needed_era(other, "2025-11-25") is None


def stdio(mode: str) -> ServerSpec:
    script = FIXTURES / "task_server_2026.py"
    return ServerSpec("tasks", StdioTarget(sys.executable, (str(script),)), mode=mode)  # type: ignore[arg-type]


async def test_in_the_default_mode_a_task_tool_is_called_again_on_2026_and_its_form_asked() -> None:
    """``auto`` connects on 2025-11-25, where the task tool refuses with -32021; the call is
    redone on the 2026-07-28 connection, where it runs as a task whose form reaches the
    connection's handler with the tool and the task named."""
    handler = ScriptedHandler(ElicitationOutcome("accept", {"confirm": True}))
    recorder = Recorder()
    async with connected(stdio("auto"), handler=handler, recorder=recorder) as conn:
        assert conn.info.protocol_version == "2025-11-25"
        outcome = await conn.call_tool("confirm", {}, call_id=3)
    assert outcome.error is None, outcome.error
    assert [i.text for i in outcome.items] == ["Deleted"]
    [request] = handler.seen
    assert (request.tool, request.call_id, request.mode) == ("confirm", 3, "form")
    assert request.related_task and request.protocol_version == MODERN_ERA
    notices = "\n".join(n.text for n in recorder.of(Notice))
    assert "calling it again on a 2026-07-28 connection" in notices
    assert f"confirm runs as task {request.related_task}" in notices

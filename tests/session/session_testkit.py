"""Helpers for the session tests: fixture servers, an event recorder, a scripted handler.

Imported by the tests as ``tests.session.session_testkit`` (the repository root is on
``sys.path``: pytest's ``pythonpath``).

In-process ``MCPServer``s call ``logging.basicConfig`` with a Rich handler on stderr when built;
giving the root logger a handler first makes that a no-op.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import anyio

from mcp_tui.config.servers import HttpTarget, ProtocolMode, ServerSpec, StdioTarget
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.events import SessionEvent
from tests.fixture_kit import load_by_path
from tests.waits import wait_until

if not logging.getLogger().handlers:
    logging.getLogger().addHandler(logging.NullHandler())

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
ELICIT_SERVER = FIXTURES / "elicit_server.py"
RAW_SERVER = FIXTURES / "raw_server.py"

E = TypeVar("E")


def load_fixture(name: str) -> ModuleType:
    """Import ``tests/fixtures/<name>.py`` by path (tests are not a package)."""
    return load_by_path(f"mcp_tui_test_fixture_{name}", FIXTURES / f"{name}.py")


def stdio_spec(
    script: Path = ELICIT_SERVER, *args: str, mode: ProtocolMode = "legacy", name: str = "fx"
) -> ServerSpec:
    return ServerSpec(name, StdioTarget(sys.executable, (str(script), *args)), mode=mode)


@dataclass
class Recorder:
    """An ``EventSink`` that keeps every event, with helpers to wait for and filter them."""

    events: list[SessionEvent] = field(default_factory=list)

    def __call__(self, event: SessionEvent) -> None:
        self.events.append(event)

    def of(self, kind: type[E]) -> list[E]:
        return [e for e in self.events if isinstance(e, kind)]

    async def wait_for(
        self, kind: type[E], predicate: Callable[[E], bool] = lambda _e: True, timeout: float = 10
    ) -> E:
        """The first ``kind`` event ``predicate`` accepts, once it has come (``wait_until``)."""
        return await wait_until(
            lambda: next((e for e in self.of(kind) if predicate(e)), None),
            timeout,
            message=f"no {kind.__name__} event that the test waited for came",
        )


Answer = Callable[[ElicitationRequest], Awaitable[ElicitationOutcome]]


class ScriptedHandler:
    """An ``ElicitationHandler`` for tests: records requests, answers with ``answer``, notes
    cancellation (the UI closes its form in a ``finally``; here we only record it)."""

    def __init__(self, answer: Answer | ElicitationOutcome | None = None) -> None:
        self._answer = answer
        self.seen: list[ElicitationRequest] = []
        self.cancelled: list[ElicitationRequest] = []
        self.open = 0
        self.arrived = anyio.Event()

    async def elicit(self, request: ElicitationRequest) -> ElicitationOutcome:
        self.seen.append(request)
        self.arrived.set()
        self.open += 1
        try:
            answer = self._answer
            if answer is None:  # wait until cancelled
                await anyio.sleep_forever()
                raise AssertionError("unreachable")
            if isinstance(answer, ElicitationOutcome):
                return answer
            return await answer(request)
        except BaseException as exc:
            if isinstance(exc, anyio.get_cancelled_exc_class()):
                self.cancelled.append(request)
            raise
        finally:
            self.open -= 1


@asynccontextmanager
async def serve_http(app: Any) -> AsyncIterator[int]:
    """Serve an ASGI app on 127.0.0.1 (a free port) in this event loop; yield the port."""
    import uvicorn

    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    async with anyio.create_task_group() as tg:
        tg.start_soon(server.serve)
        with anyio.fail_after(10):
            while not server.started:
                await anyio.sleep(0.01)
        port: int = server.servers[0].sockets[0].getsockname()[1]
        try:
            yield port
        finally:
            server.should_exit = True


@asynccontextmanager
async def http_fixture(transport: str = "streamable-http") -> AsyncIterator[HttpTarget]:
    """The elicit fixture server over Streamable HTTP or legacy SSE, on 127.0.0.1."""
    srv = load_fixture("elicit_server").build_server()
    if transport == "sse":
        async with serve_http(srv.sse_app()) as port:
            yield HttpTarget(f"http://127.0.0.1:{port}/sse", transport="sse")
    else:
        async with serve_http(srv.streamable_http_app()) as port:
            yield HttpTarget(f"http://127.0.0.1:{port}/mcp")


@asynccontextmanager
async def connected(
    spec: ServerSpec, handler: Any = None, recorder: Recorder | None = None, **kwargs: Any
) -> AsyncIterator[Any]:
    """A ``ServerConnection`` running in a task group, ready; closed on exit."""
    from mcp_tui.session.connection import ServerConnection

    conn = ServerConnection(
        spec, handler=handler or ScriptedHandler(), sink=recorder or Recorder(), **kwargs
    )
    async with anyio.create_task_group() as tg:
        tg.start_soon(conn.run)
        ready = await conn.wait_ready(30)
        assert ready, f"not ready: {conn.state} {conn.detail}"
        try:
            yield conn
        finally:
            await conn.close()

"""Every place mcp-tui works around a behaviour of the ``mcp`` SDK (2.3.0), in one module.

Each workaround names the behaviour, why it hurts a user, and the test that shows it
(``tests/session/test_sdk_workarounds.py``). When the SDK changes, that test fails first: re-check
the behaviour and delete the workaround if it is gone.

1. **A 2026-07-28 result without ``resultType``.** The spec says a result that carries no
   ``resultType`` is a complete result, but ``mcp`` 2.3.0 validates every 2026-07-28 result
   against a wire schema in which ``resultType`` is required, so ``Client.call_tool`` (and
   ``get_prompt``, ``read_resource``, the list methods) raise a pydantic ``ValidationError`` on an
   answer from a conforming server that leaves it out. :class:`ResultTypeFixup` adds
   ``"resultType": "complete"`` to such responses before the SDK sees them. It sits on the
   transport streams (``tap.py``), and acts only on responses to requests that were stamped with a
   2026-07-28 protocol version in ``_meta``, so handshake-era traffic is never touched. The traffic
   log records the message as the server sent it.

2. **A silent cap on ``input_required`` rounds.** ``Client`` gives up after
   ``input_required_max_rounds=10`` rounds; rounds that carry only ``requestState`` (the server is
   still waiting on something out of band, such as a URL-mode sign-in) are retried after 50 ms
   doubling to 250 ms, so the default gives up after about 2 s of waiting. A person completing a
   multi-step flow in a browser takes minutes. :data:`INPUT_REQUIRED_MAX_ROUNDS` is 1000: about
   four minutes of state-only waiting, and far more rounds than any real form flow; past it the
   call ends with a readable error instead of looping forever on a broken server.

3. **Deprecation warnings on the terminal.** The SDK warns with ``MCPDeprecationWarning`` (a
   ``UserWarning``, shown by default) when deprecated-but-needed features are used (logging
   levels on 2025-era servers); Python prints warnings to stderr, over the Textual screen.
   :func:`silence_deprecation_warnings` filters exactly that category.

4. **No bound on stdio message size.** ``stdio_client`` concatenates text until a newline with no
   limit (quadratic, unbounded memory). ``stdio_transport.py`` is a copy of that transport with a
   linear, bounded reader; it lives in its own module because it is a whole transport.

5. **No task-augmented ``tools/call``.** ``ClientSession.send_request`` checks every result
   against the SDK's per-version result table, where ``tools/call`` answers a ``CallToolResult``
   only ("tasks/* deliberately absent"), so the ``CreateTaskResult`` a server rightly returns for a
   call with ``task`` metadata fails as "content: Field required" before the caller sees it.
   :func:`send_task_call` sends the same typed request the way ``send_request`` does (the
   session's own stamp, then its dispatcher) and validates the answer as a ``CreateTaskResult``.
   ``tasks/get``, ``tasks/result`` and ``tasks/cancel`` are not in the table, so ``send_request``
   passes them and needs no help.

6. **Every result serialised only to be thrown away.** ``ClientSession.send_request`` checks each
   result with ``mcp_types.methods.validate_server_result``, which validates it against the
   negotiated version's wire schema and then dumps the validated model back to JSON-shaped dicts
   that nobody reads. For a 3,000-tool ``tools/list`` that dump is a third of the check's time
   and a 6 MB copy of short-lived objects, all on the event loop (and the copy's garbage feeds
   the collector's pauses). :func:`install_validate_result_only` puts
   :func:`validate_result_only` in its place: the same validation, the same errors, no dump.

7. **HTTP messages parsed on the event loop.** The Streamable HTTP and legacy SSE transports
   parse each message's whole text with pydantic's JSON parser on the event loop (C code that
   holds the interpreter throughout), then the session validates every key of its ``_meta``:
   one 14 MB notification with 10^6 keys in ``_meta`` froze the UI for seconds. ``big_http.py``
   is a response hook on the HTTP client mcp-tui hands the SDK: a message over 1 MiB is parsed
   in a worker thread (``big_json``, ``_meta`` cut to its first 1,000 keys), the SDK parses a
   small stand-in of the same kind, and the connection's tap puts the parsed message back. The
   stdio transport does the same at its line reader (item 4).
"""

from __future__ import annotations

import functools
import warnings
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

import mcp_types.methods
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCError, JSONRPCRequest, JSONRPCResponse
from mcp_types.version import KNOWN_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
from pydantic import TypeAdapter

#: See item 2 of the module docstring.
INPUT_REQUIRED_MAX_ROUNDS = 1000

_PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion"
_MAX_TRACKED_REQUESTS = 10_000


def silence_deprecation_warnings() -> None:
    """Item 3: keep ``MCPDeprecationWarning`` off the terminal (idempotent)."""
    warnings.filterwarnings("ignore", category=MCPDeprecationWarning)


class ResultTypeFixup:
    """Item 1: treat a 2026-07-28 result without ``resultType`` as complete, as the spec says.

    Feed it every outgoing message (:meth:`outgoing`) and every incoming one (:meth:`incoming`).
    It remembers the ids of requests stamped 2026-07-28 (bounded: a server that never answers
    cannot grow it without end) and completes the responses to those.
    """

    def __init__(self) -> None:
        self._modern_ids: OrderedDict[str | int, None] = OrderedDict()
        #: How many responses were completed (for tests and the curious).
        self.fixed = 0

    def outgoing(self, message: SessionMessage) -> None:
        msg = message.message
        if not isinstance(msg, JSONRPCRequest) or not isinstance(msg.params, dict):
            return
        meta = msg.params.get("_meta")
        if (
            isinstance(meta, dict)
            and meta.get(_PROTOCOL_VERSION_META_KEY) in MODERN_PROTOCOL_VERSIONS
        ):
            self._modern_ids[msg.id] = None
            if len(self._modern_ids) > _MAX_TRACKED_REQUESTS:
                self._modern_ids.popitem(last=False)

    def incoming(self, message: SessionMessage) -> SessionMessage:
        msg = message.message
        if isinstance(msg, JSONRPCError):
            if msg.id is not None:
                self._modern_ids.pop(msg.id, None)
            return message
        if not isinstance(msg, JSONRPCResponse):
            return message
        if msg.id not in self._modern_ids:
            return message
        del self._modern_ids[msg.id]
        result: Any = msg.result
        if not isinstance(result, dict) or "resultType" in result:
            return message
        self.fixed += 1
        fixed = msg.model_copy(update={"result": {**result, "resultType": "complete"}})
        return SessionMessage(message=fixed, metadata=message.metadata)


async def send_task_call(session: Any, request: Any) -> Any:
    """Workaround 5: a ``tools/call`` with ``task`` metadata, answered ``CreateTaskResult``.

    ``session`` is the SDK's ``ClientSession``, ``request`` a ``types.CallToolRequest``; this uses
    its private ``_stamp`` and ``_dispatcher`` (what ``send_request`` itself does, minus the result
    table). Raises ``MCPError`` like ``send_request``, and ``ValidationError`` when the answer is
    not a ``CreateTaskResult``.
    """
    import mcp_types as types

    data = request.model_dump(by_alias=True, mode="json", exclude_none=True)
    options: dict[str, Any] = {}
    session._stamp(data, options)
    raw = await session._dispatcher.send_raw_request(data["method"], data.get("params"), options)
    return types.CreateTaskResult.model_validate(raw, by_name=False)


#: The SDK's own result check (item 6), kept for the test that shows what it does.
SDK_VALIDATE_SERVER_RESULT: Callable[..., None] = getattr(
    mcp_types.methods.validate_server_result,
    "__wrapped_sdk__",
    mcp_types.methods.validate_server_result,
)


@functools.cache
def _adapter(target: Any) -> TypeAdapter[Any]:
    return TypeAdapter(target)


def validate_result_only(
    method: str,
    version: str,
    data: Mapping[str, Any],
    *,
    surface: Mapping[tuple[str, str], Any] = mcp_types.methods.SERVER_RESULTS,
) -> None:
    """Workaround 6: ``validate_server_result`` without the dump it discards.

    Raises what it raises: ``ValueError`` for an unknown version, ``KeyError`` for a method the
    version's table lacks (``send_request`` takes that as "nothing to check"), pydantic's
    ``ValidationError`` for a result that does not fit.
    """
    if version not in KNOWN_PROTOCOL_VERSIONS:
        raise ValueError(f"version must be a known protocol version, got {version!r}")
    _adapter(surface[(method, version)]).validate_python(data, by_name=False)


validate_result_only.__wrapped_sdk__ = SDK_VALIDATE_SERVER_RESULT  # type: ignore[attr-defined]


def install_validate_result_only() -> None:
    """Workaround 6: the SDK checks results with :func:`validate_result_only` (idempotent).

    ``ClientSession.send_request`` looks the function up on the ``mcp_types.methods`` module at
    each call, so replacing the module's attribute is enough.
    """
    mcp_types.methods.validate_server_result = validate_result_only

"""Ask the user questions once, in code that runs on both protocol eras.

The two eras elicit in opposite directions:

- **2025-11-25 and earlier**: the tool sends `elicitation/create` to the client while the call is
  in flight and awaits the answer (`ServerSession.elicit_form` / `elicit_url`).
- **2026-07-28**: the server cannot send requests. The tool *returns* an `InputRequiredResult`
  naming what it needs; the client asks the user and repeats the whole `tools/call` with
  `inputResponses` and the echoed `requestState`. The tool runs again from the top.

`Asker` hides the difference so each demo flow is one straight-line coroutine. On 2026-07-28 it
replays: answers from earlier rounds travel in `requestState` (plain JSON here; `MCPServer` seals
it with AES-GCM on the wire, so the client cannot edit it), the newest answer comes from
`inputResponses`, and the first question without an answer stops the flow with `NeedInput`,
which `run_flow` turns into the `InputRequiredResult`. Flows must therefore be deterministic given
their answers; anything random they need across rounds goes through `Asker.remember`.

Every accepted answer is checked against the schema that asked for it (with strict integers: the
demo exists to catch a client that sends `4.0` for an integer field), so a wrong client shows up
as a readable tool error instead of a confusing confirmation.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Awaitable, Callable
from typing import Any, Final, Literal

import jsonschema  # type: ignore[import-untyped, unused-ignore]
import mcp_types as types
import referencing
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

Schema = dict[str, Any]
"""A `requestedSchema`: a flat JSON Schema object with primitive properties."""

DemoContext = Context[Any, Any]
"""The context every demo tool receives (the lifespan value is unused by the flows)."""

_STATE_VERSION: Final = 1

Flow = Callable[["Asker"], Awaitable[str]]
"""A tool's conversation: asks through the `Asker`, returns the final text for the user."""


def is_modern(ctx: DemoContext) -> bool:
    """True on 2026-07-28 and later, where elicitation travels in `input_required` results."""
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS


class NeedInput(Exception):
    """Raised by `Asker` on 2026-07-28 when the flow reached questions not yet answered."""

    def __init__(self, requests: dict[str, types.ElicitRequest]) -> None:
        super().__init__(", ".join(requests))
        self.requests = requests


def _strict_integer(checker: Any, instance: object) -> bool:
    """JSON Schema counts `4.0` as an integer; a typed client must send `4`."""
    return isinstance(instance, int) and not isinstance(instance, bool)


_Validator: Any = jsonschema.validators.extend(  # type: ignore[no-untyped-call, unused-ignore]
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _strict_integer),
)


def content_problems(schema: Schema, content: dict[str, Any]) -> list[str]:
    """Describe every way `content` breaks `schema` (empty when it fits), one line each."""
    validator = _Validator(
        schema, format_checker=jsonschema.FormatChecker(), registry=referencing.Registry()
    )
    problems = []
    for error in sorted(validator.iter_errors(content), key=lambda e: list(e.absolute_path)):
        where = "/".join(str(part) for part in error.absolute_path) or "(content)"
        problems.append(f"{where}: {error.message}")
    return problems


def _checked(key: str, schema: Schema, result: types.ElicitResult) -> types.ElicitResult:
    """Return `result` with `content` normalised to a dict, or raise if it breaks the schema."""
    if result.action != "accept":
        return types.ElicitResult(action=result.action)
    content: dict[str, Any] = dict(result.content or {})
    problems = content_problems(schema, content)
    if problems:
        raise ToolError(
            f"The answer to {key!r} does not match the schema the demo asked with: "
            + "; ".join(problems)
        )
    return types.ElicitResult(action="accept", content=content)


class Asker:
    """One tool call's questions: asked live (2025) or replayed from `requestState` (2026)."""

    def __init__(self, ctx: DemoContext) -> None:
        self.ctx = ctx
        self.modern = is_modern(ctx)
        self._answers: dict[str, dict[str, Any]] = {}
        self._memo: dict[str, str] = {}
        if self.modern and ctx.request_state is not None:
            self._load_state(ctx.request_state)
        self._responses = dict(ctx.input_responses or {}) if self.modern else {}

    def _load_state(self, raw: str) -> None:
        try:
            state = json.loads(raw)
            if state.get("v") != _STATE_VERSION:
                raise ValueError("unknown version")
            self._answers = dict(state["answers"])
            self._memo = dict(state["memo"])
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ToolError(f"This requestState was not issued by this demo tool ({exc}).") from exc

    @property
    def first_round(self) -> bool:
        """True unless this is a 2026-07-28 retry: checks that must not change their mind halfway
        through a conversation (say, "already connected") belong on the first round only."""
        return self.ctx.request_state is None if self.modern else True

    def dump_state(self) -> str:
        """The `requestState` for the next round: every answer so far, and remembered values."""
        return json.dumps(
            {"v": _STATE_VERSION, "answers": self._answers, "memo": self._memo},
            separators=(",", ":"),
            ensure_ascii=False,
        )

    def remember(self, key: str, make: Callable[[], str]) -> str:
        """A value made once per conversation and identical in every later round (2026)."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    def require(self, mode: Literal["form", "url"]) -> None:
        """Refuse early, and clearly, when the client never said it can show this kind of ask:
        -32021 with `requiredCapabilities` on 2026-07-28, a tool error before."""
        caps = self.ctx.client_capabilities
        elicitation = caps.elicitation if caps is not None else None
        if mode == "form":
            # A bare `elicitation: {}` (from before modes existed) means form support.
            ok = elicitation is not None and (
                elicitation.form is not None or elicitation.url is None
            )
        else:
            ok = elicitation is not None and elicitation.url is not None
        if ok:
            return
        message = (
            f"This demo tool asks the user through {mode}-mode elicitation, "
            "which this client did not declare."
        )
        if self.modern:
            wanted = (
                types.ElicitationCapability(form=types.FormElicitationCapability())
                if mode == "form"
                else types.ElicitationCapability(url=types.UrlElicitationCapability())
            )
            data = types.MissingRequiredClientCapabilityErrorData(
                required_capabilities=types.ClientCapabilities(elicitation=wanted)
            )
            raise MCPError(
                code=types.MISSING_REQUIRED_CLIENT_CAPABILITY,
                message=message,
                data=data.model_dump(by_alias=True, mode="json", exclude_none=True),
            )
        raise ToolError(message)

    def _replayed(self, key: str) -> types.ElicitResult | None:
        """The answer for `key` from an earlier round or from this round's `inputResponses`."""
        if key in self._answers:
            return types.ElicitResult.model_validate(self._answers[key])
        response = self._responses.get(key)
        if response is None:
            return None
        if not isinstance(response, types.ElicitResult):
            raise ToolError(f"The response to {key!r} is not an elicitation result.")
        return response

    def _record(self, key: str, result: types.ElicitResult) -> None:
        self._answers[key] = result.model_dump(mode="json", by_alias=True, exclude_none=True)

    async def form(self, key: str, message: str, schema: Schema) -> types.ElicitResult:
        """Ask a form question; `key` names it (the `inputRequests` key on 2026-07-28)."""
        return (await self.forms({key: (message, schema)}))[key]

    async def forms(
        self, questions: dict[str, tuple[str, Schema]]
    ) -> dict[str, types.ElicitResult]:
        """Ask several independent form questions (`key: (message, schema)`) together.

        On 2026-07-28 every unanswered one goes into the same `input_required` result, so the
        client can show them at once; before that they are asked one after the other.
        """
        self.require("form")
        if not self.modern:
            session = self.ctx.request_context.session
            answers = {}
            for key, (message, schema) in questions.items():
                raw = await session.elicit_form(
                    message, schema, related_request_id=self.ctx.request_id
                )
                answers[key] = _checked(key, schema, raw)
            return answers
        replayed = {key: self._replayed(key) for key in questions}
        missing = {
            key: types.ElicitRequest(
                params=types.ElicitRequestFormParams(message=message, requested_schema=schema)
            )
            for key, (message, schema) in questions.items()
            if replayed[key] is None
        }
        if missing:
            raise NeedInput(missing)
        results = {}
        for key, (_, schema) in questions.items():
            answer = replayed[key]
            assert answer is not None
            results[key] = _checked(key, schema, answer)
            self._record(key, results[key])
        return results

    async def url(
        self, key: str, message: str, url: str, elicitation_id: str
    ) -> types.ElicitResult:
        """Ask the user to visit `url` (URL mode). `elicitation_id` exists on 2025-11-25 only."""
        self.require("url")
        if not self.modern:
            session = self.ctx.request_context.session
            raw = await session.elicit_url(
                message, url, elicitation_id, related_request_id=self.ctx.request_id
            )
            return types.ElicitResult(action=raw.action)
        replayed = self._replayed(key)
        if replayed is None:
            params = types.ElicitRequestURLParams(message=message, url=url)
            raise NeedInput({key: types.ElicitRequest(params=params)})
        result = types.ElicitResult(action=replayed.action)
        self._record(key, result)
        return result


async def run_flow(ctx: DemoContext, flow: Flow) -> str | types.InputRequiredResult:
    """Run `flow`; on 2026-07-28 an unanswered question becomes this round's result."""
    asker = Asker(ctx)
    try:
        return await flow(asker)
    except NeedInput as need:
        return types.InputRequiredResult(
            input_requests=dict(need.requests), request_state=asker.dump_state()
        )


def declined_text(result: types.ElicitResult, what: str) -> str:
    """The polite ending for a decline or cancel, naming what did not happen."""
    if result.action == "decline":
        return f"{what}: you declined."
    # A server cannot tell who cancelled: the person, or their client on its own (a "stop
    # asking" switch, a rate limit), so it does not say "you".
    return f"{what}: the request was cancelled."


LogLevel = Literal["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
#: The levels from the least to the most severe (RFC 5424's order, as the spec lists them).
LOG_LEVELS: Final[tuple[LogLevel, ...]] = (
    "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency",
)  # fmt: skip


def answer_log_level(server: Any, state: Any) -> None:
    """``logging/setLevel`` (2025-11-25): remember the level the client asked for, and declare
    the ``logging`` capability, which the SDK derives from the handler being there. A client
    offers "Log level" only to a server that declares it. ``MCPServer`` has no public way to add
    a method it does not wrap, so the handler goes on its low-level server; on 2026-07-28 the
    level rides each request's ``_meta`` and the SDK applies it itself."""

    async def set_level(_ctx: Any, params: types.SetLevelRequestParams) -> types.EmptyResult:
        state.log_level = params.level
        return types.EmptyResult()

    server._lowlevel_server.add_request_handler(  # private: see the docstring
        "logging/setLevel", types.SetLevelRequestParams, set_level
    )


async def log_to_client(ctx: DemoContext, level: LogLevel, message: str, logger: str) -> None:
    """Send `notifications/message` for this request.

    The SDK marks the logging API deprecated as of 2026-07-28 and warns on every call; the warning
    is raised when the coroutine is *created*, so it is silenced around that line only, never
    across an `await` where another task could see the changed filters. On 2026-07-28 the SDK
    drops the message unless the client opted in with a log level for this request.
    """
    floor = getattr(ctx.request_context.lifespan_context, "log_level", None)
    if floor in LOG_LEVELS and LOG_LEVELS.index(level) < LOG_LEVELS.index(floor):
        return  # below what the client asked for (logging/setLevel)
    session = ctx.request_context.session
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        sending = session.send_log_message(
            level=level, data=message, logger=logger, related_request_id=ctx.request_id
        )
    await sending

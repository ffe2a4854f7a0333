"""The test file of ``mcp-tui test``: one server, many cases, each a call with its answers and
what must come of it.

A test file (``*.mcptest.toml``, or ``*.mcptest.json`` with the same keys) names its server once
and holds ``[[case]]`` tables::

    server = "demo"                       # or [server] command = [...] / url = ... / name = ...
    eras = ["2025-11-25", "2026-07-28"]   # every case runs on each (a case may narrow it)

    [[case]]
    name = "decline keeps the project"
    tool = "delete_project"
    arguments = { name = "payments-api" }
    answers = [{ action = "decline" }]    # the answers-file entries of ``mcp-tui call --answers``
    expect = { outcome = "ok", text_contains = "Kept payments-api" }

A case that needs state has ``setup`` and ``teardown`` steps (``[[case.setup]]``, or
``[[setup]]`` once for the file): calls made before and after it, their results not checked
unless they say so (:class:`Step`).

A case's answers are exactly the entries of an answers file (:class:`AnswerEntry`, one engine for
both), so whatever ``call --answers`` can script a test can too; a case and a step are both a
:class:`~mcp_tui.testbench.call.Call`. The models are strict (unknown
keys and wrong types are errors with the key's line, ``load.py``) and frozen; the JSON Schema
shipped as ``mcptest.schema.json`` is generated from them (``schema.py``).

Pure: pydantic and the standard library.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from mcp_tui.testbench.call import STRICT, Call

#: The protocol eras a case can run on: ``auto`` is what ``mcp-tui call`` does (the 2025-11-25
#: handshake, 2026-07-28 only with a server that refuses it); the others pin one era.
Era = Literal["auto", "2025-11-25", "2026-07-28"]
ERAS: tuple[Era, ...] = ("auto", "2025-11-25", "2026-07-28")

#: How a call may end: a result (``ok``), a result with ``isError`` (``tool_error``), a JSON-RPC
#: error (``error``, with ``error_code``), the server went away (``connection_lost``), the case's
#: ``timeout`` ran out (``timeout``), or a scripted answer did not fit its form and was not sent
#: (``answer_refused``: ``mcp-tui call`` exits 4 there).
Outcome = Literal["ok", "tool_error", "error", "connection_lost", "timeout", "answer_refused"]
OUTCOMES: tuple[Outcome, ...] = (
    "ok",
    "tool_error",
    "error",
    "connection_lost",
    "timeout",
    "answer_refused",
)

_STRICT = STRICT


def _regex(cls: Any, value: str | None) -> str | None:
    """A field validator (shared): the value compiles as a Python regular expression."""
    if value is not None:
        try:
            re.compile(value)
        except re.error as exc:
            raise ValueError(f"not a valid regular expression: {exc}") from None
    return value


class ServerDecl(BaseModel):
    """``[server]``: how to reach the one server of the file (exactly one way)."""

    model_config = _STRICT

    command: list[str] | None = Field(
        default=None,
        min_length=1,
        description="A stdio server: the command and its arguments, run in `cwd` (default: the "
        "test file's folder).",
    )
    env: dict[str, str] = Field(
        default_factory=dict,
        description="Variables for a stdio server, over the inherited environment; `${VAR}` takes "
        "one from the environment of the run (secrets belong there, never in the file).",
    )
    cwd: str | None = Field(
        default=None, description="The stdio server's working directory, relative to the file."
    )
    url: str | None = Field(default=None, description="An HTTP server's URL.")
    transport: Literal["streamable-http", "sse"] = Field(
        default="streamable-http", description="The HTTP transport."
    )
    headers: dict[str, str] = Field(
        default_factory=dict,
        description="HTTP headers; `${VAR}` takes a value (a token) from the environment.",
    )
    name: str | None = Field(
        default=None,
        min_length=1,
        description="A server of a config file (mcp-tui's TOML or an mcpServers JSON): its name.",
    )
    config: str | None = Field(
        default=None,
        description="The config file of `name`, relative to the test file (default: mcp-tui's).",
    )
    demo: bool = Field(default=False, description='The bundled demo server (`server = "demo"`).')
    connect_timeout: float = Field(
        default=30.0, gt=0, description="Seconds the server has to answer the handshake."
    )

    @model_validator(mode="after")
    def _one_way(self) -> ServerDecl:
        ways = [
            key
            for key, given in (
                ("command", self.command is not None),
                ("url", self.url is not None),
                ("name", self.name is not None),
                ("demo", self.demo),
            )
            if given
        ]
        if len(ways) != 1:
            got = " and ".join(ways) if ways else "none of them"
            raise ValueError(
                "a server is named by exactly one of `command` (stdio), `url` (HTTP), `name` "
                f"(a config server) or `demo = true`; got {got}"
            )
        if self.command is None and (self.env or self.cwd is not None):
            raise ValueError("`env` and `cwd` are for a stdio server (`command`)")
        if self.url is None and self.headers:
            raise ValueError("`headers` are for an HTTP server (`url`)")
        if self.name is None and self.config is not None:
            raise ValueError("`config` goes with `name` (the server of that config file)")
        return self

    def describe(self) -> str:
        if self.demo:
            return "the bundled demo"
        if self.command is not None:
            return " ".join(self.command)
        if self.url is not None:
            return self.url
        return f"config server {self.name}"


class ElicitationExpect(BaseModel):
    """``[[case.expect.elicitations]]``: the n-th elicitation request the call made."""

    model_config = _STRICT

    mode: Literal["form", "url"] | None = Field(default=None, description="form or url.")
    message: str | None = Field(default=None, description="The message, exactly.")
    message_regex: str | None = Field(default=None, description="A regex searched in the message.")
    url_regex: str | None = Field(
        default=None, description="A regex searched in a URL request's URL."
    )
    schema_: dict[str, Any] | None = Field(
        default=None,
        alias="schema",
        description="The requestedSchema, exactly (a snapshot: `--update` rewrites it).",
    )
    action: Literal["accept", "decline", "cancel"] | None = Field(
        default=None, description="The answer the case gave it."
    )

    _re = field_validator("message_regex", "url_regex")(_regex)


class SamplingExpect(BaseModel):
    """``[[case.expect.sampling]]``: the n-th sampling request (``sampling/createMessage``)."""

    model_config = _STRICT

    message: str | None = Field(default=None, description="The last message's text, exactly.")
    message_regex: str | None = Field(
        default=None, description="A regex searched in the last message's text."
    )
    system_prompt_regex: str | None = Field(
        default=None, description="A regex searched in the system prompt."
    )
    max_tokens: int | None = Field(default=None, description="maxTokens, exactly.")
    action: Literal["accept", "decline", "cancel"] | None = Field(
        default=None, description="The answer the case gave it."
    )

    _re = field_validator("message_regex", "system_prompt_regex")(_regex)


class Expect(BaseModel):
    """``expect``: what must come of the call. Only what is written is checked."""

    model_config = _STRICT

    outcome: Outcome | None = Field(
        default=None,
        description="ok, tool_error (isError), error (JSON-RPC), connection_lost, timeout or "
        "answer_refused. Default: error when error_code is given, else ok.",
    )
    error_code: int | None = Field(default=None, description="The JSON-RPC error code.")
    error_regex: str | None = Field(
        default=None, description="A regex searched in the error message."
    )
    text: str | None = Field(
        default=None,
        description="The result's text, exactly (a snapshot: `--update` rewrites it).",
    )
    text_contains: str | list[str] | None = Field(
        default=None, description="Text (or texts) the result's text must contain."
    )
    text_regex: str | None = Field(default=None, description="A regex searched in the text.")
    structured: Any = Field(
        default=None,
        description="structuredContent, exactly (a snapshot: `--update` rewrites it).",
    )
    pointers: dict[str, Any] | None = Field(
        default=None,
        description='JSON Pointers into structuredContent and the value at each: {"/total" = 3}.',
    )
    pointers_regex: dict[str, str] | None = Field(
        default=None,
        description="JSON Pointers into structuredContent and a regex searched in the value at "
        "each (a string; a number, true, false or null as its JSON text); `structured` is "
        "compared without them (values that change per run).",
    )
    elicitation_count: int | None = Field(
        default=None, ge=0, description="How many elicitation requests the call made."
    )
    elicitations: list[ElicitationExpect] | None = Field(
        default=None, description="The elicitation requests, in order (checked as far as given)."
    )
    sampling_count: int | None = Field(
        default=None, ge=0, description="How many sampling requests the call made."
    )
    sampling: list[SamplingExpect] | None = Field(
        default=None, description="The sampling requests, in order (checked as far as given)."
    )
    sent: list[str] | None = Field(
        default=None,
        description="Methods mcp-tui must have sent during the call (notifications/cancelled).",
    )
    not_sent: list[str] | None = Field(
        default=None, description="Methods mcp-tui must not have sent during the call."
    )
    within: float | None = Field(
        default=None, gt=0, description="The call's time budget in seconds."
    )

    _re = field_validator("error_regex", "text_regex")(_regex)

    @field_validator("pointers", "pointers_regex")
    @classmethod
    def _pointers(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        for pointer in value or {}:
            if pointer and not pointer.startswith("/"):
                raise ValueError(f"{pointer!r} is not a JSON Pointer (it starts with /)")
            if re.search(r"~(?![01])", pointer):
                raise ValueError(f"{pointer!r}: ~ is written ~0 and / is written ~1")
        return value

    @field_validator("pointers_regex")
    @classmethod
    def _pointer_regexes(cls, value: dict[str, str] | None) -> dict[str, str] | None:
        for pointer, regex in (value or {}).items():
            if not pointer:
                raise ValueError("'' (the whole structuredContent) is `structured`'s, not a value")
            try:
                re.compile(regex)
            except re.error as exc:
                raise ValueError(f"{pointer}: not a valid regular expression: {exc}") from None
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Expect:
        if self.error_code is not None and self.outcome not in (None, "error"):
            raise ValueError(f"`error_code` goes with outcome error, not {self.outcome}")
        return self

    @property
    def expected_outcome(self) -> Outcome:
        if self.outcome is not None:
            return self.outcome
        return "error" if self.error_code is not None else "ok"

    @property
    def has_structured(self) -> bool:
        return "structured" in self.model_fields_set


class Step(Call):
    """``[[setup]]`` and ``[[teardown]]``, of the file or of a case: a call made for the state the
    cases need (create the item a case deletes, remove it after). Its result is not checked
    unless it has an ``expect``: without one, the step fails only when its call fails (a tool
    error, a JSON-RPC error, a timeout, a lost connection, an answer that did not fit its form),
    and with ``may_fail`` only when the server does not answer. A failed setup makes the case an
    error, not a failure; teardown runs whatever happened."""

    WHAT: ClassVar[str] = "a setup or teardown step"

    expect: Expect | None = Field(
        default=None,
        description="What must come of the call, checked as a case's (default: only that it "
        "succeeds).",
    )
    may_fail: bool = Field(
        default=False,
        description="A tool error or JSON-RPC error does not fail the step (a clean-up that "
        "finds nothing to remove); a timeout or a lost connection still does.",
    )

    @model_validator(mode="after")
    def _one_rule(self) -> Step:
        if self.may_fail and self.expect is not None:
            raise ValueError("`may_fail` goes without `expect` (expect says what must come)")
        return self


class Case(Call):
    """``[[case]]``: one call, its answers and its expectations, and the steps around it."""

    WHAT: ClassVar[str] = "a case"

    name: str = Field(min_length=1, description="Unique in the file; `-k` selects by it.")
    eras: list[Era] | None = Field(
        default=None, min_length=1, description="The eras to run on (default: the file's)."
    )
    xfail: str | None = Field(
        default=None,
        min_length=1,
        description="Expected to fail, and why; a pass is reported as a failure (XPASS).",
    )
    skip: str | None = Field(default=None, min_length=1, description="Do not run it, and why.")
    expect: Expect = Field(default_factory=Expect, description="What must come of the call.")
    setup: list[Step] = Field(
        default_factory=list,
        description="Calls made before the case's, in order (after the file's setup); one that "
        "fails makes the case an error and the case's call is not made.",
    )
    teardown: list[Step] = Field(
        default_factory=list,
        description="Calls made after the case's, in order, whatever happened (a failed setup, "
        "a failed case); one that fails makes a passing case an error.",
    )


class TestFile(BaseModel):
    """A whole test file."""

    __test__ = False  # not a pytest class, despite its name

    model_config = _STRICT

    server: ServerDecl | Literal["demo"] = Field(
        description='The server every case talks to ("demo": the bundled demo server).'
    )
    eras: list[Era] = Field(
        default_factory=lambda: list[Era](["auto"]),
        min_length=1,
        description="The eras each case runs on, unless it names its own.",
    )
    timeout: float = Field(
        default=30.0, gt=0, description="Seconds a case's call may take (a case may set its own)."
    )
    description: str | None = Field(default=None, description="What the file tests (free text).")
    setup: list[Step] = Field(
        default_factory=list,
        description="Calls made once on each era's connection before the file's first case; one "
        "that fails makes every case an error.",
    )
    teardown: list[Step] = Field(
        default_factory=list,
        description="Calls made once on each era's connection after the file's last case.",
    )
    case: list[Case] = Field(min_length=1, description="The cases, run in order.")

    @model_validator(mode="after")
    def _unique_names(self) -> TestFile:
        seen: set[str] = set()
        for case in self.case:
            if case.name in seen:
                raise ValueError(f"two cases are named {case.name!r}; names are unique in a file")
            seen.add(case.name)
        return self

    @property
    def server_decl(self) -> ServerDecl:
        return ServerDecl(demo=True) if self.server == "demo" else self.server

    def eras_of(self, case: Case) -> list[Era]:
        return list(case.eras or self.eras)

    def timeout_of(self, call: Call) -> float:
        """A case's or a step's timeout (its own, else the file's)."""
        return call.timeout if call.timeout is not None else self.timeout

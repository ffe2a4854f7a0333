"""The scripted elicitation handler on its own: no server, just requests and answers."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from mcp_tui.config.answers import load_answers
from mcp_tui.headless.elicit import ScriptedHandler
from mcp_tui.schema.parse import parse_requested_schema
from mcp_tui.session.elicitation import ElicitationRequest

SCHEMA = {
    "type": "object",
    "properties": {"n": {"type": "integer", "default": 3}, "s": {"type": "string"}},
    "required": ["n"],
}


def form_request(message: str) -> ElicitationRequest:
    return ElicitationRequest(
        server="s", message=message, mode="form", form=parse_requested_schema(SCHEMA)
    )


@pytest.mark.anyio
async def test_recorded_message_mismatch_is_noted_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text('[{"action": "accept", "content": {"s": "x"}, "message": "Old text"}]')
    err = io.StringIO()
    handler = ScriptedHandler(err, "t", answers=load_answers(path))
    outcome = await handler.elicit(form_request("New\x1b[31m text"))
    assert (outcome.action, outcome.content) == ("accept", {"n": 3, "s": "x"})
    text = err.getvalue()
    assert 'was recorded for a different message: "Old text"' in text
    assert "\x1b" not in text and "New\\e[31m text" in text


@pytest.mark.anyio
async def test_failure_stops_every_later_request() -> None:
    stopped: list[bool] = []
    handler = ScriptedHandler(
        io.StringIO(), "t", policy="accept-defaults", on_failure=lambda: stopped.append(True)
    )
    bad = ElicitationRequest(
        server="s",
        message="m",
        mode="form",
        form=parse_requested_schema(
            {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}
        ),
    )
    assert (await handler.elicit(bad)).action == "cancel"
    assert handler.failure is not None and "field 'x'" in handler.failure and stopped == [True]
    assert (await handler.elicit(form_request("later"))).action == "cancel"
    assert stopped == [True], "on_failure is called once"
    assert [g[1] for g in handler.given] == ["cancel", "cancel"]


class CountingErr(io.StringIO):
    """stderr that counts its writes and flushes."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[str] = []
        self.flushes = 0

    def write(self, text: str) -> int:
        self.writes.append(text)
        return super().write(text)

    def flush(self) -> None:
        self.flushes += 1
        super().flush()


@pytest.mark.anyio
async def test_each_request_is_reported_in_one_write_of_the_same_lines() -> None:
    err = CountingErr()
    handler = ScriptedHandler(err, "t", policy="accept-defaults")
    for n in (1, 2):
        outcome = await handler.elicit(form_request(f"ask {n}"))
        assert (outcome.action, outcome.content) == ("accept", {"n": 3})
    assert err.writes == [
        f'mcp-tui: elicitation #{n} (form): "ask {n}"\n'
        "mcp-tui:   fields: n* (integer) = 3, s (text)\n"
        'mcp-tui:   -> accept {"n": 3}  (--elicit accept-defaults)\n'
        for n in (1, 2)
    ]
    assert err.flushes == 2


@pytest.mark.anyio
async def test_a_failure_is_reported_with_the_lines_before_it_in_one_write() -> None:
    err = CountingErr()
    handler = ScriptedHandler(err, "t", policy="accept-defaults")
    bad = ElicitationRequest(
        server="s",
        message="m",
        mode="form",
        form=parse_requested_schema(
            {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}
        ),
    )
    assert (await handler.elicit(bad)).action == "cancel"
    assert len(err.writes) == 1 and err.flushes == 1
    lines = err.writes[0].splitlines()
    assert lines[0] == 'mcp-tui: elicitation #1 (form): "m"'
    assert lines[-1].startswith("mcp-tui:   -> cancel: the schema's defaults do not fit the form")


class BrokenErr(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.anyio
async def test_a_stderr_that_cannot_be_written_fails_the_request() -> None:
    stopped: list[bool] = []
    handler = ScriptedHandler(
        BrokenErr(), "t", policy="accept-defaults", on_failure=lambda: stopped.append(True)
    )
    with pytest.raises(BrokenPipeError):  # the bridge turns this into "cancel" plus a notice
        await handler.elicit(form_request("m"))
    assert handler.failure is not None and "Broken pipe" in handler.failure
    assert stopped == []  # the error reached the failure's own report first

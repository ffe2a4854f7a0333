"""Mapping raw SDK types to the session dataclasses, and exceptions to readable text."""

from __future__ import annotations

import base64

import mcp_types as types
import pytest
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, ValidationError

from mcp_tui.session import convert
from mcp_tui.session.elicitation import ElicitationOutcome
from mcp_tui.session.elicitation_bridge import to_elicit_result


@pytest.mark.parametrize("size", [0, 1, 2, 3, 4, 5, 1000, 1001, 1002])
def test_base64_size_without_decoding(size: int) -> None:
    data = base64.b64encode(b"x" * size).decode()
    assert convert.base64_size(data) == size


def test_content_blocks() -> None:
    png = base64.b64encode(b"\x89PNG" + b"0" * 96).decode()
    blocks = [
        types.TextContent(text="hi \x1b[2J"),
        types.ImageContent(data=png, mime_type="image/png"),
        types.AudioContent(data=base64.b64encode(b"a" * 10).decode(), mime_type="audio/wav"),
        types.ResourceLink(uri="file:///x.txt", name="x", mime_type="text/plain", size=12),
        types.EmbeddedResource(
            resource=types.TextResourceContents(uri="mem://t", text="body", mime_type="text/plain")
        ),
        types.EmbeddedResource(
            resource=types.BlobResourceContents(
                uri="mem://b", blob=base64.b64encode(b"123").decode(), mime_type="application/zip"
            )
        ),
    ]
    items = [convert.content_item(b) for b in blocks]
    assert [(i.kind, i.text, i.mime_type, i.size, i.uri) for i in items] == [
        ("text", "hi \x1b[2J", None, None, None),  # text stays as sent; the UI sanitises
        ("image", None, "image/png", 100, None),
        ("audio", None, "audio/wav", 10, None),
        ("resource_link", None, "text/plain", 12, "file:///x.txt"),
        ("resource", "body", "text/plain", None, "mem://t"),
        ("resource", None, "application/zip", 3, "mem://b"),
    ]
    assert items[3].name == "x"


def test_unknown_content_is_shown_as_json() -> None:
    class Strange(BaseModel):
        type: str = "hologram"
        depth: int = 3

    item = convert.content_item(Strange())
    assert item.kind == "unknown" and item.text == '{"type": "hologram", "depth": 3}'


def test_tool_result_with_structured_content_and_is_error() -> None:
    result = types.CallToolResult(
        content=[types.TextContent(text="bad")], structured_content={"n": 1}, is_error=True
    )
    outcome = convert.tool_outcome(result)
    assert outcome.is_error and outcome.structured == {"n": 1} and outcome.error is None


def test_prompt_messages_keep_their_roles() -> None:
    result = types.GetPromptResult(
        description="d",
        messages=[
            types.PromptMessage(role="user", content=types.TextContent(text="q")),
            types.PromptMessage(role="assistant", content=types.TextContent(text="a")),
        ],
    )
    outcome = convert.prompt_outcome(result)
    assert [(i.role, i.text) for i in outcome.items] == [("user", "q"), ("assistant", "a")]
    assert outcome.description == "d"


def test_errors_are_unwrapped_from_exception_groups() -> None:
    inner = MCPError(-32602, "Invalid params: x is required", {"field": "x"})
    group = ExceptionGroup("outer", [ExceptionGroup("inner", [RuntimeError("noise"), inner])])
    outcome = convert.error_outcome(group)
    assert outcome.error == "-32602 (invalid params): Invalid params: x is required"
    assert outcome.error_code == -32602 and outcome.error_data == {"field": "x"}
    assert convert.describe_exception(ExceptionGroup("g", [OSError("disk full")])) == (
        "OSError: disk full"
    )
    assert convert.describe_exception(MCPError(-32099, "custom")) == "-32099: custom"


def test_validation_errors_are_summarised() -> None:
    with pytest.raises(ValidationError) as info:
        types.CallToolResult.model_validate({"content": "nope"})
    text = convert.describe_exception(info.value)
    assert text.startswith("the server's answer does not follow the protocol: content")
    assert "\n" not in text


@pytest.mark.parametrize(
    ("outcome", "mode", "wire"),
    [
        (
            ElicitationOutcome("accept", {"a": 1, "b": ["x"]}),
            "form",
            {"action": "accept", "content": {"a": 1, "b": ["x"]}},
        ),
        (ElicitationOutcome("accept"), "form", {"action": "accept", "content": {}}),
        (ElicitationOutcome("accept", {"a": 1}), "url", {"action": "accept"}),
        (ElicitationOutcome("decline", {"a": 1}), "form", {"action": "decline"}),
        (ElicitationOutcome.cancel("note"), "form", {"action": "cancel"}),
    ],
)
def test_outcome_to_elicit_result(
    outcome: ElicitationOutcome, mode: str, wire: dict[str, object]
) -> None:
    result = to_elicit_result(outcome, mode)
    assert result.model_dump(by_alias=True, mode="json", exclude_none=True) == wire


@pytest.mark.parametrize("bad", [{"n": float("inf")}, {"nested": {"a": 1}}, {"ints": [1, 2]}])
def test_content_the_wire_cannot_carry_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        to_elicit_result(ElicitationOutcome("accept", bad), "form")  # type: ignore[arg-type]

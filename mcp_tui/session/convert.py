"""Raw ``mcp`` types -> the session layer's plain dataclasses, and exceptions -> readable text.

The UI never sees an ``mcp`` type: everything it shows passes through here. Binary content (images,
audio, blobs) is described by MIME type and decoded size, never decoded or kept. Text stays exactly
as the server sent it (it is untrusted; the UI sanitises it on display).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import mcp_types as types
from mcp.client._input_required import InputRequiredRoundsExceededError
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from mcp_tui.errors import TaskEnded
from mcp_tui.session.events import (
    CallOutcome,
    ContentItem,
    PromptArgumentInfo,
    PromptInfo,
    ResourceInfo,
    ServerInfo,
    ToolInfo,
)

#: Readable names of the JSON-RPC and MCP error codes a user is likely to meet.
ERROR_NAMES: dict[int, str] = {
    -32700: "parse error",
    -32600: "invalid request",
    -32601: "method not found",
    -32602: "invalid params",
    -32603: "internal error",
    -32000: "connection closed",
    -32001: "request timed out",
    -32020: "header mismatch",
    -32021: "missing required client capability",
    -32022: "unsupported protocol version",
    -32042: "URL elicitation required",
}


# ---- handshake and catalog ----------------------------------------------------------------------


def server_info(
    implementation: types.Implementation | None,
    capabilities: types.ServerCapabilities | None,
    instructions: str | None,
    protocol_version: str | None,
) -> ServerInfo:
    caps = (
        capabilities.model_dump(by_alias=True, mode="json", exclude_none=True)
        if capabilities is not None
        else {}
    )
    return ServerInfo(
        name=implementation.name if implementation else None,
        version=implementation.version if implementation else None,
        title=implementation.title if implementation else None,
        instructions=instructions,
        capabilities=caps,
        protocol_version=protocol_version,
    )


def tool_info(tool: types.Tool) -> ToolInfo:
    return ToolInfo(
        name=tool.name,
        description=tool.description,
        title=tool.title or (tool.annotations.title if tool.annotations else None),
        input_schema=dict(tool.input_schema or {}),
        output_schema=dict(tool.output_schema) if tool.output_schema is not None else None,
        task_support=tool.execution.task_support if tool.execution else None,
    )


def prompt_info(prompt: types.Prompt) -> PromptInfo:
    return PromptInfo(
        name=prompt.name,
        description=prompt.description,
        title=prompt.title,
        arguments=tuple(
            PromptArgumentInfo(a.name, a.description, bool(a.required))
            for a in prompt.arguments or ()
        ),
    )


def resource_info(resource: types.Resource) -> ResourceInfo:
    return ResourceInfo(
        uri=str(resource.uri),
        name=resource.name,
        description=resource.description,
        mime_type=resource.mime_type,
    )


def template_info(template: types.ResourceTemplate) -> ResourceInfo:
    return ResourceInfo(
        uri=template.uri_template,
        name=template.name,
        description=template.description,
        mime_type=template.mime_type,
        template=True,
    )


# ---- content ------------------------------------------------------------------------------------


def base64_size(data: str) -> int:
    """Decoded size of base64 text, without decoding it (a server may send megabytes)."""
    n = len(data.strip())
    if n == 0:
        return 0
    padding = len(data) - len(data.rstrip("=")) if data.endswith("=") else 0
    return max(0, n * 3 // 4 - padding)


def content_item(block: Any, *, role: str | None = None) -> ContentItem:
    """One content block of a tool result or prompt message."""
    if isinstance(block, types.TextContent):
        return ContentItem("text", text=block.text, role=role)
    if isinstance(block, types.ImageContent | types.AudioContent):
        return ContentItem(
            block.type, mime_type=block.mime_type, size=base64_size(block.data), role=role
        )
    if isinstance(block, types.ResourceLink):
        return ContentItem(
            "resource_link",
            text=block.description,
            mime_type=block.mime_type,
            size=block.size,
            uri=str(block.uri),
            name=block.name,
            role=role,
        )
    if isinstance(block, types.EmbeddedResource):
        return resource_contents(block.resource, role=role)
    try:
        raw = block.model_dump(by_alias=True, mode="json", exclude_none=True)
        text = json.dumps(raw, ensure_ascii=False)
    except Exception:
        text = repr(block)
    return ContentItem("unknown", text=text, role=role)


def resource_contents(
    contents: types.TextResourceContents | types.BlobResourceContents, *, role: str | None = None
) -> ContentItem:
    if isinstance(contents, types.TextResourceContents):
        return ContentItem(
            "resource",
            text=contents.text,
            mime_type=contents.mime_type,
            uri=str(contents.uri),
            role=role,
        )
    return ContentItem(
        "resource",
        mime_type=contents.mime_type,
        size=base64_size(contents.blob),
        uri=str(contents.uri),
        role=role,
    )


def tool_outcome(result: types.CallToolResult) -> CallOutcome:
    return CallOutcome(
        items=tuple(content_item(b) for b in result.content),
        structured=result.structured_content,
        is_error=bool(result.is_error),
    )


def prompt_outcome(result: types.GetPromptResult) -> CallOutcome:
    """Each message becomes one item with ``role`` set ("user" / "assistant")."""
    return CallOutcome(
        items=tuple(content_item(m.content, role=m.role) for m in result.messages),
        description=result.description,
    )


def resource_outcome(result: types.ReadResourceResult) -> CallOutcome:
    return CallOutcome(items=tuple(resource_contents(c) for c in result.contents))


# ---- errors -------------------------------------------------------------------------------------


def leaf_exceptions(exc: BaseException) -> list[BaseException]:
    """The real exceptions inside (nested) exception groups, in order."""
    if isinstance(exc, BaseExceptionGroup):
        leaves: list[BaseException] = []
        for inner in exc.exceptions:
            leaves.extend(leaf_exceptions(inner))
        return leaves
    return [exc]


def primary_exception(exc: BaseException) -> BaseException:
    """The most telling exception in an SDK error: the first ``MCPError``, else the first other."""
    leaves = leaf_exceptions(exc)
    for leaf in leaves:
        if isinstance(leaf, MCPError):
            return leaf
    for leaf in leaves:
        if not isinstance(leaf, GeneratorExit | KeyboardInterrupt | SystemExit) and (
            type(leaf).__name__ != "CancelledError"
        ):
            return leaf
    return leaves[0] if leaves else exc


def describe_code(code: int) -> str:
    name = ERROR_NAMES.get(code)
    return f"{code} ({name})" if name else str(code)


def validation_summary(exc: ValidationError, limit: int = 3) -> str:
    parts = []
    for err in exc.errors()[:limit]:
        where = ".".join(str(p) for p in err.get("loc", ())) or "(top level)"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    more = exc.error_count() - limit
    if more > 0:
        parts.append(f"and {more} more")
    return "; ".join(parts)


def describe_exception(exc: BaseException) -> str:
    """One readable sentence for an exception that ended a call (already unwrapped or not)."""
    exc = primary_exception(exc)
    if isinstance(exc, MCPError):
        return f"{describe_code(exc.code)}: {exc.message}"
    if isinstance(exc, ValidationError):
        return f"the server's answer does not follow the protocol: {validation_summary(exc)}"
    if isinstance(exc, InputRequiredRoundsExceededError):
        return (
            f"the server asked for more input {exc.max_rounds} rounds in a row; "
            "mcp-tui stopped the call"
        )
    if isinstance(exc, TimeoutError):
        return "timed out"
    if isinstance(exc, TaskEnded):
        return str(exc)
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def error_outcome(exc: BaseException) -> CallOutcome:
    leaf = primary_exception(exc)
    if isinstance(leaf, MCPError):
        return CallOutcome(
            error=describe_exception(leaf), error_code=leaf.code, error_data=leaf.data
        )
    return CallOutcome(error=describe_exception(leaf))


def join_problems(problems: Iterable[object]) -> str:
    return "; ".join(str(p) for p in problems)


def first_lines(lines: Sequence[str], count: int = 3) -> str:
    return " | ".join(line for line in list(lines)[-count:] if line.strip())

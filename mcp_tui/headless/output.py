"""What ``mcp-tui call`` and ``mcp-tui list`` print on stdout.

Text output escapes every control, bidi and zero-width character a server sent (through
``mcp_tui.untrusted``), keeping newlines and tabs; JSON output is ``ensure_ascii``, so it is safe to
``cat`` in a terminal and exact for scripts (``jq``).
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from mcp_tui.session.era import outcome_hint
from mcp_tui.session.events import CallOutcome, ContentItem, PromptInfo, ResourceInfo, ToolInfo
from mcp_tui.session.structured import result_view
from mcp_tui.untrusted import one_line, visible

if TYPE_CHECKING:
    from mcp_tui.session.connection import ServerConnection


#: Width of wrapped descriptions in ``list`` (indented by six).
WRAP = 94


def dump_json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=True, default=repr)


def print_outcome(
    outcome: CallOutcome,
    raw: dict[str, Any] | None,
    out: TextIO,
    say: Callable[[str], None],
    *,
    json_output: bool,
    failed: str = "the call failed",
) -> None:
    """The result of a tool call (or a resource read, a prompt): on stdout the result, on stderr
    (``say``) what went wrong, starting with ``failed``."""
    hint = outcome_hint(outcome, key=None)
    if outcome.error is not None:
        say(f"{failed}: {one_line(outcome.error, limit=2000)}")
        if hint is not None:
            say(hint)
        for request in outcome.url_elicitations:
            _say_url_required(request, say)
        if json_output:
            error: dict[str, Any] = {"message": outcome.error}
            if outcome.error_code is not None:
                error["code"] = outcome.error_code
            if outcome.error_data is not None:
                error["data"] = outcome.error_data
            print(dump_json({"error": error}), file=out)
        return
    if outcome.is_error:
        say("the tool returned an error (isError)")
        if hint is not None:
            say(hint)
    if json_output:
        print(dump_json(raw if raw is not None else _rebuilt(outcome)), file=out)
        return
    # Text blocks that only repeat structuredContent are left out: it is printed once, indented.
    view = result_view(outcome)
    for item in view.items:
        if item.role is not None:  # a prompt's message: its role first
            print(f"[{one_line(item.role)}]", file=out)
        print(item_text(item), file=out)
    if view.show_structured and not any(i.kind == "text" for i in view.items):
        print(visible(dump_json(outcome.structured), limit=None), file=out)


def _say_url_required(request: Any, say: Callable[[str], None]) -> None:
    from mcp_tui.url.check import check_url

    verdict = check_url(getattr(request, "url", "") or "")
    message = one_line(getattr(request, "message", ""), limit=300)
    state = "not opened" if verdict.allowed else "refused: " + "; ".join(verdict.reasons)
    say(f"the server requires a URL flow first: {json.dumps(message)}")
    say(f"  URL: {one_line(verdict.url, limit=2048)} ({one_line(state, limit=500)})")
    if verdict.allowed and verdict.url_unicode != verdict.url:
        say(f"  shown as: {one_line(verdict.url_unicode, limit=2048)}")
    if verdict.allowed:
        say(f"  host: {one_line(verdict.host_unicode or verdict.host)}")


def _rebuilt(outcome: CallOutcome) -> dict[str, Any]:
    """A result-shaped dict when the raw message was not seen (it always is on the wire)."""
    content = [{k: v for k, v in vars(item).items() if v is not None} for item in outcome.items]
    result: dict[str, Any] = {"content": content, "isError": outcome.is_error}
    if outcome.structured is not None:
        result["structuredContent"] = outcome.structured
    return result


def item_text(item: ContentItem) -> str:
    """One content block as text; binary content as a labelled placeholder, never raw."""
    if item.kind == "text":
        return visible(item.text or "", limit=None)
    size = f", {item.size:,} bytes" if item.size is not None else ""
    mime = one_line(item.mime_type or "unknown type")
    if item.kind in ("image", "audio"):
        return f"[{item.kind} {mime}{size}]"
    if item.kind == "resource_link":
        name = one_line(item.name or "")
        extra = f" — {one_line(item.text)}" if item.text else ""
        return f"[resource link {name} <{one_line(item.uri or '')}> {mime}{size}]{extra}"
    if item.kind == "resource":
        if item.text is not None:
            return visible(item.text, limit=None)
        return f"[resource <{one_line(item.uri or '')}> {mime}{size}]"
    return visible(item.text or f"[{item.kind}]", limit=None)


# ---- list ---------------------------------------------------------------------------------------


def print_catalog(conn: ServerConnection, out: TextIO, *, json_output: bool) -> None:
    tools, prompts = conn.tools, conn.prompts
    resources = [r for r in conn.resources if not r.template]
    templates = [r for r in conn.resources if r.template]
    if json_output:
        info = conn.info
        print(
            dump_json(
                {
                    "server": {
                        "name": info.name if info else None,
                        "version": info.version if info else None,
                        "protocolVersion": info.protocol_version if info else None,
                    },
                    "tools": [_tool_json(t) for t in tools],
                    "prompts": [_prompt_json(p) for p in prompts],
                    "resources": [_resource_json(r) for r in resources],
                    "resourceTemplates": [_resource_json(r) for r in templates],
                }
            ),
            file=out,
        )
        return
    if conn.info is not None:
        info = conn.info
        who = " ".join(one_line(x) for x in (info.name, info.version) if x) or "(unnamed)"
        print(f"server: {who} (protocol {one_line(info.protocol_version or '?')})", file=out)
    _section(out, "tools", [_tool_lines(t) for t in tools])
    _section(out, "prompts", [_prompt_lines(p) for p in prompts])
    _section(out, "resources", [_resource_lines(r) for r in resources])
    _section(out, "resource templates", [_resource_lines(r) for r in templates])


def _section(out: TextIO, title: str, entries: list[list[str]]) -> None:
    print(f"\n{title} ({len(entries)}):", file=out)
    for lines in entries:
        for i, line in enumerate(lines):
            print(("  " if i == 0 else "      ") + line, file=out)


def _description(text: str | None) -> list[str]:
    """At most eight lines of a description, wrapped to fit 100 columns."""
    if not text:
        return []
    lines: list[str] = []
    for paragraph in text.strip().splitlines():
        if paragraph.strip():
            lines.extend(textwrap.wrap(one_line(paragraph, limit=1000), width=WRAP))
    return lines[:8] + ([f"… ({len(lines) - 8} more lines)"] if len(lines) > 8 else [])


def _tool_lines(tool: ToolInfo) -> list[str]:
    head = one_line(tool.name) + (f" — {one_line(tool.title)}" if tool.title else "")
    lines = [head, *_description(tool.description)]
    lines.append("input: " + one_line(json.dumps(tool.input_schema), limit=2000))
    if tool.output_schema is not None:
        lines.append("output: " + one_line(json.dumps(tool.output_schema), limit=2000))
    return lines


def _prompt_lines(prompt: PromptInfo) -> list[str]:
    args = ", ".join(one_line(a.name) + ("*" if a.required else "") for a in prompt.arguments)
    head = f"{one_line(prompt.name)}({args})" + (
        f" — {one_line(prompt.title)}" if prompt.title else ""
    )
    return [head, *_description(prompt.description)]


def _resource_lines(resource: ResourceInfo) -> list[str]:
    mime = f" ({one_line(resource.mime_type)})" if resource.mime_type else ""
    return [
        f"{one_line(resource.uri, limit=500)}  {one_line(resource.name)}{mime}",
        *_description(resource.description),
    ]


def _tool_json(tool: ToolInfo) -> dict[str, Any]:
    data: dict[str, Any] = {"name": tool.name, "inputSchema": tool.input_schema}
    if tool.title is not None:
        data["title"] = tool.title
    if tool.description is not None:
        data["description"] = tool.description
    if tool.output_schema is not None:
        data["outputSchema"] = tool.output_schema
    return data


def _prompt_json(prompt: PromptInfo) -> dict[str, Any]:
    return {
        "name": prompt.name,
        "title": prompt.title,
        "description": prompt.description,
        "arguments": [
            {"name": a.name, "description": a.description, "required": a.required}
            for a in prompt.arguments
        ],
    }


def _resource_json(resource: ResourceInfo) -> dict[str, Any]:
    key = "uriTemplate" if resource.template else "uri"
    return {
        key: resource.uri,
        "name": resource.name,
        "description": resource.description,
        "mimeType": resource.mime_type,
    }

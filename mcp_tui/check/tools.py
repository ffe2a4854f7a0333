"""Checks of a server's tools: names, schemas, descriptions, and the list's size as a model sees it.

The rules come from the spec (2025-11-25 "Tool names": 1–128 characters of ``A-Z a-z 0-9 _ - .``;
``inputSchema`` a JSON Schema object whose root is ``type: object``, 2020-12 unless ``$schema``
says otherwise) and from what clients then do: model APIs (OpenAI, Anthropic, Gemini) take tool
names of ``^[a-zA-Z0-9_-]{1,64}$`` only, and chat clients prefix the server's name
(``mcp__server__tool``), so a longer or dotted name is renamed, cut, or the tool is dropped.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from mcp_tui.check.findings import Finding, Listing, finding, pointer, rule, tool_example
from mcp_tui.check.schemas import schema_problems
from mcp_tui.untrusted import one_line

_SPEC_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,128}")
_MODEL_NAME = re.compile(r"[A-Za-z0-9_\-]{1,64}")
#: What a chat client such as Claude Code puts before a tool's name (``mcp__<server>__``), with a
#: short server name: a tool name longer than this leaves the model's 64 no room.
_PREFIX_ROOM = 64 - len("mcp__server__")
#: Above this many approximate tokens a tool list crowds a model's context (a common client
#: warning threshold; every tool's definition is sent with every chat turn).
_LIST_TOKENS_WARN = 10_000


def _tools(listing: Listing) -> Iterator[tuple[str, dict[str, Any]]]:
    for tool in listing.tools or ():
        name = tool.get("name")
        yield (f"tool {one_line(name, limit=80)}" if isinstance(name, str) else "tool ?"), tool


@rule(
    "T101",
    "warning",
    "tool name outside the spec's characters or length",
    why=(
        "The spec allows tool names of 1 to 128 characters from A-Z, a-z, 0-9, '_', '-' and "
        "'.'. A client that checks the name refuses the tool or renames it, so a model or a "
        "saved configuration that calls it by name gets 'unknown tool'."
    ),
    bad={"tools": [tool_example(name="search things")]},
    good={"tools": [tool_example(name="search_things")]},
)
def spec_name(listing: Listing) -> Iterator[Finding]:
    for where, tool in _tools(listing):
        name = tool.get("name")
        if isinstance(name, str) and not _SPEC_NAME.fullmatch(name):
            yield finding(
                "T101",
                listing,
                where,
                "/name",
                "the name is not 1–128 characters of A-Z, a-z, 0-9, '_', '-' and '.' (the spec's "
                "tool-name rule); clients may refuse or rename the tool",
                "rename it with letters, digits, '_' and '-' only",
            )


@rule(
    "T102",
    "warning",
    "tool name a model API would refuse (>64 characters, '.', ...)",
    why=(
        "Model APIs accept tool names of [a-zA-Z0-9_-]{1,64} only, and clients prefix names "
        "with the server's ('mcp__server__search'). A name with '.' or one that is long must "
        "be renamed or dropped by every chat client; some drop all of the server's tools."
    ),
    bad={"tools": [tool_example(name="search.things")]},
    good={"tools": [tool_example(name="search_things")]},
)
def model_name(listing: Listing) -> Iterator[Finding]:
    for where, tool in _tools(listing):
        name = tool.get("name")
        if not isinstance(name, str) or not _SPEC_NAME.fullmatch(name):
            continue  # T101 says it
        if not _MODEL_NAME.fullmatch(name):
            cleaned = re.sub(r"[^A-Za-z0-9_-]", "_", name)[:64]
            yield finding(
                "T102",
                listing,
                where,
                "/name",
                "model APIs accept tool names of [a-zA-Z0-9_-]{1,64} only: a chat client must "
                f"rename this one (mcp-tui's chat sends it as '...__{one_line(cleaned)}') or "
                "drop it, and some clients drop every tool of the server",
                "use letters, digits, '_' and '-' only, at most 64 characters",
            )
        elif len(name) > _PREFIX_ROOM:
            yield finding(
                "T102",
                listing,
                where,
                "/name",
                f"the name is {len(name)} characters: with a client's 'mcp__server__' prefix it "
                "passes the 64 characters model APIs allow, so the client cuts or drops it",
                f"keep tool names under {_PREFIX_ROOM} characters",
                severity="info",
            )


@rule(
    "T103",
    "error",
    "two tools with the same name",
    why=(
        "Tools are called by name: with two of the same name a client can reach only one of "
        "them, and which one depends on the client."
    ),
    bad={"tools": [tool_example(), tool_example()]},
    good={"tools": [tool_example(), tool_example(name="fetch")]},
)
def duplicate_names(listing: Listing) -> Iterator[Finding]:
    names = Counter(t.get("name") for t in listing.tools or () if isinstance(t.get("name"), str))
    for name, count in sorted(names.items()):
        if count > 1:
            yield finding(
                "T103",
                listing,
                f"tool {one_line(name, limit=80)}",
                "/name",
                f"{count} tools are named '{one_line(name, limit=80)}': a client can call only one",
                "give every tool a unique name",
            )


@rule(
    "T104",
    "error",
    "inputSchema missing, invalid for its dialect, or not an object schema",
    why=(
        "A client validates the arguments it sends against inputSchema and builds its form "
        "from it. A schema that is missing, invalid for its own dialect, or not an object "
        "schema leaves the client unable to call the tool; strict clients drop it from the "
        "list."
    ),
    bad={"tools": [tool_example(inputSchema={"type": "string"})]},
    good={
        "tools": [
            tool_example(inputSchema={"type": "object", "properties": {"q": {"type": "string"}}})
        ]
    },
)
def input_schema(listing: Listing) -> Iterator[Finding]:
    for where, tool in _tools(listing):
        schema = tool.get("inputSchema")
        for at, message, fix in schema_problems(schema, required=True):
            yield finding("T104", listing, where, "/inputSchema" + at, message, fix)


@rule(
    "T105",
    "error",
    "outputSchema invalid for its dialect or not an object schema",
    why=(
        "A client validates structuredContent against outputSchema: an invalid schema makes "
        "every result of the tool fail that check, and strict clients refuse the whole tool."
    ),
    bad={
        "tools": [tool_example(outputSchema={"type": "object", "properties": {"n": {"type": 3}}})]
    },
    good={
        "tools": [
            tool_example(outputSchema={"type": "object", "properties": {"n": {"type": "integer"}}})
        ]
    },
)
def output_schema(listing: Listing) -> Iterator[Finding]:
    for where, tool in _tools(listing):
        if "outputSchema" not in tool:
            continue
        for at, message, fix in schema_problems(tool["outputSchema"], required=False):
            yield finding("T105", listing, where, "/outputSchema" + at, message, fix)


@rule(
    "T201",
    "warning",
    "tool without a description",
    why=(
        "A model chooses tools by their descriptions, and a person approving a call sees the "
        "description beside the name. Without one the tool is guessed at, or never used."
    ),
    bad={"tools": [tool_example(description="")]},
    good={"tools": [tool_example()]},
)
def description(listing: Listing) -> Iterator[Finding]:
    for where, tool in _tools(listing):
        text = tool.get("description")
        if not isinstance(text, str) or not text.strip():
            yield finding(
                "T201",
                listing,
                where,
                "/description",
                "the tool has no description: a model chooses tools by their descriptions, "
                "and a person approving a call sees nothing but the name",
                "say what the tool does, when to use it and what it returns",
            )


@rule(
    "T202",
    "info",
    "tool without a title",
    why=(
        "Clients show a tool's title to people (in menus, approvals and transcripts); without "
        "one they show the raw name."
    ),
    bad={"tools": [tool_example()]},
    good={"tools": [tool_example(title="Search")]},
)
def title(listing: Listing) -> Iterator[Finding]:
    for where, tool in _tools(listing):
        annotations = tool.get("annotations")
        has_title = any(
            isinstance(t, str) and t.strip()
            for t in (
                tool.get("title"),
                annotations.get("title") if isinstance(annotations, dict) else None,
            )
        )
        if not has_title:
            yield finding(
                "T202",
                listing,
                where,
                "/title",
                "no title: clients show the raw name to people",
                "add a short human-readable title",
            )


@rule(
    "T203",
    "info",
    "tool argument without a description",
    why=(
        "A model fills in each argument from its name and description alone: an argument "
        "without a description gets guesses (a unit, a format, a date in the wrong order)."
    ),
    bad={
        "tools": [
            tool_example(inputSchema={"type": "object", "properties": {"q": {"type": "string"}}})
        ]
    },
    good={
        "tools": [
            tool_example(
                inputSchema={
                    "type": "object",
                    "properties": {"q": {"type": "string", "description": "the words to look for"}},
                }
            )
        ]
    },
)
def argument_descriptions(listing: Listing) -> Iterator[Finding]:
    for where, tool in _tools(listing):
        schema = tool.get("inputSchema")
        properties = schema.get("properties") if isinstance(schema, dict) else None
        if not isinstance(properties, dict):
            continue
        for key, prop in properties.items():
            if isinstance(prop, dict) and not (
                isinstance(prop.get("description"), str) and prop["description"].strip()
            ):
                yield finding(
                    "T203",
                    listing,
                    where,
                    pointer("inputSchema", "properties", key, "description"),
                    f"argument '{one_line(key, limit=60)}' has no description: a model guesses "
                    "what to put there",
                    "describe each argument: its meaning, unit and format",
                )


@rule(
    "T301",
    "info",
    "size of the tool list as a model sees it (approximate tokens)",
    why=(
        "Every tool's name, description and schemas go into a model's context on every turn "
        "of a chat. The number is there to watch; a long list (a warning) crowds out the "
        "conversation."
    ),
    bad={"tools": [tool_example()]},
    good={"tools": []},
)
def list_size(listing: Listing) -> Iterator[Finding]:
    if not listing.tools:
        return
    size = sum(len(json.dumps(t, ensure_ascii=False)) for t in listing.tools)
    tokens = approximate_tokens(size)
    big = tokens > _LIST_TOKENS_WARN
    yield finding(
        "T301",
        listing,
        "server",
        "",
        f"{len(listing.tools)} tools take about {tokens:,} tokens (approximate: 4 characters a "
        "token) of a model's context on every chat turn"
        + (", enough to crowd out the conversation" if big else ""),
        "shorten long descriptions and schemas, or split the server" if big else "",
        severity="warning" if big else "info",
    )


def approximate_tokens(characters: int) -> int:
    """Tokens a model spends on ``characters`` of JSON: about four characters a token."""
    return (characters + 3) // 4


@rule(
    "T302",
    "warning",
    "two servers of one config offer a tool of the same name",
    across=True,
    why=(
        "A client that connects several servers and does not prefix tool names has two tools "
        "of one name: a model calls one of them at random."
    ),
    bad=[
        {"server": "a", "tools": [tool_example()]},
        {"server": "b", "tools": [tool_example(), tool_example(name="fetch")]},
    ],
    good=[
        {"server": "a", "tools": [tool_example()]},
        {"server": "b", "tools": [tool_example(name="fetch")]},
    ],
)
def duplicate_across_servers(listings: list[Listing]) -> Iterator[Finding]:
    """Tool names offered by two servers: clients that do not prefix names clash."""
    owners: dict[str, list[str]] = {}
    for listing in listings:
        for tool in listing.tools or ():
            name = tool.get("name")
            if isinstance(name, str) and listing.server not in owners.setdefault(name, []):
                owners[name].append(listing.server)
    first = {listing.server: listing for listing in listings}
    for name, servers in sorted(owners.items()):
        if len(servers) > 1:
            for server in servers:
                others = ", ".join(s for s in servers if s != server)
                yield finding(
                    "T302",
                    first[server],
                    f"tool {one_line(name, limit=80)}",
                    "/name",
                    f"server {one_line(others)} offers a tool of the same name: a client that "
                    "does not prefix tool names calls one of them at random",
                    "prefix your tool names with the server's topic",
                )

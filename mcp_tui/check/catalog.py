"""Checks of prompts, resources and resource templates, and of the capabilities a server declared.

Resource URIs must be absolute (RFC 3986: a scheme, then no spaces), templates must be RFC 6570
templates (clients expand them with a library that throws on anything else), and ``mimeType`` a
``type/subtype`` (RFC 6838). A prompt's arguments are what a person fills in: without a
description the form shows only the name.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from mcp_tui.check.findings import Finding, Listing, finding, pointer, rule, tool_example
from mcp_tui.untrusted import one_line

_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:[^\s<>\"{}|\\^`]*")
_TOKEN = r"[A-Za-z0-9!#$&^_.+\-]+"
_MIME = re.compile(rf"{_TOKEN}/{_TOKEN}(\s*;\s*{_TOKEN}=(\"[^\"]*\"|{_TOKEN}))*")
#: RFC 6570 level 4: an expression is an optional operator and varspecs joined by commas.
_VARNAME = r"(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*"
_VARSPEC = rf"{_VARNAME}(?::[1-9][0-9]{{0,3}}|\*)?"
_EXPRESSION = re.compile(rf"[+#./;?&]?{_VARSPEC}(?:,{_VARSPEC})*")
_LITERAL_BAD = re.compile(r"[\s<>\"\\^`|]")


def _named(kind: str, item: dict[str, Any], key: str = "name") -> str:
    value = item.get(key)
    return f"{kind} {one_line(value, limit=80)}" if isinstance(value, str) else f"{kind} ?"


def template_problem(template: str) -> str | None:
    """Why ``template`` is not an RFC 6570 URI template, or ``None`` when it is one."""
    rest = template
    while rest:
        start, end = rest.find("{"), rest.find("}")
        if start == -1:
            if end != -1:
                return "a '}' with no '{' before it"
            return _literal_problem(rest)
        if end != -1 and end < start:
            return "a '}' with no '{' before it"
        problem = _literal_problem(rest[:start])
        if problem:
            return problem
        close = rest.find("}", start)
        if close == -1:
            return "a '{' that is never closed"
        expression = rest[start + 1 : close]
        if "{" in expression:
            return "a '{' inside an expression"
        if not _EXPRESSION.fullmatch(expression):
            return f"'{{{one_line(expression, limit=60)}}}' is not a valid expression"
        rest = rest[close + 1 :]
    return None


def _literal_problem(text: str) -> str | None:
    bad = _LITERAL_BAD.search(text)
    return f"the character {bad.group()!r} outside an expression" if bad else None


@rule(
    "P101",
    "warning",
    "prompt argument without a description",
    why=(
        "A prompt's arguments become a form for the person who uses it: without a description "
        "they see only the argument's name."
    ),
    bad={"prompts": [{"name": "summarize", "arguments": [{"name": "style", "required": True}]}]},
    good={
        "prompts": [
            {
                "name": "summarize",
                "arguments": [
                    {"name": "style", "description": "short or detailed", "required": True}
                ],
            }
        ]
    },
)
def prompt_arguments(listing: Listing) -> Iterator[Finding]:
    for prompt in listing.prompts or ():
        arguments = prompt.get("arguments")
        for index, argument in enumerate(arguments if isinstance(arguments, list) else ()):
            if isinstance(argument, dict) and not (
                isinstance(argument.get("description"), str) and argument["description"].strip()
            ):
                yield finding(
                    "P101",
                    listing,
                    _named("prompt", prompt),
                    pointer("arguments", index, "description"),
                    f"argument '{one_line(argument.get('name'), limit=60)}' has no description: "
                    "the person filling the prompt's form sees only its name",
                    "describe what the argument is for and what to type",
                )


@rule(
    "P102",
    "info",
    "prompt argument whose required flag is not set",
    why=(
        "Without 'required', clients treat an argument as optional and may send nothing for "
        "it; a prompt that needs it then fails or reads empty text."
    ),
    bad={
        "prompts": [
            {
                "name": "summarize",
                "arguments": [{"name": "style", "description": "short or detailed"}],
            }
        ]
    },
    good={
        "prompts": [
            {
                "name": "summarize",
                "arguments": [
                    {"name": "style", "description": "short or detailed", "required": False}
                ],
            }
        ]
    },
)
def prompt_required(listing: Listing) -> Iterator[Finding]:
    for prompt in listing.prompts or ():
        arguments = prompt.get("arguments")
        for index, argument in enumerate(arguments if isinstance(arguments, list) else ()):
            if isinstance(argument, dict) and "required" not in argument:
                yield finding(
                    "P102",
                    listing,
                    _named("prompt", prompt),
                    pointer("arguments", index, "required"),
                    f"argument '{one_line(argument.get('name'), limit=60)}' does not say whether "
                    "it is required: clients treat it as optional and may send nothing",
                    'set "required": true or false',
                )


@rule(
    "P103",
    "error",
    "two prompts, or two arguments of a prompt, with the same name",
    why=(
        "Prompts are got by name and arguments are sent by name: with two of one name a "
        "client reaches only one of them."
    ),
    bad={"prompts": [{"name": "summarize"}, {"name": "summarize"}]},
    good={"prompts": [{"name": "summarize"}, {"name": "translate"}]},
)
def prompt_duplicates(listing: Listing) -> Iterator[Finding]:
    names = Counter(p.get("name") for p in listing.prompts or ())
    for name, count in sorted(names.items(), key=lambda kv: str(kv[0])):
        if count > 1:
            yield finding(
                "P103",
                listing,
                f"prompt {one_line(name, limit=80)}",
                "/name",
                f"{count} prompts are named '{one_line(name, limit=80)}'",
                "give every prompt a unique name",
            )
    for prompt in listing.prompts or ():
        arguments = prompt.get("arguments")
        counts = Counter(
            a.get("name")
            for a in (arguments if isinstance(arguments, list) else ())
            if isinstance(a, dict)
        )
        for name, count in counts.items():
            if count > 1:
                yield finding(
                    "P103",
                    listing,
                    _named("prompt", prompt),
                    "/arguments",
                    f"argument '{one_line(name, limit=60)}' appears {count} times",
                    "give every argument a unique name",
                )


@rule(
    "R101",
    "error",
    "resource URI that is not an absolute URI",
    why=(
        "A resource is read back, and its update notifications matched, by its URI: one that "
        "is not an absolute URI (a scheme, no spaces) cannot be read by a client that parses "
        "it."
    ),
    bad={"resources": [{"uri": "notes/a b.txt", "name": "a"}]},
    good={"resources": [{"uri": "file:///notes/a%20b.txt", "name": "a"}]},
)
def resource_uris(listing: Listing) -> Iterator[Finding]:
    for resource in listing.resources or ():
        uri = resource.get("uri")
        if not isinstance(uri, str) or not _URI.fullmatch(uri):
            yield finding(
                "R101",
                listing,
                _named("resource", resource, "uri"),
                "/uri",
                "not an absolute URI (a scheme, then no spaces or '<>\"{}|\\^`'): clients "
                "cannot read it back or match update notifications to it",
                "percent-encode the path (file:///a%20b) and give a scheme",
            )


@rule(
    "R102",
    "error",
    "resource template that is not an RFC 6570 URI template",
    why=(
        "A client expands a resource template with RFC 6570 to read the resource: a template "
        "that is not one (an unclosed brace, no scheme) cannot be expanded, so its resources "
        "cannot be read."
    ),
    bad={"templates": [{"uriTemplate": "users://{id", "name": "user"}]},
    good={"templates": [{"uriTemplate": "users://{id}/posts{?page,limit}", "name": "user"}]},
)
def templates(listing: Listing) -> Iterator[Finding]:
    for template in listing.templates or ():
        raw = template.get("uriTemplate")
        problem = (
            template_problem(raw)
            if isinstance(raw, str)
            else "uriTemplate is missing or not a string"
        )
        if (
            problem is None
            and isinstance(raw, str)
            and not _URI.fullmatch(re.sub(r"\{[^}]*\}", "x", raw))
        ):
            problem = "the template does not expand to an absolute URI (no scheme)"
        if problem is not None:
            yield finding(
                "R102",
                listing,
                _named("template", template, "uriTemplate"),
                "/uriTemplate",
                f"not an RFC 6570 URI template: {problem}; clients cannot expand it",
                "write variables as {name} (or {+path}, {?query}) and percent-encode the rest",
            )


@rule(
    "R103",
    "warning",
    "mimeType that is not type/subtype",
    why=(
        "Clients decide from mimeType how to show a resource (text or binary, which viewer): "
        "a value that is not a media type leaves them guessing."
    ),
    bad={"resources": [{"uri": "file:///a", "name": "a", "mimeType": "text"}]},
    good={
        "resources": [{"uri": "file:///a", "name": "a", "mimeType": "text/plain; charset=utf-8"}]
    },
)
def mime_types(listing: Listing) -> Iterator[Finding]:
    for kind, items, key in (
        ("resource", listing.resources, "uri"),
        ("template", listing.templates, "uriTemplate"),
    ):
        for item in items or ():
            mime = item.get("mimeType")
            if mime is not None and (not isinstance(mime, str) or not _MIME.fullmatch(mime)):
                yield finding(
                    "R103",
                    listing,
                    _named(kind, item, key),
                    "/mimeType",
                    f"mimeType {one_line(repr(mime), limit=60)} is not a media type "
                    "(type/subtype): clients cannot tell text from binary",
                    "use a registered media type such as text/plain or application/json",
                )


@rule(
    "C101",
    "warning",
    "listed something the server did not declare, or the reverse",
    why=(
        "Clients follow the capabilities: a kind the server lists without declaring it is "
        "never asked for (and shown as empty), and one it declares but cannot list is an "
        "error on every connection."
    ),
    bad={"capabilities": {}, "tools": [tool_example()]},
    good={"capabilities": {"tools": {}}, "tools": [tool_example()]},
)
def capabilities(listing: Listing) -> Iterator[Finding]:
    declared = listing.capabilities
    for kind, items in (
        ("tools", listing.tools),
        ("prompts", listing.prompts),
        ("resources", listing.resources),
    ):
        error = listing.errors.get(kind)
        if kind in declared and error is not None:
            yield finding(
                "C101",
                listing,
                "server",
                pointer("capabilities", kind),
                f"declares '{kind}' but {kind}/list failed: {one_line(error, limit=200)}",
                f"answer {kind}/list, or drop '{kind}' from the capabilities",
                severity="error",
            )
        elif kind not in declared and items:
            yield finding(
                "C101",
                listing,
                "server",
                pointer("capabilities", kind),
                f"answers {kind}/list with {len(items)} entries but does not declare '{kind}': "
                "clients that follow the capabilities never ask, and show none",
                f"declare the '{kind}' capability",
            )


_LIST_CHANGED = {
    "notifications/tools/list_changed": "tools",
    "notifications/prompts/list_changed": "prompts",
    "notifications/resources/list_changed": "resources",
}


@rule(
    "C102",
    "warning",
    "a list_changed notification the capabilities did not announce",
    why=(
        "A client that follows the capabilities ignores a list_changed notification that was "
        "not announced, and keeps showing the old list."
    ),
    bad={"capabilities": {"tools": {}}, "notifications": ["notifications/tools/list_changed"]},
    good={
        "capabilities": {"tools": {"listChanged": True}},
        "notifications": ["notifications/tools/list_changed"],
    },
)
def undeclared_list_changed(listing: Listing) -> Iterator[Finding]:
    for method in dict.fromkeys(listing.notifications):
        kind = _LIST_CHANGED.get(method)
        if kind is None:
            continue
        declared = listing.capabilities.get(kind)
        if not (isinstance(declared, dict) and declared.get("listChanged") is True):
            yield finding(
                "C102",
                listing,
                "server",
                pointer("capabilities", kind, "listChanged"),
                f"sent {method} without declaring {kind}.listChanged: clients that follow the "
                "capabilities ignore it and keep the old list",
                f'declare "{kind}": {{"listChanged": true}}',
            )

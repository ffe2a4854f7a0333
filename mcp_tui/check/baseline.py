"""The baseline file of ``check --baseline``: what a server offered, per era, to compare against.

One JSON document, written so a reviewer reads its diff in a pull request: objects keyed by
name (tools, prompts, resources by URI, templates by URI template), keys sorted, ``required``
lists sorted, two-space indent, ASCII only (a description's bidi override or escape sequence is a
visible ``\\u`` escape, never itself). What is kept is what a client relies on: each tool's
``inputSchema``, ``outputSchema``, ``annotations``, ``execution``, title and description; each
prompt's arguments; each resource's and template's name, title, description and MIME type; the
capabilities; the negotiated version; and the forms (``requestedSchema``) the ``--call`` and
``--run`` calls asked, keyed by the call and their order in it (``call book_table #2``), with the
calls that were made (a call not made this time is not compared). ``_meta`` and icons are left
out: they change with a deploy, not with the contract.

The era key is the handshake (``2025-11-25``: ``initialize``, whatever older version the server
answers with; ``2026-07-28``: ``server/discover``), so an SDK upgrade that negotiates a newer
version is one change (B514), not every tool removed and added.

Pure: listings in, JSON out; a file in, its data or a :class:`BaselineError` naming what is
wrong.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from mcp_tui.check.findings import Listing

#: The file's format version (``"mcp-tui-baseline"``); a newer file is refused, not misread.
FORMAT = 1
MODERN = "2026-07-28"
LEGACY = "2025-11-25"

_TOOL_KEYS = ("title", "description", "inputSchema", "outputSchema", "annotations", "execution")
_PROMPT_KEYS = ("title", "description")
_ARGUMENT_KEYS = ("description", "required", "title")
_RESOURCE_KEYS = ("name", "title", "description", "mimeType")


class BaselineError(ValueError):
    """A baseline file that cannot be read: the message names the file and what is wrong."""


def era_key(era: str) -> str:
    """The handshake an era was reached by: the baseline's key for it."""
    return MODERN if era == MODERN else LEGACY


def snapshot(listings: Iterable[Listing]) -> dict[str, Any]:
    """The baseline document of ``listings`` (one per server and era)."""
    servers: dict[str, dict[str, Any]] = {}
    for listing in listings:
        servers.setdefault(listing.server, {})[era_key(listing.era)] = era_snapshot(listing)
    return {"mcp-tui-baseline": FORMAT, "servers": servers}


def era_snapshot(listing: Listing) -> dict[str, Any]:
    """What one connection showed, as the baseline keeps it (the live side is compared in this
    same shape, so both are read by one function)."""
    data: dict[str, Any] = {
        "protocolVersion": listing.era,
        "capabilities": _plain(listing.capabilities),
        "tools": _keyed(listing.tools, "name", _tool),
        "prompts": _keyed(listing.prompts, "name", _prompt),
        "resources": _keyed(listing.resources, "uri", _resource),
        "resourceTemplates": _keyed(listing.templates, "uriTemplate", _resource),
    }
    calls = sorted({str(c.get("name")) for c in listing.calls if c.get("name") is not None})
    if calls:
        data["calls"] = calls
    forms = _forms(listing.elicitations)
    if forms:
        data["elicitations"] = forms
    # A listing that failed is unknown, not empty: it is not compared (the check reports it).
    data["failed"] = sorted(
        kind for kind in ("tools", "prompts", "resources", "templates") if kind in listing.errors
    )
    if not data["failed"]:
        del data["failed"]
    return data


def dumps(document: dict[str, Any]) -> str:
    """The file's text: sorted, indented, ASCII, one newline at the end."""
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=True) + "\n"


def loads(text: str, name: str) -> dict[str, dict[str, dict[str, Any]]]:
    """The servers of a baseline file (server -> era -> snapshot), or why it cannot be read."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BaselineError(f"{name}: not JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(document, dict) or "mcp-tui-baseline" not in document:
        raise BaselineError(
            f'{name}: not an mcp-tui baseline (no "mcp-tui-baseline" key); write one with '
            "mcp-tui check --baseline-update"
        )
    version = document["mcp-tui-baseline"]
    if version != FORMAT:
        raise BaselineError(
            f"{name}: baseline format {version!r}; this mcp-tui reads format {FORMAT} "
            "(write it again with --baseline-update)"
        )
    servers = document.get("servers")
    if not isinstance(servers, dict) or not all(
        isinstance(eras, dict) and all(isinstance(s, dict) for s in eras.values())
        for eras in servers.values()
    ):
        raise BaselineError(f'{name}: "servers" must map each server to its eras\' listings')
    for server, eras in servers.items():
        for era, listing in eras.items():
            problem = _shape_problem(listing)
            if problem is not None:
                where = f"servers / {json.dumps(server)} / {json.dumps(era)}"
                raise BaselineError(f"{name}: {where}: {problem}")
    return servers


_KEYED = ("tools", "prompts", "resources", "resourceTemplates", "elicitations")


def _shape_problem(listing: dict[str, Any]) -> str | None:
    """Why one era's listing is not in the shape :func:`era_snapshot` writes (a hand edit gone
    wrong), or ``None``: the comparison then reads it without a guard at every step."""
    if not isinstance(listing.get("capabilities", {}), dict):
        return '"capabilities" must be an object'
    if not isinstance(listing.get("protocolVersion", ""), str):
        return '"protocolVersion" must be a string'
    for key in _KEYED:
        items = listing.get(key)
        if items is None:
            continue
        if not isinstance(items, dict) or not all(isinstance(v, dict) for v in items.values()):
            return f'"{key}" must map each name to an object (or be null)'
    for key in ("calls", "failed"):
        value = listing.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return f'"{key}" must be a list of strings'
    return None


# ---- the parts ----------------------------------------------------------------------------------


def _keyed(items: list[dict[str, Any]] | None, key: str, shape: Any) -> dict[str, Any] | None:
    if items is None:
        return None
    out: dict[str, Any] = {}
    for item in items:
        name = item.get(key)
        if isinstance(name, str):
            out[name] = shape(item)
    return out


def _tool(tool: dict[str, Any]) -> dict[str, Any]:
    return {k: _plain(tool[k]) for k in _TOOL_KEYS if k in tool and tool[k] is not None}


def _prompt(prompt: dict[str, Any]) -> dict[str, Any]:
    out = {k: _plain(prompt[k]) for k in _PROMPT_KEYS if prompt.get(k) is not None}
    arguments: dict[str, Any] = {}
    for argument in prompt.get("arguments") or ():
        if isinstance(argument, dict) and isinstance(argument.get("name"), str):
            arguments[argument["name"]] = {
                k: _plain(argument[k]) for k in _ARGUMENT_KEYS if argument.get(k) is not None
            }
    out["arguments"] = arguments
    return out


def _resource(resource: dict[str, Any]) -> dict[str, Any]:
    return {k: _plain(resource[k]) for k in _RESOURCE_KEYS if resource.get(k) is not None}


def _forms(elicitations: list[dict[str, Any]]) -> dict[str, Any]:
    """The form requests, keyed ``call NAME #N`` (N: the order within that call, from 1)."""
    out: dict[str, Any] = {}
    counts: dict[str, int] = {}
    for request in elicitations:
        call = request.get("_mcp_tui_call")
        schema = request.get("requestedSchema")
        if request.get("mode", "form") != "form" or not isinstance(schema, dict) or call is None:
            continue
        counts[str(call)] = counts.get(str(call), 0) + 1
        out[f"call {call} #{counts[str(call)]}"] = {
            "message": str(request.get("message", "")),
            "requestedSchema": _plain(schema),
        }
    return out


def _plain(value: Any, depth: int = 0) -> Any:
    """A JSON value with every ``required`` list sorted (a set, in JSON Schema: its order is
    noise in a diff)."""
    if depth > 64:
        return value
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            if k == "required" and isinstance(v, list) and all(isinstance(n, str) for n in v):
                out[k] = sorted(set(v))
            else:
                out[k] = _plain(v, depth + 1)
        return out
    if isinstance(value, list):
        return [_plain(v, depth + 1) for v in value]
    return value


def line_of(text: str, path: list[str]) -> int | None:
    """The line (from 1) of the deepest key of ``path`` found in a file :func:`dumps` wrote
    (two-space indent, one key a line), or ``None``: where a CI annotation points. A file
    reformatted by hand still compares; its annotations then have no line."""
    lines = text.splitlines()
    found: int | None = None
    start, end = 0, len(lines)
    for depth, key in enumerate(path):
        wanted = " " * (2 * (depth + 1)) + json.dumps(key, ensure_ascii=True) + ":"
        for index in range(start, end):
            if lines[index].startswith(wanted):
                found, start = index + 1, index + 1
                end = _block_end(lines, index, 2 * (depth + 1))
                break
        else:
            return found
    return found


def _block_end(lines: list[str], index: int, indent: int) -> int:
    """The index after the last line of the value that starts at ``lines[index]``."""
    for later in range(index + 1, len(lines)):
        line = lines[later]
        if line.strip() and len(line) - len(line.lstrip(" ")) <= indent:
            return later
    return len(lines)

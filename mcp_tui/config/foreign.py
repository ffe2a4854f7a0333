"""Translate the JSON config files of other MCP clients into our own vocabulary.

Two shapes exist in the wild:

- ``{"mcpServers": {NAME: {...}}}``: Claude Desktop, Cursor, Claude Code (``.mcp.json``), Windsurf
  (``serverUrl``), Cline (``disabled``, ``autoApprove``). Entries have ``command``/``args``/``env``/
  ``cwd`` (and mcp-tui's own ``inheritEnv``), or ``url`` with an optional ``type`` (``http``,
  ``sse``, ``streamable-http``) and ``headers``.
- ``{"servers": {NAME: {...}}}``: VS Code's ``mcp.json`` (also ``"mcp": {"servers": ...}`` inside
  ``settings.json``), with ``type`` ``stdio``/``http``/``sse`` and a top-level ``inputs`` list.

These files are written for other programs, so keys we do not use are skipped with a note instead of
failing the whole file: the user's existing file must keep working. Values of keys we *do* use are
checked as strictly as our TOML (by the same pydantic models, in ``config/load.py``).

Pure: no pydantic here; the result is plain dicts for ``config/load.py`` to validate.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlsplit

from mcp_tui.config.text import KeyPath, format_key_path

ConfigFormat = Literal["toml", "mcpServers", "vscode"]
ServerKind = Literal["stdio", "http"]

_STDIO_KEYS = ("command", "args", "env", "cwd")
_HTTP_KEYS = ("url", "serverUrl", "headers")
_TYPES: dict[str, tuple[ServerKind, str]] = {
    "stdio": ("stdio", ""),
    "http": ("http", "streamable-http"),
    "streamable-http": ("http", "streamable-http"),
    "streamable_http": ("http", "streamable-http"),
    "streamableHttp": ("http", "streamable-http"),
    "sse": ("http", "sse"),
}
_WHY_IGNORED = {
    "envFile": "mcp-tui does not read env files; list the variables under env",
    "inputs": "mcp-tui cannot prompt for VS Code inputs; use ${env:NAME} instead",
}


class ForeignConfigError(Exception):
    """A problem at ``key`` that makes the file unusable; ``config/load.py`` adds file and line."""

    def __init__(self, key: KeyPath, message: str) -> None:
        super().__init__(message)
        self.key = key
        self.message = message


@dataclass(frozen=True)
class ForeignEntry:
    """One server, as a dict in our TOML vocabulary (``StdioServerConfig``/``HttpServerConfig``)."""

    name: str
    #: Where the entry is in the file, e.g. ``("mcpServers", "db")``.
    key: KeyPath
    kind: ServerKind
    values: dict[str, Any]
    #: Our key -> the file's key, so errors name the key the user wrote (``transport`` <- ``type``).
    original_keys: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ForeignShape:
    format: ConfigFormat
    entries: tuple[ForeignEntry, ...]
    notes: tuple[str, ...] = ()


def translate_json(data: Any) -> ForeignShape:
    """Find the servers in a parsed JSON document and translate each entry."""
    notes: list[str] = []
    servers: Any = None
    prefix: KeyPath = ()
    fmt: ConfigFormat = "mcpServers"
    if isinstance(data, dict) and isinstance(data.get("mcpServers"), dict):
        servers, prefix = data["mcpServers"], ("mcpServers",)
        if isinstance(data.get("servers"), dict):
            notes.append('both "mcpServers" and "servers" are present; only "mcpServers" is read')
    elif isinstance(data, dict) and isinstance(data.get("servers"), dict):
        servers, prefix, fmt = data["servers"], ("servers",), "vscode"
    elif (
        isinstance(data, dict)
        and isinstance(data.get("mcp"), dict)
        and isinstance(data["mcp"].get("servers"), dict)
    ):
        servers, prefix, fmt = data["mcp"]["servers"], ("mcp", "servers"), "vscode"
    else:
        raise ForeignConfigError(
            (),
            'expected an object with "mcpServers" (Claude Desktop, Cursor, Claude Code) or '
            '"servers" (VS Code) holding the servers by name',
        )
    if fmt == "vscode" and isinstance(data, dict) and data.get("inputs"):
        notes.append(f"inputs: ignored ({_WHY_IGNORED['inputs']})")
    entries = tuple(
        _entry(str(name), raw, (*prefix, str(name)), notes) for name, raw in servers.items()
    )
    return ForeignShape(format=fmt, entries=entries, notes=tuple(notes))


def _entry(name: str, raw: Any, key: KeyPath, notes: list[str]) -> ForeignEntry:
    if not isinstance(raw, dict):
        raise ForeignConfigError(key, "must be an object with `command` or `url`")
    kind, transport, renamed = _kind(raw, key, notes)
    values: dict[str, Any] = {}
    used = {"type", "disabled"}
    wanted = _STDIO_KEYS if kind == "stdio" else _HTTP_KEYS
    for k in wanted:
        if k in raw:
            values["url" if k == "serverUrl" else k] = raw[k]
            used.add(k)
    if kind == "stdio" and "inheritEnv" in raw:  # mcp-tui's own key, spelled the JSON way
        values["inherit_env"] = raw["inheritEnv"]
        renamed["inherit_env"] = "inheritEnv"
        used.add("inheritEnv")
    if kind == "http":
        values["transport"] = transport
    if "disabled" in raw:
        disabled = raw["disabled"]
        values["enabled"] = (not disabled) if isinstance(disabled, bool) else disabled
        renamed["enabled"] = "disabled"
    for k in raw:
        if k in used:
            continue
        why = _WHY_IGNORED.get(k)
        if why is None and k in (*_STDIO_KEYS, *_HTTP_KEYS):
            why = f"not used by a {'stdio' if kind == 'stdio' else 'HTTP'} server"
        notes.append(f"{format_key_path((*key, k))}: ignored ({why or 'not used by mcp-tui'})")
    return ForeignEntry(name=name, key=key, kind=kind, values=values, original_keys=renamed)


def _kind(
    raw: Mapping[str, Any], key: KeyPath, notes: list[str]
) -> tuple[ServerKind, str, dict[str, str]]:
    """Stdio or HTTP, and the HTTP transport, from ``type`` or from which keys are present."""
    renamed: dict[str, str] = {}
    url_key = "url" if "url" in raw else "serverUrl" if "serverUrl" in raw else None
    if url_key:
        renamed["url"] = url_key
    if "type" in raw:
        declared = raw["type"]
        if not isinstance(declared, str) or declared not in _TYPES:
            raise ForeignConfigError(
                (*key, "type"),
                f"unknown server type {declared!r} (expected stdio, http, streamable-http or sse)",
            )
        kind, transport = _TYPES[declared]
        renamed["transport"] = "type"
        if kind == "stdio" and "command" not in raw:
            raise ForeignConfigError(key, 'a "stdio" server needs `command`')
        if kind == "http" and url_key is None:
            raise ForeignConfigError(key, f'an "{declared}" server needs `url`')
        return kind, transport, renamed
    if "command" in raw and url_key is None:
        return "stdio", "", renamed
    if url_key is not None and "command" not in raw:
        url = raw[url_key]
        if isinstance(url, str) and urlsplit(url).path.rstrip("/").endswith("/sse"):
            notes.append(
                f"{format_key_path(key)}: no type given and the URL ends in /sse, so the legacy "
                'SSE transport is used (write "type": "http" for Streamable HTTP)'
            )
            return "http", "sse", renamed
        return "http", "streamable-http", renamed
    raise ForeignConfigError(
        key, "needs exactly one of `command` (a stdio server) or `url` (an HTTP server)"
    )

"""The servers' tools as the model sees them: safe unique names, descriptions, input schemas.

Providers accept tool names of ``[A-Za-z0-9_-]{1,64}`` only, and two servers may offer a tool of
the same name, so each tool gets a name of its own (``server__tool``, cleaned and shortened, with a
number when two collide), and :class:`ToolCatalog` maps it back to the server and the tool.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from msgspec import Struct

from mcp_tui.session.events import ToolInfo

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")
MAX_NAME = 64


class ChatTool(Struct, frozen=True):
    """One tool offered to the model."""

    #: The name the model uses.
    name: str
    #: The server's key (the call goes there).
    server: str
    tool: ToolInfo
    #: The name the server is shown by, when not its key (``session/naming.py``: ``weather``
    #: for a ``python server.py`` that announces it).
    shown: str = ""

    @property
    def label(self) -> str:
        """``server › tool`` for the screen."""
        return f"{self.shown or self.server} › {self.tool.name}"


def model_name_for(server: str, tool: str) -> str:
    """``server__tool`` with every unsafe run replaced by ``_``, at most 64 characters."""
    raw = f"{_UNSAFE.sub('_', server).strip('_') or 'server'}__{_UNSAFE.sub('_', tool) or 'tool'}"
    return raw[:MAX_NAME]


class ToolCatalog:
    """The enabled tools of every ready server, by the names the model knows them by."""

    def __init__(
        self, tools: Iterable[tuple[str, ToolInfo]], shown: Mapping[str, str] | None = None
    ) -> None:
        """``tools``: (server key, tool); ``shown``: the names servers are shown by, by key,
        where they differ (the model sees ``weather__forecast``, not ``server__forecast``)."""
        self._by_name: dict[str, ChatTool] = {}
        for server, tool in tools:
            called = (shown or {}).get(server, server)
            name = model_name_for(called, tool.name)
            n = 2
            while name in self._by_name:
                suffix = f"_{n}"
                name = model_name_for(called, tool.name)[: MAX_NAME - len(suffix)] + suffix
                n += 1
            self._by_name[name] = ChatTool(name, server, tool, called if called != server else "")

    def __len__(self) -> int:
        return len(self._by_name)

    def __iter__(self) -> Any:
        return iter(self._by_name.values())

    def get(self, name: str) -> ChatTool | None:
        return self._by_name.get(name)

    def definitions(self) -> list[Any]:
        """The provider library's tool definitions (imported here: only a running chat needs it)."""
        from pydantic_ai.tools import ToolDefinition

        return [
            ToolDefinition(
                name=t.name,
                description=t.tool.description or t.tool.title or t.tool.name,
                parameters_json_schema=_object_schema(t.tool.input_schema),
            )
            for t in self._by_name.values()
        ]


def _object_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Providers require an object schema; a tool without one takes no arguments."""
    if isinstance(schema, dict) and schema.get("type") == "object":
        return schema
    return {"type": "object", "properties": {}}

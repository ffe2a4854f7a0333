"""Tool arguments as a form: any JSON Schema a tool can reasonably declare, not only the flat
elicitation subset.

``build`` turns an ``inputSchema`` into a tree of ``nodes`` (objects, lists, variants, maps,
recursive parts, scalar fields of the flat engine); ``state`` holds what the user entered;
``answer`` makes the JSON to send (or errors by path); ``skeleton`` the smallest valid arguments
(the JSON editor's start); ``check`` validates against the original schema with paths.

Pure Python: no Textual, no MCP session.
"""

from __future__ import annotations

from .answer import answer, partial, touch
from .build import build_arguments
from .check import Verdict, validate_arguments
from .nodes import (
    ArrayNode,
    Const,
    JsonValue,
    Leaf,
    Node,
    ObjectNode,
    Path,
    Recursive,
    Refused,
    Variant,
)
from .skeleton import skeleton
from .state import State, state_for

__all__ = [
    "ArrayNode",
    "Const",
    "JsonValue",
    "Leaf",
    "Node",
    "ObjectNode",
    "Path",
    "Recursive",
    "Refused",
    "State",
    "Variant",
    "Verdict",
    "answer",
    "build_arguments",
    "partial",
    "skeleton",
    "state_for",
    "touch",
    "validate_arguments",
]

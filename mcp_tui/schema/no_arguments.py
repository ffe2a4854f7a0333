"""Whether a tool takes no arguments at all: Enter then calls it at once with ``{}``.

Only a schema that plainly declares nothing counts (``{"type": "object"}``, with or without an
empty ``properties``, ``required`` or ``additionalProperties: false``): anything that could ask
for a value (a property, a pattern, a schema for extra keys, a combinator or a ``$ref``) keeps
the dialog, so a value the person did not choose is never sent in its place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Keys that say nothing about which arguments there are.
_HARMLESS = frozenset(
    {"type", "properties", "required", "additionalProperties", "title", "description", "$schema"}
)


def takes_no_arguments(schema: Mapping[str, Any] | None) -> bool:
    """True when ``schema`` (a tool's ``inputSchema``) asks for nothing."""
    if schema is None:
        return True
    if not isinstance(schema, Mapping) or not set(schema) <= _HARMLESS:
        return False
    if schema.get("type", "object") != "object":
        return False
    if schema.get("properties", {}) != {} or schema.get("required", []) != []:
        return False
    return schema.get("additionalProperties", True) in (True, False, {})

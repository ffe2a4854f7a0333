"""Parsed forms by their schema's JSON, so a form asked again is not parsed again.

A server often asks the same form many times: a wizard's retry, a CI run answering hundreds of
elicitations headless. Parsing a small form costs about as much as the rest of mcp-tui's work on
the request, and a new :class:`FormSpec` each time also defeats the validator cache's identity
memo (``compiled.ValidatorCache``), which then writes the schema as JSON again to find its key.
:data:`FORMS` keeps the last forms by the schema's compact JSON: a hit returns the same immutable
``FormSpec`` (whose validator is then found by identity).

The cached form is parsed from a private copy read back from the key, so no one holding the
server's dict can change a cached form's ``schema``. Refused schemas (``SchemaError``) are never
cached: they are parsed, and refused, each time. ``parse_requested_schema`` itself stays uncached.
"""

from __future__ import annotations

import json
from typing import Final

from mcp_tui.schema.compiled import schema_key
from mcp_tui.schema.fields import FormSpec
from mcp_tui.schema.lru import Lru
from mcp_tui.schema.parse import parse_requested_schema


class ParseCache:
    """The last ``size`` parsed forms, keyed by schema JSON no longer than ``largest``."""

    def __init__(self, size: int = 32, largest: int = 200_000) -> None:
        self.size = size
        self.largest = largest
        self._forms: Lru[str, FormSpec] = Lru(size)

    def __len__(self) -> int:
        return len(self._forms)

    def clear(self) -> None:
        self._forms.clear()

    def parse(self, schema: object) -> FormSpec:
        """``parse_requested_schema(schema)``, or the form already parsed from the same JSON."""
        key = schema_key(schema)
        if key is None or len(key) > self.largest:
            return parse_requested_schema(schema)
        hit = self._forms.get(key)
        if hit is not None:
            return hit
        form = parse_requested_schema(json.loads(key))  # raises SchemaError: nothing is cached
        self._forms.put(key, form)
        return form


#: The process-wide cache the elicitation bridge parses requested schemas through.
FORMS: Final = ParseCache()

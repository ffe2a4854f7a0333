"""The schema engine: a requested schema → a typed form model → exactly typed ``content``.

Pure Python: no Textual, no MCP session, no network. jsonschema is imported only when a form's
answer is first checked. The modules, in layers: each imports only modules of its own layer or
of the layers above it (``tests/test_import_cycles.py`` keeps them free of circles):

* the model and its vocabulary: ``fields`` (the form model: imports nothing of the engine),
  ``keywords`` (what is done with each JSON Schema keyword, where subschemas live), ``limits``;
* reading values: ``formats`` (numbers, the string formats, ``pattern``), ``rules`` (one field's
  rules on a typed value), ``describe`` (the rules in words);
* reading schemas: ``normalize`` (``$ref``, ``allOf`` and "T or null" rewritten to plain shapes),
  ``parse_options`` → ``parse_kinds`` → ``parse_fields`` (one property) → ``parse`` (a schema);
* answers: ``validate`` (input → ``content``), with ``compiled``, ``fastcheck``, ``passed`` and
  the ``lru`` behind its final jsonschema check; ``parse_cache`` (forms asked again);
* ``arguments``: a tool's ``inputSchema`` as a tree of nodes, built on the flat engine's fields.
"""

from __future__ import annotations

from mcp_tui.schema.describe import constraint_text, placeholder
from mcp_tui.schema.fields import (
    ContentValue,
    FieldKind,
    FieldSpec,
    FormResult,
    FormSpec,
    Option,
    RawValue,
    TextFormat,
)
from mcp_tui.schema.formats import with_local_offset
from mcp_tui.schema.parse import NeedsJsonEditor, classify_input_schema, parse_requested_schema
from mcp_tui.schema.validate import (
    OMIT,
    Omit,
    complete_with_defaults,
    initial_value,
    initial_values,
    validate_field,
    validate_form,
)

__all__ = [
    "OMIT",
    "ContentValue",
    "FieldKind",
    "FieldSpec",
    "FormResult",
    "FormSpec",
    "NeedsJsonEditor",
    "Omit",
    "Option",
    "RawValue",
    "TextFormat",
    "classify_input_schema",
    "complete_with_defaults",
    "constraint_text",
    "initial_value",
    "initial_values",
    "parse_requested_schema",
    "placeholder",
    "validate_field",
    "validate_form",
    "with_local_offset",
]

"""The schema engine: a requested schema → a typed form model → exactly typed ``content``.

Pure Python: no Textual, no MCP session, no network. jsonschema is imported only when a form's
answer is first checked. See ``parse`` (what is understood and refused, size limits),
``validate`` (how input becomes content), ``formats`` (numbers, formats and ``pattern``) and
``describe`` (rules in words).
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

"""JSON Schema keywords sorted by what the form engine does with them.

Four outcomes for a keyword the engine does not render itself:

* *silent*: pure annotations (``$comment``, ``examples``, ``readOnly`` ...); nothing to do.
* *refused*: references and applicators that make a schema non-flat (``$ref``, ``allOf``,
  ``not``, ``if`` ...): a :class:`~mcp_tui.errors.SchemaProblem`, because a form could not show
  what they mean and the final jsonschema check might fail for reasons the user cannot see.
* *other type*: a keyword of another instance type (``minLength`` on a number): jsonschema
  ignores it for this type, so do we, with a note.
* anything else known to JSON Schema (``const``, ``contentMediaType`` ...) is kept: a note says
  the server's schema checks it when the answer is submitted. Unknown keywords (not JSON
  Schema at all) are ignored with a note, exactly as jsonschema ignores them.
"""

from __future__ import annotations

from typing import Final

#: Keywords that pull in other schemas by reference: never followed (nothing is fetched).
REFERENCES: Final = frozenset(
    {"$ref", "$dynamicRef", "$recursiveRef", "$defs", "definitions", "$dynamicAnchor"}
)

#: Annotations with no effect on validation.
SILENT: Final = frozenset(
    {
        "$comment",
        "$id",
        "$anchor",
        "$recursiveAnchor",
        "$vocabulary",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "title",
        "description",
    }
)

#: Applicators and conditionals: the schema is not a flat list of fields.
STRUCTURAL: Final = frozenset(
    {
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "dependentSchemas",
        "dependencies",
        "prefixItems",
        "contains",
        "unevaluatedItems",
        "unevaluatedProperties",
        "patternProperties",
        "propertyNames",
        "additionalItems",
    }
)

BY_TYPE: Final[dict[str, frozenset[str]]] = {
    "string": frozenset({"minLength", "maxLength", "pattern", "format"}),
    "number": frozenset(
        {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
    ),
    "array": frozenset(
        {"items", "minItems", "maxItems", "uniqueItems", "minContains", "maxContains"}
    ),
    "object": frozenset(
        {
            "properties",
            "required",
            "additionalProperties",
            "minProperties",
            "maxProperties",
            "dependentRequired",
        }
    ),
}

#: Every keyword of JSON Schema 2020-12 (plus draft-07's names and the spec's ``enumNames``).
VOCABULARY: Final = (
    REFERENCES
    | SILENT
    | STRUCTURAL
    | frozenset().union(*BY_TYPE.values())
    | frozenset(
        {
            "$schema",
            "type",
            "enum",
            "const",
            "default",
            "enumNames",
            "contentEncoding",
            "contentMediaType",
            "contentSchema",
        }
    )
)

TWENTY_TWENTY: Final = frozenset(
    {
        "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2020-12/schema#",
    }
)

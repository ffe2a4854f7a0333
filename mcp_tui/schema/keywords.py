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

It also says where subschemas live (:data:`IN_ONE`, :data:`IN_LIST`, :data:`IN_NAMES`,
:data:`DEFINITIONS`), for the walks that copy a schema: inlining references (``normalize``) and
stripping it for the final check (``compiled``). One table, so the two walks cannot disagree
about which values are schemas.
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

#: Keywords whose value is one subschema.
IN_ONE: Final = frozenset(
    {
        "items",
        "additionalProperties",
        "additionalItems",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "contentSchema",
    }
)
#: Keywords whose value is a list of subschemas (``items`` too, in draft-04..07's tuple form).
IN_LIST: Final = frozenset({"allOf", "anyOf", "oneOf", "prefixItems", "items"})
#: Keywords whose value maps names (or patterns) to subschemas, definitions apart.
IN_NAMES: Final = frozenset({"properties", "patternProperties", "dependentSchemas"})
#: Where definitions live (a name to a subschema, like :data:`IN_NAMES`).
DEFINITIONS: Final = frozenset({"$defs", "definitions"})

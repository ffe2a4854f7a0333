"""Checks of each field of every ``requestedSchema`` seen: what its own keywords say.

``elicitation.py`` checks that each field is one of the spec's shapes for the era; these check
what a field of any shape says about itself: choices and their labels (``enumNames``), a default
that must fit, a string format from the spec's list, the ``required`` names. A client trusts all
of them to draw the form and to answer it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mcp_tui.check.elicitation import form_requests
from mcp_tui.check.findings import Finding, Listing, finding, form_example, pointer, rule
from mcp_tui.untrusted import one_line

#: The string formats the spec lists for a form's fields.
FORMATS = ("email", "uri", "date", "date-time")


@rule(
    "E103",
    "warning",
    "enumNames not as long as enum",
    why=(
        "Clients pair enumNames with enum by position: a list of another length shifts the "
        "labels (a person picks one thing and sends another) or makes the client refuse the "
        "form."
    ),
    bad={
        "elicitations": [
            form_example({"size": {"type": "string", "enum": ["s", "m"], "enumNames": ["Small"]}})
        ]
    },
    good={
        "elicitations": [
            form_example(
                {"size": {"type": "string", "enum": ["s", "m"], "enumNames": ["Small", "Medium"]}}
            )
        ]
    },
)
def enum_names(listing: Listing) -> Iterator[Finding]:
    for where, schema, _ in form_requests(listing):
        for name, prop in _properties(schema):
            values, names = prop.get("enum"), prop.get("enumNames")
            if isinstance(values, list) and isinstance(names, list) and len(values) != len(names):
                yield finding(
                    "E103",
                    listing,
                    where,
                    pointer("requestedSchema", "properties", name, "enumNames"),
                    f"{len(names)} enumNames for {len(values)} enum values: clients pair them by "
                    "position, so labels shift or the form is refused",
                    "give one name per value, or use oneOf with const/title",
                )


@rule(
    "E104",
    "error",
    "a default that does not fit its own field",
    why=(
        "A client pre-fills a field with its default; a default the field refuses is an "
        "answer the server's own schema rejects as soon as the person accepts it unchanged."
    ),
    bad={
        "elicitations": [form_example({"guests": {"type": "integer", "minimum": 1, "default": 0}})]
    },
    good={
        "elicitations": [form_example({"guests": {"type": "integer", "minimum": 1, "default": 1}})]
    },
)
def defaults(listing: Listing) -> Iterator[Finding]:
    from jsonschema import Draft202012Validator
    from referencing import Registry

    for where, schema, _ in form_requests(listing):
        for name, prop in _properties(schema):
            if "default" not in prop:
                continue
            try:
                errors = list(
                    Draft202012Validator(prop, registry=Registry()).iter_errors(prop["default"])
                )
            except Exception:
                continue
            if errors:
                yield finding(
                    "E104",
                    listing,
                    where,
                    pointer("requestedSchema", "properties", name, "default"),
                    f"the default of '{one_line(name, limit=60)}' does not fit the field: "
                    f"{one_line(errors[0].message, limit=160)}; a client that pre-fills it sends "
                    "an answer the server's own schema refuses",
                    "make the default one of the values the field allows",
                )


@rule(
    "E105",
    "warning",
    "a string format the spec does not list",
    why=(
        "The spec lists the string formats a client knows (email, uri, date, date-time); any "
        "other is a plain text field, so nothing checks the value."
    ),
    bad={"elicitations": [form_example({"host": {"type": "string", "format": "hostname"}})]},
    good={"elicitations": [form_example({"host": {"type": "string", "format": "uri"}})]},
)
def formats(listing: Listing) -> Iterator[Finding]:
    for where, schema, _ in form_requests(listing):
        for name, prop in _properties(schema):
            fmt = prop.get("format")
            if fmt is not None and fmt not in FORMATS:
                yield finding(
                    "E105",
                    listing,
                    where,
                    pointer("requestedSchema", "properties", name, "format"),
                    f"format {one_line(repr(fmt), limit=60)} is not one of the spec's "
                    f"({', '.join(FORMATS)}): clients treat the field as plain text",
                    "use one of the listed formats, or describe the expected form in the "
                    "description and check it on the server",
                )


@rule(
    "E106",
    "error",
    "required names a field that is not in properties",
    why=(
        "A required field that does not exist can never be given: strict clients refuse the "
        "form, others send an answer the server then refuses."
    ),
    bad={"elicitations": [form_example({"name": {"type": "string"}}, required=["email"])]},
    good={"elicitations": [form_example({"name": {"type": "string"}}, required=["name"])]},
)
def required_names(listing: Listing) -> Iterator[Finding]:
    for where, schema, _ in form_requests(listing):
        properties = schema.get("properties")
        required = schema.get("required")
        if not isinstance(properties, dict) or not isinstance(required, list):
            continue
        for index, name in enumerate(required):
            if name not in properties:
                yield finding(
                    "E106",
                    listing,
                    where,
                    pointer("requestedSchema", "required", index),
                    f"'{one_line(name, limit=60)}' is required but not a property: no answer can "
                    "ever be valid",
                    "remove it from 'required' or add the property",
                )


@rule(
    "E107",
    "info",
    "legacy enumNames (deprecated since 2025-11-25)",
    why=(
        "enumNames is deprecated since 2025-11-25 in favour of a titled oneOf (const and "
        "title); clients of the new era may stop showing its labels."
    ),
    bad={
        "elicitations": [
            form_example({"size": {"type": "string", "enum": ["s"], "enumNames": ["Small"]}})
        ]
    },
    good={
        "elicitations": [
            form_example({"size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}]}})
        ]
    },
)
def legacy_enum_names(listing: Listing) -> Iterator[Finding]:
    if listing.era < "2025-11-25":
        return
    for where, schema, _ in form_requests(listing):
        for name, prop in _properties(schema):
            if "enumNames" in prop:
                yield finding(
                    "E107",
                    listing,
                    where,
                    pointer("requestedSchema", "properties", name, "enumNames"),
                    "enumNames is deprecated: newer clients may show the raw values",
                    'use "oneOf": [{"const": value, "title": label}, ...]',
                )


def _properties(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for name, prop in properties.items():
            if isinstance(prop, dict):
                yield name, prop

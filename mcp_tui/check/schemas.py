"""Is a tool's ``inputSchema``/``outputSchema`` valid for its dialect, with an object root?

The spec (2025-11-25 and after) reads a schema without ``$schema`` as JSON Schema 2020-12;
``$schema`` may name another draft. A client validates arguments with the dialect's validator, so
a schema its meta-schema refuses fails there: in some clients on every call, in others when the
tool list is loaded (the whole server then shows no tools). Meta-schemas come with ``jsonschema``:
nothing is fetched, and a ``$ref`` to another document is reported, not followed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mcp_tui.untrusted import one_line

#: The dialects ``jsonschema`` knows, by the ``$schema`` URIs servers write (with and without
#: the trailing ``#``).
_KNOWN_DIALECTS = (
    "http://json-schema.org/draft-04/schema",
    "http://json-schema.org/draft-06/schema",
    "http://json-schema.org/draft-07/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "https://json-schema.org/draft/2020-12/schema",
)

Problem = tuple[str, str, str]


def schema_problems(schema: object, *, required: bool) -> Iterator[Problem]:
    """Each problem as (JSON Pointer below the schema, why, fix)."""
    if schema is None and not required:
        return
    if not isinstance(schema, dict):
        what = "missing" if schema is None else f"a JSON {type(schema).__name__}, not an object"
        yield "", f"the schema is {what}", 'give a JSON Schema object, at least {"type": "object"}'
        return
    if schema.get("type") != "object":
        yield (
            "/type",
            f'the root\'s type is {one_line(repr(schema.get("type")), limit=60)}, not "object": '
            "arguments and structured results are always JSON objects, and strict clients "
            "refuse the tool",
            'set "type": "object" at the root and put the values under "properties"',
        )
    dialect = schema.get("$schema")
    if dialect is not None and (
        not isinstance(dialect, str) or dialect.rstrip("#") not in _KNOWN_DIALECTS
    ):
        yield (
            "/$schema",
            f"unknown dialect {one_line(repr(dialect), limit=100)}: clients fall back to 2020-12 "
            "or refuse the schema",
            "drop $schema (2020-12 is the default) or name a published draft",
        )
        return
    yield from _meta_schema_errors(schema)
    yield from _remote_refs(schema, "")


def _meta_schema_errors(schema: dict[str, Any]) -> Iterator[Problem]:
    from jsonschema import Draft202012Validator, validators

    cls = validators.validator_for(schema, default=Draft202012Validator)
    errors = sorted(cls(cls.META_SCHEMA).iter_errors(schema), key=lambda e: list(e.path))
    for error in errors[:5]:
        at = "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in error.path)
        yield (
            at,
            f"not valid {_dialect_name(cls)}: {one_line(error.message, limit=200)}",
            "fix the schema so its dialect's meta-schema accepts it (a validator in your tests "
            "catches this)",
        )


def _dialect_name(cls: Any) -> str:
    names: dict[str, str] = {
        "Draft4Validator": "draft-04",
        "Draft6Validator": "draft-06",
        "Draft7Validator": "draft-07",
        "Draft201909Validator": "2019-09",
        "Draft202012Validator": "2020-12",
    }
    return names.get(cls.__name__, str(cls.__name__))


def _remote_refs(node: object, at: str) -> Iterator[Problem]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and not ref.startswith("#"):
            yield (
                at + "/$ref",
                f"$ref {one_line(ref, limit=120)} points outside the schema: clients do not fetch "
                "schemas over the network, so the reference cannot be resolved",
                "inline the referenced schema, or put it under $defs and refer to '#/$defs/...'",
            )
        for key, value in node.items():
            if key not in ("const", "enum", "default", "examples"):
                yield from _remote_refs(value, f"{at}/{key.replace('~', '~0').replace('/', '~1')}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _remote_refs(value, f"{at}/{index}")

"""``check --fuzz``'s argument sets: valid ones from a tool's ``inputSchema``, just-invalid ones.

Valid values come from ``hypothesis-jsonschema`` (a kept generator that knows JSON Schema's
corners: bounds, lengths, formats, ``anyOf``, ``$ref``), so hypothesis can also *shrink* a failing
set to the smallest that still fails. A just-invalid set is a valid one with one thing broken: a
required argument dropped, one argument of the wrong JSON type, a number one step past its bound,
a string one character too short. Pure: no SDK, no network (``$ref`` to another document is not
followed: such a schema is not fuzzed). Imported only by ``--fuzz``: hypothesis is an extra
(``pip install 'mcp-tui-client[fuzz]'``).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

#: A value of another JSON type than the property's, for each type.
_WRONG_TYPE: dict[str, Any] = {
    "string": 12345,
    "integer": "not a number",
    "number": "not a number",
    "boolean": "yes",
    "array": {"not": "a list"},
    "object": ["not", "an", "object"],
    "null": 0,
}


def valid_arguments(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Argument objects the schema accepts (boundary values included: hypothesis aims for them).

    Objects are composed here from ``properties``/``required`` (``hypothesis-jsonschema`` 0.23's
    own object strategy uses a hypothesis API that hypothesis 6.1xx removed); every value inside
    comes from ``from_schema``, with the root's ``$defs`` carried along for local ``$ref``s.
    """
    defs: dict[str, Any] = {k: schema[k] for k in ("$defs", "definitions") if k in schema}
    return _object(schema, defs).filter(lambda value: not _refused(schema, value))


def _object(schema: dict[str, Any], defs: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    required = [n for n in schema.get("required") or () if isinstance(n, str)]
    values = {name: _value(prop, defs) for name, prop in (properties or {}).items()}
    return st.fixed_dictionaries(
        {name: values[name] if name in values else st.just("x") for name in required},
        optional={name: v for name, v in values.items() if name not in required},
    )


def _value(prop: object, defs: dict[str, Any]) -> st.SearchStrategy[Any]:
    if not isinstance(prop, dict):
        return st.none() if prop is False else st.just(None)
    if prop.get("type") == "object" and "properties" in prop:
        return _object(prop, defs)
    return from_schema({**prop, **defs} if defs and "$ref" in repr(prop) else prop)


def invalid_arguments(schema: dict[str, Any]) -> st.SearchStrategy[tuple[str, dict[str, Any]]]:
    """(what was broken, an argument object the schema refuses) built from a valid one."""

    def broken(base: dict[str, Any]) -> st.SearchStrategy[tuple[str, dict[str, Any]]]:
        options = list(_mutations(schema, base))
        if not options:
            return st.nothing()
        return st.sampled_from(options)

    return valid_arguments(schema).flatmap(broken).filter(lambda pair: _refused(schema, pair[1]))


def _mutations(schema: dict[str, Any], base: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    out: list[tuple[str, dict[str, Any]]] = []
    for name in schema.get("required") or ():
        if name in base:
            out.append(
                (f"required '{name}' left out", {k: v for k, v in base.items() if k != name})
            )
    for name, prop in (properties or {}).items():
        if not isinstance(prop, dict):
            continue
        kind = prop.get("type")
        if isinstance(kind, str) and kind in _WRONG_TYPE:
            out.append((f"'{name}' of the wrong type", {**base, name: _WRONG_TYPE[kind]}))
        for bound, step in (("minimum", -1), ("maximum", 1)):
            value = prop.get(bound)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                out.append((f"'{name}' past its {bound}", {**base, name: value + step}))
        min_length = prop.get("minLength")
        if isinstance(min_length, int) and min_length > 0:
            out.append((f"'{name}' shorter than minLength", {**base, name: "x" * (min_length - 1)}))
        if isinstance(prop.get("enum"), list):
            out.append((f"'{name}' not one of its choices", {**base, name: "\u2603 not a choice"}))
    if schema.get("additionalProperties") is False:
        out.append(("an argument the schema does not name", {**base, "\u2603unknown": 1}))
    return out


def _refused(schema: dict[str, Any], arguments: dict[str, Any]) -> bool:
    from jsonschema import Draft202012Validator, validators
    from referencing import Registry

    cls = validators.validator_for(schema, default=Draft202012Validator)
    return not cls(schema, registry=Registry()).is_valid(arguments)


def fuzzable(schema: object) -> str | None:
    """``None`` when ``schema`` can be fuzzed, else why not (a remote ``$ref``, not an object)."""
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return "its inputSchema is not an object schema"
    text = repr(schema)
    if "'$ref': 'http" in text or '"$ref": "http' in text:
        return "its inputSchema refers to another document"
    return None

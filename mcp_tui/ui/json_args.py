"""Checking tool arguments typed as JSON against the tool's ``inputSchema``, safely.

For schemas too rich for the form engine the user types JSON. Before anything is sent, it must
parse, be an object and satisfy the schema. The schema is a server's, so validation must not
reach the network (an empty ``referencing.Registry``: a remote ``$ref`` is an error, not a GET),
must not recurse forever (``{"$ref": "#"}``) and must not stall on a catastrophic ``pattern``
(Python's ``re`` holds the GIL; ``pattern`` and ``patternProperties`` use linear-time RE2 here).
A schema we cannot use is reported, and the arguments may then be sent unchecked on purpose.

Pure Python: no Textual.
"""

from __future__ import annotations

import importlib
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

#: At most this many validation errors are listed.
MAX_ERRORS = 20


@dataclass(frozen=True)
class ArgumentsCheck:
    """The verdict on typed JSON arguments.

    ``arguments`` is set when they may be sent; ``errors`` lists what is wrong with them;
    ``schema_problem`` says why the schema itself could not be used (then ``arguments`` is set
    if the JSON is an object, and the caller decides whether to send unchecked).
    """

    arguments: dict[str, Any] | None
    errors: tuple[str, ...] = ()
    schema_problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.arguments is not None and not self.errors and self.schema_problem is None


def _jsonschema(module: str) -> Any:
    """``jsonschema.<module>``, imported lazily (it is slow to import and has no type stubs)."""
    return importlib.import_module(f"jsonschema.{module}")


@lru_cache(maxsize=256)
def _re2(pattern: str) -> Any:
    import re2

    return re2.compile(pattern)


def _re2_search(pattern: str, text: str) -> bool | None:
    """True/False when RE2 can run ``pattern``; None when it cannot compile it."""
    try:
        return _re2(pattern).search(text) is not None
    except Exception:
        return None


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    ValidationError = _jsonschema("exceptions").ValidationError

    if not isinstance(instance, str) or not isinstance(pattern, str):
        return
    found = _re2_search(pattern, instance)
    if found is None:
        yield ValidationError(f"pattern {pattern!r} cannot be checked safely (not RE2 syntax)")
    elif not found:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator: Any, patterns: Any, instance: Any, schema: Any) -> Iterator[Any]:
    ValidationError = _jsonschema("exceptions").ValidationError

    if not isinstance(instance, dict) or not isinstance(patterns, dict):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            found = _re2_search(pattern, key)
            if found is None:
                yield ValidationError(f"patternProperties {pattern!r} cannot be checked safely")
                return
            if found:
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _has_non_finite(value: Any) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(_has_non_finite(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_non_finite(v) for v in value)
    return False


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def parse_arguments(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """Parse typed JSON; it must be an object of finite numbers. Returns (object, error)."""
    if not text.strip():
        return {}, None
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as error:
        return None, f"not valid JSON: {error}"
    if not isinstance(value, dict):
        return None, f"the arguments must be a JSON object {{...}}, not {type(value).__name__}"
    if _has_non_finite(value):
        return None, "numbers must be finite"
    return value, None


def _path(error: Any) -> str:
    parts = [str(p) for p in error.absolute_path]
    return "/".join(parts) if parts else "(top level)"


def check_arguments(text: str, schema: Any) -> ArgumentsCheck:
    """Parse ``text`` and validate it against ``schema`` without network, recursion or ReDoS."""
    arguments, error = parse_arguments(text)
    if arguments is None:
        return ArgumentsCheck(None, (error or "invalid",))
    if not isinstance(schema, dict) or not schema:
        return ArgumentsCheck(arguments)
    import referencing

    validators = _jsonschema("validators")
    SchemaError = _jsonschema("exceptions").SchemaError
    try:
        base = validators.validator_for(schema)
        base.check_schema(schema)
        safe = validators.extend(
            base, {"pattern": _pattern, "patternProperties": _pattern_properties}
        )
        validator = safe(
            schema, registry=referencing.Registry(), format_checker=base.FORMAT_CHECKER
        )
        errors = []
        for found in validator.iter_errors(arguments):
            errors.append(f"{_path(found)}: {found.message}")
            if len(errors) >= MAX_ERRORS:
                errors.append("… more errors not listed")
                break
    except SchemaError as problem:
        return ArgumentsCheck(arguments, schema_problem=f"the schema is invalid: {problem.message}")
    except RecursionError:
        return ArgumentsCheck(arguments, schema_problem="the schema refers to itself without end")
    except Exception as problem:  # unresolvable $ref, unknown dialect, ...
        reason = f"{type(problem).__name__}: {problem}"
        return ArgumentsCheck(arguments, schema_problem=f"the schema cannot be used: {reason}")
    return ArgumentsCheck(arguments, tuple(errors))


def starter_text(schema: Any) -> str:
    """A JSON skeleton with each property's default, or an empty value of its type."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return "{\n}"
    empty: dict[str, Any] = {
        "string": "",
        "integer": 0,
        "number": 0,
        "boolean": False,
        "array": [],
        "object": {},
    }
    skeleton: dict[str, Any] = {}
    for name, prop in properties.items():
        if not isinstance(prop, dict):
            skeleton[str(name)] = None
        elif "default" in prop:
            skeleton[str(name)] = prop["default"]
        else:
            kind = prop.get("type")
            skeleton[str(name)] = empty.get(kind) if isinstance(kind, str) else None
    try:
        return json.dumps(skeleton, indent=2, ensure_ascii=False)
    except (TypeError, ValueError):
        return "{\n}"

"""Tool arguments checked against the tool's *original* ``inputSchema``, safely, with paths.

The form builds arguments its own way; before anything is sent they are checked against the
schema exactly as the server wrote it, with the draft its ``$schema`` names (2020-12 when it
names none, draft-07 when it says so). The schema is a server's, so validation must not reach
the network (an empty ``referencing.Registry``: a remote ``$ref`` is an error, not a GET), must
not recurse forever (``{"$ref": "#"}``) and must not stall on a catastrophic ``pattern``
(Python's ``re`` holds the GIL; ``pattern`` and ``patternProperties`` use linear-time RE2 here).

Each error keeps the path of the value that caused it, so the form can show it on that field; a
missing required property is reported on the property itself.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from mcp_tui.schema.rules import REQUIRED
from mcp_tui.untrusted import one_line

from .nodes import Path

#: At most this many validation errors are listed.
MAX_ERRORS = 20


@dataclass(frozen=True, slots=True)
class Verdict:
    """``errors``: ``(path, message)`` in the order found; ``problem``: why the schema itself
    could not be used (then nothing was checked)."""

    errors: tuple[tuple[Path, str], ...] = ()
    problem: str | None = None

    @property
    def ok(self) -> bool:
        return not self.errors and self.problem is None


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


def validate_arguments(arguments: object, schema: object) -> Verdict:
    """Check ``arguments`` against ``schema`` without network, endless recursion or ReDoS."""
    if not isinstance(schema, dict) or not schema:
        return Verdict()
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
        errors: list[tuple[Path, str]] = []
        for found in validator.iter_errors(arguments):
            errors.extend(_located(found))
            if len(errors) >= MAX_ERRORS:
                break
    except SchemaError as problem:
        return Verdict(problem=f"the schema is invalid: {one_line(problem.message, limit=200)}")
    except RecursionError:
        return Verdict(problem="the schema refers to itself without end")
    except Exception as problem:  # unresolvable $ref, unknown dialect, ...
        reason = one_line(f"{type(problem).__name__}: {problem}", limit=200)
        return Verdict(problem=f"the schema cannot be used: {reason}")
    return Verdict(tuple(errors[:MAX_ERRORS]))


def _located(error: Any) -> list[tuple[Path, str]]:
    path: Path = tuple(error.absolute_path)
    if error.validator == "required" and isinstance(error.instance, dict):
        wanted = error.validator_value if isinstance(error.validator_value, list) else []
        missing = [n for n in wanted if isinstance(n, str) and n not in error.instance]
        if missing:
            return [((*path, name), REQUIRED) for name in missing]
    return [(path, one_line(error.message, limit=200))]


def path_text(path: Path) -> str:
    """``entities/0/name``, or ``(top level)``."""
    return "/".join(str(p) for p in path) if path else "(top level)"

"""Checking tool arguments typed as JSON against the tool's ``inputSchema``, safely.

When the form cannot show a schema, or on F2, the user types JSON. Before anything is sent, it must
parse, be an object and satisfy the schema. The schema is a server's, so validation must not
reach the network (an empty ``referencing.Registry``: a remote ``$ref`` is an error, not a GET),
must not recurse forever (``{"$ref": "#"}``) and must not stall on a catastrophic ``pattern``
(Python's ``re`` holds the GIL; ``pattern`` and ``patternProperties`` use linear-time RE2 here).
A schema we cannot use is reported, and the arguments may then be sent unchecked on purpose.

Pure Python: no Textual.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from mcp_tui.schema.arguments.build import build_arguments
from mcp_tui.schema.arguments.check import MAX_ERRORS, path_text, validate_arguments
from mcp_tui.schema.arguments.nodes import ObjectNode
from mcp_tui.schema.arguments.skeleton import skeleton
from mcp_tui.untrusted import json_text


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


def check_arguments(text: str, schema: Any) -> ArgumentsCheck:
    """Parse ``text`` and validate it against ``schema`` without network, recursion or ReDoS."""
    arguments, error = parse_arguments(text)
    if arguments is None:
        return ArgumentsCheck(None, (error or "invalid",))
    verdict = validate_arguments(arguments, schema)
    if verdict.problem is not None:
        return ArgumentsCheck(arguments, schema_problem=verdict.problem)
    errors = [f"{path_text(path)}: {message}" for path, message in verdict.errors]
    if len(errors) >= MAX_ERRORS:
        errors.append("… more errors not listed")
    return ArgumentsCheck(arguments, tuple(errors))


def starter_text(schema: Any) -> str:
    """The JSON editor's first text: the required fields only, each with its default or the
    first value its rules allow (see :mod:`mcp_tui.schema.arguments.skeleton`), so it is valid
    as it stands whenever such values exist."""
    root = build_arguments(schema)
    if not isinstance(root, ObjectNode):
        return "{\n}"
    value, _ = skeleton(root)
    try:
        text = json_text(value, indent=2, allow_nan=False)
    except (TypeError, ValueError):
        return "{\n}"
    return text if value else "{\n}"

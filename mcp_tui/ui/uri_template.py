"""RFC 6570 URI templates (levels 1–3) for resource templates: variables out, URI in.

A resource template (``file:///logs/{date}``) needs its variables filled before it can be read.
:func:`variables` lists them (so the UI can build a form), :func:`expand` substitutes the values
with the operator's escaping rules. Explode (``*``) and prefix (``:n``) modifiers are honoured in
their simple string form. Pure Python.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import quote

_EXPRESSION = re.compile(r"\{([^{}]{1,200})\}")

#: operator -> (first, separator, named, if-empty, allow reserved characters)
_OPERATORS: dict[str, tuple[str, str, bool, str, bool]] = {
    "": ("", ",", False, "", False),
    "+": ("", ",", False, "", True),
    "#": ("#", ",", False, "", True),
    ".": (".", ".", False, "", False),
    "/": ("/", "/", False, "", False),
    ";": (";", ";", True, "", False),
    "?": ("?", "&", True, "=", False),
    "&": ("&", "&", True, "=", False),
}


def _split(expression: str) -> tuple[str, list[tuple[str, int | None]]]:
    operator = expression[0] if expression[0] in "+#./;?&" else ""
    names: list[tuple[str, int | None]] = []
    for spec in expression[len(operator) :].split(","):
        spec = spec.strip().rstrip("*")
        prefix: int | None = None
        if ":" in spec:
            spec, _, length = spec.partition(":")
            prefix = int(length) if length.isdigit() else None
        if spec:
            names.append((spec, prefix))
    return operator, names


def variables(template: str) -> list[str]:
    """The variable names of ``template``, in order of first appearance."""
    seen: list[str] = []
    for match in _EXPRESSION.finditer(template):
        _, names = _split(match.group(1))
        for name, _ in names:
            if name not in seen:
                seen.append(name)
    return seen


def expand(template: str, values: Mapping[str, str]) -> str:
    """Fill ``template`` with ``values``; missing or empty-undefined variables are left out."""

    def replace(match: re.Match[str]) -> str:
        operator, names = _split(match.group(1))
        first, separator, named, if_empty, reserved = _OPERATORS[operator]
        safe = ":/?#[]@!$&'()*+,;=" if reserved else ""
        parts = []
        for name, prefix in names:
            if name not in values:
                continue
            value = values[name]
            if prefix is not None:
                value = value[:prefix]
            encoded = quote(value, safe=safe)
            if named:
                parts.append(f"{name}={encoded}" if value else f"{name}{if_empty}")
            else:
                parts.append(encoded)
        return first + separator.join(parts) if parts else ""

    return _EXPRESSION.sub(replace, template)

"""Which :class:`~mcp_tui.schema.fields.FieldKind` a property becomes, and what of it that kind
leaves unrendered.

Split from :mod:`mcp_tui.schema.parse_fields`, which reads the rules of the kind chosen here: the
kind depends only on ``type`` and the choice keywords, and :func:`sweep` is the one place that
knows which keywords each kind renders (a note for what is ignored or checked only on submit, a
problem for what would make the form say something the schema does not).
"""

from __future__ import annotations

from typing import Any

from mcp_tui.schema import keywords as kw
from mcp_tui.schema.fields import FieldKind
from mcp_tui.schema.parse_options import OptionParser
from mcp_tui.schema.rules import json_type, shown
from mcp_tui.untrusted import one_line

#: The instance type a kind's keywords belong to (a keyword of another type is ignored with a note).
_KIND_TYPE = {
    FieldKind.TEXT: "string",
    FieldKind.SELECT: "string",
    FieldKind.NUMBER: "number",
    FieldKind.INTEGER: "number",
    FieldKind.BOOLEAN: "boolean",
    FieldKind.MULTI_SELECT: "array",
    FieldKind.LIST: "array",
    FieldKind.CONST: "const",
}
#: The keywords that list a select's choices.
CHOICE_KEYS = ("enum", "oneOf", "anyOf")
#: ``items`` types a free list (not a multi-select) is made of.
_ITEM_KINDS = {"string": FieldKind.TEXT, "number": FieldKind.NUMBER, "integer": FieldKind.INTEGER}
#: The keywords each kind renders itself; :func:`sweep` speaks of every other one.
_HANDLED: dict[FieldKind, frozenset[str]] = {
    FieldKind.TEXT: frozenset({"type", "default", "minLength", "maxLength", "pattern", "format"}),
    FieldKind.SELECT: frozenset(
        {"type", "default", "enum", "enumNames", "oneOf", "anyOf"} | kw.BY_TYPE["string"]
    ),
    FieldKind.NUMBER: frozenset({"type", "default"}) | kw.BY_TYPE["number"],
    FieldKind.INTEGER: frozenset({"type", "default"}) | kw.BY_TYPE["number"],
    FieldKind.BOOLEAN: frozenset({"type", "default"}),
    FieldKind.MULTI_SELECT: frozenset(
        {"type", "default", "items", "minItems", "maxItems", "uniqueItems", "enum"}
    ),
    FieldKind.LIST: frozenset({"type", "default", "items", "minItems", "maxItems", "uniqueItems"}),
    FieldKind.CONST: frozenset({"type", "default", "const"}),
}


def name_of(keyword: str) -> str:
    """A keyword from the server, shortened to one line for a note or a problem."""
    return one_line(keyword, limit=60)


def kind_of(prop: dict[str, Any], parser: OptionParser) -> FieldKind | None:
    """The kind of widget ``prop`` needs, or ``None`` with the reasons in ``parser``'s problems.

    Sets ``parser.choice_type`` for a select of numbers (and for an untyped one, from its values).
    """
    if "const" in prop and not any(k in prop for k in CHOICE_KEYS):
        return FieldKind.CONST
    if "type" not in prop:
        if "enum" in prop or "oneOf" in prop or _const_list(prop.get("anyOf")):
            parser.choice_type = _inferred_choice_type(prop)
            if parser.choice_type == "string":
                parser.note('no "type": treated as a string choice')
            return FieldKind.SELECT
        structural = [k for k in prop if k in kw.STRUCTURAL]
        for key in structural:
            parser.problem(f"`{name_of(key)}` is not supported in a form")
        if not structural:
            parser.problem('has no "type"')
        return None
    t = prop["type"]
    if isinstance(t, list):
        shown_types = ", ".join(one_line(x, limit=20) for x in t[:5])
        parser.problem(
            f"a choice between types ([{shown_types}]) cannot be one field: give one type"
        )
        return None
    if t == "string":
        choice = "enum" in prop or "oneOf" in prop or "anyOf" in prop
        return FieldKind.SELECT if choice else FieldKind.TEXT
    if t in ("number", "integer"):
        if any(k in prop for k in CHOICE_KEYS):
            parser.choice_type = t
            return FieldKind.SELECT
        return FieldKind.NUMBER if t == "number" else FieldKind.INTEGER
    if t == "boolean":
        return FieldKind.BOOLEAN
    if t == "array":
        items = prop.get("items")
        if (
            isinstance(items, dict)
            and not any(k in items for k in CHOICE_KEYS)
            and items.get("type") in _ITEM_KINDS
            and not kw.REFERENCES & items.keys()
        ):
            return FieldKind.LIST
        return FieldKind.MULTI_SELECT
    if t == "object":
        parser.problem("nested objects are not supported: a form holds only flat fields")
    elif t == "null":
        parser.problem('type "null" is not supported')
    elif isinstance(t, str):
        parser.problem(f"unknown type {shown(t)}")
    else:
        parser.problem(f'"type" must be a string, got {json_type(t)}')
    return None


def sweep(prop: dict[str, Any], kind: FieldKind, parser: OptionParser) -> None:
    """Notes or problems for every keyword this kind does not render."""
    own = _KIND_TYPE[kind]
    for key in prop:
        if key in _HANDLED[kind] or key in kw.SILENT or key in kw.REFERENCES:
            continue
        shown_key = name_of(key)
        if key in kw.STRUCTURAL or (key in ("enum", "enumNames") and kind is not FieldKind.SELECT):
            if key in ("enum", "oneOf", "anyOf"):
                parser.problem(f"`{shown_key}` is only supported for string choices")
            else:
                parser.problem(f"`{shown_key}` is not supported in a form")
        elif any(key in keys for t, keys in kw.BY_TYPE.items() if t != own):
            parser.note(f"`{shown_key}` does not apply to a {kind.value} field; ignored")
        elif key in kw.VOCABULARY:
            parser.note(f"`{shown_key}` is not shown in the form; it is checked on submit")
        else:
            parser.note(f"unknown keyword `{shown_key}` ignored")


def _const_list(members: object) -> bool:
    """``anyOf`` made only of ``{"const": ...}`` choices (read like ``oneOf``)."""
    return (
        isinstance(members, list)
        and bool(members)
        and all(isinstance(m, dict) and "const" in m for m in members)
    )


def _inferred_choice_type(prop: dict[str, Any]) -> str:
    """ "integer" or "number" when every choice of an untyped select is a number, else "string"."""
    values: list[object] = []
    if isinstance(prop.get("enum"), list):
        values = list(prop["enum"])
    else:
        for key in ("oneOf", "anyOf"):
            members = prop.get(key)
            if isinstance(members, list):
                values = [m.get("const") for m in members if isinstance(m, dict)]
                break
    numbers = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
    if not values or len(numbers) != len(values):
        return "string"
    return "integer" if all(isinstance(v, int) for v in numbers) else "number"

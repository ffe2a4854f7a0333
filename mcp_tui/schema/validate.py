"""Raw widget input → exactly typed ``content``, or one human message per field.

Rules, in the order they apply:

1. Each field's raw value (see :data:`~mcp_tui.schema.fields.RawValue`) is read by its kind.
   Empty means ``""`` (or only whitespace in a number or format field), ``None``, or an empty
   multi-select. An empty optional field is **omitted** from ``content``, never sent as ``""``,
   ``null`` or ``0``; an empty required field is "Required", except a required multi-select,
   which sends ``[]`` when its ``minItems`` allows it. An optional multi-select *with a default*
   sends ``[]`` when left empty (minItems allowing): an untouched ``"default": []`` is sent as
   such, and a default the user unticked must not be left for the server to fill back in.
   Plain text is sent exactly as typed (whitespace included); number and format input is read
   as :mod:`~mcp_tui.schema.formats` documents (``" 42 "`` → 42, ``"4.0"`` → 4 for an integer,
   ``"1e3"``, ``-0`` → 0, NaN and infinities refused, a date-time without a UTC offset refused
   with the local completion shown). Multi-select values are sent in the schema's option order.
2. Untouched defaults are sent: :func:`initial_values` pre-fills every widget from the defaults
   (an integer default ``30`` becomes the text ``"30"`` and comes back as the JSON integer
   ``30``; a number default ``95.5`` stays ``95.5``), and a name missing from ``raws`` counts as
   untouched.
3. When every field is valid, ``content`` is checked against the server's *original* schema with
   jsonschema Draft 2020-12, through a validator compiled once per distinct schema JSON and shared
   by every form parsed from it (``compiled.VALIDATORS``), built with an
   empty ``referencing.Registry()`` so no ``$ref`` is ever fetched (its ``enum``/``oneOf``/
   ``anyOf`` take a set-lookup shortcut where that gives the same verdict: see ``fastcheck``);
   an answer that validator has passed before is not checked again (``passed.PASSED``).
   The copy it checks against differs from the original only in ways that cannot loosen the
   server's own rules for data we produce: every ``pattern``/``patternProperties`` is removed
   (patterns were already enforced by RE2, or refused with a note; jsonschema would run them with
   Python's backtracking ``re``, which can freeze the app), and ``$schema``/``$id``/anchors are
   removed (they only matter for references, which are refused, and a malformed ``$id`` crashes
   jsonschema). No format checker is passed: our format rules (stricter than jsonschema's)
   already ran. A jsonschema failure of any kind becomes a field message, never an exception.

:func:`complete_with_defaults` does the same for headless, scripted answers that are already
JSON: missing fields take their defaults, then exact JSON types are checked (``true`` is not an
integer, ``"30"`` is not a number; an integral float ``30.0`` *is* accepted for an integer and
sent as ``30``, since JSON Schema counts it as an integer). ``null`` means "not given".
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any, Final, Literal

from mcp_tui.schema import compiled
from mcp_tui.schema.fields import (
    NULL,
    ContentValue,
    FieldKind,
    FieldSpec,
    FormResult,
    FormSpec,
    RawValue,
)
from mcp_tui.schema.formats import format_number, number_to_text, parse_number_text
from mcp_tui.schema.passed import PASSED, answer_key
from mcp_tui.schema.rules import (
    DUPLICATE_CHOICE,
    NOT_A_CHOICE,
    REQUIRED,
    check_choice,
    check_choices,
    check_list,
    check_number,
    check_text,
    check_typed,
    choice_key,
    choice_value,
    length_rule,
    number_rule,
    order_choices,
    pick_rule,
    shown,
)
from mcp_tui.untrusted import one_line

__all__ = [
    "OMIT",
    "Omit",
    "complete_with_defaults",
    "initial_value",
    "initial_values",
    "left_empty",
    "validate_field",
    "validate_form",
]


class _Omit(Enum):
    OMIT = "omit"

    def __repr__(self) -> str:
        return "OMIT"


#: Returned by :func:`validate_field` for a field that is left out of ``content``.
OMIT: Final = _Omit.OMIT
Omit = Literal[_Omit.OMIT]

UNEXPECTED_INPUT = "Unexpected input for this field"
NOT_A_FIELD = "Not a field of this form"


# ---------------------------------------------------------------- initial values


def initial_value(field: FieldSpec) -> RawValue:
    """What the widget for ``field`` shows before the user touches it."""
    default = field.default if field.has_default else None
    kind = field.kind
    if kind is FieldKind.TEXT:
        return default if isinstance(default, str) else ""
    if kind in (FieldKind.NUMBER, FieldKind.INTEGER):
        if isinstance(default, int | float) and not isinstance(default, bool):
            return number_to_text(default)
        return ""
    if kind is FieldKind.BOOLEAN:
        if isinstance(default, bool):
            return default
        return False if field.required else None
    if kind is FieldKind.SELECT:
        if isinstance(default, int | float) and not isinstance(default, bool):
            return choice_key(field, default)
        return default if isinstance(default, str) else None
    if kind is FieldKind.CONST:
        return None
    if kind is FieldKind.LIST:
        if not isinstance(default, list):
            return []
        return [v if isinstance(v, str) else number_to_text(v) for v in default]
    return [v for v in default if isinstance(v, str)] if isinstance(default, list) else []


def initial_values(form: FormSpec) -> dict[str, RawValue]:
    """Raw widget values pre-filled from the defaults, in field order."""
    return {f.name: initial_value(f) for f in form.fields}


# ---------------------------------------------------------------- one field


def validate_field(field: FieldSpec, raw: RawValue) -> tuple[ContentValue | Omit, str | None]:
    """``(value, None)``, ``(OMIT, None)`` for an empty optional field, or ``(OMIT, message)``."""
    try:
        return _validate_field(field, raw)
    except Exception:  # a defect must not take the form down; the user can still fix input
        return OMIT, UNEXPECTED_INPUT


def left_empty(field: FieldSpec) -> tuple[ContentValue | Omit, str | None]:
    """What a field left empty sends: the one rule for the TUI, headless answers and replays.

    An empty field is omitted (or "Required"), except a text field whose default is ``""``: the
    server declared the empty string a valid answer, so an empty input sends ``""`` whether it
    was left untouched or cleared (the two look the same on screen). ``--elicit
    accept-defaults`` and an answers file that leaves the field out send that same ``""``.
    """
    if field.kind is FieldKind.TEXT and field.has_default and field.default == "":
        return "", None
    return (OMIT, REQUIRED) if field.required else (OMIT, None)


_empty = left_empty


def _validate_field(field: FieldSpec, raw: RawValue) -> tuple[ContentValue | Omit, str | None]:
    kind = field.kind
    if kind is FieldKind.CONST:
        return field.const, None
    if raw is NULL:
        return (None, None) if field.nullable else (OMIT, UNEXPECTED_INPUT)
    if kind is FieldKind.LIST:
        return _validate_list(field, raw)
    if kind is FieldKind.TEXT:
        if raw is None or raw == "" or (field.format is not None and _blank(raw)):
            return _empty(field)
        if not isinstance(raw, str):
            return OMIT, UNEXPECTED_INPUT
        text, problem = check_text(field, raw)
        return (OMIT, problem) if text is None else (text, None)
    if kind in (FieldKind.NUMBER, FieldKind.INTEGER):
        if raw is None or _blank(raw):
            return _empty(field)
        if not isinstance(raw, str):
            return OMIT, UNEXPECTED_INPUT
        number = parse_number_text(raw, integer=kind is FieldKind.INTEGER)
        if number is None:
            return OMIT, number_rule(field)
        problem = check_number(field, number)
        return (OMIT, problem) if problem else (number, None)
    if kind is FieldKind.BOOLEAN:
        if raw is None:
            return _empty(field)
        return (raw, None) if isinstance(raw, bool) else (OMIT, UNEXPECTED_INPUT)
    if kind is FieldKind.SELECT:
        if raw is None or raw == "":
            return _empty(field)
        if not isinstance(raw, str):
            return OMIT, UNEXPECTED_INPUT
        problem = check_choice(field, raw)
        return (OMIT, problem) if problem else (choice_value(field, raw), None)
    if raw is None:
        raw = []
    if not isinstance(raw, list) or not all(isinstance(v, str) for v in raw):
        return OMIT, UNEXPECTED_INPUT
    if not raw and not field.required and (not field.has_default or field.min_items):
        return OMIT, None
    chosen = list(dict.fromkeys(raw))
    problem = check_choices(field, chosen)
    return (OMIT, problem) if problem else (order_choices(field, chosen), None)


def _blank(raw: object) -> bool:
    return isinstance(raw, str) and not raw.strip()


def _validate_list(field: FieldSpec, raw: RawValue) -> tuple[ContentValue | Omit, str | None]:
    """Each row of a list editor read as one item; empty rows are skipped, never sent."""
    if raw is None:
        raw = []
    if not isinstance(raw, list) or not all(isinstance(v, str) for v in raw):
        return OMIT, UNEXPECTED_INPUT
    item = field.item
    if item is None:
        return OMIT, UNEXPECTED_INPUT
    rows = [r for r in raw if (r.strip() if item.kind is not FieldKind.TEXT else r)]
    if not rows and not field.required and (not field.has_default or field.min_items):
        return OMIT, None
    values: list[Any] = []
    for i, row in enumerate(rows, 1):
        value, problem = validate_field(item, row)
        if problem is not None or value is OMIT:
            return OMIT, f"Item {i}: {problem or REQUIRED}"
        values.append(value)
    problem = check_list(field, values)
    return (OMIT, problem) if problem else (values, None)


# ---------------------------------------------------------------- whole form


def validate_form(form: FormSpec, raws: Mapping[str, RawValue]) -> FormResult:
    """Typed ``content`` for the whole form, or one message per field in schema order."""
    values = initial_values(form)
    values.update((k, v) for k, v in raws.items() if k in values)
    content: dict[str, ContentValue] = {}
    errors: dict[str, str] = {}
    for f in form.fields:
        value, problem = validate_field(f, values[f.name])
        if problem is not None:
            errors[f.name] = problem
        elif value is not OMIT:
            content[f.name] = value
    return _finish(form, content, errors)


def complete_with_defaults(form: FormSpec, content: Mapping[str, object]) -> FormResult:
    """A scripted answer completed with defaults and checked with exact JSON types."""
    out: dict[str, ContentValue] = {}
    errors: dict[str, str] = {}
    if not isinstance(content, Mapping):
        key = form.fields[0].name if form.fields else ""
        return FormResult(None, {key: f"The answer must be a JSON object, not {shown(content)}"})
    for f in form.fields:
        given = content.get(f.name)
        if f.kind is FieldKind.CONST and given is None:
            out[f.name] = f.const
            continue
        if given is None and f.nullable and f.name in content:
            out[f.name] = None  # an explicit null for a field that allows it: asked for
            continue
        if given is None:
            if f.has_default and f.default is not None:
                out[f.name] = f.default.copy() if isinstance(f.default, list) else f.default
            else:
                value, problem = left_empty(f)
                if problem is not None:
                    errors[f.name] = problem
                elif value is not OMIT:
                    out[f.name] = value
            continue
        try:
            value, problem = check_typed(f, given)
        except Exception:
            value, problem = None, UNEXPECTED_INPUT
        if problem is not None or value is None:
            if problem == NOT_A_CHOICE:
                problem = f"{NOT_A_CHOICE} ({_choices_hint(f)})"
            errors[f.name] = problem or UNEXPECTED_INPUT
        elif isinstance(value, list) and f.kind is FieldKind.MULTI_SELECT:
            out[f.name] = order_choices(f, value)  # type: ignore[arg-type]
        else:
            out[f.name] = value
    names = {f.name for f in form.fields}
    for name in content:
        if name not in names:
            errors[name] = NOT_A_FIELD
    return _finish(form, out, errors)


def _choices_hint(field: FieldSpec) -> str:
    values = ", ".join(shown(o.sent) for o in field.options[:5])
    more = f" and {len(field.options) - 5:,} more" if len(field.options) > 5 else ""
    return f"one of {values}{more}"


def _finish(form: FormSpec, content: dict[str, ContentValue], errors: dict[str, str]) -> FormResult:
    if errors:
        return FormResult(None, errors)
    errors = final_check(form, content)
    return FormResult(None, errors) if errors else FormResult(content, {})


# ---------------------------------------------------------------- the final jsonschema check


def final_check(form: FormSpec, content: dict[str, ContentValue]) -> dict[str, str]:
    """Messages from jsonschema for ``content`` (empty when it passes), keyed like the form."""
    found: dict[str, str] = {}
    try:
        validator = compiled.VALIDATORS.validator(form)
        answer = answer_key(content)  # an answer this validator passed before passes again
        if answer is not None and PASSED.passed(validator, answer):
            return found
        fields = {f.name: f for f in form.fields}
        for error in validator.iter_errors(content):
            for name, message in _messages(error, fields):
                found.setdefault(name, message)
        if not found:
            if answer is not None:
                PASSED.remember(validator, answer)
            return found
    except Exception as exc:  # RecursionError, a malformed keyword value, ...
        key = form.fields[0].name if form.fields else ""
        kind = type(exc).__name__
        if "Referencing" in kind or "Unresolvable" in kind:
            why = "it refers to another schema, which is never fetched"
        elif isinstance(exc, RecursionError):
            why = "it refers to itself without end"
        else:
            why = f"{kind}: {one_line(exc, limit=80)}"
        found.setdefault(key, f"The server's schema could not be checked ({why})")
    order = {f.name: i for i, f in enumerate(form.fields)}
    return dict(sorted(found.items(), key=lambda item: order.get(item[0], len(order))))


def _messages(error: Any, fields: dict[str, FieldSpec]) -> list[tuple[str, str]]:
    path = list(error.absolute_path)
    if path and isinstance(path[0], str) and path[0] in fields:
        return [(path[0], _translate(fields[path[0]], error))]
    if not path and error.validator == "required" and isinstance(error.instance, dict):
        wanted = error.validator_value if isinstance(error.validator_value, list) else []
        missing = [n for n in wanted if isinstance(n, str) and n not in error.instance]
        if missing:
            return [(n, REQUIRED) for n in missing]
    key = next(iter(fields), "")
    return [(key, f"Rejected by the server's schema: {one_line(error.message, limit=120)}")]


def _translate(field: FieldSpec, error: Any) -> str:
    keyword = error.validator
    value = error.validator_value
    if keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return number_rule(field)
    if keyword in ("minLength", "maxLength") and isinstance(error.instance, str):
        return length_rule(field, len(error.instance)) or _generic(error)
    if keyword in ("minItems", "maxItems"):
        return pick_rule(field)
    if keyword == "uniqueItems":
        return DUPLICATE_CHOICE
    if keyword in ("enum", "const") and field.kind in (FieldKind.SELECT, FieldKind.MULTI_SELECT):
        return NOT_A_CHOICE
    if keyword == "const":
        return f"Must be exactly {shown(value)}"
    if keyword == "multipleOf" and isinstance(value, int | float):
        return f"A multiple of {format_number(value)}"
    if keyword == "type" and field.kind in (FieldKind.NUMBER, FieldKind.INTEGER):
        return number_rule(field)
    return _generic(error)


def _generic(error: Any) -> str:
    return f"Rejected by the server's schema: {one_line(error.message, limit=120)}"

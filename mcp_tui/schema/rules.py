"""One field's rules applied to a value that already has its JSON type, with the human message.

Shared by three callers so that they can never disagree: ``parse`` (is the server's ``default``
valid for its own field?), ``validate`` (typed widget input) and ``validate.complete_with_defaults``
(headless answers). Every message is a short sentence written for the person filling the form:
"Required", "At least 3 characters", "A whole number from 1 to 100", "Pick between 1 and 3".
Messages may quote a server's ``pattern``; it goes through :func:`mcp_tui.untrusted.one_line`
first, and the UI displays every message as literal text anyway.
"""

from __future__ import annotations

import json
import math
from datetime import UTC
from typing import Any

from mcp_tui.schema.fields import ContentValue, FieldKind, FieldSpec, TextFormat
from mcp_tui.schema.formats import (
    check_format,
    format_number,
    is_huge,
    is_multiple,
    pattern_matches,
)
from mcp_tui.untrusted import one_line

REQUIRED = "Required"
NOT_A_CHOICE = "Not one of the choices"
DUPLICATE_CHOICE = "Pick each choice at most once"


def plural(n: int, word: str) -> str:
    """``1 item``, ``2 items``; ``2 entries`` (a consonant and ``y``), ``2 days``."""
    if n == 1:
        return f"{n:,} {word}"
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
        return f"{n:,} {word[:-1]}ies"
    return f"{n:,} {word}s"


# ---------------------------------------------------------------- bounds in words


def integer_bounds(field: FieldSpec) -> tuple[int | None, int | None]:
    """The inclusive whole-number bounds implied by minimum/maximum/exclusive* on any field."""
    low: int | None = None
    high: int | None = None
    if field.minimum is not None:
        low = math.ceil(field.minimum)
    if field.exclusive_minimum is not None:
        candidate = math.floor(field.exclusive_minimum) + 1
        low = candidate if low is None else max(low, candidate)
    if field.maximum is not None:
        high = math.floor(field.maximum)
    if field.exclusive_maximum is not None:
        candidate = math.ceil(field.exclusive_maximum) - 1
        high = candidate if high is None else min(high, candidate)
    return low, high


def _lower(field: FieldSpec) -> tuple[int | float | None, bool]:
    """The effective lower bound and whether it is exclusive (the stricter bound wins)."""
    lo, ex = field.minimum, field.exclusive_minimum
    if ex is not None and (lo is None or ex >= lo):
        return ex, True
    return lo, False


def _upper(field: FieldSpec) -> tuple[int | float | None, bool]:
    hi, ex = field.maximum, field.exclusive_maximum
    if ex is not None and (hi is None or ex <= hi):
        return ex, True
    return hi, False


def range_words(field: FieldSpec) -> tuple[str, str]:
    """``(lower words, upper words)`` such as ``("at least 1", "at most 100")``; ``""`` if none.

    Integer fields use inclusive whole-number bounds (``exclusiveMinimum: 0`` reads "at least 1").
    """
    if field.kind is FieldKind.INTEGER:
        ilo, ihi = integer_bounds(field)
        return (
            "" if ilo is None else f"at least {ilo}",
            "" if ihi is None else f"at most {ihi}",
        )
    lo, lo_ex = _lower(field)
    hi, hi_ex = _upper(field)
    lower = "" if lo is None else f"{'greater than' if lo_ex else 'at least'} {format_number(lo)}"
    upper = "" if hi is None else f"{'less than' if hi_ex else 'at most'} {format_number(hi)}"
    return lower, upper


def range_phrase(field: FieldSpec) -> str:
    """Words like "from 1 to 100", "of at least 18", "greater than 0 and at most 10", or ""."""
    lower, upper = range_words(field)
    if lower.startswith("at least ") and upper.startswith("at most "):
        return f"from {lower[9:]} to {upper[8:]}"
    text = f"{lower} and {upper}" if lower and upper else lower or upper
    return f"of {text}" if text.startswith("at ") else text


def number_rule(field: FieldSpec) -> str:
    """The message for any unacceptable input in a number field: "A whole number from 1 to 100"."""
    noun = "A whole number" if field.kind is FieldKind.INTEGER else "A number"
    phrase = range_phrase(field)
    return f"{noun} {phrase}" if phrase else noun


def length_rule(field: FieldSpec, length: int) -> str | None:
    lo, hi = field.min_length, field.max_length
    if lo is not None and hi is not None and lo == hi and length != lo:
        return f"Exactly {plural(lo, 'character')}"
    if lo is not None and length < lo:
        return f"At least {plural(lo, 'character')}"
    if hi is not None and length > hi:
        return f"At most {plural(hi, 'character')}"
    return None


def pick_rule(field: FieldSpec) -> str:
    lo, hi = field.min_items, field.max_items
    if lo is not None and hi is not None:
        return f"Pick exactly {lo:,}" if lo == hi else f"Pick between {lo:,} and {hi:,}"
    if lo is not None:
        return f"Pick at least {lo:,}"
    if hi is not None:
        return f"Pick at most {hi:,}"
    return "Pick from the choices"


def pattern_rule(pattern: str) -> str:
    return f"Must match the pattern {one_line(pattern, limit=80)}"


# ---------------------------------------------------------------- typed checks


def check_text(field: FieldSpec, text: str) -> tuple[str | None, str | None]:
    """``(value to send, None)`` or ``(None, message)`` for a non-empty string."""
    value = text
    if field.format is not None:
        formatted, problem = check_format(field.format, text)
        if formatted is None:
            return None, problem
        value = formatted
    problem = length_rule(field, len(value))
    if problem is None and field.pattern is not None and not _safe_match(field.pattern, value):
        utc = as_utc(value) if field.format is TextFormat.DATE_TIME else None
        if utc is not None and _safe_match(field.pattern, utc):
            return utc, None  # zod's date-time pattern accepts only "Z": the same instant in UTC
        problem = pattern_rule(field.pattern)
    return (None, problem) if problem else (value, None)


def as_utc(value: str) -> str | None:
    """A checked RFC 3339 date-time with an offset, as the same instant in UTC with ``Z``.

    Fractional seconds are kept as written; ``None`` for anything else.
    """
    from datetime import datetime

    head, dot, rest = value.partition(".")
    frac = ""
    if dot:
        digits = len(rest) - len(rest.lstrip("0123456789"))
        frac, rest = "." + rest[:digits], rest[digits:]
        head = head + rest
    try:
        moment = datetime.fromisoformat(head.replace("z", "Z").replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S") + frac + "Z"


def _safe_match(pattern: str, text: str) -> bool:
    try:
        return pattern_matches(pattern, text)
    except Exception:  # a lone surrogate cannot be encoded for RE2: it cannot match either
        return False


def check_number(field: FieldSpec, value: int | float) -> str | None:
    """The message for a number of the right JSON type that breaks the field's rules."""
    if isinstance(value, float) and not math.isfinite(value):
        return number_rule(field)
    lo, lo_ex = _lower(field)
    hi, hi_ex = _upper(field)
    if lo is not None and (value <= lo if lo_ex else value < lo):
        return number_rule(field)
    if hi is not None and (value >= hi if hi_ex else value > hi):
        return number_rule(field)
    if field.multiple_of is not None and not is_multiple(value, field.multiple_of):
        return f"A multiple of {format_number(field.multiple_of)}"
    return None


def check_choice(field: FieldSpec, value: str) -> str | None:
    return None if value in option_values(field) else NOT_A_CHOICE


def choice_value(field: FieldSpec, key: str) -> str | int | float:
    """The JSON value of the option known as ``key`` (a number for a number select)."""
    if field.choice_type == "string":
        return key
    for option in field.options:
        if option.value == key:
            return option.sent
    return key


def choice_key(field: FieldSpec, value: int | float) -> str | None:
    """The key of the number option equal to ``value`` (``1`` and ``1.0`` are equal in JSON)."""
    for option in field.options:
        if option.number is not None and option.number == value:
            return option.value
    return None


def check_list(field: FieldSpec, values: list[Any]) -> str | None:
    """``minItems``/``maxItems``/``uniqueItems`` of a list of free items, in words."""
    lo, hi = field.min_items, field.max_items
    if (lo is not None and len(values) < lo) or (hi is not None and len(values) > hi):
        return item_rule(field)
    if field.unique_items:
        seen: set[tuple[type, Any]] = set()
        for v in values:
            key = (str, v) if isinstance(v, str) else (float, float(v))
            if key in seen:
                return "Each item at most once"
            seen.add(key)
    return None


def item_rule(field: FieldSpec) -> str:
    lo, hi = field.min_items, field.max_items
    if lo is not None and hi is not None:
        if lo == hi:
            return f"Exactly {plural(lo, 'item')}"
        return f"Between {lo:,} and {plural(hi, 'item')}"
    if lo is not None:
        return f"At least {plural(lo, 'item')}"
    if hi is not None:
        return f"At most {plural(hi, 'item')}"
    return "A list of items"


def check_choices(field: FieldSpec, values: list[str]) -> str | None:
    known = option_values(field)
    if any(v not in known for v in values):
        return NOT_A_CHOICE
    if len(set(values)) != len(values):
        return DUPLICATE_CHOICE
    lo, hi = field.min_items, field.max_items
    if (lo is not None and len(values) < lo) or (hi is not None and len(values) > hi):
        return pick_rule(field)
    return None


_VALUE_CACHE: dict[int, tuple[FieldSpec, frozenset[str]]] = {}


def option_values(field: FieldSpec) -> frozenset[str]:
    """The option values as a set, built once per field (a 10,000-option select checks fast)."""
    hit = _VALUE_CACHE.get(id(field))
    if hit is not None and hit[0] is field:
        return hit[1]
    values = frozenset(o.value for o in field.options)
    if len(_VALUE_CACHE) > 256:
        _VALUE_CACHE.clear()
    _VALUE_CACHE[id(field)] = (field, values)
    return values


def order_choices(field: FieldSpec, values: list[str]) -> list[str]:
    """Chosen values in the schema's option order, so the same choice always sends the same list."""
    chosen = set(values)
    return [o.value for o in field.options if o.value in chosen]


def check_typed(field: FieldSpec, value: object) -> tuple[ContentValue | None, str | None]:
    """A JSON value (from a default or a scripted answer) checked against one field.

    Exact JSON types: a bool is never a number, a number is never a string. An integral float
    for an integer field (``30.0``) is accepted and sent as ``30``: JSON Schema counts it as an
    integer and a peer cannot tell ``30.0`` from ``30`` after JSON parsing in most languages.
    """
    kind = field.kind
    if kind is FieldKind.CONST:
        same = type(value) is type(field.const) or (
            isinstance(value, int | float)
            and isinstance(field.const, int | float)
            and not isinstance(value, bool)
            and not isinstance(field.const, bool)
        )
        if same and value == field.const:
            return field.const, None
        return None, f"Must be exactly {shown(field.const)}"
    if kind is FieldKind.SELECT and field.choice_type != "string":
        number = _as_number(value, integer=field.choice_type == "integer")
        key = None if number is None else choice_key(field, number)
        if key is None:
            return None, NOT_A_CHOICE
        return choice_value(field, key), None
    if kind is FieldKind.LIST:
        return _check_typed_list(field, value)
    if kind in (FieldKind.TEXT, FieldKind.SELECT):
        if not isinstance(value, str):
            return None, f"Expected a string, got {shown(value)}"
        if kind is FieldKind.SELECT:
            problem = check_choice(field, value)
            return (None, problem) if problem else (value, None)
        return check_text(field, value)
    if kind is FieldKind.BOOLEAN:
        if not isinstance(value, bool):
            return None, f"Expected true or false, got {shown(value)}"
        return value, None
    if kind in (FieldKind.NUMBER, FieldKind.INTEGER):
        number = _as_number(value, integer=kind is FieldKind.INTEGER)
        if number is None:
            expected = "a whole number" if kind is FieldKind.INTEGER else "a number"
            return None, f"Expected {expected}, got {shown(value)}"
        problem = check_number(field, number)
        return (None, problem) if problem else (number, None)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return None, f"Expected a list of strings, got {shown(value)}"
    problem = check_choices(field, value)
    return (None, problem) if problem else (list(value), None)


def _check_typed_list(field: FieldSpec, value: object) -> tuple[ContentValue | None, str | None]:
    item = field.item
    if not isinstance(value, list) or item is None:
        return None, f"Expected a list, got {shown(value)}"
    out: list[Any] = []
    for i, v in enumerate(value, 1):
        checked, problem = check_typed(item, v)
        if problem is not None or checked is None:
            return None, f"Item {i}: {problem or 'unexpected value'}"
        out.append(checked)
    problem = check_list(field, out)
    return (None, problem) if problem else (out, None)


def _as_number(value: object, *, integer: bool) -> int | float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or is_huge(value):
        return None
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        if integer:
            return int(value) if value.is_integer() else None
    return value


def json_type(value: object) -> str:
    """The JSON name of a Python value's type ("boolean", "integer", "object", ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def shown(value: object) -> str:
    """A short, safe rendering of a JSON value for a message: ``true``, ``30.5``, ``"abc"``."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, int | float):
        return one_line(format_number(value), limit=60)
    if isinstance(value, str):
        return one_line(json.dumps(value, ensure_ascii=False), limit=60)
    if isinstance(value, list | tuple):
        try:
            return one_line(json.dumps(value, ensure_ascii=False, allow_nan=False), limit=60)
        except (TypeError, ValueError, RecursionError):
            return "a list"
    return "an object" if isinstance(value, dict) else one_line(type(value).__name__, limit=60)

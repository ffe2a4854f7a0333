"""A field's rules in words, for the hint line under a widget and for input placeholders.

Both functions return plain text that may quote server-controlled values (a ``pattern``, a
bound); quoted parts have been through :func:`mcp_tui.untrusted.one_line`, and the UI shows the
result as literal text, like every other server string.
"""

from __future__ import annotations

from mcp_tui.schema.fields import FieldKind, FieldSpec, TextFormat
from mcp_tui.schema.formats import DATE_FORM, DATE_TIME_EXAMPLE, format_number
from mcp_tui.schema.rules import range_words
from mcp_tui.untrusted import one_line

__all__ = ["constraint_text", "placeholder"]

_PLACEHOLDERS = {
    TextFormat.EMAIL: "name@example.com",
    TextFormat.URI: "https://…",
    TextFormat.DATE: DATE_FORM,
    TextFormat.DATE_TIME: DATE_TIME_EXAMPLE,
}


def _span(lo: int | None, hi: int | None, unit: str, *, lead: str = "") -> str:
    """Text like "3–20 characters", "at least 1 character", "pick exactly 2", "pick 1–3", or ""."""
    lo = lo or None  # a minimum of 0 says nothing

    def count(text: str, last: int) -> str:
        if not unit:
            return f"{lead}{text}"
        return f"{lead}{text} {unit if last == 1 else unit + 's'}"

    if lo is not None and hi is not None:
        return count(f"exactly {lo:,}", lo) if lo == hi else count(f"{lo:,}–{hi:,}", hi)
    if lo is not None:
        return count(f"at least {lo:,}", lo)
    if hi is not None:
        return count(f"at most {hi:,}", hi)
    return ""


#: Patterns longer than this stay out of the visible hint (zod's generated email and date-time
#: regexes are 100-400 characters): they are in the full rules (:func:`constraint_text` with
#: ``full=True``, the hint's tooltip) and are still enforced.
SHORT_PATTERN = 40
#: Bounds at least this large (2^53 − 1, JavaScript's MAX_SAFE_INTEGER, which zod writes for
#: every ``z.number().int()``) say nothing to a person: left out of the visible hint.
ABSURD_BOUND = 2**53 - 1


def _absurd(value: int | float | None) -> bool:
    return value is not None and abs(value) >= ABSURD_BOUND


def constraint_text(field: FieldSpec, *, full: bool = False) -> str:
    """The field's rules in words ("3–20 characters", "1 to 100", "pick 1–3"), or "".

    Without ``full``, the short form for the hint under a field: a long ``pattern`` (or any
    pattern beside a ``format``, which already says it) and full-range bounds are left out.
    """
    kind = field.kind
    parts: list[str] = []
    if kind is FieldKind.TEXT:
        parts.append(_span(field.min_length, field.max_length, "character"))
        pattern = field.pattern
        shown = full or (
            pattern is not None and field.format is None and len(pattern) <= SHORT_PATTERN
        )
        if pattern is not None and shown:
            parts.append(f"matching {one_line(pattern, limit=None if full else 60)}")
    elif kind in (FieldKind.NUMBER, FieldKind.INTEGER):
        if kind is FieldKind.INTEGER:
            parts.append("whole number")
        if not full:
            field = _sensible_bounds(field)
        lower, upper = range_words(field)
        if lower.startswith("at least ") and upper.startswith("at most "):
            parts.append(f"{lower[9:]} to {upper[8:]}")
        else:
            parts.extend([lower, upper])
        if field.multiple_of is not None:
            parts.append(f"multiple of {format_number(field.multiple_of)}")
    elif kind is FieldKind.MULTI_SELECT:
        parts.append(_span(field.min_items, field.max_items, "", lead="pick "))
    elif kind is FieldKind.LIST:
        parts.append(_span(field.min_items, field.max_items, "item") or "list")
        if field.item is not None:
            rule = constraint_text(field.item, full=full)
            parts.append(f"each {rule}" if rule else "")
        if field.unique_items:
            parts.append("no repeats")
    return ", ".join(p for p in parts if p)


def _sensible_bounds(field: FieldSpec) -> FieldSpec:
    """``field`` without the bounds that only say "any number a computer can hold"."""
    from dataclasses import replace

    return replace(
        field,
        minimum=None if _absurd(field.minimum) else field.minimum,
        maximum=None if _absurd(field.maximum) else field.maximum,
        exclusive_minimum=None if _absurd(field.exclusive_minimum) else field.exclusive_minimum,
        exclusive_maximum=None if _absurd(field.exclusive_maximum) else field.exclusive_maximum,
    )


def placeholder(field: FieldSpec) -> str:
    """An example of valid input: "name@example.com", "YYYY-MM-DD", "https://…", or "".

    The schema's own first ``examples`` entry comes first when it is a short text or number.
    """
    if field.example is not None and field.kind in (
        FieldKind.TEXT,
        FieldKind.NUMBER,
        FieldKind.INTEGER,
    ):
        return f"e.g. {field.example}"
    if field.kind is FieldKind.TEXT and field.format is not None:
        return _PLACEHOLDERS[field.format]
    if field.kind is FieldKind.INTEGER:
        return "whole number"
    if field.kind is FieldKind.NUMBER:
        return "number"
    return ""

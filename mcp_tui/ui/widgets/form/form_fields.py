"""The ONE dispatch table from a field kind to the widget that edits it.

Every field of a :class:`~mcp_tui.schema.fields.FormSpec` becomes a row (``field_row.FieldRow``:
label, control, inline error) whose control comes from :data:`CONTROL_BUILDERS` here, by the
field's kind. Controls only hand back *raw* values (:data:`~mcp_tui.schema.fields.RawValue`);
turning them into typed ``content`` is ``mcp_tui.schema.validate``'s job, so the form behaves the
same in the TUI and headless.

Safety rules that shape this module (see the hazards notes):

- widget ids are generated (``field-3``), never taken from property names, which may be anything;
- option values never become widget values or ids: controls work on option *indices*, so duplicate
  or odd values cannot make Textual raise, and a default that is not an option is simply not
  preselected;
- every server string is literal ``Content`` (or a plain ``Text`` where Textual needs one to search)
  built through ``mcp_tui.ui.literal``, never markup.

The controls themselves are in ``form_controls`` (they keep keys in order: ``key_order``). Long
option lists (more than :data:`FILTER_THRESHOLD`) use ``choice_filter.ChoiceFilter``, a filter box
over a short list of matches: it never builds a widget row per option, so 10,000 options open at
once. The names are re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mcp_tui.schema.describe import placeholder
from mcp_tui.schema.fields import NULL, FieldKind, FieldSpec, Option, RawValue
from mcp_tui.schema.secrets import looks_secret
from mcp_tui.ui.widgets.form.choice_filter import FILTER_SHOWN, ChoiceFilter
from mcp_tui.ui.widgets.form.form_controls import (
    BoolControl,
    MultiControl,
    NumberKind,
    SelectControl,
    TextControl,
    TriStateControl,
    focus_next_field,
)
from mcp_tui.ui.widgets.form.list_control import ConstControl, ListControl
from mcp_tui.untrusted import one_line

__all__ = [
    "CONTROL_BUILDERS",
    "DESCRIPTION_LIMIT",
    "FILTER_SHOWN",
    "FILTER_THRESHOLD",
    "BoolControl",
    "ChoiceFilter",
    "ConstControl",
    "ControlWidget",
    "ListControl",
    "MultiControl",
    "SelectControl",
    "TextControl",
    "TriStateControl",
    "build_control",
    "field_id",
    "focus_next_field",
    "looks_secret",
    "raw_to_text",
]

#: Above this many options a select becomes a filter box over a short list of matches.
FILTER_THRESHOLD = 20
#: Longest description shown under a field.
DESCRIPTION_LIMIT = 600


def field_id(index: int) -> str:
    """The generated id of the ``index``-th field row (its control is ``field-N-control``)."""
    return f"field-{index}"


ControlWidget = (
    TextControl
    | BoolControl
    | TriStateControl
    | SelectControl
    | MultiControl
    | ChoiceFilter
    | ListControl
    | ConstControl
)


# --- the dispatch table ----------------------------------------------------------------------


def _option_index(options: Sequence[Option], value: object) -> int | None:
    for i, option in enumerate(options):
        if option.value == value:
            return i
    return None


def _text(field: FieldSpec, raw: RawValue, control_id: str) -> ControlWidget:
    value = raw if isinstance(raw, str) else ""
    # A number field keeps every key: Textual's "integer"/"number" input types refuse a key that
    # breaks their character rule, and a refused key changes the number (the "." of 1.0 refused
    # sent 10; the second "." of 1.2.3 sent 1.23). The check reads the text as typed, and says at
    # once when it can no longer become a number (``TextControl.numeric``).
    numeric: NumberKind | None = None
    if field.kind is FieldKind.INTEGER:
        numeric = "integer"
    elif field.kind is FieldKind.NUMBER:
        numeric = "number"
    control = TextControl(
        value,
        placeholder=one_line(placeholder(field), limit=80),
        id=control_id,
        select_on_focus=False,
        valid_empty=True,
        compact=True,
    )
    control.numeric = numeric
    if field.max_length is not None and field.max_length > 0:
        control.max_length = max(field.max_length, len(value))
    return control


def _boolean(field: FieldSpec, raw: RawValue, control_id: str) -> ControlWidget:
    # Only an optional boolean without a default can be "not set"; the others always have a value
    # (a required one without a default starts as false, like any checkbox).
    if field.required or field.has_default:
        return BoolControl(raw if isinstance(raw, bool) else False, id=control_id)
    return TriStateControl(raw if isinstance(raw, bool) else None, id=control_id)


def _select(field: FieldSpec, raw: RawValue, control_id: str) -> ControlWidget:
    chosen = _option_index(field.options, raw) if isinstance(raw, str) else None
    if len(field.options) > FILTER_THRESHOLD:
        return ChoiceFilter(
            field.options, set() if chosen is None else {chosen}, multi=False, id=control_id
        )
    return SelectControl(field.options, chosen, id=control_id)


def _multi_select(field: FieldSpec, raw: RawValue, control_id: str) -> ControlWidget:
    values = raw if isinstance(raw, list) else []
    chosen = {i for i, o in enumerate(field.options) if o.value in values}
    if len(field.options) > FILTER_THRESHOLD:
        return ChoiceFilter(field.options, chosen, multi=True, id=control_id)
    return MultiControl(field.options, chosen, id=control_id)


def _list(field: FieldSpec, raw: RawValue, control_id: str) -> ControlWidget:
    rows = raw if isinstance(raw, list) else []
    item = field.item
    hint = "" if item is None else placeholder(item)
    return ListControl(rows, placeholder=one_line(hint, limit=80), id=control_id)


def _const(field: FieldSpec, raw: RawValue, control_id: str) -> ControlWidget:
    return ConstControl(field.const, id=control_id)


#: FieldKind -> a builder ``(field, initial raw value, generated id) -> control``.
CONTROL_BUILDERS: dict[FieldKind, Callable[[FieldSpec, RawValue, str], ControlWidget]] = {
    FieldKind.TEXT: _text,
    FieldKind.NUMBER: _text,
    FieldKind.INTEGER: _text,
    FieldKind.BOOLEAN: _boolean,
    FieldKind.SELECT: _select,
    FieldKind.MULTI_SELECT: _multi_select,
    FieldKind.LIST: _list,
    FieldKind.CONST: _const,
}


def build_control(field: FieldSpec, raw: RawValue, control_id: str) -> ControlWidget:
    """The widget for ``field`` holding ``raw``; one table, no per-class ``to_widget()``."""
    return CONTROL_BUILDERS[field.kind](field, raw, control_id)


def raw_to_text(raw: RawValue) -> str:
    """A raw value as the user would read it back (for the transcript of abandoned input)."""
    if raw is None:
        return ""
    if raw is NULL:
        return "null"
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, list):
        return ", ".join(raw)
    return raw

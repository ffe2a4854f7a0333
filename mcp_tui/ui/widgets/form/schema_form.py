"""A form for a :class:`~mcp_tui.schema.fields.FormSpec`: raw input in, validated content out.

``SchemaForm`` knows nothing about elicitation: the elicitation screen and the tool-argument form
both use it. It keeps the raw value of every field in a model (``name -> RawValue``) that the
widgets update as the user edits, so a field's value survives its widget being unmounted.

Big forms are paginated, and a page's rows mounted a few per frame (its base,
:class:`~mcp_tui.ui.widgets.form.form_pages.PagedFields`, decides which rows exist when): the values
and errors of rows not mounted live in the model.

Validation is ``mcp_tui.schema.validate``'s: inline when the user leaves a field they edited (and
live while an error is shown, so it disappears once fixed), and for the whole form on
:meth:`SchemaForm.submit`, which focuses the first field in error (switching page if needed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from mcp_tui.schema.fields import FieldSpec, FormResult, FormSpec, RawValue
from mcp_tui.schema.validate import initial_values, validate_field, validate_form
from mcp_tui.ui.widgets.form.field_row import FieldRow
from mcp_tui.ui.widgets.form.form_fields import raw_to_text
from mcp_tui.ui.widgets.form.form_pages import PagedFields


class SchemaForm(PagedFields):
    """The fields of one form, in schema order, with inline errors.

    Public API: :meth:`submit` (validate all, show errors, focus the first), :meth:`raw_values`,
    :meth:`raw_text` (what the user typed, for the transcript when a form is abandoned),
    :meth:`focus_first`, :attr:`errors`, :attr:`form_errors`.
    """

    #: Tab and Shift+Tab move in schema order (see :meth:`move_focus`).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "next_field", "Next field", show=False),
        Binding("shift+tab", "previous_field", "Previous field", show=False),
    ]

    DEFAULT_CSS = """
    SchemaForm { height: auto; }
    SchemaForm > .form-legend { color: $text-muted; height: 1; margin: 0 0 1 0; }
    SchemaForm > .form-pages { height: auto; align: left middle; margin: 0 0 1 0; }
    SchemaForm > .form-pages > Static { width: auto; padding: 0 2; color: $text-muted; }
    SchemaForm > .form-pages > Button { min-width: 18; }
    """

    class Validated(Message):
        """Field errors changed: ``errors`` maps property names to messages, in schema order."""

        def __init__(self, form: SchemaForm, errors: dict[str, str]) -> None:
            super().__init__()
            self.form = form
            self.errors = errors

        @property
        def control(self) -> SchemaForm:
            return self.form

    class Edited(Message):
        """A field's raw value changed (each keystroke): the wire panel shows the new answer."""

        def __init__(self, form: SchemaForm) -> None:
            super().__init__()
            self.form = form

        @property
        def control(self) -> SchemaForm:
            return self.form

    def __init__(
        self,
        form: FormSpec,
        *,
        page_size: int | None = None,
        id: str | None = None,
        classes: str | None = None,
        raws: Mapping[str, RawValue] | None = None,
    ) -> None:
        super().__init__(form, page_size=page_size, id=id, classes=classes)
        self._raws: dict[str, RawValue] = {**initial_values(form), **(raws or {})}
        self._errors: dict[str, str] = {}
        self._touched: set[str] = set()

    # --- building ----------------------------------------------------------------------------

    def _build_rows(self, fields: list[tuple[int, FieldSpec]]) -> list[FieldRow]:
        rows = [FieldRow(field, index, self._raws.get(field.name)) for index, field in fields]
        for row in rows:
            row.set_error(self._errors.get(row.field.name))  # a page shown again keeps its errors
        return rows

    def compose(self) -> ComposeResult:
        if any(f.required for f in self.form.fields):
            yield Static(
                Content.styled("*", "bold $text-error") + Content(" required"),
                classes="form-legend",
            )
        yield from self._build_rows(self._start_page(0))
        yield from self._compose_pager()

    # --- values ------------------------------------------------------------------------------

    def raw_values(self) -> dict[str, RawValue]:
        """Every field's raw value, as the widgets hold it now."""
        for row in self.rows():
            self._raws[row.field.name] = row.get_raw()
        return dict(self._raws)

    def raw_text(self) -> dict[str, str]:
        """What the user typed or chose, as text (non-empty fields only), in schema order."""
        raws = self.raw_values()
        out: dict[str, str] = {}
        for field in self.form.fields:
            text = raw_to_text(raws.get(field.name))
            if text:
                out[field.name] = text
        return out

    @property
    def errors(self) -> dict[str, str]:
        """The errors shown now, ``name -> message``."""
        return dict(self._errors)

    @property
    def form_errors(self) -> list[str]:
        """Errors that belong to no single field (e.g. the schema check of the whole content)."""
        names = {f.name for f in self.form.fields}
        return [message for key, message in self._errors.items() if key not in names]

    # --- validation --------------------------------------------------------------------------

    def _show_errors(self) -> None:
        for row in self.rows():
            row.set_error(self._errors.get(row.field.name))
        self.post_message(self.Validated(self, dict(self._errors)))

    def _validate_row(self, row: FieldRow) -> None:
        name = row.field.name
        raw = row.get_raw()
        self._raws[name] = raw
        _, message = validate_field(row.field, raw)
        if message == self._errors.get(name):
            return
        if message:
            self._errors[name] = message
            # Keep schema order so "the first error" is the first field in the form.
            order = {f.name: i for i, f in enumerate(self.form.fields)}
            self._errors = dict(
                sorted(self._errors.items(), key=lambda kv: order.get(kv[0], len(order)))
            )
        else:
            self._errors.pop(name, None)
        row.set_error(message)
        self.post_message(self.Validated(self, dict(self._errors)))

    @property
    def touched(self) -> bool:
        """The user changed at least one field since the form opened (Escape then asks)."""
        return bool(self._touched)

    @on(FieldRow.Edited)
    def _edited(self, event: FieldRow.Edited) -> None:
        event.stop()
        row = event.row
        self._raws[row.field.name] = row.get_raw()
        self._touched.add(row.field.name)
        if row.error_shown:
            self._validate_row(row)
        self.post_message(self.Edited(self))

    @on(FieldRow.Left)
    def _left(self, event: FieldRow.Left) -> None:
        event.stop()
        row = event.row
        if row.field.name in self._touched or row.error_shown:
            self._validate_row(row)

    def submit(self, *, focus: bool = True) -> FormResult:
        """Validate the whole form; on errors show them all and (with ``focus``) focus the first
        field in error soon after; a caller that can await uses :meth:`focus_first_error`.

        Returns the :class:`FormResult`; ``content`` is set only when the form may be sent.
        """
        result = self.result()
        self._errors = dict(result.errors) if not result.ok else {}
        self._show_errors()
        if not result.ok and focus:
            self.call_later(self.focus_first_error)
        return result

    def result(self) -> FormResult:
        """The whole form validated now, without showing anything: what :meth:`submit` sends
        (the wire panel shows this same result, so it can never differ from what is sent)."""
        return validate_form(self.form, self.raw_values())

    async def focus_first_error(self) -> None:
        """Focus the first field in error (switching page if needed)."""
        names = {f.name for f in self.form.fields}
        for name in self._errors:
            if name in names:
                await self.focus_field(name)
                return

"""A form for a :class:`~mcp_tui.schema.fields.FormSpec`: raw input in, validated content out.

``SchemaForm`` knows nothing about elicitation: the elicitation screen and the tool-argument form
both use it. It keeps the raw value of every field in a model (``name -> RawValue``) that the
widgets update as the user edits, so a field's value survives its widget being unmounted.

Big forms are paginated: at most :attr:`SchemaForm.PAGE_SIZE` fields are mounted at once, because
Textual re-lays-out every widget on each keystroke (typing stays at one frame up to ~50 inputs) and
mounting hundreds of inputs takes seconds. Values and errors of the other pages live in the model.
Within a page, only the first :attr:`SchemaForm.FIRST_ROWS` rows are mounted before the first frame;
the rest follow a chunk per frame, so the form is painted and focused as fast as a small one. The
rows are the form's own children, not in a container of their own: every level of auto-height
nesting makes Textual arrange the rows once more to measure it.

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
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widget import AwaitMount
from textual.widgets import Button, Static

from mcp_tui.schema.fields import FieldSpec, FormResult, FormSpec, RawValue
from mcp_tui.schema.validate import initial_values, validate_field, validate_form
from mcp_tui.ui.widgets.field_row import FieldRow
from mcp_tui.ui.widgets.form_controls import focus_past, scroll_home
from mcp_tui.ui.widgets.form_fields import raw_to_text
from mcp_tui.ui.widgets.key_order import OrderedButton


class SchemaForm(Vertical):
    """The fields of one form, in schema order, with inline errors.

    Public API: :meth:`submit` (validate all, show errors, focus the first), :meth:`raw_values`,
    :meth:`raw_text` (what the user typed, for the transcript when a form is abandoned),
    :meth:`focus_first`, :attr:`errors`, :attr:`form_errors`.
    """

    #: Fields mounted at once; bigger forms get "previous / next fields" buttons.
    PAGE_SIZE: ClassVar[int] = 25
    #: A page of up to :attr:`EAGER_ROWS` rows is mounted whole before the form's first frame
    #: (laid out once, at its final size); a longer one mounts :attr:`FIRST_ROWS`, then chunks of
    #: :attr:`EAGER_ROWS` a frame each: a 20-field form paints about as fast as a 1-field one.
    FIRST_ROWS: ClassVar[int] = 2
    EAGER_ROWS: ClassVar[int] = 6

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

    def __init__(
        self,
        form: FormSpec,
        *,
        page_size: int | None = None,
        id: str | None = None,
        classes: str | None = None,
        raws: Mapping[str, RawValue] | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.form = form
        self.page_size = max(1, page_size or self.PAGE_SIZE)
        self._raws: dict[str, RawValue] = {**initial_values(form), **(raws or {})}
        self._errors: dict[str, str] = {}
        self._touched: set[str] = set()
        self._page = 0
        self._page_count = max(1, -(-len(form.fields) // self.page_size))
        #: The "previous / next fields" bar of a paged form; rows mount before it.
        self._pager: Horizontal | None = None
        self._pending: list[tuple[int, FieldSpec]] = []
        self._in_flight: AwaitMount | None = None

    # --- building ----------------------------------------------------------------------------

    def _page_fields(self, page: int) -> list[tuple[int, FieldSpec]]:
        start = page * self.page_size
        return list(enumerate(self.form.fields))[start : start + self.page_size]

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
        if self._page_count > 1:
            self._pager = Horizontal(classes="form-pages")
            with self._pager:
                yield OrderedButton(
                    "◀ Previous fields",
                    classes="form-prev",
                    disabled=True,
                    compact=True,
                    on_press=self._previous_page,
                )
                yield Static(self._page_label(), classes="form-page-label")
                yield OrderedButton(
                    "Next fields ▶", classes="form-next", compact=True, on_press=self._next_page
                )

    def _page_label(self) -> Content:
        first = self._page * self.page_size + 1
        last = min(len(self.form.fields), first + self.page_size - 1)
        return Content(
            f"fields {first}–{last} of {len(self.form.fields)} "
            f"(page {self._page + 1} of {self._page_count})"
        )

    # --- lazy mounting -----------------------------------------------------------------------

    def _start_page(self, page: int) -> list[tuple[int, FieldSpec]]:
        """The first rows of ``page`` to mount now; the rest wait in ``_pending``."""
        fields = self._page_fields(page)
        first = len(fields) if len(fields) <= self.EAGER_ROWS else self.FIRST_ROWS
        self._pending = fields[first:]
        return fields[:first]

    def _mount_rows(self, fields: list[tuple[int, FieldSpec]]) -> AwaitMount:
        """Mount rows for ``fields`` after the rows already there (before the page bar)."""
        return self.mount_all(self._build_rows(fields), before=self._pager)

    def on_mount(self) -> None:
        self._schedule_pending()

    def _schedule_pending(self) -> None:
        if self._pending:
            self.call_after_refresh(self._mount_pending_chunk)

    async def _mount_pending_chunk(self) -> None:
        """Mount the next few rows after a frame has been painted, so the form appears at once
        and keys stay answered while the rest of the page is built."""
        chunk, self._pending = self._pending[: self.EAGER_ROWS], self._pending[self.EAGER_ROWS :]
        if chunk:
            self._in_flight = mounting = self._mount_rows(chunk)
            await mounting
            if self._in_flight is mounting:
                self._in_flight = None
        self._schedule_pending()

    async def mount_all_rows(self) -> None:
        """Mount every row of the current page now (before moving focus to one that may be
        pending), and wait for a chunk that is being mounted, so every row can take focus."""
        in_flight = self._in_flight
        chunk, self._pending = self._pending, []
        if chunk:
            await self._mount_rows(chunk)
        if in_flight is not None:
            await in_flight

    @property
    def rows_pending(self) -> int:
        """Rows of the current page not mounted yet."""
        return len(self._pending)

    async def action_next_field(self) -> None:
        await self.move_focus(1)

    async def action_previous_field(self) -> None:
        await self.move_focus(-1)

    async def move_focus(self, step: int) -> None:
        """Focus the field ``step`` rows away from the focused one, in schema order; past the
        first or last row, the widget before or after the form (a page or dialog button).

        Rows still waiting to be mounted are mounted first, so a Tab typed while a big page is
        being built reaches them. The order is the schema's, not Textual's focus chain: that one
        sorts by position on screen, and rows mounted this instant have none yet (a burst of Tabs
        skipped them).
        """
        await self.mount_all_rows()
        rows = self.rows()
        screen = self.screen
        focused = screen.focused
        current = next(
            (
                i
                for i, row in enumerate(rows)
                if focused is not None and row in focused.ancestors_with_self
            ),
            None,
        )
        if current is None:
            if step > 0:
                screen.focus_next()
            else:
                screen.focus_previous()
            return
        target = current + step
        if 0 <= target < len(rows):
            rows[target].focus_control()
            if target == 0 and self._page == 0:
                scroll_home(self)  # back at the top: show the message above the form too
            return
        if not focus_past(rows, forward=step > 0):
            rows[0 if step > 0 else -1].focus_control()  # nothing else to focus: wrap

    # --- pages -------------------------------------------------------------------------------

    @property
    def page(self) -> int:
        return self._page

    @property
    def page_count(self) -> int:
        return self._page_count

    def page_of(self, name: str) -> int:
        for index, field in enumerate(self.form.fields):
            if field.name == name:
                return index // self.page_size
        raise KeyError(name)

    async def show_page(self, page: int) -> None:
        """Mount the fields of ``page`` in place of the current ones (values stay in the model)."""
        page = max(0, min(self._page_count - 1, page))
        if page == self._page:
            return
        self._page = page
        self._pending = []
        self._in_flight = None  # rows of the old page: removed below, never to be awaited
        await self.query_children(FieldRow).remove()
        await self._mount_rows(self._start_page(page))
        self._schedule_pending()
        if self._page_count > 1:
            self.query_one(".form-prev", Button).disabled = page == 0
            self.query_one(".form-next", Button).disabled = page == self._page_count - 1
            self.query_one(".form-page-label", Static).update(self._page_label())

    @on(Button.Pressed, ".form-prev")
    async def _previous_clicked(self, event: Button.Pressed) -> None:
        event.stop()
        await self._previous_page()

    @on(Button.Pressed, ".form-next")
    async def _next_clicked(self, event: Button.Pressed) -> None:
        event.stop()
        await self._next_page()

    async def _previous_page(self) -> None:
        await self.show_page(self._page - 1)
        self.focus_first()

    async def _next_page(self) -> None:
        await self.show_page(self._page + 1)
        self.focus_first()

    # --- values ------------------------------------------------------------------------------

    def rows(self) -> list[FieldRow]:
        """The mounted field rows (the current page), in schema order."""
        return list(self.query_children(FieldRow))

    def row_named(self, name: str) -> FieldRow | None:
        for row in self.rows():
            if row.field.name == name:
                return row
        return None

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
        result = validate_form(self.form, self.raw_values())
        self._errors = dict(result.errors) if not result.ok else {}
        self._show_errors()
        if not result.ok and focus:
            self.call_later(self.focus_first_error)
        return result

    async def focus_first_error(self) -> None:
        """Focus the first field in error (switching page if needed)."""
        names = {f.name for f in self.form.fields}
        for name in self._errors:
            if name in names:
                await self.focus_field(name)
                return

    async def focus_field(self, name: str) -> None:
        """Focus ``name``'s control, switching to its page first."""
        await self.show_page(self.page_of(name))
        await self.mount_all_rows()
        row = self.row_named(name)
        if row is not None:
            row.focus_control()  # and brings the row into view

    def focus_first(self) -> bool:
        """Focus the first field on the current page; False when the form has no fields."""
        rows = self.rows()
        if not rows:
            return False
        rows[0].focus_control()
        return True

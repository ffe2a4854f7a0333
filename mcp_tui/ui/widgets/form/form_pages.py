"""A form's rows, a page at a time and a few per frame: a big form as fast as a small one.

The base of :class:`~mcp_tui.ui.widgets.form.schema_form.SchemaForm`, which owns the values and the
validation; here is only which :class:`~mcp_tui.ui.widgets.form.field_row.FieldRow` is mounted when,
and how focus moves among them. At most :attr:`PagedFields.PAGE_SIZE` fields are mounted at once,
because Textual re-lays-out every widget on each keystroke (typing stays at one frame up to ~50
inputs) and mounting hundreds of inputs takes seconds; bigger forms get "previous / next fields"
buttons. Within a page only the first :attr:`PagedFields.FIRST_ROWS` rows are mounted before the
first frame, the rest a chunk per frame. The rows are the form's own children, not in a container
of their own: every level of auto-height nesting makes Textual arrange the rows once more to
measure it. Tab and Shift+Tab follow the schema's order, mounting the rows still pending first
(see :meth:`PagedFields.move_focus`).
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widget import AwaitMount
from textual.widgets import Button, Static

from mcp_tui.schema.fields import FieldSpec, FormSpec
from mcp_tui.ui.key_order import OrderedButton
from mcp_tui.ui.widgets.form.field_row import FieldRow
from mcp_tui.ui.widgets.form.form_controls import focus_past, scroll_home
from mcp_tui.ui.widgets.text.inert import select_when_tabbed_to


class PagedFields(Vertical):
    """The mounted rows of a form's fields (the current page), built by :meth:`_build_rows`."""

    #: Fields mounted at once; bigger forms get "previous / next fields" buttons.
    PAGE_SIZE: ClassVar[int] = 25
    #: A page of up to :attr:`EAGER_ROWS` rows is mounted whole before the form's first frame
    #: (laid out once, at its final size); a longer one mounts :attr:`FIRST_ROWS`, then chunks of
    #: :attr:`EAGER_ROWS` a frame each: a 20-field form paints about as fast as a 1-field one.
    FIRST_ROWS: ClassVar[int] = 2
    EAGER_ROWS: ClassVar[int] = 6

    def __init__(
        self,
        form: FormSpec,
        *,
        page_size: int | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.form = form
        self.page_size = max(1, page_size or self.PAGE_SIZE)
        self._page = 0
        self._page_count = max(1, -(-len(form.fields) // self.page_size))
        #: The "previous / next fields" bar of a paged form; rows mount before it.
        self._pager: Horizontal | None = None
        self._pending: list[tuple[int, FieldSpec]] = []
        self._in_flight: AwaitMount | None = None

    # --- building ----------------------------------------------------------------------------

    def _build_rows(self, fields: list[tuple[int, FieldSpec]]) -> list[FieldRow]:
        """The rows for ``fields`` (index in the form, field), with their values and errors."""
        raise NotImplementedError

    def _page_fields(self, page: int) -> list[tuple[int, FieldSpec]]:
        start = page * self.page_size
        return list(enumerate(self.form.fields))[start : start + self.page_size]

    def _compose_pager(self) -> ComposeResult:
        """The "previous / next fields" bar, for a form of more than one page."""
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
            select_when_tabbed_to(screen.focused)  # typing replaces a pre-filled value
            if target == 0 and self._page == 0:
                scroll_home(self)  # back at the top: show the message above the form too
            return
        if not focus_past(rows, forward=step > 0):
            rows[0 if step > 0 else -1].focus_control()  # nothing else to focus: wrap
        select_when_tabbed_to(screen.focused)

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

    # --- rows -------------------------------------------------------------------------------

    def rows(self) -> list[FieldRow]:
        """The mounted field rows (the current page), in schema order."""
        return list(self.query_children(FieldRow))

    def row_named(self, name: str) -> FieldRow | None:
        for row in self.rows():
            if row.field.name == name:
                return row
        return None

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

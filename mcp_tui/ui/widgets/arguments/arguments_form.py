"""The form for a tool's arguments when they are more than flat fields (nested objects, lists,
variants, maps): the widgets of :mod:`argument_kinds` over the model of
:mod:`mcp_tui.schema.arguments`.

The values live in the model's state, which the widgets update as the user edits; the answer is
read from it (:func:`~mcp_tui.schema.arguments.answer.answer`), then checked against the tool's
original schema (:func:`~mcp_tui.schema.arguments.check.validate_arguments`). Every error has a
path, and is shown on the widget registered for the longest part of that path: a missing field on
that field, "add at least 1 item" on its list. Folded sections holding an error unfold when it
is focused.

Like the flat form, a big form mounts its first rows before the first frame and the rest a chunk
per frame, so 200 properties paint about as fast as one.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from mcp_tui.schema.arguments.answer import Errors, Reader, answer, partial, touch
from mcp_tui.schema.arguments.check import validate_arguments
from mcp_tui.schema.arguments.nodes import Node, ObjectNode, Path
from mcp_tui.schema.arguments.state import ObjectState, State, state_for
from mcp_tui.ui.widgets.arguments import argument_kinds
from mcp_tui.ui.widgets.arguments.argument_base import ErrorLine, NodeBox
from mcp_tui.ui.widgets.arguments.argument_leaves import LeafBox, LeafRow
from mcp_tui.ui.widgets.arguments.argument_maps import MapBox
from mcp_tui.ui.widgets.arguments.argument_objects import ObjectBox
from mcp_tui.ui.widgets.form.field_row import FieldRow
from mcp_tui.ui.widgets.form.form_controls import scroll_home


class ArgumentsForm(Vertical):
    """Public API: :meth:`submit`, :meth:`partial`, :meth:`focus_first`,
    :meth:`focus_first_error`, :attr:`errors`."""

    FIRST_ROWS: ClassVar[int] = 2
    EAGER_ROWS: ClassVar[int] = 6

    DEFAULT_CSS = """
    ArgumentsForm { height: auto; }
    ArgumentsForm > .form-legend { color: $text-muted; height: 1; margin: 0 0 1 0; }
    """

    def __init__(
        self,
        root: ObjectNode,
        schema: object,
        *,
        state: ObjectState | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.root = root
        self.schema = schema
        self.state = state if state is not None else _root_state(root)
        self._targets: dict[Path, list[Widget]] = {}
        self._errors: dict[Path, str] = {}
        self._touched: set[Path] = set()
        self._changed = False
        self._index = 0
        self._pending: list[Widget] = []

    # --- building ----------------------------------------------------------------------------

    def next_index(self) -> int:
        """A fresh number for a row's generated id (``field-N``)."""
        self._index += 1
        return self._index

    def node_widget(
        self, node: Node, state: State, path: Path, *, headless: bool = False
    ) -> Widget:
        """The widget of ``node``, from the ONE dispatch of node kinds to widgets (the node
        widgets build their inner widgets through this, see ``argument_base.FormHost``)."""
        return argument_kinds.node_widget(self, node, state, path, headless=headless)

    def compose(self) -> ComposeResult:
        if any(c.required and not c.nullable for c in self.root.properties):
            yield Static(
                Content.styled("*", "bold $text-error") + Content(" required"),
                classes="form-legend",
            )
        yield ErrorLine(classes="node-error")
        rows = self._rows()
        first = len(rows) if len(rows) <= self.EAGER_ROWS else self.FIRST_ROWS
        self._pending = rows[first:]
        yield from rows[:first]

    def _rows(self) -> list[Widget]:
        rows: list[Widget] = []
        for child in self.root.properties:
            inner = self.state.children.setdefault(child.name, state_for(child))
            rows.append(self.node_widget(child, inner, (child.name,)))
        if self.root.extra is not None:
            rows.append(MapBox(self, self.root, self.state, ()))
        return rows

    def on_mount(self) -> None:
        self.register((), self.query_one(ErrorLine))  # the errors of no one field
        if self._pending:
            self.call_after_refresh(self._mount_chunk)

    async def _mount_chunk(self) -> None:
        chunk, self._pending = self._pending[: self.EAGER_ROWS], self._pending[self.EAGER_ROWS :]
        if chunk:
            await self.mount_all(chunk)
        if self._pending:
            self.call_after_refresh(self._mount_chunk)

    async def mount_all_rows(self) -> None:
        chunk, self._pending = self._pending, []
        if chunk:
            await self.mount_all(chunk)

    @property
    def rows_pending(self) -> int:
        return len(self._pending)

    # --- where errors go ---------------------------------------------------------------------

    def register(self, path: Path, widget: Widget) -> None:
        self._targets.setdefault(path, []).append(widget)
        message = self._errors.get(path)
        if message is not None:
            _show(widget, message)

    def unregister(self, path: Path, widget: Widget) -> None:
        widgets = self._targets.get(path, [])
        if widget in widgets:
            widgets.remove(widget)
        if not widgets:
            self._targets.pop(path, None)

    def repath(self, widget: Widget, old: Path, new: Path) -> None:
        """Widgets under ``widget`` known by paths starting with ``old`` now start with ``new``
        (a list item moved or renumbered)."""
        size = len(old)
        for node in [widget, *widget.query("*")]:
            path = getattr(node, "path", None)
            if isinstance(path, tuple) and path[:size] == old:
                registered = node in self._targets.get(path, [])
                if registered:
                    self.unregister(path, node)
                node.path = (*new, *path[size:])
                if registered:
                    self.register(node.path, node)

    def _target(self, path: Path) -> tuple[Path, Widget] | None:
        for end in range(len(path), -1, -1):
            widgets = self._targets.get(path[:end])
            if widgets:
                return path[:end], widgets[0]
        return None

    def widget_at(self, path: Path) -> Widget | None:
        """The widget shown for ``path`` (a field row, a list, a section), if it is mounted."""
        widgets = self._targets.get(path)
        return widgets[0] if widgets else None

    @property
    def errors(self) -> dict[Path, str]:
        return dict(self._errors)

    def show_errors(self, errors: dict[Path, str]) -> None:
        for widgets in self._targets.values():
            for widget in widgets:
                _show(widget, None)
        for line in self.query_children(ErrorLine):
            line.show(None)
        self._errors = dict(errors)
        placed: set[int] = set()
        for path, message in errors.items():
            found = self._target(path)
            if found is None:
                continue
            _, widget = found
            if id(widget) not in placed:
                placed.add(id(widget))
                _show(widget, message)

    # --- editing -----------------------------------------------------------------------------

    def touch(self, path: Path) -> None:
        """Something at ``path`` changed (a field, an item added or moved, a variant picked):
        objects and lists on the way are now given, and Escape asks before closing."""
        self._changed = True
        touch(self.root, self.state, path)
        for end in range(len(path)):
            for widget in self._targets.get(path[:end], []):
                if isinstance(widget, ObjectBox):
                    widget.refresh_header()

    @on(FieldRow.Edited)
    def _edited(self, event: FieldRow.Edited) -> None:
        row = event.row
        if not isinstance(row, LeafRow) or not isinstance(row.parent, LeafBox):
            return
        event.stop()
        row.parent.store(row)
        self._touched.add(row.path)
        self.touch(row.path)
        if row.error_shown:
            self._check_leaf(row)

    @on(FieldRow.Left)
    def _left(self, event: FieldRow.Left) -> None:
        row = event.row
        if isinstance(row, LeafRow) and (row.path in self._touched or row.error_shown):
            event.stop()
            self._check_leaf(row)

    def _check_leaf(self, row: LeafRow) -> None:
        box = row.parent
        if not isinstance(box, LeafBox):
            return
        found: Errors = {}
        Reader(found, lenient=False).read(box.node, box.state, row.path)
        message = found.get(row.path)
        if message:
            self._errors[row.path] = message
        else:
            self._errors.pop(row.path, None)
        row.set_error(message)

    # --- the answer --------------------------------------------------------------------------

    def sync(self) -> None:
        """Read every mounted field into the state: not every control reports each change
        (a checkbox toggled by a key acts at once, without a message)."""
        for row in self.query(LeafRow):
            box = row.parent
            if isinstance(box, LeafBox) and box.changed(row):
                box.store(row)
                self.touch(row.path)

    def submit(self) -> dict[str, object] | None:
        """The arguments when valid (by the form, then by the server's own schema); else None
        with every error shown where it belongs."""
        self.sync()
        value, errors = answer(self.root, self.state)
        if value is not None:
            verdict = validate_arguments(value, self.schema)
            errors = {}
            for path, message in verdict.errors:
                errors.setdefault(path, message)
        self.show_errors(errors)
        return value if not errors else None

    @property
    def touched(self) -> bool:
        """The user changed something since the form opened (Escape then asks)."""
        return self._changed or bool(self._touched)

    def partial(self) -> dict[str, object]:
        """Everything filled in, valid or not, as JSON (for the JSON editor)."""
        self.sync()
        return partial(self.root, self.state)

    @property
    def form_errors(self) -> list[str]:
        """Errors with no widget to show them on (inside a part not built yet)."""
        return [m for p, m in self._errors.items() if self._target(p) is None]

    async def focus_first_error(self) -> None:
        """Unfold what hides the first error, then focus its field."""
        await self.mount_all_rows()
        for path in list(self._errors):
            for end in range(1, len(path) + 1):
                for widget in self._targets.get(path[:end], []):
                    if isinstance(widget, ObjectBox) and widget.folded:
                        await widget.toggle()
            self.show_errors(self._errors)
            found = self._target(path)
            if found is not None:
                _focus(found[1])
                return

    def focus_first(self) -> bool:
        """Focus the first field, with the top of the form (and the text above it) in view."""
        for widget in self.query("*"):
            if widget.focusable:
                self.screen.set_focus(widget, scroll_visible=False)
                self.call_after_refresh(scroll_home, self)
                return True
        return False

    async def move_focus(self, step: int) -> None:
        """Enter in a field moves on (``form_controls.focus_next_field``), in screen order."""
        await self.mount_all_rows()
        if step > 0:
            self.screen.focus_next()
        else:
            self.screen.focus_previous()


def _root_state(root: ObjectNode) -> ObjectState:
    state = state_for(root)
    assert isinstance(state, ObjectState)
    state.present = True
    return state


def _show(widget: Widget, message: str | None) -> None:
    if isinstance(widget, FieldRow | NodeBox):
        widget.set_error(message)
    elif isinstance(widget, ErrorLine):
        widget.show(message)


def _focus(widget: Widget) -> None:
    if isinstance(widget, FieldRow | NodeBox):
        widget.focus_control()

"""What every widget of a tool-arguments tree shares: the form it lives in, its path, its errors.

The widgets of each node kind (:mod:`argument_leaves`, :mod:`argument_objects`,
:mod:`argument_lists`, :mod:`argument_maps`, :mod:`argument_variants`) sit below the form that
holds them (:mod:`arguments_form`) and must not import it, nor each other in a circle. So they
know the form only as a :class:`FormHost`: where they register the paths whose errors they show,
report edits, and build the widget of an inner node (the form hands them the ONE dispatch from a
node kind to its widget, :func:`~mcp_tui.ui.widgets.arguments.argument_kinds.node_widget`).

Every string from the server is shown as literal text.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Protocol

from textual.containers import Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Button, Static

from mcp_tui.schema.arguments.nodes import Node, Path
from mcp_tui.schema.arguments.state import State
from mcp_tui.ui.key_order import OrderedButton
from mcp_tui.ui.literal import literal_line


class FormHost(Protocol):
    """What a node widget needs of the form around it (:class:`~mcp_tui.ui.widgets.
    arguments_form.ArgumentsForm` is the one there is)."""

    def next_index(self) -> int:
        """A fresh number for a row's generated id (``field-N``)."""
        ...

    def register(self, path: Path, widget: Widget) -> None:
        """``widget`` shows the errors of ``path`` (and of the paths under it with no widget)."""
        ...

    def unregister(self, path: Path, widget: Widget) -> None:
        """``widget`` is gone: it no longer shows the errors of ``path``."""
        ...

    def repath(self, widget: Widget, old: Path, new: Path) -> None:
        """Widgets under ``widget`` known by paths starting with ``old`` now start with ``new``."""
        ...

    def touch(self, path: Path) -> None:
        """Something at ``path`` changed (a field, an item added or moved, a variant picked)."""
        ...

    def node_widget(
        self, node: Node, state: State, path: Path, *, headless: bool = False
    ) -> Widget:
        """The widget of an inner node, from the ONE dispatch of node kinds to widgets."""
        ...


class ActButton(OrderedButton):
    """A small button that acts the same on a key and on a click. ``tab_stop=False``: for the
    mouse only (its action has a key of its own), so Tab goes from field to field."""

    def __init__(
        self,
        label: str,
        action: Callable[[], Awaitable[None] | None],
        *,
        tab_stop: bool = True,
        **kw: Any,
    ) -> None:
        super().__init__(literal_line(label, limit=60), on_press=action, compact=True, **kw)
        self.can_focus = tab_stop

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        await self.action_press()


def title_line(node: Node, fallback: str) -> Content:
    parts = [literal_line(node.label or fallback, limit=120, style="bold")]
    if node.required and not node.nullable:
        parts.append(Content.styled(" *", "bold $text-error"))
    return Content("").join(parts)


class ErrorLine(Static):
    """A container's own error ("Add at least 1 item"), hidden while there is none."""

    DEFAULT_CSS = "ErrorLine { color: $text-error; text-style: bold; display: none; }"

    def show(self, message: str | None) -> None:
        self.update(literal_line(f"✗ {message}", limit=300) if message else Content(""))
        self.display = bool(message)


class NodeBox(Vertical):
    """Base of every node widget: where it is (``path``), its node and state, its form."""

    DEFAULT_CSS = "NodeBox { height: auto; }"

    def __init__(self, form: FormHost, node: Node, state: State, path: Path) -> None:
        super().__init__(classes="node-box")
        self.form = form
        self.node = node
        self.state = state
        self.path = path

    #: Whether the form shows errors of this path here (a leaf's row does it instead).
    REGISTERED: ClassVar[bool] = True

    def on_mount(self) -> None:
        if self.REGISTERED:
            self.form.register(self.path, self)

    def on_unmount(self) -> None:
        if self.REGISTERED:
            self.form.unregister(self.path, self)

    def set_error(self, message: str | None) -> None:
        for line in self.query_children(ErrorLine):
            line.show(message)

    def focus_control(self) -> bool:
        """Focus the first focusable widget inside; False when there is none."""
        for widget in self.query("*"):
            if widget.focusable:
                self.screen.set_focus(widget)
                return True
        return False

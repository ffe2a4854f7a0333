"""``additionalProperties`` in a tool-arguments form: key/value rows with add and remove."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Button, Static

from mcp_tui.schema.arguments.nodes import ObjectNode, Path
from mcp_tui.schema.arguments.state import ObjectState, state_for
from mcp_tui.ui.widgets.arguments.argument_base import ActButton, FormHost
from mcp_tui.ui.widgets.form.form_controls import TextControl


class MapBox(Vertical):
    """``additionalProperties``: key/value rows, with add and remove."""

    DEFAULT_CSS = """
    MapBox { height: auto; margin: 0 0 1 0; }
    MapBox > .map-entries { height: auto; padding: 0 0 0 2; }
    MapBox > .map-add { margin: 0 0 0 2; }
    """

    def __init__(self, form: FormHost, node: ObjectNode, state: ObjectState, path: Path):
        super().__init__(classes="map-box")
        self.form = form
        self.node = node
        self.state = state
        self.path = path

    def compose(self) -> ComposeResult:
        label = "more entries" if self.node.properties else "entries"
        yield Static(Content.styled(f"{label} (key: value)", "bold"), classes="map-label")
        yield Vertical(*self._entries(), classes="map-entries")
        yield ActButton("+ add entry", self.add, classes="map-add")

    def _entries(self) -> list[Widget]:
        return [MapEntry(self, i) for i in range(len(self.state.extra))]

    async def add(self) -> None:
        assert self.node.extra is not None
        self.state.extra.append(("", state_for(self.node.extra)))
        await self._rebuild()

    async def remove_at(self, index: int) -> None:
        entries = list(self.query_one(".map-entries", Vertical).query_children(MapEntry))
        if not 0 <= index < len(self.state.extra) or index >= len(entries):
            return
        del self.state.extra[index]
        self.screen.set_focus(self.query_one(".map-add", Button))
        entries.pop(index).remove()  # not awaited: focus was inside it a moment ago
        for position, entry in enumerate(entries):
            entry.index = position
        self.form.touch(self.path)

    async def _rebuild(self) -> None:
        holder = self.query_one(".map-entries", Vertical)
        await holder.remove_children()
        await holder.mount_all(self._entries())
        self.form.touch(self.path)


class MapEntry(Vertical):
    """One key/value row of a map. Ctrl+R removes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+r", "remove", "Remove entry")]

    async def action_remove(self) -> None:
        await self.box.remove_at(self.index)

    DEFAULT_CSS = """
    MapEntry { height: auto; }
    MapEntry > .map-key { height: 1; }
    MapEntry > .map-key > Input { width: 30; }
    MapEntry > .map-key > Button { margin: 0 0 0 1; }
    """

    def __init__(self, box: MapBox, index: int) -> None:
        super().__init__(classes="map-entry")
        self.box = box
        self.index = index

    def compose(self) -> ComposeResult:
        key, state = self.box.state.extra[self.index]
        control = TextControl(
            key, placeholder="key", compact=True, id=f"map-key-{self.box.form.next_index()}"
        )
        with Horizontal(classes="map-key"):
            yield control
            yield ActButton("✕ remove", lambda: self.box.remove_at(self.index), tab_stop=False)
        assert self.box.node.extra is not None
        value = replace(self.box.node.extra, title="value")
        yield self.box.form.node_widget(value, state, (*self.box.path, key or self.index))

    @on(TextControl.Changed)
    def _key(self, event: TextControl.Changed) -> None:
        if event.input.id and event.input.id.startswith("map-key-"):
            event.stop()
            key, state = self.box.state.extra[self.index]
            if event.value == key:
                return  # the key it was built with, announced at mount: not an edit
            self.box.state.extra[self.index] = (event.value, state)
            self.box.form.touch(self.box.path)

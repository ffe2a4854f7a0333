"""The key footer: the active keys of the screen on one line, as one widget.

Textual's ``Footer`` is a container of one ``FooterKey`` widget per key, and it recomposes (drops,
re-mounts, restyles and redraws every key) whenever its screen publishes a bindings refresh: each
focus change, each screen pushed over it or popped. That cost ~12 ms per rebuild; opening the
command palette over the session screen rebuilt the session footer four times while the palette
was being drawn, every Tab in a form rebuilt the form's footer, and its CSS and first keys were a
good part of the app's first frame. Measured in a pty, 8 alternating runs: the footer took 20 ms
of the 95 ms from Ctrl+P to the palette painted.

:class:`KeyFooter` looks the same (the same theme variables, paddings and compact mode, the
palette key on the right after a thin bar) but is a single widget that only redraws, and only
when the keys it would show changed. A click on a key presses it (a disabled key rings the bell);
hovering one shows its tooltip. Binding groups are shown key by key (mcp-tui defines none).

The way to the help screen (the ``help`` action's key) and to the palette are always on the right,
whatever the width: on the left come first the keys of the current state (the actions a screen
names in ``CONTEXT_ACTIONS``, in that order, when they are enabled: "Cancel call" while a call
runs, "Done" and "Give up" while a URL page is awaited), then the others in binding order (the
focused widget's first, so Enter's "Call" leads them). When they do not all fit, the last ones
are left out whole (never cut mid-word) with a "…" saying so; the help screen lists them all.
At 80 columns the general keys (details, traffic, log) are the ones that give way.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from rich.style import Style
from rich.text import Text
from textual import events
from textual.reactive import reactive
from textual.widget import Widget

if TYPE_CHECKING:
    from textual.screen import Screen

#: The action whose key is always shown on the right, beside the palette's (the help screen).
HELP_ACTION = "help"


class _Item(NamedTuple):
    """One key to show: the key it presses, how it is written, what it does."""

    action: str
    key: str
    shown: str
    description: str
    enabled: bool
    tooltip: str


class _Key(NamedTuple):
    """One key as drawn: the key it presses and the cells it covers."""

    key: str
    start: int
    end: int
    enabled: bool
    tooltip: str


def _context_first(items: list[_Item], screen: object) -> list[_Item]:
    """``items`` with the enabled keys of the screen's ``CONTEXT_ACTIONS`` first, in that order
    (the rest keep their binding order): what matters now survives a narrow terminal."""
    context: tuple[str, ...] = getattr(screen, "CONTEXT_ACTIONS", ())
    rank = {action: i for i, action in enumerate(context)}
    first = sorted(
        (i for i in items if i.enabled and i.action in rank), key=lambda i: rank[i.action]
    )
    return first + [i for i in items if i not in first]


class KeyFooter(Widget, can_focus=False):
    """The screen's active keys on one line (see the module docstring)."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "key-footer--key",
        "key-footer--description",
        "key-footer--bar",
    }
    DEFAULT_CSS = """
    KeyFooter {
        dock: bottom;
        height: 1;
        width: 1fr;
        color: $footer-foreground;
        background: $footer-background;
        text-wrap: nowrap;
        .key-footer--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .key-footer--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .key-footer--bar {
            color: $foreground 20%;
        }
    }
    """

    #: Less space around each key (what 80 columns need).
    compact = reactive(False)

    def __init__(self) -> None:
        super().__init__()
        #: What the last render showed (to skip redraws that would change nothing).
        self._shown: Hashable | None = None
        self._keys: list[_Key] = []

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        if self.is_attached and screen is self.screen and self._what_it_shows() != self._shown:
            self.refresh()

    def _what_it_shows(self) -> Hashable:
        return tuple(
            (key, binding, enabled, tooltip)
            for key, (_node, binding, enabled, tooltip) in self.screen.active_bindings.items()
        )

    def _items(self) -> tuple[list[_Item], _Item | None, _Item | None]:
        """The shown keys (one per action, in binding order), the help key and the palette key."""
        app = self.app
        items: list[_Item] = []
        actions: set[str] = set()
        palette: _Item | None = None
        help_item: _Item | None = None
        for key, (_node, binding, enabled, tooltip) in self.screen.active_bindings.items():
            if key == app.COMMAND_PALETTE_BINDING and app.ENABLE_COMMAND_PALETTE:
                tip = tooltip or binding.tooltip or binding.description
                shown = app.get_key_display(binding)
                palette = _Item(binding.action, key, shown, binding.description, enabled, tip)
            if not binding.show or binding.action in actions:
                continue
            actions.add(binding.action)
            shown = app.get_key_display(binding)
            item = _Item(binding.action, key, shown, binding.description, enabled, tooltip or "")
            if binding.action == HELP_ACTION:
                help_item = item
            else:
                items.append(item)
        return _context_first(items, self.screen), help_item, palette

    def _key_text(self, shown: str, description: str, *, compact: bool) -> Text:
        key_style = self.get_component_rich_style("key-footer--key")
        description_style = self.get_component_rich_style("key-footer--description")
        if compact:
            key_part, description_part = shown, f" {description}" if description else ""
        else:
            key_part, description_part = f" {shown} ", f"{description} " if description else ""
        return Text.assemble((key_part, key_style), (description_part, description_style))

    def _part(self, item: _Item, *, compact: bool) -> Text:
        part = self._key_text(item.shown, item.description, compact=compact)
        if not item.enabled:
            part.stylize(Style(dim=True))
        return part

    def render(self) -> Text:
        self._shown = self._what_it_shows()
        items, help_item, palette = self._items()
        # The right-hand block (help, then the palette after a thin bar, one cell from the right,
        # as Textual draws the palette key), always compact; built first so the left fits beside.
        right: list[tuple[_Item | None, Text]] = []
        if help_item is not None:
            right.append((help_item, self._part(help_item, compact=True)))
            right.append((None, Text(" ")))
        if palette is not None:
            right.append((None, Text("▏", self.get_component_rich_style("key-footer--bar"))))
            shown = self._key_text(palette.shown, palette.description, compact=True)
            right.append((palette, shown))
        right_width = sum(part.cell_len for _, part in right) + (1 if right else 0)
        width = self.size.width or 80
        line = Text(no_wrap=True, overflow="crop", end="")
        keys: list[_Key] = []
        parts = [(item, self._part(item, compact=self.compact)) for item in items]
        gap = 1 if self.compact else 0
        room = width - right_width - 1  # one cell between the two blocks
        used = sum(part.cell_len + gap for _, part in parts)
        more = Text("…", self.get_component_rich_style("key-footer--description"))
        while parts and used > room:
            # Leave the last key out, whole, and say so with an ellipsis.
            _, dropped = parts.pop()
            used -= dropped.cell_len + gap
            room = width - right_width - 1 - more.cell_len
        for item, part in parts:
            start = line.cell_len
            line.append_text(part)
            tip = item.tooltip or item.description
            keys.append(_Key(item.key, start, line.cell_len, item.enabled, tip))
            if gap:
                line.append(" ")
        if len(parts) < len(items):
            line.append_text(more)
        if right:
            line.append(" " * max(1, width - line.cell_len - right_width))
            for right_item, part in right:
                start = line.cell_len
                line.append_text(part)
                if right_item is not None:
                    tip = right_item.tooltip or right_item.description
                    keys.append(_Key(right_item.key, start, line.cell_len, True, tip))
            line.append(" ")
        self._keys = keys
        return line

    def on_resize(self) -> None:
        self.refresh()  # the palette key stays on the right

    def _key_at(self, x: int) -> _Key | None:
        return next((k for k in self._keys if k.start <= x < k.end), None)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        key = self._key_at(event.x)
        if key is None:
            return
        if key.enabled:
            self.app.simulate_key(key.key)
        else:
            self.app.bell()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        key = self._key_at(event.x)
        self.tooltip = key.tooltip if key is not None and key.tooltip else None

"""The title bar: the app's icon, title and sub-title on one line, as one widget.

Textual's ``Header`` is four widgets (icon, title, clock space, and itself), each with its own
CSS to parse, styles to apply and region to lay out and paint, and it sets its title in a
message after mounting. On mcp-tui's first frame it cost ~7 ms of ~60 ms (12 alternating runs
of the frame phases, in a pty), a good part of what stood between the first frame and its goal.

:class:`TitleBar` draws the same cells (the icon in 8 columns on the left, the title centred
between it and 10 blank columns on the right, cut with an ellipsis when it does not fit; the
same theme variables) and redraws only when the title or sub-title changes. Clicking the icon
opens the command palette (hovering it shows why); clicking elsewhere makes the bar three lines
tall and back, as ``Header`` does. The title and sub-title are the app's own words (mcp-tui and
the server counts): nothing a server sent is shown here.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

#: Columns of the icon (with one cell of padding each side) and of the clock space on the right,
#: as in Textual's ``HeaderIcon`` and ``HeaderClockSpace``.
ICON_WIDTH = 8
RIGHT_WIDTH = 10
PALETTE_TOOLTIP = "Open the command palette"


class TitleBar(Widget, can_focus=False):
    """Icon, title and sub-title on one line (see the module docstring)."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {"title-bar--icon-hover"}
    DEFAULT_CSS = """
    TitleBar {
        dock: top;
        width: 100%;
        height: 1;
        background: $panel;
        color: $foreground;
        content-align: left middle;
        text-wrap: nowrap;
        &.-tall {
            height: 3;
        }
        .title-bar--icon-hover {
            background: $foreground 10%;
        }
    }
    """

    #: The mouse is over the icon (it is then highlighted, as a button would be).
    icon_hover = reactive(False)

    def __init__(self, icon: str) -> None:
        super().__init__()
        self.icon = icon

    def on_mount(self) -> None:
        self.watch(self.app, "title", self._title_changed, init=False)
        self.watch(self.app, "sub_title", self._title_changed, init=False)

    def _title_changed(self) -> None:
        self.refresh()

    def render(self) -> Content:
        app = self.app
        icon = Content(f" {self.icon}").pad_right(ICON_WIDTH - 1 - len(self.icon))
        if self.icon_hover:
            icon = icon.stylize(self.get_visual_style("title-bar--icon-hover"))
        room = self.size.width - ICON_WIDTH - RIGHT_WIDTH
        title = app.format_title(app.title, app.sub_title)
        middle = title.center(room, ellipsis=True) if room > 0 else Content("")
        return Content.assemble(icon, middle, " " * RIGHT_WIDTH)

    def on_resize(self) -> None:
        self.refresh()

    def watch_icon_hover(self, over_icon: bool) -> None:
        self.tooltip = PALETTE_TOOLTIP if over_icon else None

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.icon_hover = event.x < ICON_WIDTH and self.app.ENABLE_COMMAND_PALETTE

    def on_leave(self) -> None:
        self.icon_hover = False

    async def on_click(self, event: events.Click) -> None:
        event.stop()
        if event.x < ICON_WIDTH:
            if self.app.ENABLE_COMMAND_PALETTE:
                await self.run_action("app.command_palette")
        else:
            self.toggle_class("-tall")

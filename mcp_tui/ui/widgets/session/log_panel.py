"""The log panel: ``notifications/message`` and server stderr, written in batches.

Server logs can arrive a thousand a second. The panel gets one batch per flush and writes it as a
single Rich ``Text`` (one ``RichLog.write``) and keeps at most :attr:`LogPanel.max_lines` lines.

A flush draws only what a person can read before the next one: the newest lines, at most about
twice the panel's visible height and :data:`BATCH_CHARS` characters. Wrapping and styling cost
about a millisecond per long line, so drawing a whole 2,000-line batch held the event loop long
enough for keys to wait. The rest is counted in one "N log lines dropped from view" line; every
message is still in the ``--log`` traffic file and every stderr line in the server's stderr log.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from rich.text import Text
from textual import events

from mcp_tui.process.startup import attrs_unseen
from mcp_tui.session.events import LogReceived, StderrReceived

with attrs_unseen():  # rich.pretty would load attrs only for what we never print
    from textual.widgets import RichLog
from mcp_tui.ui.contrast import readable
from mcp_tui.ui.json_preview import json_preview
from mcp_tui.ui.literal import literal_line, literal_text, literal_text_line
from mcp_tui.ui.render import clip
from mcp_tui.ui.shown_names import shown_name

#: Log levels -> the theme colour they are drawn in (``readable`` keeps it only at AA contrast).
LEVEL_COLOR = {
    "debug": "",
    "info": "text-primary",
    "notice": "text-primary",
    "warning": "text-warning",
    "error": "text-error",
    "critical": "text-error",
    "alert": "text-error",
    "emergency": "text-error",
}


#: Lines per flush written at most, whatever the panel's height; older lines are counted.
BATCH_LINES = 400
#: Lines per flush always allowed (the panel may not be laid out yet, or be very short).
MIN_BATCH_LINES = 20
#: Characters per flush written at most: wrapping and rendering cost about a millisecond per
#: long line, so a flood of long (hostile) lines would otherwise hold the event loop for
#: hundreds of milliseconds per flush and keys would wait behind it.
BATCH_CHARS = 24_000


#: What the panel says until the first line arrives (an empty box says nothing of its purpose).
EMPTY_TEXT = (
    "Nothing logged yet. A server's log messages (notifications/message) and what it writes to "
    "its stderr appear here; Log level in the palette (Ctrl+P) chooses which levels it sends."
)


def clock(at: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(at))


#: Characters of one log message's data shown in the panel.
DATA_CHARS = 2000


def log_data_text(data: object, limit: int = DATA_CHARS) -> str:
    """A log notification's ``data`` as text: strings as they are, anything else as JSON; at
    most ``limit`` characters of JSON are made (and one more when there is more), so a huge
    object costs no more than what is shown."""
    if isinstance(data, str):
        return data
    text, cut = json_preview(data, limit=limit)
    return text + ("…" if cut else "")


#: Lines that open a Python traceback in a server's stderr.
TRACEBACK_STARTS = (
    "Traceback (most recent call last)",
    "Exception in thread",
    "Stack (most recent",
)


def continuation(line: str) -> Text:
    """A line that belongs to the entry above it (a traceback's body): indented under it."""
    text = Text("         │ ", end="")
    text.append_text(literal_text_line(line, limit=2000))
    return text


def log_line(event: LogReceived | StderrReceived, levels: Mapping[str, str] | None = None) -> Text:
    """One log entry as literal Rich text (time, server, level, logger, data).

    Everything is in the theme's foreground (Rich's ``style=`` argument of ``Text`` would be the
    base style of the whole line: a grey time stamp made the whole line grey); only the level
    word has a colour, ``levels`` (level -> style) as the panel chose it for the theme.
    """
    if isinstance(event, StderrReceived):
        line = Text.assemble(("stderr", "italic"), "   ", end="")
        line.append_text(literal_text_line(shown_name(event.server), limit=30, style="bold"))
        line.append(" ")
        line.append_text(literal_text_line(event.line, limit=2000))
        return line
    level = event.level.lower() if isinstance(event.level, str) else "info"
    line = Text(clock(event.at) + " ", end="")
    line.append_text(literal_text_line(shown_name(event.server), limit=30, style="bold"))
    line.append(" ")
    style = (levels or {}).get(level, "bold")
    line.append_text(literal_text_line(level.upper(), limit=9, style=style))
    if event.logger:
        line.append(" ")
        line.append_text(literal_text_line(event.logger, limit=40, style="italic"))
    line.append(": ")
    shown, _ = clip(log_data_text(event.data), chars=DATA_CHARS, lines=10)
    line.append_text(literal_text(shown, limit=None))
    return line


class LogPanel(RichLog):
    """Server logs and stderr, newest at the bottom.

    RichLog wraps each write once, at the width it has then, and never again. Two things made
    that wider than what is shown: its ``min_width`` (78 columns, more than an 80-column panel
    holds inside its border) and the scrollbar, which appears after the first screenful and takes
    a column from lines already wrapped. The character at each wrap point, and the last one of a
    line exactly as wide as the panel, were then hidden. So: no minimum width, and the
    scrollbar's column is kept from the start (``scrollbar-gutter: stable``).
    """

    DEFAULT_CSS = """
    LogPanel {
        scrollbar-gutter: stable;
    }
    """

    def __init__(self, *, max_lines: int = 2000, id: str | None = None) -> None:
        super().__init__(
            max_lines=max_lines, min_width=1, wrap=True, markup=False, highlight=False, id=id
        )
        self.border_title = "Log"
        self.lines_written = 0
        #: Lines counted in "not shown" summaries so far (tests and the flood benchmark read it).
        self.lines_not_shown = 0
        self._level_styles: tuple[str, dict[str, str]] | None = None
        #: Per server: a stderr traceback is being written (its next lines join it).
        self._in_traceback: dict[str, bool] = {}
        #: :data:`EMPTY_TEXT` is shown (cleared by the first batch).
        self.empty_shown = False

    def on_mount(self) -> None:
        self.watch(self.screen, "maximized", self._maximized_changed, init=False)
        if not self.lines_written:
            self._show_empty()

    def on_resize(self, event: events.Resize) -> None:
        if self.empty_shown:  # RichLog wraps a line once, at the width it has then
            self._show_empty()

    def _show_empty(self) -> None:
        width = self.scrollable_content_region.width
        self.clear()
        self.write(Text(EMPTY_TEXT, style="dim italic"), width=width if width > 0 else None)
        self.empty_shown = True

    def _maximized_changed(self, maximized: object) -> None:
        """Full screen, the footer is hidden: the title says how to come back."""
        self.border_title = "Log · full screen (L or Esc: back)" if maximized is self else "Log"

    def _continuations(self, events: Sequence[LogReceived | StderrReceived]) -> list[bool]:
        """For each event: does it continue the entry above it (a stderr traceback's body and
        its final exception line)? The state carries over between flushes, per server."""
        flags: list[bool] = []
        for event in events:
            if not isinstance(event, StderrReceived):
                flags.append(False)
                continue
            line = event.line
            inside = self._in_traceback.get(event.server, False)
            if line.startswith(TRACEBACK_STARTS):
                self._in_traceback[event.server] = True
                flags.append(False)
            elif inside and line[:1] in (" ", "\t"):
                flags.append(True)
            elif inside and line.strip():
                flags.append(True)  # "ValueError: boom": the traceback's last line
                self._in_traceback[event.server] = False
            else:
                self._in_traceback[event.server] = False
                flags.append(False)
        return flags

    def show_stderr_files(self, paths: Sequence[Path]) -> None:
        """Say where server stderr is written in full (the panel keeps only recent lines)."""
        if not paths:
            return
        home = str(Path.home())
        shown = [str(p).replace(home, "~", 1) if str(p).startswith(home) else str(p) for p in paths]
        if len(shown) == 1:
            text = f"stderr file: {shown[0]}"
        else:
            text = f"stderr files: {Path(shown[0]).parent!s}/ ({len(shown)})"
        self.border_subtitle = literal_line(text, limit=300)

    def level_styles(self) -> dict[str, str]:
        """Level -> Rich style in the current theme, each colour kept only at AA contrast."""
        theme = self.app.theme
        cached = self._level_styles
        if cached is not None and cached[0] == theme:
            return cached[1]
        variables = self.app.get_css_variables()
        styles = {
            level: "bold " + readable(variables, name) if name else "bold"
            for level, name in LEVEL_COLOR.items()
        }
        self._level_styles = (theme, styles)
        return styles

    def batch_lines(self) -> int:
        """Lines one flush may draw: about two screens of this panel (what can be read)."""
        visible = self.scrollable_content_region.height
        return min(BATCH_LINES, max(MIN_BATCH_LINES, 2 * visible))

    def add_batch(self, events: Sequence[LogReceived | StderrReceived], dropped: int = 0) -> None:
        """Write one flush worth of log lines as a single renderable.

        ``dropped`` lines never reached the panel (the event buffer overflowed); they are counted
        together with the lines this flush leaves out.
        """
        if not events and not dropped:
            return
        lines: list[Text] = []
        budget = BATCH_CHARS
        levels = self.level_styles()
        shown = events[-self.batch_lines() :]
        joined = self._continuations(shown)
        for event, joins in zip(reversed(shown), reversed(joined), strict=True):
            # The newest lines matter most; a traceback's lines stay under its first line.
            if joins and isinstance(event, StderrReceived):
                line = continuation(event.line)
            else:
                line = log_line(event, levels)
            budget -= len(line)
            if budget < 0 and lines:
                break
            lines.append(line)
        not_shown = dropped + len(events) - len(lines)
        self.lines_not_shown += not_shown
        text = Text(end="")
        if not_shown:
            text.append(
                f"… {not_shown:,} log line{'' if not_shown == 1 else 's'} dropped from view "
                "(not shown: too many at once; the --log file and the stderr log keep them all)",
                style="italic",
            )
        for line in reversed(lines):
            if text:
                text.append("\n")
            text.append_text(line)
        if self.empty_shown:
            self.empty_shown = False
            self.clear()
        self.write(text)
        self.lines_written += len(lines)

"""What a Pilot-driven app writes to the terminal, kept for a test to read (not a test module).

Textual's headless driver, which ``App.run_test`` uses, writes nothing: the app does not even
render its frames to terminal sequences when the driver says it is headless. :func:`recording`
swaps in a driver that says it is not, so every frame goes through the real path
(``App._display``: the compositor's segments rendered by the console into one string of text and
escape sequences) and lands in a list instead of a file descriptor. What a real terminal would
get is exactly that string, UTF-8 encoded.

:func:`leaked_controls` reads it back: Textual's own sequences (colours, cursor moves, the
synchronised-update and pointer-shape modes) are taken out, and any control character left,
ESC, BEL, C1 (U+009B, the one-byte CSI) or a newline in the middle of a row, came from the
content of a widget.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import textual.drivers.headless_driver as headless_driver
from textual.app import App

_HeadlessDriver = headless_driver.HeadlessDriver


class RecordingDriver(_HeadlessDriver):
    """A headless driver that lets the app render and keeps what it would have written."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.written: list[str] = []

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        self.written.append(data)

    def flush(self) -> None:
        pass


@contextmanager
def recording(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Apps run with ``run_test`` inside this block render to a :class:`RecordingDriver`."""
    with monkeypatch.context() as patch:
        patch.setattr(headless_driver, "HeadlessDriver", RecordingDriver)
        yield


def written(app: App[object]) -> str:
    """Everything ``app`` has written to its terminal so far."""
    driver = app._driver
    assert isinstance(driver, RecordingDriver), "run the app inside recording()"
    return "".join(driver.written)


#: Textual's own sequences: SGR colours, cursor moves, private modes, OSC 22 (pointer shape).
_OWN = re.compile(r"\x1b\[[0-9;]*m|\x1b\[\?[0-9;]*[hl]|\x1b\]22;[a-z-]*\x07")
_MOVE = re.compile(r"\x1b\[\d+;\d+H")


def _is_control(ch: str) -> bool:
    code = ord(ch)
    return code < 0x20 or 0x7F <= code <= 0x9F


def leaked_controls(output: str) -> list[str]:
    """Every control character in ``output`` that is not part of Textual's own sequences, with a
    little context. Textual ends each row it draws with one newline before the next cursor move;
    any other newline was drawn by a widget's content."""
    leaks: list[str] = []
    for chunk in _MOVE.split(output):
        text = _OWN.sub("", chunk)
        if text.endswith("\n"):
            text = text[:-1]
        for at, ch in enumerate(text):
            if _is_control(ch):
                leaks.append(f"{ch!r} in {text[max(0, at - 15) : at + 15]!r}")
    return leaks


def shown_text(output: str) -> str:
    """``output`` without Textual's sequences: the characters drawn, row after row."""
    return _OWN.sub("", _MOVE.sub("\n", output))

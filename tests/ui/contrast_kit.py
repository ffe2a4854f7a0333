"""WCAG contrast of what a widget actually draws (not a test module: no ``test_`` prefix).

Reads the colours of each rendered segment (Textual has already resolved the theme's variables,
tints and dimming into plain RGB) and computes the WCAG 2.x contrast ratio of its text against its
background. AA asks 4.5:1 for normal text.
"""

from __future__ import annotations

from collections.abc import Iterator

from rich.color import Color
from textual.strip import Strip
from textual.widget import Widget

#: WCAG 2.x AA for normal text.
AA = 4.5


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def luminance(color: Color) -> float:
    red, green, blue = color.get_truecolor()
    return 0.2126 * _channel(red) + 0.7152 * _channel(green) + 0.0722 * _channel(blue)


def ratio(foreground: Color, background: Color) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    light, dark = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def text_contrasts(strip: Strip) -> Iterator[tuple[str, float]]:
    """Each segment with visible text and its contrast ratio."""
    for segment in strip:
        style = segment.style
        if not segment.text.strip() or style is None:
            continue
        foreground, background = style.color, style.bgcolor
        assert foreground is not None and background is not None, segment
        if style.reverse:
            foreground, background = background, foreground
        yield segment.text, ratio(foreground, background)


def widget_contrasts(widget: Widget) -> list[tuple[str, float]]:
    """Every text run of every line ``widget`` draws now, with its contrast ratio."""
    found: list[tuple[str, float]] = []
    for y in range(widget.size.height):
        found.extend(text_contrasts(widget.render_line(y)))
    return found

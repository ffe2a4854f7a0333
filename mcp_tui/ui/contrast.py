"""Colours that stay readable in any theme: WCAG contrast, and a theme colour or the foreground.

Rich ``Text`` (what ``RichLog`` draws) cannot name Textual's theme variables, and ANSI names such
as ``bright_black`` or ``yellow`` drew the log panel at 2.4:1 in the default theme and worse in
the light one. Widgets that build Rich text pick their colours here, from the current theme,
keeping a theme colour only where it reads at WCAG AA (4.5:1) on the widget's background.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual.color import Color, ColorParseError

#: WCAG 2.x level AA for normal text.
AA = 4.5


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def luminance(color: Color) -> float:
    """WCAG relative luminance (0 black to 1 white)."""
    return 0.2126 * _channel(color.r) + 0.7152 * _channel(color.g) + 0.0722 * _channel(color.b)


def contrast_ratio(first: Color, second: Color) -> float:
    """The WCAG contrast ratio of two colours, 1 to 21."""
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def readable(
    variables: Mapping[str, str],
    name: str,
    *,
    background: str = "surface",
    fallback: str = "foreground",
) -> str:
    """The theme variable ``name`` as a hex colour if it reads at AA on ``background``, else the
    ``fallback`` variable's colour (the theme's foreground reads on its own surfaces)."""
    try:
        back = Color.parse(variables[background])
        chosen = Color.parse(variables[name])
    except (KeyError, ColorParseError):
        return Color.parse(variables[fallback]).hex
    if contrast_ratio(chosen, back) >= AA:
        return chosen.hex
    return Color.parse(variables[fallback]).hex

"""Where a tool form's values come from, said above the form, and the question F3 asks.

A form filled in from the tool's last call (:mod:`mcp_tui.schema.arguments.last_sent`) must never
be a trap: the line says where the values came from and that F3 gives the schema's defaults (and
then, that F3 gives the last call's values back); when remembered values were dropped (the schema
changed, or they no longer validate), it says why the form shows the defaults.
"""

from __future__ import annotations

from textual.content import Content

from mcp_tui.schema.arguments.last_sent import Prefill
from mcp_tui.ui.literal import literal
from mcp_tui.ui.screens.confirm import ConfirmScreen


def origin_text(prefill: Prefill, remembered: bool) -> Content:
    """The line for a form showing the remembered values (``remembered``) or the defaults; the
    note why not, when there is nothing to offer; literal text (the note quotes the schema)."""
    if prefill.label is None:
        return literal(prefill.note or "", limit=600)
    if remembered:
        return literal(f"Values {prefill.label} · F3: the defaults")
    return literal(f"The defaults · F3: the values {prefill.label}")


def has_line(prefill: Prefill) -> bool:
    """Whether there is a line at all (no last call and nothing dropped: none)."""
    return bool(prefill.label or prefill.note)


def confirm_restart(prefill: Prefill, remembered: bool) -> ConfirmScreen:
    """F3 after something was typed: replacing it loses it, so ask first."""
    where = f"the values {prefill.label}" if remembered else "the defaults"
    return ConfirmScreen(
        f"Start from {where}?",
        "What you typed will be lost. (Esc or n: keep the form.)",
        yes="Replace",
        no="Keep the form",
    )

"""The wire in two lines, under the form: what a small screen shows while the form stays usable.

At 80x24 the whole wire (``wire_panel.py``) has no room beside the form, and over it the form is
gone, while the tour's note says "change one and watch the wire". So a screen that is asked to
split (the tour, ``wire_split``) keeps the form and shows this under it: the focused field's part
of what Ctrl+S sends (or what stops it), and that field's property as received. F6 shows the
whole wire over the form, and back.

Pure text: it is given the panel's state (the answer as computed for Ctrl+S, the errors that stop
it, the received JSON's lines with the property each belongs to); every string in it is already
inert JSON text (``untrusted.json_text``) or passes through ``one_line``, and goes into literal
``Content``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from textual.content import Content

from mcp_tui.untrusted import json_text, one_line

#: Characters of each line at most (a line wraps at most once at 80 columns).
LINE = 110


def summary(
    sends: Mapping[str, Any] | None,
    blocked: Mapping[str, str],
    focused: str | None,
    lines: Sequence[tuple[str, str | None]],
    method: str,
) -> Content:
    """Two lines: ``→`` what Ctrl+S sends now (about the focused field, when one is), ``←`` the
    focused field's property as received (else the params, cut)."""
    return Content("\n").join([_sends(sends, blocked, focused), _received(lines, focused, method)])


def _sends(
    sends: Mapping[str, Any] | None, blocked: Mapping[str, str], focused: str | None
) -> Content:
    if blocked:
        name, why = next(iter(blocked.items()))
        if focused is not None and focused in blocked:
            name, why = focused, blocked[focused]
        more = f" (+{len(blocked) - 1} more)" if len(blocked) > 1 else ""
        text = f"✗ nothing is sent: Ctrl+S stops at {one_line(name, limit=40)}: "
        text += one_line(why, limit=LINE) + more
        return Content.styled(text, "$text-error")
    if sends is None:
        return Content("")
    content = sends.get("content")
    if not isinstance(content, Mapping) or focused is None:
        return Content.assemble(("→ Ctrl+S sends ", "bold"), _cut(json_text(dict(sends))))
    count = f"{len(content)} field{'' if len(content) == 1 else 's'}"
    head = f"→ Ctrl+S sends {one_line(str(sends.get('action')), limit=20)} "
    if focused in content:
        pair = f"{json_text(focused)}: {json_text(content[focused])}"
        return Content.assemble((head, "bold"), _cut(pair), (f"  ({count} in all)", "dim"))
    return Content.assemble(
        (head, "bold"),
        _cut(f"without {json_text(focused)} (empty: left out)"),
        (f"  ({count})", "dim"),
    )


def _received(lines: Sequence[tuple[str, str | None]], focused: str | None, method: str) -> Content:
    mine = [line.strip() for line, owner in lines if owner is not None and owner == focused]
    where = one_line(method, limit=80)
    if focused is None or not mine:
        body = " ".join(line.strip() for line, _ in lines)
        return Content.assemble((f"← {where} ", "dim bold"), _cut(body))
    body = " ".join(mine).removesuffix(",")
    return Content.assemble((f"← {where}: ", "dim bold"), _cut(body))


def _cut(text: str) -> Content:
    """Already inert text (``json_text``), shortened to :data:`LINE` characters."""
    return Content(text if len(text) <= LINE else text[: LINE - 1] + "…")

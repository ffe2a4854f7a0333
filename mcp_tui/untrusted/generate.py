"""Writes ``untrusted/table.py``, the code points :func:`~mcp_tui.untrusted.is_unsafe_char` refuses.

Kept apart from :mod:`mcp_tui.untrusted` so the table (plain data) imports nothing and the helper
never loads this maintenance code. Run ``python -m mcp_tui.untrusted.generate >
mcp_tui/untrusted/table.py`` after a Python upgrade changes ``unicodedata``'s version
(``tests/test_untrusted.py`` says when).
"""

from __future__ import annotations

import textwrap
import unicodedata

from mcp_tui.untrusted import unsafe_ranges


def render_table() -> str:
    """The source of ``mcp_tui/untrusted/table.py`` for this Python's Unicode version."""
    items = " ".join(f"{a:x}" if a == b else f"{a:x}-{b:x}" for a, b in unsafe_ranges())
    body = textwrap.fill(items, 95, break_on_hyphens=False)
    return _TABLE_TEMPLATE.format(version=unicodedata.unidata_version, ranges=body)


_TABLE_TEMPLATE = '''"""The code points ``untrusted.is_unsafe_char`` refuses, as ranges (generated).

``visible`` escapes non-ASCII text with one regular expression built from this table (~8 ms, once)
instead of asking ``unicodedata`` about every character; computing the table takes ~0.4 s, too
slow for start-up. It depends on the Unicode version of ``unicodedata`` (unassigned code points,
category Cn): ``untrusted`` uses it only when :data:`UNIDATA_VERSION` matches and otherwise computes
the ranges itself. ``tests/test_untrusted.py`` checks every code point against the per-character
rule. Regenerate with ``python -m mcp_tui.untrusted.generate > mcp_tui/untrusted/table.py``.
"""

from __future__ import annotations

UNIDATA_VERSION = "{version}"

#: Hex code points and inclusive ranges, separated by white space.
RANGES = """
{ranges}
"""
'''


if __name__ == "__main__":  # pragma: no cover - maintenance
    print(render_table(), end="")

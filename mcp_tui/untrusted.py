"""The one place that turns server-controlled text into something safe to display.

Every string a server controls (messages, titles, descriptions, option labels, tool results, log
data, error messages, stderr) is untrusted. Textual writes control bytes to the terminal verbatim
(an OSC 52 sequence in a label writes the clipboard, OSC 0 renames the window), so escaping markup
is not enough: control characters must be replaced by visible escapes *before* display. This module
is pure (no Textual); ``mcp_tui.ui.text`` wraps its output in literal ``Content`` so it is never
parsed as markup either.
"""

from __future__ import annotations

import unicodedata

#: Longest text shown inline before it is cut (the full text stays reachable elsewhere).
DEFAULT_LIMIT = 4000

# Characters that are not C0/C1 controls but still change how text is laid out or read:
# bidi embeddings/overrides/isolates, marks, zero-width characters, separators and the BOM.
_INVISIBLE = frozenset(
    [
        *(0x061C, 0x115F, 0x1160, 0x180E, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2028, 0x2029),
        *range(0x202A, 0x202F),
        *range(0x2060, 0x2070),
        *(0x3164, 0xFEFF, 0xFFA0, 0xFFF9, 0xFFFA, 0xFFFB),
    ]
)

_NAMED = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r", 0x1B: "\\e"}


def _escape(code: int) -> str:
    if code in _NAMED:
        return _NAMED[code]
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


# For pure-ASCII text (most of what servers send) the only unsafe characters are C0 and DEL:
# ``str.translate`` escapes them in C, ~70x faster than the per-character loop (log floods).
_ASCII_TABLE = {code: _escape(code) for code in [*range(0x20), 0x7F]}
_ASCII_TABLE_KEEP = {k: v for k, v in _ASCII_TABLE.items() if k not in (0x09, 0x0A)}


def is_unsafe_char(ch: str) -> bool:
    """True for a character that must never reach the terminal as itself."""
    code = ord(ch)
    if code < 0x20 or 0x7F <= code <= 0x9F:
        return True
    if code in _INVISIBLE:
        return True
    category = unicodedata.category(ch)
    # Cf: other format characters (soft hyphen aside, all invisible); Cs: lone surrogates;
    # Co/Cn: private use and unassigned code points that terminals render unpredictably.
    return category in ("Cf", "Cs", "Co", "Cn") and code != 0xAD


def visible(
    text: object, *, limit: int | None = DEFAULT_LIMIT, keep_newlines: bool = True
) -> str:
    """Return ``text`` with every unsafe character replaced by a visible escape.

    Newlines (and tabs) are kept when ``keep_newlines`` is true, so multi-line messages stay
    readable; everything else that is a control, format, bidi or zero-width character becomes
    ``\\e``, ``\\x9b``, ``\\u202e`` and so on. Text longer than ``limit`` characters is cut with a
    note saying how much was left out. Non-strings are shown through ``str()``.
    """
    if not isinstance(text, str):
        text = str(text)
    cut = 0
    if limit is not None and len(text) > limit:
        cut = len(text) - limit
        text = text[:limit]
    if text.isascii():
        result = text.translate(_ASCII_TABLE_KEEP if keep_newlines else _ASCII_TABLE)
        return result + f"… [{cut:,} more characters]" if cut else result
    out: list[str] = []
    for ch in text:
        if keep_newlines and ch in "\n\t":
            out.append(ch)
        elif is_unsafe_char(ch):
            out.append(_escape(ord(ch)))
        else:
            out.append(ch)
    result = "".join(out)
    if cut:
        result += f"… [{cut:,} more characters]"
    return result


def one_line(text: object, *, limit: int | None = 200) -> str:
    """Like :func:`visible` for places that hold one line (titles, labels, option names)."""
    return visible(text, limit=limit, keep_newlines=False)

"""The one place that turns server-controlled text into something safe to display.

Every string a server controls (messages, titles, descriptions, option labels, tool results, log
data, error messages, stderr) is untrusted. Textual writes control bytes to the terminal verbatim
(an OSC 52 sequence in a label writes the clipboard, OSC 0 renames the window), so escaping markup
is not enough: control characters must be replaced by visible escapes *before* display. This module
is pure (no Textual); ``mcp_tui.ui.literal`` wraps its output in literal ``Content`` so it is never
parsed as markup either.
"""

from __future__ import annotations

import bisect
import itertools
import json
import re
import unicodedata
from collections.abc import Callable
from typing import Any

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
    # Cf: other format characters, all invisible or shown at the terminal's whim (the soft hyphen
    # too: "pay\u00adpal" reads as "paypal" or "pay-pal" depending on the terminal); Cs: lone
    # surrogates; Co/Cn: private use and unassigned code points that terminals render
    # unpredictably.
    return category in ("Cf", "Cs", "Co", "Cn")


def unsafe_ranges() -> list[tuple[int, int]]:
    """Every code point :func:`is_unsafe_char` refuses, as inclusive ranges (slow: ~0.4 s)."""
    ranges: list[tuple[int, int]] = []
    flags = [is_unsafe_char(chr(code)) for code in range(0x110000)]
    for unsafe, run in itertools.groupby(range(0x110000), key=flags.__getitem__):
        if unsafe:
            codes = list(run)
            ranges.append((codes[0], codes[-1]))
    return ranges


def _table_ranges() -> list[tuple[int, int]]:
    """The generated table when it matches this ``unicodedata``; otherwise computed (once)."""
    from mcp_tui.untrusted import table as untrusted_table

    if unicodedata.unidata_version != untrusted_table.UNIDATA_VERSION:
        return unsafe_ranges()
    ranges = []
    for item in untrusted_table.RANGES.split():
        low, _, high = item.partition("-")
        ranges.append((int(low, 16), int(high or low, 16)))
    return ranges


def _unsafe_run_pattern(ranges: list[tuple[int, int]], keep: str) -> re.Pattern[str]:
    """A regex matching a run of unsafe BMP characters (except those in ``keep``) or of astral
    characters.

    Python's ``re`` tests a character against a class's BMP part in a bitmap, but against each
    astral range in turn: with ~300 of them the class made ``visible`` slower than the loop. So
    astral characters (emoji, mostly) are all matched and sorted out by :class:`_Escaper`.
    """
    parts: list[str] = []
    kept = sorted(ord(ch) for ch in keep)
    for low, high in ranges:
        high = min(high, 0xFFFF)
        start = low
        for code in kept:  # split a range around each kept character
            if start <= code <= high:
                if start < code:
                    parts.append(f"\\u{start:04x}-\\u{code - 1:04x}")
                start = code + 1
        if start <= high:
            parts.append(f"\\u{start:04x}-\\u{high:04x}")
    return re.compile("[" + "".join(parts) + "\\U00010000-\\U0010ffff]+")


class _Escaper:
    """Replaces the unsafe characters of a text with one regex pass (see :func:`visible`)."""

    def __init__(
        self, ranges: list[tuple[int, int]], keep: str, show: Callable[[int], str]
    ) -> None:
        self._pattern = _unsafe_run_pattern(ranges, keep)
        self._show = show
        astral = [(low, high) for low, high in ranges if high > 0xFFFF]
        self._astral_starts = [max(low, 0x10000) for low, _ in astral]
        self._astral_ends = [high for _, high in astral]

    def __call__(self, text: str) -> str:
        return self._pattern.sub(self._escaped_run, text)

    def _escaped_run(self, match: re.Match[str]) -> str:
        return "".join([self._shown(ch) for ch in match.group()])

    def _shown(self, ch: str) -> str:
        code = ord(ch)
        if code <= 0xFFFF:  # the pattern matched it as unsafe
            return self._show(code)
        at = bisect.bisect_right(self._astral_starts, code) - 1
        return self._show(code) if at >= 0 and code <= self._astral_ends[at] else ch


_escapers: dict[tuple[str, str], _Escaper] = {}
_ranges: list[list[tuple[int, int]]] = []


def _escaper(keep: str, shown: str = "escape") -> _Escaper:
    """The escaper keeping the characters of ``keep``, built on first use (from the table: ~8 ms
    for the first one). ``shown`` says how an unsafe character is written: ``"escape"``
    (:func:`visible`), ``"picture"`` (:func:`inert`) or ``"json"`` (:func:`json_text`)."""
    escaper = _escapers.get((keep, shown))
    if escaper is None:
        if not _ranges:
            _ranges.append(_table_ranges())
        show = {"escape": _escape, "picture": _picture, "json": _json_escape}[shown]
        escaper = _escapers[keep, shown] = _Escaper(_ranges[0], keep, show)
    return escaper


def visible(text: object, *, limit: int | None = DEFAULT_LIMIT, keep_newlines: bool = True) -> str:
    """Return ``text`` with every unsafe character replaced by a visible escape.

    Newlines (and tabs) are kept when ``keep_newlines`` is true, so multi-line messages stay
    readable; everything else that is a control, format, bidi or zero-width character becomes
    ``\\e``, ``\\x9b``, ``\\u202e`` and so on. Text longer than ``limit`` characters is cut with a
    note saying how much was left out, unless the note would be as long as what it replaces
    (then the whole text takes no more room). Non-strings are shown through ``str()``.
    """
    if not isinstance(text, str):
        text = str(text)
    cut = 0
    if limit is not None and len(text) > limit:
        cut = len(text) - limit
        if cut > len(_cut_note(cut)):
            text = text[:limit]
        else:
            cut = 0
    if text.isascii():
        result = text.translate(_ASCII_TABLE_KEEP if keep_newlines else _ASCII_TABLE)
    else:
        # One C-level regex pass over a class of every unsafe code point: ~15x faster than
        # asking ``is_unsafe_char`` about each character, and exactly the same set (tested).
        result = _escaper("\n\t" if keep_newlines else "")(text)
    return result + _cut_note(cut) if cut else result


def _cut_note(cut: int) -> str:
    return f"… [{cut:,} more characters]"


def one_line(text: object, *, limit: int | None = 200) -> str:
    """Like :func:`visible` for places that hold one line (titles, labels, option names)."""
    return visible(text, limit=limit, keep_newlines=False)


def clipboard_text(text: str) -> str:
    """What mcp-tui puts on the clipboard for ``text``: :func:`visible`, whole (no cut), with
    its newlines and tabs.

    A terminal writes the clipboard from an OSC 52 sequence, and a person pastes it into a shell,
    an editor or a chat: a raw U+009B (8-bit CSI), an ESC or an RLO (U+202E) pasted there does
    what it does on a terminal, or reorders what the reader sees. So every copy escapes C0
    (``\\e``), C1 (``\\x9b``), bidi, zero-width and the other characters :func:`is_unsafe_char`
    refuses. Text already safe is unchanged: JSON from :func:`json_text` (which writes them as
    ``\\u009b``, so the copy parses back to the same value), and a URL the consent screen checked
    (it refuses every such character), so that URL is copied exactly as shown.
    """
    return visible(text, limit=None, keep_newlines=True)


# --- a command line to copy ----------------------------------------------------------------------


def command_line(*words: object) -> str:
    """A command line printed for a person to paste into a shell: every word quoted for a POSIX
    shell (``shlex.quote``), so a tool named ``ro$(touch X)``, a path with a space or a name
    starting with ``-`` stays the one word it is and runs nothing, and every unsafe character
    made visible first (:func:`one_line`), so the line drives no terminal either.

    Every command mcp-tui prints to be copied is built here (a fuzz finding's reproduce line,
    "saved as a test: mcp-tui test FILE", a hint naming a configured server). A word that is
    made visible no longer holds the character it escaped; the line is then safe rather than
    exact, which only a server's control characters can cause.
    """
    import shlex

    return " ".join(shlex.quote(one_line(word, limit=None)) for word in words)


# --- one character for one: values in editable widgets ------------------------------------------

#: What :func:`inert` draws for an unsafe character that has no picture of its own.
REPLACEMENT = "\ufffd"


def _picture(code: int) -> str:
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: ␀ … ␟, ␛ for ESC, ␊ for LF
    if code == 0x7F:
        return "\u2421"  # ␡
    return REPLACEMENT


_INERT_ASCII: dict[str, dict[int, str]] = {}


def inert(text: str, *, keep: str = "") -> str:
    """``text`` with every unsafe character replaced by ONE visible character, for a widget that
    shows a value it keeps (an input prefilled from a server's default, an editor's text).

    :func:`visible` writes ``\\e`` for ESC: clear, but two characters for one, so a cursor in the
    value would no longer sit on the character it is shown on. Here the result is exactly as long
    as ``text`` (index for index), so a widget can draw ``inert(value)`` and keep editing
    ``value``: C0 controls and DEL become their control pictures (``␛`` for ESC, ``␊`` for a
    newline, ``␉`` for a tab, ``␡``) and every other unsafe character (C1 controls, bidi and
    other format characters, private-use and unassigned code points) :data:`REPLACEMENT`, ``�``.
    Characters in ``keep`` (only ``"\\t"`` makes sense: an editor that lays tabs out itself) stay.
    """
    if text.isascii():
        table = _INERT_ASCII.get(keep)
        if table is None:
            codes = (code for code in [*range(0x20), 0x7F] if chr(code) not in keep)
            table = _INERT_ASCII[keep] = {code: _picture(code) for code in codes}
        return text.translate(table)
    return _escaper(keep, "picture")(text)


def _json_escape(code: int) -> str:
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # a UTF-16 surrogate pair, as JSON writes an astral character
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def json_text(value: object, **dumps: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, **dumps)`` with every unsafe character written as
    a ``\\uXXXX`` escape: JSON text to put in an editor, readable (accents and scripts as they
    are) and inert, which parses back to exactly ``value``.

    ``json.dumps`` escapes C0 controls itself but writes DEL, C1 controls, bidi and other format
    characters as they are; in a ``TextArea`` a NEL (U+0085) or a line separator even splits the
    line, so the text no longer parsed. Outside strings JSON text is plain ASCII, so each unsafe
    character is inside a string, where its escape means the same character.
    """
    # Newlines only ever come from ``indent`` (inside a string JSON writes ``\n``).
    return _escaper("\n", "json")(json.dumps(value, ensure_ascii=False, **dumps))

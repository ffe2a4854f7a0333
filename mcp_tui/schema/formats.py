"""Text that people type, read exactly: numbers, the four string formats, and ``pattern``.

Decisions (each one shows up in a message, so the user is never surprised):

Numbers
    Surrounding whitespace is ignored (``" 42 "`` is 42). Accepted text is ASCII decimal: an
    optional sign, digits with an optional ``.`` fraction (``.5`` and ``5.`` too), and an optional
    exponent (``1e3``, ``2.5E-3``). Not accepted: ``NaN``, ``inf``, ``0x10``, ``1_000``, ``1,000``,
    non-ASCII digits, or more than :data:`~mcp_tui.schema.limits.MAX_NUMBER_TEXT` characters.
    An *integer* field takes any text whose value is whole (``"4.0"`` and ``"1e3"`` become ``4``
    and ``1000``) and sends a JSON integer; ``"4.5"`` is refused. A *number* field sends an
    integer when the text has no fraction or exponent (``"30"`` → ``30``), otherwise a float
    (``"30.0"`` → ``30.0``, ``"1e3"`` → ``1000.0``), so decimals the user typed are kept. ``-0``
    is sent as ``0`` (``0.0`` for ``-0.0``). Values that overflow a float (``1e400``) or underflow
    to zero (``1e-400``) are refused rather than silently changed.
Formats
    Surrounding whitespace is removed from ``email``, ``uri``, ``date`` and ``date-time`` input.
    ``email``: the ``ajv-formats`` "full" rule (ASCII local part, dotted domain), which is what
    the TypeScript SDK's servers check. ``uri``: RFC 3986 absolute URI: a scheme, then only URI
    characters (non-ASCII and spaces must be %-encoded); ``http``/``https``/``ws``/``wss``/``ftp``
    need a host. ``date``: ``YYYY-MM-DD`` and a real calendar day. ``date-time``: RFC 3339 with
    a UTC offset (``Z`` or ``±HH:MM``); a ``t``/space separator and a lower-case ``z`` are
    normalised and missing seconds become ``:00``. A local time **without** an offset is refused:
    the message shows the same time with the user's local offset (and :func:`with_local_offset`
    gives it to a UI that wants a one-key fix), because guessing a zone silently would send a
    different instant than the user may mean.
``pattern``
    Run only by RE2 (linear time, no backreferences or lookaround), never by Python's ``re``,
    whose backtracking holds the GIL for seconds on ``^(a+)+$``. A pattern RE2 cannot compile is
    refused with a note and not enforced at all.
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from mcp_tui.schema.fields import TextFormat
from mcp_tui.schema.limits import (
    MAX_INTEGER_EXPONENT,
    MAX_NUMBER_TEXT,
    MAX_PATTERN_LENGTH,
    PATTERN_MAX_MEMORY,
)

# Our own expressions are simple, anchored and run on bounded input, so Python's re is fine here.
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
_PLAIN_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)
# What a number looks like while it is being typed: any beginning of the text _NUMBER accepts.
_NUMBER_PREFIX = re.compile(
    r"[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]*)?|\.)?", re.ASCII
)

# ajv-formats "full" email (the rule the TypeScript SDK's servers apply to replies).
_EMAIL = re.compile(
    r"[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
    r"@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?",
    re.ASCII | re.IGNORECASE,
)
MAX_EMAIL_LENGTH = 254

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):(.*)", re.ASCII | re.DOTALL)
_URI_CHARS = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%"
)
_PCT = re.compile(r"%(?![0-9A-Fa-f]{2})", re.ASCII)
_HOST_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp"})

_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", re.ASCII)
_DATE_TIME = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(\.[0-9]+)?)?"
    r"([Zz]|[+-][0-9]{2}:[0-9]{2})?",
    re.ASCII,
)

DATE_FORM = "YYYY-MM-DD"
DATE_TIME_EXAMPLE = "2026-01-31T09:00:00+01:00"


# ---------------------------------------------------------------- numbers


def parse_number_text(text: str, *, integer: bool) -> int | float | None:
    """The exact JSON value of typed number text, or ``None`` when it is not acceptable."""
    s = text.strip()
    if not s or len(s) > MAX_NUMBER_TEXT or not _NUMBER.fullmatch(s):
        return None
    try:
        exact = Decimal(s)
    except InvalidOperation:  # pragma: no cover - the expression above only admits decimals
        return None
    if exact.is_zero():
        return 0 if integer or _PLAIN_INT.fullmatch(s) else 0.0
    if integer:
        if exact.adjusted() > MAX_INTEGER_EXPONENT or exact != exact.to_integral_value():
            return None
        return int(exact)
    if _PLAIN_INT.fullmatch(s):
        return int(s)
    value = float(s)
    if not math.isfinite(value) or value == 0.0:
        return None  # overflow to inf, or a non-zero value that underflowed to 0
    return value


def could_become_number(text: str) -> bool:
    """Whether ``text`` is a number or the beginning of one (``""``, ``"-"``, ``"1."``, ``"2e"``).

    A form says at once when typed text can no longer become a number (``"2,5"``, ``"1.2.3"``),
    without refusing the key: a refused key changes the number (``1.0`` would read ``10``).
    """
    s = text.strip()
    return len(s) <= MAX_NUMBER_TEXT and _NUMBER_PREFIX.fullmatch(s) is not None


#: Integers longer than this many bits (about 300 digits) are refused everywhere: Python refuses
#: to turn ints over 4,300 digits into text, so JSON could not carry them anyway.
MAX_INTEGER_BITS = 1000


def is_huge(value: object) -> bool:
    return isinstance(value, int) and abs(value).bit_length() > MAX_INTEGER_BITS


def format_number(value: int | float) -> str:
    """A number as a person reads it: ``30``, ``95.5``, ``1e+21`` (floats round-trip exactly)."""
    if is_huge(value):
        return "a number with more than 300 digits"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)


def number_to_text(value: int | float) -> str:
    """A default rendered into a text input so that reading it back gives the same JSON value.

    ``30`` → ``"30"``, ``95.5`` → ``"95.5"``, ``30.0`` → ``"30.0"`` (a float stays a float).
    """
    return repr(value) if isinstance(value, float) else str(value)


def is_multiple(value: int | float, step: int | float) -> bool:
    """``multipleOf`` exactly as jsonschema decides it, so our message and its check agree."""
    from fractions import Fraction

    if isinstance(step, float):
        quotient = value / step
        try:
            return int(quotient) == quotient
        except (OverflowError, ValueError):
            return (Fraction(value) / Fraction(step)).denominator == 1
    return not (value % step)


# ---------------------------------------------------------------- formats


def check_format(fmt: TextFormat, text: str) -> tuple[str | None, str | None]:
    """``(value to send, None)`` or ``(None, message)`` for text in one of the spec's formats."""
    s = text.strip()
    if fmt is TextFormat.EMAIL:
        if len(s) <= MAX_EMAIL_LENGTH and _EMAIL.fullmatch(s):
            return s, None
        return None, "Not a valid email address"
    if fmt is TextFormat.URI:
        problem = _uri_problem(s)
        return (s, None) if problem is None else (None, problem)
    if fmt is TextFormat.DATE:
        return _check_date(s)
    return _check_date_time(s)


def _uri_problem(s: str) -> str | None:
    m = _SCHEME.fullmatch(s)
    if m is None:
        return "Not a valid URI: it needs a scheme, like https://example.com"
    scheme, rest = m.group(1).lower(), m.group(2)
    if not rest:
        return "Not a valid URI: nothing after the scheme"
    if any(ch not in _URI_CHARS for ch in rest) or _PCT.search(rest):
        return "Not a valid URI: spaces and non-ASCII characters must be %-encoded"
    if rest.startswith("//"):
        authority = re.split(r"[/?#]", rest[2:], maxsplit=1)[0]
        host = authority.rpartition("@")[2]
        host = host.partition("]")[0] + "]" if host.startswith("[") else host.partition(":")[0]
        if scheme in _HOST_SCHEMES and host in ("", "[]"):
            return "Not a valid URI: the host is missing"
        brackets_outside = rest[2 + len(authority) :]
    else:
        if scheme in _HOST_SCHEMES:
            return f"Not a valid URI: use {scheme}://host/…"
        brackets_outside = rest
    if "[" in brackets_outside or "]" in brackets_outside:
        return "Not a valid URI: [ and ] must be %-encoded outside the host"
    return None


def _real_date(y: str, m: str, d: str) -> date | None:
    try:
        return date(int(y), int(m), int(d))
    except ValueError:
        return None


def _check_date(s: str) -> tuple[str | None, str | None]:
    m = _DATE.fullmatch(s)
    if m is None:
        return None, f"Use the form {DATE_FORM}"
    if _real_date(*m.groups()) is None:
        return None, "Not a real calendar date"
    return s, None


def _check_date_time(s: str) -> tuple[str | None, str | None]:
    m = _DATE_TIME.fullmatch(s)
    if m is None:
        return None, f"Use the form {DATE_TIME_EXAMPLE}"
    y, mo, d, hh, mi, ss, frac, offset = m.groups()
    if _real_date(y, mo, d) is None:
        return None, "Not a real calendar date"
    if int(hh) > 23 or int(mi) > 59 or (ss is not None and int(ss) > 59):
        return None, "Not a real time of day"
    if offset not in (None, "Z", "z") and (int(offset[1:3]) > 23 or int(offset[4:]) > 59):
        return None, "Not a valid UTC offset"
    local = f"{y}-{mo}-{d}T{hh}:{mi}:{ss or '00'}{frac or ''}"
    if offset is None:
        return None, f"Add a time zone, e.g. {local}{_local_offset(local)} (your local time)"
    return local + ("Z" if offset in ("Z", "z") else offset), None


def _local_offset(local: str) -> str:
    try:
        aware = datetime.fromisoformat(local[:19]).astimezone()
    except (ValueError, OverflowError, OSError):
        return "Z"
    offset = aware.utcoffset()
    if offset is None:  # pragma: no cover - astimezone() always sets one
        return "Z"
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def with_local_offset(text: str) -> str | None:
    """A date-time without an offset, completed with the user's local offset; else ``None``.

    For a UI that offers "use my time zone" next to the refusal message.
    """
    m = _DATE_TIME.fullmatch(text.strip())
    if m is None or m.group(8) is not None or _real_date(*m.groups()[:3]) is None:
        return None
    y, mo, d, hh, mi, ss, frac, _ = m.groups()
    if int(hh) > 23 or int(mi) > 59 or (ss is not None and int(ss) > 59):
        return None
    local = f"{y}-{mo}-{d}T{hh}:{mi}:{ss or '00'}{frac or ''}"
    return local + _local_offset(local)


# ---------------------------------------------------------------- pattern


@lru_cache(maxsize=256)
def compile_pattern(pattern: str) -> tuple[Any, str | None]:
    """``(compiled RE2 program, None)`` or ``(None, why it is refused)``.

    RE2 errors are kept off stderr (``log_errors=False``): anything written there would land on
    the Textual screen.
    """
    if len(pattern) > MAX_PATTERN_LENGTH:
        return None, f"longer than {MAX_PATTERN_LENGTH:,} characters"
    import re2

    options = re2.Options()
    options.log_errors = False
    options.max_mem = PATTERN_MAX_MEMORY
    try:
        return re2.compile(pattern, options), None
    except Exception as exc:  # re2.error, or TypeError/ValueError on odd input
        reason = exc.args[0] if exc.args else exc
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        return None, f"the linear-time engine cannot run it ({reason})"


def pattern_matches(pattern: str, text: str) -> bool:
    """JSON Schema semantics: the pattern may match anywhere (it is not implicitly anchored)."""
    program, _ = compile_pattern(pattern)
    return program is None or program.search(text) is not None

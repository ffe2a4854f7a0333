"""Host-name helpers for the URL check: browser number parsing, scripts, registrable domains.

Pure functions, no network: the Public Suffix List is the copy shipped inside the
``publicsuffixlist`` package, loaded once on first use (about 70 ms), never downloaded.
"""

from __future__ import annotations

import functools
import ipaddress
from typing import TYPE_CHECKING

import idna

from mcp_tui.url import lookalikes

if TYPE_CHECKING:
    from publicsuffixlist import PublicSuffixList


def ends_in_number(labels: list[str]) -> bool:
    """WHATWG's "ends in a number": such hosts are parsed as IPv4 addresses by browsers."""
    last = labels[-1]
    if last.isascii() and last.isdigit():
        return True
    return last[:2] == "0x" and all(c in "0123456789abcdef" for c in last[2:])


def _ipv4_number(part: str) -> int | None:
    """WHATWG's IPv4 number parser: ``0x`` hex, leading-zero octal or decimal digits only.

    Python's ``int`` is not it: it takes signs, underscores and white space (``-1`` made the
    address negative and ``ipaddress`` raise).
    """
    if part[:2] in ("0x", "0X"):
        digits, base, allowed = part[2:], 16, "0123456789abcdefABCDEF"
        if not digits:
            return 0
    elif len(part) > 1 and part.startswith("0"):
        digits, base, allowed = part[1:], 8, "01234567"
    else:
        digits, base, allowed = part, 10, "0123456789"
    if not digits or any(c not in allowed for c in digits):
        return None
    try:
        return int(digits, base)
    except ValueError:  # more digits than Python converts (no browser address either)
        return None


def whatwg_ipv4(labels: list[str]) -> ipaddress.IPv4Address | None:
    """How a browser reads a numeric host (``0x7f.1`` is 127.0.0.1), or ``None`` if invalid."""
    if not 1 <= len(labels) <= 4:
        return None
    numbers: list[int] = []
    for part in labels:
        number = _ipv4_number(part)
        if number is None:
            return None
        numbers.append(number)
    if any(n > 255 for n in numbers[:-1]) or numbers[-1] >= 256 ** (5 - len(numbers)):
        return None
    value = numbers[-1]
    for index, n in enumerate(numbers[:-1]):
        value += n << (8 * (3 - index))
    return ipaddress.IPv4Address(value)


def script_warnings(unicode_host: str) -> list[tuple[str, str]]:
    """``(code, text)`` warnings for labels that mix alphabets or only use Latin look-alikes
    (:func:`mcp_tui.url.lookalikes.script_problem`, which judges server names too)."""
    found: list[tuple[str, str]] = []
    for label in unicode_host.split("."):
        problem = lookalikes.script_problem(label)
        if problem is not None:
            code, text = problem
            found.append((code, f"The label {text}"))
    return found


def to_unicode(ascii_host: str) -> str:
    """The display form of an ASCII host (``xn--`` labels decoded); unchanged if not decodable."""
    try:
        return idna.decode(ascii_host) if "xn--" in ascii_host else ascii_host
    except (idna.IDNAError, UnicodeError):
        return ascii_host


@functools.cache
def _public_suffix_list() -> PublicSuffixList:
    """The Public Suffix List bundled with ``publicsuffixlist`` (never downloaded at run time)."""
    from publicsuffixlist import PublicSuffixList

    return PublicSuffixList()


def registrable_domain(ascii_host: str) -> str | None:
    """The registrable domain ("example.co.uk" for "a.example.co.uk"), ``None`` if there is none.

    Private-section suffixes count (``github.io``): ``evil.github.io`` is its own owner.
    """
    if "." not in ascii_host:
        return None
    result = _public_suffix_list().privatesuffix(ascii_host)
    return result if isinstance(result, str) else None

"""The host part of a URL for the URL check (:mod:`mcp_tui.url.check`).

A host is refused when a browser could read it differently from how it is shown: percent-encoded
names, names a browser silently rewrites (full-width letters, other dots, decomposed accents),
names that IDNA2008 and UTS-46 transitional processing send to different hosts (``faß.de`` is
``xn--fa-hia.de`` to one browser and ``fass.de`` to another), invalid IDNA labels, numbers not
written as a plain dotted quad (``0x7f.1`` is 127.0.0.1 to a browser), unusable addresses. What
passes is returned in identity form (ASCII, ``xn--``) beside its displayed (Unicode) form, with
whether it is an IP, loopback or private address.

Pure: no DNS, no network.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from dataclasses import dataclass, field

import idna

from mcp_tui.untrusted import one_line
from mcp_tui.url import host_names

#: DNS limits on the ASCII (``xn--``) form of a host name.
MAX_HOST_LENGTH = 253
MAX_LABEL_LENGTH = 63

_ASCII_LABEL_RE = re.compile(r"[a-z0-9_](?:[a-z0-9_\-]*[a-z0-9_])?")

#: UTS-46's deviation characters and what transitional processing makes of them (ZWJ and ZWNJ
#: are refused earlier, as invisible characters). ``idna`` 3.x no longer does transitional
#: processing, so the difference is computed here.
_DEVIATIONS = {"\u00df": "ss", "\u03c2": "\u03c3", "\u200c": "", "\u200d": ""}


@dataclass
class Findings:
    """What the checks found: reasons to refuse, and warnings to show."""

    reasons: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[tuple[str, str]] = field(default_factory=list)

    def refuse(self, code: str, text: str) -> None:
        self.reasons.append((code, text))

    def warn(self, code: str, text: str) -> None:
        self.warnings.append((code, text))


@dataclass
class Host:
    """A host in identity form (ASCII) and as displayed (Unicode), with what it is."""

    ascii: str = ""
    unicode: str = ""
    is_ip: bool = False
    is_loopback: bool = False
    is_private: bool = False
    trailing_dot: bool = False


def check_host(raw_host: str, found: Findings) -> Host | None:
    """Return the host in identity form, or ``None`` (with a reason) when it must be refused."""
    if not raw_host:
        found.refuse("empty-host", "The URL has no host.")
        return None
    if raw_host.startswith("[") or raw_host.endswith("]"):
        return _check_ipv6(raw_host, found)
    shown = one_line(raw_host, limit=80)
    if "%" in raw_host:
        found.refuse(
            "host-percent",
            f"The host '{shown}' is percent-encoded; browsers decode it, other parsers do not.",
        )
        return None
    if raw_host.isascii():
        ascii_host = raw_host.lower()
    else:
        try:
            ascii_host = idna.encode(raw_host, uts46=True).decode("ascii")
            decoded = idna.decode(ascii_host)
        except (idna.IDNAError, UnicodeError) as exc:
            found.refuse("idna", f"The host '{shown}' is not a valid international name ({exc}).")
            return None
        if decoded != raw_host.lower():
            how = (
                "accents written as separate combining marks"
                if unicodedata.normalize("NFC", raw_host.lower()) == decoded
                else "full-width or compatibility letters, other dots, or ignored characters"
            )
            found.refuse(
                "host-rewritten",
                f"The host '{shown}' contains characters that browsers silently rewrite "
                f"({how}): it would be read as '{one_line(decoded, limit=80)}'.",
            )
            return None
        transitional = _transitional(decoded)
        if transitional is not None and transitional != ascii_host:
            found.refuse(
                "idna-transitional",
                f"The host '{shown}' goes to two different places: {ascii_host} for browsers "
                f"that follow IDNA2008 and {one_line(transitional, limit=80)} for those that "
                "use UTS-46 transitional processing (older browsers and libraries). It is "
                "refused: which one is meant cannot be told.",
            )
            return None
    trailing_dot = ascii_host.endswith(".") and len(ascii_host) > 1
    bare = ascii_host[:-1] if trailing_dot else ascii_host
    labels = bare.split(".")
    if host_names.ends_in_number(labels):
        return _check_numeric_host(raw_host, bare, trailing_dot, found)
    if not _check_labels(shown, bare, labels, found):
        return None
    unicode_host = host_names.to_unicode(bare)
    loopback = bare == "localhost" or bare.endswith(".localhost")
    dot = "." if trailing_dot else ""
    return Host(bare + dot, unicode_host + dot, is_loopback=loopback, trailing_dot=trailing_dot)


def _transitional(unicode_host: str) -> str | None:
    """The ASCII form UTS-46 *transitional* processing gives ``unicode_host`` (already mapped),
    or ``None`` when it has no deviation character (then both forms are the same)."""
    if not any(ch in _DEVIATIONS for ch in unicode_host):
        return None
    mapped = "".join(_DEVIATIONS.get(ch, ch) for ch in unicode_host)
    try:
        return idna.encode(mapped, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError):
        return one_line(mapped, limit=80)


def _check_labels(shown: str, bare: str, labels: list[str], found: Findings) -> bool:
    if len(bare) > MAX_HOST_LENGTH:
        found.refuse("host-too-long", f"The host is longer than {MAX_HOST_LENGTH} characters.")
        return False
    for label in labels:
        if not label:
            found.refuse(
                "empty-label", f"The host '{shown}' has an empty label ('..' or a leading dot)."
            )
            return False
        if len(label) > MAX_LABEL_LENGTH:
            found.refuse(
                "label-too-long",
                f"A label of the host is longer than {MAX_LABEL_LENGTH} characters.",
            )
            return False
        if not _ASCII_LABEL_RE.fullmatch(label):
            found.refuse(
                "host-chars",
                f"The host '{shown}' contains characters not allowed in a host name.",
            )
            return False
        if label.startswith("xn--"):
            try:
                decoded = idna.decode(label)
                valid = idna.encode(decoded).decode("ascii") == label
            except (idna.IDNAError, UnicodeError):
                valid = False
            if not valid:
                found.refuse("idna", f"The host '{shown}' has an invalid 'xn--' label.")
                return False
    return True


def _check_numeric_host(
    raw_host: str, bare: str, trailing_dot: bool, found: Findings
) -> Host | None:
    shown = one_line(raw_host, limit=80)
    labels = bare.split(".")
    canonical = len(labels) == 4 and all(
        p.isascii() and p.isdigit() and (p == "0" or not p.startswith("0")) and int(p) <= 255
        for p in labels
    )
    if canonical and not trailing_dot and raw_host.isascii():
        return _ip_host(ipaddress.IPv4Address(bare), found)
    browser_reads = host_names.whatwg_ipv4(labels) if all(labels) else None
    meaning = (
        f"browsers read it as {browser_reads}"
        if browser_reads is not None
        else "browsers refuse it or read it as an address"
    )
    found.refuse(
        "numeric-host",
        f"The host '{shown}' is a number not written as a plain dotted address; {meaning}.",
    )
    return None


def _check_ipv6(raw_host: str, found: Findings) -> Host | None:
    shown = one_line(raw_host, limit=80)
    inner = raw_host[1:-1] if raw_host.startswith("[") and raw_host.endswith("]") else None
    if inner is None or "%" in inner or not inner.isascii():
        found.refuse("ipv6", f"The host '{shown}' is not a valid IPv6 address.")
        return None
    try:
        address = ipaddress.IPv6Address(inner)
    except ValueError:
        found.refuse("ipv6", f"The host '{shown}' is not a valid IPv6 address.")
        return None
    return _ip_host(address, found)


def _ip_host(
    address: ipaddress.IPv4Address | ipaddress.IPv6Address, found: Findings
) -> Host | None:
    effective: ipaddress.IPv4Address | ipaddress.IPv6Address = address
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        effective = address.ipv4_mapped
    if effective.is_unspecified:
        found.refuse(
            "ip-unusable",
            f"The host {address} is the unspecified address; some systems send it to this "
            "computer, others nowhere.",
        )
        return None
    if effective.is_multicast or (
        isinstance(effective, ipaddress.IPv4Address) and effective.is_reserved
    ):
        found.refuse(
            "ip-unusable", f"The host {address} is a multicast, broadcast or reserved address."
        )
        return None
    loopback = effective.is_loopback
    private = not loopback and not effective.is_global
    text = str(address)
    return Host(text, text, is_ip=True, is_loopback=loopback, is_private=private)

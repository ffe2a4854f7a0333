"""Decide whether a server-chosen URL may be shown for consent and opened; nothing is fetched.

A URL-mode elicitation hands us a string that a browser will turn into a network request. Parsers
disagree about such strings (``urllib`` drops tabs and newlines, reads ``https://a\\@b/`` with host
``b`` where a browser goes to ``a``, takes ``https:evil.example`` for a path, and has no idea that
``http://0x7f.1/`` is 127.0.0.1), so this module never trusts a parser: it checks the *raw* string
character by character, splits it by the browser's (WHATWG) rules for the two schemes it allows,
and refuses everything that could be read in two ways. Whatever is allowed is opened as exactly
the raw string the user saw (:attr:`UrlVerdict.url`).

Refused outright: schemes other than ``https`` (``http`` only for loopback hosts), user-info,
control / whitespace / bidi / zero-width / format characters, backslashes, a leading ``-``,
numeric hosts written in any form but the dotted quad, percent-encoded hosts, host names a browser
silently rewrites (full-width letters, ideographic dots, decomposed accents), invalid IDNA labels,
unusable addresses (``0.0.0.0``, multicast, broadcast), bad ports and URLs longer than
:data:`MAX_URL_LENGTH`. Warned about: internationalised hosts (identity shown as ``xn--``), mixed
or look-alike scripts, IP-address hosts, loopback and private addresses, local network names,
plain ``http``, unusual ports.

Pure and total: no DNS, no HTTP, no ``mcp`` or ``textual``; :func:`check_url` never raises.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from dataclasses import dataclass, field

import idna

from mcp_tui.session import url_hosts
from mcp_tui.untrusted import is_unsafe_char, one_line

#: Longest URL accepted, in characters. The consent screen shows the whole URL and the user must be
#: able to read all of it (2,048 characters is about 26 lines at 80 columns); real OAuth and
#: payment links with PKCE, state and scopes stay well under 1,500. Browsers' old practical limit
#: was 2,083. Anything longer is more likely to hide something than to be needed.
MAX_URL_LENGTH = 2048
#: DNS limits on the ASCII (``xn--``) form of a host name.
MAX_HOST_LENGTH = 253
MAX_LABEL_LENGTH = 63

DEFAULT_PORTS = {"https": 443, "http": 80}

_SCHEME_RE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*")
_ASCII_LABEL_RE = re.compile(r"[a-z0-9_](?:[a-z0-9_\-]*[a-z0-9_])?")
_LOCAL_SUFFIXES = (".local", ".internal", ".lan", ".home.arpa", ".intranet", ".corp")


@dataclass(frozen=True)
class UrlVerdict:
    """The outcome of :func:`check_url`: what the URL is, whether it may be opened, and why not.

    ``url`` is exactly the raw string received; when ``allowed`` it is what gets opened. ``host``
    is the identity form (lower-case ASCII, ``xn--`` labels, an IPv6 address without brackets);
    ``host_unicode`` the form to show beside it. Fields describing the host are empty or ``None``
    when the URL was refused before its host could be read. ``reason_codes`` and
    ``warning_codes`` hold short stable codes, one per entry of ``reasons`` and ``warnings``.
    """

    url: str
    allowed: bool
    reasons: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    reason_codes: tuple[str, ...] = ()
    warning_codes: tuple[str, ...] = ()
    scheme: str = ""
    host: str = ""
    host_unicode: str = ""
    #: The registrable domain ("example.co.uk" for "login.example.co.uk") from the Public Suffix
    #: List shipped with the ``publicsuffixlist`` package; ``None`` for IP addresses and names with
    #: no registrable part (``localhost``, single labels, a bare public suffix).
    registrable_domain: str | None = None
    #: The port written in the URL; ``None`` when absent (the scheme's default applies).
    port: int | None = None
    is_ip: bool = False
    is_loopback: bool = False
    #: A private, link-local, shared or otherwise non-global IP address (not loopback).
    is_private: bool = False

    @property
    def is_idn(self) -> bool:
        """True when the host has internationalised (``xn--``) labels."""
        return self.host != self.host_unicode

    @property
    def effective_port(self) -> int | None:
        """The port the browser connects to."""
        return self.port if self.port is not None else DEFAULT_PORTS.get(self.scheme)

    @property
    def registrable_domain_unicode(self) -> str | None:
        """:attr:`registrable_domain` in display form."""
        if self.registrable_domain is None:
            return None
        return url_hosts.to_unicode(self.registrable_domain)


@dataclass
class _Findings:
    reasons: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[tuple[str, str]] = field(default_factory=list)

    def refuse(self, code: str, text: str) -> None:
        self.reasons.append((code, text))

    def warn(self, code: str, text: str) -> None:
        self.warnings.append((code, text))


@dataclass
class _Host:
    ascii: str = ""
    unicode: str = ""
    is_ip: bool = False
    is_loopback: bool = False
    is_private: bool = False
    trailing_dot: bool = False


def check_url(raw: str) -> UrlVerdict:
    """Check a URL from a server exactly as received. Never raises, never touches the network."""
    if not isinstance(raw, str):
        return _refused(str(raw), "not-text", "The URL is not text.")
    if not raw:
        return _refused(raw, "empty", "The URL is empty.")
    if len(raw) > MAX_URL_LENGTH:
        return _refused(
            raw,
            "too-long",
            f"The URL is {len(raw):,} characters long; the limit is {MAX_URL_LENGTH:,}.",
        )
    found = _Findings()
    if raw.startswith("-"):
        found.refuse(
            "leading-dash", "The URL starts with '-', which a browser could read as an option."
        )
    _check_characters(raw, found)
    if found.reasons:
        return _verdict(raw, found)
    return _check_structure(raw, found)


def _refused(raw: str, code: str, text: str) -> UrlVerdict:
    return UrlVerdict(url=raw, allowed=False, reasons=(text,), reason_codes=(code,))


def _verdict(raw: str, found: _Findings, **fields: object) -> UrlVerdict:
    return UrlVerdict(
        url=raw,
        allowed=not found.reasons,
        reasons=tuple(text for _, text in found.reasons),
        warnings=tuple(text for _, text in found.warnings),
        reason_codes=tuple(code for code, _ in found.reasons),
        warning_codes=tuple(code for code, _ in found.warnings),
        **fields,  # type: ignore[arg-type]
    )


def _char_name(ch: str) -> str:
    escaped = one_line(ch)
    try:
        name = unicodedata.name(ch)
    except ValueError:
        return escaped
    return f"{escaped} ({name})" if escaped != ch else f"'{ch}' ({name})"


def _check_characters(raw: str, found: _Findings) -> None:
    """Refuse characters that parsers drop, rewrite or read differently, or that hide text."""
    seen: set[str] = set()
    for position, ch in enumerate(raw):
        code = ord(ch)
        if ch == "\\":
            kind, text = "backslash", "a backslash (browsers read it as '/', Python does not)"
        elif ch.isspace():
            kind, text = "whitespace", "whitespace"
        elif code < 0x20 or 0x7F <= code <= 0x9F:
            kind, text = "control-char", "a control character"
        elif is_unsafe_char(ch) or ch == "\xad" or unicodedata.category(ch) in ("Zl", "Zp", "Zs"):
            kind, text = "invisible-char", "an invisible, bidi or formatting character"
        else:
            continue
        if kind in seen:
            continue
        seen.add(kind)
        found.refuse(kind, f"The URL contains {text}: {_char_name(ch)} at position {position}.")


def _check_structure(raw: str, found: _Findings) -> UrlVerdict:
    """Split ``scheme://authority rest`` the way a browser does for http(s), and check each part."""
    scheme_match = _SCHEME_RE.match(raw)
    if scheme_match is None or raw[scheme_match.end() : scheme_match.end() + 1] != ":":
        found.refuse("no-scheme", "The URL has no scheme: it is relative, not a web address.")
        return _verdict(raw, found)
    scheme = scheme_match.group().lower()
    after = raw[scheme_match.end() + 1 :]
    if scheme not in DEFAULT_PORTS:
        found.refuse(
            "scheme",
            f"The scheme '{one_line(scheme, limit=40)}:' is not allowed: only https "
            "(and http for this computer) can be opened.",
        )
        return _verdict(raw, found, scheme=scheme)
    if not after.startswith("//") or after.startswith("///"):
        found.refuse(
            "ambiguous-authority",
            f"The URL does not have exactly two slashes after '{scheme}:'; browsers and other "
            "parsers disagree about where such a link goes.",
        )
        return _verdict(raw, found, scheme=scheme)
    rest = after[2:]
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    authority = rest[:end]
    if "@" in authority:
        found.refuse(
            "userinfo",
            "The URL has a user name or password before '@'; the real host is after it, "
            "which is a common way to disguise a link.",
        )
        return _verdict(raw, found, scheme=scheme)
    raw_host, port_text = _split_port(authority)
    port = _check_port(port_text, found)
    host = _check_host(raw_host, found)
    if host is None:
        return _verdict(raw, found, scheme=scheme, port=port)
    if scheme == "http" and not host.is_loopback:
        found.refuse(
            "http",
            "Plain http is only allowed for this computer (localhost, 127.0.0.1, ::1); "
            "anything else must use https.",
        )
    _warn(scheme, host, port, found)
    registrable = None if host.is_ip else url_hosts.registrable_domain(host.ascii.rstrip("."))
    return _verdict(
        raw,
        found,
        scheme=scheme,
        host=host.ascii,
        host_unicode=host.unicode,
        registrable_domain=registrable,
        port=port,
        is_ip=host.is_ip,
        is_loopback=host.is_loopback,
        is_private=host.is_private,
    )


def _split_port(authority: str) -> tuple[str, str | None]:
    if authority.startswith("["):
        close = authority.find("]")
        if close >= 0:
            tail = authority[close + 1 :]
            if tail and not tail.startswith(":"):  # "[::1]1": no valid host (browsers refuse)
                return authority, None
            return authority[: close + 1], (tail[1:] if tail else None)
        return authority, None
    host, colon, port = authority.partition(":")
    return host, (port if colon else None)


def _check_port(text: str | None, found: _Findings) -> int | None:
    if text is None:
        return None
    shown = one_line(text, limit=20)
    if not text:
        found.refuse("port", "The URL has a ':' after the host but no port number.")
    elif not (text.isascii() and text.isdigit()) or len(text) > 5:
        found.refuse("port", f"The port '{shown}' is not a number between 1 and 65535.")
    elif not 1 <= int(text) <= 65535:
        found.refuse("port", f"The port {shown} is not between 1 and 65535.")
    elif text.startswith("0"):
        found.refuse("port", f"The port '{shown}' is written with a leading zero.")
    else:
        return int(text)
    return None


def _check_host(raw_host: str, found: _Findings) -> _Host | None:
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
    trailing_dot = ascii_host.endswith(".") and len(ascii_host) > 1
    bare = ascii_host[:-1] if trailing_dot else ascii_host
    labels = bare.split(".")
    if url_hosts.ends_in_number(labels):
        return _check_numeric_host(raw_host, bare, trailing_dot, found)
    if not _check_labels(shown, bare, labels, found):
        return None
    unicode_host = url_hosts.to_unicode(bare)
    loopback = bare == "localhost" or bare.endswith(".localhost")
    dot = "." if trailing_dot else ""
    return _Host(bare + dot, unicode_host + dot, is_loopback=loopback, trailing_dot=trailing_dot)


def _check_labels(shown: str, bare: str, labels: list[str], found: _Findings) -> bool:
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
    raw_host: str, bare: str, trailing_dot: bool, found: _Findings
) -> _Host | None:
    shown = one_line(raw_host, limit=80)
    labels = bare.split(".")
    canonical = len(labels) == 4 and all(
        p.isascii() and p.isdigit() and (p == "0" or not p.startswith("0")) and int(p) <= 255
        for p in labels
    )
    if canonical and not trailing_dot and raw_host.isascii():
        return _ip_host(ipaddress.IPv4Address(bare), found)
    browser_reads = url_hosts.whatwg_ipv4(labels) if all(labels) else None
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


def _check_ipv6(raw_host: str, found: _Findings) -> _Host | None:
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
    address: ipaddress.IPv4Address | ipaddress.IPv6Address, found: _Findings
) -> _Host | None:
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
    return _Host(text, text, is_ip=True, is_loopback=loopback, is_private=private)


def _warn(scheme: str, host: _Host, port: int | None, found: _Findings) -> None:
    if host.ascii != host.unicode:
        found.warn(
            "idn",
            f"International host name: its identity is {host.ascii}, displayed as "
            f"{host.unicode}. Check the identity, not the look.",
        )
        for code, text in url_hosts.script_warnings(host.unicode.rstrip(".")):
            found.warn(code, text)
    if host.is_ip:
        found.warn("ip", "The host is an IP address, not a name.")
    if host.is_loopback:
        found.warn(
            "loopback", "The host is this computer (loopback): a local program serves the page."
        )
    elif host.is_private:
        found.warn(
            "private",
            "The host is a private, link-local or reserved address: a machine on a local "
            "network, not the public internet.",
        )
    elif not host.is_ip:
        bare = host.ascii.rstrip(".")
        if "." not in bare or bare.endswith(_LOCAL_SUFFIXES):
            found.warn("local-name", "The host is a local network name, resolved by your network.")
    if host.trailing_dot:
        found.warn("trailing-dot", "The host name ends with a dot.")
    if scheme == "http":
        found.warn("http", "Plain http: the connection is not encrypted.")
    if port is not None and port != DEFAULT_PORTS[scheme]:
        found.warn("port", f"Unusual port {port} ({scheme} normally uses {DEFAULT_PORTS[scheme]}).")

"""Decide whether a server-chosen URL may be shown for consent and opened; nothing is fetched.

A URL-mode elicitation hands us a string that a browser will turn into a network request. Parsers
disagree about such strings (``urllib`` drops tabs and newlines, reads ``https://a\\@b/`` with host
``b`` where a browser goes to ``a``, takes ``https:evil.example`` for a path, and has no idea that
``http://0x7f.1/`` is 127.0.0.1), so this module never trusts a parser: it checks the *raw* string
character by character, splits it by the browser's (WHATWG) rules for the two schemes it allows,
and refuses everything that could be read in two ways. Whatever is allowed is opened as exactly
the string the user is shown (:attr:`UrlVerdict.url`): the raw string, except that an
internationalised host is written in its identity (A-label, ``xn--``) form, so the browser's own
IDN display policy never decides what the user sees next.

Refused outright: schemes other than ``https`` (``http`` only for loopback hosts), user-info,
control / whitespace / bidi / zero-width / format characters, backslashes, a leading ``-``,
numeric hosts written in any form but the dotted quad, percent-encoded hosts, host names a browser
silently rewrites (full-width letters, ideographic dots, decomposed accents), hosts that IDNA2008
and UTS-46 transitional processing send to different names (``faß.de``), invalid IDNA labels,
unusable addresses (``0.0.0.0``, multicast, broadcast), bad ports and URLs longer than
:data:`MAX_URL_LENGTH`. Warned about: internationalised hosts (identity shown as ``xn--``), mixed
or look-alike scripts, IP-address hosts, loopback and private addresses, local network names,
plain ``http``, unusual ports.

Pure and total: no DNS, no HTTP, no ``mcp`` or ``textual``; :func:`check_url` never raises.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from mcp_tui.untrusted import is_unsafe_char, one_line
from mcp_tui.url import host_names
from mcp_tui.url.host import (
    Findings,
    Host,
    check_host,
)

#: Longest URL accepted, in characters. The consent screen shows the whole URL and the user must be
#: able to read all of it (2,048 characters is about 26 lines at 80 columns); real OAuth and
#: payment links with PKCE, state and scopes stay well under 1,500. Browsers' old practical limit
#: was 2,083. Anything longer is more likely to hide something than to be needed.
MAX_URL_LENGTH = 2048

DEFAULT_PORTS = {"https": 443, "http": 80}

_SCHEME_RE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*")
_LOCAL_SUFFIXES = (".local", ".internal", ".lan", ".home.arpa", ".intranet", ".corp")


@dataclass(frozen=True)
class UrlVerdict:
    """The outcome of :func:`check_url`: what the URL is, whether it may be opened, and why not.

    ``url`` is what is shown as the full URL and, when ``allowed``, exactly what is opened and
    copied: ``received`` (the raw string from the server) with an internationalised host written
    in its A-label (``xn--``) form; for a host typed in ASCII, or a refused URL, the two are the
    same. ``host``
    is the identity form (lower-case ASCII, ``xn--`` labels, an IPv6 address without brackets);
    ``host_unicode`` the form to show beside it. Fields describing the host are empty or ``None``
    when the URL was refused before its host could be read. ``reason_codes`` and
    ``warning_codes`` hold short stable codes, one per entry of ``reasons`` and ``warnings``.
    """

    url: str
    allowed: bool
    #: The string exactly as the server sent it ("" when built by hand: then the same as ``url``).
    received: str = ""
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

    def __post_init__(self) -> None:
        if not self.received:  # built by hand (a test, a defect's refusal): received as shown
            object.__setattr__(self, "received", self.url)

    @property
    def is_idn(self) -> bool:
        """True when the host has internationalised (``xn--``) labels."""
        return self.host != self.host_unicode

    @property
    def url_unicode(self) -> str:
        """:attr:`url` with the host in display (Unicode) form: what it is "shown as"."""
        if not self.is_idn or self.is_ip:
            return self.url
        start = len(self.url) - len(self.url.split("://", 1)[-1])
        if self.url[start : start + len(self.host)] != self.host:
            return self.url
        return self.url[:start] + self.host_unicode + self.url[start + len(self.host) :]

    @property
    def effective_port(self) -> int | None:
        """The port the browser connects to."""
        return self.port if self.port is not None else DEFAULT_PORTS.get(self.scheme)

    @property
    def registrable_domain_unicode(self) -> str | None:
        """:attr:`registrable_domain` in display form."""
        if self.registrable_domain is None:
            return None
        return host_names.to_unicode(self.registrable_domain)


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
    found = Findings()
    if raw.startswith("-"):
        found.refuse(
            "leading-dash", "The URL starts with '-', which a browser could read as an option."
        )
    _check_characters(raw, found)
    if found.reasons:
        return _verdict(raw, found)
    return _check_structure(raw, found)


def _refused(raw: str, code: str, text: str) -> UrlVerdict:
    return UrlVerdict(url=raw, allowed=False, received=raw, reasons=(text,), reason_codes=(code,))


def _verdict(raw: str, found: Findings, *, url: str | None = None, **fields: object) -> UrlVerdict:
    return UrlVerdict(
        url=raw if url is None else url,
        allowed=not found.reasons,
        received=raw,
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


def _check_characters(raw: str, found: Findings) -> None:
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


def _check_structure(raw: str, found: Findings) -> UrlVerdict:
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
    host = check_host(raw_host, found)
    if host is None:
        return _verdict(raw, found, scheme=scheme, port=port)
    if scheme == "http" and not host.is_loopback:
        found.refuse(
            "http",
            "Plain http is only allowed for this computer (localhost, 127.0.0.1, ::1); "
            "anything else must use https.",
        )
    _warn(scheme, host, port, found)
    registrable = None if host.is_ip else host_names.registrable_domain(host.ascii.rstrip("."))
    # An internationalised host is opened as its identity, the A-label form the user was told to
    # check; the rest of the string is kept exactly as received. A refused URL is shown as sent.
    host_start = scheme_match.end() + 3
    opened = raw
    if not found.reasons and not host.is_ip and not raw_host.isascii():
        opened = raw[:host_start] + host.ascii + raw[host_start + len(raw_host) :]
    return _verdict(
        raw,
        found,
        url=opened,
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


def _check_port(text: str | None, found: Findings) -> int | None:
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


def _warn(scheme: str, host: Host, port: int | None, found: Findings) -> None:
    if host.ascii != host.unicode:
        found.warn(
            "idn",
            f"International host name: its identity is {host.ascii}, displayed as "
            f"{host.unicode}. Check the identity, not the look.",
        )
        for code, text in host_names.script_warnings(host.unicode.rstrip(".")):
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

"""The URL check over hostile and benign URLs: verdict, reasons, warnings and host identity."""

from __future__ import annotations

import ipaddress
import urllib.parse
from dataclasses import dataclass

import idna
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mcp_tui.untrusted import is_unsafe_char
from mcp_tui.url.check import MAX_URL_LENGTH, UrlVerdict, check_url

OK = True
NO = False


@dataclass(frozen=True)
class Case:
    url: str
    allowed: bool
    reasons: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    host: str | None = None
    registrable: str | None = None
    #: What is shown and opened, when not the raw string (a host not written in ASCII).
    opened: str | None = None


CASES = [
    # --- benign ---------------------------------------------------------------------------------
    Case("https://example.com/", OK, host="example.com", registrable="example.com"),
    Case(
        "https://login.example.co.uk/oauth?state=x#frag",
        OK,
        host="login.example.co.uk",
        registrable="example.co.uk",
    ),
    Case(
        "HTTPS://Accounts.EXAMPLE.com/", OK, host="accounts.example.com", registrable="example.com"
    ),
    Case("https://evil.github.io/page", OK, host="evil.github.io", registrable="evil.github.io"),
    Case("https://example.com:443/", OK, host="example.com"),
    Case("https://example.com?@evil.example", OK, host="example.com"),
    Case("https://example.com/#@evil.example", OK, host="example.com"),
    Case("https://a_b.example.com/", OK, host="a_b.example.com", registrable="example.com"),
    Case("https://example.com/ünïcode/path", OK, host="example.com"),
    # --- warnings -------------------------------------------------------------------------------
    Case("http://localhost:8080/cb", OK, warnings=("loopback", "http", "port"), host="localhost"),
    Case("http://127.0.0.1/x", OK, warnings=("ip", "loopback", "http"), host="127.0.0.1"),
    Case("http://[::1]:3000/", OK, warnings=("ip", "loopback", "http", "port"), host="::1"),
    Case(
        "http://app.localhost:5173/",
        OK,
        warnings=("loopback", "http", "port"),
        host="app.localhost",
    ),
    Case("https://[::ffff:127.0.0.1]/", OK, warnings=("ip", "loopback"), host="::ffff:7f00:1"),
    Case("https://8.8.8.8/", OK, warnings=("ip",), host="8.8.8.8"),
    Case(
        "https://192.168.1.1:8443/login",
        OK,
        warnings=("ip", "private", "port"),
        host="192.168.1.1",
    ),
    Case("https://10.0.0.1/", OK, warnings=("ip", "private"), host="10.0.0.1"),
    Case("https://100.64.0.1/", OK, warnings=("ip", "private"), host="100.64.0.1"),
    Case("https://[fe80::1]/", OK, warnings=("ip", "private"), host="fe80::1"),
    Case("https://example.com:8443/", OK, warnings=("port",), host="example.com"),
    Case("https://intranet/", OK, warnings=("local-name",), host="intranet"),
    Case("https://printer.local/", OK, warnings=("local-name",), host="printer.local"),
    Case("https://example.com./", OK, warnings=("trailing-dot",), host="example.com."),
    Case(
        "https://münchen.de/",
        OK,
        warnings=("idn",),
        host="xn--mnchen-3ya.de",
        registrable="xn--mnchen-3ya.de",
        opened="https://xn--mnchen-3ya.de/",
    ),
    Case(
        "https://例え.jp/",
        OK,
        warnings=("idn",),
        host="xn--r8jz45g.jp",
        opened="https://xn--r8jz45g.jp/",
    ),
    Case(
        "https://xn--80ak6aa92e.com/",
        OK,
        warnings=("idn", "confusable-script"),
        host="xn--80ak6aa92e.com",
    ),
    Case(
        "https://аpple.com/",
        OK,
        warnings=("idn", "mixed-script"),
        host="xn--pple-43d.com",
        opened="https://xn--pple-43d.com/",
    ),
    # --- refused: scheme and shape ----------------------------------------------------------------
    Case("http://example.com/", NO, reasons=("http",), warnings=("http",), host="example.com"),
    Case("http://192.168.1.1/", NO, reasons=("http",), warnings=("ip", "private", "http")),
    Case("javascript:alert(1)", NO, reasons=("scheme",)),
    Case("JavaScript:alert(document.domain)", NO, reasons=("scheme",)),
    Case("file:///etc/passwd", NO, reasons=("scheme",)),
    Case("data:text/html,<script>alert(1)</script>", NO, reasons=("scheme",)),
    Case("ftp://example.com/", NO, reasons=("scheme",)),
    Case("vscode://extension/x", NO, reasons=("scheme",)),
    Case("//example.com/", NO, reasons=("no-scheme",)),
    Case("example.com/login", NO, reasons=("no-scheme",)),
    Case("https:evil.example/x", NO, reasons=("ambiguous-authority",)),
    Case("https:/evil.example", NO, reasons=("ambiguous-authority",)),
    Case("https:///evil.example", NO, reasons=("ambiguous-authority",)),
    Case("https://", NO, reasons=("empty-host",)),
    Case("https://:443/", NO, reasons=("empty-host",)),
    Case("", NO, reasons=("empty",)),
    Case("-https://example.com/", NO, reasons=("leading-dash", "no-scheme")[:1]),
    Case("--new-window=https://example.com", NO, reasons=("leading-dash",)),
    # --- refused: user-info and characters ------------------------------------------------------
    Case("https://user:pw@example.com/", NO, reasons=("userinfo",)),
    Case("https://trusted.example@evil.example/", NO, reasons=("userinfo",)),
    Case("https://evil.example\\@trusted.example/", NO, reasons=("backslash",)),
    Case("https://evil.example\\.trusted.example/", NO, reasons=("backslash",)),
    Case("java\tscript:alert(1)", NO, reasons=("whitespace",)),
    Case("https://exa\nmple.com/", NO, reasons=("whitespace",)),
    Case(" https://example.com/", NO, reasons=("whitespace",)),
    Case("https://example.com/ ", NO, reasons=("whitespace",)),
    Case("https://example.com/\u00a0x", NO, reasons=("whitespace",)),
    Case("https://example.com/\x00", NO, reasons=("control-char",)),
    Case("https://example.com/\x1b]0;pwned\x07", NO, reasons=("control-char",)),
    Case("https://example.com/\x9b", NO, reasons=("control-char",)),
    Case("https://ex\u200bample.com/", NO, reasons=("invisible-char",)),
    Case("https://example.com/\u202egpj.exe", NO, reasons=("invisible-char",)),
    Case("https://example.com/\u2066x", NO, reasons=("invisible-char",)),
    Case("https://ex\u00adample.com/", NO, reasons=("invisible-char",)),
    Case("https://\ufeffexample.com/", NO, reasons=("invisible-char",)),
    # --- refused: hosts a browser reads differently --------------------------------------------
    Case("http://2130706433/", NO, reasons=("numeric-host",)),
    Case("http://0x7f.1/", NO, reasons=("numeric-host",)),
    Case("http://0177.0.0.1/", NO, reasons=("numeric-host",)),
    Case("https://127.1/", NO, reasons=("numeric-host",)),
    Case("https://0x7f000001/", NO, reasons=("numeric-host",)),
    Case("https://1.2.3.4.5/", NO, reasons=("numeric-host",)),
    Case("https://127.0.0.1./", NO, reasons=("numeric-host",)),
    Case("https://example.123/", NO, reasons=("numeric-host",)),
    Case("https://%65xample.com/", NO, reasons=("host-percent",)),
    Case("https://ｅｘａｍｐｌｅ.com/", NO, reasons=("host-rewritten",)),
    Case("https://evil。example/", NO, reasons=("host-rewritten",)),
    Case("https://cafe\u0301.fr/", NO, reasons=("host-rewritten",)),
    Case("https://google.com\u2215evil.example/", NO, reasons=("idna",)),
    Case("https://xn--zz.com/", NO, reasons=("idna",)),
    # IDNA2008 and UTS-46 transitional processing disagree: xn--fa-hia.de or fass.de?
    Case("https://faß.de/", NO, reasons=("idna-transitional",)),
    Case("https://FAẞ.de/login", NO, reasons=("idna-transitional",)),
    Case("https://ςοφία.gr/", NO, reasons=("idna-transitional",)),
    Case("https://💩.la/", NO, reasons=("idna",)),
    Case("https://a..b/", NO, reasons=("empty-label",)),
    Case("https://.example.com/", NO, reasons=("empty-label",)),
    Case("https://-a.example.com/", NO, reasons=("host-chars",)),
    Case("https://exa<mple.com/", NO, reasons=("host-chars",)),
    Case("https://" + "a" * 64 + ".com/", NO, reasons=("label-too-long",)),
    Case("https://" + "abcdefghi." * 26 + "com/", NO, reasons=("host-too-long",)),
    Case("https://[fe80::1%25eth0]/", NO, reasons=("ipv6",)),
    Case("https://[::1/", NO, reasons=("ipv6",)),
    Case("https://[not-ipv6]/", NO, reasons=("ipv6",)),
    Case("https://0.0.0.0/", NO, reasons=("ip-unusable",)),
    Case("https://[::]/", NO, reasons=("ip-unusable",)),
    Case("https://224.0.0.1/", NO, reasons=("ip-unusable",)),
    Case("https://255.255.255.255/", NO, reasons=("ip-unusable",)),
    # --- refused: ports and length ----------------------------------------------------------------
    Case("https://example.com:0/", NO, reasons=("port",), host="example.com"),
    Case("https://example.com:65536/", NO, reasons=("port",), host="example.com"),
    Case("https://example.com:/", NO, reasons=("port",), host="example.com"),
    Case("https://example.com:08443/", NO, reasons=("port",), host="example.com"),
    Case("https://example.com:44a/", NO, reasons=("port",), host="example.com"),
    Case("https://example.com:-1/", NO, reasons=("port",), host="example.com"),
    Case("https://example.com/" + "a" * MAX_URL_LENGTH, NO, reasons=("too-long",)),
]


def test_the_table_is_big_enough() -> None:
    assert len(CASES) >= 40
    assert sum(1 for case in CASES if not case.allowed) >= 40
    assert len({case.url for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[ascii(c.url)[1:40] for c in CASES])
def test_verdict_reasons_and_warnings(case: Case) -> None:
    verdict = check_url(case.url)
    assert verdict.received == case.url  # exactly the raw string
    # What is shown and opened: the raw string, with a non-ASCII host in its A-label form.
    assert verdict.url == (case.opened or case.url)
    assert verdict.allowed is case.allowed, verdict.reasons
    assert verdict.reason_codes == case.reasons
    assert verdict.warning_codes == case.warnings
    assert len(verdict.reasons) == len(verdict.reason_codes)
    assert len(verdict.warnings) == len(verdict.warning_codes)
    assert all(text.strip() for text in verdict.reasons + verdict.warnings)
    if case.host is not None:
        assert verdict.host == case.host
    if case.registrable is not None:
        assert verdict.registrable_domain == case.registrable


def test_allowed_url_fields() -> None:
    verdict = check_url("https://login.Example.co.uk:8443/a?b#c")
    assert verdict == UrlVerdict(
        url="https://login.Example.co.uk:8443/a?b#c",
        allowed=True,
        warnings=verdict.warnings,
        warning_codes=("port",),
        scheme="https",
        host="login.example.co.uk",
        host_unicode="login.example.co.uk",
        registrable_domain="example.co.uk",
        port=8443,
    )
    assert verdict.effective_port == 8443
    assert not verdict.is_idn
    assert check_url("https://example.com/").effective_port == 443


def test_idn_identity_and_display_forms() -> None:
    verdict = check_url("https://shop.münchen.de/")
    assert verdict.host == "shop.xn--mnchen-3ya.de"
    assert verdict.host_unicode == "shop.münchen.de"
    assert verdict.registrable_domain == "xn--mnchen-3ya.de"
    assert verdict.registrable_domain_unicode == "münchen.de"
    assert verdict.is_idn
    idn_warning = verdict.warnings[verdict.warning_codes.index("idn")]
    assert "xn--mnchen-3ya.de" in idn_warning and "münchen.de" in idn_warning


def test_an_international_host_is_opened_in_its_a_label_form() -> None:
    """What the user is told to check (the identity) is what is opened: only the host changes."""
    verdict = check_url("https://shop.münchen.de:8443/straße?q=ü#ä")
    assert verdict.url == "https://shop.xn--mnchen-3ya.de:8443/straße?q=ü#ä"
    assert verdict.received == "https://shop.münchen.de:8443/straße?q=ü#ä"
    assert verdict.url_unicode == verdict.received
    # Checking the opened form again gives the same verdict: the browser's re-check agrees.
    again = check_url(verdict.url)
    assert again.allowed and again.url == verdict.url and again.host == verdict.host
    # An A-label typed by the server is opened as it came, shown as its Unicode spelling.
    typed = check_url("https://xn--fa-hia.de/")
    assert typed.allowed and typed.url == "https://xn--fa-hia.de/"
    assert typed.url_unicode == "https://faß.de/"


def test_transitional_difference_names_both_forms() -> None:
    reason = check_url("https://faß.de/").reasons[0]
    assert "xn--fa-hia.de" in reason and "fass.de" in reason
    assert "IDNA2008" in reason and "transitional" in reason


def test_mixed_script_names_the_scripts() -> None:
    verdict = check_url("https://раураl.com/")  # Cyrillic "раура" + Latin "l"
    text = verdict.warnings[verdict.warning_codes.index("mixed-script")]
    assert "Cyrillic" in text and "Latin" in text


def test_japanese_label_is_not_mixed_script() -> None:
    verdict = check_url("https://ひらがなカタカナ漢字abc.jp/")
    assert verdict.allowed
    assert "mixed-script" not in verdict.warning_codes


def test_numeric_host_reason_says_what_browsers_read() -> None:
    for url in ("http://2130706433/", "http://0x7f.1/", "http://0177.0.0.1/", "https://127.1/"):
        assert "127.0.0.1" in check_url(url).reasons[0], url


def test_reasons_show_hidden_characters_visibly() -> None:
    reason = check_url("https://example.com/\x1b]0;pwned\x07").reasons[0]
    assert "\\e" in reason
    assert not any(is_unsafe_char(ch) for ch in reason)
    bidi = check_url("https://example.com/\u202egpj.exe").reasons[0]
    assert "\\u202e" in bidi and "RIGHT-TO-LEFT OVERRIDE" in bidi


def test_length_limit_is_inclusive() -> None:
    base = "https://example.com/"
    assert check_url(base + "a" * (MAX_URL_LENGTH - len(base))).allowed
    assert not check_url(base + "a" * (MAX_URL_LENGTH - len(base) + 1)).allowed


def test_no_network_is_touched(monkeypatch: pytest.MonkeyPatch) -> None:
    """No DNS, no connection: checking (and the registrable-domain lookup) is offline."""
    import socket

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the URL check touched the network")

    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "gethostbyname", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    for case in CASES:
        check_url(case.url)
    assert check_url("https://fresh-name.example.org/").registrable_domain == "example.org"


def test_not_text_is_refused() -> None:
    verdict = check_url(None)  # type: ignore[arg-type]
    assert not verdict.allowed and verdict.reason_codes == ("not-text",)


# --- properties: total, and never in disagreement with Python's parser when allowed -------------

_URL_PIECES = st.sampled_from(
    [
        *"htps:/\\@.:[]%?#-_0123456789abcxnoeAX ~",
        *["\t", "\n", "\x00", "\u200b", "\u202e", "。", "ü", "а", "\xad", "０", "∕"],
        *["localhost", "example.com", "xn--", "0x", "::1", "127.0.0.1", "//", ":8443", "@"],
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_URL_PIECES, max_size=14).map(lambda parts: "https://" + "".join(parts)))
@example("https://ü/。")  # an A-label host with a Unicode path: once failed the old invariant
def test_check_never_raises_and_allowed_agrees_with_urllib(raw: str) -> None:
    verdict = check_url(raw)
    assert verdict.received == raw
    if verdict.url != raw:
        # Only the host may be rewritten: an allowed internationalised host is opened as its
        # A-label (issue 25 item 4); the path, query and fragment are the server's, unchanged.
        # (A Unicode path keeps the opened URL non-ASCII: ``https://ü/。`` opens ``xn--tda/。``.)
        assert verdict.allowed and verdict.is_idn and verdict.host.isascii()
        opened, received = urllib.parse.urlsplit(verdict.url), urllib.parse.urlsplit(raw)
        assert opened.hostname == verdict.host
        assert opened[2:] == received[2:]
    if verdict.allowed:
        _assert_parsers_agree(verdict)


_HOSTS = st.sampled_from(
    [
        "example.com",
        "Sub.Example.co.uk",
        "localhost",
        "127.0.0.1",
        "[::1]",
        "münchen.de",
        "xn--80ak6aa92e.com",
        "10.1.2.3",
        "a_b.example",
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["https://", "http://", "HTTPS://"]),
    _HOSTS,
    st.sampled_from(["", ":443", ":8080", ":0", ":", ":65535"]),
    st.lists(_URL_PIECES, max_size=10).map("".join),
)
def test_structured_urls_agree_with_urllib(scheme: str, host: str, port: str, tail: str) -> None:
    verdict = check_url(scheme + host + port + tail)
    if verdict.allowed:
        _assert_parsers_agree(verdict)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_check_is_total_on_any_text(raw: str) -> None:
    verdict = check_url(raw)
    assert verdict.allowed == (not verdict.reasons)
    if verdict.allowed:
        _assert_parsers_agree(verdict)


@pytest.mark.parametrize("case", [c for c in CASES if c.allowed], ids=lambda c: ascii(c.url)[1:40])
def test_allowed_table_urls_agree_with_urllib(case: Case) -> None:
    _assert_parsers_agree(check_url(case.url))


def _assert_parsers_agree(verdict: UrlVerdict) -> None:
    """For an allowed URL, Python's parser finds the same scheme, host and port as ours."""
    assert not verdict.url.startswith("-")
    assert not any(is_unsafe_char(ch) or ch.isspace() or ch == "\\" for ch in verdict.url)
    parts = urllib.parse.urlsplit(verdict.url)
    assert parts.scheme.lower() == verdict.scheme
    assert parts.port == verdict.port
    assert parts.username is None and parts.password is None
    hostname = parts.hostname or ""
    if verdict.is_ip:
        assert ipaddress.ip_address(hostname) == ipaddress.ip_address(verdict.host)
    else:
        ascii_host = hostname if hostname.isascii() else idna.encode(hostname, uts46=True).decode()
        assert ascii_host == verdict.host

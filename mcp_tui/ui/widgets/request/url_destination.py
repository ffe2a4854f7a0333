"""Where a checked URL goes, drawn for the consent screen: what a person must see first.

A spoofing host reads as another site from its left end (``accounts.google.com.secure-login.
evil.example``): only its registrable domain, at the right end, says whose page it is. So the
consent screen leads with it, on the body's first line, before the server's message (a long one
would otherwise push it below the fold, as a narrow terminal pushes the end of a long host):
:func:`site_content` is that line, the registrable domain highlighted; :func:`host_content` is
the whole host under it, wrapped where it is long, the registrable domain highlighted again. An
internationalised host is shown in its ``xn--`` identity first, the Unicode form beside it.

Every text here comes from the URL check (``mcp_tui.url.check``), drawn literally.
"""

from __future__ import annotations

from textual.content import Content

from mcp_tui.ui.literal import literal_line
from mcp_tui.url.check import UrlVerdict

#: The registrable domain's style, wherever it is drawn.
DOMAIN_STYLE = "bold reverse $text-accent"


def site_content(verdict: UrlVerdict) -> Content:
    """The body's first line: "Destination" and the site, its registrable domain highlighted
    (a host without one, an IP address or ``localhost``, drawn whole)."""
    label = Content.styled("Destination  ", "$text-muted")
    if not verdict.host:
        return label + Content.styled("(the host cannot be determined safely)", "$text-error")
    domain = verdict.registrable_domain
    if domain and verdict.host.rstrip(".").endswith(domain):
        return label + Content.styled(domain, DOMAIN_STYLE)
    host = f"[{verdict.host}]" if verdict.is_ip and ":" in verdict.host else verdict.host
    return label + Content.styled(host, "bold $text-accent")


def host_content(verdict: UrlVerdict) -> Content:
    """The host in identity form, registrable domain highlighted, Unicode form beside it."""
    if not verdict.host:
        return Content.styled("(the host cannot be determined safely)", "$text-error")
    host = verdict.host
    domain = verdict.registrable_domain
    if verdict.is_ip and ":" in host:
        line = Content.styled(f"[{host}]", "bold $text-accent")
    elif domain and host.rstrip(".").endswith(domain):
        cut = len(host.rstrip(".")) - len(domain)
        line = Content("").join(
            [
                Content.styled(host[:cut], "bold"),
                Content.styled(domain, DOMAIN_STYLE),
                Content(host[cut + len(domain) :]),
            ]
        )
    else:
        line = Content.styled(host, "bold $text-accent")
    if verdict.port is not None:
        line += Content.styled(f":{verdict.port}", "bold")
    if verdict.is_idn:
        line += Content("   shown as ") + literal_line(verdict.host_unicode, limit=None)
    scheme = Content(f"{verdict.scheme}://" if verdict.scheme else "")
    return scheme.stylize("$text-muted") + line


def warnings_content(verdict: UrlVerdict) -> Content:
    return Content("\n").join(
        Content("⚠ ") + literal_line(text, limit=None) for text in verdict.warnings
    )


def reasons_content(verdict: UrlVerdict) -> Content:
    lines = [Content.styled("✗ This link is refused and will not be opened:", "bold")]
    lines += [Content("• ") + literal_line(text, limit=None) for text in verdict.reasons]
    return Content("\n").join(lines)

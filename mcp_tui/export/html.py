"""A session as one self-contained HTML page: inline CSS, no script, no external resource.

Every string (the server's and mcp-tui's alike) is made visible (control, bidi and zero-width
characters become escapes such as ``\\u202e``) and then HTML-escaped; JSON is written with
:func:`~mcp_tui.untrusted.json_text`. URLs a server sent are shown as text, never as links. A
Content-Security-Policy forbids scripts and every fetch, in case a reader's browser meets
something this module missed.
"""

from __future__ import annotations

import html
import re
from typing import Any

from mcp_tui.export.model import SharedCall, SharedExchange, SharedSession
from mcp_tui.untrusted import json_text, visible

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'none'"

_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 70rem; margin: 2rem auto;
       padding: 0 1rem; color: #1d2430; background: #fbfbfd; }
h1 { font-size: 1.5rem; margin-bottom: .2rem; } h2 { margin-top: 2rem;
     border-bottom: 1px solid #d5d9e2; padding-bottom: .2rem; }
.meta { color: #5a6272; margin-top: 0; }
pre { background: #f0f2f6; border: 1px solid #dde1e8; border-radius: 4px; padding: .5rem .7rem;
      overflow-x: auto; white-space: pre-wrap; word-break: break-word; margin: .3rem 0; }
ol.transcript { list-style: none; padding: 0; }
ol.transcript li { display: grid; grid-template-columns: 7rem 1fr; gap: .6rem;
                   border-bottom: 1px dotted #dde1e8; padding: .2rem 0; }
.kind { font: 600 .8rem ui-monospace, monospace; color: #5a6272; padding-top: .55rem; }
.k-error .kind, .k-refused .kind { color: #b3261e; } .k-elicitation .kind { color: #6b3fa0; }
section.call { border: 1px solid #d5d9e2; border-radius: 6px; padding: .3rem 1rem .8rem;
               margin: 1rem 0; background: #fff; }
.exchange { border-left: 3px solid #6b3fa0; padding-left: .8rem; margin: .6rem 0; }
.action { font-weight: 600; } .masked { color: #8a5a00; font-size: .9rem; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
td { vertical-align: top; padding: .15rem .4rem; border-bottom: 1px solid #eceef3; }
td.t, td.d { white-space: nowrap; font-family: ui-monospace, monospace; width: 1%; }
details > summary { cursor: pointer; }
code { font-family: ui-monospace, monospace; background: #f0f2f6; padding: 0 .2rem; }
"""


def text(value: object) -> str:
    """Any string as inert HTML text: visible escapes for unsafe characters, then escaped."""
    return html.escape(visible(value, limit=None), quote=True)


def _json(value: Any) -> str:
    return f"<pre>{html.escape(json_text(value, indent=2), quote=True)}</pre>"


def _kind_class(kind: str) -> str:
    return "k-" + (re.sub(r"[^a-z-]", "", kind.lower()) or "other")


def to_html(session: SharedSession) -> str:
    """The page: heading, transcript, calls with their requests and answers, traffic."""
    out: list[str] = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">',
        '<meta name="referrer" content="no-referrer">',
        f"<title>{text(session.title)}</title>",
        f"<style>{_STYLE}</style>",
        "</head>",
        "<body>",
        f"<h1>{text(session.title)}</h1>",
        f'<p class="meta">{text(_meta(session))}</p>',
        '<p class="meta">Contents: <a href="#transcript">transcript</a> · '
        '<a href="#calls">calls</a> · <a href="#traffic">traffic</a></p>',
    ]
    out.append('<h2 id="transcript">Transcript</h2>')
    if session.transcript:
        out.append('<ol class="transcript">')
        for line in session.transcript:
            out.append(
                f'<li class="{_kind_class(line.kind)}"><span class="kind">{text(line.kind)}'
                f"</span><pre>{text(line.text)}</pre></li>"
            )
        out.append("</ol>")
    else:
        out.append("<p>Nothing yet.</p>")
    out.append('<h2 id="calls">Calls</h2>')
    if not session.calls:
        out.append("<p>No calls were made.</p>")
    for call in session.calls:
        out.extend(_call(call))
    out.append('<h2 id="traffic">Traffic</h2>')
    if session.traffic_dropped:
        out.append(f"<p>{session.traffic_dropped} older messages are not kept.</p>")
    if session.traffic:
        out.append("<table>")
        for message in session.traffic:
            arrow = {"out": "→", "in": "←"}.get(message.direction, "")
            out.append(
                f'<tr><td class="t">{text(message.time)}</td><td class="d">{arrow}</td>'
                f"<td>{text(message.server)}</td><td><details><summary>"
                f"{text(message.summary)}</summary>{_json(message.message)}</details></td></tr>"
            )
        out.append("</table>")
    else:
        out.append("<p>No messages.</p>")
    out += ["</body>", "</html>", ""]
    return "\n".join(out)


def _meta(session: SharedSession) -> str:
    parts = [f"Exported {session.exported_at} by mcp-tui"]
    if session.servers:
        parts.append("servers: " + ", ".join(session.servers))
    if session.secrets_masked:
        parts.append(f"{session.secrets_masked} secret value(s) masked")
    return "; ".join(parts)


def _call(call: SharedCall) -> list[str]:
    took = f" in {call.seconds:.2f} s" if call.seconds is not None else ""
    out = [
        '<section class="call">',
        f"<h3>#{call.call_id} {text(call.heading)}</h3>",
        f'<p class="meta">{text(call.outcome or "still running")}{took}</p>',
    ]
    if call.arguments:
        out.append(f"<details open><summary>Arguments</summary>{_json(call.arguments)}</details>")
    for exchange in call.exchanges:
        out.extend(_exchange(exchange))
    if call.result:
        out.append(f"<details open><summary>Result</summary><pre>{text(call.result)}</pre>")
        out.append("</details>")
    out.append("</section>")
    return out


def _exchange(exchange: SharedExchange) -> list[str]:
    asked = {"form": "Form", "url": "URL", "sampling": "Sampling"}[exchange.kind]
    out = [
        '<div class="exchange">',
        f'<p><b>{asked} request</b> → <span class="action">{text(exchange.action)}</span></p>',
        f"<pre>{text(exchange.message)}</pre>",
    ]
    if exchange.url is not None:
        out.append(f"<p>URL (not a link): <code>{text(exchange.url)}</code></p>")
    if exchange.schema is not None:
        out.append(f"<details><summary>requestedSchema</summary>{_json(exchange.schema)}</details>")
    if exchange.content is not None:
        out.append(f"<p>Sent back:</p>{_json(exchange.content)}")
    if exchange.masked_fields:
        names = ", ".join(exchange.masked_fields)
        out.append(
            f'<p class="masked">Masked (typed into a secret-looking field): {text(names)}</p>'
        )
    out.append("</div>")
    return out

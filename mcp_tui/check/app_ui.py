"""Forms that offer an MCP App to render them (SEP-3118, app-rendered elicitation).

A server may attach ``_meta.ui.resourceUri`` (a ``ui://`` resource of the MCP Apps extension) to
a form ``elicitation/create``: a host that runs MCP Apps shows the app instead of its own form,
and every other client shows the form from ``requestedSchema``, which must therefore be
complete. The SEP has the server attach it only for a client that advertised app-rendered
elicitation (``extensions["io.modelcontextprotocol/ui"].elicitation``); ``mcp-tui check``
advertises no MCP Apps support, so a form that carries it here was attached unasked. mcp-tui
renders the native form and says, in the form and its transcript, that the app exists.
"""

from __future__ import annotations

from collections.abc import Iterator

from mcp_tui.check.findings import Finding, Listing, finding, form_example, rule
from mcp_tui.untrusted import one_line


@rule(
    "E108",
    "warning",
    "a form carrying _meta.ui.resourceUri the client never negotiated",
    why=(
        "A form may offer an MCP App to render it only to a client that advertised "
        "app-rendered elicitation (SEP-3118); every other client shows its own form from "
        "requestedSchema and never the app, so that schema must be complete."
    ),
    bad={
        "elicitations": [
            {
                **form_example({"name": {"type": "string"}}),
                "_meta": {"ui": {"resourceUri": "ui://shop/form"}},
            }
        ]
    },
    good={"elicitations": [form_example({"name": {"type": "string"}})]},
)
def app_rendered(listing: Listing) -> Iterator[Finding]:
    for params in listing.elicitations:
        meta = params.get("_meta")
        ui = meta.get("ui") if isinstance(meta, dict) else None
        uri = ui.get("resourceUri") if isinstance(ui, dict) else None
        if not isinstance(uri, str) or params.get("mode", "form") != "form":
            continue
        call = params.get("_mcp_tui_call")
        where = f"elicitation in {one_line(call, limit=80)}" if call else "elicitation"
        yield finding(
            "E108",
            listing,
            where,
            "/_meta/ui/resourceUri",
            f"the form offers an MCP App ({one_line(uri, limit=120)}) to a client that did not "
            "advertise app-rendered elicitation (SEP-3118): such clients, mcp-tui among them, "
            "show their own form from requestedSchema and never the app",
            "attach _meta.ui.resourceUri only when the client's capabilities carry "
            'extensions["io.modelcontextprotocol/ui"].elicitation, and keep requestedSchema '
            "complete either way (it is every other client's form)",
        )

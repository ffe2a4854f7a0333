"""A short description of whatever the catalog cursor is on; ``i`` opens it in full.

For a server: its state (and the reason it failed), what it calls itself, its version, protocol
version, capabilities and instructions. For a tool, prompt or resource: its description and
arguments. Everything bounded here; :func:`details` gives the complete text for the detail view.

Two widgets: :class:`InfoPanel` (``#info``) holds mcp-tui's lines (the name, the state, the
arguments, the keys) and a :class:`~mcp_tui.ui.widgets.text.server_text.ServerText` under it
(``#info-text``) holds what the server wrote in prose — a tool's description, the server's
instructions — in the server's region, so a description cannot pass for the panel's own lines.
"""

from __future__ import annotations

import time

from textual.content import Content

from mcp_tui.session.events import ConnectionState, PromptInfo, ResourceInfo, ToolInfo
from mcp_tui.ui.literal import literal, literal_line
from mcp_tui.ui.render import clip, pretty_json, server_info_text
from mcp_tui.ui.server_state import ServerEntry
from mcp_tui.ui.shown_names import shown_name
from mcp_tui.ui.widgets.session.catalog_tree import NodeRef
from mcp_tui.ui.widgets.text.fitted_text import FittedText
from mcp_tui.ui.widgets.text.server_text import ServerText

STATE_STYLE = {
    ConnectionState.CONNECTING: "$warning",
    ConnectionState.READY: "$success",
    ConnectionState.FAILED: "$error",
    ConnectionState.CLOSED: "$text-muted",
}


def _short(text: str, lines: int = 3, chars: int = 400) -> Content:
    shown, cut = clip(text, chars=chars, lines=lines)
    content = literal(shown, limit=None)
    if cut:
        content = Content.assemble(content, ("…", "dim"))
    return content


def tool_arguments(tool: ToolInfo) -> list[str]:
    """Argument names, required ones marked with ``*``, in schema order."""
    properties = tool.input_schema.get("properties")
    required = tool.input_schema.get("required")
    required_set = set(required) if isinstance(required, list) else set()
    if not isinstance(properties, dict):
        return []
    return [f"{name}*" if name in required_set else str(name) for name in properties]


def _server_summary(entry: ServerEntry) -> list[Content]:
    style = STATE_STYLE[entry.state]
    state = entry.state.value
    if entry.state is ConnectionState.CONNECTING:
        elapsed = int(time.monotonic() - entry.since)
        state += f" {elapsed} s" if elapsed >= 1 else ""
    lines = [
        Content.assemble(
            literal_line(entry.shown_name, limit=60, style="bold"), " · ", (state, style)
        )
    ]
    if entry.paused:
        why = (
            "not asking (paused by the rate limit: too many requests)"
            if entry.paused_by_limit
            else "not asking"
        )
        lines.append(
            Content.styled(f"{why}: its requests are cancelled · x asks again", "$warning")
        )
    if entry.detail:
        failed = entry.state is ConnectionState.FAILED
        lines.append(_short(entry.detail).stylize("$error" if failed else ""))
    info = entry.info
    if info is not None:
        own = info.title or info.name
        claimed = entry.claim  # its own name, quoted: never as ours
        if claimed is None:
            who = " ".join(x for x in (own, info.version) if x) or "?"
            said = Content.assemble(("server ", "dim"), literal_line(who, limit=80))
        else:
            said = literal_line(claimed, limit=100)
            if info.version:
                version = literal_line(info.version, limit=30)
                said = Content.assemble(said, (", version ", "dim"), version)
        lines.append(
            Content.assemble(
                said,
                ("  protocol ", "dim"),
                literal_line(info.protocol_version or "?", limit=30),
            )
        )
        caps = ", ".join(sorted(info.capabilities)) or "none"
        lines.append(
            Content.assemble(
                ("capabilities ", "dim"),
                literal_line(caps, limit=200),
                ("  logs: ", "dim"),  # the level asked for (the palette's "Log level")
                literal_line(entry.log_level),
            )
        )

    return lines


def _resource_marks(ref: NodeRef, entry: ServerEntry | None) -> list[Content]:
    """ "subscribed" and "updated since read" for a resource, with the ``s`` hint."""
    item = ref.item
    if entry is None or ref.kind != "resource" or not isinstance(item, ResourceInfo):
        return []
    marks: list[Content] = []
    if item.uri in entry.updated:
        marks.append(Content.styled("updated since you last read it (Enter reads it)", "$warning"))
    if item.uri in entry.subscribed:
        marks.append(Content.styled("subscribed · s unsubscribes", "$accent"))
    elif (
        entry.connection is not None
        and entry.state is ConnectionState.READY
        and entry.connection.can_subscribe
    ):
        marks.append(Content.styled("s subscribes to its updates", "dim"))
    return marks


def _item_summary(ref: NodeRef) -> list[Content]:
    item = ref.item
    lines: list[Content] = []
    if isinstance(item, ToolInfo):
        lines.append(Content.assemble(("tool ", "dim"), literal_line(item.name, style="bold")))
        args = tool_arguments(item)
        lines.append(
            Content.assemble(
                ("arguments ", "dim"), literal_line(", ".join(args) or "none", limit=200)
            )
        )
    elif isinstance(item, PromptInfo):
        lines.append(Content.assemble(("prompt ", "dim"), literal_line(item.name, style="bold")))
        names = [a.name + ("*" if a.required else "") for a in item.arguments]
        lines.append(
            Content.assemble(
                ("arguments ", "dim"), literal_line(", ".join(names) or "none", limit=200)
            )
        )
    elif isinstance(item, ResourceInfo):
        what = "template " if item.template else "resource "
        lines.append(Content.assemble((what, "dim"), literal_line(item.uri, style="bold")))
        if item.mime_type:
            lines.append(Content.assemble(("type ", "dim"), literal_line(item.mime_type)))
    return lines


def server_prose(ref: NodeRef | None, entry: ServerEntry | None) -> str | None:
    """What the server wrote in prose about the node: a server's instructions, an item's
    description (raw, untrusted; shown in the server's region)."""
    if ref is None:
        return None
    if ref.kind in ("server", "group", "problem"):
        info = entry.info if entry is not None else None
        return info.instructions if info is not None else None
    item = ref.item
    if isinstance(item, (ToolInfo, PromptInfo, ResourceInfo)):
        return item.description
    return None


HINTS = {
    "server": "Enter open/close · i details · R reconnect · E other era · o roots",
    "tool": "Enter call · i details",
    "prompt": "Enter get · i details",
    "resource": "Enter read · i details",
    "template": "Enter fill in and read · i details",
}


#: The last line of a panel cut to its height.
MORE = Content.styled("… i: the full details", "dim italic")


def prose_region() -> ServerText:
    """The server's region under the panel (``#info-text``), hidden until there is prose."""
    region = ServerText(Content(""), more=MORE, id="info-text")
    region.display = False
    return region


class InfoPanel(FittedText):
    """mcp-tui's lines about the highlighted server or item, bounded to a few lines (its
    ``max-height``), ending with where the rest is when they do not fit; the server's prose goes
    to the region under it (:func:`prose_region`)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(Content(""), MORE, id=id, classes=classes)

    def show(
        self, ref: NodeRef | None, entry: ServerEntry | None, prose: ServerText | None = None
    ) -> None:
        """Show ``ref``; its description or instructions go to ``prose`` (the region)."""
        if prose is not None:
            text = server_prose(ref, entry)
            prose.display = bool(text)
            if text:
                style = "italic" if ref is not None and ref.kind == "server" else ""
                prose.set_text(_short(text, lines=4, chars=600).stylize(style))
        lines: list[Content] = []
        if entry is not None and ref is not None and ref.kind in ("server", "group", "problem"):
            lines = _server_summary(entry)
        elif ref is not None:
            lines = _item_summary(ref) + _resource_marks(ref, entry)
        # The keys, only when there is room: the footer shows them too.
        hint = Content.styled(HINTS[ref.kind], "dim italic") if ref and ref.kind in HINTS else None
        self.set_text(Content("\n").join(lines) if lines else Content("No server selected"), hint)


def details(ref: NodeRef, entry: ServerEntry | None) -> tuple[str, str]:
    """``(title, full text)`` of a catalog node for the detail view (raw, untrusted text)."""
    item = ref.item
    if isinstance(item, ToolInfo):
        text = [f"tool: {item.name}"]
        if item.title:
            text.append(f"title: {item.title}")
        text += ["", item.description or "(no description)", "", "input schema:"]
        text.append(pretty_json(item.input_schema))
        if item.output_schema is not None:
            text += ["", "output schema:", pretty_json(item.output_schema)]
        return f"{shown_name(ref.server)} › {item.name}", "\n".join(text)
    if isinstance(item, PromptInfo):
        text = [f"prompt: {item.name}"]
        if item.title:
            text.append(f"title: {item.title}")
        text += ["", item.description or "(no description)", "", "arguments:"]
        for argument in item.arguments:
            need = " (required)" if argument.required else ""
            text.append(f"- {argument.name}{need}: {argument.description or ''}")
        return f"{shown_name(ref.server)} › {item.name}", "\n".join(text)
    if isinstance(item, ResourceInfo):
        text = [f"{'template' if item.template else 'resource'}: {item.uri}", f"name: {item.name}"]
        if item.mime_type:
            text.append(f"type: {item.mime_type}")
        if entry is not None and not item.template:
            text.append("subscribed: " + ("yes" if item.uri in entry.subscribed else "no"))
            if item.uri in entry.updated:
                text.append("updated since you last read it")
        text += ["", item.description or "(no description)"]
        return f"{shown_name(ref.server)} › {item.name}", "\n".join(text)
    if entry is None:
        return ref.server, ""
    from mcp_tui.config.roots import describe_roots

    text = [f"server: {entry.shown_name}"]
    if entry.claim is not None:  # the serverInfo name, as the server's claim
        why = f" (not its name here: {entry.announced_refused})" if entry.announced_refused else ""
        text.append(f"{entry.shown_name} — {entry.claim}{why}")
    if entry.shown_name != entry.name:
        text.append(
            f"named by its serverInfo; the command line names it {entry.name} (the name of its "
            "stderr log file)"
        )
    text += [
        f"state: {entry.state.value}",
        f"target: {entry.spec.target.describe()}",
        f"protocol mode: {entry.spec.mode} (E reconnects on the other era)",
        f"log level asked for: {entry.log_level}",
        "roots: " + describe_roots(entry.spec),
    ]
    if entry.detail:
        text += ["", entry.detail]
    text += ["", server_info_text(entry.info)]
    return entry.shown_name, "\n".join(text)

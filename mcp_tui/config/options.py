"""Options that shape one run of the app, built by the CLI from arguments and config."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from msgspec import Struct, field

from mcp_tui.config.servers import DEFAULT_CONNECT_TIMEOUT, DEFAULT_RATE_LIMIT

if TYPE_CHECKING:  # the chat's record is imported only where a chat is made
    from mcp_tui.config.chat_settings import ChatSettings


class ToolCallRequest(Struct, frozen=True):
    """``--call TOOL [--args JSON]``: call this tool as soon as its server is ready."""

    tool: str
    arguments: dict[str, Any] = field(default_factory=dict)
    server: str | None = None  # None: the first server that offers the tool
    #: No ``--args`` was given: a tool with required arguments opens its arguments form
    #: instead of being called with ``{}`` (which its server can only refuse).
    ask: bool = False


class AppOptions(Struct, frozen=True):
    #: ``--call``: a tool to call as soon as its server is ready.
    call: ToolCallRequest | None = None
    #: ``--log``: every JSON-RPC message in and out, as JSON Lines, flushed per message.
    traffic_log: Path | None = None
    #: Where server stderr is written (bounded); ``None`` chooses the platform log directory.
    stderr_log: Path | None = None
    #: ``--save-answers``: every elicitation answer given in the TUI, replayable by
    #: ``mcp-tui call``.
    save_answers: Path | None = None
    #: Show a summary of what will be sent before an accepted form is sent.
    review_before_send: bool = False
    #: Automatic anti-spam limit: more than ``rate_limit_count`` requests within
    #: ``rate_limit_seconds`` from one server stops its requests until turned back on.
    rate_limit_count: int = DEFAULT_RATE_LIMIT.count
    rate_limit_seconds: float = DEFAULT_RATE_LIMIT.seconds
    #: Seconds a server may take to answer the handshake (``--connect-timeout``).
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT
    #: ``[app] arming_delay``: seconds a newly shown question ignores its accepting key and
    #: button (``ui/screens/arming``); ``None``: the built-in delay.
    arming_delay: float | None = None
    #: The chat's model (``[chat]`` in the config, ``mcp-tui chat`` options); ``None``: from the
    #: environment when the chat opens.
    chat: ChatSettings | None = None
    #: ``--record``: every call that finishes is appended to this test file as a case.
    record: Path | None = None
    #: ``--watch``: files and directories whose changes restart the stdio servers.
    watch: tuple[Path, ...] = ()
    #: Notes shown once as notifications when the app starts (the demo's chat hint).
    start_notes: tuple[str, ...] = ()
    #: Where the theme chosen is remembered for the next start (``paths.theme_file()`` from the
    #: command line); ``None``: not remembered (tests, embedding).
    theme_file: Path | None = None
    #: ``mcp-tui demo --tour``: the guided tour of elicitation on the demo server.
    tour: bool = False
    #: ``[keys]`` in the config: binding id -> the keys that run it instead (``config/keys.py``),
    #: handed to Textual's ``App.set_keymap``.
    keymap: dict[str, str] = field(default_factory=dict)

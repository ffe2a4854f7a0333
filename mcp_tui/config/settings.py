"""The app-level settings of a config file (:class:`AppSettings`), apart from the config loader.

A plain record in a module that imports neither pydantic nor the loader, so the command line can
build the defaults (no config file) without importing pydantic on the way to the first frame
(about 100 ms; see benchmarks/). ``mcp_tui.config.load`` re-exports it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from msgspec import Struct, field

from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import (
    DEFAULT_ELICITATION,
    DEFAULT_MODE,
    DEFAULT_SAMPLING,
    ElicitationPolicy,
    ProtocolMode,
    SamplingPolicy,
)

#: What a run gets with no config file: the app-level defaults are AppOptions' own.
_RUN = AppOptions()

if TYPE_CHECKING:  # the chat's record is imported only where a chat is made
    from mcp_tui.config.chat_settings import ChatSettings


class AppSettings(Struct, frozen=True):
    """The app-level part of a config file, ready to merge with the command line."""

    review_before_send: bool = _RUN.review_before_send
    traffic_log: Path | None = _RUN.traffic_log
    stderr_log: Path | None = _RUN.stderr_log
    rate_limit_count: int = _RUN.rate_limit_count
    rate_limit_seconds: float = _RUN.rate_limit_seconds
    connect_timeout: float = _RUN.connect_timeout
    arming_delay: float | None = _RUN.arming_delay
    #: ``[app] mode`` / ``elicitation``: also the defaults for servers given on the command line.
    mode: ProtocolMode = DEFAULT_MODE
    elicitation: ElicitationPolicy = DEFAULT_ELICITATION
    sampling: SamplingPolicy = DEFAULT_SAMPLING
    #: ``[chat]``: the chat's model (``None``: chosen from the environment when the chat opens).
    chat: ChatSettings | None = None
    #: ``[check]``: the check ids ``mcp-tui check`` leaves out, and ``strict``.
    check_ignore: tuple[str, ...] = ()
    check_strict: bool = False
    #: ``[keys]``: binding id -> the person's keys for it (``config/keys.py``).
    keymap: dict[str, str] = field(default_factory=dict)

    def to_options(self, **overrides: Any) -> AppOptions:
        """An :class:`AppOptions` from these settings; keyword arguments win (the command line)."""
        values: dict[str, Any] = {
            "review_before_send": self.review_before_send,
            "traffic_log": self.traffic_log,
            "stderr_log": self.stderr_log,
            "rate_limit_count": self.rate_limit_count,
            "rate_limit_seconds": self.rate_limit_seconds,
            "chat": self.chat,
            "connect_timeout": self.connect_timeout,
            "arming_delay": self.arming_delay,
            "keymap": self.keymap,
        }
        values.update({k: v for k, v in overrides.items() if v is not None})
        return AppOptions(**values)

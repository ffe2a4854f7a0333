"""The app's part of the chat (the chat extra): opening the chat screen, and the chat's model,
shared by the chat and by the sampling review screen's "Ask the chat's model".

:class:`ChatAccess` is a part the app holds; the app offers its methods to the screens.

The model object is built once per settings (the provider library is imported in a thread the
first time: about a second) and kept for the run; keys are read from the environment when it is
built and live only inside it.
"""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING, Any

from textual.app import App

from mcp_tui.config.options import AppOptions

if TYPE_CHECKING:
    from mcp_tui.config.chat_settings import ChatSettings


class ChatAccess:
    """The chat screen and the chat's model, for the app (see the module docstring)."""

    def __init__(self, app: App[Any], options: AppOptions) -> None:
        #: Where the chat screen is installed and shown.
        self._app = app
        self.options = options
        #: The chat's model objects, per settings (built on first use).
        self._models: dict[ChatSettings, Any] = {}

    def available(self) -> bool:
        """The extra is installed (checked without importing it)."""
        from mcp_tui.chat import available

        return available()

    def settings(self) -> ChatSettings:
        """The chat's model settings: the open chat's (changed with F3), else the configured
        ones, with the provider chosen from the environment when none is named."""
        from mcp_tui.config.chat_settings import ChatSettings, resolve

        if self._app.is_screen_installed("chat"):
            screen = self._app.get_screen("chat")
            settings = getattr(screen, "settings", None)
            if isinstance(settings, ChatSettings):
                return settings
        return resolve(self.options.chat or ChatSettings(), os.environ)

    async def model(self, settings: ChatSettings) -> Any:
        """The provider's model for ``settings`` (``ChatSetupError`` says what is missing)."""
        from mcp_tui.chat.providers import build_model

        if settings not in self._models:
            model = await asyncio.to_thread(build_model, settings, dict(os.environ))
            self._models[settings] = model
        return self._models[settings]

    def open(self) -> None:
        """Show the chat screen (``m``, the palette, ``mcp-tui chat``); one conversation per run,
        kept while the session screen is shown (the screen is installed, not destroyed on pop)."""
        from mcp_tui.chat import INSTALL_HINT

        if not self.available():
            self._app.notify(
                f"Chatting with a model needs the chat extra: {INSTALL_HINT}", markup=False
            )
            return
        if not self._app.is_screen_installed("chat"):
            from mcp_tui.ui.screens.chat_screen import ChatScreen

            self._app.install_screen(ChatScreen(self.settings(), os.environ), name="chat")
        chat = self._app.get_screen("chat")
        if chat not in self._app.screen_stack:
            self._app.push_screen("chat")
        elif self._app.screen is not chat:  # pushed again, one screen would be in the stack twice
            self._app.notify(
                "The chat is open under this screen: it is back when this screen closes.",
                markup=False,
            )

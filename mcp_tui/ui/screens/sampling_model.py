""" "Ask the chat's model" on the sampling review screen (Ctrl+G, with the chat extra).

The person has the whole request in front of them; pressing the key is their approval to send it
to the chat's model (:mod:`mcp_tui.chat.sampling`). The reply streams into the reply box, the
model's name and stop reason are filled in, and nothing is sent to the server until the person
accepts with Ctrl+S, as for a reply they wrote. Without the extra or a configured model the key
is not offered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input, Select, Static, TextArea

from mcp_tui.ui.literal import literal

if TYPE_CHECKING:
    from mcp_tui.session.sampling import SamplingRequest

ASK_MODEL_BINDING = Binding(
    "ctrl+g",
    "ask_model",
    "Ask the chat's model",
    id="sampling.ask_model",
    tooltip="Send this request to the chat's model; its reply fills the box for you to review",
)


class ChatModelAsk:
    """The part of the sampling review that asks the chat's model (the screen owns one).

    A part, not a mixin: it needs of its screen only the widgets it fills (queried by id), a
    worker and the app's chat settings, and the screen keeps its one ``self``. The screen's
    ``action_ask_model`` and ``check_action`` call :meth:`ask` and :meth:`can_ask`.
    """

    def __init__(self, screen: Screen[Any], request: SamplingRequest) -> None:
        self._screen = screen
        self._request = request
        self._asking = False

    def _settings(self) -> Any:
        app: Any = self._screen.app
        if not hasattr(app, "chat_available") or not app.chat_available():
            return None
        settings = app.chat_settings()
        return settings if settings.provider is not None else None

    def can_ask(self) -> bool:
        """Not while a reply is streaming in, nor without the chat extra and a model."""
        return not self._asking and self._settings() is not None

    def ask(self) -> None:
        """Send the request to the chat's model; the reply fills the box for review."""
        settings = self._settings()
        if settings is None or self._asking:
            return
        self._asking = True
        self._screen.refresh_bindings()
        self._screen.run_worker(self._ask(settings), group="ask-model", exit_on_error=False)

    async def _ask(self, settings: Any) -> None:
        from mcp_tui.chat.providers import ChatSetupError
        from mcp_tui.chat.sampling import answer

        screen = self._screen
        app: Any = screen.app
        box = screen.query_one("#sampling-reply", TextArea)
        note = screen.query_one("#sampling-status", Static)
        note.update(literal(f"Asking {settings.describe()}…", limit=None))
        note.add_class("-shown", "-info")
        try:
            model = await app.chat_model(settings)
            reply = await answer(model, self._request, lambda text: box.load_text(text))
        except ChatSetupError as exc:
            note.update(literal(str(exc), limit=None))
            note.remove_class("-info")
        except Exception as exc:  # the provider's errors: shown, the person can still write
            note.update(literal(f"The model failed: {type(exc).__name__}: {exc}", limit=2000))
            note.remove_class("-info")
        else:
            box.load_text(reply.text)
            screen.query_one("#sampling-model", Input).value = reply.model
            screen.query_one("#sampling-stop", Select).value = reply.stop_reason
            note.update(literal("The model's reply: review or edit it, then Ctrl+S sends it."))
            box.focus()
        finally:
            self._asking = False
            screen.refresh_bindings()

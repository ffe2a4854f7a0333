"""The chat's dialogs: the model and tools settings, resuming a saved conversation, and the blocks
of a resumed conversation.

Settings: the provider, the model name, an OpenAI-compatible endpoint, the system prompt and which
tools the model may see (all by default). The key itself is never typed here: only the name of the
environment variable it is read from, so the key is never shown on screen or saved.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import msgspec
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, SelectionList, TextArea
from textual.widgets.option_list import Option
from textual.widgets.selection_list import Selection

from mcp_tui.config.chat_settings import PROVIDERS, ChatSettings
from mcp_tui.schema.fields import Option as Choice
from mcp_tui.ui.closing import close_wherever
from mcp_tui.ui.literal import literal_line
from mcp_tui.ui.screen_css import screen_css
from mcp_tui.ui.widgets.form.form_controls import SelectControl
from mcp_tui.ui.widgets.key_footer import KeyFooter
from mcp_tui.ui.widgets.text.inert import InertInput
from mcp_tui.ui.widgets.text.inert_area import InertTextArea

if TYPE_CHECKING:
    from textual.widget import Widget


#: The provider choices (mcp-tui's own words).
PROVIDER_OPTIONS = [Choice(kind, kind) for kind in PROVIDERS]


class ChatSettingsScreen(ModalScreen[tuple[ChatSettings, set[str]] | None]):
    """Model, endpoint, system prompt and enabled tools; Ctrl+S keeps them, Escape drops them.

    Focus starts on the Provider each time (not on the scrolling box, which is no tab stop), and
    the Provider is the forms' drop-down (``SelectControl``): Enter, Space or Down opens it, and
    keys typed in a burst (Enter Down Enter) act in order.
    """

    AUTO_FOCUS = ""  # on_mount focuses the Provider without scrolling its label away

    DEFAULT_CSS = screen_css(__file__, "chat_settings")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "keep", "Keep", priority=True, id="chat_settings.keep"),
        Binding("escape", "drop", "Cancel", id="chat_settings.cancel"),
    ]

    def __init__(self, settings: ChatSettings, tools: list[str], disabled: set[str]) -> None:
        super().__init__(classes="dialog-screen")
        self._settings = settings
        self._tools = tools
        self._disabled = disabled

    def compose(self) -> ComposeResult:
        s = self._settings
        with VerticalScroll(classes="dialog chat-settings", can_focus=False):
            yield Label(Content("Chat: model and tools"), classes="dialog-title")
            yield Label(Content("Provider"))
            chosen = PROVIDERS.index(s.provider) if s.provider is not None else None
            yield SelectControl(PROVIDER_OPTIONS, chosen, id="chat-provider")
            yield Label(Content("Model (empty: the provider's default)"))
            yield InertInput(s.model or "", placeholder=s.model_name or "", id="chat-model")
            yield Label(Content("OpenAI-compatible endpoint (Ollama, llama.cpp, vLLM)"))
            yield InertInput(
                s.base_url or "", placeholder="http://127.0.0.1:11434/v1", id="chat-url"
            )
            yield Label(Content("Environment variable holding the key (empty: the default)"))
            yield InertInput(s.api_key_env or "", placeholder=s.key_env or "", id="chat-key-env")
            yield Label(Content("System prompt"))
            yield InertTextArea(s.system_prompt, id="chat-system")
            yield Label(Content("Tools the model may call (space toggles)"))
            yield SelectionList[str](
                *(
                    Selection(literal_line(label), label, label not in self._disabled)
                    for label in self._tools
                ),
                id="chat-tools",
            )
            with Horizontal(classes="dialog-buttons"):
                yield Button(Content("Keep  ctrl+s"), variant="primary", id="chat-keep")
                yield Button(Content("Cancel  esc"), id="chat-drop")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#chat-provider", SelectControl), scroll_visible=False)

    def _value(self, id: str) -> str | None:
        return self.query_one(f"#{id}", Input).value.strip() or None

    def action_keep(self) -> None:
        raw = self.query_one("#chat-provider", SelectControl).get_raw()
        settings = msgspec.structs.replace(
            self._settings,
            provider=next((kind for kind in PROVIDERS if kind == raw), None),
            model=self._value("chat-model"),
            base_url=self._value("chat-url"),
            api_key_env=self._value("chat-key-env"),
            system_prompt=self.query_one("#chat-system", TextArea).text.strip()
            or self._settings.system_prompt,
        )
        chosen = set(self.query_one("#chat-tools", SelectionList).selected)
        close_wherever(self, (settings, {label for label in self._tools if label not in chosen}))

    def action_drop(self) -> None:
        close_wherever(self)

    @on(Button.Pressed, "#chat-keep")
    def _keep(self) -> None:
        self.action_keep()

    @on(Button.Pressed, "#chat-drop")
    def _drop(self) -> None:
        close_wherever(self)


class ResumeScreen(ModalScreen[Path | None]):
    """The saved conversations, newest first; Enter resumes one."""

    DEFAULT_CSS = screen_css(__file__, "chat_resume")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "drop", "Cancel", id="chat_resume.cancel"),
    ]

    def __init__(self, directory: Path | None) -> None:
        super().__init__(classes="dialog-screen")
        self._directory = directory

    def compose(self) -> ComposeResult:
        from mcp_tui.chat.store import conversations_dir, list_saved

        directory = self._directory or conversations_dir()
        saved = list_saved(directory)
        with Vertical(classes="dialog chat-resume"):
            yield Label(literal_line(f"Saved conversations in {directory}"), classes="dialog-title")
            if not saved:
                yield Label(Content("None yet: a conversation is saved as it goes."))
            yield OptionList(
                *(
                    Option(
                        literal_line(
                            f"{s.created.replace('T', ' ')[:16]}  {s.title or '(no message)'}",
                            limit=90,
                        ),
                        id=str(s.path),
                    )
                    for s in saved
                ),
                id="chat-saved",
            )
        yield KeyFooter()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            close_wherever(self, Path(event.option.id))

    def action_drop(self) -> None:
        close_wherever(self)


def replay(messages: list[Any]) -> list[Widget]:
    """The blocks of a saved conversation, as they were shown when it was had."""
    from pydantic_ai.messages import (
        ModelRequest,
        ModelResponse,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
        UserPromptPart,
    )

    from mcp_tui.ui.widgets.chat_blocks import ModelBlock, ToolBlock, UserBlock

    widgets: list[Widget] = []
    tools: dict[str, ToolBlock] = {}
    for message in messages:
        if isinstance(message, ModelRequest):
            for part in message.parts:
                if isinstance(part, UserPromptPart):
                    widgets.append(UserBlock(str(part.content)))
                elif isinstance(part, ToolReturnPart) and part.tool_call_id in tools:
                    tools[part.tool_call_id].result = str(part.content)
        elif isinstance(message, ModelResponse):
            for rpart in message.parts:
                if isinstance(rpart, TextPart) and rpart.content:
                    block = ModelBlock()
                    block.text = rpart.content
                    widgets.append(block)
                elif isinstance(rpart, ToolCallPart):
                    args = rpart.args_as_dict()
                    tool = ToolBlock(rpart.tool_call_id, rpart.tool_name, args, None)
                    tools[rpart.tool_call_id] = tool
                    widgets.append(tool)
    for widget in widgets:
        if isinstance(widget, ModelBlock):
            widget.call_after_refresh(widget.finish)
        elif isinstance(widget, ToolBlock) and widget.result is not None:
            widget.call_after_refresh(widget.finish, "done", widget.result)
    return widgets

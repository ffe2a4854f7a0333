"""The chat screen: a conversation with a model that calls the servers' tools.

Pushed over the session screen (``m`` or the palette's "Chat with a model", or ``mcp-tui chat``).
The conversation itself is :mod:`mcp_tui.chat` (no Textual); this screen feeds it the user's text,
shows its events as blocks and asks the user to approve each tool call (:mod:`.chat_log`, the
screen's base), and runs approved calls through the session screen, so they appear in its
transcript and running calls too, and a tool's elicitation forms, URL consents and sampling
requests open over this screen exactly as they do for a call made by hand.

Escape stops a reply being generated (the turn's worker is cancelled; the conversation keeps the
text received and answers any tool call that did not run); with nothing running, Escape goes back
to the session screen. The provider library is imported on first use, in a thread.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widget import AwaitMount
from textual.widgets import Input, Static
from textual.worker import Worker

from mcp_tui.chat.guidance import empty_chat_hint
from mcp_tui.config.chat_settings import ChatSettings
from mcp_tui.session.events import CallOutcome, ConnectionState
from mcp_tui.ui.app_interface import McpApp
from mcp_tui.ui.closing import closing
from mcp_tui.ui.literal import literal, literal_line
from mcp_tui.ui.screen_css import screen_css
from mcp_tui.ui.screens.chat_log import ChatLog
from mcp_tui.ui.widgets.chat_blocks import ModelBlock, UserBlock
from mcp_tui.ui.widgets.key_footer import KeyFooter
from mcp_tui.ui.widgets.text.inert import InertInput
from mcp_tui.untrusted import one_line

if TYPE_CHECKING:
    from mcp_tui.chat.conversation import Conversation
    from mcp_tui.chat.store import ConversationFile
    from mcp_tui.chat.tools import ChatTool, ToolCatalog


class ChatScreen(ChatLog):
    """See the module docstring."""

    DEFAULT_CSS = screen_css(__file__)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "stop_or_close", "Stop / back", id="chat.escape"),
        Binding("ctrl+n", "new_chat", "New chat", id="chat.new"),
        Binding("ctrl+o", "resume", "Resume", id="chat.resume"),
        Binding("f4", "export", "Export", id="chat.export"),
        Binding("f3", "settings", "Model & tools", id="chat.settings"),
        Binding("y", "answer('once')", "Run", id="chat.run"),
        Binding("a", "answer('always')", "Always", id="chat.always"),
        Binding("n", "answer('deny')", "Don't run", id="chat.deny"),
        Binding("enter", "toggle_block", "Show all", show=False, id="chat.toggle"),
    ]

    def __init__(
        self,
        settings: ChatSettings,
        environ: Mapping[str, str],
        *,
        store_dir: Path | None = None,
    ) -> None:
        super().__init__(id="chat")
        self.settings = settings
        self._environ = dict(environ)
        self._store_dir = store_dir
        self.conversation: Conversation | None = None
        self._file: ConversationFile | None = None
        #: Tools the user switched off in the settings (by ``server › tool`` label).
        self.disabled_tools: set[str] = set()
        self._turn: Worker[Any] | None = None
        self._model: Any = None
        #: No block is in the log: the page says how to pick a model instead (``#chat-empty``).
        self._empty = True

    # --- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="chat-status")
        yield Static(id="chat-empty")
        yield VerticalScroll(id="chat-log")
        yield InertInput(placeholder="Message the model (Enter sends)", id="chat-input")
        yield KeyFooter()

    def on_mount(self) -> None:
        self._show_status()
        self._show_hint()
        # The tools count follows servers connecting and lists changing.
        self.set_interval(1.0, self._show_status, name="chat-status")
        self.query_one("#chat-input", Input).focus()

    @property
    def mcp_app(self) -> McpApp:
        """The app, by what the chat uses of it (``ui/app_interface.py``; the app imports this
        screen); the chat only ever runs in ``McpTuiApp``."""
        return cast(McpApp, self.app)

    @property
    def generating(self) -> bool:
        return self._turn is not None and self._turn.is_running

    def _show_status(self, note: str = "") -> None:
        if closing(self):
            return  # the turn's worker outlives the screen's widgets (``closing.py``)
        tools = len(self.tool_catalog())
        model = self.settings.model_name or "no model"
        where = f" ({self.settings.provider})" if self.settings.provider else ""
        parts = [f"Chat · {model}{where}", f"{tools} tool{'s' * (tools != 1)}"]
        if self.generating:
            parts.append("answering… Esc stops")
        if note:
            parts.append(note)
        self.query_one("#chat-status", Static).update(literal_line(" · ".join(parts), limit=None))
        self.refresh_bindings()  # New / Resume / Model & tools are back once a turn ends

    def _show_hint(self) -> None:
        """The empty page says which model is in use and how to choose one (F3, the options,
        the key variables: ``chat/guidance.py``), before anything is typed."""
        if closing(self):
            return
        hint = self.query_one("#chat-empty", Static)
        hint.display = self._empty
        if self._empty:
            hint.update(literal(empty_chat_hint(self.settings), limit=None))

    def _add(self, widget: Any) -> AwaitMount:
        if self._empty:
            self._empty = False
            self._show_hint()
        return super()._add(widget)

    def _clear_log(self) -> None:
        super()._clear_log()
        self._empty = True
        self._show_hint()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "answer":
            if self._asking is None:
                return False
            # Run and Always wait for the question to arm (shown, disabled, in the footer).
            return True if parameters == ("deny",) or self._asking[0].armed else None
        if action in ("new_chat", "resume", "settings"):
            return not self.generating
        return True

    # --- the tools the model sees ------------------------------------------------------------

    def tool_catalog(self) -> ToolCatalog:
        """The enabled tools of every ready server."""
        from mcp_tui.chat.tools import ToolCatalog

        ready = [e for e in self.mcp_app.entries.values() if e.state is ConnectionState.READY]
        tools = [
            (entry.name, tool)
            for entry in ready
            for tool in entry.tools
            if f"{entry.shown_name} › {tool.name}" not in self.disabled_tools
        ]
        return ToolCatalog(tools, {e.name: e.shown_name for e in ready})

    # --- sending -----------------------------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text:
            return
        if self.generating:
            self.notify("The model is still answering: Escape stops it.", severity="warning")
            return
        event.input.value = ""
        self._add(UserBlock(text))
        self._turn = self.run_worker(self._run_turn(text), group="chat", exit_on_error=False)
        self._show_status()

    async def _ensure_model(self) -> Any:
        """The provider's model, built on first use (the library is imported in a thread)."""
        if self._model is None:
            self._model = await self.mcp_app.chat_model(self.settings)
        return self._model

    def _ensure_conversation(self) -> Conversation:
        from mcp_tui.chat.conversation import Conversation

        if self.conversation is None:
            self.conversation = Conversation(
                system_prompt=self.settings.system_prompt, on_message=self._save
            )
        return self.conversation

    def _save(self, message: Any) -> None:
        from mcp_tui.chat.store import ConversationFile, conversations_dir

        try:
            if self._file is None:
                directory = self._store_dir or conversations_dir()
                self._file = ConversationFile(
                    directory,
                    model=self.settings.describe(),
                    system_prompt=self.settings.system_prompt,
                )
            self._file.append(message)
        except OSError as exc:
            self.notify(
                f"The conversation could not be saved: {one_line(exc)}",
                severity="warning",
                markup=False,
            )

    async def _run_turn(self, text: str) -> None:
        from mcp_tui.chat.providers import ChatSetupError

        conversation = self._ensure_conversation()
        # Shown at once: the first turn imports the provider library (a second or more).
        self._model_block = ModelBlock()
        self._add(self._model_block)
        try:
            model = await self._ensure_model()
        except ChatSetupError as exc:
            self._close_model_block(str(exc))
            self._turn = None
            self._show_status()
            return
        try:
            await conversation.run_turn(
                text,
                model=model,
                tools=self.tool_catalog(),
                approve=self._approve,
                call=self._call,
                emit=self._on_event,
            )
        finally:
            self._cancel_asking()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The status line and the keys follow the turn's worker (running, then ended)."""
        if event.worker is self._turn:
            self._show_status()

    async def _call(self, tool: ChatTool, arguments: dict[str, Any]) -> CallOutcome:
        """Run the call through the session screen (its transcript, its running calls)."""
        block = self._tool_blocks.get(self._proposed or "")
        asked: list[str] = []
        try:
            return await self.mcp_app.call_tool_awaited(
                tool.server, tool.tool.name, arguments, asking_over=self, asked=asked
            )
        finally:  # "asked: confirm → accepted" on the card, as in the transcript
            if block is not None and asked and not closing(self):
                rounds = (a.removeprefix("asked: ") for a in asked)  # a -32042 retry: two
                block.show_asked("asked: " + " · ".join(rounds))

    # --- keys --------------------------------------------------------------------------------

    def action_stop_or_close(self) -> None:
        """Escape: stop the reply being generated; with nothing running, back to the session."""
        if self.generating and self._turn is not None:
            self._turn.cancel()
            self._show_status("stopped")
            return
        self.dismiss(None)

    def action_new_chat(self) -> None:
        self.conversation = None
        self._file = None
        self._clear_log()
        self._show_status("new conversation")

    def action_export(self) -> None:
        from mcp_tui.chat.store import to_markdown

        if self.conversation is None or not self.conversation.history:
            self.notify("Nothing to export yet.", severity="warning")
            return
        target = (self._file.path if self._file else Path("conversation.jsonl")).with_suffix(".md")
        wrote = getattr(self.app, "wrote", None)
        if callable(wrote):  # ``--watch`` leaves it out
            wrote(target)
        try:
            target.write_text(to_markdown(None, self.conversation.history), encoding="utf-8")
        except OSError as exc:
            self.notify(f"Export failed: {one_line(exc)}", severity="error", markup=False)
            return
        self.notify(f"Exported to {one_line(target)}", markup=False)

    def action_resume(self) -> None:
        from mcp_tui.ui.screens.chat_extras import ResumeScreen

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.resume(path)

        self.app.push_screen(ResumeScreen(self._store_dir), callback=chosen)

    def resume(self, path: Path) -> None:
        """Load a saved conversation and show it; new messages are appended to the same file."""
        from mcp_tui.chat.conversation import Conversation
        from mcp_tui.chat.store import ConversationError, ConversationFile, load
        from mcp_tui.ui.screens.chat_extras import replay

        try:
            saved, messages = load(path)
        except ConversationError as exc:
            self.notify(one_line(exc, limit=500), severity="error", markup=False)
            return
        self.action_new_chat()
        self.conversation = Conversation(
            system_prompt=saved.system_prompt or self.settings.system_prompt,
            history=messages,
            on_message=self._save,
        )
        self._file = ConversationFile(
            path.parent, model=saved.model, system_prompt=saved.system_prompt, id=saved.id
        )
        for widget in replay(messages):
            self._add(widget)
        self._show_status(f"resumed {saved.id}")

    def action_settings(self) -> None:
        from mcp_tui.ui.screens.chat_extras import ChatSettingsScreen

        labels = [  # as ChatTool.label says them (the name a server is shown by)
            f"{entry.shown_name} › {tool.name}"
            for entry in self.mcp_app.entries.values()
            if entry.state is ConnectionState.READY
            for tool in entry.tools
        ]

        def chosen(result: tuple[ChatSettings, set[str]] | None) -> None:
            if result is None:
                return
            settings, disabled = result
            if settings != self.settings:
                self._model = None  # rebuilt with the new provider or model at the next turn
                if self.conversation is not None:
                    self.conversation.system_prompt = settings.system_prompt
            self.settings = settings
            self.disabled_tools = disabled
            self._show_status()
            self._show_hint()

        self.app.push_screen(
            ChatSettingsScreen(self.settings, labels, self.disabled_tools), callback=chosen
        )

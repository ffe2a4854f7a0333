"""The chat's log: the conversation's events shown as blocks, and each tool call put to the user.

The base of :class:`~mcp_tui.ui.screens.chat_screen.ChatScreen`, which composes the log
(``#chat-log``) and the input (``#chat-input``) and runs the turns. What the conversation emits
(:mod:`mcp_tui.chat.conversation`: a reply started, text arriving, a tool call proposed or finished,
the turn ended) becomes blocks here (:mod:`mcp_tui.ui.widgets.chat_blocks`); the turn waits in
:meth:`ChatLog._approve` while the user answers a tool call's block (``y``, ``a``, ``n`` or its
buttons). A turn's worker can outlive the log's widgets while the app closes; what it emits then is
dropped (``closing.py``).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widget import AwaitMount
from textual.widgets import Input

from mcp_tui.ui.closing import closing
from mcp_tui.ui.widgets.chat_blocks import Approval, ModelBlock, ToolBlock

if TYPE_CHECKING:
    from mcp_tui.chat.conversation import ChatEvent, ToolCallProposed


class ChatLog(Screen[None]):
    """The blocks of one conversation and the tool call waiting for an answer."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._model_block: ModelBlock | None = None
        self._tool_blocks: dict[str, ToolBlock] = {}
        self._tool_mounts: dict[str, AwaitMount] = {}
        self._asking: tuple[ToolBlock, asyncio.Future[Approval]] | None = None
        #: The call proposed last: the one ``ChatScreen._call`` runs (a turn runs its calls
        #: one after the other, each proposed, then approved, then run).
        self._proposed: str | None = None

    def _log(self) -> VerticalScroll:
        return self.query_one("#chat-log", VerticalScroll)

    def _add(self, widget: Any) -> AwaitMount:
        log = self._log()
        mounted = log.mount(widget)
        log.scroll_end(animate=False)
        return mounted

    def _clear_log(self) -> None:
        """Remove every block (a new conversation, or one resumed)."""
        self._tool_blocks.clear()
        self._tool_mounts.clear()
        self._log().remove_children()

    # --- events from the conversation --------------------------------------------------------

    def _on_event(self, event: ChatEvent) -> None:
        if closing(self):
            return  # the reply goes on streaming while the app closes: nowhere to show it
        from mcp_tui.chat import conversation as c

        if isinstance(event, c.ResponseStarted):
            if self._model_block is None or self._model_block.text:
                self._model_block = ModelBlock()
                self._add(self._model_block)
        elif isinstance(event, c.TextDelta) and self._model_block is not None:
            self._model_block.add(event.text)
            self._log().scroll_end(animate=False)
        elif isinstance(event, c.ToolCallProposed):
            self._close_model_block()
            label = event.tool.label if event.tool is not None else f"? › {event.name}"
            note = f"(unreadable arguments) {event.bad_arguments}" if event.bad_arguments else None
            block = ToolBlock(event.call_id, label, event.arguments, note)
            self._tool_blocks[event.call_id] = block
            self._proposed = event.call_id
            self._tool_mounts[event.call_id] = self._add(block)
        elif isinstance(event, c.ToolCallFinished):
            found = self._tool_blocks.get(event.call_id)
            if found is not None:
                found.finish(event.status, event.result, from_server=event.ran)
        elif isinstance(event, c.TurnEnded):
            notes = {"stopped": "stopped", "step_limit": event.error, "error": event.error}
            self._close_model_block(notes.get(event.status))

    def _close_model_block(self, note: str | None = None) -> None:
        if closing(self):
            return
        block = self._model_block
        if block is not None:
            block.finish(note)
            self._model_block = None
        elif note:
            shown = ModelBlock()
            self._add(shown)
            shown.finish(note)

    async def _approve(self, call: ToolCallProposed) -> Approval:
        future: asyncio.Future[Approval] = asyncio.get_running_loop().create_future()
        block = self._tool_blocks.get(call.call_id)
        if block is None:  # proposed while the screen closes: its worker is cancelled next
            return await future
        self._asking = (block, future)
        mounting = self._tool_mounts.pop(call.call_id, None)
        if mounting is not None:
            await mounting  # its buttons exist before they are shown
        block.ask()
        self.refresh_bindings()
        try:
            return await future
        finally:
            self._asking = None
            if not closing(self):
                self.refresh_bindings()
                self.query_one("#chat-input", Input).focus()

    def on_tool_block_answered(self, event: ToolBlock.Answered) -> None:
        asking = self._asking
        if asking is not None and asking[0] is event.block and not asking[1].done():
            asking[1].set_result(event.approval)

    def action_answer(self, approval: Approval) -> None:
        if self._asking is not None:
            self._asking[0].answer(approval)

    def _cancel_asking(self) -> None:
        if self._asking is not None and not self._asking[1].done():
            self._asking[1].cancel()

    def action_toggle_block(self) -> None:
        focused = self.focused
        block = focused if isinstance(focused, ToolBlock) else None
        if block is None and focused is not None:
            block = next((a for a in focused.ancestors if isinstance(a, ToolBlock)), None)
        if block is not None:
            block.toggle()

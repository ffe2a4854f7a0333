"""The blocks of a chat: the user's messages, the model's streamed replies, and tool calls.

A tool call block shows ``server › tool`` (from mcp-tui's own catalogue record of the server) and
the arguments the model chose, then asks whether to run it (Run / Always for this tool / Don't)
unless the tool was allowed for the session; its result (or why it did not run) follows in the
server's region (``widgets/text/server_text``), folded to a few lines with the whole text a key
press away (Enter toggles the block).

Model text and tool results are shown as literal text (``ui/literal.literal``): a model can repeat
anything a server said, so neither is ever parsed as markup or passed to the terminal raw.
"""

from __future__ import annotations

import json
from typing import Any, Literal, cast

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Button, Static

from mcp_tui.ui.arming_delay import ARMING, armed_since, arming_left
from mcp_tui.ui.literal import literal, literal_line
from mcp_tui.ui.render import clip
from mcp_tui.ui.widgets.text.server_text import ServerText

Approval = Literal["once", "always", "deny"]


class UserBlock(Static):
    """What the user wrote."""

    DEFAULT_CSS = """
    UserBlock { margin: 1 0 0 0; padding: 0 1; background: $boost; border-left: thick $accent; }
    """

    def __init__(self, text: str) -> None:
        super().__init__(literal(text), classes="chat-user")


class ModelBlock(Static):
    """One model reply, growing as its text streams in."""

    DEFAULT_CSS = """
    ModelBlock { margin: 1 0 0 0; padding: 0 1; }
    ModelBlock.-waiting { color: $text-muted; }
    """

    def __init__(self) -> None:
        super().__init__(Content("…"), classes="chat-model -waiting")
        self.text = ""

    def add(self, delta: str) -> None:
        self.text += delta
        self.remove_class("-waiting")
        self.update(literal(self.text, limit=None))

    def finish(self, note: str | None = None) -> None:
        """The reply ended; ``note`` (e.g. "stopped") is shown after it, muted."""
        self.remove_class("-waiting")
        if not self.text and not note:
            self.display = False
            return
        # The note may hold a provider's error text: literal, like the reply itself.
        self.update(
            Content.assemble(
                literal(self.text, limit=None),
                literal(("\n" if self.text else "") + f"[{note}]" if note else "", style="dim"),
            )
        )


#: A tool call block's title by how the call ended.
BLOCK_TITLES = {
    "done": "tool call",
    "error": "tool call: error",
    "denied": "tool call: not run",
    "stopped": "tool call: stopped",
}


class ToolBlock(Vertical):
    """A tool call the model made: what, with which arguments, the approval, the result."""

    can_focus = True

    DEFAULT_CSS = """
    ToolBlock { height: auto; margin: 1 0 0 0; padding: 0 1; border: round $panel-lighten-2; }
    ToolBlock.-asking { border: round $warning; }
    ToolBlock:focus { border: round $accent; }
    ToolBlock.-error, ToolBlock.-denied { border: round $error 60%; }
    ToolBlock .tool-args, ToolBlock .tool-more { height: auto; color: $text-muted; }
    ToolBlock .tool-asked { height: auto; }
    ToolBlock .tool-result { color: $text; margin-top: 1; }
    ToolBlock .tool-approval { height: auto; margin-top: 1; }
    ToolBlock .tool-approval Button { margin-right: 1; min-width: 10; }
    """

    class Answered(Message):
        """The user chose whether the call runs."""

        def __init__(self, block: ToolBlock, approval: Approval) -> None:
            super().__init__()
            self.block = block
            self.approval = approval

    def __init__(
        self, call_id: str, label: str, arguments: dict[str, Any], note: str | None
    ) -> None:
        super().__init__(classes="chat-tool")
        self.call_id = call_id
        self.tool_label = label
        self.arguments = arguments
        self._note = note
        self.result: str | None = None
        #: What the server asked during the call ("asked: confirm → accepted"), if anything.
        self.asked = ""
        self.result_status = ""
        self.expanded = False
        self._from_server = False
        self.border_title = "tool call"
        #: ``ARMING``'s clock when the approval question appeared (``None``: not yet).
        self._asked_at: float | None = None
        #: The question has been painted (its arming delay runs from then).
        self.asked_shown = False
        self._arming_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static(literal_line(self.tool_label, style="bold"), classes="tool-title")
        # One line (wrapped when long): a short call stays a short block at 80x24.
        shown = json.dumps(self.arguments, ensure_ascii=False) if self.arguments else "{}"
        args = clip(shown)[0]
        yield Static(literal(self._note or args), classes="tool-args")
        with Horizontal(classes="tool-approval") as row:
            row.display = False
            yield Button("Run (y)", id="tool-run", variant="primary", compact=True)
            yield Button("Always for this tool (a)", id="tool-always", compact=True)
            yield Button("Don't run (n)", id="tool-deny", variant="error", compact=True)

    def ask(self) -> None:
        """Show the approval buttons and focus Run (so y/a/n are not typed into the input).

        The question arms as a screen that answers a server does (``ui/screens/arming``): a
        ``y`` or Enter typed while the model was streaming must not run a call that appeared
        under it. Until it has been on screen for ``ARMING.delay``, Run and Always are disabled
        (the block holds the focus meanwhile) and :attr:`armed` is false; Don't run acts at once.
        """
        row = self.query_one(".tool-approval")
        row.display = True
        self.add_class("-asking")
        self._asked_at = None
        self.asked_shown = False
        if armed_since(None):  # arming off
            self._asked_at = float("-inf")
            self.asked_shown = True
            row.query_one("#tool-run", Button).focus()
        else:
            for button in self._held_buttons():
                button.add_class("-arming")
                button.disabled = True
            self.focus()
            self.call_after_refresh(self._question_appeared)
        self.scroll_visible(animate=False)

    @property
    def armed(self) -> bool:
        """The question has been on screen for the arming delay: Run and Always act."""
        return self.asked_shown and armed_since(self._asked_at)

    def _held_buttons(self) -> list[Button]:
        return [self.query_one(f"#{i}", Button) for i in ("tool-run", "tool-always")]

    def _question_appeared(self) -> None:
        if not self.is_attached or not self.has_class("-asking"):
            return
        self._asked_at = ARMING.clock()
        self.asked_shown = True
        self.update_arming()

    def update_arming(self) -> None:
        """Turn Run and Always live once armed; until then, look again when the delay should
        be over (tests that drive ``ARMING``'s clock call this)."""
        if self._arming_timer is not None:
            self._arming_timer.stop()
            self._arming_timer = None
        if not self.is_attached or not self.has_class("-asking") or not self.asked_shown:
            return
        if not self.armed:
            wait = max(arming_left(self._asked_at), 0.05)
            self._arming_timer = self.set_timer(wait, self.update_arming)
            return
        for button in self._held_buttons():
            if button.has_class("-arming"):
                button.remove_class("-arming")
                button.disabled = False
        if self.has_focus:
            self.query_one("#tool-run", Button).focus()
        self.screen.refresh_bindings()

    def answer(self, approval: Approval) -> None:
        """Record the choice (by key or button) and remove the buttons; running the call is
        held until the question is armed, not running it never is."""
        if not self.has_class("-asking"):
            return
        if approval != "deny" and not self.armed:
            return
        self.remove_class("-asking")
        self.query_one(".tool-approval").display = False
        self.post_message(self.Answered(self, approval))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        choice: dict[str | None, Approval] = {
            "tool-run": "once",
            "tool-always": "always",
            "tool-deny": "deny",
        }
        if event.button.id in choice:
            self.answer(choice[event.button.id])

    def show_asked(self, asked: str) -> None:
        """What the server asked during the call, under its arguments (the transcript's card
        says the same): mcp-tui's words, with field names through ``literal_line``."""
        if not asked or asked == self.asked:
            return
        self.asked = asked
        shown = literal_line(asked, limit=300, style="dim")
        existing = list(self.query(".tool-asked"))
        if existing:
            cast(Static, existing[0]).update(shown)
        else:
            self.mount(Static(shown, classes="tool-asked"), after=self.query_one(".tool-args"))

    def finish(self, status: str, text: str, *, from_server: bool = True) -> None:
        """The call ended: show its result (folded) and mark errors and refusals. A result the
        server answered (``from_server``) is in the server's region; mcp-tui's note on why the
        call did not run is not."""
        self.result = text
        self._from_server = from_server
        if self.has_class("-asking"):  # stopped while asking: the question went with the turn
            self.remove_class("-asking")
            self.query_one(".tool-approval").display = False
        self.result_status = status if status in BLOCK_TITLES else "done"
        self.border_title = BLOCK_TITLES.get(status, BLOCK_TITLES["done"])
        self.add_class(f"-{status}")
        self._show_result()

    def toggle(self) -> None:
        """Fold or unfold a long result."""
        self.expanded = not self.expanded
        self._show_result()

    def _show_result(self) -> None:
        if self.result is None:
            return
        # The result is the server's text: in the server's region; the fold note is ours.
        text, cut = (self.result, False) if self.expanded else clip(self.result)
        shown = literal(text, limit=None if self.expanded else 4000)
        existing = list(self.query(".tool-result"))
        if not existing:
            self.mount(
                ServerText(shown, classes="tool-result")
                if self._from_server
                else Static(shown, classes="tool-result")
            )
            self.mount(Static(Content(""), classes="tool-more"))
        else:
            existing[0].update(shown)  # type: ignore[attr-defined]
        note = self.query_one(".tool-more", Static)
        note.update(Content("… (Enter on this block: show all)" if cut else ""))
        note.display = cut

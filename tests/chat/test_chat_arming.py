"""A tool call's approval arms before it accepts, like every screen that answers a server
(``ui/screens/arming``): a ``y`` typed while the model was streaming must not run a tool call
that appeared under it. With the delay on (0.6 s, on a clock the test moves), ``y``, Enter on
Run and a click on Run at 0 ms and 50 ms after the question appeared run nothing; after the
delay ``y`` runs the call; ``n`` and Escape act at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mcp_tui.ui.screens.chat_screen import ChatScreen
from mcp_tui.ui.widgets.chat_blocks import ToolBlock
from tests.chat.fake_openai import Reply
from tests.chat.test_chat_tui import DELETE, chat_app, say
from tests.ui.demo_tui_kit import next_form, wait_until

pytestmark = pytest.mark.anyio


async def asked(run: Any, chat: ChatScreen) -> ToolBlock:
    """The tool call's block once its question has appeared (its first frame painted)."""
    block: ToolBlock = await wait_until(
        run.pilot,
        lambda: next((b for b in chat.query(ToolBlock) if b.has_class("-asking")), None),
        "the approval question",
    )
    await wait_until(run.pilot, lambda: block.asked_shown, "the question shown")
    return block


async def test_y_at_0_ms_and_50_ms_runs_nothing_after_the_delay_it_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, arming_clock: Any
) -> None:
    script = [Reply(text="Deleting it.", tool_calls=[DELETE]), Reply(text="Done.")]
    async with chat_app(tmp_path, script, monkeypatch) as (run, fake, chat):
        await say(run, "delete payments-api")
        block = await asked(run, chat)
        await run.pilot.press("y")  # 0 ms
        await run.pilot.press("a")
        await run.pilot.press("enter")
        arming_clock.advance(0.05)  # 50 ms
        await run.pilot.press("y")
        await run.pilot.click("#tool-run")
        await run.pilot.pause()
        assert block.has_class("-asking") and block.result is None
        assert len(fake.requests) == 1
        assert chat.check_action("answer", ("once",)) is None  # the footer shows it, disabled
        assert chat.check_action("answer", ("deny",)) is True
        arming_clock.advance(0.6)
        block.update_arming()
        await run.pilot.pause()
        assert chat.check_action("answer", ("once",)) is True
        await run.pilot.press("y")
        await next_form(run, "Delete the project payments-api")
        assert not block.has_class("-asking")
        await run.pilot.press("escape")


@pytest.mark.parametrize(("key", "status"), [("n", "denied"), ("escape", "stopped")])
async def test_n_and_escape_act_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, arming_clock: Any, key: str, status: str
) -> None:
    script = [Reply(tool_calls=[DELETE]), Reply(text="Not deleting.")]
    async with chat_app(tmp_path, script, monkeypatch) as (run, _fake, chat):
        await say(run, "delete it")
        block = await asked(run, chat)
        await run.pilot.press(key)  # 0 ms: not running the call is never held
        await wait_until(run.pilot, lambda: block.result_status == status, "not run")
        # The question is gone: no Run button left on a call that will not run.
        assert not block.has_class("-asking")
        assert chat.check_action("answer", ("once",)) is False

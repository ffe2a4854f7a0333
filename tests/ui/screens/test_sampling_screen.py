"""The sampling review screen against the Python fixture server, through the real app: the tools
offered are shown, and a tool-use reply (stop reason toolUse, the tool, its JSON input) reaches the
server; a bad tool input is refused on the screen, with nothing sent."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Select, Static, TextArea

from mcp_tui.config.options import AppOptions, ToolCallRequest
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.sampling_review import SamplingScreen
from tests.waits import wait_until

pytestmark = pytest.mark.anyio

SERVER = Path(__file__).resolve().parents[2] / "fixtures" / "elicit_server.py"


def transcript(app: McpTuiApp) -> str:
    session = app.session
    if session is None or not session.areas.panels_ready:
        return ""
    return "\n".join(e.full for e in session.areas.transcript.entries)


async def test_a_tool_use_reply_from_the_review_screen(tmp_path: Path) -> None:
    spec = ServerSpec("fx", StdioTarget(sys.executable, (str(SERVER),)), mode="legacy")
    options = AppOptions(
        call=ToolCallRequest("sample", {"tools": True}), stderr_log=tmp_path / "stderr.log"
    )
    app = McpTuiApp([spec], options)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_until(
            lambda: isinstance(app.screen, SamplingScreen), 60, pilot=pilot, message="the review"
        )
        screen = app.screen
        assert isinstance(screen, SamplingScreen)
        # The stop-reason Select composes its own children a moment after the screen's widgets
        # exist; setting its value before its label is mounted raises inside Textual.
        await wait_until(
            lambda: (
                screen.query("#sampling-tool-input")
                and screen.query("#sampling-stop SelectCurrent #label")
            ),
            pilot=pilot,
            message="the widgets",
        )
        shown = "\n".join(str(s.render()) for s in screen.query(Static))
        assert "Tools offered" in shown and "get_weather — The weather in a city" in shown
        assert "[image: image/png, 900 B; not shown]" in shown
        screen.query_one("#sampling-stop", Select).value = "toolUse"
        screen.query_one("#sampling-tool-input", TextArea).text = '["not", "an object"]'
        await pilot.press("ctrl+s")
        await wait_until(
            lambda: "must be a JSON object" in str(screen.query_one("#sampling-status").render()),
            pilot=pilot,
            message="the refusal",
        )
        assert app.screen is screen
        screen.query_one("#sampling-tool-input", TextArea).text = '{"city": "Oslo"}'
        await pilot.press("ctrl+s")
        await wait_until(
            lambda: '"stopReason":"toolUse"' in transcript(app), 60, pilot=pilot, message="result"
        )
        result = transcript(app)
        await pilot.press("ctrl+q")
        await wait_until(lambda: not app.is_running, 30, pilot=pilot, message="the app quit")
    answer, _ = json.JSONDecoder().raw_decode(result[result.index('{"role"') :])
    [use] = answer["content"]
    assert (use["name"], use["input"]) == ("get_weather", {"city": "Oslo"})


async def test_the_question_is_in_sight_at_80x24() -> None:
    """server-everything's trigger-sampling-request at 80x24: the reply box took eight lines and
    the body above it showed only maxTokens and the system prompt, so the message to answer was
    scrolled out of sight. The reply box gives up lines to the body on a small screen."""
    from textual.app import App

    from mcp_tui.session.sampling import SamplingMessage, SamplingPart, SamplingRequest

    request = SamplingRequest(
        server="everything",
        messages=(
            SamplingMessage("user", (SamplingPart("text", "Resource trigger-sampling: HAIKU?"),)),
        ),
        max_tokens=100,
        system_prompt="You are a helpful test server.",
        temperature=0.7,
    )

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(SamplingScreen(request))

    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(lambda: isinstance(app.screen, SamplingScreen), pilot=pilot)
        screen = app.screen
        body = screen.query_one("#sampling-body")
        question = next(s for s in screen.query(".sampling-text") if "HAIKU?" in str(s.render()))
        reply = screen.query_one("#sampling-reply", TextArea)
        await wait_until(lambda: reply.has_focus and question.region.height > 0, pilot=pilot)
        await pilot.pause()
        assert body.region.contains_region(question.region), (body.region, question.region)
        assert reply.region.height >= 3


async def test_the_stop_reason_and_model_labels_sit_beside_their_fields() -> None:
    """The options row's labels had a top padding made for a three-line Select, while the Select
    and Input are compact (one line): 'endTurn ▼  human' showed a line above 'Stop reason  Model',
    each value over the wrong word's place."""
    from textual.app import App
    from textual.widgets import Input, Label, Select

    from mcp_tui.session.sampling import SamplingMessage, SamplingPart, SamplingRequest

    request = SamplingRequest(
        server="everything",
        messages=(SamplingMessage("user", (SamplingPart("text", "hi"),)),),
        max_tokens=100,
    )

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(SamplingScreen(request))

    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(lambda: isinstance(app.screen, SamplingScreen), pilot=pilot)
        screen = app.screen
        stop = screen.query_one("#sampling-stop", Select)
        model = screen.query_one("#sampling-model", Input)
        labels = list(screen.query_one("#sampling-options").query(Label))
        await wait_until(lambda: stop.region.height > 0 and model.region.height > 0, pilot=pilot)
        assert [str(label.render()) for label in labels] == ["Stop reason", "Model"]
        # The text's line (content_region: a label's padding is inside its region).
        lines = [label.content_region.y for label in labels]
        assert lines == [stop.content_region.y, model.content_region.y], lines
        assert labels[0].region.right <= stop.region.x < labels[1].region.x < model.region.x


def review_host() -> Any:
    """An app with one review screen; its ``outcomes`` hold what the screen was closed with."""
    from textual.app import App

    from mcp_tui.session.sampling import SamplingMessage, SamplingPart, SamplingRequest

    request = SamplingRequest(
        server="s",
        messages=(SamplingMessage("user", (SamplingPart("text", "hi"),)),),
        max_tokens=100,
    )

    class Host(App[None]):
        def __init__(self) -> None:
            super().__init__()
            self.outcomes: list[Any] = []

        def on_mount(self) -> None:
            self.push_screen(SamplingScreen(request), callback=self.outcomes.append)

    return Host()


@pytest.mark.parametrize(
    "keys",
    [(), ("space", "space", "space"), ("space", "enter", "tab"), ("enter", "enter")],
    ids=["empty", "spaces", "space-line-tab", "lines"],
)
async def test_ctrl_s_with_an_empty_or_blank_reply_sends_nothing(keys: tuple[str, ...]) -> None:
    """A reply of nothing, or of only spaces, tabs and line ends, is no model answer: Ctrl+S
    says so and sends nothing (a blank reply was sent as the model's message)."""
    app = review_host()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(lambda: isinstance(app.screen, SamplingScreen), pilot=pilot)
        screen = app.screen
        reply = screen.query_one("#sampling-reply", TextArea)
        await wait_until(lambda: reply.has_focus, pilot=pilot)
        await pilot.press(*keys)
        await pilot.press("ctrl+s")
        status = screen.query_one("#sampling-status", Static)
        await wait_until(
            lambda: "write the reply first" in str(status.render()), pilot=pilot, message="said"
        )
        assert app.outcomes == []  # nothing sent
        assert app.screen is screen
        await pilot.press(*"Fine", "ctrl+s")
        await wait_until(lambda: app.outcomes, pilot=pilot, message="sent once written")
    [outcome] = app.outcomes
    assert outcome.action == "accept" and outcome.text.strip() == "Fine"

""" "Export session…" by keys at 80x24: a call to a hostile server, answered in a form with a
secret-looking field, then the palette verb and the dialog's default path; the three files are
written where the notice says, the HTML and the Markdown are inert (checked by parsing them) and
the secret typed appears in none of the files."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.screens.export_session import ExportSessionScreen
from mcp_tui.untrusted import visible
from tests.export.inert_html import inspect
from tests.ui.app_testkit import (
    catalog_has,
    mounted_screen,
    open_node,
    run_from_palette,
    session_of,
    transcript_text,
    wait_until,
)

pytestmark = pytest.mark.anyio

ROOT = Path(__file__).resolve().parents[3]
SERVER = ROOT / "tests" / "fixtures" / "hostile_share_server.py"
SECRET = "hunter2-Zq9"


async def test_export_session_by_keys_writes_inert_files_without_the_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the dialog's default path is in the current directory
    target = StdioTarget(sys.executable, (str(SERVER),), env={"PYTHONPATH": str(ROOT)})
    app = McpTuiApp([ServerSpec("hostile", target)], AppOptions(stderr_log=Path(os.devnull)))
    notices: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        real_notify = app.notify

        def notify(message: str, *args: object, **kw: object) -> None:
            notices.append(message)
            real_notify(message, *args, **kw)  # type: ignore[arg-type]

        monkeypatch.setattr(app, "notify", notify)
        await wait_until(lambda: catalog_has(app, "hostile", "report"), 30, pilot=pilot)
        await open_node(pilot, app, "hostile", "report")
        if isinstance(app.screen, ArgumentsScreen):
            await pilot.press("ctrl+s")
        form = await wait_until(lambda: mounted_screen(app, ElicitationScreen), 20, pilot=pilot)
        await pilot.press(*"ada", "tab", *SECRET, "ctrl+s")
        await wait_until(lambda: form not in app.screen_stack, pilot=pilot)
        await wait_until(
            lambda: session_of(app).calls.history.last_finished is not None, 20, pilot=pilot
        )
        await wait_until(lambda: "user=ada" in transcript_text(app, full=True), pilot=pilot)

        await run_from_palette(pilot, app, "export session", "Export session")
        dialog = await wait_until(lambda: mounted_screen(app, ExportSessionScreen), pilot=pilot)
        await pilot.press("enter")  # the default path
        await wait_until(lambda: dialog not in app.screen_stack, pilot=pilot)
        await wait_until(lambda: any("Session exported" in n for n in notices), pilot=pilot)

    written = sorted(tmp_path.glob("mcp-tui-session-*"))
    assert [p.suffix for p in written] == [".html", ".md", ".svg"], written
    notice = next(n for n in notices if "Session exported" in n)
    assert all(p.name in notice for p in written), "the notice says where"
    for path in written:
        assert SECRET not in path.read_text(encoding="utf-8"), f"the secret is in {path.name}"

    page = written[0].read_text(encoding="utf-8")
    seen = inspect(page)
    assert seen.problems == []
    text = "".join(seen.text)
    assert visible("<script>alert(1)</script> <img src=x onerror=alert(2)>") in text
    assert visible("\x1b]0;pwned\x07 \u202eevil\u202c") in text
    assert "Log in" in text and "user=ada" in text, "the form and the result are there"
    assert "elicitation/create" in text, "so is the traffic"
    assert "\x1b" not in page and "\u202e" not in page

    document = written[1].read_text(encoding="utf-8")
    rendered = inspect(MarkdownIt("commonmark", {"html": True}).render(document))
    assert rendered.problems == []
    assert set(rendered.tags) <= {"h1", "h2", "h3", "p", "pre", "code", "strong"}
    assert "<script>alert(1)</script>" in "".join(rendered.text)


def test_traffic_rows_pair_each_answer_with_the_request_of_the_other_side() -> None:
    """Client and server number their requests apart: the server's elicitation #6, asked while
    the client's tools/call #6 runs, is answered by an elicitation/create result, not a
    tools/call one."""
    from mcp_tui.session.events import TrafficRecorded
    from mcp_tui.ui.call_history import CallHistory
    from mcp_tui.ui.share_session import gather

    def event(direction: str, message: dict[str, object]) -> TrafficRecorded:
        return TrafficRecorded("demo", direction, {"jsonrpc": "2.0", **message})  # type: ignore[arg-type]

    traffic = [
        event("out", {"id": 6, "method": "tools/call", "params": {}}),
        event("in", {"id": 6, "method": "elicitation/create", "params": {}}),
        event("out", {"id": 6, "result": {"action": "decline"}}),
        event("in", {"id": 6, "result": {"content": []}}),
    ]
    shared = gather(["demo"], [], CallHistory(), traffic)
    assert [m.summary for m in shared.traffic] == [
        "tools/call request #6",
        "elicitation/create request #6",
        "elicitation/create result #6",
        "tools/call result #6",
    ]

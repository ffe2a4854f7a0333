"""Snapshots of the "Export session…" dialog at 80x24 and 120x40, over a session with calls:
as it opens (the path, where the three files go), and at 80x24 after a write that failed (the
reason shown, the path as typed kept).

The dialog is opened as the palette opens it (``open_export``), with a fixed default path (the
real one carries the date and time). Update with ``--snapshot-update`` and look at the SVGs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

import mcp_tui.ui.share_session as share_session
from mcp_tui.ui.screens.export_session import ExportSessionScreen, open_export
from tests.ui.app_testkit import mounted_screen, session_of, wait_until
from tests.ui.screens.test_session_snapshots import LARGE, SMALL, make_session_app, utc, with_calls

SnapCompare = Callable[..., bool]
BASE = "./mcp-tui-session-2031-05-17-0930"

__all__ = ["utc"]  # the fixture: the session's times in UTC


async def open_dialog(pilot: Pilot[None]) -> ExportSessionScreen:
    await with_calls(pilot)
    session = session_of(pilot.app)  # type: ignore[arg-type]
    open_export(session.app, session.calls.history, session.shared)
    dialog = await wait_until(lambda: mounted_screen(pilot.app, ExportSessionScreen), pilot=pilot)
    await pilot.pause()
    return dialog


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
def test_export_dialog(
    snap_compare: SnapCompare, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(share_session, "default_base", lambda: BASE)

    async def run_before(pilot: Pilot[None]) -> None:
        dialog = await open_dialog(pilot)
        status = dialog.query_one("#export-status")
        await wait_until(lambda: "Writes" in str(status.render()), pilot=pilot)

    assert snap_compare(make_session_app(), terminal_size=size, run_before=run_before)


def test_export_dialog_when_the_write_fails(
    snap_compare: SnapCompare, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(share_session, "default_base", lambda: "/read-only/session")

    def refuse(base: Path, *args: Any) -> list[Path]:
        raise PermissionError(13, "Permission denied", f"{base}.html")

    monkeypatch.setattr(share_session, "write_export", refuse)

    async def run_before(pilot: Pilot[None]) -> None:
        dialog = await open_dialog(pilot)
        await pilot.press("ctrl+s")
        status = dialog.query_one("#export-status")
        await wait_until(lambda: status.has_class("-error"), pilot=pilot)
        assert pilot.app.screen is dialog  # still open, the path as typed
        await pilot.pause()

    assert snap_compare(make_session_app(), terminal_size=SMALL, run_before=run_before)

"""A recorded case is one that can pass: the recorder and ``mcp-tui test`` read a call's end by
one rule (``testbench/observed.py``, :func:`~mcp_tui.testbench.observed.outcome_of`).

The call that shows it: a server whose ``tools/call`` result does not follow the protocol
(``content`` is not a list). mcp-tui refuses the answer itself, so the call ends with an error
that has no JSON-RPC code while the connection stays up. ``mcp-tui test`` reports that as
``error``; the recorder once wrote it ``connection_lost``, a case that failed at once.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from pathlib import Path

import anyio
import pytest

from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.testbench.load import load_test_file
from mcp_tui.ui.app import McpTuiApp
from tests.ui.app_testkit import catalog_has, session_of, transcript_text, wait_until

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(60)]

ROOT = Path(__file__).resolve().parents[3]
RAW = ROOT / "tests" / "fixtures" / "raw_server.py"
SCRIPT = {
    "tools": [{"name": "bad", "inputSchema": {"type": "object"}}],
    "results": {"bad": {"result": {"content": "not a list"}}},
}


async def test_a_call_mcp_tui_refused_the_answer_of_is_recorded_as_an_error_that_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.json").write_text(json.dumps(SCRIPT))
    target = StdioTarget(sys.executable, (str(RAW), "--script", "bad.json"), cwd=str(tmp_path))
    record = tmp_path / "rec.mcptest.toml"
    options = AppOptions(stderr_log=Path(os.devnull), record=record)
    app = McpTuiApp([ServerSpec("raw", target)], options)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(lambda: catalog_has(app, "raw", "bad"), 20, pilot=pilot)
        session_of(app).calls.call_tool("raw", "bad", {})
        await wait_until(record.exists, pilot=pilot, message="the call recorded")
        assert "does not follow the protocol" in transcript_text(app, full=True)
    (case,) = load_test_file(record).model.case
    assert (case.expect.outcome, case.expect.error_code) == ("error", None)

    from mcp_tui.cli.runtests import run_test_command

    out = io.StringIO()

    def replay() -> int:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            return run_test_command([str(record)], os.environ)

    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    assert await anyio.to_thread.run_sync(replay) == 0, out.getvalue()

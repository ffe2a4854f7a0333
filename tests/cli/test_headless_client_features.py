"""``mcp-tui call`` and the client features: Ctrl+C, ``--log-level``.

Ctrl+C: the call in flight is cancelled politely, then exit 130. SIGINT cancels the run's main
task; cancelling the task that awaits ``call_tool`` makes the SDK send ``notifications/cancelled``
before the connection closes. The raw server records every message it gets, so the test reads
the cancellation as the server received it.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

FEATURES_SERVER = Path(__file__).resolve().parents[1] / "fixtures" / "features_server.py"
RAW_SERVER = FEATURES_SERVER.parent / "raw_server.py"


#: A tool that never answers, on the raw stdio server (it starts in milliseconds and records
#: every message it gets: the test waits on the messages themselves).
NEVER = {
    "tools": [{"name": "slow", "inputSchema": {"type": "object"}}],
    "results": {"slow": {"never": True}},
}


def received(record: Path, method: str) -> list[dict[str, Any]]:
    lines = record.read_text(encoding="utf-8").splitlines() if record.exists() else []
    return [m for line in lines if (m := json.loads(line)).get("method") == method]


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_sigint_cancels_the_call_then_exits_130(tmp_path: Path, mode: str) -> None:
    script, record = tmp_path / "script.json", tmp_path / "got.jsonl"
    script.write_text(json.dumps(NEVER), encoding="utf-8")
    command = [sys.executable, "-m", "mcp_tui", "call", "slow", "--mode", mode]
    command += ["--", sys.executable, str(RAW_SERVER), "--script", str(script)]
    command += ["--record", str(record)]
    child = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A suite started in the background (`cmd &` in a script, as CI runners may) inherits
        # SIGINT ignored, and Python then installs no KeyboardInterrupt handler: the child must
        # get the default one, or the SIGINT below is silently dropped and the call runs on.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 60
        while not received(record, "tools/call"):  # the server has the call
            assert time.monotonic() < deadline and child.poll() is None, "the call never started"
            time.sleep(0.02)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == 130, err
    assert out == "" and "mcp-tui: interrupted." in err
    # The server received the cancellation of that very request before the connection closed.
    [call] = received(record, "tools/call")
    [cancel] = received(record, "notifications/cancelled")
    assert cancel["params"]["requestId"] == call["id"]


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_log_level_option(mode: str) -> None:
    """2026-07-28: the level rides the request's _meta. A 2025 server without logging/setLevel
    (MCPServer has none) sends everything: the refusal is not an error for the run."""
    command = [sys.executable, "-m", "mcp_tui", "call", "log_each_level", "--mode", mode]
    command += ["--log-level", "warning", "--", sys.executable, str(FEATURES_SERVER)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    levels = [
        line.split(" log ", 1)[1].split("]", 1)[0]
        for line in done.stderr.splitlines()
        if line.startswith("[features_server log ")
    ]
    expected = ["warning", "error"]
    if mode == "legacy":
        expected = ["debug", "info", "warning", "error"]
    assert levels == expected

"""``mcp-tui call`` and the client features: Ctrl+C, ``--log-level``.

Ctrl+C: the call in flight is cancelled politely, then exit 130. SIGINT cancels the run's main
task; cancelling the task that awaits ``call_tool`` makes the SDK send ``notifications/cancelled``
before the connection closes. The fixture server records, on its own side, that its tool was
cancelled.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

FEATURES_SERVER = Path(__file__).resolve().parents[1] / "fixtures" / "features_server.py"


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_sigint_cancels_the_call_then_exits_130(tmp_path: Path, mode: str) -> None:
    record, log = tmp_path / "record.jsonl", tmp_path / "traffic.jsonl"
    command = [sys.executable, "-m", "mcp_tui", "call", "slow", "--mode", mode, "--log", str(log)]
    command += ["--", sys.executable, str(FEATURES_SERVER), str(record)]
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
        while not (record.exists() and "slow started" in record.read_text()):
            assert time.monotonic() < deadline and child.poll() is None, "the call never started"
            time.sleep(0.05)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == 130, err
    assert out == "" and "mcp-tui: interrupted." in err
    events = [json.loads(line)["event"] for line in record.read_text().splitlines()]
    assert events == ["slow started", "slow cancelled"]
    messages = [json.loads(line).get("message", {}) for line in log.read_text().splitlines()]
    calls = [m["id"] for m in messages if m.get("method") == "tools/call"]
    cancels = [m for m in messages if m.get("method") == "notifications/cancelled"]
    assert cancels[0]["params"]["requestId"] == calls[0]


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

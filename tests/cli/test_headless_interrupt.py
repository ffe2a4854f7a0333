"""Ctrl+C during ``mcp-tui call``: the call in flight is cancelled politely, then exit 130.

SIGINT cancels the run's main task; cancelling the task that awaits ``call_tool`` makes the SDK
send ``notifications/cancelled`` before the connection closes. The fixture server records, on its
own side, that its tool was cancelled.
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
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
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

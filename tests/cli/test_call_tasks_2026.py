"""``mcp-tui call`` and a tool that becomes a task on 2026-07-28 (the ``io.modelcontextprotocol/
tasks`` extension; the server is ``tests/fixtures/task_server_2026.py`` over stdio): the form the
task asks for is answered from the answers file with ``tasks/update``, the result printed; a
Ctrl+C that ends the call cancels the task with ``tasks/cancel``; ``--task`` says it
changes nothing on that era."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.cli import main as cli

SERVER = Path(__file__).resolve().parents[1] / "fixtures" / "task_server_2026.py"


def sent(log: Path, method: str) -> list[dict[str, Any]]:
    lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    messages = [e["message"] for line in lines if (e := json.loads(line)).get("dir") == "out"]
    return [m for m in messages if m.get("method") == method]


def call(tmp_path: Path, *argv: str) -> tuple[int, Path]:
    log = tmp_path / "traffic.jsonl"
    command = ["call", *argv, "--mode", "2026-07-28", "--log", str(log)]
    return cli.main([*command, "--", sys.executable, str(SERVER)]), log


def test_the_tasks_form_is_answered_from_the_answers_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text('{"answers": [{"action": "accept", "content": {"confirm": true}}]}')
    code, log = call(tmp_path, "confirm", "--answers", str(answers), "--task")
    out, err = capsys.readouterr()
    assert (code, out.strip()) == (0, "Deleted"), err
    assert "--task changes nothing on 2026-07-28" in err
    assert "confirm runs as task" in err and "task input_required: waiting for you" in err
    assert '-> accept {"confirm": true}' in err
    [update] = sent(log, "tasks/update")
    assert list(update["params"]["inputResponses"].values()) == [
        {"action": "accept", "content": {"confirm": True}}
    ]


def test_a_failed_task_exits_1_with_its_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = call(tmp_path, "fails")
    _, err = capsys.readouterr()
    assert code == 1 and "disk full" in err


def test_ctrl_c_cancels_the_task_then_exits_130(tmp_path: Path) -> None:
    """As ``test_headless_client_features``' SIGINT test: the test waits for the task's first
    ``tasks/get`` on the wire, interrupts, and reads ``tasks/cancel`` for that task."""
    log = tmp_path / "traffic.jsonl"
    command = [sys.executable, "-m", "mcp_tui", "call", "forever", "--mode", "2026-07-28"]
    command += ["--log", str(log), "--", sys.executable, str(SERVER)]
    child = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 60
        while not sent(log, "tasks/get"):  # the task is being followed
            assert time.monotonic() < deadline and child.poll() is None, "the task never started"
            time.sleep(0.02)
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, err
    [get] = sent(log, "tasks/get")[:1]
    assert [c["params"]["taskId"] for c in sent(log, "tasks/cancel")] == [get["params"]["taskId"]]
    assert "sent tasks/cancel for task" in err

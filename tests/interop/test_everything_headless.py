"""``mcp-tui list`` and ``mcp-tui call`` against server-everything over stdio, as a person runs
them from a shell: the whole catalog printed, and the exit codes of an elicitation answered by
each policy.

server-everything sends ``notifications/tools/list_changed`` as the client connects (it registers
the tools that depend on the client's capabilities then), so a refresh of the tools alone races
the first listing; ``list`` once printed as soon as that refresh ended, showing "prompts (0)" and
"resources (0)" for a server with four prompts and seven resources.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any, Protocol

import pytest

from tests.cli_in_process import run_mcp_tui
from tests.interop.interop_peers import EVERYTHING_JS, node_command

pytestmark = pytest.mark.interop

#: A cold node start on a busy 2-core CI box; only a hang waits this long.
TIMEOUT = 120


class Run(Protocol):
    def __call__(self, *argv: str) -> subprocess.CompletedProcess[str]: ...


@pytest.fixture
def run(tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    """``mcp-tui ARGV -- server-everything stdio`` from an empty folder, as from a shell, in this
    process (``tests/cli_in_process.py``)."""
    monkeypatch.chdir(tmp_path)

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        args = [*argv, "--timeout", str(TIMEOUT), "--", *node_command(EVERYTHING_JS, "stdio")]
        return run_mcp_tui(capfd, args)

    return run


def test_list_prints_the_whole_catalog(peers: None, run: Run) -> None:
    done = run("list", "--json")
    assert done.returncode == 0, done.stderr[-3000:]
    catalog: dict[str, Any] = json.loads(done.stdout)
    names = {kind: [item["name"] for item in catalog[kind]] for kind in ("tools", "prompts")}
    assert "trigger-elicitation-request" in names["tools"]  # listed after the list_changed
    assert names["prompts"] == [
        "simple-prompt",
        "args-prompt",
        "completable-prompt",
        "resource-prompt",
    ]
    assert len(catalog["resources"]) >= 7, catalog["resources"]
    assert catalog["resourceTemplates"], catalog
    assert "arrived late and was dropped" not in done.stderr


def test_list_as_text_counts_every_kind(peers: None, run: Run) -> None:
    done = run("list")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "prompts (4):" in done.stdout
    assert "resources (0)" not in done.stdout and "resource templates (0)" not in done.stdout


@pytest.mark.parametrize(
    ("policy", "code", "action"),
    [("decline", 0, "decline"), ("cancel", 0, "cancel"), ("accept-defaults", 4, None)],
)
def test_call_answers_by_policy(
    peers: None, tmp_path: Path, run: Run, policy: str, code: int, action: str | None
) -> None:
    """The tool reports the user's choice as its result (exit 0); accepting defaults cannot
    answer its required ``name`` (no default), so nothing is sent and the run stops with 4."""
    log = tmp_path / "traffic.jsonl"
    done = run("call", "trigger-elicitation-request", "--elicit", policy, "--log", str(log))
    assert done.returncode == code, done.stderr[-3000:]
    answers = [
        entry["message"]["result"]
        for entry in map(json.loads, log.read_text(encoding="utf-8").splitlines())
        if entry["dir"] == "out" and "action" in entry["message"].get("result", {})
    ]
    if action is None:
        assert answers == [{"action": "cancel"}]
        assert "field 'name': Required" in done.stderr
    else:
        assert answers == [{"action": action}]
        assert f'"action": "{action}"' in done.stdout


def test_list_on_2026_says_the_server_refused_server_discover(peers: None, run: Run) -> None:
    """server-everything speaks only 2025-11-25: pinned to 2026-07-28 it refuses
    ``server/discover`` and every listing fails on the 2026 fields its answers lack. The run
    says why first, and how to connect instead."""
    done = run("list", "--mode", "2026-07-28")
    assert "refused server/discover (-32601 Method not found)" in done.stderr, done.stderr
    assert "mode auto (the default)" in done.stderr

"""What environment a stdio server gets (``StdioTarget.inherit_env``, ``head_start``).

A server named on the command line inherits the caller's whole environment, as a shell would pass
it on; a config server gets the SDK's safe default (``HOME LOGNAME PATH SHELL TERM USER``) unless it
sets ``inherit_env``; the spec's own ``env`` goes over either. Checked with a server that reports
its environment, started both ways mcp-tui starts servers: the head start (spawned before
``import mcp``) and the SDK's own spawn.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session import head_start
from mcp_tui.session.transports import stdio_parameters
from tests.session.session_testkit import RAW_SERVER, connected

NAMES = ["MCP_TUI_ENV_PROBE", "HOME", "PATH", "MCP_TUI_ENV_SET", "MCP_TUI_ENV_FUNC"]


def probe_target(tmp_path: Path, *, inherit_env: bool, env: dict[str, str]) -> StdioTarget:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"results": {"environ": {"environ": NAMES}}}), encoding="utf-8")
    args = (str(RAW_SERVER), "--script", str(script))
    return StdioTarget(sys.executable, args, env=env, inherit_env=inherit_env)


async def reported(target: StdioTarget, *, early: bool) -> dict[str, Any]:
    """The probe's environment, the server spawned by ``head_start`` or by the SDK."""
    spec = ServerSpec("env", target, mode="legacy")
    head = await head_start.start_stdio(spec, None) if early else None
    extra = {"head_start": head} if head is not None else {}
    async with connected(spec, **extra) as conn:
        outcome = await conn.call_tool("environ")
    text = outcome.items[0].text
    assert text is not None, outcome
    found: dict[str, Any] = json.loads(text)
    return found


@pytest.fixture
def caller_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCP_TUI_ENV_PROBE", "from the caller")
    monkeypatch.setenv("MCP_TUI_ENV_SET", "the caller's")
    monkeypatch.setenv("MCP_TUI_ENV_FUNC", "() { evil; }")  # an exported shell function


@pytest.mark.anyio
@pytest.mark.parametrize("early", [True, False], ids=["head-start", "sdk-spawn"])
async def test_a_server_that_inherits_gets_the_callers_environment(
    tmp_path: Path, caller_env: None, early: bool
) -> None:
    target = probe_target(tmp_path, inherit_env=True, env={"MCP_TUI_ENV_SET": "--env"})
    found = await reported(target, early=early)
    assert found["MCP_TUI_ENV_PROBE"] == "from the caller"
    assert found["MCP_TUI_ENV_SET"] == "--env"  # the spec's own over the caller's
    assert found["MCP_TUI_ENV_FUNC"] is None  # shell functions are never passed on
    assert found["PATH"] and found["HOME"]


@pytest.mark.anyio
@pytest.mark.parametrize("early", [True, False], ids=["head-start", "sdk-spawn"])
async def test_a_config_server_gets_the_safe_default_and_its_env(
    tmp_path: Path, caller_env: None, early: bool
) -> None:
    target = probe_target(tmp_path, inherit_env=False, env={"MCP_TUI_ENV_SET": "config"})
    found = await reported(target, early=early)
    assert found["MCP_TUI_ENV_PROBE"] is None
    assert found["MCP_TUI_ENV_SET"] == "config"
    assert found["PATH"] and found["HOME"]


def test_the_head_start_and_the_sdk_spawn_get_the_same_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What ``head_start`` spawns with equals what the SDK makes of ``stdio_parameters``."""
    from mcp.client.stdio import get_default_environment

    monkeypatch.setenv("MCP_TUI_ENV_PROBE", "x")
    monkeypatch.setenv("SHELL", "() { evil; }")
    for inherit in (True, False):
        target = StdioTarget("srv", env={"PATH": "/opt/bin", "EXTRA": "1"}, inherit_env=inherit)
        sdk = get_default_environment() | (stdio_parameters(target).env or {})
        assert head_start.server_environment(target) == sdk
        assert ("MCP_TUI_ENV_PROBE" in sdk) is inherit
        assert "SHELL" not in sdk and sdk["PATH"] == "/opt/bin"

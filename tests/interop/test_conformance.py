"""The official MCP conformance harness against mcp-tui's headless client (issue 7).

For each scenario the harness starts its mock server (on 127.0.0.1: ``loopback.cjs``), runs
``conformance_client.py URL`` — which runs ``mcp-tui call/list`` — and writes
``checks.json``. A scenario passes only as the harness itself would pass it: exit status 0, no
check FAILURE or WARNING, and the client exiting 0. On top of that it must have produced at least
one SUCCESS, so a harness that checked nothing cannot pass.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.interop.interop_peers import (
    CONFORMANCE_ALPHA_JS,
    CONFORMANCE_JS,
    INTEROP_DIR,
    REPO_ROOT,
    run_conformance_client,
)

ADAPTER = INTEROP_DIR / "conformance_client.py"


RELEASE = [
    "initialize",
    "tools_call",
    "elicitation-sep1034-client-defaults",
    "sse-retry",
]
ALPHA = [
    "sep-2322-client-request-state",
    "request-metadata",
    "http-standard-headers",
    "http-invalid-tool-headers",
    "json-schema-ref-no-deref",
    "json-schema-2020-12-preservation",
    # Beyond issue 7's list: Mcp-Param-* headers, which need the tools listed before the call.
    "http-custom-headers",
]

pytestmark = pytest.mark.interop


def adapter_command() -> str:
    """The ``--command`` string; the harness splits it on spaces, so paths must have none."""
    parts = [sys.executable, str(ADAPTER)]
    if any(" " in p for p in parts):
        pytest.fail(
            f"the conformance harness splits --command on spaces; move {parts} to a path "
            "without spaces",
            pytrace=False,
        )
    return " ".join(parts)


def run_harness(harness: Path, scenario: str, out: Path) -> tuple[int, str, list[dict[str, Any]]]:
    env = {"PYTHONPATH": str(REPO_ROOT)}  # the adapter runs this tree's mcp-tui in its process
    code, output = run_conformance_client(harness, adapter_command(), scenario, out, env=env)
    results = sorted(out.glob("*/checks.json"))
    assert len(results) == 1, f"expected one checks.json under {out}, got {results}\n{output}"
    checks: list[dict[str, Any]] = json.loads(results[0].read_text(encoding="utf-8"))
    return code, output, checks


def describe(checks: list[dict[str, Any]]) -> str:
    lines = []
    for c in checks:
        if c.get("status") in ("FAILURE", "WARNING"):
            detail = json.dumps(c.get("details"), default=str)[:600]
            lines.append(f"  {c['status']} {c['id']}: {c.get('errorMessage')} details={detail}")
    return "\n".join(lines)


def assert_scenario_passes(harness: Path, scenario: str, tmp_path: Path) -> None:
    code, output, checks = run_harness(harness, scenario, tmp_path)
    bad = [c for c in checks if c.get("status") in ("FAILURE", "WARNING")]
    assert not bad, f"{scenario}: failing checks\n{describe(checks)}\n\nharness output:\n{output}"
    assert "Client exited with code" not in output, f"{scenario}: mcp-tui failed\n{output}"
    assert "timed out" not in output.lower(), f"{scenario}: client timed out\n{output}"
    assert code == 0, f"{scenario}: harness exit {code}\n{output}"
    assert any(c.get("status") == "SUCCESS" for c in checks), (
        f"{scenario}: nothing checked\n{output}"
    )


@pytest.mark.parametrize("scenario", RELEASE)
def test_release_scenario(peers: None, scenario: str, tmp_path: Path) -> None:
    assert_scenario_passes(CONFORMANCE_JS, scenario, tmp_path)


@pytest.mark.parametrize("scenario", ALPHA)
def test_alpha_scenario(peers: None, scenario: str, tmp_path: Path) -> None:
    assert_scenario_passes(CONFORMANCE_ALPHA_JS, scenario, tmp_path)


@pytest.mark.parametrize("scenario", RELEASE)
def test_release_scenario_under_the_alpha(peers: None, scenario: str, tmp_path: Path) -> None:
    """The alpha adds wire-schema checks: every message mcp-tui sends must match the spec."""
    assert_scenario_passes(CONFORMANCE_ALPHA_JS, scenario, tmp_path)


def test_adapter_refuses_an_unknown_scenario(tmp_path: Path) -> None:
    """A scenario without a plan must fail loudly, never pass by doing nothing."""
    done = subprocess.run(
        [sys.executable, str(ADAPTER), "http://127.0.0.1:9/mcp"],
        env={"MCP_CONFORMANCE_SCENARIO": "no-such-scenario", "PATH": ""},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "no plan for scenario 'no-such-scenario'" in done.stderr

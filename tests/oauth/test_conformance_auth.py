"""The official conformance harness's ``auth/*`` client scenarios against mcp-tui's OAuth client.

The harness (``tests/interop/node_modules``) starts each scenario's mock authorization and
resource servers and runs ``conformance_auth_client.py`` (mcp-tui's session layer, the real browser
opener with ``BROWSER`` following the flow) against them, then judges from its own side. A scenario
passes only as the harness passes it: exit 0, no FAILURE or WARNING, at least one SUCCESS, and the
client exiting 0 — except the scenarios where the right answer is to refuse (a resource or issuer
mismatch), where the harness allows the client to fail and we require it to.

Each test runs its own scenario (a node process plus a Python one or two: about 2.5 s of CPU), in
its own ``xdist_group``, so the workers share them out rather than one test running them all.

Cannot pass (kept as strict xfails, so a change is noticed):

- ``auth/2025-03-26-oauth-metadata-backcompat``: its server publishes authorization server metadata
  at the origin's well-known URL with ``issuer`` ``<origin>/oauth``. ``mcp`` 2.3.0 requires the
  metadata's issuer to be the one it was looked up for (RFC 8414 §3.3, SEP-2468) and refuses it —
  the check that stops mix-up attacks. The MCP Python SDK's own conformance run lists the scenario
  as out of scope for the same reason.
- ``auth/client-credentials-jwt`` (extension, alpha): ``private_key_jwt`` client authentication
  needs a signing key in the config; mcp-tui has no such key setting.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.interop.interop_peers import (  # type: ignore[import-not-found, unused-ignore]
    CONFORMANCE_ALPHA_JS,
    CONFORMANCE_JS,
    REPO_ROOT,
    require_peers,
    run_conformance_client,
)

#: The 0.1.16 release's non-draft ``auth/*`` client scenarios (2025-03-26 .. 2025-11-25).
RELEASE = [
    "auth/metadata-default",
    "auth/metadata-var1",
    "auth/metadata-var2",
    "auth/metadata-var3",
    "auth/basic-cimd",
    "auth/scope-from-www-authenticate",
    "auth/scope-from-scopes-supported",
    "auth/scope-omitted-when-undefined",
    "auth/scope-step-up",
    "auth/scope-retry-limit",
    "auth/token-endpoint-auth-basic",
    "auth/token-endpoint-auth-post",
    "auth/token-endpoint-auth-none",
    "auth/pre-registration",
    "auth/2025-03-26-oauth-endpoint-fallback",
]
#: Only in the 0.2 alpha (2026-07-28, and the client-credentials extension).
ALPHA = [
    "auth/resource-mismatch",
    "auth/offline-access-scope",
    "auth/offline-access-not-supported",
    "auth/authorization-server-migration",
    "auth/iss-supported",
    "auth/iss-not-advertised",
    "auth/iss-supported-missing",
    "auth/iss-wrong-issuer",
    "auth/iss-unexpected",
    "auth/iss-normalized",
    "auth/metadata-issuer-mismatch",
    "auth/client-credentials-basic",
]
#: Scenarios whose server is wrong on purpose: the client must refuse, so it exits non-zero.
MUST_REFUSE = {
    "auth/resource-mismatch",
    "auth/iss-supported-missing",
    "auth/iss-wrong-issuer",
    "auth/iss-unexpected",
    "auth/iss-normalized",
    "auth/metadata-issuer-mismatch",
}
CANNOT_PASS = {
    ("release", "auth/2025-03-26-oauth-metadata-backcompat"): (
        "mcp 2.3.0 refuses authorization server metadata whose issuer is not the origin it was "
        "fetched for (RFC 8414 §3.3); this server's issuer is <origin>/oauth"
    ),
    ("alpha", "auth/client-credentials-jwt"): (
        "private_key_jwt client authentication needs a signing key; mcp-tui has no key setting"
    ),
}

pytestmark = [pytest.mark.interop]


@dataclass(frozen=True)
class Verdict:
    exit_code: int
    output: str
    checks: list[dict[str, Any]]

    def problems(self) -> str:
        bad = [c for c in self.checks if c.get("status") in ("FAILURE", "WARNING")]
        lines = [f"{c['status']} {c['id']}: {c.get('description')}" for c in bad]
        return "\n".join(lines) + f"\n\nharness output:\n{self.output[-6000:]}"


def run_scenario(harness: Path, scenario: str, out: Path) -> Verdict:
    code, output = run_conformance_client(
        harness,
        f"{sys.executable} -m tests.oauth.conformance_auth_client",
        scenario,
        out,
        env={"PYTHONPATH": str(REPO_ROOT)},
    )
    found = sorted(out.glob("**/checks.json"))
    checks: list[dict[str, Any]] = json.loads(found[-1].read_text()) if found else []
    return Verdict(code, output, checks)


HARNESSES = {"release": CONFORMANCE_JS, "alpha": CONFORMANCE_ALPHA_JS}


def verdict_of(which: str, scenario: str, tmp_path: Path) -> Verdict:
    """Run one scenario of the ``which`` harness (release or alpha) and read its checks."""
    require_peers()
    if " " in sys.executable:
        pytest.fail("the harness splits --command on spaces; use paths without spaces")
    return run_scenario(HARNESSES[which], scenario, tmp_path / scenario.replace("/", "_"))


def one_each(scenarios: list[str]) -> list[Any]:
    """One case per scenario, each its own xdist group: spread over the workers, not one module's
    queue on one worker (``--dist loadgroup`` keeps a module's ungrouped tests together)."""
    return [pytest.param(s, marks=pytest.mark.xdist_group(f"auth-{s}")) for s in scenarios]


def assert_passes(verdict: Verdict, scenario: str) -> None:
    statuses = [c.get("status") for c in verdict.checks]
    assert verdict.checks, f"{scenario}: no checks.json\n{verdict.output}"
    assert "FAILURE" not in statuses and "WARNING" not in statuses, verdict.problems()
    assert "SUCCESS" in statuses, f"{scenario}: nothing checked\n{verdict.output}"
    assert verdict.exit_code == 0, f"{scenario}: harness exit {verdict.exit_code}\n{verdict.output}"
    client_failed = "Client exited with code" in verdict.output
    if scenario in MUST_REFUSE:
        assert client_failed, f"{scenario}: mcp-tui should have refused\n{verdict.output}"
    else:
        assert not client_failed, f"{scenario}: mcp-tui failed\n{verdict.output}"


@pytest.mark.parametrize("scenario", one_each(RELEASE))
def test_release_auth_scenario(scenario: str, tmp_path: Path) -> None:
    assert_passes(verdict_of("release", scenario, tmp_path), scenario)


@pytest.mark.parametrize("scenario", one_each(ALPHA))
def test_alpha_auth_scenario(scenario: str, tmp_path: Path) -> None:
    assert_passes(verdict_of("alpha", scenario, tmp_path), scenario)


@pytest.mark.parametrize(
    "job",
    [
        pytest.param(job, marks=pytest.mark.xdist_group(f"auth-{job[0]}-{job[1]}"))
        for job in sorted(CANNOT_PASS)
    ],
    ids=lambda job: f"{job[0]}-{job[1]}",
)
def test_scenarios_that_cannot_pass(job: tuple[str, str], tmp_path: Path) -> None:
    """Strict: if one of these starts passing, the list (and the README) must change."""
    verdict = verdict_of(*job, tmp_path)
    with pytest.raises(AssertionError):
        assert_passes(verdict, job[1])
    pytest.xfail(CANNOT_PASS[job])

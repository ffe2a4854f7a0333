"""The official conformance harness's ``auth/*`` client scenarios against mcp-tui's OAuth client.

The harness (``tests/interop/node_modules``) starts each scenario's mock authorization and
resource servers and runs ``conformance_auth_client.py`` (mcp-tui's session layer, the real browser
opener with ``BROWSER`` following the flow) against them, then judges from its own side. A scenario
passes only as the harness passes it: exit 0, no FAILURE or WARNING, at least one SUCCESS, and the
client exiting 0 — except the scenarios where the right answer is to refuse (a resource or issuer
mismatch), where the harness allows the client to fail and we require it to.

The scenarios run four at a time (each is a node process plus a Python one, mostly waiting), once
per session; each test then reads its scenario's verdict.

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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

INTEROP = Path(__file__).resolve().parent.parent / "interop"
if str(INTEROP) not in sys.path:
    sys.path.insert(0, str(INTEROP))

from interop_peers import (  # type: ignore[import-not-found, unused-ignore]  # noqa: E402
    CONFORMANCE_ALPHA_JS,
    CONFORMANCE_JS,
    require_peers,
    run_conformance_client,
)

ADAPTER = Path(__file__).resolve().parent / "conformance_auth_client.py"
PARALLEL = 4

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

# The first test sets up the session fixture that runs every scenario (about two minutes on a
# quiet machine, several under load): that test may take longer than the suite's per-test limit.
# Under pytest-xdist the module's tests are one group, so one worker runs the scenarios once.
pytestmark = [
    pytest.mark.interop,
    pytest.mark.timeout(900),
    pytest.mark.xdist_group("conformance-auth"),
]


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
    code, output = run_conformance_client(harness, f"{sys.executable} {ADAPTER}", scenario, out)
    found = sorted(out.glob("**/checks.json"))
    checks: list[dict[str, Any]] = json.loads(found[-1].read_text()) if found else []
    return Verdict(code, output, checks)


@pytest.fixture(scope="session")
def verdicts(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Verdict]:
    require_peers()
    if any(" " in p for p in (sys.executable, str(ADAPTER))):
        pytest.fail("the harness splits --command on spaces; use paths without spaces")
    jobs = [("release", s) for s in RELEASE] + [("alpha", s) for s in ALPHA]
    jobs += list(CANNOT_PASS)
    harnesses = {"release": CONFORMANCE_JS, "alpha": CONFORMANCE_ALPHA_JS}
    base = tmp_path_factory.mktemp("conformance-auth")

    def one(job: tuple[str, str]) -> Verdict:
        which, scenario = job
        out = base / which / scenario.replace("/", "_")
        return run_scenario(harnesses[which], scenario, out)

    with ThreadPoolExecutor(PARALLEL) as pool:
        return dict(zip(jobs, pool.map(one, jobs), strict=True))


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


@pytest.mark.parametrize("scenario", RELEASE)
def test_release_auth_scenario(verdicts: dict[tuple[str, str], Verdict], scenario: str) -> None:
    assert_passes(verdicts["release", scenario], scenario)


@pytest.mark.parametrize("scenario", ALPHA)
def test_alpha_auth_scenario(verdicts: dict[tuple[str, str], Verdict], scenario: str) -> None:
    assert_passes(verdicts["alpha", scenario], scenario)


@pytest.mark.parametrize("job", sorted(CANNOT_PASS), ids=lambda job: f"{job[0]}-{job[1]}")
def test_scenarios_that_cannot_pass(
    verdicts: dict[tuple[str, str], Verdict], job: tuple[str, str]
) -> None:
    """Strict: if one of these starts passing, the list (and the README) must change."""
    verdict = verdicts[job]
    with pytest.raises(AssertionError):
        assert_passes(verdict, job[1])
    pytest.xfail(CANNOT_PASS[job])

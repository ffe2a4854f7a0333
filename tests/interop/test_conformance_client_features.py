"""Which client scenarios the pinned conformance harnesses have for roots, ping, logging,
cancellation and subscriptions: none (they test servers for those), so those features are
tested against real servers instead (``test_roots_filesystem.py``,
``test_everything_features_tui.py``). When a new harness version adds such a client scenario,
this fails and names it, so it gets run like the others in ``test_conformance.py``.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.interop.interop_peers import CONFORMANCE_ALPHA_JS, CONFORMANCE_JS, NODE

pytestmark = pytest.mark.interop

#: Words that would name a client scenario for one of this file's features.
FEATURES = re.compile(r"root|ping|log|cancel|subscri", re.IGNORECASE)


def client_scenarios(harness: str) -> list[str]:
    listing = subprocess.run(
        [str(NODE), harness, "list"], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    section = listing.split("Client scenarios", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^\s*- (\S+)", section, re.MULTILINE)


@pytest.mark.parametrize(
    "harness", [CONFORMANCE_JS, CONFORMANCE_ALPHA_JS], ids=["release", "alpha"]
)
def test_no_client_scenario_for_these_features_yet(peers: None, harness: object) -> None:
    scenarios = client_scenarios(str(harness))
    assert "initialize" in scenarios and "tools_call" in scenarios  # the listing was read
    covered = [s for s in scenarios if FEATURES.search(s) and not s.startswith("auth/")]
    assert covered == [], f"run these in test_conformance.py: {covered}"

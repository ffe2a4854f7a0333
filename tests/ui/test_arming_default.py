"""The arming delay a user gets is not 0: every other test runs with it off (the conftest's
``_arming_off``), so this one reads it where no fixture touched it, in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys


def test_the_shipped_arming_delay_is_on() -> None:
    code = (
        "from mcp_tui.ui.arming_delay import ARMING, ArmingSettings\n"
        "print(ARMING.delay, ArmingSettings().delay)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    shipped, default = (float(v) for v in done.stdout.split())
    # long enough to see a new screen (a double press is 0.1-0.3 s apart), not a slow one
    assert 0.3 <= shipped <= 1.5
    assert default == shipped

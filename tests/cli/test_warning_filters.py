"""The test suite's warning filters: the SDK's deprecation of ``logging/setLevel`` (which mcp-tui
sends to 2025-era servers on purpose) is ignored, and nothing else is."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import warnings

from mcp.shared.exceptions import MCPDeprecationWarning


def test_the_logging_deprecation() -> None:
    warnings.warn(
        MCPDeprecationWarning("The logging capability is deprecated as of 2026-07-28 (SEP-2577).")
    )


def test_another_deprecation() -> None:
    warnings.warn(MCPDeprecationWarning("Something else is deprecated"))
"""


def test_only_the_logging_deprecation_is_filtered(tmp_path: Path) -> None:
    """Run pytest with this project's configuration on a probe file, in a child process (the
    filters are applied per test, so only a fresh run shows what they do)."""
    probe = tmp_path / "test_probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-n",  # one process: the configured parallel workers would each start for two tests
            "0",
            "-c",
            str(ROOT / "pyproject.toml"),
            "--rootdir",
            str(ROOT),
            str(probe),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "2 passed" in output, output
    assert "Something else is deprecated" in output, "other deprecations still show"
    assert "logging capability" not in output, output

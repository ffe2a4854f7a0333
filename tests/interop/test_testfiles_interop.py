"""Test files against servers nobody here wrote: server-everything and the FastMCP 4.x server of
the framework suite, through ``mcp-tui test`` (JUnit XML read back by a JUnit parser) and through
the pytest plugin, as a project would run them."""

from __future__ import annotations

from pathlib import Path

import pytest
from interop_peers import require_peers
from junitparser import JUnitXml
from python_peers import require_python_peer

from mcp_tui.cli.main import main

pytestmark = pytest.mark.interop
pytest_plugins = ["pytester"]

HERE = Path(__file__).resolve().parent
EVERYTHING = HERE / "everything.mcptest.toml"
FASTMCP4 = HERE / "fastmcp4.mcptest.toml"


@pytest.fixture
def peers() -> None:
    require_peers()
    require_python_peer("fastmcp4")


@pytest.mark.timeout(300)
def test_through_mcp_tui_test(
    peers: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junit = tmp_path / "junit.xml"
    code = main(["test", str(EVERYTHING), str(FASTMCP4), "-j", "2", "--junit-xml", str(junit)])
    out = capsys.readouterr().out
    assert code == 0, out
    suites = {suite.name: suite for suite in JUnitXml.fromfile(str(junit))}
    assert set(suites) == {str(EVERYTHING), str(FASTMCP4)}
    everything = suites[str(EVERYTHING)]
    assert everything.tests == 9 and everything.failures == 0 and everything.errors == 0
    names = {case.name for case in everything}
    assert {"-32042[2025-11-25]", "sampling[2025-11-25]", "URL consent[2025-11-25]"} <= names
    fastmcp = suites[str(FASTMCP4)]
    assert fastmcp.tests == 4 and all(case.is_passed for case in fastmcp)
    assert "the 2026-07-28 guard pattern[2026-07-28]" in {case.name for case in fastmcp}


@pytest.mark.timeout(300)
def test_through_the_pytest_plugin(peers: None, pytester: pytest.Pytester) -> None:
    # An ini of its own: this repository's (which turns the plugin off) is not read.
    ini = pytester.makeini("[pytest]\n")
    result = pytester.runpytest_subprocess(
        "-c",
        str(ini),
        "--rootdir",
        str(pytester.path),
        "-p",
        "no:cacheprovider",
        str(EVERYTHING),
        str(FASTMCP4),
    )
    result.assert_outcomes(passed=13)
    out = result.stdout.str()
    assert "13 passed" in out and "Warning" not in out, out

"""Test files against servers nobody here wrote: server-everything and the FastMCP 4.x server of
the framework suite, through ``mcp-tui test`` (JUnit XML read back by a JUnit parser) and through
the pytest plugin, as a project would run them."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomlkit
from junitparser import JUnitXml

from mcp_tui.cli.main import main
from tests.interop.interop_peers import require_peers
from tests.interop.python_peers import require_python_peer
from tests.pytester_kit import run_in_process

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


def test_through_the_pytest_plugin(peers: None, pytester: pytest.Pytester) -> None:
    # An ini of its own: this repository's (which turns the plugin off) is not read.
    ini = pytester.makeini("[pytest]\n")
    result = run_in_process(
        pytester, "-c", str(ini), "--rootdir", str(pytester.path), str(EVERYTHING), str(FASTMCP4)
    )
    result.assert_outcomes(passed=13)
    out = result.stdout.str()
    assert "13 passed" in out and "Warning" not in out, out


@pytest.mark.timeout(300)
def test_update_round_trips_against_a_foreign_server(
    peers: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every snapshot of the everything file emptied, ``--update`` writes them back as they
    were, and the file then passes as it stands."""
    import tomllib

    original = EVERYTHING.read_text(encoding="utf-8")
    doc = tomlkit.parse(original)
    doc["server"]["cwd"] = str(HERE)  # the copy's relative paths still find the server
    emptied_keys = 0
    for case in doc["case"]:
        expect = case.get("expect", {})
        for key, empty in (("text", ""), ("structured", {})):
            if key in expect:
                expect[key] = empty
                emptied_keys += 1
        for request in expect.get("elicitations", []):
            if "schema" in request:
                request["schema"] = {}
                emptied_keys += 1
    assert emptied_keys >= 3
    emptied = tomlkit.dumps(doc)
    copy = tmp_path / "everything.mcptest.toml"
    copy.write_text(emptied, encoding="utf-8")
    assert tomllib.loads(emptied) != tomllib.loads(original)

    assert main(["test", str(copy), "--update", "-q"]) == 0, capsys.readouterr().out
    assert "updated" in capsys.readouterr().out
    rewritten = tomllib.loads(copy.read_text(encoding="utf-8"))
    expected = tomllib.loads(original)
    assert [c["expect"] for c in rewritten["case"]] == [c["expect"] for c in expected["case"]]
    assert main(["test", str(copy), "-q"]) == 0

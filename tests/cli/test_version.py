"""``mcp-tui --version`` names the build: the distribution and its version, Python, the SDK's and
Textual's installed versions and the protocol eras; and the distribution's name is the one in
``pyproject.toml``, which PyPI can accept."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from mcp_tui import DISTRIBUTION, __version__
from mcp_tui.cli import main as cli
from mcp_tui.cli.version import PROTOCOL_ERAS, version_text

ROOT = Path(__file__).resolve().parents[2]


def _lines(capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    """``--version``'s lines by their first word."""
    assert cli.main(["--version"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return {line.split(" ", 1)[0]: line for line in captured.out.splitlines()}


def test_version_names_the_distribution_and_the_installed_versions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = _lines(capsys)
    assert set(lines) == {"mcp-tui", "python", "mcp", "textual", "protocol"}
    # This checkout is installed (editable) under the PyPI name, at the version it says it is.
    assert lines["mcp-tui"] == f"mcp-tui {__version__} ({DISTRIBUTION})"
    assert metadata.version(DISTRIBUTION) == __version__
    assert lines["mcp"].split()[1] == metadata.version("mcp")
    assert lines["textual"].split()[1] == metadata.version("textual")
    assert lines["python"].split()[1] == ".".join(str(n) for n in sys.version_info[:3])


def test_version_lists_the_three_eras(capsys: pytest.CaptureFixture[str]) -> None:
    eras = re.findall(r"(\d{4}-\d\d-\d\d) \(([^)]+)\)", _lines(capsys)["protocol"])
    assert eras == [("2025-06-18", "initialize"), ("2025-11-25", "initialize"),
                    ("2026-07-28", "server/discover")]  # fmt: skip


def test_the_eras_are_ones_the_installed_sdk_speaks_that_way() -> None:
    """The claim stays true against the SDK: an era reached by ``initialize`` is one of its
    handshake versions, 2026-07-28 one of its per-request (``server/discover``) versions."""
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

    for era, how in PROTOCOL_ERAS:
        speaks = HANDSHAKE_PROTOCOL_VERSIONS if how == "initialize" else MODERN_PROTOCOL_VERSIONS
        assert era in speaks, (era, how)


def test_run_from_a_source_that_is_not_installed_it_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = metadata.version

    def version(name: str) -> str:
        if name == DISTRIBUTION:
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(metadata, "version", version)
    first = version_text().splitlines()[0]
    assert first == f"mcp-tui {__version__} ({DISTRIBUTION}, not installed: run from its source)"


def test_version_imports_neither_the_sdk_nor_textual() -> None:
    """``--version`` reads versions from metadata: it stays as instant as ``--help``."""
    code = (
        "import sys\n"
        "from mcp_tui.cli.main import main\n"
        "main(['--version'])\n"
        "print('mcp' in sys.modules, 'textual' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.splitlines()[-1] == "False False"
    assert done.stdout.startswith(f"mcp-tui {__version__}")


def test_python_dash_m_prints_the_same() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mcp_tui", "--version"],
        capture_output=True, text=True, timeout=60, check=True, cwd=ROOT,
    )  # fmt: skip
    assert done.stdout == version_text() + "\n"


def test_the_distribution_is_the_one_pyproject_builds() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["name"] == DISTRIBUTION
    # One version, written once: the build reads __version__.
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["hatch"]["version"]["path"] == "mcp_tui/__init__.py"
    # The command and `python -m mcp_tui` keep their names.
    assert project["project"]["scripts"] == {"mcp-tui": "mcp_tui.cli.main:main"}


def _pypi_form(name: str) -> str:
    """The form PyPI compares a new project's name in (warehouse's ``ultranormalize_name``):
    separators removed, case folded, look-alike letters merged."""
    table = str.maketrans({".": None, "_": None, "-": None, "l": "1", "i": "1", "o": "0"})
    return name.lower().translate(table)


def test_the_distribution_is_not_the_pypi_form_of_the_names_it_must_not_clash_with() -> None:
    """``mcp-tui`` cannot be published: ``mcptui`` (a Textual MCP playground) is on PyPI and PyPI
    compares names in this form. The free name was checked against the index when it was chosen
    (README, "The name"); what a test can hold is that it stays clear of the known ones."""
    taken = {"mcptui", "momcp-tui", "mcp-tui"}
    assert _pypi_form("mcp-tui") == _pypi_form("mcptui")  # why the command's name is not used
    assert _pypi_form(DISTRIBUTION) not in {_pypi_form(n) for n in taken}

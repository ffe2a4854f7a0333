"""The release's own files agree: the changelog's newest release is the version being built, and
the README tells a user how to install that distribution."""

from __future__ import annotations

import re
from pathlib import Path

from mcp_tui import DISTRIBUTION, __version__

ROOT = Path(__file__).resolve().parent.parent


def _read(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def test_the_changelog_keeps_a_changelog_and_its_newest_release_is_this_version() -> None:
    text = _read("CHANGELOG.md")
    headings = re.findall(r"^## \[([^\]]+)\]", text, flags=re.MULTILINE)
    assert headings[0] == "Unreleased"
    assert headings[1] == __version__
    # Every heading's version has its link, as Keep a Changelog writes them.
    for version in headings:
        assert re.search(rf"^\[{re.escape(version)}\]: https://", text, flags=re.MULTILINE)
    sections = re.findall(r"^### (\w+)", text, flags=re.MULTILINE)
    kinds = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
    assert sections and set(sections) <= kinds


def test_the_readme_installs_the_distribution_as_users_expect() -> None:
    text = _read("README.md")
    for line in (
        f"pipx install {DISTRIBUTION}",
        f"uv tool install {DISTRIBUTION}",
        f"uvx --from {DISTRIBUTION} mcp-tui demo",
    ):
        assert line in text, line
    # From a clone: the two set-up commands (a fresh machine needs nothing else).
    assert "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/mcp-tui demo" in text
    assert "OWNER" not in text

"""What the README promises a newcomer holds: its links lead somewhere, and its first test passes.

The README is not part of the docs site (``mkdocs build --strict`` checks the site's links), so
its own links are checked here as GitHub resolves them: a relative path must be a file or folder
of the repository, and an anchor a heading of the page it names (GitHub's slugs: lower case,
punctuation but ``-`` and ``_`` dropped, each space a ``-``). Its install lines and set-up
commands are held by ``tests/test_release.py``, its CI job by ``tests/test_action.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mcp_tui.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _outside_code(text: str) -> str:
    return re.sub(r"```.*?```", "", text, flags=re.DOTALL)


def _anchors(text: str) -> set[str]:
    headings = re.findall(r"^#{1,6} (.+)$", _outside_code(text), flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def _links(text: str) -> list[str]:
    return re.findall(r"\]\(([^)\s]+)\)", _outside_code(text))


def test_the_readme_links_to_files_and_headings_that_exist() -> None:
    local = [link for link in _links(README) if not re.match(r"[a-z]+:", link)]
    assert any(link.startswith("docs/") for link in local), "the README links to the docs"
    broken = []
    for link in local:
        path, _, anchor = link.partition("#")
        target = ROOT / path if path else ROOT / "README.md"
        if not target.exists():
            broken.append(f"{link}: no such file")
        elif anchor and anchor not in _anchors(target.read_text(encoding="utf-8")):
            broken.append(f"{link}: no heading #{anchor}")
    assert broken == []


def test_the_readme_names_every_section_of_the_docs_site() -> None:
    """Each page of the site's sections is one link away from the README (or its section's
    first page is)."""
    import yaml

    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]
    for section in nav:
        [(title, pages)] = section.items()
        first = pages if isinstance(pages, str) else pages[0]
        if first == "index.md":
            continue
        assert f"](docs/{first})" in README, f"{title}: docs/{first}"


def test_the_readmes_first_test_passes_against_the_demo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    section = README.split("## Test your server", 1)[1]
    test_file = re.search(r"```toml\n(# (tests/mcp/\S+)\n.*?)```", section, re.DOTALL)
    shown = re.search(r"```console\n\$ (mcp-tui test \S+)\n(.*?)```", section, re.DOTALL)
    assert test_file and shown
    path = tmp_path / test_file.group(2)
    path.parent.mkdir(parents=True)
    path.write_text(test_file.group(1), encoding="utf-8")
    assert len(test_file.group(1).splitlines()) <= 8
    assert main(["test", str(path.parent)]) == 0
    out = capsys.readouterr().out
    for line in shown.group(2).splitlines():
        said = re.sub(r"\d+\.\d+ s", "TIME", line)
        got = re.sub(r"\d+\.\d+ s", "TIME", out.replace(str(tmp_path) + "/", ""))
        assert said in got, line

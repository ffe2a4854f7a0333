"""What a skipped case leaves alone (issue 36, item 2: mutants of ``headless/testrun.py`` that
passed the suite): a skipped case never starts the server, and the file's teardown is told with
the last case that ran, not with a skipped one after it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mcp_tui.cli.main import main
from tests.cli.test_test_steps import HEAD, run


def test_a_skipped_case_does_not_start_the_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "gone.mcptest.toml"
    path.write_text(
        f'[server]\ncommand = ["{sys.executable}", "-c", "import sys; sys.exit(1)"]\n\n'
        '[[case]]\nname = "later"\ntool = "t"\nskip = "not yet"\n',
        encoding="utf-8",
    )
    assert main(["test", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1 skipped" in out and "could not be started" not in out, out


@pytest.mark.timeout(120)
def test_the_file_s_teardown_is_told_with_the_last_case_that_ran(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "items.mcptest.toml"
    path.write_text(
        HEAD
        + """
[[teardown]]
tool = "reset"
expect = { text = "not what reset says" }

[[case]]
name = "ran"
tool = "list_items"

[[case]]
name = "not yet"
tool = "list_items"
skip = "later"
""",
        encoding="utf-8",
    )
    code, out = run(path, capsys)
    assert code == 1, out
    assert "1 error, 1 skipped" in out, out
    assert "the file's teardown #1 (tool reset, line 7) failed" in out, out

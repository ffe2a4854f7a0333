"""``mcp-tui test`` and the protocol eras: a case that fails for want of the other era says why and
how to keep it on one, and a server that refuses the era asked for is reported as refusing it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mcp_tui.cli.main import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "eras.mcptest.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.timeout(60)
def test_a_case_failing_on_2026_for_its_ctx_elicit_says_why_and_how_to_keep_it_on_one_era(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Recorded on 2025-11-25 and run on both eras as the README's CI matrix does: the
    ``ctx.elicit()`` case fails on 2026-07-28. The report says what ``check`` (X101) says."""
    server = json.dumps([sys.executable, str(FIXTURES / "elicit_server.py")])
    path = _file(
        tmp_path,
        f'eras = ["2026-07-28"]\n[server]\ncommand = {server}\n\n'
        '[[case]]\nname = "book"\ntool = "book_table"\n'
        'answers = [{ action = "accept", content = { name = "Ada" } }]\n'
        'expect = { outcome = "ok", elicitation_count = 1 }\n',
    )
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    assert (
        "it asks with a server-initiated request (ctx.elicit()), which 2026-07-28 clients "
        "cannot answer" in out
    ), out
    assert "return input_required instead" in out
    assert 'or keep the case on 2025-11-25: eras = ["2025-11-25"]' in out


@pytest.mark.timeout(60)
def test_era_2026_against_a_server_that_refuses_it_is_the_refusal_not_a_missing_tool(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 2025-only server answers ``server/discover`` with -32601: the cases cannot run on
    2026-07-28, and the report says so as ``check`` does, not with the server's next error."""
    server = json.dumps([sys.executable, str(FIXTURES / "raw_server.py")])
    path = _file(
        tmp_path,
        f'[server]\ncommand = {server}\n\n[[case]]\nname = "hello"\ntool = "hello"\n'
        'expect = { outcome = "ok" }\n',
    )
    assert main(["test", "--era", "2026-07-28", str(path)]) == 3
    out = capsys.readouterr().out
    assert "2026-07-28: refused (-32601" in out, out
    assert "1 error" in out

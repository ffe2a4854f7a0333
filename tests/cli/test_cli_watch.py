"""``--watch PATH`` and ``--record FILE``: they reach the app; a path that does not exist, no
stdio server to restart, or a record file ``mcp-tui test`` would not find is a usage error naming
what is wrong; and how changed files are named in a sentence."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mcp_tui.cli import main as cli
from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import ServerSpec
from mcp_tui.process.watch import changed_text

PY = sys.executable


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> dict[str, AppOptions]:
    seen: dict[str, AppOptions] = {}

    def fake_run_tui(servers: list[ServerSpec], options: AppOptions) -> int:
        seen["options"] = options
        return 0

    monkeypatch.setattr(cli, "run_tui", fake_run_tui)
    return seen


def test_watch_paths_reach_the_app(launched: dict[str, AppOptions], tmp_path: Path) -> None:
    source = tmp_path / "server.py"
    source.write_text("")
    argv = ["--watch", str(tmp_path), "--watch", str(source), "--", PY, str(source)]
    assert cli.main(argv) == 0
    assert launched["options"].watch == (tmp_path, source)
    assert cli.main(["--", PY, str(source)]) == 0
    assert launched["options"].watch == ()


def test_record_reaches_the_app(launched: dict[str, AppOptions], tmp_path: Path) -> None:
    record = tmp_path / "calls.mcptest.toml"
    assert cli.main(["--record", str(record), "--", PY, "s.py"]) == 0
    assert launched["options"].record == record
    assert cli.main(["demo", "--record", str(record)]) == 0
    assert launched["options"].record == record


def test_the_demo_can_be_watched(launched: dict[str, AppOptions], tmp_path: Path) -> None:
    assert cli.main(["demo", "--watch", str(tmp_path)]) == 0
    assert launched["options"].watch == (tmp_path,)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--watch", "/no/such/dir", "--", PY, "s.py"], "--watch /no/such/dir: no such file"),
        (["--watch", ".", "http://127.0.0.1:9/mcp"], "--watch restarts stdio servers"),
        (["demo", "--http", "--watch", "."], "not --http"),
        (["--record", "calls.toml", "--", PY, "s.py"], "name the file *.mcptest.toml"),
        (["demo", "--record", "calls.json"], "name the file *.mcptest.toml"),
    ],
)
def test_watch_usage_errors(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err


def test_changed_files_in_words(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    one = tmp_path / "server.py"
    two = tmp_path / "pkg" / "tools.py"
    assert changed_text([one], [tmp_path]) == "server.py"
    assert changed_text([one, two], [tmp_path]) == "server.py and pkg/tools.py"
    three = [one, two, tmp_path / "c.py"]
    assert changed_text(three, [tmp_path]) == "server.py and 2 more files"
    assert changed_text([Path("/elsewhere/x.py")], [tmp_path]) == "x.py"
    assert changed_text([], [tmp_path]) == "a watched file"

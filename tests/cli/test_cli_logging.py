"""Library logging never reaches the terminal as it is: one escaped line in headless runs, nothing
with ``--quiet``, a log file under the TUI (``mcp_tui.process.logs``)."""

from __future__ import annotations

import gc
import io
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.cli import main as cli
from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.process.logs import TUI_LOG_NAME, headless_logging, tui_logging


@pytest.fixture
def lonely_logger() -> Iterator[logging.Logger]:
    """A logger that does not propagate and has no handler: Python's last resort handles it
    (and writes to ``sys.stderr``) unless someone replaced that."""
    logger = logging.getLogger("mcp_tui_test.lonely")
    logger.propagate = False
    yield logger
    logger.propagate = True


def test_one_escaped_prefixed_line_per_warning() -> None:
    err = io.StringIO()
    with headless_logging(err, quiet=False):
        client = logging.getLogger("client")
        client.warning("dropping tool %s: invalid x-mcp-header", "evil\x1b]52;c;eA==\x07\u202e")
        client.warning("dropping tool %s: invalid x-mcp-header", "evil\x1b]52;c;eA==\x07\u202e")
        client.info("not shown: below warning")
        client.warning("two\nlines")
        try:
            raise ValueError("boom\x1b[2J")
        except ValueError:
            logging.getLogger("mcp.client.x").exception("failed")
    lines = err.getvalue().splitlines()
    assert lines == [
        "mcp-tui: warning from client: dropping tool evil\\e]52;c;eA==\\x07\\u202e: "
        "invalid x-mcp-header",
        "mcp-tui: warning from client: two\\nlines",
        "mcp-tui: error from mcp.client.x: failed (ValueError: boom\\e[2J)",
    ]


def test_quiet_prints_nothing_even_for_loggers_without_handlers(
    lonely_logger: logging.Logger, capsys: pytest.CaptureFixture[str]
) -> None:
    err = io.StringIO()
    with headless_logging(err, quiet=True):
        logging.getLogger("client").warning("dropping tool 'x'")
        lonely_logger.error("last resort")
    assert err.getvalue() == ""
    assert capsys.readouterr().err == ""


def test_last_resort_goes_through_the_handler_and_everything_is_restored(
    lonely_logger: logging.Logger, capsys: pytest.CaptureFixture[str]
) -> None:
    root = logging.getLogger()
    before = (list(root.handlers), logging.lastResort)
    err = io.StringIO()
    with headless_logging(err, quiet=False):
        lonely_logger.warning("via \x1b last resort")
    assert err.getvalue() == "mcp-tui: warning from mcp_tui_test.lonely: via \\e last resort\n"
    assert capsys.readouterr().err == ""
    assert (list(root.handlers), logging.lastResort) == before


def test_tui_logging_writes_a_file_only_when_something_is_logged(
    tmp_path: Path, lonely_logger: logging.Logger, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "logs" / "nested" / TUI_LOG_NAME
    with tui_logging(path):
        logging.getLogger("client").info("below warning: not written")
    assert not path.parent.exists(), "a quiet run creates no directory or file"
    with tui_logging(path):
        logging.getLogger("client").warning("dropping tool %s", "\x1b]0;title\x07")
        lonely_logger.warning("no handler of its own")
    text = path.read_text(encoding="utf-8")
    assert "warning from client: dropping tool \\e]0;title\\x07" in text
    assert "warning from mcp_tui_test.lonely: no handler of its own" in text
    assert "\x1b" not in text
    assert capsys.readouterr().err == ""


def test_run_tui_routes_logging_away_from_the_terminal_before_the_app_starts(
    monkeypatch: pytest.MonkeyPatch,
    isolated_dirs: Path,
    lonely_logger: logging.Logger,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """While the app runs, a library warning (even one Python's last resort would print) goes to
    ``mcp-tui.log`` in the log directory, not to stderr, which Textual draws over."""

    class FakeApp:
        return_code = 0

        def run(self) -> None:
            logging.getLogger("client").warning("dropping tool 'x': invalid x-mcp-header")
            lonely_logger.warning("a warning with no handler")

    def fake_build_app(servers: list[ServerSpec], options: AppOptions) -> Any:
        return FakeApp()

    monkeypatch.setattr(cli, "build_app", fake_build_app)
    try:
        assert cli.run_tui([ServerSpec("s", StdioTarget("x"))], AppOptions()) == 0
    finally:
        gc.unfreeze()
    assert capsys.readouterr().err == ""
    text = (isolated_dirs / "log" / TUI_LOG_NAME).read_text(encoding="utf-8")
    assert "dropping tool 'x'" in text and "a warning with no handler" in text
    assert logging.lastResort is not None and not isinstance(
        logging.lastResort, logging.FileHandler
    ), "restored after the app"

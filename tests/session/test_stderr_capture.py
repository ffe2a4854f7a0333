"""Server stderr: split into events, logged to a bounded file, never written to the terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_tui.session.events import StderrReceived
from mcp_tui.session.stderr import StderrCapture
from tests.session.session_testkit import ELICIT_SERVER, RAW_SERVER, Recorder, connected, stdio_spec


def lines_of(recorder: Recorder) -> list[str]:
    return [e.line for e in recorder.of(StderrReceived)]


def test_splits_lines_across_chunks_and_keeps_control_characters() -> None:
    rec = Recorder()
    cap = StderrCapture("s", rec)
    cap.feed(b"one\r\ntw")
    cap.feed(b"o\n\x1b[31mred\n")
    cap.feed(b"no newline at the end")
    cap.finish()
    assert lines_of(rec) == ["one", "two", "\x1b[31mred", "no newline at the end"]
    assert list(cap.tail)[-1] == "no newline at the end"


def test_an_endless_line_is_cut_and_the_rest_of_it_dropped() -> None:
    rec = Recorder()
    cap = StderrCapture("s", rec, max_line=10)
    cap.feed(b"a" * 25)
    cap.feed(b"b" * 25 + b"\nnext\n")
    cap.finish()
    assert lines_of(rec) == ["a" * 10 + " … [line cut]", "next"]


def test_total_size_is_capped_with_one_note(tmp_path: Path) -> None:
    rec = Recorder()
    log = tmp_path / "stderr.log"
    cap = StderrCapture("s", rec, log, cap_bytes=25)
    cap.open()
    cap.feed(b"0123456789\n" * 2)
    cap.feed(b"abcdefghij\n" * 5)
    cap.feed(b"more\n")
    cap.finish()
    lines = lines_of(rec)
    assert lines[:2] == ["0123456789", "0123456789"]
    assert lines[2] == "abc"
    assert lines[3].startswith("[mcp-tui] stderr limit") and len(lines) == 4
    text = log.read_text()
    assert text.startswith("--- mcp-tui: s started ")
    assert "0123456789\n0123456789\nabc" in text and "more" not in text
    assert "stderr limit" in text


@pytest.mark.anyio
async def test_stdio_server_stderr_is_captured_not_leaked(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    recorder = Recorder()
    log = tmp_path / "logs" / "fx.stderr.log"
    marker = "MARKER-\x1b]0;title\x07-from-the-server"
    async with connected(stdio_spec(ELICIT_SERVER), recorder=recorder, stderr_log=log) as conn:
        outcome = await conn.call_tool("shout_to_stderr", {"text": marker})
        assert outcome.error is None
        await recorder.wait_for(StderrReceived, lambda e: e.line == marker)
    assert "fixture-server starting" in lines_of(recorder)
    assert marker in log.read_text(encoding="utf-8")
    out, err = capfd.readouterr()
    assert "MARKER" not in err and "MARKER" not in out
    assert "fixture-server starting" not in err


@pytest.mark.anyio
async def test_a_stderr_flood_is_bounded(tmp_path: Path) -> None:
    recorder = Recorder()
    log = tmp_path / "flood.log"
    # 6 MiB of stderr against the default 5 MiB cap; the server must not block on the pipe.
    spec = stdio_spec(RAW_SERVER, "--stderr-bytes", str(6 * 1024 * 1024))
    async with connected(spec, recorder=recorder, stderr_log=log) as conn:
        assert (await conn.call_tool("hello", {})).items[0].text == "hello world"
        await recorder.wait_for(StderrReceived, lambda e: "stderr limit" in e.line)
    assert log.stat().st_size < 5 * 1024 * 1024 + 1024
    assert sum("stderr limit" in line for line in lines_of(recorder)) == 1

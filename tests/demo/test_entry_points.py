"""`python -m mcp_tui.demo` as a child process: over stdio (the way `mcp-tui demo` runs it) and
over Streamable HTTP, on both eras, with a form wizard and the URL flows across a real process
boundary. Also: nothing but protocol on stdout, the URL first in HTTP mode."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import anyio
import mcp_types as types
import pytest
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.stdio import stdio_client

from mcp_tui.demo.server import demo_http_command, demo_stdio_command, demo_stdio_env
from tests.demo.demo_testkit import (
    ERA,
    MODES,
    Events,
    accept,
    next_weekday,
    press_connect,
    script,
    text_of,
)

LISTING = "Files in / of demo-user@example.com:"


def child_env() -> dict[str, str]:
    return {**os.environ, **demo_stdio_env()}


def test_the_stdio_command_uses_this_python() -> None:
    assert demo_stdio_command() == [sys.executable, "-m", "mcp_tui.demo"]
    assert demo_http_command(8123) == [
        sys.executable,
        "-m",
        "mcp_tui.demo",
        "--http",
        "--port",
        "8123",
    ]
    assert (Path(demo_stdio_env()["PYTHONPATH"]) / "mcp_tui" / "demo" / "server.py").is_file()


def test_stdio_mode_prints_nothing_but_protocol() -> None:
    """With no client at all (stdin at EOF) the server starts, writes nothing, and exits 0."""
    done = subprocess.run(
        demo_stdio_command(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=child_env(),
        timeout=60,
        check=False,
    )
    assert done.stdout == b""
    assert b"Traceback" not in done.stderr
    assert done.returncode == 0


def test_ctrl_c_stops_the_stdio_server_while_it_waits_for_input() -> None:
    """The SDK reads stdin in a thread that cancellation cannot interrupt; the demo must still
    stop on SIGINT instead of waiting for another line."""
    proc = subprocess.Popen(
        demo_stdio_command(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=child_env(),
        # Whatever ignores SIGINT around the test run, the demo gets the default handler.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        initialize = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "test", "version": "0"},
            },
        }
        proc.stdin.write(json.dumps(initialize).encode() + b"\n")
        proc.stdin.flush()
        reply = json.loads(proc.stdout.readline())  # the server is up and reading stdin
        assert reply["id"] == 1 and reply["result"]["serverInfo"]["name"] == "mcp-tui-demo"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 128 + signal.SIGINT
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.fixture
def errlog(tmp_path: Path) -> Iterator[TextIO]:
    with open(tmp_path / "demo-stderr.log", "w+", encoding="utf-8") as log:
        yield log
        log.seek(0)
        assert "Traceback" not in log.read()


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_over_stdio_the_wizard_and_the_url_flows_work(mode: str, errlog: TextIO) -> None:
    command = demo_stdio_command()
    params = StdioServerParameters(command=command[0], args=command[1:], env=demo_stdio_env())
    day = next_weekday(5)
    events = Events()
    answers = script(
        accept(date=day.isoformat(), party_size=2),
        accept(time="13:30"),
        accept(dietary=["vegan"]),
    )
    transport = stdio_client(params, errlog=errlog)
    async with (
        anyio.create_task_group() as tg,
        Client(
            transport, mode=mode, elicitation_callback=answers, message_handler=events.on_message
        ) as client,
    ):
        assert client.protocol_version == ERA[mode]
        booked = await client.call_tool("book_table", {})
        assert text_of(booked).startswith("Booked: a table for 2 people")
        assert "at 13:30 - lunch." in text_of(booked)
        answers.assert_done()
        if mode == "legacy":
            with pytest.raises(MCPError) as failed:
                await client.call_tool("list_files", {})
            assert failed.value.error.code == -32042
            wanted = types.ElicitationRequiredErrorData.model_validate(failed.value.error.data)
            first = wanted.elicitations[0]
            await press_connect(first.url)
            await events.wait_for_completion(first.elicitation_id or "")
            listing = await client.call_tool("list_files", {})
        else:

            async def press(params: types.ElicitRequestParams) -> types.ElicitResult:
                assert isinstance(params, types.ElicitRequestURLParams)
                tg.start_soon(press_connect, params.url)
                return types.ElicitResult(action="accept")

            answers.answers.append(press)
            listing = await client.call_tool("list_files", {})
        assert text_of(listing).startswith(LISTING)


@pytest.fixture
def http_demo(tmp_path: Path) -> Iterator[str]:
    """`python -m mcp_tui.demo --http --port 0`; yields the URL it printed first."""
    with open(tmp_path / "demo-http.log", "w+", encoding="utf-8") as log:
        proc = subprocess.Popen(
            demo_http_command(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=log,
            env=child_env(),
            text=True,
        )
        try:
            assert proc.stdout is not None
            url = proc.stdout.readline().strip()
            assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp"), url
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        assert proc.stdout is not None
        assert proc.stdout.read() == ""  # nothing after the URL
        log.seek(0)
        assert "Traceback" not in log.read()


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_over_http_forms_and_the_url_flow_work(mode: str, http_demo: str) -> None:
    events = Events()
    answers = script(accept())
    async with anyio.create_task_group() as tg:

        async def press(params: types.ElicitRequestParams) -> types.ElicitResult:
            assert isinstance(params, types.ElicitRequestURLParams)
            tg.start_soon(press_connect, params.url)
            return types.ElicitResult(action="accept")

        answers.answers.append(press)
        async with Client(
            http_demo, mode=mode, elicitation_callback=answers, message_handler=events.on_message
        ) as client:
            assert client.protocol_version == ERA[mode]
            confirmed = await client.call_tool("confirm_action", {"action": "ship it"})
            if mode == "legacy":  # -32042, completed on the standalone (GET) stream
                with pytest.raises(MCPError) as failed:
                    await client.call_tool("list_files", {})
                wanted = types.ElicitationRequiredErrorData.model_validate(failed.value.error.data)
                await press_connect(wanted.elicitations[0].url)
                await events.wait_for_completion(wanted.elicitations[0].elicitation_id or "")
                listing = await client.call_tool("list_files", {})
                assert text_of(listing).startswith(LISTING)
                await client.call_tool("disconnect_account", {})
            connected = await client.call_tool("connect_account", {})
    answers.assert_done()
    assert text_of(confirmed) == "Confirmed: ship it."
    assert text_of(connected) == "Connected as demo-user@example.com."
    if mode == "legacy":
        assert events.completed()[-1] == answers.asked[1].url.elicitation_id

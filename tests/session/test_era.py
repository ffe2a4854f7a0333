"""How mcp-tui chooses the protocol era (``session/era.py``, ``era_client.py``), with real servers.

``elicit_server.py``'s ``book_table`` and ``input_required`` are written the way the ``mcp`` 2.3
documentation shows: their ``ctx.elicit()`` works on 2025-11-25 only. The default mode must reach
them with no flag; ``--mode 2026-07-28`` must still test the new era, and there the failure must be
recognised as an era problem. ``raw_server.py`` plays servers that speak only 2026-07-28
(``initialize`` refused).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.config.servers import ProtocolMode, ServerSpec, StdioTarget
from mcp_tui.session.connection import ServerConnection
from mcp_tui.session.elicitation import ElicitationOutcome
from mcp_tui.session.era import (
    LEGACY_ERA,
    MODERN_ERA,
    era_hint,
    needed_era,
    other_era,
    outcome_hint,
)
from mcp_tui.session.events import (
    CallOutcome,
    ConnectionState,
    ContentItem,
    Notice,
    TrafficRecorded,
)
from tests.session.session_testkit import (
    ELICIT_SERVER,
    RAW_SERVER,
    Recorder,
    ScriptedHandler,
    connected,
)

BOOKING = {"name": "Grace", "party": 4, "terrace": True}

SDK_NO_BACK_CHANNEL = (
    "-32600 (invalid request): Cannot send 'elicitation/create': this transport context has no "
    "back-channel for server-initiated requests."
)
FASTMCP_NO_BACK_CHANNEL = (
    "elicitation via server-initiated requests is unavailable on 2026-07-28 connections."
)
SDK_INVALID_RESULT = "-32603 (internal error): Handler returned an invalid result"
FASTMCP_NEEDS_MODERN = (
    "-32602 (invalid params): Tool 'guard' returned an InputRequiredResult to request client "
    "input, but the multi-round-trip result type (SEP-2322) only exists at MCP 2026-07-28; this "
    "connection negotiated '2025-11-25'. Use ctx.elicit() for server-initiated input on "
    "handshake-era connections."
)


def sdk_spec(mode: ProtocolMode) -> ServerSpec:
    return ServerSpec("sdk", StdioTarget(sys.executable, (str(ELICIT_SERVER),)), mode=mode)


def raw_spec(tmp_path: Path, script: dict[str, Any], mode: ProtocolMode = "auto") -> ServerSpec:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    args = (str(RAW_SERVER), "--script", str(path), "--record", str(tmp_path / "in.jsonl"))
    return ServerSpec("raw", StdioTarget(sys.executable, args), mode=mode)


def sent_methods(rec: Recorder) -> list[str]:
    return [
        e.method for e in rec.of(TrafficRecorded) if e.direction == "out" and e.method is not None
    ]


def echoed(outcome: CallOutcome) -> dict[str, Any]:
    assert outcome.error is None and not outcome.is_error, outcome
    text = outcome.items[0].text
    assert text is not None
    result: dict[str, Any] = json.loads(text)
    return result


MODERN_ONLY: dict[str, Any] = {
    "refuse": {
        "initialize": {
            "code": -32022,
            "message": "Unsupported protocol version",
            "data": {"supported": ["2026-07-28"], "requested": "2025-11-25"},
        }
    },
    "discover": {
        "supportedVersions": ["2026-07-28"],
        "capabilities": {"tools": {}},
        "resultType": "complete",
        "ttlMs": 0,
        "cacheScope": "public",
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "modern-only", "version": "9"}},
    },
}


# ---- the default mode against an `mcp` 2.3 server ----------------------------------------------


@pytest.mark.anyio
async def test_auto_reaches_ctx_elicit_on_2025_11_25_without_a_probe() -> None:
    rec = Recorder()
    handler = ScriptedHandler(ElicitationOutcome("accept", BOOKING))
    async with connected(sdk_spec("auto"), handler, rec) as conn:
        assert conn.info is not None and conn.info.protocol_version == LEGACY_ERA
        assert conn.info.name == "fixture-server"
        outcome = await conn.call_tool("book_table")
    assert echoed(outcome) == {"action": "accept", "content": BOOKING}
    [request] = handler.seen
    assert request.message == "Who is the table for?"
    assert request.form is not None
    assert [f.name for f in request.form.fields] == ["name", "party", "terrace"]
    methods = sent_methods(rec)
    assert methods[0] == "initialize" and "server/discover" not in methods


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["auto", "2026-07-28"])
@pytest.mark.parametrize("tool", ["input_required", "resolved"])
async def test_tools_written_for_2026_work_in_auto_and_2026(mode: ProtocolMode, tool: str) -> None:
    handler = ScriptedHandler(ElicitationOutcome("accept", {"sure": True}))
    async with connected(sdk_spec(mode), handler) as conn:
        outcome = await conn.call_tool(tool)
        version = conn.info.protocol_version if conn.info else None
    assert version == (LEGACY_ERA if mode == "auto" else MODERN_ERA)
    assert echoed(outcome) == {"action": "accept", "content": {"sure": True}}
    assert [r.message for r in handler.seen] == ["Really go on?"]


@pytest.mark.anyio
async def test_2026_mode_still_tests_the_new_era_and_names_the_era_failure() -> None:
    rec = Recorder()
    handler = ScriptedHandler(ElicitationOutcome("accept", BOOKING))
    async with connected(sdk_spec("2026-07-28"), handler, rec) as conn:
        # server/discover is sent, so the server's name and capabilities are known on 2026 too
        assert conn.info is not None and conn.info.protocol_version == MODERN_ERA
        assert conn.info.name == "fixture-server" and "tools" in conn.info.capabilities
        outcome = await conn.call_tool("book_table")
    assert sent_methods(rec)[0] == "server/discover"
    assert "initialize" not in sent_methods(rec)
    assert handler.seen == []
    assert outcome.error_code == -32600 and "back-channel" in (outcome.error or "")
    assert outcome.needs_era == LEGACY_ERA
    assert outcome_hint(outcome) == (
        "This server asks questions with server-initiated requests, which 2026-07-28 "
        "connections cannot carry: press E to reconnect on 2025-11-25 (or run with --mode legacy)."
    )


@pytest.mark.anyio
async def test_a_tool_that_only_speaks_2026_gets_a_hedged_hint_and_works_on_2026() -> None:
    """``mcp`` 2.3 refuses an unconditional InputRequiredResult on 2025-11-25 with a bare -32603
    that names no era; with ``--mode legacy`` the hint suggests the other era, and there the same
    tool asks its form. (``auto`` calls it again on 2026-07-28 by itself: ``era_retry.py``.)"""
    async with connected(sdk_spec("legacy"), ScriptedHandler(None)) as conn:
        outcome = await conn.call_tool("only_2026")
    assert outcome.error_code == -32603
    assert "Handler returned an invalid result" in (outcome.error or "")
    assert outcome.needs_era == MODERN_ERA
    assert outcome_hint(outcome) == (
        "The server's SDK refused this tool's result on 2025-11-25, as it does when a tool "
        "written for 2026-07-28 returns input_required: press E to try it on 2026-07-28 (or run "
        "with --mode 2026-07-28)."
    )
    assert outcome_hint(outcome, key=None) == (
        "The server's SDK refused this tool's result on 2025-11-25, as it does when a tool "
        "written for 2026-07-28 returns input_required: try --mode 2026-07-28 (or mode = "
        '"2026-07-28" in the config).'
    )
    handler = ScriptedHandler(ElicitationOutcome("accept", {"sure": True}))
    async with connected(sdk_spec("2026-07-28"), handler) as conn:
        outcome = await conn.call_tool("only_2026")
    assert echoed(outcome) == {"action": "accept", "content": {"sure": True}}


@pytest.mark.anyio
async def test_auto_calls_a_2026_only_tool_again_on_2026_and_goes_there_directly_next_time() -> (
    None
):
    rec = Recorder()
    handler = ScriptedHandler(ElicitationOutcome("accept", {"sure": True}))
    async with connected(sdk_spec("auto"), handler, recorder=rec) as conn:
        assert conn.info is not None and conn.info.protocol_version == LEGACY_ERA
        first = await conn.call_tool("only_2026")
        second = await conn.call_tool("only_2026")
    assert echoed(first) == echoed(second) == {"action": "accept", "content": {"sure": True}}
    said = [n.text for n in rec.of(Notice)]
    assert sum("calling it again on a 2026-07-28 connection" in t for t in said) == 1, said


@pytest.mark.anyio
async def test_legacy_mode_reaches_ctx_elicit() -> None:
    handler = ScriptedHandler(ElicitationOutcome("accept", BOOKING))
    async with connected(sdk_spec("legacy"), handler) as conn:
        outcome = await conn.call_tool("book_table")
    assert echoed(outcome)["content"] == BOOKING and outcome.needs_era is None


# ---- servers that speak only 2026-07-28 ---------------------------------------------------------


@pytest.mark.anyio
async def test_auto_adopts_2026_when_the_server_refuses_initialize(tmp_path: Path) -> None:
    rec = Recorder()
    async with connected(raw_spec(tmp_path, MODERN_ONLY), recorder=rec) as conn:
        assert conn.info is not None
        assert (conn.info.protocol_version, conn.info.name) == (MODERN_ERA, "modern-only")
        outcome = await conn.call_tool("hello", {"name": "era"})
    assert outcome.items[0].text == "hello era"
    methods = sent_methods(rec)
    assert methods[:2] == ["initialize", "server/discover"]
    assert "notifications/initialized" not in methods


@pytest.mark.anyio
async def test_a_server_refusing_both_gets_the_initialize_refusal(tmp_path: Path) -> None:
    script = {"refuse": {"initialize": {"code": -32603, "message": "database is down"}}}
    conn = ServerConnection(raw_spec(tmp_path, script), handler=ScriptedHandler(), sink=Recorder())
    await conn.run()
    assert conn.state is ConnectionState.FAILED
    assert conn.detail is not None and "database is down" in conn.detail
    lines = (tmp_path / "in.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["method"] for line in lines] == ["initialize", "server/discover"]


@pytest.mark.anyio
async def test_2026_mode_without_server_discover_adopts_the_era_blind(tmp_path: Path) -> None:
    """A server that does not answer ``server/discover`` is still reached on 2026-07-28, and
    the connection says so (a 2025-only server would fail every request from then on)."""
    rec = Recorder()
    async with connected(raw_spec(tmp_path, {}, mode="2026-07-28"), recorder=rec) as conn:
        assert conn.info is not None and conn.info.protocol_version == MODERN_ERA
        outcome = await conn.call_tool("hello", {"name": "blind"})
    assert outcome.items[0].text == "hello blind"
    notes = [n.text for n in rec.of(Notice) if "server/discover" in n.text]
    assert len(notes) == 1 and "refused server/discover (-32601 " in notes[0], rec.of(Notice)
    assert "mode auto" in notes[0]


#: A server that speaks both eras and is slow to start (a cold FastMCP on a loaded machine), with
#: a tool written for 2026-07-28 only, refused on 2025-11-25 as FastMCP refuses it.
SLOW_BOTH_ERAS: dict[str, Any] = {
    "start_delay": 1.5,
    "discover": MODERN_ONLY["discover"],
    "results": {"only_2026": {"error": {"code": -32602, "message": FASTMCP_NEEDS_MODERN}}},
    "modern_results": {
        "only_2026": {"result": {"content": [{"type": "text", "text": "asked on 2026"}]}}
    },
}
#: The SDK's time for ``server/discover`` here (10 s in the SDK): the server above starts 7.5
#: times slower than it, as a cold server under load did against the real 10 s.
PROBE_TIME = 0.2


@pytest.mark.anyio
async def test_a_slow_starting_server_is_discovered_not_adopted_blind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``server/discover`` timing out while the process starts is no refusal: the probe is sent
    again, and the server's own name and capabilities are known once it answers."""
    monkeypatch.setattr("mcp.client.session.DISCOVER_TIMEOUT_SECONDS", PROBE_TIME)
    rec = Recorder()
    spec = raw_spec(tmp_path, SLOW_BOTH_ERAS, mode="2026-07-28")
    async with connected(spec, recorder=rec) as conn:
        assert conn.discover_refusal is None
        assert conn.info is not None and conn.info.name == "modern-only"
        assert conn.info.protocol_version == MODERN_ERA
    assert not [n for n in rec.of(Notice) if "server/discover" in n.text], rec.of(Notice)


@pytest.mark.anyio
async def test_the_automatic_2026_retry_waits_for_a_slow_starting_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 41.5: in auto, the 2026-07-28 connection of the retry is a second server process,
    started when the call fails; while it starts, ``server/discover`` timed out and the retry
    said the server "does not speak 2026-07-28" (the hint to press E instead of the result),
    about one run in three on a loaded machine. The order of events is fixed here: the server
    answers only after the SDK's probe time."""
    monkeypatch.setattr("mcp.client.session.DISCOVER_TIMEOUT_SECONDS", PROBE_TIME)
    rec = Recorder()
    async with connected(raw_spec(tmp_path, SLOW_BOTH_ERAS), recorder=rec) as conn:
        assert conn.info is not None and conn.info.protocol_version == LEGACY_ERA
        outcome = await conn.call_tool("only_2026")
    said = [n.text for n in rec.of(Notice)]
    assert outcome.error is None and outcome.items[0].text == "asked on 2026", (outcome, said)
    assert outcome_hint(outcome) is None
    assert not [t for t in said if "not called again" in t or "server/discover" in t], said


@pytest.mark.anyio
async def test_2026_mode_says_nothing_when_the_server_answers_server_discover() -> None:
    rec = Recorder()
    async with connected(sdk_spec("2026-07-28"), recorder=rec) as conn:
        assert conn.info is not None and conn.info.protocol_version == MODERN_ERA
    assert not [n for n in rec.of(Notice) if "server/discover" in n.text]


# ---- recognising and wording era failures -------------------------------------------------------


def _failed(error: str | None = None, *texts: str) -> CallOutcome:
    items = tuple(ContentItem("text", text=t) for t in texts)
    return CallOutcome(items=items, is_error=bool(texts), error=error)


@pytest.mark.parametrize(
    ("outcome", "version", "needed"),
    [
        (_failed(SDK_NO_BACK_CHANNEL), MODERN_ERA, LEGACY_ERA),
        (_failed(None, FASTMCP_NO_BACK_CHANNEL), MODERN_ERA, LEGACY_ERA),
        # a tool that caught the SDK's error and reported it in its result
        (_failed(None, "failed: " + SDK_NO_BACK_CHANNEL.upper()), MODERN_ERA, LEGACY_ERA),
        (_failed(FASTMCP_NEEDS_MODERN), LEGACY_ERA, MODERN_ERA),
        (_failed(FASTMCP_NEEDS_MODERN), "2025-06-18", MODERN_ERA),
        # the same words on the era they do not fit: a stateless HTTP server has no back-channel
        # on 2025-11-25 either, and switching would not help
        (_failed(SDK_NO_BACK_CHANNEL), LEGACY_ERA, None),
        (_failed(FASTMCP_NEEDS_MODERN), MODERN_ERA, None),
        (_failed(FASTMCP_NEEDS_MODERN), None, None),
        # a successful result that merely mentions the words is no failure
        (CallOutcome(items=(ContentItem("text", text=FASTMCP_NO_BACK_CHANNEL),)), MODERN_ERA, None),
        (_failed("-32603 (internal error): boom"), MODERN_ERA, None),
        (_failed("-32603 (internal error): boom"), LEGACY_ERA, None),
        # the SDK's generic refusal of a result: on 2025 eras, probably a 2026-only tool
        (_failed(SDK_INVALID_RESULT), LEGACY_ERA, MODERN_ERA),
        (_failed(SDK_INVALID_RESULT), MODERN_ERA, None),
    ],
)
def test_era_failures_are_recognised(
    outcome: CallOutcome, version: str | None, needed: str | None
) -> None:
    assert needed_era(outcome, version) == needed


def test_the_hint_says_what_happened_and_the_fix_in_one_sentence() -> None:
    modern = era_hint(MODERN_ERA)
    assert modern == (
        "This server asks questions with 2026-07-28 input_required results, which 2025-11-25 "
        "connections cannot carry: press E to reconnect on 2026-07-28 (or run with --mode "
        "2026-07-28)."
    )
    headless = era_hint(LEGACY_ERA, key=None)
    assert headless.endswith(': run again with --mode legacy (or mode = "legacy" in the config).')
    maybe = era_hint(MODERN_ERA, maybe=True)
    assert maybe.startswith("The server's SDK refused this tool's result on 2025-11-25")
    # FastMCP's own words name the era: the certain sentence, not the hedged one
    assert outcome_hint(CallOutcome(error=FASTMCP_NEEDS_MODERN, needs_era=MODERN_ERA)) == modern
    for text in (
        modern,
        headless,
        era_hint(LEGACY_ERA),
        maybe,
        era_hint(MODERN_ERA, maybe=True, key=None),
    ):
        assert text.count(". ") == 0 and text.endswith(".")
    assert outcome_hint(CallOutcome(error="x")) is None


@pytest.mark.parametrize(
    ("version", "mode", "other"),
    [
        (LEGACY_ERA, "auto", MODERN_ERA),
        ("2025-06-18", "legacy", MODERN_ERA),
        (MODERN_ERA, "auto", LEGACY_ERA),
        (MODERN_ERA, "2026-07-28", LEGACY_ERA),
        (None, "auto", MODERN_ERA),  # not connected (yet): by the mode asked for
        (None, "legacy", MODERN_ERA),
        (None, "2026-07-28", LEGACY_ERA),
    ],
)
def test_the_other_era(version: str | None, mode: str, other: str) -> None:
    assert other_era(version, mode) == other

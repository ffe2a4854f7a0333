"""``mcp-tui check`` on what 2026-07-28 and its extensions ask of a server, end to end: a listing
without the ``cacheScope`` the era requires (X102), a form that offers an MCP App (E108, and
``call`` saying so), a tool that needs elicitation from a client without it (E109,
``--no-elicitation``).

The server is ``tests/fixtures/raw_server.py``: it can leave out what an SDK server never does,
and ``--record`` shows what mcp-tui sent (the capabilities it advertised).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.cli import main as cli

PY = sys.executable
RAW = Path(__file__).resolve().parents[1] / "fixtures" / "raw_server.py"
DISCOVER: dict[str, Any] = {
    "supportedVersions": ["2026-07-28", "2025-11-25"],
    "capabilities": {"tools": {}},
    "resultType": "complete",
    "ttlMs": 0,
    "cacheScope": "public",
    "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "raw", "version": "1"}},
}
TOOLS = [
    {"name": "book", "title": "Book", "description": "Books.", "inputSchema": {"type": "object"}}
]
FORM = {"type": "object", "properties": {"size": {"type": "integer", "description": "How many"}}}


def server(tmp_path: Path, *flags: str, **script: Any) -> list[str]:
    path = tmp_path / "script.json"
    path.write_text(json.dumps({"tools": TOOLS, "discover": DISCOVER, **script}), "utf-8")
    return ["--", PY, str(RAW), "--script", str(path), *flags]


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict[str, Any]]]:
    code = cli.main(["check", "--json", *argv])
    return code, json.loads(capsys.readouterr().out)["findings"]


def of(findings: list[dict[str, Any]], rule: str) -> list[dict[str, Any]]:
    return [f for f in findings if f["rule"] == rule]


def asking(meta: dict[str, Any] | None = None) -> dict[str, Any]:
    params: dict[str, Any] = {"mode": "form", "message": "How many?", "requestedSchema": FORM}
    if meta is not None:
        params["_meta"] = meta
    return {"book": [{"elicit": params, "id": "e1"}, {"await": "e1"}]}


def test_a_2026_listing_without_cache_scope(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    era = ("--era", "2026-07-28")
    code, found = check(capsys, *era, *server(tmp_path, "--omit-cache-scope"))
    assert code == 1
    (x102,) = of(found, "X102")
    assert x102["severity"] == "error" and x102["eras"] == ["2026-07-28"]
    assert "tools/list answered without cacheScope" in x102["message"]
    assert "seems to offer no tools" in x102["message"]
    assert not of(check(capsys, *era, *server(tmp_path))[1], "X102")


def test_a_discover_without_cache_scope_is_named_not_an_era_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    discover = {k: v for k, v in DISCOVER.items() if k != "cacheScope"}
    code = cli.main(
        ["check", "--json", "--era", "2026-07-28", *server(tmp_path, discover=discover)]
    )
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    assert report["servers"][0]["eras"] == ["2026-07-28"]  # it answered: it speaks the era
    (x102,) = of(report["findings"], "X102")
    assert x102["message"].startswith("server/discover answered without cacheScope")


def test_a_form_that_offers_an_app(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    app = {"ui": {"resourceUri": "ui://shop/booking-form"}}
    era = ("--era", "2025-11-25", "--call", "book")
    _, found = check(capsys, *era, *server(tmp_path, on_call=asking(app)))
    (e108,) = of(found, "E108")
    assert (e108["where"], e108["pointer"]) == ("elicitation in book", "/_meta/ui/resourceUri")
    assert "ui://shop/booking-form" in e108["message"] and e108["severity"] == "warning"
    assert not of(check(capsys, *era, *server(tmp_path, on_call=asking()))[1], "E108")
    # `mcp-tui call` answers the form itself and says the app exists
    assert (
        cli.main(["call", "book", "--elicit", "cancel", *server(tmp_path, on_call=asking(app))])
        == 0
    )
    err = capsys.readouterr().err
    assert "also offers an app UI for this form (ui://shop/booking-form)" in err


def test_no_elicitation_advertises_none_and_names_a_tool_that_asks_anyway(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sent = tmp_path / "sent.jsonl"
    failed = {"result": {"isError": True, "content": [{"type": "text", "text": "no answer"}]}}
    argv = server(tmp_path, "--record", str(sent), on_call=asking(), results={"book": failed})
    code, found = check(capsys, "--era", "2025-11-25", "--no-elicitation", "--call", "book", *argv)
    assert code == 1
    initialize = next(
        m
        for line in sent.read_text("utf-8").splitlines()
        if (m := json.loads(line)).get("method") == "initialize"
    )
    assert "elicitation" not in initialize["params"]["capabilities"]
    (e109,) = of(found, "E109")
    assert e109["where"] == "tool book" and e109["severity"] == "error"
    assert "to a client that does not advertise elicitation" in e109["message"]
    # the same call from a client with forms: no E109
    assert not of(check(capsys, "--era", "2025-11-25", "--call", "book", *argv)[1], "E109")


def test_no_elicitation_names_a_tool_that_hangs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = server(tmp_path, results={"book": {"never": True}})
    code, found = check(
        capsys,
        "--era",
        "2025-11-25",
        "--no-elicitation",
        "--call-timeout",
        "1",
        "--call",
        "book",
        *argv,
    )
    (e109,) = of(found, "E109")
    assert "no answer within 1 s" in e109["message"] and code == 1

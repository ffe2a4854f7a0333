"""``mcp-tui check --baseline FILE`` end to end: the file written, compared, gated, refused.

The server is ``tests/fixtures/raw_server.py`` with a script (it starts in milliseconds and
lists exactly what the script says, on both eras), so each test writes a baseline from one
script and checks a changed copy of it, as an author's CI does after a change.
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
OBJ = {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]}
FORM = {
    "type": "object",
    "properties": {"size": {"type": "integer"}, "note": {"type": "string"}},
    "required": ["size"],
}
DISCOVER = {
    "supportedVersions": ["2026-07-28", "2025-11-25"],
    "capabilities": {"tools": {}},
    "resultType": "complete",
    "ttlMs": 0,
    "cacheScope": "public",
    "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "raw", "version": "1"}},
}


def script(tmp_path: Path, name: str, tools: list[dict[str, Any]], **more: Any) -> list[str]:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"tools": tools, "discover": DISCOVER, **more}), encoding="utf-8")
    return ["--", PY, str(RAW), "--script", str(path)]


def echo(input_schema: dict[str, Any] = OBJ) -> dict[str, Any]:
    return {"name": "echo", "description": "Echoes.", "inputSchema": input_schema}


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = cli.main(["check", "--json", *argv])
    return code, json.loads(capsys.readouterr().out)


def test_written_then_compared_is_clean_and_a_required_argument_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = tmp_path / "mcp-baseline.json"
    server = script(tmp_path, "v1", [echo()])
    code, report = check(capsys, "--baseline", str(base), "--baseline-update", *server)
    assert code == 0 and report["baseline"]["created"] is True
    written = json.loads(base.read_text(encoding="utf-8"))
    assert sorted(written["servers"][report["servers"][0]["server"]]) == [
        "2025-11-25",
        "2026-07-28",
    ]

    code, report = check(capsys, "--baseline", str(base), *server)
    assert code == 0
    assert report["baseline"]["changes"] == []

    props = {**OBJ["properties"], "prefix": {"type": "string"}}
    grown = {**OBJ, "properties": props, "required": ["message", "prefix"]}
    code, report = check(capsys, "--baseline", str(base), *script(tmp_path, "v2", [echo(grown)]))
    assert code == 1
    (change,) = report["baseline"]["changes"]
    assert change["rule"] == "B201" and change["name"] == "required-argument-added"
    assert change["level"] == "breaking"
    assert (change["where"], change["pointer"]) == ("tool echo", "/inputSchema/properties/prefix")
    assert change["eras"] == ["2025-11-25", "2026-07-28"]
    assert report["baseline"]["counts"] == {"breaking": 1, "compatible": 0}


def test_the_text_report_and_strict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = tmp_path / "mcp-baseline.json"
    cli.main(
        ["check", "--baseline", str(base), "--baseline-update", *script(tmp_path, "a", [echo()])]
    )
    capsys.readouterr()
    added = script(tmp_path, "b", [echo(), {**echo(), "name": "shout"}])
    assert cli.main(["check", "--baseline", str(base), *added]) == 0
    out = capsys.readouterr().out
    assert "CHANGES SINCE" in out and "COMPATIBLE (1)" in out
    assert "B501 tool-added tool shout" in out
    assert "0 breaking, 1 compatible change since" in out
    assert cli.main(["check", "--strict", "--baseline", str(base), *added]) == 1
    capsys.readouterr()
    gone = script(tmp_path, "c", [{**echo(), "name": "say"}])
    assert cli.main(["check", "--baseline", str(base), *gone]) == 1
    out = capsys.readouterr().out
    assert "BREAKING (1)" in out and "B101 tool-removed tool echo" in out
    assert "renamed to say?" in out and "why: " in out


def test_update_shows_what_changed_and_rewrites(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = tmp_path / "mcp-baseline.json"
    cli.main(
        ["check", "--baseline", str(base), "--baseline-update", *script(tmp_path, "a", [echo()])]
    )
    capsys.readouterr()
    newer = script(tmp_path, "b", [])
    code, report = check(capsys, "--baseline", str(base), "--baseline-update", *newer)
    assert code == 0  # the update is the review: it shows the changes, never fails on them
    assert {c["rule"] for c in report["baseline"]["changes"]} == {"B101"}
    assert cli.main(["check", "--baseline", str(base), *newer]) == 0


def test_update_on_one_era_keeps_the_other(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = tmp_path / "mcp-baseline.json"
    cli.main(
        ["check", "--baseline", str(base), "--baseline-update", *script(tmp_path, "a", [echo()])]
    )
    capsys.readouterr()
    newer = script(tmp_path, "b", [])
    cli.main(["check", "--era", "2025-11-25", "--baseline", str(base), "--baseline-update", *newer])
    capsys.readouterr()
    (eras,) = json.loads(base.read_text(encoding="utf-8"))["servers"].values()
    assert eras["2025-11-25"]["tools"] == {}
    assert sorted(eras["2026-07-28"]["tools"]) == ["echo"]


def test_a_form_field_made_required_through_call(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def asking(form: dict[str, Any]) -> list[str]:
        ask = {"elicit": {"mode": "form", "message": "How many?", "requestedSchema": form}}
        on_call = {"book": [{**ask, "id": "e1"}, {"await": "e1"}]}
        return script(tmp_path, "form", [{**echo(), "name": "book"}], on_call=on_call)

    base = tmp_path / "mcp-baseline.json"
    era = ("--era", "2025-11-25", "--call", "book")
    cli.main(["check", *era, "--baseline", str(base), "--baseline-update", *asking(FORM)])
    capsys.readouterr()
    saved = json.loads(base.read_text(encoding="utf-8"))
    (eras,) = saved["servers"].values()
    assert list(eras["2025-11-25"]["elicitations"]) == ["call book #1"]
    stricter = {**FORM, "required": ["note", "size"]}
    code, report = check(capsys, *era, "--baseline", str(base), *asking(stricter))
    assert code == 1
    assert [(c["rule"], c["where"], c["pointer"]) for c in report["baseline"]["changes"]] == [
        ("B202", "elicitation in book #1", "/requestedSchema/properties/note")
    ]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--baseline-update", "--demo"], "give --baseline FILE too"),
        (["--baseline", "{missing}", "--demo"], "no such file. Write it first"),
        (["--baseline", "{bad}", "--demo"], "not JSON"),
    ],
)
def test_a_bad_baseline_is_a_usage_error_before_anything_connects(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    names = {"{missing}": str(tmp_path / "nope.json"), "{bad}": str(tmp_path / "bad.json")}
    assert cli.main(["check", *[names.get(a, a) for a in argv]]) == 2
    assert said in capsys.readouterr().err


def test_on_github_a_breaking_change_is_annotated_at_its_line_of_the_baseline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    base = tmp_path / "mcp" / "baseline.json"
    base.parent.mkdir()
    hostile = {**echo(), "description": "Echoes.\n::error::owned ##[warning]owned"}
    cli.main(
        ["check", "--baseline", str(base), "--baseline-update", *script(tmp_path, "a", [hostile])]
    )
    capsys.readouterr()
    props = {**OBJ["properties"], "prefix": {"type": "string"}}
    grown = {
        **hostile,
        "inputSchema": {**OBJ, "properties": props, "required": ["message", "prefix"]},
    }
    grown["description"] += " (changed)"
    assert (
        cli.main(["check", "--github", "--baseline", str(base), *script(tmp_path, "b", [grown])])
        == 1
    )
    out = capsys.readouterr().out.splitlines()
    stop = next(i for i, line in enumerate(out) if line.startswith("::stop-commands::"))
    token = out[stop].removeprefix("::stop-commands::")
    resume = out.index(f"::{token}::")
    assert stop == 0 and resume > stop
    # what the server wrote is printed only while commands are off
    assert all("owned" not in line for line in out[resume:] if not line.startswith("::error file="))
    annotations = [line for line in out[resume + 1 :] if line.startswith("::error file=")]
    (annotation,) = annotations
    head, message = annotation.split("::", 2)[1:]
    assert head.startswith("error file=mcp/baseline.json,line=")
    assert "title=mcp-tui check B201 required-argument-added" in head
    line = int(head.split("line=")[1].split(",")[0])
    assert base.read_text(encoding="utf-8").splitlines()[line - 1].strip() == '"properties": {'
    assert message.startswith("tool echo /inputSchema/properties/prefix [2025-11-25, 2026-07-28]")
    assert "%0A" not in message and "\n" not in message


def test_on_github_with_json_the_commands_go_to_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    server = script(tmp_path, "a", [{**echo(), "description": "##[error]owned"}])
    assert cli.main(["check", "--json", *server]) == 0
    out, err = capsys.readouterr()
    json.loads(out)  # the JSON stays JSON
    assert err.splitlines()[0].startswith("::stop-commands::")
    assert cli.main(["check", "--no-github", *server]) == 0
    assert "::stop-commands::" not in capsys.readouterr().out

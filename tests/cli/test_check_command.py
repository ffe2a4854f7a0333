"""``mcp-tui check`` end to end: real servers over stdio, both eras, the report, exit codes."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.cli import main as cli

PY = sys.executable
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "check_server.py"


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = cli.main(["check", "--json", *argv])
    return code, json.loads(capsys.readouterr().out)


def rules(report: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for f in report["findings"]:
        out.setdefault(f["rule"], []).append(f)
    return out


def test_the_bundled_demo_is_clean_on_both_eras(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = check(capsys, "--demo")
    assert code == 0
    assert report["servers"] == [
        {
            "server": "demo",
            "name": "demo",
            "eras": ["2025-11-25", "2026-07-28"],
            "refused": {},
            "timed_out": {},
        }
    ]
    assert report["fuzzed"] == []
    assert set(rules(report)) == {"T301"}  # the tool list's size: information only


def test_a_server_with_faults_gets_each_of_them_and_the_era_finding(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, report = check(capsys, "--call", "ask", "--", PY, str(FIXTURE))
    assert code == 1
    found = rules(report)
    (era,) = found["X101"]
    assert era["where"] == "call ask" and era["eras"] == ["2026-07-28"]
    assert "server-initiated request" in era["message"]
    assert [f["pointer"] for f in found["E102"]] == ["/requestedSchema/properties/nickname"]
    assert [f["pointer"] for f in found["E101"]] == ["/requestedSchema/properties/code/pattern"]
    assert {f["where"] for f in found["T102"]} == {"tool files.read"}
    assert {f["where"] for f in found["T201"]} == {"tool files.read"}
    assert "tool ok" not in {f["where"] for fs in found.values() for f in fs}


def test_strict_ignore_and_era(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = check(
        capsys, "--era", "2026-07-28", "--ignore", "T102,T201", "--", PY, str(FIXTURE)
    )
    assert report["servers"][0]["eras"] == ["2026-07-28"]
    assert not {"T102", "T201"} & set(rules(report))
    assert code == 0
    code, _ = check(capsys, "--strict", "--", PY, str(FIXTURE))
    assert code == 1  # T102 and T201 are warnings


def test_an_unknown_check_id_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", "--ignore", "T999", "--demo"]) == 2
    assert "T999" in capsys.readouterr().err


def test_a_server_that_cannot_start_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["check", "--timeout", "20", "--", PY, "-c", "import sys; sys.exit(5)"])
    assert code == 3
    assert "cannot connect" in capsys.readouterr().err


def test_the_text_report_groups_by_severity(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", "--", PY, str(FIXTURE)]) == 0
    out = capsys.readouterr().out
    assert out.index("WARNINGS") < out.index("INFOS")
    assert "T102 tool files.read /name [2025-11-25, 2026-07-28]" in out
    assert "\x1b" not in out  # no colours off a terminal


def test_a_generic_script_name_gives_way_in_the_report_and_json_carries_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python server.py`` is keyed ``server``; the report names it as the TUI does, by the
    name it announces (``check-fixture``), and ``--json`` carries the key and the name."""
    script = tmp_path / "server.py"
    script.write_text(FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")
    code, report = check(capsys, "--era", "2025-11-25", "--", PY, str(script))
    assert code == 0
    assert report["servers"] == [
        {
            "server": "server",
            "name": "check-fixture",
            "eras": ["2025-11-25"],
            "refused": {},
            "timed_out": {},
        }
    ]
    assert {f["server"] for f in report["findings"]} == {"server"}  # findings keep the key
    assert cli.main(["check", "--era", "2025-11-25", "--", PY, str(script)]) == 0
    assert capsys.readouterr().out.startswith("check-fixture: connected on 2025-11-25")


def test_run_makes_a_test_files_cases_on_both_eras(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server written for 2025-11-25 with a server-initiated request gets the era finding from
    its own test file, and the forms its case asked are checked."""
    file = tmp_path / "check.mcptest.toml"
    file.write_text(
        f"[server]\ncommand = [{json.dumps(PY)}, {json.dumps(str(FIXTURE))}]\n\n"
        '[[case]]\nname = "asks who you are"\ntool = "ask"\neras = ["2025-11-25"]\n'
        'answers = [{ action = "accept", content = { nickname = "ada", code = "ADA" } }]\n'
        'expect = { outcome = "ok", text_contains = "accept" }\n',
        encoding="utf-8",
    )
    code, report = check(capsys, "--run", str(file))
    assert code == 1
    found = rules(report)
    (era,) = found["X101"]
    assert era["where"] == "call asks who you are" and era["eras"] == ["2026-07-28"]
    assert [f["where"] for f in found["E102"]] == ["elicitation in asks who you are"]


def test_run_with_a_target_or_a_bad_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.mcptest.toml"
    bad.write_text(
        'server = "demo"\n[[case]]\nname = "x"\ntool = "t"\nexpect = { outcom = "ok" }\n'
    )
    assert cli.main(["check", "--run", str(bad)]) == 2
    assert "outcom" in capsys.readouterr().err
    assert cli.main(["check", "--run", str(bad), "--demo"]) == 2
    assert "no TARGET" in capsys.readouterr().err


def test_the_config_check_table_ignores_and_makes_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "mcp-tui.toml"
    config.write_text('[check]\nignore = ["t102"]\nstrict = true\n', encoding="utf-8")
    code, report = check(capsys, "--config", str(config), "--", PY, str(FIXTURE))
    assert "T102" not in rules(report)
    assert code == 1  # strict: T201 is a warning
    code, report = check(
        capsys, "--config", str(config), "--ignore", "T201", "--", PY, str(FIXTURE)
    )
    assert not {"T102", "T201"} & set(rules(report)) and code == 0


def test_an_unknown_id_in_the_config_names_the_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "mcp-tui.toml"
    config.write_text('[check]\n\nignore = ["T102", "Z9"]\n', encoding="utf-8")
    assert cli.main(["check", "--config", str(config), "--demo"]) == 2
    err = capsys.readouterr().err
    assert "Z9" in err and "line 3" in err and str(config) in err

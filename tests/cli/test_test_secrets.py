"""A value from the environment never reaches a report, whatever prints it: ``mcp-tui test`` (text,
JUnit, ``--json``, ``--watch``), ``--update`` (never written into the file), ``check --run`` and
the pytest plugin; ``--log`` keeps the wire as it was, on purpose.

The file's author writes ``note = "n-${API_TOKEN}"`` in an answer and gives the server
``DOLLAR_ECHO = "${API_TOKEN}"``; the server (``tests/fixtures/dollar_server.py``) echoes the
note in its next request's message and in its result, and the token in a tool's name. The token
is masked by where it came from, not by a field's name (``note`` names no secret).
"""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from mcp_tui.cli.main import main
from mcp_tui.cli.runtests import run_tests
from mcp_tui.cli.testwatch import watch_tests

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "tests" / "fixtures" / "dollar_server.py"
TOKEN = "tok-CI-9f2c81e4"

FILE = f"""\
[server]
command = ["python", {json.dumps(str(SERVER))}]
env = {{ DOLLAR_SEEN_FILE = "${{SEEN}}", DOLLAR_ECHO = "${{API_TOKEN}}" }}

[[case]]
name = "echoes"
tool = "sign_up_${{API_TOKEN}}"
answers = [
  {{ action = "accept", content = {{ note = "n-${{API_TOKEN}}" }} }},
  {{ action = "accept" }},
]
expect = {{ text = "" }}
"""

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def case_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The file, and a CI's environment: the token set, this Python first on PATH."""
    monkeypatch.setenv("API_TOKEN", TOKEN)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    monkeypatch.setenv("SEEN", str(tmp_path / "seen.jsonl"))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    path = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")
    monkeypatch.setenv("PATH", path)
    file = tmp_path / "echo.mcptest.toml"
    file.write_text(FILE)
    return file


def test_the_report_junit_json_and_update_mask_it_and_the_log_keeps_it(
    case_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junit, log = tmp_path / "junit.xml", tmp_path / "wire.jsonl"
    code = main(["test", str(case_file), "--junit-xml", str(junit), "--log", str(log), "--update"])
    out, err = capsys.readouterr()
    assert code == 1, out + err
    assert f"n-{TOKEN}" in (tmp_path / "seen.jsonl").read_text(), "the author's answer is sent"
    assert "not updated" in out and "holds a value from the environment" in out, out
    assert case_file.read_text() == FILE, "the echoed token is never written into the file"
    coverage = tmp_path / "coverage.json"
    # --coverage: the second form's message echoes the answer, and is listed by message
    assert (
        main(["test", str(case_file), "--json", "--coverage", "--coverage-json", str(coverage)])
        == 1
    )
    as_json, json_err = capsys.readouterr()
    assert "==== coverage" in json_err
    summary = tmp_path / "summary.md"
    os.environ["GITHUB_STEP_SUMMARY"] = str(summary)  # restored by the fixture's monkeypatch
    assert main(["test", str(case_file), "--github"]) == 1
    on_github, github_err = capsys.readouterr()
    assert f"::add-mask::{TOKEN}" in on_github, "GitHub is told to hide it in the job's log"
    on_github = on_github.replace(f"::add-mask::{TOKEN}", "")
    for where, printed in [
        ("the report", out + err),
        ("JUnit", junit.read_text()),
        ("--json", as_json + json_err),
        ("--coverage-json", coverage.read_text()),
        ("the annotations", on_github + github_err),
    ]:
        assert TOKEN not in printed, f"{where} holds the token:\n{printed}"
        assert "n-***" in printed, f"{where} does not say where it went:\n{printed}"
    assert TOKEN not in summary.read_text(), "the job summary (the diff's first line only)"
    (case,) = json.loads(as_json)["cases"]
    # The server's own ``${API_TOKEN}`` is its text, shown as it is; the value is masked.
    assert "Welcome ${API_TOKEN} at-${HOME} n-*** (tag ${API_TOKEN})" in case["observed"]["text"]
    assert TOKEN in log.read_text(), "--log is the wire as it was (its --help says so)"


def test_the_watch_output_masks_it(case_file: Path) -> None:
    out = io.StringIO()

    def run() -> int:
        return run_tests([case_file], os.environ, out=out, err=out)

    def bursts(paths: Sequence[Path]) -> Iterator[tuple[Path, ...]]:
        yield ()  # armed
        yield (case_file,)

    assert watch_tests(run, [case_file], [case_file.parent], out=out, changes=bursts) == 0
    text = out.getvalue()
    assert text.count("did not pass") == 2, text
    assert TOKEN not in text and "n-***" in text, text


def test_check_run_masks_it_in_its_report(
    case_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["check", "--run", str(case_file), "--era", "2025-11-25"])
    out, err = capsys.readouterr()
    assert "tool echo_***" in out, out  # the server's listing carries the token
    assert TOKEN not in out + err, out + err
    main(["check", "--run", str(case_file), "--era", "2025-11-25", "--json"])
    out, err = capsys.readouterr()
    assert TOKEN not in out + err and "echo_***" in out
    assert f"n-{TOKEN}" in (case_file.parent / "seen.jsonl").read_text(), "answers are expanded"
    # On GitHub Actions: the value is masked in the job's log before anything is printed, as
    # ``mcp-tui test --github`` does, and never in an annotation.
    main(["check", "--run", str(case_file), "--era", "2025-11-25", "--github"])
    out, err = capsys.readouterr()
    before, _, _ = out.partition("::stop-commands::")
    assert f"::add-mask::{TOKEN}\n" in before, out
    out = out.replace(f"::add-mask::{TOKEN}", "")
    assert TOKEN not in out + err and "::warning title=mcp-tui check T201::" in out, out
    assert "tool echo_***" in out


def test_check_masks_what_a_config_server_was_given_from_the_environment(
    case_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not only ``--run``: a config server's ``${API_TOKEN}`` echoed in its listing is masked
    in the report and the annotations, and handed to the runner to mask."""
    config = tmp_path / "mcp-tui.toml"
    config.write_text(
        f"[servers.dollar]\ncommand = {json.dumps(sys.executable)}\n"
        f"args = [{json.dumps(str(SERVER))}]\n"
        'env = { DOLLAR_ECHO = "${API_TOKEN}" }\n',
        encoding="utf-8",
    )
    main(["check", "--config", str(config), "--era", "2025-11-25", "--github"])
    out, err = capsys.readouterr()
    before, _, after = out.partition("::stop-commands::")
    assert f"::add-mask::{TOKEN}\n" in before, out
    assert TOKEN not in after + err and "tool echo_***" in after, out


pytest_plugins = ["pytester"]


def test_the_pytest_plugin_masks_it(case_file: Path, pytester: pytest.Pytester) -> None:
    (pytester.path / "echo.mcptest.toml").write_text(case_file.read_text())
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "mcp-tui")
    result.assert_outcomes(failed=1)
    out = result.stdout.str() + result.stderr.str()
    assert TOKEN not in out, out
    assert "n-***" in out, out

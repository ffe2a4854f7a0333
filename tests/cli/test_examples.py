"""The examples in ``examples/`` pass on both eras through ``mcp-tui test``, and every kind of
expectation is seen failing against the demo with what was expected and what came."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcp_tui.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
EVERY_KIND_FAILS = Path(__file__).resolve().parent / "fixtures" / "every_kind_fails.mcptest.toml"


#: ``--coverage`` of the examples, exactly: per tool (and mode), the answers given to its forms
#: over the whole run (both eras), summed over the forms' messages.
ANSWERS = {
    ("book_table", "form"): {"accept": 18, "decline": 2, "cancel": 6},
    ("confirm_action", "form"): {"accept": 2, "decline": 2, "cancel": 2},
    ("connect_account", "url"): {"accept": 2, "decline": 2, "cancel": 0},
    ("delete_project", "form"): {"accept": 4, "decline": 2, "cancel": 0},
    ("list_files", "url"): {"accept": 1, "decline": 0, "cancel": 0},
    ("open_project", "form"): {"accept": 2, "decline": 0, "cancel": 0},
    ("quick_survey", "form"): {"accept": 4, "decline": 0, "cancel": 0},
    ("set_preferences", "form"): {"accept": 4, "decline": 0, "cancel": 0},
}


@pytest.mark.timeout(300)
def test_the_examples_pass_on_both_eras_with_their_coverage(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    report = tmp_path / "coverage.json"
    argv = ["test", str(ROOT / "examples"), "-j", "2", "--coverage", "--coverage-json", str(report)]
    code = main(argv)
    out = capsys.readouterr().out
    assert code == 0, out
    assert "[2025-11-25]" in out and "[2026-07-28]" in out
    assert "\nFAIL " not in out and "\nERROR" not in out
    assert "2 xfailed" in out  # the expected failure, on each era
    # The coverage comes after the summary, and says what the examples leave untested.
    assert out.index(" xfailed in ") < out.index("==== coverage")
    assert "  tools      12/12 (100%)\n" in out
    assert "  prompts    1/2 (50%)  untouched: release_notes\n" in out
    assert "  resources  1/3 (33%)  untouched: demo://projects, demo://readme\n" in out
    assert "  templates  0/1 (0%)  untouched: demo://projects/{name}\n" in out
    assert "  structured 1/1 (100%) of tools with outputSchema\n" in out
    assert out.rstrip().endswith("tools covered: 100.0%")
    doc = json.loads(report.read_text(encoding="utf-8"))
    (demo,) = doc["servers"]
    assert (demo["server"], doc["tools_percent"]) == ("mcp-tui-demo", 100.0)
    assert demo["tools"]["untouched"] == [] and len(demo["tools"]["offered"]) == 12
    assert demo["prompts"]["touched"] == ["triage_issue"]
    assert demo["resources"]["touched"] == ["demo://menu.json"]
    assert demo["structured"] == {"checked": ["search_issues"], "unchecked": []}
    answers: dict[tuple[str, str], dict[str, int]] = {}
    for form in demo["elicitations"]:
        tally = answers.setdefault(
            (form["target"], form["mode"]), dict.fromkeys(form["actions"], 0)
        )
        for action, n in form["actions"].items():
            tally[action] += n
    assert answers == ANSWERS
    assert len(demo["elicitations"]) == 16  # distinct messages (the wizard's depend on answers)


@pytest.mark.timeout(120)
def test_fail_under_fails_a_run_whose_cases_all_pass(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    forms = ROOT / "examples" / "demo" / "forms.mcptest.toml"
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    argv = ["test", str(forms), "--era", "2025-11-25", "-q", "--fail-under", "40"]
    assert main([*argv, "--coverage", "--github"]) == 0
    capsys.readouterr()
    # on GitHub Actions the job summary ends with the coverage
    assert "#### Coverage: 41.7% of the tools called" in summary.read_text(encoding="utf-8")
    assert main(["test", str(forms), "--era", "2025-11-25", "-q", "--fail-under", "50"]) == 1
    captured = capsys.readouterr()
    assert "tools covered 41.7% (5 of 12) is under --fail-under 50" in captured.err
    assert "==== coverage" not in captured.out  # --fail-under alone prints no report


#: For each case of the fixture (each kind of expectation): lines its report must hold.
SHOWN = {
    "outcome": ["the call ended ok, not tool_error", "expected: tool_error"],
    "error code": ["another JSON-RPC error code", "expected: -32601", "got: -32602"],
    "error regex": ["the error does not match the regex", "got: -32602 (invalid params)"],
    "text": ["expected: Confirmed: restart the coffee machine.", "got: Confirmed: restart the"],
    "text contains": ['does not contain "coffee"'],
    "text regex": ["does not match the regex", "expected: ^Declined"],
    "structured": ["--- expected", "+++ got", '-  "total": 2', '+  "total": 1'],
    "pointers": ["differs at /issues/0/title", "nothing at /issues/9", "got: (nothing there)"],
    "elicitation count": ["another number of elicitation requests", "#1 form"],
    "elicitation message": ["elicitation request #1: the message does not match"],
    "elicitation schema": ["the requestedSchema differs", '-      "default": true,'],
    "sampling": ["sampling request #1: another maxTokens", "expected: 50", "got: 120"],
    "sent": ["mcp-tui did not send notifications/cancelled", "got: sent: tools/call"],
    "not sent": ["mcp-tui sent notifications/cancelled", "1 x notifications/cancelled"],
    "within": ["over its budget of 0.1 s"],
}


@pytest.mark.timeout(300)
def test_every_kind_of_expectation_fails_with_its_diff(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["test", str(EVERY_KIND_FAILS), "-q"]) == 1
    out = capsys.readouterr().out
    reports = out.split("\nFAIL  ")[1:]
    by_case = {}
    for report in reports:
        heading = report.splitlines()[0]
        name = heading.split(" ", 1)[1].rsplit(" [", 1)[0]
        by_case[name] = report
    assert set(by_case) == set(SHOWN), sorted(by_case)
    for name, parts in SHOWN.items():
        for part in parts:
            assert part in by_case[name], (name, part, by_case[name])
        assert "(line " in by_case[name] and "Traceback" not in by_case[name]
    assert f"{len(SHOWN)} failed in" in out

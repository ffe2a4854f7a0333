"""Each check's documentation, where it is declared: its why and a bad and a good example, which
run here (the bad one is reported, the good one is not), ``mcp-tui check --explain ID``, and the
docs pages written from the registry."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_tui.check import RULES, run_checks
from mcp_tui.check.change_rules import CHANGE_RULES
from mcp_tui.check.findings import example_listings
from mcp_tui.check.rule_docs import explain, index_page, write_rule_docs
from mcp_tui.cli.main import main


def reported(rule_id: str, example: object) -> list[object]:
    listings = example_listings(example)  # type: ignore[arg-type]
    return [f for f in run_checks(listings).findings if f.rule == rule_id]


@pytest.mark.parametrize("rule_id", sorted(RULES))
def test_every_check_says_why_and_its_examples_do_what_they_say(rule_id: str) -> None:
    rule = RULES[rule_id]
    assert len(rule.why) > 40, f"{rule_id} says too little about why it matters"
    assert rule.bad is not None and rule.good is not None, f"{rule_id} has no examples"
    assert reported(rule_id, rule.bad), f"{rule_id} is not reported for its bad example"
    assert not reported(rule_id, rule.good), f"{rule_id} is reported for its good example"


def test_explain_prints_a_check_and_a_baseline_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--explain", "e104"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("E104 (error): a default that does not fit its own field\n")
    assert RULES["E104"].why in out and '"default": 0' in out and '"default": 1' in out
    assert "_mcp_tui_call" not in out  # mcp-tui's own mark, not what the server sent
    text = explain("B101")
    assert text is not None and CHANGE_RULES["B101"].instead in text


def test_explain_of_an_unknown_id_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--explain", "Z999"]) == 2
    err = capsys.readouterr().err
    assert "--explain Z999: no such rule" in err and "T101" in err


def test_the_docs_pages_are_written_from_the_registry(tmp_path: Path) -> None:
    written = write_rule_docs(tmp_path / "rules")
    names = {p.name for p in written}
    assert names == {"index.md", *(f"{i}.md" for i in RULES), *(f"{i}.md" for i in CHANGE_RULES)}
    page = (tmp_path / "rules" / "T101.md").read_text(encoding="utf-8")
    assert page.startswith(f"# T101: {RULES['T101'].title}\n")
    assert RULES["T101"].why in page and '"search things"' in page and '"search_things"' in page
    index = index_page()
    assert all(f"[`{i}`]({i}.md)" in index for i in [*RULES, *CHANGE_RULES])
    again = write_rule_docs(tmp_path / "again")
    assert [p.read_bytes() for p in written] == [p.read_bytes() for p in again]

"""A call made by hand as a test case (``testbench/record.py``), and ``${VAR}`` in answers
(``testbench/answer_vars.py``): what is written, what is left out and why, and that the case
is a valid test file that checks what was seen."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_tui.testbench.answer_vars import expand_answer_variables
from mcp_tui.testbench.compare import check
from mcp_tui.testbench.load import TestFileError, load_test_file
from mcp_tui.testbench.model import Expect
from mcp_tui.testbench.observed import Observed, SeenElicitation, SeenSampling
from mcp_tui.testbench.record import (
    NotRecordable,
    RecordedCall,
    case_from_call,
    default_name,
    secret_variable,
    url_start,
)
from mcp_tui.testbench.writer import append_case

SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


def seen(**kw: object) -> Observed:
    values: dict[str, object] = {"outcome": "ok", "text": "Booked"}
    values.update(kw)
    return Observed(**values)  # type: ignore[arg-type]


def test_a_call_with_a_form_a_url_and_sampling_becomes_a_case_that_checks_what_was_seen(
    tmp_path: Path,
) -> None:
    observed = seen(
        structured={"id": 7, "tags": ["a"]},
        has_structured=True,
        elicitations=(
            SeenElicitation("form", "Who?", schema=SCHEMA, action="accept"),
            SeenElicitation(
                "url", "Sign in", url="https://auth.example.com/x?state=1", action="accept"
            ),
        ),
        sampling=(SeenSampling("Summarise", max_tokens=100, action="accept", text="ok"),),
    )
    answers = [
        {"action": "accept", "content": {"name": "Ada"}},
        {"action": "accept", "mode": "url"},
        {"sampling": {"text": "ok", "model": "human", "stopReason": "endTurn"}},
    ]
    call = RecordedCall("tool", "book", {"party": 2}, answers, observed)
    made = case_from_call(call, "book: accept, accept, accept")
    assert made.notes == []
    case = made.case
    assert case["tool"] == "book" and case["arguments"] == {"party": 2}
    assert case["answers"] == answers
    expect = case["expect"]
    assert expect["outcome"] == "ok" and expect["text"] == "Booked"
    assert expect["structured"] == {"id": 7, "tags": ["a"]}
    assert expect["elicitation_count"] == 2 and expect["sampling_count"] == 1
    form, url = expect["elicitations"]
    assert form == {"mode": "form", "message": "Who?", "schema": SCHEMA, "action": "accept"}
    assert url["mode"] == "url" and url["url_regex"] == url_start("https://auth.example.com/x")
    assert expect["sampling"] == [{"message": "Summarise", "max_tokens": 100, "action": "accept"}]

    file = tmp_path / "t.mcptest.toml"
    append_case(file, case, server="demo")
    loaded = load_test_file(file)
    (written,) = loaded.model.case
    assert check(written.expect, observed) == [], "the case passes against what it saw"
    changed = seen(
        text="Booked twice",
        structured={"id": 7, "tags": ["a"]},
        has_structured=True,
        elicitations=observed.elicitations,
        sampling=observed.sampling,
    )
    assert check(written.expect, changed), "and fails when the answer changes"


def test_an_error_a_cancelled_call_and_nulls() -> None:
    error = RecordedCall("tool", "t", {}, [], seen(outcome="error", error_code=-32042))
    expect = case_from_call(error, "t").case["expect"]
    assert expect == {
        "outcome": "error",
        "error_code": -32042,
        "elicitation_count": 0,
        "sampling_count": 0,
    }
    assert Expect.model_validate(expect).expected_outcome == "error"

    cancelled = RecordedCall("tool", "t", {}, [], seen(), unfinished="you cancelled it")
    with pytest.raises(NotRecordable, match=r"did not finish by itself \(you cancelled it\)"):
        case_from_call(cancelled, "t")

    nulls = RecordedCall("tool", "t", {"x": None}, [], seen())
    with pytest.raises(NotRecordable, match=r"TOML cannot write.*\.mcptest\.json"):
        case_from_call(nulls, "t")
    assert case_from_call(nulls, "t", toml=False).case["arguments"] == {"x": None}

    structured_null = seen(structured={"x": None}, has_structured=True)
    made = case_from_call(RecordedCall("tool", "t", {}, [], structured_null), "t")
    assert "structured" not in made.case["expect"]
    assert any("structuredContent holds null" in note for note in made.notes)


def test_names_variables_and_url_patterns() -> None:
    assert default_name("tool", "book", ["accept", "decline"]) == "book: accept, decline"
    assert default_name("prompt", "greet", []) == "prompt greet"
    assert default_name("resource", "file:///a", []) == "read file:///a"
    assert secret_variable("api_key") == "API_KEY"
    assert secret_variable("apiKey") == "API_KEY"
    assert secret_variable("Authorization") == "AUTHORIZATION"
    assert secret_variable("2fa-code") == "_2FA_CODE"
    pattern = url_start("https://auth.example.com:8443/sign?state=abc")
    import re

    assert re.search(pattern, "https://auth.example.com:8443/sign?state=other")
    assert not re.search(pattern, "https://auth.example.com.evil.test/sign")
    local = url_start("http://127.0.0.1:39779/connect/abc")
    assert local == r"^http://127\.0\.0\.1(:[0-9]+)?(/|$|\?|#)"
    assert re.search(local, "http://127.0.0.1:48391/connect/other"), "a fresh port each run"
    assert re.search(url_start("http://[::1]:8080/x"), "http://[::1]:9090/y")
    assert re.search(url_start("https://example.com"), "https://example.com")


CASE_WITH_SECRET = """\
server = "demo"

[[case]]
name = "signup"
tool = "signup"
answers = [{ action = "accept", content = { name = "Ada", api_key = "${API_KEY}" } }]
"""


def test_a_secret_placeholder_in_an_answer_is_filled_in_from_the_environment(
    tmp_path: Path,
) -> None:
    file = tmp_path / "s.mcptest.toml"
    file.write_text(CASE_WITH_SECRET)
    loaded = load_test_file(file)
    filled = expand_answer_variables(loaded, {"API_KEY": "s3cret"})
    assert filled.model.case[0].answers[0].content == {"name": "Ada", "api_key": "s3cret"}
    assert loaded.model.case[0].answers[0].content == {"name": "Ada", "api_key": "${API_KEY}"}
    with pytest.raises(TestFileError) as raised:
        expand_answer_variables(loaded, {})
    message = str(raised.value)
    assert "line 6" in message and "api_key" in message and "API_KEY is not set" in message
    plain = tmp_path / "p.mcptest.toml"
    plain.write_text(CASE_WITH_SECRET.replace("${API_KEY}", "k"))
    unchanged = load_test_file(plain)
    assert expand_answer_variables(unchanged, {}) is unchanged


def test_the_case_runs_on_the_era_the_call_was_made_on() -> None:
    """A call made on 2025-11-25 (a ``ctx.elicit()`` tool that cannot work on 2026-07-28) is
    saved with that era, so a CI run of both eras skips it on the other."""
    from mcp_tui.testbench.record import case_era

    call = RecordedCall("tool", "book", {}, [], seen(), era="2025-11-25")
    assert case_from_call(call, "book").case["eras"] == ["2025-11-25"]
    assert "eras" not in case_from_call(RecordedCall("tool", "book", {}, [], seen()), "b").case
    assert case_era("2026-07-28") == "2026-07-28"
    assert case_era("2025-11-25") == case_era("2025-06-18") == "2025-11-25"
    assert case_era(None) is None


def test_only_strings_of_an_answer_are_expanded(tmp_path: Path) -> None:
    """Found by mutation (issue 36): numbers, booleans and lists of an answer's content beside
    a ``${VAR}`` are kept as they are."""
    file = tmp_path / "n.mcptest.toml"
    file.write_text(
        'server = "demo"\n[[case]]\nname = "c"\ntool = "t"\n'
        'answers = [{ action = "accept", content = { n = 3, ok = true, tags = ["a", "${TAG}"], '
        'name = "${NAME}" } }]\n',
        encoding="utf-8",
    )
    filled = expand_answer_variables(load_test_file(file), {"NAME": "Ada", "TAG": "b"})
    content = filled.model.case[0].answers[0].content
    assert content == {"n": 3, "ok": True, "tags": ["a", "b"], "name": "Ada"}


def test_the_text_of_a_result_and_whether_it_is_ok() -> None:
    """What a case's ``text`` is compared with (``text_of``, the runner's and "Save as a
    test"'s one function), and ``Observed.ok`` of the Python API."""
    from dataclasses import dataclass

    from mcp_tui.testbench.observed import text_of

    @dataclass
    class Block:
        kind: str
        text: str | None = None
        mime_type: str | None = None
        uri: str | None = None
        size: int | None = None

    @dataclass
    class Result:
        items: list[Block]

    result = Result(
        [
            Block("text", "Booked"),
            Block("image", mime_type="image/png", size=120),
            Block("resource", uri="demo://x"),
            Block("text", ""),
        ]
    )
    assert text_of(result) == "Booked\n[image image/png, 120 bytes]\n[resource demo://x]\n"
    assert Observed(outcome="ok").ok and not Observed(outcome="tool_error").ok

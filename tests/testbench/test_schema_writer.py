"""The shipped JSON Schema is the models', and the writer keeps a file valid and as it was."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import jsonschema
import pytest

from mcp_tui.testbench.load import TestFileError, load_test_file
from mcp_tui.testbench.schema import SCHEMA_PATH, schema_text
from mcp_tui.testbench.writer import append_case, set_values

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_schema_is_generated_from_the_models() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text(), (
        "run `python -m mcp_tui.testbench.schema` after changing the models"
    )


def _examples() -> list[Path]:
    return sorted(ROOT.glob("examples/**/*.mcptest.toml")) + sorted(
        ROOT.glob("tests/interop/**/*.mcptest.toml")
    )


@pytest.mark.parametrize("path", _examples(), ids=lambda p: p.name)
def test_the_examples_validate_against_the_schema(path: Path) -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)
    load_test_file(path)


def test_the_schema_refuses_what_the_loader_refuses() -> None:
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text("utf-8")))
    good = {"server": "demo", "case": [{"name": "a", "tool": "t", "expect": {"text": "x"}}]}
    assert validator.is_valid(good)
    assert not validator.is_valid({**good, "cases": []})
    assert not validator.is_valid({"server": "demo", "case": [{"name": "a", "tool": 3}]})
    assert not validator.is_valid(
        {"server": "demo", "case": [{"name": "a", "tool": "t", "expect": {"outcome": "fine"}}]}
    )


def test_append_creates_then_extends_a_file(tmp_path: Path) -> None:
    path = tmp_path / "new.mcptest.toml"
    case = {
        "name": "book",
        "tool": "book_table",
        "arguments": {},
        "answers": [
            {"action": "accept", "content": {"date": "2026-12-24", "party_size": 4}},
            {"action": "decline", "mode": "form", "message": "Step 2: which time?"},
        ],
        "expect": {
            "outcome": "ok",
            "text": "Booked\nfor 4",
            "elicitations": [
                {"schema": {"type": "object", "properties": {"a": {"type": "string"}}}}
            ],
        },
    }
    append_case(path, case, server="demo", eras=["2025-11-25", "2026-07-28"])
    append_case(path, {"name": "book", "tool": "delete_project", "expect": {"outcome": "ok"}})
    loaded = load_test_file(path)
    assert [c.name for c in loaded.model.case] == ["book", "book (2)"]
    first = loaded.model.case[0]
    assert first.expect.text == "Booked\nfor 4"
    assert first.answers[0].content == {"date": "2026-12-24", "party_size": 4}
    assert first.expect.elicitations is not None
    assert first.expect.elicitations[0].schema_ == case["expect"]["elicitations"][0]["schema"]  # type: ignore[index]
    assert loaded.model.eras == ["2025-11-25", "2026-07-28"]
    text = path.read_text(encoding="utf-8")
    assert '\n\n[[case]]\nname = "book (2)"' in text


def test_append_needs_a_server_for_a_new_file_and_never_writes_an_invalid_one(
    tmp_path: Path,
) -> None:
    path = tmp_path / "new.mcptest.toml"
    with pytest.raises(TestFileError, match="name its server"):
        append_case(path, {"name": "a", "tool": "t"})
    with pytest.raises(TestFileError, match="exactly one of `tool`"):
        append_case(path, {"name": "a"}, server="demo")
    assert not path.exists()


def test_set_values_keeps_comments_and_layout(tmp_path: Path) -> None:
    path = tmp_path / "t.mcptest.toml"
    original = """\
# top comment
server = "demo"  # trailing comment

[[case]]
name = "a"
tool = "t"
expect = { text = "old", text_contains = "o" }   # inline expect

[[case]]
name = "b"
tool = "t"

[case.expect]
# a snapshot
structured = { n = 1 }
"""
    path.write_text(original, encoding="utf-8")
    set_values(
        path,
        [
            (("case", 0, "expect", "text"), "new\ntext"),
            (("case", 1, "expect", "structured"), {"n": 2, "items": ["x", "y"]}),
        ],
    )
    text = path.read_text(encoding="utf-8")
    assert text.startswith('# top comment\nserver = "demo"  # trailing comment\n')
    assert "# inline expect" in text and "# a snapshot" in text
    loaded = load_test_file(path)
    assert loaded.model.case[0].expect.text == "new\ntext"
    assert loaded.model.case[1].expect.structured == {"n": 2, "items": ["x", "y"]}
    assert (
        text.replace('"""new\ntext"""', '"old"').replace(
            'structured = {n = 2, items = ["x", "y"]}', "structured = { n = 1 }"
        )
        == original
    )


def test_set_values_in_a_json_file(tmp_path: Path) -> None:
    path = tmp_path / "t.mcptest.json"
    path.write_text('{"server": "demo", "case": [{"name": "a", "tool": "t"}]}', encoding="utf-8")
    set_values(path, [(("case", 0, "expect"), {"text": "x"})])
    assert load_test_file(path).model.case[0].expect.text == "x"


def test_the_schema_holds_setup_and_teardown_steps() -> None:
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text("utf-8")))
    step = {"tool": "create_item", "arguments": {"name": "a"}, "answers": [{"action": "accept"}]}
    case = {"name": "a", "tool": "delete_item", "setup": [step], "teardown": [{"tool": "reset"}]}
    good = {"server": "demo", "setup": [step], "teardown": [{"prompt": "p"}], "case": [case]}
    assert validator.is_valid(good)
    assert validator.is_valid({**good, "setup": [{**step, "expect": {"text": "Created a"}}]})
    assert validator.is_valid({**good, "teardown": [{"tool": "t", "may_fail": True}]})
    assert not validator.is_valid({**good, "setup": [{**step, "name": "x"}]})
    assert not validator.is_valid({**good, "case": [{**case, "setup": [{**step, "skip": "x"}]}]})
    assert not validator.is_valid({**good, "teardown": [{"tool": "t", "may_fail": "yes"}]})

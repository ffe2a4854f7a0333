"""Test files that cannot run get one sentence naming the file, the line and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_tui.testbench.load import (
    TestFileError,
    expand_server,
    find_test_files,
    load_test_file,
)

GOOD = """\
server = "demo"
eras = ["2025-11-25", "2026-07-28"]

[[case]]
name = "decline keeps the project"
tool = "delete_project"
arguments = { name = "payments-api" }
answers = [{ action = "decline" }]
expect = { text_contains = "Kept" }

[[case]]
name = "search"
tool = "search_issues"
arguments = { query = "bug" }

[case.expect]
pointers = { "/total" = 3 }
"""


def _write(tmp_path: Path, text: str, name: str = "t.mcptest.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _error(tmp_path: Path, text: str, name: str = "t.mcptest.toml") -> str:
    with pytest.raises(TestFileError) as caught:
        load_test_file(_write(tmp_path, text, name))
    return str(caught.value)


def test_a_good_file_loads_with_its_lines(tmp_path: Path) -> None:
    loaded = load_test_file(_write(tmp_path, GOOD))
    model = loaded.model
    assert [c.name for c in model.case] == ["decline keeps the project", "search"]
    assert model.case[0].answers[0].answer == "decline"
    assert model.case[1].expect.pointers == {"/total": 3}
    assert model.case[1].expect.expected_outcome == "ok"
    assert loaded.line_of("case", 1) == 11
    assert loaded.line_of("case", 1, "expect", "pointers") == 17


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an unknown key, with the nearest known one
        (
            GOOD.replace('pointers = { "/total" = 3 }', 'text_regx = "x"'),
            ["line 17", "case[1].expect.text_regx", "unknown key", "did you mean `text_regex`"],
        ),
        # a wrong type
        (
            GOOD.replace('eras = ["2025-11-25", "2026-07-28"]', 'eras = "2025-11-25"'),
            ["line 2", "eras:", "a string"],
        ),
        (
            GOOD.replace(
                'arguments = { query = "bug" }', 'arguments = { query = "bug" }\ntimeout = "5"'
            ),
            ["line 15", "case[1].timeout", "number", "a string"],
        ),
        # a bad regex
        (
            GOOD.replace('pointers = { "/total" = 3 }', 'text_regex = "(unclosed"'),
            ["line 17", "case[1].expect.text_regex", "not a valid regular expression"],
        ),
        # a bad regex in an answer's match (the answers engine's own check)
        (
            GOOD.replace(
                'answers = [{ action = "decline" }]',
                'answers = [{ match = "[", action = "decline" }]',
            ),
            ["line 8", "case[0].answers[0]", "not a valid regular expression"],
        ),
        # no server
        (GOOD.replace('server = "demo"\n', ""), ["t.mcptest.toml", "no `server`"]),
        # a server named twice
        (
            GOOD.replace(
                'server = "demo"',
                '[server]\ncommand = ["python"]\nurl = "http://127.0.0.1:1/mcp"\n[x]',
            ),
            ["line 1", "server", "exactly one of", "command and url"],
        ),
        (
            GOOD.replace('server = "demo"', 'server = "everything"'),
            ["line 1", "server", '"demo" or a table'],
        ),
        # a case with no call, a case with two
        (
            GOOD.replace('tool = "delete_project"\n', ""),
            ["line 4", "case[0]", "exactly one of `tool`"],
        ),
        (
            GOOD.replace('tool = "delete_project"', 'tool = "a"\nprompt = "b"'),
            ["case[0]", "tool and prompt"],
        ),
        # names are unique
        (
            GOOD.replace('name = "search"', 'name = "decline keeps the project"'),
            ["two cases are named"],
        ),
        # an unknown era, outcome
        (GOOD.replace('"2026-07-28"]', '"2026-01-01"]'), ["line 2", "eras[1]"]),
        (
            GOOD.replace('expect = { text_contains = "Kept" }', 'expect = { outcome = "fine" }'),
            ["line 9", "case[0].expect.outcome", "'ok'"],
        ),
        # a pointer that is not one
        (GOOD.replace('"/total"', '"total"'), ["line 17", "not a JSON Pointer"]),
        # a file's key written after [server] lands in the server table: say so
        (
            GOOD.replace(
                'server = "demo"\neras = ["2025-11-25", "2026-07-28"]',
                '[server]\ndemo = true\neras = ["auto"]',
            ),
            ["line 3", "server.eras: unknown key", "write it before the first one"],
        ),
        # TOML syntax
        (GOOD.replace("[case.expect]", "[case.expect"), ["not valid TOML", "line 16"]),
    ],
)
def test_a_bad_file_is_named_with_line_and_key(
    tmp_path: Path, text: str, expected: list[str]
) -> None:
    message = _error(tmp_path, text)
    assert message.startswith(f"Test file {tmp_path / 't.mcptest.toml'}"), message
    for part in expected:
        assert part in message, (part, message)
    assert "\n" not in message and "pydantic" not in message and "errors.pydantic" not in message


def test_an_item_of_a_multi_line_array_has_its_own_line(tmp_path: Path) -> None:
    text = GOOD.replace(
        'answers = [{ action = "decline" }]',
        'answers = [\n    { action = "decline" },\n    # a comment\n\n    { action = "acept" },\n]',
    )
    message = _error(tmp_path, text)
    assert "line 12: case[0].answers[1].action" in message, message


def test_json_files_have_the_same_keys_and_lines(tmp_path: Path) -> None:
    text = (
        '{\n  "server": "demo",\n  "case": [\n    {"name": "a", "tool": "x",\n'
        '     "expect": {"txt": 1}}\n  ]\n}\n'
    )
    message = _error(tmp_path, text, "t.mcptest.json")
    assert "line 5" in message and "case[0].expect.txt" in message and "unknown key" in message


def test_variables_fill_env_and_headers_from_the_environment(tmp_path: Path) -> None:
    loaded = load_test_file(
        _write(
            tmp_path,
            '[server]\nurl = "http://127.0.0.1:9/mcp"\n'
            'headers = { Authorization = "Bearer ${TOKEN}" }\n\n[[case]]\nname = "a"\ntool = "t"\n',
        )
    )
    decl = expand_server(loaded, {"TOKEN": "s3cret"})
    assert decl.headers == {"Authorization": "Bearer s3cret"}
    assert loaded.model.server_decl.headers == {"Authorization": "Bearer ${TOKEN}"}
    with pytest.raises(
        TestFileError, match=r"line 3: server\.headers\.Authorization: .*TOKEN is not set"
    ):
        expand_server(loaded, {})


def test_folders_are_searched_for_test_files(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / ".hidden").mkdir()
    one = _write(tmp_path / "a", GOOD, "one.mcptest.toml")
    two = _write(tmp_path, "{}", "two.mcptest.json")
    _write(tmp_path / ".hidden", GOOD, "no.mcptest.toml")
    _write(tmp_path, GOOD, "answers.toml")
    assert find_test_files([tmp_path]) == [one, two]
    with pytest.raises(TestFileError, match="does not exist"):
        find_test_files([tmp_path / "missing"])


STEPS = """\
server = "demo"

[[setup]]
tool = "reset"

[[case]]
name = "delete"
tool = "delete_item"
arguments = { name = "a" }
setup = [
  { tool = "create_item", arguments = { name = "a" } },
  { resource = "items://count", expect = { text = "1" } },
]

[[case.teardown]]
tool = "delete_item"
arguments = { name = "a" }
may_fail = true

[[teardown]]
prompt = "goodbye"
"""


def test_setup_and_teardown_steps_load_with_their_lines(tmp_path: Path) -> None:
    loaded = load_test_file(_write(tmp_path, STEPS))
    model = loaded.model
    [case] = model.case
    assert [s.target for s in model.setup] == ["reset"]
    assert [s.kind for s in model.teardown] == ["prompt"]
    assert [s.target for s in case.setup] == ["create_item", "items://count"]
    assert case.setup[0].expect is None and case.setup[1].expect is not None
    assert case.teardown[0].may_fail
    assert loaded.line_of("setup", 0) == 3
    assert loaded.line_of("case", 0, "setup", 1) == 12
    assert loaded.line_of("case", 0, "teardown", 0) == 15
    assert loaded.line_of("teardown", 0) == 20


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a step with no call, named by its line
        (
            STEPS.replace('tool = "reset"\n', ""),
            ["line 3", "setup[0]", "a setup or teardown step makes one call"],
        ),
        # an unknown key in an inline step, with the nearest known one
        (
            STEPS.replace('{ tool = "create_item",', '{ tol = "create_item",'),
            ["line 11", "case[0].setup[0].tol", "unknown key", "did you mean `tool`"],
        ),
        # its expect is a case's: the same keys, the same messages
        (
            STEPS.replace('expect = { text = "1" }', 'expect = { txt = "1" }'),
            ["line 12", "case[0].setup[1].expect.txt", "did you mean `text`"],
        ),
        # a wrong type in a [[case.teardown]] table
        (
            STEPS.replace("may_fail = true", 'may_fail = "yes"'),
            ["line 18", "case[0].teardown[0].may_fail", "a string"],
        ),
        # may_fail and expect say two things
        (
            STEPS.replace("may_fail = true", 'may_fail = true\nexpect = { text = "x" }'),
            ["line 15", "case[0].teardown[0]", "`may_fail` goes without `expect`"],
        ),
        # a file's [[teardown]] with a key a case has, not a step
        (
            STEPS.replace('prompt = "goodbye"', 'prompt = "goodbye"\nname = "bye"'),
            ["line 22", "teardown[0].name", "unknown key"],
        ),
    ],
)
def test_a_bad_step_is_named_with_line_and_key(
    tmp_path: Path, text: str, expected: list[str]
) -> None:
    message = _error(tmp_path, text)
    for part in expected:
        assert part in message, (part, message)
    assert "\n" not in message and "pydantic" not in message


def test_a_file_key_after_a_case_s_table_is_said_to_belong_to_the_file(tmp_path: Path) -> None:
    """Found by mutation (issue 36): the hint was only seen after [server], whose own name is a
    key of the file too."""
    message = _error(tmp_path, GOOD + 'description = "what the file tests"\n')
    assert "case[1].expect.description: unknown key" in message
    assert "`description` is a key of the file" in message


def test_only_a_wrong_type_says_what_was_given(tmp_path: Path) -> None:
    bad_regex = _error(
        tmp_path, GOOD.replace('pointers = { "/total" = 3 }', 'text_regex = "(unclosed"')
    )
    assert bad_regex.endswith("at position 0."), bad_regex
    wrong_type = _error(tmp_path, GOOD.replace('"/total" = 3', '"/total" = 3 }\ntext = 3 #'))
    assert wrong_type.endswith("should be a valid string, not an integer."), wrong_type


@pytest.mark.parametrize(
    ("server", "why"),
    [
        ('url = "http://127.0.0.1:1/mcp"\nenv = { A = "1" }', "`env` and `cwd` are for a stdio"),
        ('url = "http://127.0.0.1:1/mcp"\ncwd = "srv"', "`env` and `cwd` are for a stdio"),
        ('command = ["python"]\nheaders = { A = "1" }', "`headers` are for an HTTP server"),
        ('command = ["python"]\nconfig = "mcp.json"', "`config` goes with `name`"),
    ],
)
def test_a_server_table_s_keys_go_with_its_way(tmp_path: Path, server: str, why: str) -> None:
    """Found by mutation (issue 36): each key that belongs to one way of naming a server."""
    message = _error(tmp_path, GOOD.replace('server = "demo"', f"[server]\n{server}\n[x]"))
    assert why in message, message


@pytest.mark.parametrize(
    "server",
    [
        'command = ["python", "srv.py"]\nenv = { A = "1" }\ncwd = "srv"',
        'url = "http://127.0.0.1:1/mcp"\nheaders = { A = "1" }',
        'name = "booking"\nconfig = "mcp.json"',
    ],
)
def test_a_server_table_with_its_own_keys_loads(tmp_path: Path, server: str) -> None:
    text = GOOD.replace(
        'server = "demo"\neras = ["2025-11-25", "2026-07-28"]', f"[server]\n{server}"
    )
    assert load_test_file(_write(tmp_path, text)).model.server_decl is not None


def test_a_server_is_described_by_its_way() -> None:
    from mcp_tui.testbench.model import ServerDecl

    assert ServerDecl(demo=True).describe() == "the bundled demo"
    assert ServerDecl(command=["python", "srv.py"]).describe() == "python srv.py"
    assert ServerDecl(url="http://h/mcp").describe() == "http://h/mcp"
    assert ServerDecl(name="booking").describe() == "config server booking"


def test_the_named_eras_and_outcomes_are_the_model_s() -> None:
    from typing import get_args

    from mcp_tui.testbench.model import ERAS, OUTCOMES, Era, Outcome

    assert get_args(Era) == ERAS
    assert get_args(Outcome) == OUTCOMES


def test_a_case_s_call_kind_eras_and_timeout() -> None:
    """Found by mutation (issue 36): what a case calls, and where its eras and timeout come
    from (its own, else the file's)."""
    from mcp_tui.testbench.model import Case, TestFile

    file = TestFile.model_validate(
        {
            "server": "demo",
            "eras": ["2025-11-25"],
            "timeout": 7.0,
            "case": [
                {"name": "t", "tool": "a"},
                {"name": "p", "prompt": "b", "eras": ["2026-07-28"], "timeout": 2.0},
                {"name": "r", "resource": "demo://c"},
            ],
        }
    )
    tool, prompt, resource = file.case
    assert [(c.kind, c.target) for c in file.case] == [
        ("tool", "a"),
        ("prompt", "b"),
        ("resource", "demo://c"),
    ]
    assert file.eras_of(tool) == ["2025-11-25"] and file.eras_of(prompt) == ["2026-07-28"]
    assert file.timeout_of(tool) == 7.0 and file.timeout_of(prompt) == 2.0
    assert file.server_decl.demo and file.server_decl.describe() == "the bundled demo"
    assert resource.kind == "resource"
    with pytest.raises(ValueError, match="`task` goes with `tool`"):
        Case.model_validate({"name": "p", "prompt": "b", "task": True})
    assert Case.model_validate({"name": "t", "tool": "a", "task": True}).task

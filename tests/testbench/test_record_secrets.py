"""A recorded file replays what was sent and holds no secret (``testbench/record.py``,
``testbench/writer.py``, the server table of ``ui/record_case.py``).

- A server's ``${API_TOKEN}`` accepted as shown is written ``$${API_TOKEN}``: the replay, with
  ``API_TOKEN`` set, sends the literal, not the CI's secret. Expectations are never expanded.
- A value typed into a secret field is a ``${VAR}`` reference; a snapshot the server echoed it
  into is left out. Every ``env`` and header value of the server is a ``${VAR}`` reference.
- A file keeps its mode when a case is appended or a snapshot updated; a new one gets the umask's.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from mcp_tui.config.servers import HttpTarget, ServerSpec, StdioTarget
from mcp_tui.testbench.answer_vars import expand_answer_variables
from mcp_tui.testbench.load import load_test_file
from mcp_tui.testbench.observed import Observed, SeenElicitation
from mcp_tui.testbench.record import RecordedCall, case_from_call
from mcp_tui.testbench.writer import append_case, set_values
from mcp_tui.ui.record_case import server_table

TOKEN = "tok-9f2c81"
ENVIRON = {"API_TOKEN": TOKEN, "HOME": "/home/ci", "API_KEY": "the-ci-key"}
SCHEMA = {
    "type": "object",
    "title": "${API_TOKEN}",
    "properties": {"label": {"type": "string", "default": "${API_TOKEN}"}},
}


def _save(tmp_path: Path, call: RecordedCall) -> Path:
    path = tmp_path / "rec.mcptest.toml"
    made = case_from_call(call, "sign up")
    append_case(path, made.case, server="demo")
    return path


def test_a_servers_dollar_brace_accepted_as_shown_replays_as_the_literal(tmp_path: Path) -> None:
    sent = {"label": "${API_TOKEN}", "home": "at-${HOME}", "tags": ["${HOME}", "x"], "n": 2}
    seen = Observed(
        "ok",
        text="Welcome ${API_TOKEN}",
        elicitations=(SeenElicitation("form", "as ${API_TOKEN}?", schema=SCHEMA, action="accept"),),
    )
    answers = [{"action": "accept", "content": sent}]
    call = RecordedCall("tool", "sign_up_${API_TOKEN}", {"tag": "${API_TOKEN}"}, answers, seen)
    path = _save(tmp_path, call)
    text = path.read_text()
    assert 'label = "$${API_TOKEN}"' in text and 'home = "at-$${HOME}"' in text
    filled = expand_answer_variables(load_test_file(path), ENVIRON)
    (case,) = filled.model.case
    assert case.answers[0].content == sent, "what the server is sent is what was sent"
    # The rest is never expanded: the call, its arguments and every expectation are literal.
    assert case.tool == "sign_up_${API_TOKEN}" and case.arguments == {"tag": "${API_TOKEN}"}
    assert case.expect.text == "Welcome ${API_TOKEN}"
    (asked,) = case.expect.elicitations or []
    assert asked.message == "as ${API_TOKEN}?" and asked.schema_ == SCHEMA
    assert TOKEN not in repr(filled.model)


def test_a_typed_secret_is_a_reference_and_a_snapshot_echoing_it_is_left_out(
    tmp_path: Path,
) -> None:
    typed = "sk-typed-0042"
    seen = Observed(
        "ok",
        text=f"key {typed} ok",
        structured={"ok": True},
        has_structured=True,
        elicitations=(
            SeenElicitation("form", "Your key?", schema={}, action="accept"),
            SeenElicitation("form", f"You sent {typed}, sure?", schema={}, action="accept"),
        ),
    )
    answers = [
        {"action": "accept", "content": {"api_key": typed, "name": "${HOME}"}},
        {"action": "accept", "content": {}},
    ]
    call = RecordedCall(
        "tool", "login", {}, answers, seen, secret_fields={0: {"api_key": "API_KEY"}}
    )
    made = case_from_call(call, "login")
    assert made.case["answers"][0]["content"] == {"api_key": "${API_KEY}", "name": "$${HOME}"}
    expect = made.case["expect"]
    assert "text" not in expect and expect["structured"] == {"ok": True}
    assert "message" not in expect["elicitations"][1]
    assert expect["elicitations"][0]["message"] == "Your key?"
    assert any("reads it from ${API_KEY}" in n for n in made.notes)
    assert any("the result's text holds what you typed" in n for n in made.notes)
    path = tmp_path / "login.mcptest.toml"
    append_case(path, made.case, server="demo")
    assert typed not in path.read_text()
    content = expand_answer_variables(load_test_file(path), ENVIRON).model.case[0].answers[0]
    assert content.content == {"api_key": "the-ci-key", "name": "${HOME}"}


def test_a_stdio_servers_env_values_are_never_written(tmp_path: Path) -> None:
    env = {"GITHUB_TOKEN": "ghp_secret", "LOG_LEVEL": "debug", "DB_URL": "postgres://u:p@h/db"}
    target = StdioTarget(sys.executable, ("server.py", "--name", "${lit}"), env=env)
    notes: list[str] = []
    table = server_table(ServerSpec("s", target), tmp_path / "s.mcptest.toml", notes)
    assert table == {
        "command": ["python", "server.py", "--name", "$${lit}"],
        "cwd": os.path.relpath(Path.cwd().resolve(), tmp_path.resolve()),
        "env": {k: f"${{{k}}}" for k in env},
    }
    assert any("GITHUB_TOKEN, LOG_LEVEL, DB_URL" in n for n in notes)
    path = tmp_path / "s.mcptest.toml"
    append_case(path, {"name": "c", "tool": "t", "expect": {}}, server=table)
    text = path.read_text()
    assert not any(value in text for value in env.values())


def test_an_http_servers_header_values_are_never_written(tmp_path: Path) -> None:
    headers = {"Authorization": "Bearer abc.def", "X-Api-Key": "k-123456"}
    target = HttpTarget("https://mcp.example.com/mcp?q=$${x}", headers=headers)
    notes: list[str] = []
    table = server_table(ServerSpec("h", target), tmp_path / "h.mcptest.toml", notes)
    assert table == {
        "url": "https://mcp.example.com/mcp?q=$$${x}",
        "headers": {"Authorization": "${AUTHORIZATION}", "X-Api-Key": "${X_API_KEY}"},
    }
    path = tmp_path / "h.mcptest.toml"
    append_case(path, {"name": "c", "tool": "t", "expect": {}}, server=table)
    text = path.read_text()
    assert "abc.def" not in text and "k-123456" not in text


def test_a_value_the_server_was_given_from_the_environment_is_never_written() -> None:
    """Echoed into a snapshot, a sampling request, an answer's field (the server's default
    accepted), a setup step's answer, or the call's name or arguments."""
    from mcp_tui.testbench.observed import SeenSampling
    from mcp_tui.testbench.record import NotRecordable
    from mcp_tui.ui.record_case import written_secrets

    spec = ServerSpec(
        "h", HttpTarget("https://x.example/mcp", headers={"Authorization": "Bearer abc.def9"})
    )
    secrets = ("tok-9f2c81", *written_secrets(spec))
    assert secrets == ("tok-9f2c81", "Bearer abc.def9", "abc.def9")
    seen = Observed(
        "ok",
        text="you gave me abc.def9",
        elicitations=(SeenElicitation("form", "ok?", schema={"title": "tok-9f2c81"}),),
        sampling=(SeenSampling("say tok-9f2c81"),),
    )
    answers = [{"action": "accept", "content": {"note": "d-tok-9f2c81", "n": 2}}]
    call = RecordedCall("tool", "echo", {"a": 1}, answers, seen)
    step = RecordedCall("tool", "make", {}, answers, Observed("ok"))
    made = case_from_call(call, "c", setup=[step], environment=secrets)
    assert made.case["answers"] == [{"action": "accept", "content": {"n": 2}}]
    assert made.case["setup"][0]["answers"] == made.case["answers"]
    expect = made.case["expect"]
    assert "text" not in expect and "schema" not in expect["elicitations"][0]
    assert "message" not in expect["sampling"][0]
    assert "tok-9f2c81" not in repr(made.case) and "abc.def9" not in repr(made.case)
    assert any(
        "the result's text holds a value taken from the environment" in n for n in made.notes
    )
    for named, arguments in (("echo_tok-9f2c81", {}), ("echo", {"a": "abc.def9"})):
        with pytest.raises(NotRecordable, match="taken from the environment"):
            case_from_call(
                RecordedCall("tool", named, arguments, [], seen), "c", environment=secrets
            )
    assert case_from_call(call, "c").case["expect"]["text"] == "you gave me abc.def9"


def test_a_config_spec_keeps_what_its_variables_took_from_the_environment(tmp_path: Path) -> None:
    from mcp_tui.config.load import load_config

    config = tmp_path / "c.toml"
    config.write_text(
        '[servers.s]\ncommand = "python"\nargs = ["${ARG:-plain}"]\n'
        'env = { A = "${API_TOKEN}", B = "literal" }\n'
        '[servers.h]\nurl = "https://x.example/mcp"\n'
        'headers = { Authorization = "Bearer ${API_KEY}" }\n',
        encoding="utf-8",
    )
    servers = load_config(config, ENVIRON).servers
    assert servers["s"].from_environment == (TOKEN,)
    assert servers["h"].from_environment == ("the-ci-key",)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_a_written_file_keeps_its_mode_and_a_new_one_follows_the_umask(tmp_path: Path) -> None:
    case = {"name": "c", "tool": "t", "expect": {"text": ""}}
    old = os.umask(0o022)
    try:
        new = tmp_path / "new.mcptest.toml"
        append_case(new, case, server="demo")
        assert stat.S_IMODE(new.stat().st_mode) == 0o644
        shared = tmp_path / "shared.mcptest.toml"
        append_case(shared, case, server="demo")
        shared.chmod(0o664)
        append_case(shared, case, server="demo")
        assert stat.S_IMODE(shared.stat().st_mode) == 0o664
        set_values(shared, [(("case", 0, "expect", "text"), "new")])
        assert stat.S_IMODE(shared.stat().st_mode) == 0o664
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    finally:
        os.umask(old)

"""Saved conversations (round trip, bad files named with their line, Markdown), the model-facing
tool names, choosing a provider from the environment, and the setup errors a user sees."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic_ai.messages import (
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)

from mcp_tui.chat.providers import ChatSetupError, build_model
from mcp_tui.chat.store import ConversationError, ConversationFile, list_saved, load, to_markdown
from mcp_tui.chat.tools import ToolCatalog, model_name_for
from mcp_tui.config.chat_settings import ChatSettings, resolve
from mcp_tui.session.events import ToolInfo

MESSAGES = [
    ModelRequest(parts=[UserPromptPart(content="Book a table\nfor two")], instructions="sys"),
    ModelResponse(parts=[ToolCallPart("demo__book", {"party": 2}, tool_call_id="c1")]),
    ModelRequest(parts=[ToolReturnPart("demo__book", "Booked ``` done", tool_call_id="c1")]),
    ModelResponse(parts=[TextPart("Your table is booked.")]),
]


def test_a_conversation_is_saved_line_by_line_and_resumed(tmp_path: Path) -> None:
    file = ConversationFile(tmp_path, model="fake", system_prompt="sys")
    for message in MESSAGES:
        file.append(message)
    lines = file.path.read_text().splitlines()
    assert len(lines) == 1 + len(MESSAGES)
    assert json.loads(lines[0])["format"] == "mcp-tui-chat/1"
    saved, messages = load(file.path)
    assert saved.model == "fake" and saved.system_prompt == "sys"
    assert saved.title == "Book a table for two"
    assert [type(m) for m in messages] == [type(m) for m in MESSAGES]
    assert messages[1].parts[0].args == {"party": 2}  # type: ignore[union-attr]
    assert [s.id for s in list_saved(tmp_path)] == [file.id]


def test_bad_files_are_named_with_their_line(tmp_path: Path) -> None:
    bad = tmp_path / "x.jsonl"
    bad.write_text('{"format": "other"}\n')
    with pytest.raises(ConversationError, match=r"x.jsonl, line 1: not an mcp-tui conversation"):
        load(bad)
    file = ConversationFile(tmp_path, model=None, system_prompt="")
    file.append(MESSAGES[0])
    with file.path.open("a") as f:
        f.write('{"kind": "nonsense"}\n')
    with pytest.raises(ConversationError, match=r"line 3: not a message"):
        load(file.path)
    assert [s.id for s in list_saved(tmp_path)] == []  # unreadable files are skipped
    with pytest.raises(ConversationError, match="Cannot read"):
        load(tmp_path / "missing.jsonl")


def test_markdown_export() -> None:
    md = to_markdown(None, MESSAGES)
    assert "## You\n\nBook a table\nfor two" in md
    assert '**Tool call `demo__book`:**\n\n```json\n{\n  "party": 2\n}\n```' in md
    assert "````\nBooked ``` done\n````" in md  # a fence longer than any run inside
    assert md.endswith("## Model\n\nYour table is booked.\n")


def test_tool_names_are_safe_unique_and_map_back() -> None:
    assert model_name_for("my server", "do.it!") == "my_server__do_it_"
    long = "x" * 80
    tools = [("a", ToolInfo(long)), ("a", ToolInfo(long + "y")), ("b b", ToolInfo("t"))]
    catalog = ToolCatalog(tools)
    names = [t.name for t in catalog]
    assert len(set(names)) == 3 and all(len(n) <= 64 for n in names)
    assert names[1].endswith("_2")
    assert catalog.get(names[1]) is not None and catalog.get(names[1]).tool.name == long + "y"  # type: ignore[union-attr]
    (definition,) = ToolCatalog([("s", ToolInfo("t", input_schema={}))]).definitions()
    assert definition.parameters_json_schema == {"type": "object", "properties": {}}


def test_the_provider_is_chosen_from_the_environment() -> None:
    empty = ChatSettings()
    assert resolve(empty, {}).provider is None
    assert resolve(empty, {"OPENAI_API_KEY": "k"}).provider == "openai"
    both = {"OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k"}
    assert resolve(empty, both).provider == "anthropic"
    assert resolve(ChatSettings(base_url="http://127.0.0.1:1/v1"), both).provider == (
        "openai-compatible"
    )
    assert resolve(ChatSettings(provider="openai"), both).provider == "openai"
    assert ChatSettings(provider="openai").describe() == "openai · gpt-4.1-mini"


@pytest.mark.parametrize(
    ("settings", "environ", "message"),
    [
        (ChatSettings(), {}, "No model is configured"),
        (ChatSettings(provider="anthropic"), {}, "ANTHROPIC_API_KEY is not set"),
        (ChatSettings(provider="openai", api_key_env="MY_KEY"), {}, "MY_KEY is not set"),
        (ChatSettings(provider="openai-compatible"), {}, "needs its endpoint"),
        (ChatSettings(provider="openai-compatible", base_url="ftp://x"), {}, "must start with"),
    ],
)
def test_setup_errors_say_the_fix(
    settings: ChatSettings, environ: dict[str, str], message: str
) -> None:
    with pytest.raises(ChatSetupError, match=message):
        build_model(settings, environ)


def test_models_are_built_with_the_key_from_the_named_variable() -> None:
    model = build_model(ChatSettings(provider="openai", api_key_env="K"), {"K": "secret"})
    assert model.model_name == "gpt-4.1-mini"
    local = build_model(
        ChatSettings(provider="openai-compatible", base_url="http://127.0.0.1:9/v1"), {}
    )
    assert local.model_name == "llama3.2"
    claude = build_model(ChatSettings(provider="anthropic", model="m"), {"ANTHROPIC_API_KEY": "s"})
    assert claude.model_name == "m"

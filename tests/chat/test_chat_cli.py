"""``mcp-tui chat``: its options over the config's ``[chat]``, the rest left to the TUI's own
command line, mistakes as usage errors, and the demo's hint that a model is there."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mcp_tui.cli.chat import parse_chat_command
from mcp_tui.cli.main import _chat_hint
from mcp_tui.config.chat_settings import ChatSettings
from mcp_tui.errors import UsageError


def test_chat_options_override_the_config_and_leave_the_rest() -> None:
    configured = ChatSettings(provider="openai", model="a", system_prompt="cfg")
    chat, rest = parse_chat_command(
        ["--model", "b", "--mode", "legacy", "http://127.0.0.1:1/mcp"], configured, {}
    )
    assert chat.settings.provider == "openai" and chat.settings.model == "b"
    assert chat.settings.system_prompt == "cfg" and chat.settings.open_at_start
    assert rest == ["--mode", "legacy", "http://127.0.0.1:1/mcp"]
    assert not chat.demo


def test_the_provider_follows_the_endpoint_or_the_environment() -> None:
    chat, _ = parse_chat_command(["--base-url", "http://127.0.0.1:2/v1", "--demo"], None, {})
    assert chat.demo and chat.settings.provider == "openai-compatible"
    chat, _ = parse_chat_command([], None, {"ANTHROPIC_API_KEY": "k"})
    assert chat.settings.provider == "anthropic"
    with pytest.raises(UsageError, match="invalid choice: 'gemini'"):
        parse_chat_command(["--provider", "gemini"], None, {})


def test_the_demo_mentions_the_chat_only_when_a_model_is_there() -> None:
    assert _chat_hint(None, {}) == ()
    (note,) = _chat_hint(None, {"OPENAI_API_KEY": "k"})
    assert note.startswith("Try the demo through a model: press m to chat with openai")
    assert _chat_hint(ChatSettings(provider="openai", open_at_start=True), {}) == ()


def test_help_and_mistakes_on_the_command_line() -> None:
    run = [sys.executable, "-m", "mcp_tui"]
    shown = subprocess.run([*run, "chat", "--help"], capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and "mcp-tui chat --demo" in shown.stdout
    bad = subprocess.run(
        [*run, "chat", "--demo", "--", "python", "x.py"], capture_output=True, text=True, timeout=60
    )
    assert bad.returncode == 2
    assert "takes no `--`" in bad.stderr
    listed = subprocess.run([*run, "--help"], capture_output=True, text=True, timeout=60)
    assert "chat    the TUI with a chat" in listed.stdout

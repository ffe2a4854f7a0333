"""``mcp-tui chat``: the TUI with the chat screen open at start (the chat extra).

Only the chat's own options are parsed here (provider, model, endpoint, key variable, system
prompt, ``--demo``); everything else is the TUI's command line, passed on as it is, so
``mcp-tui chat --model llama3.2 -- python server.py`` names its server exactly as ``mcp-tui``
does. Pure: no ``mcp``, no ``textual``, no provider library.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence

import msgspec
from msgspec import Struct

from mcp_tui.chat import INSTALL_HINT, available
from mcp_tui.cli.args import ArgumentParser
from mcp_tui.config.chat_settings import PROVIDERS, ChatSettings, resolve
from mcp_tui.errors import UsageError

CHAT_DESCRIPTION = """\
Open the TUI with a chat: a model that calls the servers' tools, each call shown first and run
only when you approve it; the tools' forms open in the conversation. Needs the chat extra
(pip install 'mcp-tui-client[chat]'). Every option of `mcp-tui` (servers after `--`, a URL,
--config, --server, ...) works here too; --demo chats with the bundled demo server.

The model: --provider and --model, else the [chat] table of the config file, else the first key
in the environment (ANTHROPIC_API_KEY, then OPENAI_API_KEY). Keys are read from the environment
only, never from the command line or written anywhere."""

CHAT_EPILOG = """\
examples:
  mcp-tui chat --demo                                       (a key in the environment)
  mcp-tui chat --demo --base-url http://127.0.0.1:11434/v1 --model llama3.2     (Ollama)
  mcp-tui chat --provider anthropic --model claude-sonnet-4-5 -- python server.py"""


class ChatCommand(Struct, frozen=True):
    """What ``mcp-tui chat`` asks for beyond the TUI's own options."""

    settings: ChatSettings
    demo: bool = False


def build_chat_parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog="mcp-tui chat",
        # The TUI's own options pass through: --mode must not be read as --model.
        allow_abbrev=False,
        usage="mcp-tui chat [--provider P] [--model M] [--base-url URL] [--demo] [mcp-tui options]",
        description=CHAT_DESCRIPTION,
        epilog=CHAT_EPILOG,
        formatter_class=lambda prog: argparse.RawDescriptionHelpFormatter(prog, width=100),
    )
    parser.add_argument("--provider", choices=PROVIDERS, help="the model's provider")
    parser.add_argument("--model", help="the model name (default: the provider's default)")
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="an OpenAI-compatible endpoint (Ollama, llama.cpp, vLLM): http://127.0.0.1:11434/v1",
    )
    parser.add_argument(
        "--api-key-env", metavar="VAR", help="the environment variable that holds the key"
    )
    parser.add_argument("--system", metavar="TEXT", help="the system prompt")
    parser.add_argument("--demo", action="store_true", help="chat with the bundled demo server")
    return parser


def parse_chat_command(
    args: Sequence[str], configured: ChatSettings | None, environ: Mapping[str, str]
) -> tuple[ChatCommand, list[str]]:
    """The chat's options (over the config's ``[chat]``) and the TUI's arguments left over."""
    ns, rest = build_chat_parser().parse_known_args(list(args))
    if not available():
        raise UsageError(f"`mcp-tui chat` needs the chat extra: {INSTALL_HINT}")
    base = configured or ChatSettings()
    given = {
        "provider": ns.provider,
        "model": ns.model,
        "base_url": ns.base_url,
        "api_key_env": ns.api_key_env,
        "system_prompt": ns.system,
    }
    settings = msgspec.structs.replace(
        base, open_at_start=True, **{k: v for k, v in given.items() if v is not None}
    )
    return ChatCommand(resolve(settings, environ), demo=ns.demo), rest

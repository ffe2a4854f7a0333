"""Build the provider library's model object from the chat's settings (``config/chat_settings``).

The provider library is ``pydantic-ai`` (``pydantic-ai-slim`` with its ``openai`` and
``anthropic`` extras): one interface to Anthropic, OpenAI and any OpenAI-compatible server, typed
messages we can save and resume, streaming with tool calls, and an offline test model. The docs
("Chat with a model") say why it was chosen over ``any-llm-sdk`` and ``litellm``.

The key is read from the environment variable the settings name, here and nowhere else, and handed
to the provider object in memory; it is never logged or written to a file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from mcp_tui.config.chat_settings import ChatSettings
from mcp_tui.errors import McpTuiError

if TYPE_CHECKING:
    from pydantic_ai.models import Model


class ChatSetupError(McpTuiError):
    """The chat cannot start: no provider, a missing key, a bad endpoint. The text says the fix."""


def build_model(settings: ChatSettings, environ: Mapping[str, str]) -> Model:
    """The model to talk to, or :class:`ChatSetupError` naming what is missing."""
    provider = settings.provider
    name = settings.model_name
    if provider is None or name is None:
        raise ChatSetupError(
            "No model is configured for the chat. Set ANTHROPIC_API_KEY or OPENAI_API_KEY, or "
            "give --provider/--model/--base-url (mcp-tui chat --help), or a [chat] table in the "
            "config file (see config.example.toml)."
        )
    if settings.base_url is not None and not settings.base_url.startswith(("http://", "https://")):
        raise ChatSetupError(
            f"The chat's base URL must start with http:// or https://, not {settings.base_url!r}."
        )
    key_env = settings.key_env or ""
    key = environ.get(key_env) or None
    if provider == "anthropic":
        if key is None:
            raise ChatSetupError(f"The chat uses Anthropic but {key_env} is not set.")
        from pydantic_ai.models.anthropic import AnthropicModel
        from pydantic_ai.providers.anthropic import AnthropicProvider

        return AnthropicModel(
            name, provider=AnthropicProvider(api_key=key, base_url=settings.base_url)
        )
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    if provider == "openai" and key is None:
        raise ChatSetupError(f"The chat uses OpenAI but {key_env} is not set.")
    if provider == "openai-compatible":
        if settings.base_url is None:
            raise ChatSetupError(
                "An OpenAI-compatible provider needs its endpoint: --base-url "
                "http://127.0.0.1:11434/v1 (Ollama), or base_url in the [chat] table."
            )
        # Local servers (Ollama, llama.cpp, vLLM) usually take any key; the client wants one.
        key = key or "not-needed"
    return OpenAIChatModel(name, provider=OpenAIProvider(base_url=settings.base_url, api_key=key))

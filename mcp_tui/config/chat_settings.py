"""Which model the chat talks to: provider, model name, endpoint, key source, system prompt.

A plain record (no pydantic, no provider library) so the command line and the config can build it
cheaply. Keys are never stored in it: only the *name* of the environment variable that holds one,
so no key is ever written to a config file, a conversation file or a log by mcp-tui.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from msgspec import Struct

ProviderKind = Literal["anthropic", "openai", "openai-compatible"]
PROVIDERS: tuple[ProviderKind, ...] = ("anthropic", "openai", "openai-compatible")

#: The environment variable each provider's key is read from unless ``api_key_env`` says otherwise.
DEFAULT_KEY_ENV: dict[ProviderKind, str] = {
    "anthropic": "ANTHROPIC_API_KEY",
    "openai": "OPENAI_API_KEY",
    "openai-compatible": "OPENAI_API_KEY",
}
#: The model used when none is named (each can be changed in the chat's settings).
DEFAULT_MODEL: dict[ProviderKind, str] = {
    "anthropic": "claude-sonnet-4-5",
    "openai": "gpt-4.1-mini",
    "openai-compatible": "llama3.2",
}
DEFAULT_SYSTEM_PROMPT = (
    "You are a helpful assistant in a terminal MCP client. Use the tools the user has enabled when "
    "they help; the user approves each tool call and may be asked to fill in forms by the tools."
)


class ChatSettings(Struct, frozen=True):
    """The chat's model; ``provider=None`` means no provider is configured."""

    provider: ProviderKind | None = None
    model: str | None = None
    #: The endpoint of an OpenAI-compatible server (Ollama, llama.cpp, vLLM), e.g.
    #: ``http://127.0.0.1:11434/v1``; also allowed for ``openai`` (a proxy).
    base_url: str | None = None
    #: The environment variable holding the key (default: per provider, see ``DEFAULT_KEY_ENV``).
    api_key_env: str | None = None
    system_prompt: str = DEFAULT_SYSTEM_PROMPT
    #: Open the chat screen as soon as the app starts (``mcp-tui chat``).
    open_at_start: bool = False

    @property
    def model_name(self) -> str | None:
        """The model to use: the one named, else the provider's default."""
        if self.model:
            return self.model
        return DEFAULT_MODEL[self.provider] if self.provider is not None else None

    @property
    def key_env(self) -> str | None:
        if self.api_key_env:
            return self.api_key_env
        return DEFAULT_KEY_ENV[self.provider] if self.provider is not None else None

    def describe(self) -> str:
        """One line for the UI: ``anthropic · claude-sonnet-4-5``."""
        if self.provider is None:
            return "no model configured"
        where = f" at {self.base_url}" if self.base_url else ""
        return f"{self.provider} · {self.model_name}{where}"


def resolve(settings: ChatSettings, environ: Mapping[str, str]) -> ChatSettings:
    """Fill in the provider when none is named: an endpoint means OpenAI-compatible, otherwise
    the first provider whose key is in the environment (Anthropic, then OpenAI)."""
    if settings.provider is not None:
        return settings
    import msgspec

    if settings.base_url:
        return msgspec.structs.replace(settings, provider="openai-compatible")
    for kind in ("anthropic", "openai"):
        env = settings.api_key_env or DEFAULT_KEY_ENV[kind]
        if environ.get(env):
            return msgspec.structs.replace(settings, provider=kind)
    return settings

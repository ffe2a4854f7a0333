"""What the chat tells a person whose model is not working yet: how to choose one, and what a
failed request to the endpoint means.

The provider library reports an endpoint with nothing listening (Ollama not started, the usual
first slip with a local model) as "Connection error.", and a 404 as the repr of a Python dict. The
cause is always further down the exception's chain: the HTTP client's error carries the request's
URL and the response's status, the socket's error says the connection was refused. This module
reads the chain and says it in one sentence with the URL, the status and what to check. Pure: no
Textual; the provider library's exceptions are read by their attributes, never imported.
"""

from __future__ import annotations

from collections.abc import Iterator
from http import HTTPStatus
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from mcp_tui.config.chat_settings import DEFAULT_KEY_ENV, ChatSettings
from mcp_tui.untrusted import one_line

#: Where Ollama listens for OpenAI-compatible requests unless told otherwise.
OLLAMA_URL = "http://127.0.0.1:11434/v1"
#: Longest provider message quoted in a sentence.
_MESSAGE_LIMIT = 300


def empty_chat_hint(settings: ChatSettings) -> str:
    """The empty chat page's text: the model in use and how to change it, or how to pick one."""
    keys = " or ".join(sorted(set(DEFAULT_KEY_ENV.values())))
    how = (
        "F3 chooses the provider, the model, an OpenAI-compatible endpoint and the tools the model "
        "may call. From the command line: mcp-tui chat --provider P --model M, or --base-url "
        f"{OLLAMA_URL} for Ollama, llama.cpp or vLLM (mcp-tui chat --help); or a [chat] table in "
        f"the config file. Without one, the chat uses the first key set of {keys}."
    )
    if settings.provider is None:
        return f"No model is chosen yet. {how}"
    return (
        f"Model: {settings.describe()}. Type a message and press Enter: the model may call the "
        "servers' tools, each call waiting for your approval. F3 changes the provider, the model, "
        "the endpoint and the tools it may call (or --provider, --model and --base-url on the "
        "command line)."
    )


def describe_provider_error(exc: BaseException) -> str:
    """A failed request to the model's endpoint in one sentence: the URL, what happened (nothing
    listening, the status the endpoint answered) and what to check; never a key."""
    chain = list(_chain(exc))
    url = next((u for u in map(_request_url, chain) if u), None)
    where = url or "the model's endpoint"
    if any(isinstance(e, ConnectionRefusedError) for e in chain):
        return (
            f"Nothing is listening at {where} (the connection was refused). Is the model server "
            f"running? For Ollama, start it with `ollama serve` (its endpoint is {OLLAMA_URL}); "
            "F3 changes the endpoint."
        )
    status = next((s for s in map(_status, chain) if s), None)
    if status is not None:
        try:
            reason = f" {HTTPStatus(status).phrase}"
        except ValueError:
            reason = ""
        message = _message(exc)
        text = f"{where} answered HTTP {status}{reason}" + (f": {message}" if message else "")
        return text.rstrip(".") + "." + _status_advice(status, getattr(exc, "model_name", None))
    if url is not None and any(_is_transport_error(e) for e in chain):
        innermost = one_line(str(chain[-1]) or type(chain[-1]).__name__, limit=_MESSAGE_LIMIT)
        return f"Could not connect to {where}: {innermost}. Check the endpoint (F3)."
    text = one_line(str(exc).strip() or type(exc).__name__, limit=_MESSAGE_LIMIT)
    return f"{type(exc).__name__}: {text}"


def _chain(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _request_url(exc: BaseException) -> str | None:
    """The URL of the request an HTTP client's error carries (``httpx``: ``.request.url``),
    without its query (a key may ride there) or credentials."""
    try:
        url = str(exc.request.url)  # type: ignore[attr-defined]
    except Exception:  # no request, or a property that raises when it has none
        return None
    parts = urlsplit(url)
    if not parts.scheme or not parts.hostname:
        return None
    netloc = parts.hostname if parts.port is None else f"{parts.hostname}:{parts.port}"
    if ":" in parts.hostname:
        netloc = f"[{parts.hostname}]" + (f":{parts.port}" if parts.port is not None else "")
    return one_line(urlunsplit((parts.scheme, netloc, parts.path, "", "")), limit=200)


def _status(exc: BaseException) -> int | None:
    response = getattr(exc, "response", None)
    for value in (getattr(exc, "status_code", None), getattr(response, "status_code", None)):
        if isinstance(value, int) and 100 <= value <= 599:
            return value
    return None


def _message(exc: BaseException) -> str:
    """What the endpoint said, from the error's body: ``{"error": {"message": ...}}``,
    ``{"message": ...}`` or plain text."""
    body: Any = getattr(exc, "body", None)
    for _ in range(2):
        if isinstance(body, dict):
            inner = body.get("error", body)
            body = inner.get("message") if isinstance(inner, dict) else inner
    if isinstance(body, str) and body.strip():
        return one_line(" ".join(body.split()), limit=_MESSAGE_LIMIT)
    return ""


def _status_advice(status: int, model: object) -> str:
    if status == 404:
        named = f" ({one_line(model, limit=80)})" if isinstance(model, str) and model else ""
        return (
            f" Check the endpoint (Ollama's is {OLLAMA_URL}) and the model name{named}: "
            "F3 changes both."
        )
    if status in (401, 403):
        return " Check the key (F3 names the environment variable it is read from)."
    if status == 429:
        return " The provider limits requests: wait, then send again."
    return ""


def _is_transport_error(exc: BaseException) -> bool:
    """An HTTP client's error about the connection itself (``ConnectError``, ``ConnectTimeout``,
    ``ReadError``...), or the operating system's."""
    name = type(exc).__name__
    return isinstance(exc, OSError) or name.startswith(("Connect", "Read", "Write", "Remote"))

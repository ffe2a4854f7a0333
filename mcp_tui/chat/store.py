"""Saved conversations: a JSON Lines file each in the platform data directory; Markdown export.

The first line describes the conversation (id, when, provider, model, system prompt); each further
line is one message in the provider library's own JSON form, appended as the conversation goes on
and flushed, so a crash loses at most the message being written. Keys are never part of a
conversation (the settings hold only the name of the variable a key is read from).
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from mcp_tui.errors import McpTuiError

if TYPE_CHECKING:
    from pydantic_ai.messages import ModelMessage

FORMAT = "mcp-tui-chat/1"


class ConversationError(McpTuiError):
    """A saved conversation cannot be read; the text names the file and the line."""


class SavedConversation(Struct, frozen=True):
    id: str
    path: Path
    created: str
    model: str | None
    system_prompt: str
    #: The first user message, shortened: what the list of conversations shows.
    title: str = ""


def conversations_dir() -> Path:
    from mcp_tui.config.paths import data_dir

    return data_dir() / "conversations"


class ConversationFile:
    """Appends one conversation's messages to its file."""

    def __init__(
        self, directory: Path, *, model: str | None, system_prompt: str, id: str | None = None
    ) -> None:
        self.id = id or dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)
        self.path = directory / f"{self.id}.jsonl"
        self._model = model
        self._system_prompt = system_prompt

    def append(self, message: ModelMessage) -> None:
        from pydantic_ai.messages import ModelMessagesTypeAdapter

        new = not self.path.exists()
        if new:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("ab") as f:
            if new:
                head = {
                    "format": FORMAT,
                    "id": self.id,
                    "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                    "model": self._model,
                    "system_prompt": self._system_prompt,
                }
                f.write(json.dumps(head, ensure_ascii=False).encode() + b"\n")
            # One message, as the library writes a list of them, without the brackets.
            line = ModelMessagesTypeAdapter.dump_json([message])[1:-1]
            f.write(line + b"\n")
            f.flush()


def load(path: Path) -> tuple[SavedConversation, list[ModelMessage]]:
    """A saved conversation and its messages, or :class:`ConversationError` saying what is wrong."""
    from pydantic_ai.messages import ModelMessagesTypeAdapter

    try:
        lines = path.read_bytes().splitlines()
    except OSError as exc:
        raise ConversationError(f"Cannot read {path}: {exc.strerror or exc}") from None
    if not lines:
        raise ConversationError(f"{path} is empty.")
    head = _head(path, lines[0])
    messages: list[ModelMessage] = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            messages.extend(ModelMessagesTypeAdapter.validate_json(b"[" + line + b"]"))
        except ValueError as exc:
            first = str(exc).splitlines()[0]
            raise ConversationError(f"{path}, line {number}: not a message ({first}).") from None
    return _saved(path, head, messages), messages


def _head(path: Path, line: bytes) -> dict[str, Any]:
    try:
        head = json.loads(line)
    except ValueError:
        head = None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise ConversationError(f"{path}, line 1: not an mcp-tui conversation ({FORMAT}).")
    return head


def _saved(path: Path, head: dict[str, Any], messages: list[ModelMessage]) -> SavedConversation:
    return SavedConversation(
        id=str(head.get("id") or path.stem),
        path=path,
        created=str(head.get("created") or ""),
        model=head.get("model") if isinstance(head.get("model"), str) else None,
        system_prompt=str(head.get("system_prompt") or ""),
        title=_title(messages),
    )


def _title(messages: list[ModelMessage]) -> str:
    from pydantic_ai.messages import ModelRequest, UserPromptPart

    for message in messages:
        if isinstance(message, ModelRequest):
            for part in message.parts:
                if isinstance(part, UserPromptPart) and isinstance(part.content, str):
                    return " ".join(part.content.split())[:60]
    return ""


def list_saved(directory: Path) -> list[SavedConversation]:
    """Saved conversations, newest first; unreadable files are skipped (they are shown on open)."""
    found: list[SavedConversation] = []
    for path in sorted(directory.glob("*.jsonl"), reverse=True):
        try:
            found.append(load(path)[0])
        except ConversationError:
            continue
    return found


def to_markdown(saved: SavedConversation | None, messages: list[ModelMessage]) -> str:
    """The conversation as Markdown: user and model turns, tool calls with arguments and results."""
    from pydantic_ai.messages import (
        ModelRequest,
        ModelResponse,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
        UserPromptPart,
    )

    out: list[str] = ["# Conversation" + (f" {saved.id}" if saved else ""), ""]
    if saved is not None and saved.model:
        out += [f"Model: `{saved.model}`", ""]
    for message in messages:
        if isinstance(message, ModelRequest):
            for part in message.parts:
                if isinstance(part, UserPromptPart):
                    out += ["## You", "", str(part.content), ""]
                elif isinstance(part, ToolReturnPart):
                    out += [f"**Result of `{part.tool_name}`:**", "", _fence(str(part.content)), ""]
        elif isinstance(message, ModelResponse):
            for rpart in message.parts:
                if isinstance(rpart, TextPart) and rpart.content:
                    out += ["## Model", "", rpart.content, ""]
                elif isinstance(rpart, ToolCallPart):
                    args = json.dumps(rpart.args_as_dict(), indent=2, ensure_ascii=False)
                    out += [f"**Tool call `{rpart.tool_name}`:**", "", _fence(args, "json"), ""]
    return "\n".join(out).rstrip() + "\n"


def _fence(text: str, lang: str = "") -> str:
    ticks = "```"
    while ticks in text:
        ticks += "`"
    return f"{ticks}{lang}\n{text}\n{ticks}"

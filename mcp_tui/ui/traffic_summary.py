"""What a JSON-RPC message means, in one line, for the traffic view's rows.

An audience watching a demo wants "form, 2 fields, for book_table #1" and "accept {date,
party_size}", not "elicitation/create result". :class:`Summaries` remembers, per server, what each
request asked (its method, and for ``elicitation/create`` that it was a form or a URL) and which
``tools/call`` is running, so a response and an elicitation inside a call can be named.

Pure: no Textual. The text it returns contains server strings (tool names, field names, error
messages, log data): the caller shows it literally (``literal_text_line``), never as markup.
"""

from __future__ import annotations

from typing import Any

#: Characters of a server's text (an error message, a log line) kept in a summary.
TEXT_LIMIT = 80


def _short(value: object, limit: int = TEXT_LIMIT) -> str:
    text = value if isinstance(value, str) else repr(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _names(value: object, limit: int = 6) -> str:
    if not isinstance(value, dict):
        return ""
    keys = [str(k) for k in value]
    shown = ", ".join(keys[:limit]) + (", …" if len(keys) > limit else "")
    return "{" + shown + "}"


class Summaries:
    """One line per message; keeps the little state a response needs to be named."""

    def __init__(self) -> None:
        #: (server, direction of the request, id) -> (method, params) of requests not answered.
        self._asked: dict[tuple[str, str, str], tuple[str, dict[str, Any]]] = {}
        #: server -> (tool name, request id) of the newest tools/call still running.
        self._calls: dict[str, list[tuple[str, str]]] = {}

    def summary(self, message: dict[str, Any], direction: str, server: str) -> str:
        """ "elicitation/create · form, 2 fields, for book_table #1", "accept {date}", ..."""
        method = message.get("method")
        raw_id = message.get("id")
        msg_id = "" if raw_id is None else str(raw_id)
        params = message.get("params")
        params = params if isinstance(params, dict) else {}
        if isinstance(method, str):
            if raw_id is not None:
                self._asked[(server, direction, msg_id)] = (method, params)
                if method == "tools/call":
                    name = str(params.get("name", "?"))
                    self._calls.setdefault(server, []).append((name, msg_id))
            return f"{method} · {self._request(method, params, server)}".rstrip(" ·")
        other = "in" if direction == "out" else "out"
        asked = self._asked.pop((server, other, msg_id), None)
        answered, asked_params = asked if asked else ("", {})
        if answered == "tools/call":
            calls = self._calls.get(server, [])
            self._calls[server] = [c for c in calls if c[1] != msg_id]
        if len(self._asked) > 10_000:  # answers that never came
            self._asked.clear()
        if "error" in message:
            error = message.get("error")
            error = error if isinstance(error, dict) else {}
            code = error.get("code", "?")
            text = f"error {code}: {_short(error.get('message', ''))}"
            return f"{answered} {text}" if answered else text
        result = message.get("result")
        result = result if isinstance(result, dict) else {}
        return f"{answered} · {self._result(answered, asked_params, result)}".strip(" ·")

    def _request(self, method: str, params: dict[str, Any], server: str) -> str:
        if method == "elicitation/create":
            call = self._call(server)
            if params.get("mode") == "url":
                return f"URL{call}"
            schema = params.get("requestedSchema")
            properties = schema.get("properties") if isinstance(schema, dict) else None
            count = len(properties) if isinstance(properties, dict) else 0
            if count == 0:
                return f"confirm{call}"
            return f"form, {count} field{'s' if count != 1 else ''}{call}"
        if method == "tools/call":
            return _short(params.get("name", ""), 40)
        if method in ("prompts/get",):
            return _short(params.get("name", ""), 40)
        if method in ("resources/read", "resources/subscribe"):
            return _short(params.get("uri", ""), 60)
        if method == "notifications/progress":
            progress, total = params.get("progress"), params.get("total")
            text = ""
            if isinstance(progress, (int, float)) and isinstance(total, (int, float)) and total:
                text = f"{progress / total:.0%}"
            elif isinstance(progress, (int, float)):
                text = f"{progress:g}"
            note = params.get("message")
            return f"{text} {_short(note, 50)}".strip() if note else text
        if method == "notifications/message":
            level = params.get("level", "?")
            return f"{level}: {_short(params.get('data', ''), 60)}"
        if method == "notifications/cancelled":
            return f"#{params.get('requestId', '?')}"
        if method == "sampling/createMessage":
            messages = params.get("messages")
            count = len(messages) if isinstance(messages, list) else 0
            return f"{count} messages{self._call(server)}"
        return ""

    def _call(self, server: str) -> str:
        calls = self._calls.get(server)
        if not calls:
            return ""
        name, call_id = calls[-1]
        return f", for {_short(name, 30)} #{call_id}"

    @staticmethod
    def _result(method: str, params: dict[str, Any], result: dict[str, Any]) -> str:
        if method == "elicitation/create":
            action = str(result.get("action", "?"))
            fields = _names(result.get("content")) if action == "accept" else ""
            return f"{action} {fields}".strip()
        if method == "tools/call":
            if result.get("resultType") == "input_required" or "inputRequests" in result:
                return "input required"
            return "error result" if result.get("isError") else "ok"
        if method in ("tools/list", "prompts/list", "resources/list"):
            key = method.split("/")[0]
            items = result.get(key)
            return f"{len(items)} {key}" if isinstance(items, list) else ""
        if method == "initialize":
            info = result.get("serverInfo")
            version = result.get("protocolVersion", "")
            name = info.get("name", "") if isinstance(info, dict) else ""
            return f"{_short(name, 30)} {_short(version, 20)}".strip()
        return ""

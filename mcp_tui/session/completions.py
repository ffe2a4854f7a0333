"""``completion/complete``: the server's suggestions for a prompt argument or a template variable.

:class:`ConnectionCompletions` is a part ``ServerConnection`` owns (``connection.completions``,
like ``connection.features``): :meth:`~ConnectionCompletions.complete` asks the server for the
values that complete what the person has typed so far, passing the arguments already filled in as
``context.arguments`` (the 2025-06-18 addition that lets a server narrow one argument by another).
It is asked only when the server advertises the ``completions`` capability, and it never raises: a
failure is a :class:`Completion` with ``error`` set, which the UI shows quietly (suggestions are a
help, not a result). Every value is the server's text and untrusted.

The UI debounces the keystrokes and cancels a request a newer keystroke made stale
(``ui/argument_completions.py``); cancelling the awaiting task abandons the request here.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Literal

import mcp_types as types
from msgspec import Struct

from mcp_tui.session.convert import describe_exception
from mcp_tui.session.events import ServerInfo
from mcp_tui.session.link import ConnectionLink

log = logging.getLogger(__name__)

#: What is being completed: a prompt's argument or a resource template's variable.
RefKind = Literal["prompt", "template"]
#: The spec's cap on the values one answer carries.
MAX_VALUES = 100


class Completion(Struct, frozen=True):
    """The server's answer: ``values`` (at most 100), ``total`` and ``has_more`` when it said."""

    values: tuple[str, ...] = ()
    total: int | None = None
    has_more: bool = False
    #: Why there are no suggestions when the request failed (``None``: it did not fail).
    error: str | None = None


def offers_completions(info: ServerInfo | None) -> bool:
    """The server advertised ``completions`` at the handshake."""
    return info is not None and info.capabilities.get("completions") is not None


class ConnectionCompletions:
    """``completion/complete`` of one connection: its ``link`` has the SDK client (``None``
    unless ready) and the handshake."""

    def __init__(self, link: ConnectionLink) -> None:
        self._link = link

    @property
    def offered(self) -> bool:
        """The server advertised ``completions`` at the handshake."""
        return offers_completions(self._link.info)

    async def complete(
        self,
        kind: RefKind,
        name: str,
        argument: str,
        value: str,
        context: Mapping[str, str] | None = None,
    ) -> Completion:
        """The server's completions of ``argument`` = ``value`` for prompt or template ``name``
        (a template is named by its URI template)."""
        client = self._link.client
        if client is None:
            return Completion(error="not connected")
        if not self.offered:
            return Completion(error="the server does not offer completions")
        ref: types.PromptReference | types.ResourceTemplateReference = (
            types.PromptReference(type="ref/prompt", name=name)
            if kind == "prompt"
            else types.ResourceTemplateReference(type="ref/resource", uri=name)
        )
        others = {k: v for k, v in (context or {}).items() if k != argument}
        try:
            result = await client.complete(ref, {"name": argument, "value": value}, others or None)
        except Exception as exc:
            log.debug("completion/complete failed", exc_info=True)
            return Completion(error=describe_exception(exc))
        found = result.completion
        values = tuple(v for v in found.values[:MAX_VALUES] if isinstance(v, str))
        return Completion(values, found.total, bool(found.has_more))

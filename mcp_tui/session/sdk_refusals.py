"""Server requests the SDK refuses on its own, before mcp-tui's callback runs, made visible.

``mcp`` 2.3.0 validates an incoming ``elicitation/create`` against its params models before it
calls the ``elicitation_callback``. A request that fails — a ``requestedSchema`` whose root is not
``"type": "object"`` (an array, a string, no ``properties``), a URL-mode request without an
``elicitationId`` on 2025-11-25, a ``message`` that is not a string — is answered ``-32602 Invalid
request parameters`` by the SDK itself, and the user never hears of it: the form they expected
simply never appears. :func:`sdk_refusal` runs the SDK's own check (``parse_server_request``, with
the same version fallback) on the request as it passes the traffic tap, and returns readable
problems when the SDK is about to refuse it; ``recording.ConnectionTap`` turns them into an
``ElicitationRefused`` event, so the transcript shows the request and why it was refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcp_types import methods
from pydantic import ValidationError

from mcp_tui.untrusted import one_line

ELICITATION_CREATE = "elicitation/create"
#: What the SDK assumes before the handshake has negotiated a version (``ClientSession``).
SDK_FALLBACK_VERSION = "2025-11-25"
#: Pydantic errors listed per refusal (a union of two models repeats itself).
MAX_PROBLEMS = 4


def sdk_refusal(params: Any, version: str | None) -> tuple[str, ...] | None:
    """Why the SDK will refuse this ``elicitation/create`` (problems for the user), or ``None``."""
    version = version or SDK_FALLBACK_VERSION
    try:
        methods.parse_server_request(
            ELICITATION_CREATE, version, params if isinstance(params, Mapping) else None
        )
    except KeyError:
        return (
            f"protocol {version} has no elicitation/create request (from 2026-07-28 on, servers "
            "ask for input inside a tool result); the SDK answered -32601 Method not found",
        )
    except ValidationError as exc:
        return (*_first_problems(params), *_pydantic_problems(exc, params))
    except Exception:  # an unknown version or an SDK change: then the SDK decides, not us
        return None
    return None


def _first_problems(params: Any) -> tuple[str, ...]:
    """The likely mistake, in words, before pydantic's list."""
    if not isinstance(params, Mapping):
        return ("the request has no params object",)
    if params.get("mode") == "url":
        if "elicitationId" not in params:
            return ("a URL-mode request must carry an elicitationId",)
        return ()
    schema = params.get("requestedSchema")
    if not isinstance(schema, Mapping):
        return ("requestedSchema is missing or is not a JSON object",)
    if schema.get("type") != "object":
        shown = one_line(repr(schema.get("type")), limit=40)
        return (
            f'the requested schema\'s root must be "type": "object" (it is {shown}); '
            "MCP forms are flat objects of named fields",
        )
    if not isinstance(schema.get("properties"), Mapping):
        return ("the requested schema has no properties object",)
    return ()


def _pydantic_problems(exc: ValidationError, params: Any) -> list[str]:
    """Pydantic's errors for the branch the request meant (form or URL), without the noise."""
    url = isinstance(params, Mapping) and params.get("mode") == "url"
    branch = "ElicitRequestURLParams" if url else "ElicitRequestFormParams"
    problems: list[str] = []
    errors = exc.errors(include_url=False, include_context=False, include_input=False)
    for error in errors:
        location = [str(part) for part in error.get("loc", ())]
        if location[:1] == ["params"]:
            location = location[1:]
        if location and location[0].startswith("ElicitRequest"):
            if location[0] != branch:
                continue
            location = location[1:]
        where = ".".join(location) or "params"
        problems.append(one_line(f"{where}: {error.get('msg', 'invalid')}", limit=200))
        if len(problems) == MAX_PROBLEMS:
            break
    return problems

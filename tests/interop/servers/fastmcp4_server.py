"""A server written with FastMCP 4.x as its documentation shows: ``ctx.elicit(message,
response_type=Model)`` on handshake-era connections, and the guard pattern (return an
``InputRequiredResult``, read ``ctx.input_responses`` on the retry) for 2026-07-28.

Every tool validates what it gets with its own pydantic model (FastMCP does it for
``ctx.elicit``; the guard tool calls ``model_validate``) and returns it as JSON, so a test can
assert the exact content the server accepted. FastMCP 4 refuses ``Optional``/nullable fields and
free ``list[str]`` in an elicitation model (its own schema check raises ``TypeError``), so this
model has what FastMCP can send: an enum class, an ``IntEnum``, a multi-select of literals, a date,
an email and defaults. Runs over stdio, in its own virtualenv (``tests/interop/venvs``).
"""

# Written as the frameworks' users write them (``class Color(str, Enum)``).
# ruff: noqa: UP042

from __future__ import annotations

import datetime
import enum
import json
from typing import Any, Literal

from fastmcp import Context, FastMCP
from fastmcp.server.elicitation import get_elicitation_schema
from mcp_types import ElicitRequest, ElicitRequestFormParams, InputRequiredResult
from pydantic import BaseModel, EmailStr, Field


class Color(str, enum.Enum):
    red = "red"
    green = "green"
    blue = "blue"


class Priority(enum.IntEnum):
    low = 1
    normal = 2
    high = 3


class Profile(BaseModel):
    name: str = Field(min_length=1, description="Your full name")
    email: EmailStr
    birthday: datetime.date
    color: Color = Color.blue
    priority: Priority = Priority.normal
    interests: list[Literal["math", "music", "engines"]] = Field(default_factory=list)
    newsletter: bool = True


class Preferences(BaseModel):
    color: Color = Color.blue
    priority: Priority = Priority.normal
    newsletter: bool = True


mcp = FastMCP("fastmcp4-profiles")


def report(action: str, data: BaseModel | None = None) -> str:
    out: dict[str, Any] = {"action": action}
    if data is not None:
        out["data"] = data.model_dump(mode="json")
    return json.dumps(out, sort_keys=True)


@mcp.tool
async def sign_up(ctx: Context) -> str:
    """Ask for a profile with ctx.elicit and echo what was accepted."""
    result = await ctx.elicit("Create your profile", response_type=Profile)
    return report(result.action, getattr(result, "data", None))


@mcp.tool
async def preferences(ctx: Context) -> str:
    """Ask for preferences that all have defaults."""
    result = await ctx.elicit("Confirm your preferences", response_type=Preferences)
    return report(result.action, getattr(result, "data", None))


@mcp.tool(output_schema=None)
async def sign_up_2026(ctx: Context) -> str | InputRequiredResult:
    """The 2026-07-28 guard pattern: ask by returning the request, read the answer on retry."""
    answers = ctx.input_responses or {}
    answer = answers.get("profile")
    if answer is None:
        request = ElicitRequest(
            params=ElicitRequestFormParams(
                message="Create your profile (2026)",
                requested_schema=get_elicitation_schema(Profile),
            )
        )
        return InputRequiredResult(input_requests={"profile": request})
    action = getattr(answer, "action", None)
    if action != "accept":
        return report(str(action))
    return report("accept", Profile.model_validate(getattr(answer, "content", None)))


if __name__ == "__main__":
    mcp.run(show_banner=False)

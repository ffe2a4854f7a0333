"""A server written with the ``mcp`` Python SDK 2.3 (the SDK mcp-tui itself uses), with its
documented ``MCPServer`` API.

``sign_up`` and ``preferences`` use ``ctx.elicit(message, schema=Model)``. The SDK renders
``Optional``/nullable fields as plain optional ones and refuses enum classes and free
``list[str]`` (``TypeError``), so choices are ``Literal``s and the list a multi-select.
``sign_up_full`` sends ``Model.model_json_schema()`` as is through ``ctx.session.elicit_form``
(an enum class as ``$ref``, an ``IntEnum``, ``anyOf`` with null, a free ``list[str]``) and
validates the answer with the same model. ``sign_up_2026`` is the SDK's pattern for both eras:
a ``Resolve`` resolver returning ``Elicit(...)`` (an ``InputRequiredResult`` round on 2026-07-28,
a server-initiated request before). Every tool returns what it validated as JSON.
Runs over stdio in its own virtualenv (``tests/interop/venvs``).
"""

# Written as the frameworks' users write them (``Optional[T]``, ``class Color(str, Enum)``).
# ruff: noqa: UP042, UP045

from __future__ import annotations

import datetime
import enum
import json
from typing import Annotated, Any, Literal, Optional

from mcp.server.elicitation import ElicitationResult
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.resolve import Elicit, Resolve
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
    nickname: Optional[str] = None
    age: int | None = None
    color: Literal["red", "green", "blue"] = "blue"
    interests: list[Literal["math", "music", "engines"]] = Field(default_factory=list)
    newsletter: bool = True


class Preferences(BaseModel):
    nickname: Optional[str] = None
    color: Literal["red", "green", "blue"] = "blue"
    newsletter: bool = True


class FullProfile(BaseModel):
    name: str = Field(min_length=1, description="Your full name")
    email: EmailStr
    birthday: datetime.date
    nickname: Optional[str] = None
    age: int | None = None
    color: Color = Color.blue
    favourite: Optional[Color] = None
    priority: Priority = Priority.normal
    tags: list[str] = Field(default_factory=list)
    newsletter: bool = True


mcp = MCPServer("mcp2-profiles")


def report(action: str, data: BaseModel | None = None) -> str:
    out: dict[str, Any] = {"action": action}
    if data is not None:
        out["data"] = data.model_dump(mode="json")
    return json.dumps(out, sort_keys=True)


@mcp.tool()
async def sign_up(ctx: Context) -> str:
    """Ask for a profile with ctx.elicit and echo what was accepted."""
    result = await ctx.elicit("Create your profile", schema=Profile)
    return report(result.action, getattr(result, "data", None))


@mcp.tool()
async def preferences(ctx: Context) -> str:
    """Ask for preferences that all have defaults."""
    result = await ctx.elicit("Confirm your preferences", schema=Preferences)
    return report(result.action, getattr(result, "data", None))


@mcp.tool()
async def sign_up_full(ctx: Context) -> str:
    """The pydantic schema as is ($defs, anyOf with null), validated by the same model."""
    result = await ctx.request_context.session.elicit_form(
        message="Create your full profile",
        requested_schema=FullProfile.model_json_schema(),
        related_request_id=ctx.request_id,
    )
    if result.action != "accept":
        return report(result.action)
    return report("accept", FullProfile.model_validate(result.content))


def ask_profile() -> Elicit[Profile]:
    return Elicit("Create your profile (2026)", Profile)


@mcp.tool()
async def sign_up_2026(
    answer: Annotated[ElicitationResult[Profile], Resolve(ask_profile)],
) -> str:
    """The SDK's resolver pattern: works on both eras."""
    return report(answer.action, getattr(answer, "data", None))


if __name__ == "__main__":
    mcp.run()

"""A server written with the ``mcp`` Python SDK 1.x (1.30.0), the line most published Python
servers were written against, with its documented ``FastMCP`` API.

``sign_up`` and ``preferences`` use ``ctx.elicit(message, schema=Model)``: the SDK refuses enum
classes, dates and ``EmailStr`` there, so those models have what it allows (``Optional`` and
nullable fields, a free ``list[str]``, an email as ``format: email``, defaults) and send
pydantic's own ``anyOf [T, null]``. ``sign_up_full`` is what many 1.x servers do for the rest:
``ctx.session.elicit(message, requestedSchema=Model.model_json_schema())`` with the full model
(an enum class as ``$ref``/``$defs``, an ``IntEnum``, a date, ``EmailStr``) and
``Model.model_validate`` on the answer. Every tool returns what it validated as JSON.
Runs over stdio in its own virtualenv (``tests/interop/venvs``).
"""

# Written as the frameworks' users write them (``Optional[T]``, ``class Color(str, Enum)``).
# ruff: noqa: UP042, UP045

from __future__ import annotations

import datetime
import enum
import json
from typing import Any, Optional

from mcp.server.fastmcp import Context, FastMCP
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
    email: str = Field(json_schema_extra={"format": "email"})
    nickname: Optional[str] = None
    age: int | None = None
    tags: list[str] = Field(default_factory=list)
    newsletter: bool = True


class Preferences(BaseModel):
    nickname: Optional[str] = None
    tags: list[str] = ["mcp"]  # pydantic copies it; a default_factory would not be in the schema
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


mcp = FastMCP("mcp1-profiles")


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
    result = await ctx.session.elicit(
        message="Create your full profile",
        requestedSchema=FullProfile.model_json_schema(),
        related_request_id=ctx.request_id,
    )
    if result.action != "accept":
        return report(result.action)
    return report("accept", FullProfile.model_validate(result.content))


if __name__ == "__main__":
    mcp.run()

"""Single-form demo tools: a destructive confirmation, an ambiguity, every field kind, and a
confirmation with no fields at all.

Each tool's description says what it demonstrates, because that text is what a user browsing the
demo in mcp-tui reads first.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Final

import mcp_types as types
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from mcp_tui.demo.asking import Asker, DemoContext, Schema, declined_text, run_flow
from mcp_tui.demo.state import DemoState, Project
from mcp_tui.demo.time_zones import DEFAULT_TIME_ZONE, time_zones

#: About 400-500 IANA names (a built-in list of ~70 where the system has no database).
TIME_ZONES: Final[list[str]] = time_zones()

PREFERENCES_SCHEMA: Final[Schema] = {
    "type": "object",
    "properties": {
        "display_name": {
            "type": "string",
            "title": "Display name",
            "description": "Shown next to your comments.",
            "minLength": 1,
            "maxLength": 40,
            "default": "Ada Lovelace",
        },
        "email": {
            "type": "string",
            "format": "email",
            "title": "Email",
            "description": "Where notifications go.",
            "default": "ada@example.com",
        },
        "homepage": {
            "type": "string",
            "format": "uri",
            "title": "Homepage",
            "default": "https://example.com/ada",
        },
        "birthday": {
            "type": "string",
            "format": "date",
            "title": "Birthday",
            "default": "1815-12-10",
        },
        "digest_at": {
            "type": "string",
            "format": "date-time",
            "title": "Next digest",
            "description": "When the next weekly digest is sent (UTC).",
            "default": "2031-05-17T09:30:00Z",
        },
        "volume": {
            "type": "number",
            "title": "Notification volume",
            "description": "0 is silent, 1 is loudest.",
            "minimum": 0,
            "maximum": 1,
            "default": 0.75,
        },
        "page_size": {
            "type": "integer",
            "title": "Items per page",
            "minimum": 5,
            "maximum": 100,
            "default": 25,
        },
        "notifications": {
            "type": "boolean",
            "title": "Send notifications",
            "description": "Email me when something changes.",
            "default": True,
        },
        "theme": {
            "type": "string",
            "title": "Theme",
            "enum": ["system", "light", "dark"],
            "default": "dark",
        },
        "density": {
            "type": "string",
            "title": "Density",
            "oneOf": [
                {"const": "compact", "title": "Compact"},
                {"const": "cozy", "title": "Cozy"},
                {"const": "roomy", "title": "Roomy"},
            ],
            "default": "cozy",
        },
        "language": {
            "type": "string",
            "title": "Language",
            "description": "A legacy select: enum values with enumNames labels.",
            "enum": ["en", "fr", "de", "ja"],
            "enumNames": ["English", "Français", "Deutsch", "日本語"],
            "default": "fr",
        },
        "time_zone": {
            "type": "string",
            "title": "Time zone",
            "description": f"A long select ({len(TIME_ZONES)} zones): type to filter.",
            "enum": TIME_ZONES,
            "default": DEFAULT_TIME_ZONE,
        },
        "channels": {
            "type": "array",
            "title": "Channels",
            "minItems": 1,
            "items": {"type": "string", "enum": ["email", "sms", "push", "chat"]},
            "default": ["email", "push"],
        },
        "topics": {
            "type": "array",
            "title": "Topics",
            "maxItems": 3,
            "items": {
                "anyOf": [
                    {"const": "releases", "title": "Release notes"},
                    {"const": "security", "title": "Security advisories"},
                    {"const": "tips", "title": "Tips and tricks"},
                    {"const": "events", "title": "Events near you"},
                ]
            },
            "default": ["releases", "security"],
        },
    },
    "required": ["display_name", "email"],
}

EMPTY_SCHEMA: Final[Schema] = {"type": "object", "properties": {}}

SURVEY: Final[dict[str, tuple[str, Schema]]] = {
    "rating": (
        "How would you rate the demo so far?",
        {
            "type": "object",
            "properties": {
                "stars": {
                    "type": "integer",
                    "title": "Stars",
                    "minimum": 1,
                    "maximum": 5,
                    "default": 4,
                },
                "comment": {"type": "string", "title": "Comment", "maxLength": 280},
            },
            "required": ["stars"],
        },
    ),
    "follow_up": (
        "May we follow up on your answers?",
        {
            "type": "object",
            "properties": {
                "may_contact": {
                    "type": "boolean",
                    "title": "You may contact me",
                    "default": False,
                },
                "email": {"type": "string", "format": "email", "title": "Email"},
            },
            "required": [],
        },
    ),
}


def survey_summary(answers: dict[str, types.ElicitResult]) -> str:
    """One line per question, in the order asked."""
    rating, follow_up = answers["rating"], answers["follow_up"]
    lines = []
    if rating.action == "accept" and rating.content is not None:
        lines.append(f"Rating: {rating.content['stars']}/5.")
        if rating.content.get("comment"):
            lines.append(f"Comment: {rating.content['comment']}")
    else:
        lines.append("Rating: declined." if rating.action == "decline" else "Rating: cancelled.")
    content = follow_up.content or {}
    if follow_up.action == "accept" and content.get("may_contact") is True:
        email = content.get("email")
        lines.append(
            f"Follow-up: yes, at {email}." if email else "Follow-up: yes, but no email was given."
        )
    else:
        lines.append("Follow-up: no.")
    return "\n".join(lines)


def delete_schema(project: Project) -> Schema:
    """One boolean, default false: the user must act to confirm."""
    return {
        "type": "object",
        "properties": {
            "confirm": {
                "type": "boolean",
                "title": f"Yes, delete {project.name} permanently",
                "description": (
                    f"Removes its environments ({project.environments}) and {project.files:,} "
                    "files. This cannot be undone."
                ),
                "default": False,
            }
        },
        "required": ["confirm"],
    }


def choose_schema(candidates: list[Project]) -> Schema:
    """A titled single-select over the candidate projects."""
    return {
        "type": "object",
        "properties": {
            "project": {
                "type": "string",
                "title": "Project",
                "oneOf": [
                    {"const": p.name, "title": f"{p.name} - {p.description} (updated {p.updated})"}
                    for p in candidates
                ],
            }
        },
        "required": ["project"],
    }


def describe_project(project: Project) -> str:
    environments = (
        "1 environment" if project.environments == 1 else f"{project.environments} environments"
    )
    return (
        f"Opened {project.name} ({project.title}): {project.description}. "
        f"{environments}, {project.files:,} files, updated {project.updated}."
    )


def _known(state: DemoState, name: str) -> Project:
    project = state.projects.get(name)
    if project is None:
        names = ", ".join(state.projects) or "none left"
        raise ToolError(f"There is no project called {name!r}. Projects: {names}.")
    return project


def register(server: MCPServer[Any], state: DemoState) -> None:
    """Add `delete_project`, `open_project`, `set_preferences`, `quick_survey`, `confirm_action`."""

    @server.tool(
        structured_output=False,
        title="Delete a project",
        description=(
            "Demonstrates confirming a destructive action: a single boolean that defaults to "
            "false, so only an explicit tick deletes. Try 'payments-api'."
        ),
        annotations=types.ToolAnnotations(
            destructive_hint=True,
            idempotent_hint=False,
            read_only_hint=False,
            open_world_hint=False,
        ),
    )
    async def delete_project(
        ctx: DemoContext,
        name: Annotated[str, Field(description="The project to delete.", min_length=1)],
    ) -> str | types.InputRequiredResult:
        project = _known(state, name)

        async def flow(asker: Asker) -> str:
            answer = await asker.form(
                "confirm",
                f"Delete the project {project.name} ({project.title})? This cannot be undone.",
                delete_schema(project),
            )
            if answer.action != "accept" or answer.content is None:
                return declined_text(answer, f"Kept {project.name}")
            if answer.content.get("confirm") is not True:
                return f"Kept {project.name}: the confirmation was not ticked."
            state.projects.pop(project.name, None)
            return f"Deleted {project.name}."

        return await run_flow(ctx, flow)

    @server.tool(
        structured_output=False,
        title="Open a project",
        description=(
            "Demonstrates ambiguity resolution: when the name matches several projects, asks "
            "'which of these did you mean' as a titled single-select. 'api' matches three."
        ),
        annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )
    async def open_project(
        ctx: DemoContext,
        name: Annotated[str, Field(description="A project name, or part of one.")] = "api",
    ) -> str | types.InputRequiredResult:
        needle = name.strip().lower()
        exact = state.projects.get(needle)
        candidates = [p for p in state.projects.values() if needle in p.name.lower()]
        if exact is not None:
            return describe_project(exact)
        if not candidates:
            return f"No project matches {name!r}."
        if len(candidates) == 1:
            return describe_project(candidates[0])

        async def flow(asker: Asker) -> str:
            answer = await asker.form(
                "project",
                f"{len(candidates)} projects match {name!r}. Which one did you mean?",
                choose_schema(candidates),
            )
            if answer.action != "accept" or answer.content is None:
                return declined_text(answer, "No project opened")
            chosen = state.projects.get(str(answer.content["project"]))
            if chosen is None:  # deleted between the rounds of a 2026-07-28 call
                return "No project opened: that project no longer exists."
            return describe_project(chosen)

        return await run_flow(ctx, flow)

    @server.tool(
        structured_output=False,
        title="Set preferences",
        description=(
            "Demonstrates every form field kind, each with a default: text, email, URI, date, "
            "date-time, number, integer, boolean, untitled enum, titled single-select (oneOf), "
            "legacy enum with enumNames, a long select to filter as you type (time zone), "
            "untitled and titled multi-selects. Returns the action and the exact content "
            "received, as JSON."
        ),
        annotations=types.ToolAnnotations(read_only_hint=False, idempotent_hint=True),
    )
    async def set_preferences(ctx: DemoContext) -> str | types.InputRequiredResult:
        async def flow(asker: Asker) -> str:
            answer = await asker.form("preferences", "Review your preferences.", PREFERENCES_SCHEMA)
            return json.dumps(
                {"action": answer.action, "content": answer.content}, ensure_ascii=False
            )

        return await run_flow(ctx, flow)

    @server.tool(
        structured_output=False,
        title="Quick survey",
        description=(
            "Demonstrates two independent questions asked together: on 2026-07-28 both forms "
            "arrive in one input_required result (answer them in any order); on 2025-11-25 they "
            "come one after the other."
        ),
        annotations=types.ToolAnnotations(read_only_hint=True),
    )
    async def quick_survey(ctx: DemoContext) -> str | types.InputRequiredResult:
        async def flow(asker: Asker) -> str:
            return survey_summary(await asker.forms(SURVEY))

        return await run_flow(ctx, flow)

    @server.tool(
        structured_output=False,
        title="Confirm an action",
        description=(
            "Demonstrates a confirmation with an empty schema (properties: {}): only the message "
            "and the accept / decline / cancel choice."
        ),
        annotations=types.ToolAnnotations(read_only_hint=True),
    )
    async def confirm_action(
        ctx: DemoContext,
        action: Annotated[str, Field(description="What to confirm.")] = "restart the build agents",
    ) -> str | types.InputRequiredResult:
        async def flow(asker: Asker) -> str:
            answer = await asker.form("confirm", f"Please confirm: {action}.", EMPTY_SCHEMA)
            if answer.action == "accept":
                return f"Confirmed: {action}."
            return declined_text(answer, f"Not confirmed ({action})")

        return await run_flow(ctx, flow)

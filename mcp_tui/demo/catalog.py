"""The non-elicitation part of the demo: something for every panel of the session screen.

- `long_task` reports progress and logs at several levels over a few seconds;
- `search_issues` has a rich `inputSchema` (enums, a bounded integer, a boolean, an optional
  array, an optional date) and a structured result with an `outputSchema`;
- static text and JSON resources, a resource template, two prompts with arguments, and
  completions for the prompt and template arguments.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import date
from typing import Annotated, Any, Final, Literal

import anyio
import mcp_types as types
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError
from pydantic import BaseModel, Field

from mcp_tui.demo.asking import DemoContext, LogLevel, log_to_client
from mcp_tui.demo.state import DemoState

README: Final = """# The mcp-tui demo server

A server that ships inside mcp-tui so that every kind of elicitation can be tried with no other
software. Each tool's description says what it demonstrates:

- **book_table**: a three-step wizard (date and party size, a time slot that depends on them,
  dietary needs and a note).
- **delete_project**: a destructive action confirmed with a boolean that defaults to false.
- **open_project**: "which of these projects did you mean" (a titled single-select).
- **set_preferences**: every field kind, each with a default, and a long time-zone select to
  filter as you type; returns what it received.
- **quick_survey**: two questions at once (one `input_required` round on 2026-07-28).
- **confirm_action**: a confirmation with an empty schema.
- **connect_account**: URL mode, with a page the demo serves itself on 127.0.0.1.
- **list_files**: fails with -32042 until the account is connected, then works on retry.
- **long_task**: progress and log messages at several levels.
- **search_issues**: a rich input schema and a structured result.
- **summarize_issue**: sampling: the server asks the client's model (you) for a sentence.

It speaks both protocol eras: 2025-11-25 (server-to-client `elicitation/create`) and
2026-07-28 (`input_required` results).
"""

MENU: Final = {
    "restaurant": "Trattoria Demo",
    "opening_hours": {
        "Tuesday-Friday": "18:00-22:30",
        "Saturday-Sunday": "12:00-15:00, 18:00-23:00",
    },
    "dishes": [
        {"name": "Cacio e pepe", "price": 14.5, "dietary": ["vegetarian"]},
        {"name": "Risotto ai funghi", "price": 16.0, "dietary": ["vegetarian", "gluten_free"]},
        {"name": "Saltimbocca", "price": 21.0, "dietary": ["gluten_free"]},
        {"name": "Sorbetto al limone", "price": 6.5, "dietary": ["vegan", "gluten_free"]},
    ],
}

_PHASES: Final = (
    "warming up",
    "fetching records",
    "crunching numbers",
    "checking results",
    "writing the report",
    "tidying up",
)
_LEVELS: Final[tuple[LogLevel, ...]] = ("debug", "info", "notice", "warning", "info", "error")

IssueState = Literal["open", "closed"]


class Issue(BaseModel):
    """One issue in the demo tracker."""

    number: int
    title: str
    state: IssueState
    labels: list[str]
    comments: int
    updated: date
    pull_request: bool = False


class IssueSearch(BaseModel):
    """What `search_issues` found."""

    query: str
    total: int = Field(description="Matches before `limit` was applied.")
    issues: list[Issue]


def _issue(
    n: int, title: str, state: IssueState, labels: str, comments: int, updated: str
) -> Issue:
    return Issue(
        number=n,
        title=title,
        state=state,
        labels=labels.split(",") if labels else [],
        comments=comments,
        updated=date.fromisoformat(updated),
        pull_request=title.startswith("PR:"),
    )


ISSUES: Final = [
    _issue(101, "Form loses focus after validation error", "open", "bug,forms", 7, "2031-04-02"),
    _issue(
        102, "Support enumNames in legacy selects", "closed", "enhancement,forms", 3, "2031-03-18"
    ),
    _issue(
        103, "URL consent screen truncates long hosts", "open", "bug,url-mode", 12, "2031-04-09"
    ),
    _issue(
        104, "PR: Add date picker for format: date", "open", "enhancement,forms", 5, "2031-04-10"
    ),
    _issue(105, "Crash when server sends an empty schema", "closed", "bug", 9, "2031-02-27"),
    _issue(106, "Show progress for long-running tools", "open", "enhancement", 2, "2031-03-30"),
    _issue(107, "PR: Retry after -32042 with one key", "closed", "url-mode", 4, "2031-03-05"),
    _issue(108, "Multi-select ignores maxItems", "open", "bug,forms", 1, "2031-04-11"),
    _issue(109, "Document the demo server", "open", "docs", 0, "2031-04-01"),
    _issue(110, "Log panel scrolls to the top on resize", "closed", "bug,ui", 6, "2031-01-19"),
    _issue(111, "Remember the last used server", "open", "enhancement,ui", 8, "2031-03-22"),
    _issue(112, "PR: Wrap URLs in the consent screen", "open", "url-mode,ui", 3, "2031-04-12"),
]


def search(
    query: str,
    state: Literal["open", "closed", "all"],
    sort: Literal["updated", "created", "comments"],
    limit: int,
    include_pull_requests: bool,
    labels: list[str] | None,
    since: date | None,
) -> IssueSearch:
    """Every word of `query` must appear in the title or the labels ("*" matches everything)."""
    words = [] if query.strip() == "*" else query.lower().split()
    found = [
        issue
        for issue in ISSUES
        if all(w in (issue.title + " " + " ".join(issue.labels)).lower() for w in words)
        and (state == "all" or issue.state == state)
        and (include_pull_requests or not issue.pull_request)
        and all(label in issue.labels for label in labels or [])
        and (since is None or issue.updated >= since)
    ]
    keys = {
        "updated": lambda i: (i.updated, i.number),
        "created": lambda i: (date.min, i.number),
        "comments": lambda i: (date.min, i.comments),
    }
    found.sort(key=keys[sort], reverse=True)
    return IssueSearch(query=query, total=len(found), issues=found[:limit])


def register(server: MCPServer[Any], world: DemoState) -> None:
    """Add `long_task`, `search_issues`, the resources, the prompts and the completions."""

    @server.tool(
        structured_output=False,
        title="Run a long task",
        description=(
            "Demonstrates progress notifications and log messages at several levels (debug to "
            "error) over a few seconds. Pass a progress token to see progress; on 2026-07-28 "
            "logs arrive only if the client asks for a log level."
        ),
        annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )
    async def long_task(
        ctx: DemoContext,
        duration: Annotated[float, Field(ge=0, le=60, description="Seconds the task takes.")] = 3.0,
        steps: Annotated[int, Field(ge=1, le=60, description="Progress updates to send.")] = 6,
    ) -> str:
        logger = "demo.long_task"
        await log_to_client(ctx, "info", f"Starting a {duration:g} s task in {steps} steps", logger)
        for step in range(1, steps + 1):
            await anyio.sleep(duration / steps)
            phase = _PHASES[(step - 1) % len(_PHASES)]
            level = _LEVELS[(step - 1) % len(_LEVELS)]
            await ctx.report_progress(step, steps, f"Step {step} of {steps}: {phase}")
            await log_to_client(ctx, level, f"{level}: {phase} (step {step} of {steps})", logger)
        await log_to_client(ctx, "info", "Task finished", logger)
        return f"Finished {steps} steps in {duration:g} s."

    @server.tool(
        title="Search issues",
        description=(
            "Demonstrates a rich input schema (a required string, two enums, a bounded integer, "
            "a boolean, an optional array and an optional date) and a structured result with an "
            "output schema. Searches a small fake issue tracker."
        ),
        annotations=types.ToolAnnotations(read_only_hint=True, idempotent_hint=True),
    )
    async def search_issues(
        query: Annotated[
            str,
            Field(
                min_length=1,
                max_length=200,
                description="Words to find in titles and labels; * for all.",
            ),
        ],
        state: Annotated[
            Literal["open", "closed", "all"], Field(description="Which issues to include.")
        ] = "open",
        sort: Annotated[
            Literal["updated", "created", "comments"], Field(description="Newest or busiest first.")
        ] = "updated",
        limit: Annotated[int, Field(ge=1, le=50, description="At most this many results.")] = 10,
        include_pull_requests: Annotated[
            bool, Field(description="Also list pull requests.")
        ] = False,
        labels: Annotated[
            list[str] | None, Field(description="Only issues that carry all of these labels.")
        ] = None,
        since: Annotated[
            date | None, Field(description="Only issues updated on or after this day.")
        ] = None,
    ) -> IssueSearch:
        return search(query, state, sort, limit, include_pull_requests, labels, since)

    @server.resource(
        "demo://readme", name="readme", title="About this demo", mime_type="text/markdown"
    )
    def readme() -> str:
        return README

    @server.resource(
        "demo://menu.json", name="menu", title="Trattoria Demo menu", mime_type="application/json"
    )
    def menu() -> str:
        return json.dumps(MENU, indent=2)

    @server.resource(
        "demo://projects",
        name="projects",
        title="Projects",
        mime_type="application/json",
        description="The projects that delete_project and open_project work on.",
    )
    def projects() -> str:
        return json.dumps([asdict(p) for p in world.projects.values()], indent=2)

    @server.resource(
        "demo://projects/{name}",
        name="project",
        title="One project",
        mime_type="application/json",
        description="A resource template: one project by name.",
    )
    def project(name: str) -> str:
        found = world.projects.get(name)
        if found is None:
            raise ResourceNotFoundError(f"No project called {name!r}")
        return json.dumps(asdict(found), indent=2)

    @server.prompt(title="Draft release notes")
    def release_notes(
        project: Annotated[str, Field(description="Which project the release is for.")],
        version: Annotated[str, Field(description="The version being released, e.g. 2.4.0.")],
        tone: Annotated[str, Field(description="friendly, formal or terse.")] = "friendly",
    ) -> str:
        """Draft release notes for a project, in the tone you choose."""
        return (
            f"Write release notes for {project} {version} in a {tone} tone. Group the changes "
            "into features, fixes and breaking changes, and keep each entry to one line."
        )

    @server.prompt(title="Triage an issue")
    def triage_issue(
        number: Annotated[str, Field(description="The issue number, e.g. 103.")],
    ) -> str:
        """Suggest labels, a priority and a next step for one issue of the demo tracker."""
        match = next((i for i in ISSUES if str(i.number) == number.strip().lstrip("#")), None)
        subject = f"#{match.number} {match.title!r} ({match.state})" if match else f"#{number}"
        return f"Triage issue {subject}: suggest labels, a priority and the next step."

    @server.completion()  # type: ignore[no-untyped-call, untyped-decorator]
    async def complete(
        ref: types.PromptReference | types.ResourceTemplateReference,
        argument: types.CompletionArgument,
        context: types.CompletionContext | None,
    ) -> types.Completion | None:
        options: list[str]
        if argument.name in ("project", "name"):
            options = list(world.projects)
        elif argument.name == "tone":
            options = ["friendly", "formal", "terse"]
        elif argument.name == "number":
            options = [str(i.number) for i in ISSUES]
        else:
            return None
        values = [o for o in options if o.startswith(argument.value)]
        return types.Completion(values=values, total=len(values), has_more=False)

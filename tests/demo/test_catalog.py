"""What the session screen shows: tools with descriptions, progress and logs, a rich input schema
with a structured result, resources, a resource template, prompts and completions."""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types
import pytest
from mcp import MCPError

from tests.demo.demo_testkit import MODES, accept, demo_client, script, text_of

EXPECTED_TOOLS = {
    "book_table",
    "delete_project",
    "open_project",
    "set_preferences",
    "quick_survey",
    "confirm_action",
    "connect_account",
    "list_files",
    "disconnect_account",
    "long_task",
    "search_issues",
    "summarize_issue",
}


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_every_tool_says_what_it_demonstrates(mode: str) -> None:
    async with demo_client(mode, script()) as client:
        tools = (await client.list_tools()).tools
    assert {t.name for t in tools} == EXPECTED_TOOLS
    for t in tools:
        assert t.title, t.name
        assert t.description, t.name
        if t.name != "disconnect_account":
            assert t.description.startswith("Demonstrates"), t.name
        # Prose answers are not duplicated as {"result": ...} structured content.
        assert (t.output_schema is not None) == (t.name == "search_issues"), t.name


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_a_prose_result_is_text_only(mode: str) -> None:
    async with demo_client(mode, script(accept())) as client:
        result = await client.call_tool("confirm_action", {})
    assert result.structured_content is None
    assert text_of(result) == "Confirmed: restart the build agents."


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_long_task_reports_progress_and_logs_at_several_levels(mode: str) -> None:
    reports: list[tuple[float, float | None, str | None]] = []
    logs: list[tuple[str, Any]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        reports.append((progress, total, message))

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        assert params.logger == "demo.long_task"
        logs.append((params.level, params.data))

    async with demo_client(mode, script(), logging_callback=on_log, log_level="debug") as client:
        result = await client.call_tool(
            "long_task", {"duration": 0.1, "steps": 4}, progress_callback=on_progress
        )
    assert text_of(result) == "Finished 4 steps in 0.1 s."
    assert reports == [
        (1, 4, "Step 1 of 4: warming up"),
        (2, 4, "Step 2 of 4: fetching records"),
        (3, 4, "Step 3 of 4: crunching numbers"),
        (4, 4, "Step 4 of 4: checking results"),
    ]
    assert logs == [
        ("info", "Starting a 0.1 s task in 4 steps"),
        ("debug", "debug: warming up (step 1 of 4)"),
        ("info", "info: fetching records (step 2 of 4)"),
        ("notice", "notice: crunching numbers (step 3 of 4)"),
        ("warning", "warning: checking results (step 4 of 4)"),
        ("info", "Task finished"),
    ]


@pytest.mark.anyio
async def test_long_task_logs_an_error_when_it_runs_long_enough() -> None:
    levels: list[str] = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        levels.append(params.level)

    async with demo_client("legacy", script(), logging_callback=on_log) as client:
        await client.call_tool("long_task", {"duration": 0, "steps": 6})
    assert set(levels) == {"debug", "info", "notice", "warning", "error"}


@pytest.mark.anyio
async def test_the_demo_declares_logging_and_keeps_to_the_level_asked_for() -> None:
    """2025-11-25: ``logging`` is declared, so a client offers "Log level"; after
    ``logging/setLevel`` only that level and above arrive (mcp-tui asked, and got -32601)."""
    levels: list[str] = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        levels.append(params.level)

    async with demo_client("legacy", script(), logging_callback=on_log) as client:
        assert client.server_capabilities.logging is not None
        await client.set_logging_level("warning")
        await client.call_tool("long_task", {"duration": 0, "steps": 6})
    assert levels and set(levels) == {"warning", "error"}


@pytest.mark.anyio
async def test_long_task_rejects_out_of_range_arguments() -> None:
    async with demo_client("legacy", script()) as client:
        result = await client.call_tool("long_task", {"duration": 61})
    assert result.is_error


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_search_issues_has_a_rich_input_schema(mode: str) -> None:
    async with demo_client(mode, script()) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    tool = tools["search_issues"]
    schema = tool.input_schema
    props = schema["properties"]
    assert schema["required"] == ["query"]
    assert props["query"]["type"] == "string"
    assert (props["query"]["minLength"], props["query"]["maxLength"]) == (1, 200)
    assert props["state"]["enum"] == ["open", "closed", "all"]
    assert props["state"]["default"] == "open"
    assert props["sort"]["enum"] == ["updated", "created", "comments"]
    assert props["limit"]["type"] == "integer"
    assert (props["limit"]["minimum"], props["limit"]["maximum"], props["limit"]["default"]) == (
        1,
        50,
        10,
    )
    assert props["include_pull_requests"]["type"] == "boolean"
    assert {"type": "array", "items": {"type": "string"}} in props["labels"]["anyOf"]
    assert {"type": "string", "format": "date"} in props["since"]["anyOf"]
    for name, prop in props.items():
        assert prop.get("description"), name
    assert tool.output_schema is not None
    assert tool.annotations is not None and tool.annotations.read_only_hint is True


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_search_issues_filters_and_returns_structured_content(mode: str) -> None:
    async with demo_client(mode, script()) as client:
        result = await client.call_tool(
            "search_issues",
            {
                "query": "forms",
                "state": "all",
                "labels": ["bug"],
                "include_pull_requests": True,
                "since": "2031-04-01",
            },
        )
        everything = await client.call_tool(
            "search_issues", {"query": "*", "state": "all", "limit": 3, "sort": "comments"}
        )
    assert result.structured_content is not None
    found = result.structured_content
    assert [i["number"] for i in found["issues"]] == [108, 101]
    assert found["total"] == 2
    assert found["issues"][0] == {
        "number": 108,
        "title": "Multi-select ignores maxItems",
        "state": "open",
        "labels": ["bug", "forms"],
        "comments": 1,
        "updated": "2031-04-11",
        "pull_request": False,
    }
    assert json.loads(text_of(result)) == found
    busiest = everything.structured_content
    assert busiest is not None
    assert busiest["total"] == 9  # pull requests are left out by default
    assert [i["comments"] for i in busiest["issues"]] == [12, 9, 8]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_resources_and_a_template(mode: str) -> None:
    async with demo_client(mode, script()) as client:
        resources = (await client.list_resources()).resources
        templates = (await client.list_resource_templates()).resource_templates
        readme = await client.read_resource("demo://readme")
        menu = await client.read_resource("demo://menu.json")
        project = await client.read_resource("demo://projects/website")
        with pytest.raises(MCPError) as missing:
            await client.read_resource("demo://projects/nope")
    by_uri = {str(r.uri): r for r in resources}
    assert set(by_uri) == {"demo://readme", "demo://menu.json", "demo://projects"}
    assert by_uri["demo://readme"].mime_type == "text/markdown"
    assert by_uri["demo://menu.json"].mime_type == "application/json"
    assert [t.uri_template for t in templates] == ["demo://projects/{name}"]
    assert readme.contents[0].text.startswith("# The mcp-tui demo server")  # type: ignore[union-attr]
    assert json.loads(menu.contents[0].text)["restaurant"] == "Trattoria Demo"  # type: ignore[union-attr]
    assert json.loads(project.contents[0].text)["title"] == "Website"  # type: ignore[union-attr]
    assert missing.value.error.code == types.INVALID_PARAMS


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_prompts_with_arguments_and_completions(mode: str) -> None:
    async with demo_client(mode, script()) as client:
        prompts = {p.name: p for p in (await client.list_prompts()).prompts}
        got = await client.get_prompt("release_notes", {"project": "website", "version": "2.4.0"})
        triage = await client.get_prompt("triage_issue", {"number": "#103"})
        projects = await client.complete(
            types.PromptReference(name="release_notes"), {"name": "project", "value": "p"}
        )
        names = await client.complete(
            types.ResourceTemplateReference(uri="demo://projects/{name}"),
            {"name": "name", "value": "mo"},
        )
    assert set(prompts) == {"release_notes", "triage_issue"}
    arguments = prompts["release_notes"].arguments or []
    assert [(a.name, a.required) for a in arguments] == [
        ("project", True),
        ("version", True),
        ("tone", False),
    ]
    assert all(a.description for a in arguments)
    message = got.messages[0]
    assert message.role == "user"
    assert isinstance(message.content, types.TextContent)
    assert message.content.text.startswith("Write release notes for website 2.4.0 in a friendly")
    assert isinstance(triage.messages[0].content, types.TextContent)
    assert (
        "#103 'URL consent screen truncates long hosts' (open)" in triage.messages[0].content.text
    )
    assert projects.completion.values == ["payments-api"]
    assert names.completion.values == ["mobile-app"]

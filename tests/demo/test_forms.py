"""The single-form demo tools on both eras: a destructive confirmation, an ambiguity, every field
kind with its default (and the exact, typed content the tool received), and an empty form."""

from __future__ import annotations

import json
import zoneinfo
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.client import ClientRequestContext

from mcp_tui.demo import time_zones as time_zones_module
from mcp_tui.demo.forms import PREFERENCES_SCHEMA
from mcp_tui.demo.server import build_server
from tests.demo.demo_testkit import (
    MODES,
    Script,
    accept,
    cancel,
    decline,
    demo_client,
    script,
    text_of,
)


async def tool(client: Client, name: str) -> types.Tool:
    listed = await client.list_tools()
    return next(t for t in listed.tools if t.name == name)


# -- delete_project ------------------------------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_delete_asks_with_a_boolean_that_defaults_to_false(mode: str) -> None:
    answers = script(accept(confirm=True))
    async with demo_client(mode, answers) as client:
        annotations = (await tool(client, "delete_project")).annotations
        assert annotations is not None and annotations.destructive_hint is True
        result = await client.call_tool("delete_project", {"name": "payments-api"})
        projects = await client.read_resource("demo://projects")
    answers.assert_done()
    form = answers.asked[0].form
    assert form.message == "Delete the project payments-api (Payments API)? This cannot be undone."
    assert form.requested_schema["required"] == ["confirm"]
    confirm = form.requested_schema["properties"]["confirm"]
    assert confirm["type"] == "boolean"
    assert confirm["default"] is False
    assert confirm["title"] == "Yes, delete payments-api permanently"
    assert text_of(result) == "Deleted payments-api."
    listed = json.loads(projects.contents[0].text)  # type: ignore[union-attr]
    assert "payments-api" not in [p["name"] for p in listed]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("answer", "text"),
    [
        (accept(confirm=False), "Kept website: the confirmation was not ticked."),
        (decline(), "Kept website: you declined."),
        (cancel(), "Kept website: the request was cancelled."),
    ],
)
async def test_delete_keeps_the_project_unless_confirmed(
    mode: str, answer: types.ElicitResult, text: str
) -> None:
    answers = script(answer)
    async with demo_client(mode, answers) as client:
        result = await client.call_tool("delete_project", {"name": "website"})
        still_there = await client.read_resource("demo://projects/website")
    answers.assert_done()
    assert text_of(result) == text
    assert json.loads(still_there.contents[0].text)["name"] == "website"  # type: ignore[union-attr]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_deleting_an_unknown_project_asks_nothing(mode: str) -> None:
    answers = script()
    async with demo_client(mode, answers) as client:
        result = await client.call_tool("delete_project", {"name": "nope"})
    assert result.is_error
    assert "There is no project called 'nope'. Projects: payments-api" in text_of(result)
    assert answers.asked == []


# -- open_project --------------------------------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_open_asks_which_of_three_matching_projects(mode: str) -> None:
    answers = script(accept(project="api-gateway"))
    async with demo_client(mode, answers) as client:
        result = await client.call_tool("open_project", {"name": "api"})
    answers.assert_done()
    form = answers.asked[0].form
    assert form.message == "3 projects match 'api'. Which one did you mean?"
    project = form.requested_schema["properties"]["project"]
    assert [o["const"] for o in project["oneOf"]] == [
        "payments-api",
        "api-gateway",
        "legacy-api-v1",
    ]
    assert project["oneOf"][1]["title"] == (
        "api-gateway - Edge routing and rate limits (updated 5 hours ago)"
    )
    assert form.requested_schema["required"] == ["project"]
    assert text_of(result) == (
        "Opened api-gateway (API gateway): Edge routing and rate limits. "
        "2 environments, 311 files, updated 5 hours ago."
    )


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_open_offers_only_what_is_left_after_a_delete(mode: str) -> None:
    answers = script(accept(confirm=True), decline())
    async with demo_client(mode, answers) as client:
        await client.call_tool("delete_project", {"name": "legacy-api-v1"})
        result = await client.call_tool("open_project", {})
    answers.assert_done()
    options = answers.asked[1].form.requested_schema["properties"]["project"]["oneOf"]
    assert [o["const"] for o in options] == ["payments-api", "api-gateway"]
    assert text_of(result) == "No project opened: you declined."


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("name", "start"),
    [
        ("website", "Opened website"),
        ("mobile", "Opened mobile-app"),
        ("zzz", "No project matches 'zzz'."),
    ],
)
async def test_open_without_ambiguity_asks_nothing(mode: str, name: str, start: str) -> None:
    answers = script()
    async with demo_client(mode, answers) as client:
        result = await client.call_tool("open_project", {"name": name})
    assert answers.asked == []
    assert text_of(result).startswith(start)


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_open_rejects_a_project_that_was_not_offered(mode: str) -> None:
    answers = script(accept(project="website"))
    async with demo_client(mode, answers) as client:
        result = await client.call_tool("open_project", {"name": "api"})
    assert result.is_error
    assert "project:" in text_of(result)


# -- set_preferences -----------------------------------------------------------------------------

DEFAULTS: dict[str, Any] = {
    "display_name": "Ada Lovelace",
    "email": "ada@example.com",
    "homepage": "https://example.com/ada",
    "birthday": "1815-12-10",
    "digest_at": "2031-05-17T09:30:00Z",
    "volume": 0.75,
    "page_size": 25,
    "notifications": True,
    "theme": "dark",
    "density": "cozy",
    "language": "fr",
    "time_zone": "Europe/London",
    "channels": ["email", "push"],
    "topics": ["releases", "security"],
}


def test_preferences_have_a_default_on_every_field_kind() -> None:
    properties = PREFERENCES_SCHEMA["properties"]
    assert {name: p["default"] for name, p in properties.items()} == DEFAULTS
    kinds = {
        "string": properties["display_name"],
        "email": properties["email"],
        "number": properties["volume"],
        "integer": properties["page_size"],
        "boolean": properties["notifications"],
    }
    assert kinds["email"]["format"] == "email"
    assert [kinds[k]["type"] for k in ("string", "number", "integer", "boolean")] == [
        "string",
        "number",
        "integer",
        "boolean",
    ]
    assert properties["theme"]["enum"] == ["system", "light", "dark"]  # untitled single
    assert "oneOf" in properties["density"]  # titled single
    assert properties["language"]["enumNames"] == ["English", "Français", "Deutsch", "日本語"]
    zones = properties["time_zone"]["enum"]  # a long untitled single-select to filter
    assert len(zones) >= 70 and zones[0] == "UTC" and zones[1:] == sorted(zones[1:])
    assert len(set(zones)) == len(zones) and "Europe/London" in zones
    assert f"({len(zones)} zones)" in properties["time_zone"]["description"]
    assert properties["channels"]["items"]["enum"]  # untitled multi
    assert properties["topics"]["items"]["anyOf"][0] == {
        "const": "releases",
        "title": "Release notes",
    }


@pytest.mark.parametrize("available", [set(), {"UTC", "Europe/Paris"}, OSError("no database")])
def test_time_zones_fall_back_to_a_built_in_list(
    monkeypatch: pytest.MonkeyPatch, available: set[str] | Exception
) -> None:
    """No (or a partial) time zone database, as on slim systems: the form stays long and
    still contains its default."""

    def fake() -> set[str]:
        if isinstance(available, Exception):
            raise available
        return available

    monkeypatch.setattr(zoneinfo, "available_timezones", fake)
    zones = time_zones_module.time_zones()
    assert zones == ["UTC", *sorted(z for z in time_zones_module.FALLBACK if z != "UTC")]
    assert "Europe/London" in zones and "Asia/Tokyo" in zones


def test_time_zones_come_from_the_system_database_when_there_is_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    system = {f"Europe/Town{i:03}" for i in range(100)} | {
        "Europe/London",
        "US/Pacific",
        "Etc/GMT+5",
    }
    monkeypatch.setattr(zoneinfo, "available_timezones", lambda: system)
    zones = time_zones_module.time_zones()
    assert zones[0] == "UTC" and len(zones) == 102  # legacy aliases like US/Pacific left out
    assert "US/Pacific" not in zones and "Etc/GMT+5" not in zones


@pytest.mark.anyio
@pytest.mark.parametrize("mode", [*MODES, "2026-07-28"])
async def test_preferences_return_exactly_the_defaults_they_were_sent(mode: str) -> None:
    answers = script(accept(**DEFAULTS))
    async with demo_client(mode, answers) as client:
        result = await client.call_tool("set_preferences", {})
    answers.assert_done()
    assert answers.asked[0].form.requested_schema == PREFERENCES_SCHEMA
    received = json.loads(text_of(result))
    assert received == {"action": "accept", "content": DEFAULTS}
    content = received["content"]
    assert type(content["volume"]) is float
    assert type(content["page_size"]) is int
    assert content["notifications"] is True


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_preferences_keep_the_types_of_changed_values(mode: str) -> None:
    changed = {
        "display_name": "Grace",
        "email": "grace@example.org",
        "volume": 1,
        "page_size": 100,
        "notifications": False,
        "theme": "system",
        "density": "roomy",
        "language": "ja",
        "time_zone": "Asia/Tokyo",
        "channels": ["sms"],
        "topics": [],
    }
    answers = script(accept(**changed))
    async with demo_client(mode, answers) as client:
        result = await client.call_tool("set_preferences", {})
    received = json.loads(text_of(result))["content"]
    assert received == changed
    assert type(received["volume"]) is int  # a whole number stays what the client sent
    assert received["notifications"] is False


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("page_size", "25"),
        ("page_size", 25.0),
        ("notifications", "true"),
        ("volume", 1.5),
        ("theme", "Dark"),
        ("language", "English"),
        ("time_zone", "europe/london"),
        ("time_zone", "Mars/Olympus_Mons"),
        ("time_zone", ["Europe/London"]),
        ("channels", ["fax"]),
        ("channels", []),
        ("topics", ["releases", "security", "tips", "events"]),
        ("email", "not an email"),
        ("birthday", "10/12/1815"),
    ],
)
async def test_preferences_reject_wrongly_typed_content(mode: str, field: str, value: Any) -> None:
    answers = script(accept(**{**DEFAULTS, field: value}))
    async with demo_client(mode, answers) as client:
        result = await client.call_tool("set_preferences", {})
    assert result.is_error
    assert f"with: {field}" in text_of(result)


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("action", ["decline", "cancel"])
async def test_preferences_report_a_decline_or_cancel_without_content(
    mode: str, action: str
) -> None:
    answers = script(types.ElicitResult(action=action))  # type: ignore[arg-type]
    async with demo_client(mode, answers) as client:
        result = await client.call_tool("set_preferences", {})
    assert json.loads(text_of(result)) == {"action": action, "content": None}


# -- confirm_action ------------------------------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("answer", "text"),
    [
        (accept(), "Confirmed: ship it."),
        (types.ElicitResult(action="accept"), "Confirmed: ship it."),
        (decline(), "Not confirmed (ship it): you declined."),
        (cancel(), "Not confirmed (ship it): the request was cancelled."),
    ],
)
async def test_confirm_uses_an_empty_schema(
    mode: str, answer: types.ElicitResult, text: str
) -> None:
    answers = script(answer)
    async with demo_client(mode, answers) as client:
        result = await client.call_tool("confirm_action", {"action": "ship it"})
    answers.assert_done()
    form = answers.asked[0].form
    assert form.message == "Please confirm: ship it."
    assert form.requested_schema["properties"] == {}
    assert form.requested_schema["type"] == "object"
    assert text_of(result) == text


# -- a client that cannot elicit -----------------------------------------------------------------


@pytest.mark.anyio
async def test_a_client_without_elicitation_gets_a_clear_tool_error_on_2025() -> None:
    async with demo_client("legacy") as client:
        result = await client.call_tool("confirm_action", {})
    assert result.is_error
    assert text_of(result).endswith(
        "This demo tool asks the user through form-mode elicitation, "
        "which this client did not declare."
    )


@pytest.mark.anyio
async def test_a_client_without_elicitation_gets_32021_on_2026() -> None:
    from mcp import MCPError

    async with demo_client("auto", server=build_server()) as client:
        with pytest.raises(MCPError) as caught:
            await client.call_tool("confirm_action", {})
    assert caught.value.error.code == types.MISSING_REQUIRED_CLIENT_CAPABILITY
    assert caught.value.error.data == {
        "requiredCapabilities": {"elicitation": {"form": {}}},
    }


# -- quick_survey --------------------------------------------------------------------------------


def by_message(answers: dict[str, types.ElicitResult]) -> Script:
    """Answer by the question's message, whatever order the questions arrive in."""

    async def answer(params: types.ElicitRequestParams) -> types.ElicitResult:
        return answers[params.message]

    return script(*([answer] * len(answers)))


SURVEY_ANSWERS = {
    "How would you rate the demo so far?": accept(stars=5, comment="Lovely forms"),
    "May we follow up on your answers?": accept(may_contact=True, email="ada@example.com"),
}
SURVEY_TEXT = "Rating: 5/5.\nComment: Lovely forms\nFollow-up: yes, at ada@example.com."


@pytest.mark.anyio
async def test_survey_on_2025_asks_one_question_after_the_other() -> None:
    answers = by_message(SURVEY_ANSWERS)
    async with demo_client("legacy", answers) as client:
        result = await client.call_tool("quick_survey", {})
    answers.assert_done()
    assert [a.form.message for a in answers.asked] == list(SURVEY_ANSWERS)
    assert text_of(result) == SURVEY_TEXT


@pytest.mark.anyio
async def test_survey_on_2026_asks_both_questions_in_one_round() -> None:
    both_open = anyio.Event()
    asked: list[str | int] = []

    async def answer(
        context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult:
        asked.append(context.request_id)
        if len(asked) == 2:
            both_open.set()
        with anyio.fail_after(10):  # hangs (and fails) if the questions came one at a time
            await both_open.wait()
        return SURVEY_ANSWERS[params.message]

    async with demo_client("auto", elicitation_callback=answer) as client:
        result = await client.call_tool("quick_survey", {})
    assert sorted(map(str, asked)) == ["follow_up", "rating"]
    assert text_of(result) == SURVEY_TEXT


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_survey_reports_each_answer_on_its_own(mode: str) -> None:
    answers = by_message(
        {
            "How would you rate the demo so far?": decline(),
            "May we follow up on your answers?": accept(may_contact=True),
        }
    )
    async with demo_client(mode, answers) as client:
        result = await client.call_tool("quick_survey", {})
    assert text_of(result) == "Rating: declined.\nFollow-up: yes, but no email was given."

"""URL mode on both eras: the demo's own connect page (pressed with plain HTTP from the test),
`notifications/elicitation/complete` on 2025-11-25, the -32042 error and its retry, and the page
server's own manners (loopback only, Host check, unknown links, stopping with the server)."""

from __future__ import annotations

import re

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import MCPError

from mcp_tui.demo.server import build_server
from tests.demo.demo_testkit import (
    CONNECT_URL,
    MODES,
    Events,
    complete_url,
    decline,
    demo_client,
    page_client,
    press_connect,
    script,
    text_of,
)

ELICITATION_ID = re.compile(r"connect-\d+-[0-9a-f]{8}")
CONNECTED = "Connected as demo-user@example.com."
LISTING = "Files in / of demo-user@example.com:"


def press_in(task_group: anyio.abc.TaskGroup) -> object:
    """An elicitation answer that accepts, then presses the page's button "in the browser"."""

    async def answer(params: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(params, types.ElicitRequestURLParams)
        task_group.start_soon(press_connect, params.url)
        return types.ElicitResult(action="accept")

    return answer


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_connect_account_completes_when_the_page_is_pressed(mode: str) -> None:
    events = Events()
    async with anyio.create_task_group() as tg:
        answers = script(press_in(tg))  # type: ignore[arg-type]
        async with demo_client(mode, answers, message_handler=events.on_message) as client:
            result = await client.call_tool("connect_account", {})
            events.result("connect_account")
            again = await client.call_tool("connect_account", {})
    answers.assert_done()
    asked = answers.asked[0].url
    assert asked.mode == "url"
    assert CONNECT_URL.fullmatch(asked.url)
    assert asked.message == (
        "Connect your demo account so that the demo can list your files. "
        "Open the page and press 'Connect account'."
    )
    assert text_of(result) == CONNECTED
    assert text_of(again).startswith("Already connected as demo-user@example.com.")
    if mode == "legacy":
        assert asked.elicitation_id is not None
        assert ELICITATION_ID.fullmatch(asked.elicitation_id)
        # The completion is announced before the tool's result.
        assert events.seen == [("complete", asked.elicitation_id), ("result", "connect_account")]
    else:  # 2026-07-28 has neither elicitationId nor the notification
        assert asked.elicitation_id is None
        assert answers.asked[0].key == "connect"
        assert events.completed() == []


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_declining_the_page_connects_nothing_and_announces_nothing(mode: str) -> None:
    events = Events()
    answers = script(decline(), decline())
    async with demo_client(mode, answers, message_handler=events.on_message) as client:
        first = await client.call_tool("connect_account", {})
        second = await client.call_tool("connect_account", {})
        # The user presses the button after all: it connects, but nobody was waiting.
        await press_connect(answers.asked[0].url.url)
        listing = await client.call_tool("list_files", {})
    assert text_of(first) == "Not connected: you declined."
    assert answers.asked[0].url.url == answers.asked[1].url.url  # the same pending link
    assert text_of(second) == "Not connected: you declined."
    assert events.completed() == []
    assert text_of(listing).startswith(LISTING)


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_a_page_not_completed_in_time_ends_the_call_then_still_counts(mode: str) -> None:
    events = Events()
    answers = script(types.ElicitResult(action="accept"))
    async with demo_client(mode, answers, message_handler=events.on_message) as client:
        result = await client.call_tool("connect_account", {"wait_seconds": 0.2})
        assert text_of(result) == (
            "Not connected: the page was not completed within 0.2 s. "
            "Press its button, then run this tool again."
        )
        asked = answers.asked[0].url
        await press_connect(asked.url)
        if mode == "legacy":  # announced late, on the connection's standalone channel
            assert asked.elicitation_id is not None
            await events.wait_for_completion(asked.elicitation_id)
        listing = await client.call_tool("list_files", {})
    assert text_of(listing).startswith(LISTING)


@pytest.mark.anyio
async def test_list_files_fails_with_32042_until_connected_then_succeeds_on_retry() -> None:
    events = Events()
    async with demo_client("legacy", script(), message_handler=events.on_message) as client:
        with pytest.raises(MCPError) as first:
            await client.call_tool("list_files", {"folder": "/reports"})
        with pytest.raises(MCPError) as second:
            await client.call_tool("list_files", {"folder": "/reports"})
        errors = [first.value.error, second.value.error]
        assert [e.code for e in errors] == [-32042, -32042]
        assert errors[0].message == "Connect the demo account first."
        asks = [types.ElicitationRequiredErrorData.model_validate(e.data) for e in errors]
        one, two = (a.elicitations[0] for a in asks)
        assert len(asks[0].elicitations) == 1
        assert one.mode == "url"
        assert one.message == (
            "Listing files needs your demo account. "
            "Open the page, press 'Connect account', then retry."
        )
        assert CONNECT_URL.fullmatch(one.url)
        assert one.url == two.url  # same link until the user completes it...
        assert one.elicitation_id != two.elicitation_id  # ...but each elicitation has its id
        assert ELICITATION_ID.fullmatch(one.elicitation_id or "")

        assert "Connected" in await press_connect(one.url)
        await events.wait_for_completion(one.elicitation_id or "")
        await events.wait_for_completion(two.elicitation_id or "")
        retried = await client.call_tool("list_files", {"folder": "/reports"})
    assert not retried.is_error
    assert text_of(retried).splitlines() == [
        "Files in /reports of demo-user@example.com:",
        "  2031-q1.pdf          1.2 MB",
        "  2031-q2.pdf          1.4 MB",
        "  summary.csv          9 KB",
    ]


@pytest.mark.anyio
async def test_list_files_on_2026_asks_for_the_url_in_an_input_required_result() -> None:
    events = Events()
    async with anyio.create_task_group() as tg:
        answers = script(press_in(tg))  # type: ignore[arg-type]
        async with demo_client("auto", answers, message_handler=events.on_message) as client:
            result = await client.call_tool("list_files", {})
    answers.assert_done()
    asked = answers.asked[0]
    assert asked.key == "connect"
    assert asked.url.elicitation_id is None
    assert asked.url.message == (
        "Listing files needs your demo account. Open the page and press 'Connect account'."
    )
    assert text_of(result).startswith(LISTING)
    assert events.completed() == []


@pytest.mark.anyio
async def test_disconnecting_brings_the_32042_back_with_a_new_link() -> None:
    events = Events()
    async with demo_client("legacy", script(), message_handler=events.on_message) as client:
        with pytest.raises(MCPError) as before:
            await client.call_tool("list_files", {})
        url = before.value.error.data["elicitations"][0]["url"]
        await press_connect(url)
        assert text_of(await client.call_tool("list_files", {})).startswith(LISTING)
        assert text_of(await client.call_tool("disconnect_account", {})).startswith("Disconnected.")
        with pytest.raises(MCPError) as after:
            await client.call_tool("list_files", {})
        assert after.value.error.code == -32042
        assert after.value.error.data["elicitations"][0]["url"] != url
        # The old link is gone.
        async with page_client() as http:
            assert (await http.get(url)).status_code == 404
        again = await client.call_tool("disconnect_account", {})
    assert text_of(again) == "The demo account was not connected."


@pytest.mark.anyio
async def test_the_page_refuses_unknown_links_wrong_hosts_and_gets_on_complete() -> None:
    async with demo_client("legacy", script()) as client:
        with pytest.raises(MCPError) as failed:
            await client.call_tool("list_files", {})
        url = failed.value.error.data["elicitations"][0]["url"]
        match = CONNECT_URL.fullmatch(url)
        assert match is not None
        base = f"http://127.0.0.1:{match.group(1)}"
        async with page_client() as http:
            page = await http.get(url)
            assert page.headers["content-security-policy"].startswith("default-src 'none'")
            assert page.headers["x-frame-options"] == "DENY"
            assert (await http.get(f"{base}/connect/not-a-real-token")).status_code == 404
            assert (await http.post(f"{base}/complete/not-a-real-token")).status_code == 404
            assert (await http.get(complete_url(url))).status_code == 405
            rebound = await http.get(url, headers={"Host": "evil.example"})
            assert rebound.status_code == 400
            # None of that connected anything.
            with pytest.raises(MCPError):
                await client.call_tool("list_files", {})
            done = await http.post(complete_url(url))
            assert done.status_code == 200 and "Connected" in done.text
            repeat = await http.post(complete_url(url))
            assert "Already connected" in repeat.text


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_the_page_stops_with_the_server(mode: str) -> None:
    server = build_server()
    answers = script(types.ElicitResult(action="accept"))
    async with demo_client(mode, answers, server=server) as client:
        await client.call_tool("connect_account", {"wait_seconds": 0.2})
        url = answers.asked[0].url.url
        async with page_client() as http:
            assert (await http.get(url)).status_code == 200
    async with page_client() as http:
        with pytest.raises(httpx2.ConnectError):
            await http.get(url)
    # A new connection to the same server starts a new page, and the pending link still works.
    async with anyio.create_task_group() as tg:
        again = script(press_in(tg))  # type: ignore[arg-type]
        async with demo_client(mode, again, server=server) as client:
            result = await client.call_tool("connect_account", {})
    assert text_of(result) == CONNECTED
    assert again.asked[0].url.url != url
